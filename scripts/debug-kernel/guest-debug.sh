#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# /mpc/run of the `make check-debug` VM (busybox sh, debug kernel). Each
# part prints TAP sections between "=== BEGIN name" and "=== END name rc=N"
# (parsed on the host by scripts/tap-parse.awk):
#
#   instruments        KASAN, lockdep, kmemleak, debug objects, fault
#                      injection and KUnit are present and switched on
#   (the make check    the kselftest suite and the end-to-end test: the
#    sections)         runner of `make check` (/mpc/check-run), unchanged
#   kunit-SUITE        each KUnit suite, from /sys/kernel/debug/kunit/*/results
#   fuzz               mpc-fuzz: a million structure-aware calls of the ioctls
#                      and debugfs files, several processes, unbind/bind
#   fuzz-race          mpc-fuzz -r: opens of every debugfs file of the device
#                      racing 100 unbind/bind cycles
#   trinity            Debian's trinity syscall fuzzer on the render node and
#                      the debugfs files, for a bounded time
#   fail-nth-OP        allocation-failure loops (mpc-fail-nth)
#   kmemleak           a kmemleak scan after everything, which must be empty
#   dmesg-debug        the kernel log of every part against bad-patterns
#   instruments-end    lockdep and kmemleak are still on at the end
#
# The kernel log is read and cleared after each part (/tmp/kmsg/PART.log)
# and scanned here with the debug kernel's patterns, which ignore the stack
# traces fault injection prints; /init's generic scan then only sees what
# came after. Exit status: 0 when every section passed.
#
# The parts a boot runs (the suite, kunit, fuzz with trinity, fail-nth):
# mpc_parts=a,b,... on the kernel command line, all four without it. make
# check-debug boots two guests at once, each with about half the work
# (the rows debug/suite and debug/fuzz of scripts/targets); instruments,
# kmemleak and dmesg-debug run in each.

# shellcheck source=../vm/guest-lib.sh
. /mpc/lib.sh
rc=0
krel=$(cat /mpc/krel)
K=/sys/kernel/debug
D=/mpc/debug
KMSG=/tmp/kmsg
mkdir -p $KMSG
# The patterns of bad-patterns as one extended regex
bad=$(grep -v -e '^# ' -e '^#$' -e '^$' $D/bad-patterns | paste -s -d '|')
# trinity's own children crashing (its bugs, see trinity.sh): counted by
# trinity.sh, not kernel bug reports
export MPC_TRINITY_OWN='trinity-c[0-9]+\[[0-9]+\]: segfault at '
params="sim=g52 sim_cores=0xb sim_l2=2"
parts=$(sed -n 's/.*mpc_parts=\([^ ]*\).*/\1/p' /proc/cmdline | tr , ' ')
[ -n "$parts" ] || parts="suite kunit fuzz fail-nth"
echo "# parts of this boot: $parts"
want() {
	case " $parts " in
	*" $1 "*) return 0 ;;
	esac
	return 1
}

section_begin() {
	sec=$1
	sec_fail=0
	sec_n=0
	echo "=== BEGIN $sec"
}

# check NAME CONDITION...: one TAP result
check() {
	name=$1
	shift
	sec_n=$((sec_n + 1))
	if "$@"; then
		echo "ok $sec_n $name"
	else
		echo "not ok $sec_n $name"
		sec_fail=1
	fi
}

section_end() {
	echo "1..$sec_n"
	echo "=== END $sec rc=$sec_fail"
	[ "$sec_fail" -eq 0 ] || rc=1
}

# section_failed SECTION CASE WHY: SECTION could not run (what it needs
# failed): one failing CASE
section_failed() {
	echo "=== BEGIN $1"
	echo "1..1"
	echo "not ok 1 $2 # $3"
	echo "=== END $1 rc=1"
	rc=1
}

# harvest PART: move the kernel log so far to $KMSG/PART.log
harvest() {
	dmesg -c >>"$KMSG/$1.log" 2>/dev/null
}

