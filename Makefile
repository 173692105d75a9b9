# SPDX-License-Identifier: GPL-2.0-only
#
# mali-perfcnt top-level Makefile.
#
#   make                 build mali_perfcnt.ko for the running kernel (or KDIR=);
#                        MPC_SIM=1 adds the simulated GPU (sim=), as the tests do
#   make user            build libmaliperfcnt and the mali-perfcnt tool
#   make check           host unit tests + the kselftest suite in QEMU on Debian's
#                        6.1 and 6.12 kernels, x86_64 and arm64; ends with
#                        "N passed, N failed"
#   make check-debug     the same on a debug kernel (KASAN, lockdep, kmemleak,
#                        fault injection) with KUnit; ends with "N passed, N failed"
#   make demo            boot a VM with the simulator at 50% load, print counters
#   make bench           userspace decode/derive benchmark
#   make qemu            build (or find cached) qemu-system-aarch64 with the
#                        emulated Mali GPU (scripts/qemu/build.sh)
#   make deps            install the Debian packages the above need

KREL	?= $(shell uname -r)
KDIR	?= /lib/modules/$(KREL)/build
PWD	:= $(shell pwd)

.PHONY: all modules clean user selftests check check-debug demo bench deps sparse checkpatch qemu

all: modules

modules:
	$(MAKE) -C $(KDIR) M=$(PWD) modules

clean:
	$(MAKE) -C $(KDIR) M=$(PWD) clean 2>/dev/null || true
	$(MAKE) -C user clean
	rm -rf build

user:
	$(MAKE) -C user

selftests:
	$(MAKE) -C selftests/drivers/gpu/mali_perfcnt

deps:
	./scripts/deps.sh

check:
	./scripts/check.sh

# The suite again on a KASAN/lockdep/kmemleak/fault-injection kernel, plus KUnit.
check-debug:
	./scripts/check-debug.sh

demo:
	./scripts/demo.sh

# qemu-system-aarch64 with the mali-gpu device (qemu/) and the model (model/).
qemu:
	./scripts/qemu/build.sh

bench:
	./scripts/deps.sh --host
	$(MAKE) -C user bench

# Static checks of the kernel side, for every installed Debian kernel.
sparse:
	./scripts/kernel-lint.sh sparse

checkpatch:
	./scripts/kernel-lint.sh checkpatch
