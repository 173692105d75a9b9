#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Host tests of the kselftest package's pieces that run no module: the
# kernel's own runner (run_kselftest.sh, from Debian's linux-source) over a
# collection of stand-in programs, read back by scripts/kselftest/
# ktap-cases.awk into the cases LAVA gets, and mpc_ksft.sh's refusal
# without a module. Prints TAP; run by make check.
set -uo pipefail
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/tap-lib.sh"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/mpc-ksft-test.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
awkf=$MPC_ROOT/scripts/kselftest/ktap-cases.awk

if ! (mpc_extract_linux_src tools/testing/selftests/run_kselftest.sh \
	tools/testing/selftests/kselftest/runner.sh \
	tools/testing/selftests/kselftest/prefix.pl) 2>"$tmp/err"; then
	skip runner "the kernel's runner is not to be had: $(cat "$tmp/err")"
	tap_finish
	exit
fi
src=$MPC_BUILD/linux-src/tools/testing/selftests
pk=$tmp/pkg
mkdir -p "$pk/kselftest" "$pk/c/d"
cp "$src/run_kselftest.sh" "$pk/"
cp "$src/kselftest/runner.sh" "$src/kselftest/prefix.pl" "$pk/kselftest/"
printf 'timeout=20\n' >"$pk/c/d/settings"

# Stand-ins of each kind of program: the harness's TAP, a skip of the whole
# program, a crash after one case, the e2e scripts' "ok N - name", a
# failing case, a hang past the timeout.
prog() { printf '#!/bin/sh\n%s\n' "$2" >"$pk/c/d/$1.sh"; chmod +x "$pk/c/d/$1.sh"; }
# The harness of Linux 6.1 names no skipped case in its result ("ok 4 #
# SKIP why"), only in the RUN line before it.
prog harness 'echo "TAP version 13"; echo "1..4"; echo "# Starting 4 tests"
echo "ok 1 mpc.g52.open_close"; echo "ok 2 mpc.t720.open_close # SKIP not this variant"
echo "ok 3 mpc.g52.dump/layout"; echo "#  RUN           mpc.t860.open_close ..."
echo "#      SKIP      old harness"; echo "#            OK  mpc.t860.open_close"
echo "ok 4 # SKIP old harness"; echo "# Totals: pass:2 fail:0"; exit 0'
prog whole_skip 'echo "1..0 # SKIP needs the test-control window"; exit 4'
prog crash 'echo "1..2"; echo "ok 1 first"; kill -SEGV $$'
prog e2e 'echo "ok 1 - stat runs"; echo "ok 2 - top # SKIP no tty"; echo "1..2"'
prog failing 'echo "1..2"; echo "ok 1 a"; echo "not ok 2 b # expected 1, got 2"; exit 1'
prog hang 'echo "1..1"; sleep 60'
printf 'c/d:%s.sh\n' harness whole_skip crash e2e failing hang >"$pk/kselftest-list.txt"

# run_kselftest.sh's timeout needs /usr/bin/timeout (coreutils, here). The
# runner appends the programs' output to /dev/stdout: through a pipe, as
# the guests read it (a file opened without O_APPEND loses it).
(cd "$pk" && ./run_kselftest.sh -c c/d) 2>&1 | cat >"$tmp/run.log"
awk -f "$awkf" "$tmp/run.log" >"$tmp/cases" 2>"$tmp/awk.err"
ok $? "ktap-cases.awk reads the runner's log" "$(cat "$tmp/awk.err")"

want=$(printf '%s\n' \
	'pass	harness.mpc.g52.open_close	' \
	'skip	harness.mpc.t720.open_close	not this variant' \
	'pass	harness.mpc.g52.dump_layout	' \
	'skip	harness.mpc.t860.open_close	old harness' \
	'skip	whole_skip	needs the test-control window' \
	'pass	crash.first	' \
	'fail	crash	exit=139' \
	'pass	e2e.stat_runs	' \
	'skip	e2e.top	no tty' \
	'pass	failing.a	' \
	'fail	failing.b	expected 1, got 2' \
	'fail	hang	TIMEOUT 20 seconds')
ok "$([ "$(cat "$tmp/cases")" = "$want" ]; echo $?)" \
	"every case, and each program's skip, crash and timeout, as a case" \
	"$(diff <(echo "$want") "$tmp/cases"; sed 's/^/log: /' "$tmp/run.log")"

# The awks a board or a guest may have: the script is POSIX awk.
for a in mawk gawk "busybox awk"; do
	if ! command -v "${a%% *}" >/dev/null || ! $a 'BEGIN { exit 0 }' 2>/dev/null; then
		skip "ktap-cases.awk under $a" "$a is not installed"
		continue
	fi
	got=$($a -f "$awkf" "$tmp/run.log" 2>&1)
	ok "$([ "$got" = "$want" ]; echo $?)" "ktap-cases.awk under $a gives the same cases" \
		"$(diff <(echo "$want") <(echo "$got"))"
done

# A program the plan names but the log never reports (the guest died).
head -n "$(grep -n '^# selftests: c/d: e2e.sh' "$tmp/run.log" | cut -d: -f1)" "$tmp/run.log" \
	>"$tmp/cut.log"
awk -f "$awkf" "$tmp/cut.log" | tail -n 1 >"$tmp/cut.cases"
ok "$(grep -qx $'fail\tkselftest\t3 of 6 programs never reported' "$tmp/cut.cases"; echo $?)" \
	"a run cut short is a failing case" "$(cat "$tmp/cut.cases")"
awk -f "$awkf" /dev/null >"$tmp/none.cases"
ok "$(grep -q '^fail	kselftest	the run printed no plan' "$tmp/none.cases"; echo $?)" \
	"an empty log is a failing case" "$(cat "$tmp/none.cases")"

# mpc_ksft.sh with no module for this kernel: a skip saying what to do.
mkdir -p "$tmp/bin" "$tmp/m"
printf '#!/bin/sh\nexit 1\n' >"$tmp/bin/modinfo"
chmod +x "$tmp/bin/modinfo"
cp "$MPC_ROOT/scripts/kselftest/mpc_ksft.sh" "$tmp/m/"
if [ -e "/lib/modules/$(uname -r)/extra/mali_perfcnt.ko" ]; then
	skip "mpc_ksft.sh without a module" "this machine has mali_perfcnt.ko installed"
else
	out=$(env -u MPC_MODULE PATH="$tmp/bin:$PATH" sh "$tmp/m/mpc_ksft.sh" uapi_test 2>&1)
	rc=$?
	ok "$([ $rc = 4 ] && grep -q '^1\.\.0 # SKIP no mali_perfcnt.ko for kernel' <<<"$out"; echo $?)" \
		"mpc_ksft.sh without a module skips (exit 4) with what to do" "rc=$rc: $out"
fi
out=$(sh "$tmp/m/mpc_ksft.sh" 2>&1)
ok "$([ $? = 2 ] && grep -q usage <<<"$out"; echo $?)" "mpc_ksft.sh without a test name: usage" "$out"

tap_finish