# Conditions for check (shellcheck does not see them called)
# shellcheck disable=SC2317
has() { [ -e "$1" ]; }
# shellcheck disable=SC2317
kmemleak_on() { echo scan >$K/kmemleak 2>/dev/null; }
# shellcheck disable=SC2317
lockdep_on() { grep -q '^ *debug_locks: *1' /proc/lockdep_stats 2>/dev/null; }
# shellcheck disable=SC2317
boot_log_has() { grep -q "$1" "$KMSG/boot.log"; }

harvest boot

section_begin instruments
check kasan boot_log_has 'KernelAddressSanitizer initialized'
check lockdep lockdep_on
check kmemleak kmemleak_on
check debug_objects has $K/debug_objects/stats
check fault_injection has /proc/self/fail-nth
check failslab has $K/failslab/ignore-gfp-wait
check fail_page_alloc has $K/fail_page_alloc/ignore-gfp-wait
check kunit has $K/kunit
section_end
# Objects the boot left unreferenced are not ours: forget them. kmemleak
# scans only when asked (section 5 and the instruments-end check): its own
# thread's scan of all memory takes minutes under TCG and KASAN, and the
# tests and fuzzers running beside it would stall on it.
echo clear >$K/kmemleak 2>/dev/null
echo scan=off >$K/kmemleak 2>/dev/null

# 1. The kselftest suite and the end-to-end test, as `make check` runs them.
if want suite; then
	t=$(date +%s)
	sh /mpc/check-run || rc=1
	echo "# the kselftest suite and e2e took $(($(date +%s) - t)) s"
fi
harvest selftests

# 2. KUnit: the suites run when their module loads.
kunit_rc=0
if want kunit; then
	insmod $D/mali_perfcnt_kunit.ko 2>/tmp/kunit.err
	kunit_rc=$?
else
	: >$D/kunit-suites
fi
# shellcheck disable=SC2013 # one suite name per line, no spaces
for s in $(cat $D/kunit-suites); do
	r=$K/kunit/$s/results
	if [ "$kunit_rc" -ne 0 ] || [ ! -r "$r" ]; then
		section_failed "kunit-$s" "$s" "no results: insmod mali_perfcnt_kunit.ko: $(cat /tmp/kunit.err)"
		continue
	fi
	echo "=== BEGIN kunit-$s"
	# The suite's own KTAP, one level up: its cases become the results
	# of this section. A failed suite with no failed case (its init
	# failed) still fails.
	awk '
	/^    [^ ]/ {
		l = substr($0, 5)
		if (l ~ /^not ok /)
			bad_case = 1
		print l
		next
	}
	/^    / { print substr($0, 5); next }
	/^not ok 1 / { suite_bad = 1 }
	END {
		if (suite_bad && !bad_case)
			print "not ok 999 suite_failed"
		exit suite_bad
	}' "$r"
	src=$?
	echo "=== END kunit-$s rc=$src"
	[ "$src" -eq 0 ] || rc=1
done
rmmod mali_perfcnt_kunit 2>/dev/null
harvest kunit

# 3. The fuzzers, on a freshly loaded module. mpc-fuzz reads and clears the
# kernel log itself (into $KMSG/fuzz.log, scanned again below).
rmmod mali_perfcnt 2>/dev/null
harvest fuzz-setup
# shellcheck disable=SC2086 # $params: one word per parameter
if ! want fuzz; then
	:
elif modprobe mali_perfcnt $params; then
	echo "=== BEGIN fuzz"
	# shellcheck disable=SC2046 # options, one word each
	$D/mpc-fuzz -l $KMSG/fuzz.log -b "$bad" $(cat $D/fuzz-args 2>/dev/null)
	r=$?
	echo "=== END fuzz rc=$r"
	[ "$r" -eq 0 ] || rc=1
	harvest fuzz
	# An open that finds a half-made file oopses holding its debugfs
	# reference, and the next unbind then waits for it forever (in D
	# state, past any kill): after 300 s the guest goes on without it.
	echo "=== BEGIN fuzz-race"
	mpc_bounded 300 $D/mpc-fuzz -l $KMSG/fuzz-race.log -b "$bad" -p 2 -r 100
	r=$?
	[ "$r" -eq 124 ] && echo "not ok 99 race_finished # no result in 300 s"
	echo "=== END fuzz-race rc=$r"
	[ "$r" -eq 0 ] || rc=1
	harvest fuzz-race
	[ -f $D/trinity.sh ] && { sh $D/trinity.sh || rc=1; }
	harvest trinity
