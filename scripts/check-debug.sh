#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# `make check-debug`: the tests again on a debug kernel that sees what the
# stock Debian kernels cannot (KASAN, lockdep, kmemleak, debug objects,
# DMA-API debugging, allocation-failure injection), plus the KUnit suites.
#
#  1. build or reuse the debug kernel (scripts/debug-kernel/build.sh; cache at
#     /var/cache/mali-perfcnt/debug-kernel, keyed by source, config, patches
#     and compiler);
#  2. build mali_perfcnt.ko and mali_perfcnt_kunit.ko against it (W=1, sparse:
#     any warning fails), the selftests, the tool and mpc-fail-nth;
#  3. boot it in QEMU (scripts/vm/, as `make check` does) and run
#     scripts/debug-kernel/guest-debug.sh: the kselftest suite and the
#     end-to-end test, the KUnit suites, mpc-fuzz (a million structure-aware
#     calls of the ioctls and debugfs files) and trinity, the fail-nth loops
#     over load+probe,
#     open, enable, dump and the debugfs files, a kmemleak scan and a scan of
#     the kernel log for KASAN, lockdep, ODEBUG, WARNING and BUG reports.
#
# Ends with exactly one line "N passed, N failed" (TAP cases; a build that
# fails or a VM that does not report counts as a failed case) and exits
# non-zero on any failure.
#
# The scripts of scripts/vm/ look for the kernel in /boot and its modules in
# /lib/modules; they run here in a private mount namespace where the debug
# kernel's are bind-mounted over those (nothing on the host changes).
#
# Environment: MPC_VM_TIMEOUT bounds the boot in seconds (default 2400),
# MPC_DEBUG_NO_SUITE=1 leaves the kselftest suite and the end-to-end test
# out (a quicker run while working on the rest; reported as skipped),
# MPC_DEBUG_FUZZ_ONLY=1 leaves the KUnit suites and the fail-nth loops out
# (with MPC_DEBUG_NO_SUITE=1: only the fuzzers), MPC_FUZZ_ARGS replaces
# mpc-fuzz's options (default "-n 1000000 -p 2 -u 3 -k"; -s SEED replays a
# run), MPC_TRINITY=0 leaves trinity out, MPC_TRINITY_ARGS="SECONDS CALLS"
# bounds each of its two runs (default "70 200000"), MPC_SELFTEST_ARGS
# passes harness options to the selftests, MPC_JOBS the
# make parallelism of the kernel build (default 2), MPC_DEBUG_KERNEL_CACHE
# the cache directory (an absolute path; keep it fixed).
set -uo pipefail
. "$(dirname "$0")/lib.sh"
cd "$MPC_ROOT" || exit 1

t_start=$(date +%s)
"$MPC_ROOT/scripts/deps.sh" || die "scripts/deps.sh failed"
# Decided outside the namespace that swaps /boot (the probe boots a stock kernel).
mpc_accel

out=$MPC_BUILD/check-debug
rm -rf "$out"
mkdir -p "$out"
res=$out/results.tsv
faillog=$out/failures.log
: >"$res"
: >"$faillog"
tap=$MPC_ROOT/scripts/tap-parse.awk
st_dir=$MPC_BUILD/selftests
dk=$MPC_ROOT/scripts/debug-kernel
scope=debug

# fail_case NAME REASON [LOG]: one failed case, LOG shown on the host.
fail_case() {
	printf '%s\tfail\t%s\t%s\n' "$scope" "$1" "$2" >>"$res"
	{
		echo "---- $scope: $1 $2"
		[ -n "${3:-}" ] && [ -f "$3" ] && tail -n 60 "$3"
	} >>"$faillog"
}

count() { # count STATUS
	awk -F'\t' -v st="$1" '$2 == st { n++ } END { print n + 0 }' "$res"
}

summary() {
	local t=$(($(date +%s) - t_start))

	if [ -s "$faillog" ]; then
		echo
		echo "==== failures"
		cat "$faillog"
	fi
	if [ "$(count skip)" -gt 0 ]; then
		echo
		echo "==== skipped"
		awk -F'\t' '$2 == "skip" { printf "%s: %s: %s\n", $1, $3, $4 }' "$res"
	fi
	echo
	echo "check-debug: ${t}s in all (kernel ${t_kernel:-?}s, builds ${t_build:-?}s," \
		"VM ${t_vm:-?}s); logs in ${out#"$MPC_ROOT"/}"
	echo "$(count pass) passed, $(count fail) failed"
	[ "$(count fail)" -eq 0 ]
	exit
}

