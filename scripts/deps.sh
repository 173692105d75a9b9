#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Install the Debian packages the build and the tests need, and nothing else.
#
#   scripts/deps.sh          everything: kernels, headers, QEMU, initramfs
#                            tools, the Debian packaging tools (make deb,
#                            DKMS), what the QEMU GPU and the debug kernel
#                            build with, the arm64 cross toolchain,
#                            qemu-system-arm and the arm64 kernels and guest
#                            userland
#   scripts/deps.sh --no-arm64  the same without arm64 (scripts/check.sh, when
#                            no target it runs is an arm64 one)
#   scripts/deps.sh --host   only what the host-side userspace tests need
#   scripts/deps.sh --mesa   only Debian's arm64 Mesa (panfrost's DRI driver,
#                            libEGL, libGLESv2, their libraries; ~60 MB) for
#                            the qemu-gpu guests' GLES client (mkinitramfs.sh
#                            --mesa), into $MPC_ARM64_CACHE/mesa; needs the
#                            arm64 architecture a full run enabled
#
# The arm64 packages are downloaded (apt-get download, never installed) into
# $MPC_ARM64_CACHE/debs (default /var/cache/mali-perfcnt/arm64) and
# extracted into $MPC_ARM64_CACHE/root, one arm64 kernel per installed amd64
# kernel with the same ABI (6.1.0-N-arm64, 6.12.*+deb12-arm64).
#
# A fast no-op when everything is already in place.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

host_pkgs=(gcc make pkg-config libdrm-dev libkmod-dev clang libclang-rt-14-dev shellcheck
	protobuf-compiler tmux)
vm_pkgs=(linux-image-amd64 linux-headers-amd64
	 linux-image-6.12-amd64 linux-headers-6.12-amd64
	 linux-source-6.1 linux-source-6.12
	 qemu-system-x86 busybox-static cpio kmod xz-utils sparse trinity)
# make deb and its test (scripts/tests/deb_test.sh), the man -l test
deb_pkgs=(dpkg-dev debhelper dh-dkms dkms lintian man-db)
arm64_host_pkgs=(gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-system-arm)
# What the QEMU GPU and the debug kernel build with (scripts/lib.sh): here,
# so that a run can start those builds in the background
build_pkgs=("${MPC_QEMU_BUILD_PKGS[@]}" "${MPC_DEBUG_KERNEL_PKGS[@]}")
# The arm64 guest's userland: busybox, and the tool's shared libraries with
# theirs (libkmod2: liblzma5, libssl3, libzstd1); the -dev packages for the
# cross build of the tool.
arm64_user_debs=(busybox-static libc6 libdrm2 libdrm-dev libkmod2 libkmod-dev
		 liblzma5 libssl3 libzstd1)
# Mesa for the guests: these and what they depend on (apt-cache resolves
# it), and the two -dev packages alone (headers and .so links for the cross
# build of the GLES client, not their X11 development dependencies).
mesa_debs=(libegl1 libgles2 libgl1-mesa-dri libegl-mesa0 libgbm1)
mesa_dev_debs=(libegl-dev libgles-dev)

arm64=0
mesa=0
case "${1:-}" in
--host)	want=("${host_pkgs[@]}") ;;
--no-arm64) want=("${host_pkgs[@]}" "${vm_pkgs[@]}" "${deb_pkgs[@]}" "${build_pkgs[@]}") ;;
--mesa)	want=(); mesa=1 ;;
"")	want=("${host_pkgs[@]}" "${vm_pkgs[@]}" "${deb_pkgs[@]}" "${arm64_host_pkgs[@]}"
	      "${build_pkgs[@]}")
	arm64=1 ;;
*)	echo "usage: $0 [--host | --no-arm64 | --mesa]" >&2; exit 2 ;;
esac

export DEBIAN_FRONTEND=noninteractive
need_root() {
	[ "$(id -u)" -eq 0 ] && return 0
	echo "deps: $* (run as root)" >&2
	exit 1
}

