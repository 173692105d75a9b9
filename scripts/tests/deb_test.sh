#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Host tests of the Debian packages: `make deb` (scripts/deb.sh, once; the
# unit tests it would repeat are skipped with nocheck) builds the four
# packages lintian-clean (no error or warning), dpkg --root installs the
# tool, library and -dev packages into a scratch root, whose tool lists the
# GPUs and whose pkg-config file answers --modversion; the DKMS package
# holds a dkms.conf of the same version and a source tree from which DKMS
# builds mali_perfcnt.ko for each installed Debian kernel (dkms with its
# trees in the scratch directory: the host's DKMS state is not touched),
# kept in $MPC_BUILD/dkms/KREL/ for make check's x86_64 guests to load.
# MPC_DKMS_KERNELS narrows the kernels (default: scripts/lib.sh's
# mpc_kernels). Prints TAP.
set -uo pipefail
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/tap-lib.sh"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/mpc-deb-test.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
finish() { tap_finish; exit; }

arch=$(dpkg --print-architecture)
ver=$(sed -n 's/^#define MPC_VERSION[[:space:]]*"\(.*\)"/\1/p' "$MPC_ROOT/user/include/maliperfcnt.h")
debs=$MPC_BUILD/deb/$arch
pkgs="mali-perfcnt libmaliperfcnt1 libmaliperfcnt-dev mali-perfcnt-dkms"

# Each module DKMS builds is kept in $MPC_BUILD/dkms/KREL for make check's
# x86_64 guests, which then load it instead of the tree's build: none from
# an earlier run.
rm -rf "$MPC_BUILD/dkms"
for t in dpkg-buildpackage dh dh_dkms lintian dkms; do
	command -v "$t" >/dev/null || { skip "Debian packages" "$t missing (scripts/deps.sh)"; finish; }
done

cver=$(cd "$MPC_ROOT" && dpkg-parsechangelog -S Version)
[ "$cver" = "$ver" ]
ok $? "debian/changelog's version is MPC_VERSION ($ver)" "changelog: $cver"

DEB_BUILD_OPTIONS="nocheck parallel=2" "$MPC_ROOT/scripts/deb.sh" >"$tmp/deb.log" 2>&1
ok $? "make deb: dpkg-buildpackage -us -uc -b, lintian: no error" "$(tail -n 20 "$tmp/deb.log")"
all=1
for p in $pkgs; do
	a=$arch
	[ "$p" = mali-perfcnt-dkms ] && a=all
	[ -f "$debs/${p}_${ver}_$a.deb" ] || all=0
done
[ "$all" = 1 ]
ok $? "packages built: $pkgs" "$(ls "$debs")"
w=$(grep '^[EW]: ' "$debs/lintian.log" 2>/dev/null)
[ -f "$debs/lintian.log" ] && [ -z "$w" ]
ok $? "lintian --pedantic: no error, no warning" "$w"

# dpkg --root: a scratch root with an empty dpkg database; the run-time
# dependencies (libc6, libdrm2, libkmod2) are the host's.
root=$tmp/root
mkdir -p "$root/var/lib/dpkg/info" "$root/var/lib/dpkg/updates"
: >"$root/var/lib/dpkg/status"
: >"$root/var/lib/dpkg/available"
dpkg --root="$root" --force-depends --force-not-root -i \
	"$debs/mali-perfcnt_${ver}_$arch.deb" "$debs/libmaliperfcnt1_${ver}_$arch.deb" \
	"$debs/libmaliperfcnt-dev_${ver}_$arch.deb" >"$tmp/dpkg.log" 2>&1
st=$(dpkg --root="$root" -l 'mali-perfcnt' 'libmaliperfcnt*' 2>/dev/null | grep -c '^ii')
[ "$st" = 3 ]
ok $? "dpkg --root -i mali-perfcnt libmaliperfcnt1 libmaliperfcnt-dev: installed" \
	"$(tail -n 20 "$tmp/dpkg.log")"
