#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Host tests of `make panfrost-patched` (scripts/panfrost-patched.sh), the
# patched panfrost.ko of a board's kernel, on the arm64 Debian kernels the
# CI downloads (cross-compiled here): for each, the module builds from
# Debian's linux-source of the headers' version with the series applied,
# its vermagic is the kernel's, it has the series' counter policy, and
# `make panfrost-patched-install DESTDIR=` puts it where modprobe takes it
# over the kernel's own. Then what is missing gives one "error:" line
# naming what to install: headers, a panfrost module, the linux-source.
# The row pfseries/module; prints TAP.
set -uo pipefail
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/tap-lib.sh"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/mpc-pfpatched-test.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
cd "$MPC_ROOT" || exit 1

# one_error LOG WORDS...: LOG has exactly one line, an "error:" line with
# every word
one_error() {
	local lg=$1 w

	shift
	[ "$(wc -l <"$lg")" = 1 ] && grep -q '^error: ' "$lg" || return 1
	for w in "$@"; do
		grep -qF -- "$w" "$lg" || return 1
	done
}

krels=$(mpc_arm64_kernels)
[ -n "$krels" ] || { ok 1 "arm64 kernels with headers (scripts/deps.sh)"; tap_finish; exit; }
for k in $krels; do
	kd=$(mpc_kdir "$k")
	make -s panfrost-patched KREL="$k" KDIR="$kd" >"$tmp/make.log" 2>&1
	ok $? "make panfrost-patched KREL=$k KDIR=<its arm64 headers>" "$(tail -n 20 "$tmp/make.log")"
	ko=$MPC_BUILD/panfrost-patched/$k/panfrost.ko
	vm=$(modinfo -F vermagic "$ko" 2>&1)
	[ "${vm%% *}" = "$k" ]
	ok $? "$k: panfrost.ko's vermagic is $k's ($vm)"
	grep -q "vermagic $vm" "$tmp/make.log" && grep -q 'make panfrost-patched-install' "$tmp/make.log"
	ok $? "$k: make says where the module is and how to install it" "$(cat "$tmp/make.log")"
	strings "$ko" >"$tmp/strings"
	grep -qx 'perf_stream_paranoid' "$tmp/strings" && grep -qx 'dev/panfrost' "$tmp/strings" &&
		grep -q '^mpc_ioctl_session_open$\|session_open' "$tmp/strings"
	ok $? "$k: the module is the series' (sessions, sysctl dev/panfrost perf_stream_paranoid)"
	stock=$(ls "$MPC_ARM64_ROOT/lib/modules/$k/kernel/drivers/gpu/drm/panfrost/"panfrost.ko*)
	parms() { modinfo -F parm "$1" | cut -d: -f1 | sort | tr '\n' ' '; }
	[ "$(parms "$ko")" = "$(parms "$stock")" ]
	ok $? "$k: the module parameters are the kernel's panfrost's (no policy parameter)" \
		"ours: $(parms "$ko"); the kernel's: $(parms "$stock")"

	# Installed into a copy of the kernel's module tree (links)
	root=$tmp/root-$k
	mkdir -p "$root/lib/modules"
	cp -as "$MPC_ARM64_ROOT/lib/modules/$k" "$root/lib/modules/$k"
	rm -f "$root/lib/modules/$k/build" "$root/lib/modules/$k/source"
	make -s panfrost-patched-install KREL="$k" KDIR="$kd" DESTDIR="$root" >"$tmp/inst.log" 2>&1 &&
		[ -f "$root/lib/modules/$k/updates/panfrost.ko" ] &&
		grep -q '^updates/panfrost.ko:' "$root/lib/modules/$k/modules.dep"
	ok $? "$k: make panfrost-patched-install DESTDIR=: updates/panfrost.ko, in modules.dep" \
		"$(cat "$tmp/inst.log")"
	modprobe -d "$root" -S "$k" --show-depends panfrost >"$tmp/dep.log" 2>&1
	tail -n 1 "$tmp/dep.log" | grep -q "/lib/modules/$k/updates/panfrost.ko"
	ok $? "$k: modprobe panfrost takes the installed module, not the kernel's" "$(cat "$tmp/dep.log")"
done

k=$(echo "$krels" | head -n 1)
kd=$(mpc_kdir "$k")
base=$(mpc_series "$k")
! KREL=6.1.0-0-nosuch-arm64 ./scripts/panfrost-patched.sh >"$tmp/e.log" 2>&1 &&
	one_error "$tmp/e.log" "apt install linux-headers-6.1.0-0-nosuch-arm64"
ok $? "no headers: one line, install linux-headers-KREL" "$(cat "$tmp/e.log")"
other=$(echo "$krels" | sed -n 2p)
if [ -n "$other" ]; then
	! KREL=$k KDIR=$(mpc_kdir "$other") ./scripts/panfrost-patched.sh >"$tmp/e.log" 2>&1 &&
		one_error "$tmp/e.log" "headers of $other, not of $k"
	ok $? "headers of another kernel (KDIR=): one line saying whose they are" "$(cat "$tmp/e.log")"
fi
x86=$(mpc_kernels | head -n 1)
if [ -n "$x86" ] && [ -f "/lib/modules/$x86/build/Makefile" ]; then
	! KREL=$x86 ./scripts/panfrost-patched.sh >"$tmp/e.log" 2>&1 &&
		one_error "$tmp/e.log" "has no panfrost"
	ok $? "a kernel without panfrost ($x86): one line" "$(cat "$tmp/e.log")"
fi
mkdir -p "$tmp/nosrc"
! KREL=$k KDIR=$kd MPC_LINUX_SOURCE_DIR=$tmp/nosrc MPC_PATCHED_CACHE=$tmp/cache MPC_NO_APT=1 \
	./scripts/panfrost-patched.sh >"$tmp/e.log" 2>&1 &&
	one_error "$tmp/e.log" "apt install linux-source-$base"
ok $? "no linux-source-$base of the headers' version: one line, install it" "$(cat "$tmp/e.log")"
! KREL=$k KDIR=$kd MPC_LINUX_SOURCE=/dev/null/nothing ./scripts/panfrost-patched.sh >"$tmp/e.log" 2>&1 &&
	one_error "$tmp/e.log" "MPC_LINUX_SOURCE=/dev/null/nothing"
ok $? "MPC_LINUX_SOURCE= a missing file: one line" "$(cat "$tmp/e.log")"
! ./scripts/panfrost-patched.sh --bogus >"$tmp/e.log" 2>&1 &&
	one_error "$tmp/e.log" "usage"
ok $? "an unknown option: one line with the usage" "$(cat "$tmp/e.log")"
tap_finish