# ns_run CMD...: run CMD with the debug kernel in /boot and /lib/modules.
ns_run() {
	# shellcheck disable=SC2016 # expanded by the inner shell
	unshare -m --propagation private -- /bin/sh -c '
		root=$1; shift
		mount --bind "$root/boot" /boot &&
		mount --bind "$root/lib/modules" /lib/modules || exit 97
		exec "$@"' sh "$ROOT" "$@"
}

# 1. The debug kernel (cached). One check-debug at a time: the cache must
# not be rebuilt under a running VM.
mkdir -p "$(dirname "${MPC_DEBUG_KERNEL_CACHE:-/var/cache/mali-perfcnt/debug-kernel}")"
exec 9>"${MPC_DEBUG_KERNEL_CACHE:-/var/cache/mali-perfcnt/debug-kernel}.lock"
flock -n 9 || { log "check-debug: waiting for another check-debug"; flock 9; }
export MPC_DEBUG_KERNEL_LOCKED=1
log "== debug kernel"
t0=$(date +%s)
if ! "$dk/build.sh" >"$out/kernel.log" 2>&1; then
	fail_case build/debug-kernel "the debug kernel does not build" "$out/kernel.log"
	summary
fi
t_kernel=$(($(date +%s) - t0))
# KREL, KDIR and ROOT
eval "$("$dk/build.sh" --env)"
log "   $KREL ($(grep -m1 -o 'reusing\|building from scratch\|resuming' \
	"$out/kernel.log" || echo built), ${t_kernel}s)"

# 2. Builds.
t0=$(date +%s)
have_user=0
if [ -f user/Makefile ]; then
	log "== make -C user"
	if make -C user -j2 >"$out/user-build.log" 2>&1; then
		have_user=1
	else
		fail_case build/user "make -C user failed" "$out/user-build.log"
	fi
fi

log "== make selftests, mpc-fail-nth, mpc-fuzz"
have_st=1
if ! make -C selftests/drivers/gpu/mali_perfcnt -j2 OUTPUT="$st_dir" \
		>"$out/selftests-build.log" 2>&1; then
	fail_case build/selftests "selftests do not build" "$out/selftests-build.log"
	have_st=0
fi
if ! make -C tools/fail-nth OUTPUT="$out/fail-nth" >"$out/fail-nth-build.log" 2>&1; then
	fail_case build/fail-nth "mpc-fail-nth does not build" "$out/fail-nth-build.log"
	summary
fi
if ! make -C tools/fuzz OUTPUT="$out/fuzz" >"$out/fuzz-build.log" 2>&1; then
	fail_case build/fuzz "mpc-fuzz does not build" "$out/fuzz-build.log"
	summary
fi

log "== $KREL: build mali_perfcnt.ko, mali_perfcnt_kunit.ko (W=1, sparse)"
kdir=$out/kmod
mkdir -p "$kdir"
tar -C "$MPC_ROOT" -cf - Kbuild Makefile kernel model uapi | tar -C "$kdir" -xf -
# shellcheck disable=SC2153 # KDIR is set by build.sh --env
if ! make -C "$kdir" KDIR="$KDIR" W=1 C=2 MPC_SIM=1 -j2 >"$out/module-build.log" 2>&1 ||
   [ ! -f "$kdir/mali_perfcnt.ko" ] || [ ! -f "$kdir/mali_perfcnt_kunit.ko" ]; then
	fail_case build/module "the modules do not build" "$out/module-build.log"
	summary
fi
if grep -q 'warning:' "$out/module-build.log"; then
	grep -A3 'warning:' "$out/module-build.log" >"$out/module-warnings.log"
	fail_case build/module-warnings \
		"$(grep -c 'warning:' "$out/module-build.log") W=1/sparse warnings" \
		"$out/module-warnings.log"
