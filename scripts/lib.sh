# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=bash
#
# Helpers shared by the scripts in this directory (sourced, not run).

MPC_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
MPC_BUILD=${MPC_BUILD:-$MPC_ROOT/build}
MPC_LINUX_SRC=${MPC_LINUX_SRC:-/usr/src/linux-source-6.12.tar.xz}

log() { printf '%s\n' "$*" >&2; }
# apt-get that waits up to 15 min for another apt's lock (a build that a run
# started in the background may be installing its packages) instead of failing
mpc_apt() { apt-get -o DPkg::Lock::Timeout=900 "$@"; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }

# mpc_install_pkgs WHO PKG...: install those of the Debian packages PKG
# that are not installed, as root (once more after an apt-get update if
# that fails); WHO, the script, names itself in the messages (on stderr).
mpc_install_pkgs() {
	local who=$1 installed p missing=()

	shift
	installed=" $(dpkg-query -W -f='${Package}:${db:Status-Status} ' "$@" 2>/dev/null || true) "
	for p in "$@"; do
		case "$installed" in
		*" $p:installed "*) ;;
		*) missing+=("$p") ;;
		esac
	done
	[ ${#missing[@]} -gt 0 ] || return 0
	[ "$(id -u)" -eq 0 ] || die "$who: missing packages ${missing[*]} (run as root)"
	log "$who: installing ${missing[*]}"
	export DEBIAN_FRONTEND=noninteractive
	mpc_apt install -y --no-install-recommends "${missing[@]}" </dev/null >&2 ||
		{ mpc_apt update </dev/null >&2 &&
		  mpc_apt install -y --no-install-recommends "${missing[@]}" </dev/null >&2; }
}

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

# ---- accelerator of the x86_64 guests ---------------------------------------
#
# mpc_accel_verdict: decide once per run (scripts/vm/accel-probe.sh) how
# x86_64 guests run and keep the verdict in the exported MPC_ACCEL_VERDICT
# ("ACCEL CPU WHY") for every script this run starts; mpc_accel: the same,
# then one line "accel: ACCEL (WHY)". Both exit when MPC_ACCEL asks for what
# cannot be had. arm64 guests always use TCG (x86_64 hosts).
mpc_accel_verdict() {
	local v

	[ -z "${MPC_ACCEL_VERDICT:-}" ] || return 0
	v=$("$MPC_ROOT/scripts/vm/accel-probe.sh") || exit 1
	export MPC_ACCEL_VERDICT=$v
}
mpc_accel() {
	local v

	mpc_accel_verdict
	v=${MPC_ACCEL_VERDICT#* }
	log "accel: ${MPC_ACCEL_VERDICT%% *} (${v#* })"
}

# ---- arm64 -------------------------------------------------------------------
#
# The arm64 kernels are Debian's arm64 packages, downloaded (never installed)
# by scripts/deps.sh into a cache and extracted into one staging root:
# $MPC_ARM64_ROOT/{boot,lib/modules,usr/src} hold each kernel, the rest is the
# guest's userland (arm64 busybox, libc, libdrm, libkmod). Their release
# matches an installed amd64 kernel's ABI, whose kbuild tools and -common
# headers (the same for every architecture) the cross build uses.

MPC_ARM64_CACHE=${MPC_ARM64_CACHE:-/var/cache/mali-perfcnt/arm64}
MPC_ARM64_ROOT=$MPC_ARM64_CACHE/root
MPC_ARM64_CROSS=aarch64-linux-gnu-

# mpc_arch KREL: arm64 for a Debian -arm64 release, else x86_64 (the host).
mpc_arch() {
	case $1 in
	*-arm64)	echo arm64 ;;
	*)		echo x86_64 ;;
	esac
}

# mpc_series KREL: the kernel series of a release, e.g. 6.1 (6.1.0-57-arm64)
# or 6.12 (6.12.118+deb12-amd64).
mpc_series() {
	local v=${1%%-*}

	echo "${v%.*}"
}

