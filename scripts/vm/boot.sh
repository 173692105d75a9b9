#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Boot a test VM (QEMU, TCG) and wait for its result.
#
#   boot.sh KREL INITRD LOGDIR [TIMEOUT_S]
#
# LOGDIR/console.log gets ttyS0 (kernel console), LOGDIR/output.log gets
# ttyS1 (what /mpc/run printed). Exit status: the guest's result byte, or
# 125 when the guest died without reporting (panic, triple fault...) and
# 124 when it hung past TIMEOUT_S (default 600).
set -uo pipefail
. "$(dirname "$0")/../lib.sh"

[ $# -ge 3 ] || die "usage: $0 KREL INITRD LOGDIR [TIMEOUT_S]"
krel=$1 initrd=$2 logdir=$3 tmo=${4:-600}
kernel=/boot/vmlinuz-$krel
[ -r "$kernel" ] || die "$kernel missing"
mkdir -p "$logdir"
rm -f "$logdir/console.log" "$logdir/output.log"

accel=tcg
[ -w /dev/kvm ] && accel=kvm

timeout --foreground -k 10 "$tmo" qemu-system-x86_64 \
	-accel "$accel" -m 1G -smp 2 -cpu max \
	-display none -monitor none -no-reboot \
	-kernel "$kernel" -initrd "$initrd" \
	-append "console=ttyS0 panic=-1 quiet loglevel=4" \
	-serial "file:$logdir/console.log" \
	-serial "file:$logdir/output.log" \
	-device isa-debug-exit,iobase=0xf4,iosize=0x04 \
	</dev/null >"$logdir/qemu.log" 2>&1
rc=$?

case $rc in
124|137)	echo "timeout after ${tmo}s" >>"$logdir/qemu.log"; exit 124 ;;
0)		exit 125 ;;	# guest powered off or panicked: no report
esac
# QEMU's own errors also exit 1: trust the code only with the guest's line.
if [ $((rc & 1)) -eq 1 ] &&
   grep -qx "=== RESULT $((rc >> 1))" "$logdir/output.log" 2>/dev/null; then
	exit $((rc >> 1))
fi
exit 125
