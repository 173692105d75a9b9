#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Boot a test VM (QEMU) and wait for its result.
#
#   boot.sh [options] KREL INITRD LOGDIR [TIMEOUT_S]
#     --qemu BIN        arm64: this qemu-system-aarch64 (e.g. the one of
#                       scripts/qemu/build.sh, which has no PCI NIC: the
#                       command line gets -nic none)
#     --machine OPTS    arm64: more -M virt options, e.g. mali=g52
#     --qemu-arg ARG    one more QEMU argument (repeatable), e.g.
#                       --qemu-arg -global --qemu-arg mali-gpu.mhz=800
#     --append WORDS    more kernel command line (repeatable), e.g.
#                       swiotlb=force (every streaming DMA mapping bounces);
#                       also from $MPC_EXTRA_APPEND
#
# LOGDIR/console.log gets the kernel console, LOGDIR/output.log what
# /mpc/run printed (see scripts/vm/init), LOGDIR/qemu.log QEMU's own output
# and exit status. Exit status: the guest's result byte, or 125 when the
# guest died without reporting (panic, triple fault...), 126 when QEMU
# itself failed before the guest printed anything (its error lines are
# printed on stderr), and 124 when the guest hung past TIMEOUT_S (default
# 600). A guest that died while booting, after printing but before /mpc/run
# began any test, is booted once more; a QEMU failure never is.
#
# x86_64 kernels (/boot/vmlinuz-KREL): qemu-system-x86_64 -M pc, with the
# accelerator and CPU model of this run (mpc_accel, scripts/lib.sh: KVM with
# -cpu host where a probe guest ran, else TCG with -cpu max), console
# ttyS0, output ttyS1, result through isa-debug-exit (QEMU exits with
# (rc << 1) | 1). arm64 kernels (*-arm64, from the arm64 root of
# scripts/deps.sh): qemu-system-aarch64 -M virt -cpu cortex-a57, console
# ttyAMA0, output on a virtio console, result through semihosting SYS_EXIT
# (QEMU exits with rc). Either way the exit code counts only together with
# the guest's "=== RESULT <rc>" line.
set -uo pipefail
. "$(dirname "$0")/../lib.sh"

qemu_a64=qemu-system-aarch64 machine=virt extra=() append=${MPC_EXTRA_APPEND:-}
while [ $# -gt 0 ]; do
	case "$1" in
	--append)	append+=" $2"; shift 2 ;;
	--qemu)		qemu_a64=$2; extra+=(-nic none); shift 2 ;;
	--machine)	machine+=",$2"; shift 2 ;;
	--qemu-arg)	extra+=("$2"); shift 2 ;;
	-*)		die "unknown option $1" ;;
	*)		break ;;
	esac
done
[ $# -ge 3 ] || die "usage: $0 [options] KREL INITRD LOGDIR [TIMEOUT_S]"
krel=$1 initrd=$2 logdir=$3 tmo=${4:-600}
arch=$(mpc_arch "$krel")
kernel=$(mpc_sysroot "$krel")/boot/vmlinuz-$krel
[ -r "$kernel" ] || die "$kernel missing"
mkdir -p "$logdir"
rm -f "$logdir/console.first-boot.log"

case $arch in
arm64)
	# -cpu max would be 2.5x slower (pointer authentication emulation).
	qemu=("$qemu_a64" -M "$machine" -cpu cortex-a57 -m 1G -smp 2
	      -display none -monitor none -no-reboot
	      -kernel "$kernel" -initrd "$initrd"
	      -append "console=ttyAMA0 panic=-1 quiet loglevel=4${append:+ $append}"
	      -serial "file:$logdir/console.log"
	      -semihosting-config "enable=on,target=native,userspace=on"
	      -device virtio-serial-device
	      -chardev "file,id=out,path=$logdir/output.log"
	      -device "virtconsole,chardev=out"
	      ${extra[@]+"${extra[@]}"})
	;;
*)
	mpc_accel_verdict
	read -r accel cpu _ <<<"$MPC_ACCEL_VERDICT"
	# One TCG thread for both vCPUs: x86 Linux patches live kernel text
	# with int3 (text_poke_bp) while the other CPUs run, e.g. the
	# sched_clock static key it flips about 1.2 s into every boot
	# (sched_clock_init_late, "sched_clock: Marking stable"), and under
	# multi-threaded TCG a vCPU can execute the half-patched code: the
	# oops in sched_clock_cpu of the 6.12 kernel. With thread=single only
	# one vCPU runs at a time, so no vCPU sees a patch half done.
	[ "$accel" = tcg ] && accel=tcg,thread=${MPC_TCG_THREAD:-single}
	qemu=(qemu-system-x86_64 -accel "$accel" -m 1G -smp 2 -cpu "$cpu"
	      -display none -monitor none -no-reboot
	      -kernel "$kernel" -initrd "$initrd"
	      -append "console=ttyS0 panic=-1 quiet loglevel=4${append:+ $append}"
	      -serial "file:$logdir/console.log"
	      -serial "file:$logdir/output.log"
	      -device "isa-debug-exit,iobase=0xf4,iosize=0x04"
	      ${extra[@]+"${extra[@]}"})
	;;
esac

# boot_once: one boot; its verdict as described at the top.
boot_once() {
	local rc

	rm -f "$logdir/console.log" "$logdir/output.log"
	timeout --foreground -k 10 "$tmo" "${qemu[@]}" </dev/null >"$logdir/qemu.out" 2>&1
	rc=$?
	cat "$logdir/qemu.out" >>"$logdir/qemu.log"
	echo "qemu exit status $rc" >>"$logdir/qemu.log"

	case $rc in
	124|137)	echo "timeout after ${tmo}s" >>"$logdir/qemu.log"; return 124 ;;
	esac
	# QEMU's own errors also exit 1, a poweroff or a panic 0: trust the
	# code only with the guest's line.
	if [ "$arch" = arm64 ]; then
		grep -qx "=== RESULT $rc" "$logdir/output.log" 2>/dev/null && return "$rc"
	elif [ "$rc" -ne 0 ] && [ $((rc & 1)) -eq 1 ] &&
	     grep -qx "=== RESULT $((rc >> 1))" "$logdir/output.log" 2>/dev/null; then
		return $((rc >> 1))
	fi
	# Failed with nothing from the guest: QEMU itself (a KVM that cannot
	# run a guest aborts so, or a bad option).
	if [ "$rc" -ne 0 ] && [ ! -s "$logdir/console.log" ] && [ ! -s "$logdir/output.log" ]; then
		return 126
	fi
	return 125
}

: >"$logdir/qemu.log"
boot_once
rc=$?
# A guest that died before /mpc/run began its first section never ran our
# code: boot it once more, keeping the first console, as a last resort (the
# known cause, the 6.12 kernel's text patching under multi-threaded TCG, is
# avoided above). A death after a section began is never retried, nor is a
# QEMU failure: it is shown instead.
if [ "$rc" -eq 125 ] && ! grep -q '^=== BEGIN ' "$logdir/output.log" 2>/dev/null; then
	mv "$logdir/console.log" "$logdir/console.first-boot.log"
	log "boot.sh: $krel died while booting, before any test (first console:" \
		"$logdir/console.first-boot.log); booting once more"
	echo "died before any test; second boot" >>"$logdir/qemu.log"
	boot_once
	rc=$?
fi
if [ "$rc" -eq 126 ]; then
	log "boot.sh: QEMU failed before $krel printed anything: ${qemu[*]}"
	sed 's/^/boot.sh:   /' "$logdir/qemu.out" >&2
fi
exit "$rc"