else
	section_failed fuzz fuzz_module_load "modprobe mali_perfcnt $params failed"
fi

# 4. Allocation-failure injection: every slab and page allocation of an
# operation fails once (fail-nth), with a stack trace for each.
for f in failslab fail_page_alloc; do
	echo N >$K/$f/ignore-gfp-wait
	echo 2 >$K/$f/verbose
	echo 0 >$K/$f/verbose_ratelimit_interval_ms
done
echo N >$K/fail_page_alloc/ignore-gfp-highmem
echo 0 >$K/fail_page_alloc/min-order

fail_nth() {
	want fail-nth || return 0
	echo "=== BEGIN fail-nth-$1"
	t=$(date +%s)
	$D/mpc-fail-nth -l /tmp/fail-nth.log -b "$bad" "$@"
	r=$?
	echo "# fail-nth $1 took $(($(date +%s) - t)) s"
	echo "=== END fail-nth-$1 rc=$r"
	[ "$r" -eq 0 ] || rc=1
}

rmmod mali_perfcnt 2>/dev/null
harvest fail-nth-setup
fail_nth load -m /lib/modules/"$krel"/extra/mali_perfcnt.ko -p "$params"
# shellcheck disable=SC2086 # $params: one word per parameter
if ! want fail-nth; then
	:
elif modprobe mali_perfcnt $params; then
	for op in open enable dump debugfs-enable debugfs-dump debugfs-counters; do
		fail_nth $op
	done
else
	section_failed fail-nth-ops modprobe_after_load_loop "modprobe mali_perfcnt $params failed"
fi
for f in failslab fail_page_alloc; do
	echo Y >$K/$f/ignore-gfp-wait
done
harvest fail-nth-after

# 5. kmemleak, after everything. A last load stays in place while scanning
# so that leaks of the running driver show its symbols. kmemleak reports
# objects at least 5 s old; two scans drop transient false positives.
rmmod mali_perfcnt 2>/dev/null
# shellcheck disable=SC2086 # one word per parameter
modprobe mali_perfcnt $params
sleep 6
section_begin kmemleak
kmemleak_on
sleep 1
kmemleak_on
cat $K/kmemleak >/tmp/kmemleak.txt 2>/dev/null
leaks=$(grep -c '^unreferenced object' /tmp/kmemleak.txt)
# The report goes before the result: the host shows what precedes a failure.
[ "$leaks" -eq 0 ] || head -n 120 /tmp/kmemleak.txt | sed 's/^/# /'
check "kmemleak_empty ($leaks unreferenced objects)" [ "$leaks" -eq 0 ]
section_end
rmmod mali_perfcnt 2>/dev/null
harvest end

# 6. The kernel log of every part.
section_begin dmesg-debug
for part in boot selftests kunit fuzz-setup fuzz fuzz-race trinity \
	fail-nth-setup fail-nth-after end; do
	[ -f "$KMSG/$part.log" ] || : >"$KMSG/$part.log"
	if [ "$part" = trinity ]; then
		grep -E "$bad" "$KMSG/$part.log" | grep -v -E "$MPC_TRINITY_OWN"
	else
		grep -E "$bad" "$KMSG/$part.log"
	fi >/tmp/bad.txt
	if [ -s /tmp/bad.txt ]; then
		sed 's/^/# /' /tmp/bad.txt | head -n 20
		echo "# $part: kernel log from 5 lines before the first report:"
		BAD=$bad awk '{ l[NR] = $0 } $0 ~ ENVIRON["BAD"] && !s { s = NR }
			END { for (i = s - 5; s && i < s + 80 && i <= NR; i++)
				if (i > 0) print "# " l[i] }' "$KMSG/$part.log"
	fi
	check "dmesg_clean_$part" [ ! -s /tmp/bad.txt ]
done
section_end

section_begin instruments-end
check lockdep_still_on lockdep_on
check kmemleak_still_on kmemleak_on
section_end

exit $rc
