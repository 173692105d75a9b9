#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Build qemu-system-aarch64 with the project's emulated Mali GPU.
#
#   scripts/qemu/build.sh     print the binary's path, building it first
#                             unless it is cached
#
# Source: Debian 12's qemu (MPC_QEMU_SRC_VERSION in scripts/lib.sh), fetched
# with `apt-get source` through a private apt configuration under
# $MPC_QEMU_CACHE/apt (its own sources list of deb-src lines signed by the
# Debian archive keyring, its own lists and cache): apt checks the InRelease
# signature and the hashes of the .dsc and the tarballs; the system's apt
# setup is not touched. Into the unpacked tree go qemu/ (the mali-gpu device,
# its meson.build, the devices file) and model/'s sources, and
# qemu/virt-mali.patch is applied (the `-M virt,mali=PRODUCT` option). Only
# aarch64-softmmu is configured, with the devices of
# qemu/configs/devices/aarch64-softmmu/mali-virt.mak.
#
# The unpacked, configured tree is kept ($MPC_QEMU_CACHE/work-<version>) so
# that a change to the device or the model recompiles a few files; the
# binary is cached as $MPC_QEMU_CACHE/<version>-<key>/qemu-system-aarch64,
# key = mpc_qemu_key (the hash of qemu/, model/ and this script): a warm run
# only computes the key. Build dependencies are installed with apt-get.
set -uo pipefail
. "$(dirname "$0")/../lib.sh"

ver=$MPC_QEMU_SRC_VERSION
[ -f "$MPC_ROOT/model/mali_model.c" ] ||
	die "qemu: model/mali_model.c missing: the device has no GPU model to host"