# The arm64 releases matching the installed amd64 kernels (mpc_kernels),
# one per line, whether downloaded yet or not.
mpc_arm64_wanted() {
	mpc_kernels | sed -n 's/-amd64$/-arm64/p'
}

# The arm64 kernels ready in $MPC_ARM64_ROOT (image, headers, modules.dep).
mpc_arm64_kernels() {
	local rel

	for rel in $(mpc_arm64_wanted); do
		[ -e "$MPC_ARM64_ROOT/boot/vmlinuz-$rel" ] &&
			[ -e "$MPC_ARM64_ROOT/usr/src/linux-headers-$rel/Makefile" ] &&
			[ -e "$MPC_ARM64_ROOT/lib/modules/$rel/modules.dep" ] &&
			echo "$rel"
	done
}

# The debug kernel (scripts/debug-kernel/build.sh) is one more kernel once a
# run has built it and exported MPC_DEBUG_KREL, MPC_DEBUG_ROOT (its boot/ and
# lib/modules/) and MPC_DEBUG_KDIR (its build directory): mpc_debug_kernel.

# mpc_debug_kernel LOG: build the debug kernel or reuse it from its cache
# (the build's output in LOG) and export it; the cache's lock stays held
# (fd 8) until the shell ends: the cache must not be rebuilt under a running
# VM.
mpc_debug_kernel() {
	local cache=${MPC_DEBUG_KERNEL_CACHE:-/var/cache/mali-perfcnt/debug-kernel} k v

	mkdir -p "$(dirname "$cache")"
	exec 8>"$cache.lock"
	flock -n 8 || { log "check: waiting for another debug kernel user"; flock 8; }
	export MPC_DEBUG_KERNEL_LOCKED=1
	"$MPC_ROOT/scripts/debug-kernel/build.sh" >"$1" 2>&1 || return
	while IFS='=' read -r k v; do # KREL=, KDIR=, ROOT=: MPC_DEBUG_KREL, ...
		export "MPC_DEBUG_$k=$v"
	done < <("$MPC_ROOT/scripts/debug-kernel/build.sh" --env)
}

# mpc_sysroot KREL: the directory holding KREL's /boot and /lib/modules
# ("" for the host's own kernels).
mpc_sysroot() {
	if [ "$1" = "${MPC_DEBUG_KREL:-}" ]; then
		echo "$MPC_DEBUG_ROOT"
		return
	fi
	case $(mpc_arch "$1") in
	arm64)	echo "$MPC_ARM64_ROOT" ;;
	*)	echo "" ;;
	esac
}

# mpc_kdir KREL: the kernel build directory to build modules against.
mpc_kdir() {
	if [ "$1" = "${MPC_DEBUG_KREL:-}" ]; then
		echo "$MPC_DEBUG_KDIR"
		return
	fi
	case $(mpc_arch "$1") in
	arm64)	echo "$MPC_ARM64_ROOT/usr/src/linux-headers-$1" ;;
	*)	echo "/lib/modules/$1/build" ;;
	esac
}

# mpc_kmake_args KREL: extra make arguments of a module build for KREL.
# Every test build has the simulator (MPC_SIM=1, see Kbuild); a build for
# the real-hardware path only adds MPC_SIM=0 after these.
mpc_kmake_args() {
	case $(mpc_arch "$1") in
	arm64)	echo "ARCH=arm64 CROSS_COMPILE=$MPC_ARM64_CROSS MPC_SIM=1" ;;
	*)	echo "MPC_SIM=1" ;;
	esac
}

# mpc_copy_kernel_tree DEST: the module's sources (Kbuild, Makefile,
# kernel/, uapi/) into a fresh DEST, where it is built; objects of a build
# in the source tree are left behind.
mpc_copy_kernel_tree() {
	rm -rf "$1"
	mkdir -p "$1"
	tar -C "$MPC_ROOT" --exclude='*.o' --exclude='*.ko' --exclude='.*.cmd' \
		--exclude='*.mod' --exclude='*.mod.c' --exclude=modules.order \
		--exclude=Module.symvers -cf - Kbuild Makefile kernel model uapi |
		tar -C "$1" -xf -
}

