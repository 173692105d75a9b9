# SPDX-License-Identifier: GPL-2.0-or-later
# The devices of the project's qemu-system-aarch64: the virt board (which
# selects MALI_GPU) and what the test VMs use. QEMU 7.2's target/arm always
# links M-profile and semihosting code, hence ARM_V7M and
# ARM_COMPATIBLE_SEMIHOSTING (without them the link fails).
CONFIG_ARM_VIRT=y
CONFIG_VIRTIO_SERIAL=y
CONFIG_ARM_V7M=y
CONFIG_ARM_COMPATIBLE_SEMIHOSTING=y
