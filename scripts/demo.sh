#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# `make demo`: boot a VM (the Debian 6.1 kernel) with the simulated Mali-G52
# at 50% load and print what the driver reports: perfcnt_counters after one
# second, then `mali-perfcnt stat -I 200 -n 3` when the tool is built.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
cd "$MPC_ROOT"

"$MPC_ROOT/scripts/deps.sh"
mpc_accel
krel=${MPC_DEMO_KERNEL:-$(mpc_kernels | sed -n 1p)}
out=$MPC_BUILD/demo
kdir=$MPC_BUILD/kmod/$krel
mpc_guest_module "$krel" "$out"
user=()
if [ -f user/Makefile ]; then
	log "== build user/"
	if mpc_make_user x86_64 "" >"$out/user-build.log" 2>&1; then
		user=(--user)
	else
		log "user/ does not build, demo without the tool (see $out/user-build.log)"
	fi
fi
scripts/vm/mkinitramfs.sh --module "$kdir/mali_perfcnt.ko" \
	--run scripts/vm/guest-demo.sh ${user[@]+"${user[@]}"} \
	"$krel" "$out/initramfs.cpio.gz"

log "== boot $krel"
mpc_boot_show "$krel" "$out/initramfs.cpio.gz" "$out/vm" 300
