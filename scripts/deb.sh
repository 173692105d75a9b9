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
(cd "$MPC_ROOT" && git ls-files -z --cached --others --exclude-standard |
	xargs -0 sh -c 'for f; do [ -e "$f" ] && printf "%s\0" "$f"; done' sh |
	tar --null -T - -cf -) | tar -xf - -C "$src"

args=(-us -uc -b)
if [ "$arch" != "$(dpkg --print-architecture)" ]; then
	[ "$arch" = arm64 ] || die "deb: cross builds are for arm64 only"
	r=$MPC_ARM64_ROOT
	[ -e "$r/usr/lib/aarch64-linux-gnu/pkgconfig/libdrm.pc" ] ||
		die "deb: no arm64 libdrm in $r (scripts/deps.sh)"
	# The arm64 -dev packages are extracted in $r, not installed (-d: do
	# not check the build dependencies against the host's dpkg database).
	args+=(-a"$arch" -d)
	export PKG_CONFIG_SYSROOT_DIR=$r
	export PKG_CONFIG_LIBDIR=$r/usr/lib/aarch64-linux-gnu/pkgconfig:$r/usr/share/pkgconfig
	export DEB_LDFLAGS_APPEND="-L$r/usr/lib/aarch64-linux-gnu -Wl,-rpath-link,$r/lib/aarch64-linux-gnu:$r/usr/lib/aarch64-linux-gnu"
	# dpkg-shlibdeps finds the arm64 libraries there, too
	export DEB_BUILD_OPTIONS="nocheck ${DEB_BUILD_OPTIONS:-}"
fi
log "deb: dpkg-buildpackage ${args[*]} ($src)"
if ! (cd "$src" && dpkg-buildpackage "${args[@]}") >"$out/build.log" 2>&1; then
	tail -n 30 "$out/build.log" >&2
	die "deb: dpkg-buildpackage failed (log: $out/build.log)"
fi
mv "$out"/src/*.deb "$out"/src/*.changes "$out"/src/*.buildinfo "$out"/
rm -rf "$out/src"
ls "$out"/*.deb | sed 's|.*/|deb: |'
[ "${MPC_LINTIAN:-1}" = 0 ] && exit 0
lintian --info --display-info --pedantic "$out"/*.changes >"$out/lintian.log" 2>&1 || true
e=$(grep -c '^E: ' "$out/lintian.log" || true)
w=$(grep -c '^W: ' "$out/lintian.log" || true)
echo "lintian: $e errors, $w warnings, $(grep -c '^[IP]: ' "$out/lintian.log" || true) info/pedantic ($out/lintian.log)"
[ "$e" = 0 ]
