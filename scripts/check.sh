#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# `make check`: host unit tests, then for every installed Debian kernel
# (newest 6.1 and 6.12) build mali_perfcnt.ko with W=1, boot a QEMU VM and
# run the kselftest suite and the userspace end-to-end test inside it.
#
# Prints per-kernel results, the TAP output of every failing test, the
# skipped tests with their reasons, and ends with exactly one line
# "N passed, N failed" (TAP test cases over the host and both kernels; a
# build that fails or a VM that does not report counts as a failed case).
# Exits non-zero on any failure.
#
# Environment: MPC_KERNELS="rel ..." limits the kernels, MPC_SELFTEST_ARGS
# passes harness options (e.g. "-v g52 -t busy50_gpu_active_ratio"),
# MPC_VM_TIMEOUT bounds each boot in seconds (default 720).
set -uo pipefail
. "$(dirname "$0")/lib.sh"
cd "$MPC_ROOT" || exit 1

"$MPC_ROOT/scripts/deps.sh" || die "scripts/deps.sh failed"

out=$MPC_BUILD/check
rm -rf "$out"
mkdir -p "$out"
res=$out/results.tsv
faillog=$out/failures.log
: >"$res"
: >"$faillog"
tap=$MPC_ROOT/scripts/tap-parse.awk
st_dir=$MPC_BUILD/selftests

# fail_case SCOPE NAME REASON [LOG]: one failed case, LOG shown on the host.
fail_case() {
	printf '%s\tfail\t%s\t%s\n' "$1" "$2" "$3" >>"$res"
	{
		echo "---- $1: $2 $3"
		[ -n "${4:-}" ] && [ -f "$4" ] && tail -n 60 "$4"
	} >>"$faillog"
}

count() { # count SCOPE STATUS
	awk -F'\t' -v s="$1" -v st="$2" \
		'($1 == s || s == "") && $2 == st { n++ } END { print n + 0 }' "$res"
}

# 1. Userspace: build, host unit tests.
have_user=0
if [ -f user/Makefile ]; then
	have_user=1
	log "== host: make -C user"
	if ! make -C user -j2 >"$out/user-build.log" 2>&1; then
		fail_case host build/user "make -C user failed" "$out/user-build.log"
	fi
	log "== host: make -C user test"
	make -C user test >"$out/user-test.log" 2>&1
	rc=$?
	awk -v scope=host -v section=user-unit -v exit_rc=$rc \
		-v faillog="$faillog" -f "$tap" "$out/user-test.log" >>"$res"
	echo "host: $(count host pass) passed, $(count host fail) failed," \
		"$(count host skip) skipped"
fi

# 2. The selftests (static binaries, run in the VMs).
log "== host: make selftests"
have_st=1
if ! make -C selftests/drivers/gpu/mali_perfcnt -j2 OUTPUT="$st_dir" \
		>"$out/selftests-build.log" 2>&1; then
	fail_case host build/selftests "selftests do not build" \
		"$out/selftests-build.log"
	have_st=0
fi

# 3. Each kernel: module build, VM run.
kernels=${MPC_KERNELS:-$(mpc_kernels)}
[ -n "$kernels" ] || fail_case host kernels "no Debian 6.1/6.12 kernel installed"
for krel in $kernels; do
	kout=$out/$krel
	kdir=$MPC_BUILD/kmod/$krel
	mkdir -p "$kout"
	log "== $krel: build mali_perfcnt.ko (W=1)"
	rm -rf "$kdir"
	mkdir -p "$kdir"
	tar -C "$MPC_ROOT" -cf - Kbuild Makefile kernel uapi | tar -C "$kdir" -xf -
	if ! make -C "$kdir" KDIR="/lib/modules/$krel/build" W=1 -j2 \
			>"$kout/build.log" 2>&1 || [ ! -f "$kdir/mali_perfcnt.ko" ]; then
		fail_case "$krel" build/module "mali_perfcnt.ko does not build" \
			"$kout/build.log"
		continue
	fi
	if grep -q 'warning:' "$kout/build.log"; then
		grep -A3 'warning:' "$kout/build.log" >"$kout/warnings.log"
		fail_case "$krel" build/module-warnings \
			"$(grep -c 'warning:' "$kout/build.log") W=1 warnings" \
			"$kout/warnings.log"
	fi

	args=()
	[ "$have_st" = 1 ] && args+=(--selftests "$st_dir")
	[ "$have_user" = 1 ] && args+=(--user)
	if [ -n "${MPC_SELFTEST_ARGS:-}" ]; then
		echo "$MPC_SELFTEST_ARGS" >"$kout/selftest-args"
		args+=(--file "$kout/selftest-args:/mpc/selftest-args")
	fi
	if ! scripts/vm/mkinitramfs.sh --module "$kdir/mali_perfcnt.ko" \
			--run scripts/vm/guest-check.sh "${args[@]}" \
			"$krel" "$kout/initramfs.cpio.gz" >"$kout/initramfs.log" 2>&1; then
		fail_case "$krel" vm/initramfs "initramfs build failed" \
			"$kout/initramfs.log"
		continue
	fi

	log "== $krel: boot QEMU and run the tests"
	t0=$(date +%s)
	scripts/vm/boot.sh "$krel" "$kout/initramfs.cpio.gz" "$kout/vm" \
		"${MPC_VM_TIMEOUT:-720}"
	rc=$?
	secs=$(($(date +%s) - t0))
	awk -v scope="$krel" -v faillog="$faillog" -f "$tap" \
		"$kout/vm/output.log" >>"$res"
	case $rc in
	124)	fail_case "$krel" vm/timeout "no result after ${MPC_VM_TIMEOUT:-720}s" \
			"$kout/vm/console.log" ;;
	125)	fail_case "$krel" vm/no-report "guest died without reporting (panic?)" \
			"$kout/vm/console.log" ;;
	esac
	echo "$krel: $(count "$krel" pass) passed, $(count "$krel" fail) failed," \
		"$(count "$krel" skip) skipped (VM ${secs}s, logs in ${kout#"$MPC_ROOT"/})"
done

if [ -s "$faillog" ]; then
	echo
	echo "==== failures"
	cat "$faillog"
fi
if [ "$(count "" skip)" -gt 0 ]; then
	echo
	echo "==== skipped"
	awk -F'\t' '$2 == "skip" { printf "%s: %s: %s\n", $1, $3, $4 }' "$res"
fi
passed=$(count "" pass)
failed=$(count "" fail)
echo
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