ma=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
out=$(LD_LIBRARY_PATH=$root/usr/lib/$ma "$root/usr/bin/mali-perfcnt" list --gpus 2>&1)
lib=$(LD_LIBRARY_PATH=$root/usr/lib/$ma ldd "$root/usr/bin/mali-perfcnt" |
	awk '$1 == "libmaliperfcnt.so.1" { print $3 }')
grep -q 'Mali-G52' <<<"$out" && [ "$lib" = "$root/usr/lib/$ma/libmaliperfcnt.so.1" ]
ok $? "the installed mali-perfcnt list --gpus runs on the installed libmaliperfcnt.so.1" \
	"lib '$lib'; $out"
mod=$(PKG_CONFIG_SYSROOT_DIR=$root PKG_CONFIG_PATH=$root/usr/lib/$ma/pkgconfig \
	pkg-config --modversion maliperfcnt 2>&1)
[ "$mod" = "$ver" ]
ok $? "pkg-config --modversion maliperfcnt from the installed -dev package: $ver" "$mod"
[ -f "$root/usr/share/man/man1/mali-perfcnt-stat.1.gz" ] &&
	[ -f "$root/usr/share/man/man3/libmaliperfcnt.3.gz" ]
ok $? "manual pages installed (man1, man3)"

# The DKMS package: unpacked only (its postinst would run dkms on the host).
droot=$tmp/droot
dpkg-deb -x "$debs/mali-perfcnt-dkms_${ver}_all.deb" "$droot"
src=$droot/usr/src/mali-perfcnt-$ver
dv=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"/\1/p' "$src/dkms.conf" 2>/dev/null)
[ "$dv" = "$ver" ]
ok $? "mali-perfcnt-dkms: /usr/src/mali-perfcnt-$ver/dkms.conf, PACKAGE_VERSION $ver" "'$dv'"
kernels=${MPC_DKMS_KERNELS:-$(mpc_kernels)}
# no module signing: dkms would otherwise make a key in /var/lib/dkms
export sign_file=/nonexistent
dk=(--dkmstree "$tmp/dkms" --sourcetree "$droot/usr/src" --installtree "$tmp/inst")
mkdir -p "$tmp/dkms"
dkms add -m mali-perfcnt -v "$ver" "${dk[@]}" >"$tmp/dkms-add.log" 2>&1
ok $? "dkms add mali-perfcnt/$ver from the package's /usr/src" "$(cat "$tmp/dkms-add.log")"
for krel in $kernels; do
	if [ ! -e "/lib/modules/$krel/build/Makefile" ]; then
		skip "dkms build for $krel" "no headers"
		continue
	fi
	mkdir -p "$tmp/inst/$krel"
	# with the simulator: make check's x86_64 suite loads this module
	{ MPC_SIM=1 dkms build -m mali-perfcnt -v "$ver" "${dk[@]}" -k "$krel" &&
	  dkms install -m mali-perfcnt -v "$ver" "${dk[@]}" -k "$krel"; } \
		>"$tmp/dkms-$krel.log" 2>&1
	rc=$?
	ko=$(find "$tmp/inst/$krel" -name 'mali_perfcnt.ko*' 2>/dev/null | head -n 1)
	[ "$rc" = 0 ] && [ -n "$ko" ] &&
		[ "$(modinfo -F vermagic "$ko" | awk '{ print $1 }')" = "$krel" ]
	st=$?
	ok $st "dkms build/install for $krel: mali_perfcnt.ko of that kernel" \
		"$(tail -n 20 "$tmp/dkms-$krel.log"; tail -n 10 "$tmp/dkms/mali-perfcnt/$ver/build/make.log" 2>/dev/null)"
	[ "$st" = 0 ] || continue
	mkdir -p "$MPC_BUILD/dkms/$krel"
	case $ko in
	*.xz)	xz -dc "$ko" >"$MPC_BUILD/dkms/$krel/mali_perfcnt.ko" ;;
	*.zst)	zstd -qdc "$ko" >"$MPC_BUILD/dkms/$krel/mali_perfcnt.ko" ;;
	*)	cp "$ko" "$MPC_BUILD/dkms/$krel/mali_perfcnt.ko" ;;
	esac
done
finish
