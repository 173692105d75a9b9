#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Decide which accelerator the x86_64 test guests use, by trying it.
#
#   accel-probe.sh
#
# Prints one line, "ACCEL CPU WHY": the -accel and -cpu values boot.sh
# passes to qemu-system-x86_64, then why, e.g.
#   kvm host a probe guest booted and reported in 0.9 s
#   tcg max kvm present but failed to start a guest: qemu-system-x86_64: error: failed to set MSR 0x10a to 0x69
#   tcg max no /dev/kvm
# Scripts call it through mpc_accel (scripts/lib.sh), once per run.
#
# /dev/kvm existing, even writable, does not mean KVM can run a guest (nested
# virtualisation may lack what QEMU sets up, or hang in KVM_RUN), so the probe
# boots the newest installed Debian kernel with a 1-file initramfs whose /init
# (accel-probe-init.c) writes to isa-debug-exit at once, under
# `-accel kvm -cpu host`, and uses KVM only if that guest reports within
# MPC_ACCEL_PROBE_TIMEOUT seconds (default 8; a KVM boot takes about 1 s).
#
# MPC_ACCEL=kvm|tcg skips the probe's choice: tcg is used as is; kvm is still
# probed, and a KVM that cannot run a guest is an error (exit 1), never a
# silent TCG. MPC_KVM_DEV (default /dev/kvm) and MPC_ACCEL_PROBE_KERNEL
# (default: the newest installed 6.1/6.12 kernel image) exist for the tests
# of this script (scripts/tests/accel_test.sh).
set -uo pipefail
. "$(dirname "$0")/../lib.sh"

want=${MPC_ACCEL:-}
kvm_dev=${MPC_KVM_DEV:-/dev/kvm}
tmo=${MPC_ACCEL_PROBE_TIMEOUT:-8}

case $want in
''|kvm|tcg) ;;
*) die "MPC_ACCEL=$want: want kvm or tcg, or leave it unset to probe" ;;
esac

# verdict ACCEL WHY: print the line and stop; MPC_ACCEL=kvm turns a TCG
# verdict into an error.
verdict() {
	if [ "$1" = tcg ] && [ "$want" = kvm ]; then
		die "MPC_ACCEL=kvm, but KVM cannot be used here: $2 (unset MPC_ACCEL to fall back to TCG)"
	fi
	case $1 in
	kvm)	echo "kvm host $2" ;;
	*)	echo "tcg max $2" ;;
	esac
	exit 0
}

[ "$want" = tcg ] && verdict tcg "MPC_ACCEL=tcg"
[ -e "$kvm_dev" ] || verdict tcg "no $kvm_dev"
if [ ! -r "$kvm_dev" ] || [ ! -w "$kvm_dev" ]; then
	verdict tcg "$kvm_dev is not readable and writable by uid $(id -u)"
fi

kernel=${MPC_ACCEL_PROBE_KERNEL:-}
if [ -z "$kernel" ]; then
	krel=$(mpc_kernels | tail -n 1)
	[ -n "$krel" ] || verdict tcg "kvm present but not probed: no Debian kernel installed to boot"
	kernel=/boot/vmlinuz-$krel
fi
[ -r "$kernel" ] || verdict tcg "kvm present but not probed: $kernel is not readable"

# The probe's initramfs, built once per checkout (its source is the key).
tools=$MPC_BUILD/vm-tools/x86_64
initrd=$tools/accel-probe.cpio.gz
src=$MPC_ROOT/scripts/vm/accel-probe-init.c
if [ ! -s "$initrd" ] || [ "$src" -nt "$initrd" ]; then
	stage=$(mktemp -d "${TMPDIR:-/tmp}/mpc-accel-probe.XXXXXX")
	if ! gcc -static -O2 -o "$stage/init" "$src" >"$stage/gcc.log" 2>&1; then
		why=$(head -n 1 "$stage/gcc.log")
		rm -rf "$stage"
		verdict tcg "kvm present but not probed: the probe guest does not build ($why)"
	fi
	mkdir -p "$tools"
	(cd "$stage" && echo init | cpio -o -H newc --quiet) | gzip -9 >"$initrd.tmp" &&
		mv "$initrd.tmp" "$initrd"
	rm -rf "$stage"
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/mpc-accel.XXXXXX")
trap 'rm -rf "$work"' EXIT
t0=$(date +%s%N)
# In a subshell whose stderr is closed off, so that the shell's own note
# on a QEMU killed by a signal ("Aborted") is not printed; QEMU's messages
# go to qemu.log and its status to rc.
(
	qemu-system-x86_64 -accel kvm -cpu host -m 256 -smp 1 \
		-nodefaults -display none -no-reboot \
		-kernel "$kernel" -initrd "$initrd" \
		-append "console=ttyS0 panic=-1 quiet" \
		-serial "file:$work/console.log" \
		-device isa-debug-exit,iobase=0xf4,iosize=0x04 \
		</dev/null >"$work/qemu.log" 2>&1 &
	echo $! >"$work/pid"
	wait $!
	echo $? >"$work/rc"
) 2>/dev/null &
sub=$!
while [ ! -s "$work/pid" ] && kill -0 "$sub" 2>/dev/null; do
	sleep 0.05
done
pid=$(cat "$work/pid" 2>/dev/null)
# A KVM internal error stops the guest and leaves QEMU waiting for a monitor
# command: that is a verdict too, no need to wait for the timeout.
how=exited
while [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; do
	if grep -q 'KVM internal error' "$work/qemu.log"; then
		how=stopped
		break
	fi
	if [ $((($(date +%s%N) - t0) / 1000000000)) -ge "$tmo" ]; then
		how=timeout
		break
	fi
	sleep 0.1
done
[ "$how" = exited ] || kill -KILL "$pid" 2>/dev/null
wait "$sub"
rc=$(cat "$work/rc" 2>/dev/null || echo 255)
ms=$((($(date +%s%N) - t0) / 1000000))

# 85 = (0x2a << 1) | 1: the probe's /init reached the port.
[ "$how" = exited ] && [ "$rc" -eq 85 ] &&
	verdict kvm "a probe guest booted and reported in $((ms / 1000)).$((ms % 1000 / 100)) s"
first=$(grep -m 1 -v '^[[:space:]]*$' "$work/qemu.log")
[ "$how" = timeout ] &&
	verdict tcg "kvm present but a probe guest did not report within ${tmo} s${first:+ ($first)}"
[ -n "$first" ] && verdict tcg "kvm present but failed to start a guest: $first"
verdict tcg "kvm present but a probe guest exited with status $rc without reporting"
