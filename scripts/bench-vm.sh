#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The VM part of `make bench`: boots the newest installed x86_64 Debian
# kernel with mali_perfcnt on its simulator and prints what
# selftests/.../stream_bench.c measures (the sampling stream at 10 kHz and
# 1 kHz for MPC_BENCH_SECONDS, default 10; one sample by DUMP, cat
# perfcnt_dump and a stream record; session SAMPLE; periodic sessions'
# rings at 1 and 10 kHz, one and eight). Printed, never asserted.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
cd "$MPC_ROOT"

"$MPC_ROOT/scripts/deps.sh"
mpc_accel
krel=$(mpc_kernels | grep -v arm64 | tail -n 1)
out=$MPC_BUILD/bench
kdir=$MPC_BUILD/kmod/$krel
mpc_guest_module "$krel" "$out"
log "== bench: build stream_bench"
mpc_make_selftests x86_64 "$out/selftests" >"$out/selftests.log" 2>&1 ||
	{ cat "$out/selftests.log"; die "selftests build failed"; }
echo "MPC_BENCH_SECONDS=${MPC_BENCH_SECONDS:-10}" >"$out/env"
scripts/vm/mkinitramfs.sh --module "$kdir/mali_perfcnt.ko" --selftests "$out/selftests" \
	--file "$out/env:/mpc/bench-env" --run scripts/vm/guest-bench.sh "$krel" "$out/initramfs.cpio.gz" >"$out/initramfs.log" 2>&1 ||
	{ cat "$out/initramfs.log"; die "initramfs build failed"; }
log "== bench: boot $krel ($MPC_ACCEL_VERDICT)"
mpc_boot_show "$krel" "$out/initramfs.cpio.gz" "$out/vm" 600