uver=${ver#*:}			# no epoch in file names
bin=$(mpc_qemu_binary)
if [ -x "$bin" ]; then
	touch "$(dirname "$bin")"	# used: the pruning below keeps it
	echo "$bin"
	exit 0
fi

mpc_install_pkgs qemu "${MPC_QEMU_BUILD_PKGS[@]}" || die "qemu: apt-get install failed"
export DEBIAN_FRONTEND=noninteractive

mkdir -p "$MPC_QEMU_CACHE" || die "cannot create $MPC_QEMU_CACHE"
exec 7>"$MPC_QEMU_CACHE/.lock"
flock 7
# Another run may have built it while this one waited.
if [ -x "$bin" ]; then
	echo "$bin"
	exit 0
fi
t0=$(date +%s)

# 1. The source, through a private apt configuration (needed only until
# the tree is unpacked).
aptd=$MPC_QEMU_CACHE/apt
mkdir -p "$aptd/lists/partial" "$aptd/cache/archives/partial" \
	"$aptd/sources.list.d" "$aptd/preferences.d" "$MPC_QEMU_CACHE/src"
key=/usr/share/keyrings/debian-archive-keyring.gpg
cat >"$aptd/sources.list" <<EOS
deb-src [signed-by=$key] http://deb.debian.org/debian bookworm main
deb-src [signed-by=$key] http://deb.debian.org/debian bookworm-updates main
deb-src [signed-by=$key] http://deb.debian.org/debian-security bookworm-security main
EOS
apt_opts=(-o "Dir::Etc::SourceList=$aptd/sources.list"
	  -o "Dir::Etc::SourceParts=$aptd/sources.list.d"
	  -o "Dir::Etc::Preferences=$aptd/preferences"
	  -o "Dir::Etc::PreferencesParts=$aptd/preferences.d"
	  -o "Dir::State::Lists=$aptd/lists"
	  -o "Dir::Cache=$aptd/cache"
	  -o APT::Sandbox::User=root)
# apt-get source checks files already there against the index and keeps
# them, so the tarballs are downloaded once.
fetch_src() {
	(cd "$MPC_QEMU_CACHE/src" &&
	 mpc_apt "${apt_opts[@]}" -q source --download-only "qemu=$ver" </dev/null) >&2
}
dsc=$MPC_QEMU_CACHE/src/qemu_$uver.dsc
work=$MPC_QEMU_CACHE/work-$uver
# Only for a tree not unpacked yet. The archive keeps just the newest
# update; the version is the installed qemu-system-arm's source, which an
# apt-get upgrade moves along with it (scripts/lib.sh).
if [ ! -f "$work/.mpc-unpacked" ]; then
	if ! fetch_src; then
		log "qemu: updating the private index ($aptd)"
		mpc_apt "${apt_opts[@]}" -q update </dev/null >&2 || die "qemu: apt-get update failed"
		fetch_src || die "qemu: apt-get source qemu=$ver failed: not in bookworm" \
			"any more? (apt-get upgrade qemu-system-arm, or set" \
			"MPC_QEMU_SRC_VERSION to one of: apt-cache ${apt_opts[*]} showsrc qemu)"
	fi
	[ -f "$dsc" ] || die "qemu: $dsc missing after apt-get source"
fi

# 2. The unpacked tree with the patch applied (once; a changed patch is
# reverted and applied again), configured once.
patchf=$MPC_ROOT/qemu/virt-mali.patch
applied=$work/.mpc-applied.patch
if [ ! -f "$work/.mpc-unpacked" ]; then
	log "qemu: unpacking $(basename "$dsc")"
	rm -rf "$work"
	dpkg-source -x "$dsc" "$work" >&2 || die "qemu: dpkg-source -x failed"
	# The dfsg tarball has no edk2 firmware, but meson turns every
	# pc-bios/edk2-*.fd.bz2 into a build target when bzip2 exists: empty
	# (valid) bzip2 stand-ins; the binary never uses them.
	while read -r f; do
		[ -e "$work/pc-bios/$f.bz2" ] || bzip2 -c </dev/null >"$work/pc-bios/$f.bz2"
	done < <(sed -n "s/^ *'\(edk2-[^']*\.fd\)',*$/\1/p" "$work/pc-bios/meson.build")
	touch "$work/.mpc-unpacked"
fi
if ! cmp -s "$patchf" "$applied"; then
	if [ -f "$applied" ]; then
		log "qemu: reverting the previous virt-mali.patch"
		patch -d "$work" -p1 -R --no-backup-if-mismatch -s <"$applied" >&2 ||
			die "qemu: cannot revert $applied"
		rm -f "$applied"
	fi
	log "qemu: applying qemu/virt-mali.patch"
	patch -d "$work" -p1 --forward --no-backup-if-mismatch -s <"$patchf" >&2 ||
		die "qemu: qemu/virt-mali.patch does not apply to qemu $ver"
	cp "$patchf" "$applied"
fi

# sync_file SRC DST: copy only when the content differs (ninja goes by mtime).
sync_file() {
	cmp -s "$1" "$2" && return 0
	mkdir -p "$(dirname "$2")"
	cp "$1" "$2"
}
(cd "$MPC_ROOT/qemu" && find . -type f ! -name '*.patch' ! -name '*~') |
while read -r f; do
	sync_file "$MPC_ROOT/qemu/$f" "$work/$f"
done
dev=$work/hw/misc/mali
for f in "$MPC_ROOT"/model/*.[ch]; do
	sync_file "$f" "$dev/$(basename "$f")"
done
# Nothing else in the device's directory (a file the model dropped).
for f in "$dev"/*; do
	b=$(basename "$f")
	[ -e "$MPC_ROOT/qemu/hw/misc/mali/$b" ] || [ -e "$MPC_ROOT/model/$b" ] ||
		rm -f "$f"
done

if [ ! -f "$work/build/build.ninja" ]; then
	log "qemu: configure (aarch64-softmmu, mali-virt devices)"
	t1=$(date +%s)
	(cd "$work" && nice ./configure --target-list=aarch64-softmmu \
		--without-default-features --without-default-devices \
		--with-devices-aarch64=mali-virt --enable-fdt=system \
		--disable-docs --disable-tools --disable-install-blobs \
		--disable-werror --meson=meson) >"$work/configure.log" 2>&1 ||
		{ tail -n 30 "$work/configure.log" >&2; die "qemu: configure failed ($work/configure.log)"; }
	log "qemu: configure took $(($(date +%s) - t1))s"
fi

# 3. Build (meson regenerates itself when a meson.build or Kconfig changed).
log "qemu: ninja qemu-system-aarch64"
t1=$(date +%s)
nice ninja -C "$work/build" -j2 qemu-system-aarch64 >"$work/build.log" 2>&1 ||
	{ grep -E -A4 'error:|undefined reference' "$work/build.log" | head -n 40 >&2; die "qemu: build failed ($work/build.log)"; }
log "qemu: ninja took $(($(date +%s) - t1))s"

# 4. Cache it under the key of the sources it was built from.
mkdir -p "$(dirname "$bin")"
if ! cp "$work/build/qemu-system-aarch64" "$bin.tmp" || ! mv "$bin.tmp" "$bin"; then
	die "qemu: cannot write $bin"
fi
log "qemu: $bin ($(($(date +%s) - t0))s)"

# 5. The cache keeps what trees can still use: this binary, and the others
# used in the last day (other work trees on this machine, a branch switched
# back to; a cache hit touches its directory); the work tree of this source
# version only (52 MB a binary, 500 MB a work tree).
find "$MPC_QEMU_CACHE" -mindepth 1 -maxdepth 1 -type d -name '[0-9]*' -mtime +0 \
	! -path "$(dirname "$bin")" -print | while read -r d; do
	log "qemu: pruning $d (unused for a day)"
	rm -rf "$d"
done
for d in "$MPC_QEMU_CACHE"/work-*; do
	[ -d "$d" ] && [ "$d" != "$work" ] && { log "qemu: pruning $d"; rm -rf "$d"; }
done
echo "$bin"