# (--mesa) Debian's arm64 Mesa, in its own part of the cache: mesa/debs,
# extracted into mesa/root; mesa/root/.mpc-mesa lists what is there.
mesa_dir=$MPC_ARM64_CACHE/mesa
mesa_ready() {
	[ -s "$mesa_dir/root/.mpc-mesa" ] &&
		[ -e "$mesa_dir/root/usr/lib/aarch64-linux-gnu/dri/panfrost_dri.so" ] &&
		[ -e "$mesa_dir/root/usr/include/GLES2/gl2.h" ]
}
# mesa_closure: the arm64 packages Mesa needs, one a line (arch-all ones
# without the :arm64 suffix), as apt resolves them: probed, not assumed.
mesa_closure() {
	local p args=()

	for p in "${mesa_debs[@]}"; do
		args+=("$p:arm64")
	done
	apt-cache depends --recurse --no-recommends --no-suggests --no-conflicts \
		--no-breaks --no-replaces --no-enhances "${args[@]}" </dev/null |
		grep -v '^[ <]' | sort -u
	for p in "${mesa_dev_debs[@]}"; do
		echo "$p:arm64"
	done
}
fetch_mesa() {
	local p list get=()

	mkdir -p "$mesa_dir/debs" "$mesa_dir/root"
	exec 9>"$mesa_dir/.lock"
	flock 9
	mesa_ready && return 0
	list=$(mesa_closure) || { echo "deps: apt-cache cannot resolve Mesa" >&2; exit 1; }
	[ -n "$list" ] || { echo "deps: apt-cache resolved no Mesa packages" >&2; exit 1; }
	for p in $list; do
		ls "$mesa_dir/debs/${p%:arm64}"_*.deb >/dev/null 2>&1 || get+=("$p")
	done
	echo "deps: Mesa for arm64: $(echo "$list" | wc -l) packages, ${#get[@]} to download"
	if [ ${#get[@]} -gt 0 ] &&
	   ! (cd "$mesa_dir/debs" && apt-get download -q -o APT::Sandbox::User=root \
		"${get[@]}" </dev/null); then
		echo "deps: cannot download Mesa's packages (apt-get update?)" >&2
		exit 1
	fi
	for p in "$mesa_dir"/debs/*.deb; do
		dpkg-deb -x "$p" "$mesa_dir/root"
	done
	echo "$list" >"$mesa_dir/root/.mpc-mesa"
	mesa_ready || { echo "deps: Mesa extracted, but panfrost_dri.so or GLES2/gl2.h is missing" >&2; exit 1; }
}

if [ "$mesa" = 1 ]; then
	mesa_ready && exit 0
	need_root "Mesa is not in $mesa_dir"
	dpkg --print-foreign-architectures | grep -qx arm64 ||
		{ echo "deps: no arm64 architecture in dpkg: run scripts/deps.sh first" >&2; exit 1; }
	fetch_mesa
	exit 0
fi

# 1. Host packages.
mpc_install_pkgs deps "${want[@]}"
[ "$arm64" = 1 ] || exit 0

# 2. arm64 kernels and guest userland, in the cache.
debs=$MPC_ARM64_CACHE/debs
root=$MPC_ARM64_ROOT
stamps=$root/.mpc-extracted
user_stamp=$stamps/userland

arm64_ready() {
	local rel

	[ "$(cat "$user_stamp" 2>/dev/null)" = "${arm64_user_debs[*]}" ] || return 1
	for rel in $(mpc_arm64_wanted); do
		case " $(mpc_arm64_kernels | tr '\n' ' ') " in
		*" $rel "*) ;;
		*) return 1 ;;
		esac
		[ -e "$root/usr/src/linux-headers-$rel/scripts/Makefile.build" ] ||
			return 1
	done
}
arm64_ready && exit 0
need_root "the arm64 packages are not all in $MPC_ARM64_CACHE"
mkdir -p "$debs" "$stamps"
# One writer at a time; readers (check.sh) only start after deps.sh.
exec 8>"$MPC_ARM64_CACHE/.lock"
flock 8

if ! dpkg --print-foreign-architectures | grep -qx arm64; then
	echo "deps: dpkg --add-architecture arm64"
	dpkg --add-architecture arm64
	mpc_apt update </dev/null
fi

# find_deb PKG [VERSION]: the newest PKG_*.deb in $debs (of VERSION if
# given), or nothing.
find_deb() {
	local f

	for f in $(find "$debs" -maxdepth 1 -name "${1}_*.deb" | sort -rV); do
		if [ -z "${2:-}" ] || [ "$(dpkg-deb -f "$f" Version)" = "$2" ]; then
			echo "$f"
			return 0
		fi
	done
	return 1
}

# fetch PKG [VERSION]: PKG:arm64 (=VERSION) in $debs, downloaded unless
# there already; prints the .deb's path.
fetch() {
	local spec=$1:arm64 try

	[ -n "${2:-}" ] && spec=$spec=$2
	find_deb "$@" && return 0
	for try in 1 2; do
		echo "deps: downloading $spec" >&2
		(cd "$debs" && apt-get download -q -o APT::Sandbox::User=root \
			"$spec" </dev/null >&2) && break
		[ "$try" = 1 ] && mpc_apt update </dev/null >&2
	done
	find_deb "$@"
}

# extract DEB: into the root, once.
extract() {
	local stamp
	stamp=$stamps/$(basename "$1")

	[ -e "$stamp" ] && return 0
	echo "deps: extracting $(basename "$1")"
	dpkg-deb -x "$1" "$root"
	touch "$stamp"
}

for rel in $(mpc_arm64_wanted); do
	abi=${rel%-arm64}
	# The same upload as the amd64 headers: kbuild and -common come from it.
	ver=$(dpkg-query -W -f='${Version}' "linux-headers-$abi-amd64")
	for p in "linux-image-$rel-unsigned" "linux-headers-$rel"; do
		deb=$(fetch "$p" "$ver") || {
			echo "deps: $p:arm64 $ver is not in the archive (the amd64 $abi" \
				"kernel is outdated: apt-get upgrade)" >&2
			exit 1
		}
		extract "$deb"
	done
	hdr=$root/usr/src/linux-headers-$rel
	# scripts and tools link to ../../lib/linux-kbuild-<v>: the host's
	# (amd64 executables) are the ones that run here.
	kbuild=$(readlink "$hdr/scripts" | sed -n 's|^\.\./\.\./lib/\(linux-kbuild-[^/]*\)/scripts$|\1|p')
	[ -n "$kbuild" ] || { echo "deps: $hdr/scripts: unexpected link" >&2; exit 1; }
	[ -d "/usr/lib/$kbuild" ] || { echo "deps: /usr/lib/$kbuild missing" >&2; exit 1; }
	ln -sfn "/usr/lib/$kbuild" "$root/usr/lib/$kbuild"
	common=$(sed -n 's|^include \(/usr/src/[^ ]*-common\)/Makefile$|\1|p' "$hdr/Makefile")
	[ -z "$common" ] || [ -d "$common" ] ||
		{ echo "deps: $common missing (linux-headers-$abi-common)" >&2; exit 1; }
	if [ ! -e "$root/lib/modules/$rel/modules.dep" ]; then
		echo "deps: depmod $rel"
		depmod -b "$root" "$rel"
	fi
done

if [ "$(cat "$user_stamp" 2>/dev/null)" != "${arm64_user_debs[*]}" ]; then
	for p in "${arm64_user_debs[@]}"; do
		deb=$(fetch "$p") || { echo "deps: cannot download $p:arm64" >&2; exit 1; }
		extract "$deb"
	done
	echo "${arm64_user_debs[*]}" >"$user_stamp"
fi
arm64_ready || { echo "deps: the arm64 cache is still incomplete" >&2; exit 1; }
