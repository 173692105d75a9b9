#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# panfrost.ko with the panfrost series applied (scripts/panfrost-series.sh),
# for one installed Debian kernel: what `make panfrost-patched` runs on a
# board.
#
#   panfrost-patched.sh [--install]
#
# KREL (default: the running kernel, uname -r) and KDIR (default
# /lib/modules/$KREL/build, its headers) choose the kernel. Its series
# (6.1 or 6.12) chooses Debian's linux-source-X.Y, whose panfrost the
# series is applied to: /usr/src/linux-source-X.Y.tar.xz when that is the
# headers' version, else the package of the headers' version fetched with
# apt-get download; extracted and cached under $MPC_PATCHED_CACHE
# (/var/cache/mali-perfcnt/panfrost-patched). The module is built against
# the headers (cross-compiled, CROSS_COMPILE or aarch64-linux-gnu-, when
# they are arm64's and this machine is not) and left in
# build/panfrost-patched/$KREL/panfrost.ko, its vermagic checked against
# KREL. Every missing piece is one "error:" line saying what to install.
#
# --install (root) copies it to $DESTDIR/lib/modules/$KREL/updates/, which
# depmod prefers to the kernel's own panfrost, and runs depmod.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

install=0
case ${1:-} in
'')		;;
--install)	install=1 ;;
*)		die "unknown option $1 (usage: $0 [--install]; KREL=, KDIR= choose the kernel)" ;;
esac

KREL=${KREL:-$(uname -r)}
KDIR=${KDIR:-/lib/modules/$KREL/build}
out=$MPC_BUILD/panfrost-patched/$KREL
ko=$out/panfrost.ko

if [ "$install" = 1 ]; then
	[ -f "$ko" ] || die "$ko missing: run make panfrost-patched KREL=$KREL first"
	dest=${DESTDIR:-}/lib/modules/$KREL/updates
	[ -d "${DESTDIR:-}/lib/modules/$KREL" ] ||
		die "${DESTDIR:-}/lib/modules/$KREL missing: is $KREL installed?"
	install -D -m 644 "$ko" "$dest/panfrost.ko"
	depmod ${DESTDIR:+-b "$DESTDIR"} "$KREL"
	echo "installed $dest/panfrost.ko (depmod $KREL)"
	echo "load it: modprobe -r panfrost && modprobe panfrost (or reboot); undo: rm $dest/panfrost.ko && depmod $KREL"
	exit 0
fi

# ---- the kernel, from its headers
[ -f "$KDIR/Makefile" ] ||
	die "no kernel headers for $KREL in $KDIR: install linux-headers-$KREL (apt install linux-headers-$KREL)"
uts=$(sed -n 's/^#define UTS_RELEASE "\(.*\)"$/\1/p' "$KDIR/include/generated/utsrelease.h" 2>/dev/null || true)
[ "$uts" = "$KREL" ] ||
	die "$KDIR holds the headers of ${uts:-an unknown kernel}, not of $KREL: give KDIR= the headers of $KREL"
conf=$KDIR/include/config/auto.conf
[ -f "$conf" ] || die "$KDIR has no include/config/auto.conf: not a kernel headers tree (apt install linux-headers-$KREL)"
case $(sed -n 's/^CONFIG_DRM_PANFROST=//p' "$conf") in
m)	;;
y)	die "$KREL has panfrost built in (CONFIG_DRM_PANFROST=y): a module cannot replace it" ;;
*)	die "$KREL has no panfrost (CONFIG_DRM_PANFROST unset): an arm64 kernel with panfrost as a module is needed" ;;
esac
# The headers' version: the Makefile, or the one it includes (Debian's -common)
kmake=$KDIR/Makefile
inc=$(sed -n 's/^include \(.*\/Makefile\)$/\1/p' "$kmake" | head -n 1)
[ -z "$inc" ] || kmake=$inc
[ -f "$kmake" ] || die "$kmake (included by $KDIR/Makefile) missing: install linux-headers-$KREL (its -common package)"
kv() { sed -n "s/^$1 = //p" "$2" | head -n 1; }
kver=$(kv VERSION "$kmake").$(kv PATCHLEVEL "$kmake").$(kv SUBLEVEL "$kmake")
base=${kver%.*}
case $base in
6.1|6.12) ;;
*)	die "$KREL is Linux $kver: the panfrost series is for Debian's 6.1 and 6.12 kernels" ;;
esac
margs=()
if grep -qx 'CONFIG_ARM64=y' "$conf" && [ "$(uname -m)" != aarch64 ]; then
	cross=${CROSS_COMPILE:-$MPC_ARM64_CROSS}
	command -v "${cross}gcc" >/dev/null ||
		die "$KREL is an arm64 kernel and ${cross}gcc is missing: apt install gcc-aarch64-linux-gnu (or give CROSS_COMPILE=)"
	margs=(ARCH=arm64 CROSS_COMPILE="$cross")
else
	command -v "${CROSS_COMPILE:-}gcc" >/dev/null ||
		die "${CROSS_COMPILE:-}gcc missing: apt install gcc (what the kernel was built with)"
fi
for t in git make xz; do
	command -v "$t" >/dev/null || die "$t missing: apt install $([ $t = xz ] && echo xz-utils || echo $t)"
done

