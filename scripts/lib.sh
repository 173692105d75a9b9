# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=bash
#
# Helpers shared by the scripts in this directory (sourced, not run).

MPC_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
MPC_BUILD=${MPC_BUILD:-$MPC_ROOT/build}
MPC_LINUX_SRC=${MPC_LINUX_SRC:-/usr/src/linux-source-6.12.tar.xz}

log() { printf '%s\n' "$*" >&2; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }

# Newest installed Debian kernel of each supported series (6.1 and 6.12)
# that has both headers and an image, one release per line.
mpc_kernels() {
	local series rel
	for series in '6.1.0-*-amd64' '6.12.*-amd64'; do
		rel=$(cd /lib/modules && for d in $series; do
			[ -e "$d/build/Makefile" ] && [ -e "/boot/vmlinuz-$d" ] &&
				echo "$d"
		done | sort -V | tail -n 1)
		[ -n "$rel" ] && echo "$rel"
	done
}

# mpc_extract_linux_src FILE...: copy FILEs (paths inside the kernel tree)
# out of Debian's linux-source tarball into $MPC_BUILD/linux-src, once.
mpc_extract_linux_src() {
	local dest=$MPC_BUILD/linux-src top f need=()

	for f in "$@"; do
		[ -e "$dest/$f" ] || need+=("$f")
	done
	[ ${#need[@]} -eq 0 ] && return 0
	[ -r "$MPC_LINUX_SRC" ] || die "$MPC_LINUX_SRC missing (scripts/deps.sh)"
	top=$(basename "$MPC_LINUX_SRC" .tar.xz)
	mkdir -p "$dest"
	tar -xJf "$MPC_LINUX_SRC" -C "$dest" --strip-components=1 \
		"${need[@]/#/$top/}"
}
