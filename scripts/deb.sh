#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# `make deb`: the Debian packages (debian/) of the working tree, built with
# dpkg-buildpackage -us -uc -b from a copy of the tracked files in
# $MPC_BUILD/deb/ARCH/src (the checkout is not touched), the .debs and
# lintian's report in $MPC_BUILD/deb/ARCH.
#
#   DEB_HOST_ARCH=arm64 scripts/deb.sh   cross-build, against the arm64
#                                        libraries in $MPC_ARM64_ROOT
#   MPC_LINTIAN=0                        skip lintian
#
# Prints the packages, then "lintian: N errors, N warnings" (the tags are in
# lintian.log). Fails when the build fails or lintian reports an error.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

arch=${DEB_HOST_ARCH:-$(dpkg --print-architecture)}
out=$MPC_BUILD/deb/$arch
src=$out/src/mali-perfcnt
rm -rf "$out"
mkdir -p "$src"
# the tracked and untracked-but-not-ignored files; without git, all but the
# build directories
if git -C "$MPC_ROOT" rev-parse --git-dir >/dev/null 2>&1; then
	# shellcheck disable=SC2016 # the inner sh expands them
	(cd "$MPC_ROOT" && git ls-files -z --cached --others --exclude-standard |
		xargs -0 sh -c 'for f; do [ -e "$f" ] && printf "%s\0" "$f"; done' sh |
		tar --null -T - -cf -) | tar -xf - -C "$src"
else
	tar -C "$MPC_ROOT" --exclude=./build --exclude=./user/build --exclude=./.git \
		-cf - . | tar -xf - -C "$src"
fi

args=(-us -uc -b)
if [ "$arch" != "$(dpkg --print-architecture)" ]; then
	[ "$arch" = arm64 ] || die "deb: cross builds are for arm64 only"
	r=$MPC_ARM64_ROOT
	[ -e "$r/usr/lib/aarch64-linux-gnu/pkgconfig/libdrm.pc" ] ||
		die "deb: no arm64 libdrm in $r (scripts/deps.sh)"
	# The arm64 -dev packages are extracted in $r, not installed (-d: do
	# not check the build dependencies against the host's dpkg database).
	args+=(-a"$arch" -d)
	# the host pkg-config on the arm64 .pc files (the cross wrapper would not
	# look in $r)
	export PKG_CONFIG=pkg-config CC=${MPC_ARM64_CROSS}gcc
	export PKG_CONFIG_SYSROOT_DIR=$r
	export PKG_CONFIG_LIBDIR=$r/usr/lib/aarch64-linux-gnu/pkgconfig:$r/usr/share/pkgconfig
	export DEB_LDFLAGS_APPEND="-L$r/usr/lib/aarch64-linux-gnu -Wl,-rpath-link,$r/lib/aarch64-linux-gnu:$r/usr/lib/aarch64-linux-gnu"
	# dpkg-shlibdeps needs the libraries' packages: the cached arm64 .debs,
	# raw-extracted as package build directories (debian/rules: -S).
	MPC_CROSS_SHLIBS=''
	for p in libc6 libdrm2 libkmod2; do
		deb=$(find "$MPC_ARM64_CACHE/debs" -maxdepth 1 -name "${p}_*_arm64.deb" |
			sort -V | tail -n 1)
		[ -n "$deb" ] || die "deb: no $p arm64 package in $MPC_ARM64_CACHE/debs (scripts/deps.sh)"
		mkdir -p "$out/shlibs"
		dpkg-deb -R "$deb" "$out/shlibs/$p"
		MPC_CROSS_SHLIBS+=" $out/shlibs/$p"
	done
	export MPC_CROSS_SHLIBS
	# the unit tests cannot run on the build machine
	export DEB_BUILD_OPTIONS="nocheck ${DEB_BUILD_OPTIONS:-}"
fi
log "deb: dpkg-buildpackage ${args[*]} ($src)"
if ! (cd "$src" && dpkg-buildpackage "${args[@]}") >"$out/build.log" 2>&1; then
	tail -n 30 "$out/build.log" >&2
	die "deb: dpkg-buildpackage failed (log: $out/build.log)"
fi
mv "$out"/src/*.deb "$out"/src/*.changes "$out"/src/*.buildinfo "$out"/
rm -rf "$out/src"
for f in "$out"/*.deb; do
	echo "deb: ${f##*/}"
done
[ "${MPC_LINTIAN:-1}" = 0 ] && exit 0
lintian --info --display-info --pedantic "$out"/*.changes >"$out/lintian.log" 2>&1 || true
e=$(grep -c '^E: ' "$out/lintian.log" || true)
w=$(grep -c '^W: ' "$out/lintian.log" || true)
echo "lintian: $e errors, $w warnings, $(grep -c '^[IP]: ' "$out/lintian.log" || true) info/pedantic ($out/lintian.log)"
[ "$e" = 0 ]
