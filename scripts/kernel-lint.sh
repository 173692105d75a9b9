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
#                              and on model/ (stdint types allowed),
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
	local model rc=0

	mapfile -t files < <(find kernel uapi -type f -name '*.[ch]' | sort)
	files+=(Kbuild)
	if perl "$src/scripts/checkpatch.pl" --strict --no-tree --terse \
			--show-types -f "${files[@]}"; then
		echo "checkpatch --strict: ${#files[@]} files clean"
	else
		echo "checkpatch --strict: problems above"
		rc=1
	fi
	# The GPU model is kernel-style C that also builds outside the kernel
	# (QEMU, host tests): <stdint.h> types and no BIT(), else the same rules.
	mapfile -t model < <(find model -maxdepth 1 -type f -name '*.[ch]' | sort)
	if perl "$src/scripts/checkpatch.pl" --strict --no-tree --terse \
			--show-types --ignore PREFER_KERNEL_TYPES,BIT_MACRO \
			-f "${model[@]}"; then
		echo "checkpatch --strict (model/, stdint types allowed): ${#model[@]} files clean"
	else
		echo "checkpatch --strict (model/): problems above"
		rc=1
	fi
	return $rc
}

case "${1:-}" in
sparse)		do_sparse ;;
checkpatch)	do_checkpatch ;;
*)		die "usage: $0 sparse|checkpatch" ;;
esac
