#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Static checks of the kernel side.
#
#   kernel-lint.sh sparse      build with C=2 W=1 (sparse + extra gcc
#                              warnings) for every installed Debian kernel
#                              and, cross-built, every arm64 kernel of
#                              scripts/deps.sh; any warning fails
#   kernel-lint.sh checkpatch  checkpatch.pl --strict on kernel/ uapi/ Kbuild,
#                              taken from Debian's linux-source-6.12 (cached
#                              in build/linux-src)
set -uo pipefail
. "$(dirname "$0")/lib.sh"
cd "$MPC_ROOT" || exit 1

do_sparse() {
	local krel kdir logf rc=0

	for krel in $(mpc_kernels) $(mpc_arm64_kernels); do
		kdir=$MPC_BUILD/lint/$krel
		logf=$MPC_BUILD/lint/$krel.log
		mpc_copy_kernel_tree "$kdir"
		# shellcheck disable=SC2046 # ARCH=... CROSS_COMPILE=... for arm64
		if ! make -C "$kdir" KDIR="$(mpc_kdir "$krel")" C=2 W=1 \
				$(mpc_kmake_args "$krel") -j2 >"$logf" 2>&1; then
			echo "$krel: build failed"
			tail -n 30 "$logf"
			rc=1
			continue
		fi
		# Paths in the copy read better as the originals.
		if grep -E ': (warning|error):' "$logf" |
				sed "s|$kdir/||" | sort -u | grep .; then
			echo "$krel: sparse/W=1 warnings above"
			rc=1
		else
			echo "$krel: sparse and W=1 clean"
		fi
	done
	return $rc
}

do_checkpatch() {
	local src=$MPC_BUILD/linux-src files

	mpc_extract_linux_src scripts/checkpatch.pl scripts/spelling.txt \
		scripts/const_structs.checkpatch || return 1
	mapfile -t files < <(find kernel uapi -type f -name '*.[ch]' | sort)
	files+=(Kbuild)
	if perl "$src/scripts/checkpatch.pl" --strict --no-tree --terse \
			--show-types -f "${files[@]}"; then
		echo "checkpatch --strict: ${#files[@]} files clean"
	else
		echo "checkpatch --strict: problems above"
		return 1
	fi
}

case "${1:-}" in
sparse)		do_sparse ;;
checkpatch)	do_checkpatch ;;
*)		die "usage: $0 sparse|checkpatch" ;;
esac