fi
# The suites the KUnit module must report: every one its sources define.
sed -n 's/^[[:space:]]*\.name = "\(mali_perfcnt_[a-z0-9_]*\)",$/\1/p' \
	kernel/tests/*.c >"$out/kunit-suites"
[ -s "$out/kunit-suites" ] || fail_case build/kunit-suites "no KUnit suite found"

args=(--module "$kdir/mali_perfcnt.ko" --run "$dk/guest-debug.sh"
      --file "$MPC_ROOT/scripts/vm/guest-check.sh:/mpc/check-run"
      --file "$kdir/mali_perfcnt_kunit.ko:/mpc/debug/mali_perfcnt_kunit.ko"
      --file "$out/fail-nth/mpc-fail-nth:/mpc/debug/mpc-fail-nth"
      --file "$dk/bad-patterns:/mpc/debug/bad-patterns"
      --file "$out/kunit-suites:/mpc/debug/kunit-suites"
      --file "$out/fuzz/mpc-fuzz:/mpc/debug/mpc-fuzz"
      --file "$out/fuzz-args:/mpc/debug/fuzz-args")
echo "${MPC_FUZZ_ARGS:--n 1000000 -p 2 -u 3 -k}" >"$out/fuzz-args"
# trinity (scripts/deps.sh installs it; MPC_TRINITY=0 leaves it out), in
# the guest that runs the fuzzers
if [ "${MPC_TRINITY:-1}" != 1 ]; then
	printf '%s\tskip\t%s\t%s\n' "$scope" trinity "off: MPC_TRINITY=0" >>"$res"
elif [ -x /usr/bin/trinity ]; then
	args+=(--elf /usr/bin/trinity
	       --file "$dk/guest-trinity.sh:/mpc/debug/trinity.sh"
	       --file "$dk/trinity-calls:/mpc/debug/trinity-calls")
	if [ -n "${MPC_TRINITY_ARGS:-}" ]; then
		echo "$MPC_TRINITY_ARGS" >"$out/trinity-args"
		args+=(--file "$out/trinity-args:/mpc/debug/trinity-args")
	fi
else
	fail_case build/trinity "/usr/bin/trinity missing: run scripts/deps.sh"
fi
if [ "${MPC_DEBUG_FUZZ_ONLY:-0}" = 1 ]; then
	printf '%s\tskip\t%s\t%s\n' "$scope" kunit+fail-nth \
		"MPC_DEBUG_FUZZ_ONLY=1: the KUnit suites and fail-nth loops were not run" >>"$res"
fi
if [ "${MPC_DEBUG_NO_SUITE:-0}" = 1 ]; then
	printf '%s\tskip\t%s\t%s\n' "$scope" selftests+e2e \
		"MPC_DEBUG_NO_SUITE=1: the kselftest suite and e2e test were not run" >>"$res"
else
	[ "$have_st" = 1 ] && args+=(--selftests "$st_dir")
	[ "$have_user" = 1 ] && args+=(--user)
fi
# The suite on two fixture variants by default, the v4 T720 and the Bifrost
# G52 (sparse cores, two L2 slices, 33-bit VA): every code path of the
# driver (both layouts, TRANSCFG, io-pgtable-free builtin tables) under
# KASAN/lockdep/kmemleak, in about half the time of all five (the x86_64
# and QEMU GPU targets of make check run all of them). MPC_DEBUG_VARIANTS
# ("all", or names) and MPC_SELFTEST_ARGS choose otherwise.
sel=${MPC_SELFTEST_ARGS:-}
if [ -z "$sel" ] && [ "${MPC_DEBUG_VARIANTS:-t720 g52}" != all ]; then
	for v in ${MPC_DEBUG_VARIANTS:-t720 g52}; do
		sel+=" -v $v"
	done
fi
if [ -n "$sel" ]; then
	echo "$sel" >"$out/selftest-args"
	args+=(--file "$out/selftest-args:/mpc/selftest-args")
fi
if ! ns_run scripts/vm/mkinitramfs.sh "${args[@]}" "$KREL" \
		"$out/initramfs.cpio.gz" >"$out/initramfs.log" 2>&1; then
	fail_case vm/initramfs "initramfs build failed" "$out/initramfs.log"
	summary
fi
t_build=$(($(date +%s) - t0))

# 3. The VMs: the guest's parts (scripts/debug-kernel/guest-debug.sh) on
# two guests at once when MPC_VM_JOBS (scripts/lib.sh) allows, the suite
# and the fail-nth loops on one, KUnit and the fuzzers on the other (about
# the same time each); one guest with everything otherwise. Each checks
# its own kernel log and kmemleak. With two, a case's name starts with its
# guest's ("suite/...", "fuzz/...").
parts="suite kunit fuzz fail-nth"
[ "${MPC_DEBUG_NO_SUITE:-0}" = 1 ] && parts="kunit fuzz fail-nth"
[ "${MPC_DEBUG_FUZZ_ONLY:-0}" = 1 ] && parts=${parts/kunit /} && parts=${parts/ fail-nth/}
guests=()
if [ "$(mpc_vm_jobs)" -ge 2 ]; then
	for g in "suite:suite fail-nth" "fuzz:kunit fuzz"; do
		p=''
		for w in ${g#*:}; do
			case " $parts " in *" $w "*) p+="${p:+,}$w" ;; esac
		done
		[ -z "$p" ] || guests+=("${g%%:*}:$p")
	done
fi
[ "${#guests[@]}" -ge 2 ] || guests=("vm:${parts// /,}")
log "== $KREL: boot QEMU and run everything (several minutes, accel ${MPC_ACCEL_VERDICT%% *}; guests: ${guests[*]})"
tmo=${MPC_VM_TIMEOUT:-2400}
t0=$(date +%s)
for g in "${guests[@]}"; do
	ns_run scripts/vm/boot.sh --append "mpc_parts=${g#*:}" "$KREL" \
		"$out/initramfs.cpio.gz" "$out/${g%%:*}" "$tmo" &
	eval "pid_${g%%:*}=\$!"
done
for g in "${guests[@]}"; do
	name=${g%%:*}
	vm=$out/$name
	pid=pid_$name
	wait "${!pid}"
	rc=$?
	pre=''
	[ "${#guests[@]}" -ge 2 ] && pre=$name/
	awk -v scope="$scope" -v prefix="$pre" -v faillog="$faillog" -f "$tap" \
		"$vm/output.log" >>"$res"
	case $rc in
	124)	fail_case "${pre}vm/timeout" "no result after ${tmo}s" "$vm/console.log" ;;
	125)	fail_case "${pre}vm/no-report" "guest died without reporting (panic?)" \
			"$vm/console.log" ;;
	126)	fail_case "${pre}vm/qemu-error" \
			"QEMU failed before the guest printed anything: $(head -n 1 "$vm/qemu.out")" \
			"$vm/qemu.out" ;;
	97)	fail_case "${pre}vm/namespace" "could not bind-mount the debug kernel" ;;
	0)	;;
	*)	# e.g. the guest runner died before its first section
		grep -q "^$scope	fail	$pre" "$res" ||
			fail_case "${pre}vm/exit-status" \
				"the guest reported status $rc but no failing test" \
				"$vm/output.log" ;;
	esac
done
t_vm=$(($(date +%s) - t0))

# What the instruments covered.
echo
awk -F'\t' '{ t = $3; sub(/^(suite|fuzz)\//, "", t) }
	t ~ /^kunit-/ { split(t, a, "/"); n[a[1]]++; if ($2 == "pass") p[a[1]]++ }
	END { for (s in n) printf "KUnit %s: %d/%d cases passed\n", substr(s, 7), p[s], n[s] }' \
	"$res" | sort
for g in "${guests[@]}"; do
	sed -n 's/^# fail-nth summary: \([^ ]*\) \([0-9]*\) points \([0-9]*\) driver-sites\(.*\)$/fail-nth \1: \2 allocations failed one at a time, \3 distinct call sites in mali_perfcnt\4/p' \
		"$out/${g%%:*}/output.log"
	grep -h -o 'kmemleak_empty ([0-9]* unreferenced objects)' \
		"$out/${g%%:*}/output.log" | sed "s|^|${g%%:*}: |" || true
	sed -n 's/^# \(fuzz: .*\)$/\1/p; s/^# \(fuzz-race: .*\)$/\1/p; s/^# \(trinity: .*\)$/\1/p' \
		"$out/${g%%:*}/output.log"
done
echo "$KREL: $(count pass) passed, $(count fail) failed, $(count skip) skipped" \
	"(VMs ${t_vm}s, ${#guests[@]} at a time, logs in ${out#"$MPC_ROOT"/}/{${guests[*]%%:*}})"
summary