# ---- Debian's linux-source of that version, cached
cache=${MPC_PATCHED_CACHE:-/var/cache/mali-perfcnt/panfrost-patched}
if ! mkdir -p "$cache" 2>/dev/null || ! [ -w "$cache" ]; then
	cache=${XDG_CACHE_HOME:-$HOME/.cache}/mali-perfcnt/panfrost-patched
	log "panfrost-patched: /var/cache/mali-perfcnt not writable, caching in $cache"
	mkdir -p "$cache"
fi
exec 9>"$cache/.lock"
flock -n 9 || { log "panfrost-patched: waiting for another user of $cache"; flock 9; }

# tar_version TARBALL: the Linux version of a linux-source tarball (its
# top Makefile), remembered next to it
tar_version() {
	local t=$1 v

	v=$cache/versions/$(basename "$1").$(stat -c %s.%Y "$1")
	if ! [ -s "$v" ]; then
		mkdir -p "$cache/versions"
		tar -xJOf "$t" "linux-source-$base/Makefile" 2>/dev/null |
			awk '/^VERSION = /{v=$3} /^PATCHLEVEL = /{p=$3} /^SUBLEVEL = /{s=$3; exit}
			     END { if (s != "") print v "." p "." s }' >"$v.tmp" || true
		mv "$v.tmp" "$v"
	fi
	cat "$v"
}

tarball=${MPC_LINUX_SOURCE:-}
srcdir=${MPC_LINUX_SOURCE_DIR:-/usr/src}
if [ -n "$tarball" ]; then
	[ -r "$tarball" ] || die "MPC_LINUX_SOURCE=$tarball: no such file"
elif [ -r "$srcdir/linux-source-$base.tar.xz" ] &&
     [ "$(tar_version "$srcdir/linux-source-$base.tar.xz")" = "$kver" ]; then
	tarball=$srcdir/linux-source-$base.tar.xz
elif [ -r "$cache/linux-source-$kver.tar.xz" ]; then
	tarball=$cache/linux-source-$kver.tar.xz
else
	pkg=linux-source-$base
	pver=$(dpkg-query -W -f '${Version}' "linux-headers-$KREL" 2>/dev/null || true)
	want="$pkg${pver:+=$pver}"
	dl=$cache/dl
	rm -rf "$dl"
	mkdir -p "$dl"
	if [ "${MPC_NO_APT:-0}" = 1 ] || ! command -v apt-get >/dev/null ||
	   ! (cd "$dl" && apt-get download "$want" >"$dl/apt.log" 2>&1); then
		die "no Linux $kver source for $KREL: apt install $want (or apt-get update first; or give MPC_LINUX_SOURCE= a linux-source-$base tarball of $kver)"
	fi
	deb=$(ls "$dl"/"$pkg"_*.deb)
	dpkg-deb --fsys-tarfile "$deb" | tar -xf - -C "$dl" "./usr/src/$pkg.tar.xz"
	got=$(tar_version "$dl/usr/src/$pkg.tar.xz")
	[ "$got" = "$kver" ] ||
		die "apt-get download $want gave Linux ${got:-?}, the headers are $kver: install the matching linux-headers and kernel, or give MPC_LINUX_SOURCE="
	mv "$dl/usr/src/$pkg.tar.xz" "$cache/linux-source-$kver.tar.xz"
	rm -rf "$dl"
	tarball=$cache/linux-source-$kver.tar.xz
fi
tv=$(tar_version "$tarball")
[ "$tv" = "$kver" ] ||
	die "$tarball is Linux ${tv:-?}, the headers of $KREL are $kver: apt install linux-source-$base of $kver"
log "panfrost-patched: $KREL (Linux $kver), panfrost of $tarball"

# ---- the series on that source, then the module against the headers
mkdir -p "$out"
if ! MPC_PANFROST_SRC=$cache/src-$kver MPC_PANFROST_TARBALL=$tarball \
	"$MPC_ROOT/scripts/panfrost-series.sh" --base "$base" --out "$out/series" --no-check \
	>"$out/series.log" 2>&1; then
	die "the series does not apply to linux-source-$base $kver: see $out/series.log"
fi
exec 9>&-
gen=$out/series/$base/gen
pd=$gen/drivers/gpu/drm/panfrost
rm -f "$pd/panfrost.ko"
if ! make -C "$KDIR" M="$pd" "${margs[@]}" CONFIG_DRM_PANFROST=m \
	NOSTDINC_FLAGS="-nostdinc -I$gen/include/uapi" -j"$(nproc)" modules \
	>"$out/build.log" 2>&1 || ! [ -f "$pd/panfrost.ko" ]; then
	tail -n 20 "$out/build.log" >&2
	die "panfrost.ko did not build for $KREL: see $out/build.log"
fi
cp "$pd/panfrost.ko" "$ko"
vm=$(modinfo -F vermagic "$ko" 2>/dev/null || strings "$ko" | sed -n 's/^vermagic=//p')
[ "${vm%% *}" = "$KREL" ] || die "$ko has vermagic '$vm', not $KREL"
echo "panfrost-patched: $ko (vermagic $vm)"
echo "install it (root): make panfrost-patched-install KREL=$KREL, then modprobe -r panfrost && modprobe panfrost (or reboot)"