# mpc_build_module KREL DIR LOG [MAKE ARGS...]: mali_perfcnt.ko for KREL in a
# fresh copy of the tree at DIR (a test build: mpc_kmake_args), the build's
# output in LOG; MAKE ARGS after those (W=1, MPC_SIM=0, ...).
mpc_build_module() {
	local krel=$1 dir=$2 log=$3

	shift 3
	mpc_copy_kernel_tree "$dir"
	# shellcheck disable=SC2046 # ARCH=... CROSS_COMPILE=..., no spaces
	make -C "$dir" KDIR="$(mpc_kdir "$krel")" $(mpc_kmake_args "$krel") "$@" -j2 \
		>"$log" 2>&1 && [ -f "$dir/mali_perfcnt.ko" ]
}

# mpc_make_user ARCH O [TARGET...]: make -C user for ARCH into O ("": the
# tree's user/build), arm64 cross-built against $MPC_ARM64_ROOT.
mpc_make_user() {
	local arch=$1 o=$2 a=$MPC_ARM64_ROOT

	shift 2
	if [ "$arch" != arm64 ]; then
		make -C "$MPC_ROOT/user" -j2 ${o:+"O=$o"} "$@"
		return
	fi
	PKG_CONFIG_SYSROOT_DIR=$a \
	PKG_CONFIG_LIBDIR=$a/usr/lib/aarch64-linux-gnu/pkgconfig:$a/usr/share/pkgconfig \
	make -C "$MPC_ROOT/user" -j2 O="$o" CC="${MPC_ARM64_CROSS}gcc" AR="${MPC_ARM64_CROSS}ar" \
		LDFLAGS="-L$a/usr/lib/aarch64-linux-gnu -Wl,-rpath-link,$a/lib/aarch64-linux-gnu:$a/usr/lib/aarch64-linux-gnu" \
		"$@"
}

# mpc_make_selftests ARCH OUTPUT: the kselftest suite for ARCH into OUTPUT.
mpc_make_selftests() {
	local mk=(-C "$MPC_ROOT/selftests/drivers/gpu/mali_perfcnt" -j2 OUTPUT="$2")

	[ "$1" = arm64 ] && mk+=(CC="${MPC_ARM64_CROSS}gcc"
		LIBDRM_CFLAGS="-I$MPC_ARM64_ROOT/usr/include/libdrm")
	make "${mk[@]}"
}

# mpc_guest_module KREL OUT: mali_perfcnt.ko for a script that boots one
# guest on KREL (make demo, make bench) in $MPC_BUILD/kmod/KREL, the build's
# output in OUT/build.log; the script ends, with that output, if it fails.
mpc_guest_module() {
	[ -n "$1" ] || die "no Debian x86_64 kernel installed"
	mkdir -p "$2"
	log "== build mali_perfcnt.ko for $1"
	mpc_build_module "$1" "$MPC_BUILD/kmod/$1" "$2/build.log" ||
		{ cat "$2/build.log"; die "module build failed"; }
}

# mpc_boot_show KREL INITRD DIR TIMEOUT: boot a guest (scripts/vm/boot.sh,
# logs in DIR) and print what it printed, without the section framing;
# exits with one line saying what went wrong unless it ran to the end.
mpc_boot_show() {
	local rc=0

	"$MPC_ROOT/scripts/vm/boot.sh" "$1" "$2" "$3" "$4" || rc=$?
	grep -v -e '^=== ' -e '^TAP version' -e '^1\.\.' "$3/output.log" || true
	case $rc in
	0)	;;
	124)	die "the VM hung (console: $3/console.log)" ;;
	125)	tail -n 40 "$3/console.log"; die "the VM died without reporting" ;;
	126)	die "QEMU failed before the guest printed anything (its messages above; all in $3/qemu.log)" ;;
	*)	die "the guest failed (rc $rc; console: $3/console.log)" ;;
	esac
}

# ---- the project's QEMU (scripts/qemu/build.sh) ------------------------------
#
# qemu-system-aarch64 from Debian 12's QEMU source with the mali-gpu device
# (qemu/) and the GPU model (model/) compiled in, cached per source version
# and hash of the files it is made of.

MPC_QEMU_CACHE=${MPC_QEMU_CACHE:-/var/cache/mali-perfcnt/qemu}
# What scripts/qemu/build.sh and scripts/debug-kernel/build.sh build with
# (scripts/deps.sh installs both lists, so that a run can start the builds
# in the background).
# shellcheck disable=SC2034 # used by the scripts that source this file
MPC_QEMU_BUILD_PKGS=(gcc make pkg-config python3 meson ninja-build libglib2.0-dev
		     libpixman-1-dev libfdt-dev device-tree-compiler dpkg-dev bzip2
		     xz-utils patch debian-archive-keyring)
# shellcheck disable=SC2034 # likewise
MPC_DEBUG_KERNEL_PKGS=(build-essential bc bison flex libelf-dev libssl-dev cpio kmod
		       xz-utils linux-source-6.1)
# The version Debian 12 ships: the source of the qemu-system-arm this machine
# installed from bookworm (scripts/deps.sh), so the device is built on the
# same QEMU the other arm64 guests run on, and a bookworm update (the archive
# keeps only the newest) moves both together. The fallback is the version
# checked last (bookworm-security, 2026-12-01). MPC_QEMU_SRC_VERSION=...
# overrides it.
MPC_QEMU_SRC_FALLBACK=1:7.2+dfsg-7+deb12u18
MPC_QEMU_SRC_VERSION=${MPC_QEMU_SRC_VERSION:-$(dpkg-query -W -f='${source:Version}' \
	qemu-system-arm 2>/dev/null || true)}
MPC_QEMU_SRC_VERSION=${MPC_QEMU_SRC_VERSION:-$MPC_QEMU_SRC_FALLBACK}

# mpc_qemu_key: sha256 (first 16 hex digits) over the names and contents of
# qemu/, model/ and scripts/qemu/build.sh.
mpc_qemu_key() {
	(cd "$MPC_ROOT" && find qemu model scripts/qemu/build.sh -type f \
		! -name '*.o' ! -name '*~' ! -name '.*' -print0 |
		LC_ALL=C sort -z | xargs -0 sha256sum) | sha256sum | cut -c1-16
}

# mpc_qemu_binary: where the binary for the current sources is (or would
# be) cached.
mpc_qemu_binary() {
	echo "$MPC_QEMU_CACHE/${MPC_QEMU_SRC_VERSION#*:}-$(mpc_qemu_key)/qemu-system-aarch64"
}

# Guests in parallel. A TCG guest runs on at most one host core (x86_64:
# one TCG thread; arm64: two vCPUs that idle most of the time) and waits
# much of its time: make check's guests used 1278 CPU seconds in 2270 s
# (vm/cpu of each guest, 2026-12-03, two at a time on two cores, 20-40 %
# idle). So the VM phases of `make check` and `make check-debug` run
# MPC_VM_JOBS guests at once: by default one more than the cores, at most
# 5 (1 GiB of RAM each).
mpc_vm_jobs() {
	local n=${MPC_VM_JOBS:-$(($(nproc) + 1))}

	case $n in
	''|*[!0-9]*|0) die "MPC_VM_JOBS=$n: give a number of guests, 1 or more" ;;
	esac
	[ -n "${MPC_VM_JOBS:-}" ] || [ "$n" -le 5 ] || n=5
	echo "$n"
}

# mpc_job_slot N [CMD...]: wait until fewer than N background jobs of this
# shell run; meanwhile run CMD, the work to do while they do, again and
# again until it fails (nothing left), then wait for a job to end.
mpc_job_slot() {
	local n=$1

	shift
	while [ "$(jobs -rp | wc -l)" -ge "$n" ]; do
		[ $# -gt 0 ] && "$@" && continue
		wait -n
	done
}
