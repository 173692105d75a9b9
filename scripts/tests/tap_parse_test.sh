#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Host test of scripts/tap-parse.awk, which every result of make check and
# make check-debug goes through: a guest log with each kind of section
# (data/tap-guest.log) and a plain TAP stream must give exactly these cases
# (scope, status, name, reason), the failure log the output of each failing
# case. Prints TAP.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/tap-lib.sh"
awkf=$here/../tap-parse.awk
tmp=$(mktemp -d "${TMPDIR:-/tmp}/mpc-tap-test.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

awk -v scope=K -v prefix=mpc/g52/ -v map="e2e=K e2e;" -v faillog="$tmp/fail.log" \
	-f "$awkf" "$here/data/tap-guest.log" >"$tmp/out.tsv"
rc=$?
ok $rc "tap-parse.awk runs on a guest log"

want=$(printf '%s\n' \
	'K|pass|mpc/g52/uapi_test/g52.open_close|' \
	'K|fail|mpc/g52/uapi_test/g52.dump_fresh|' \
	'K|skip|mpc/g52/uapi_test/g52.power|no power domains on this board' \
	'K|skip|mpc/g52/uapi_test/g52.later|TODO not written yet' \
	'K e2e|pass|mpc/g52/e2e/stat prints GPU_ACTIVE|' \
	'K e2e|pass|mpc/g52/e2e/decode of a dump|' \
	'K|pass|mpc/g52/short/only_one|' \
	'K|fail|mpc/g52/short/incomplete|2 of 3 planned tests never reported' \
	'K|pass|mpc/g52/quiet_fail/passes|' \
	'K|fail|mpc/g52/quiet_fail/exit-status|exited 2 without a failing test' \
	'K|pass|mpc/g52/crashed/before_the_crash|' \
	'K|fail|mpc/g52/crashed/never ended (crashed or timed out)|')
got=$(tr '\t' '|' <"$tmp/out.tsv")
[ "$got" = "$want" ]
ok $? "every case: status, section/name with the target's prefix, reason; e2e counted as its own line" \
	"$(diff <(echo "$want") <(echo "$got"))"

! grep -q nested "$tmp/out.tsv"
ok $? "nested (indented) TAP lines are not cases" "$(grep nested "$tmp/out.tsv")"

grep -q '^---- K: mpc/g52/uapi_test/g52.dump_fresh $' "$tmp/fail.log" &&
	grep -q 'Expected 0 (0) == ret (-22)' "$tmp/fail.log" &&
	! grep -q 'open_close' <(sed -n '/dump_fresh/,$p' "$tmp/fail.log" | sed 1d)
ok $? "the failure log has the failing case's own output, not the passing case before it" \
	"$(cat "$tmp/fail.log")"

grep -q '^---- K: mpc/g52/short/incomplete' "$tmp/fail.log" &&
	grep -q '^---- K: mpc/g52/crashed/never ended' "$tmp/fail.log"
ok $? "incomplete and crashed sections are in the failure log"

# A host test's plain TAP: one section named by -v section, its exit status.
printf 'ok 1 - a\nnot ok 2 - b\n1..2\n' |
	awk -v scope=host -v section=host/user -v exit_rc=1 -f "$awkf" >"$tmp/plain.tsv"
[ "$(cut -f2,3 "$tmp/plain.tsv" | tr '\t' '|' | paste -sd' ')" = "pass|host/user/a fail|host/user/b" ]
ok $? "a plain TAP stream is one section (-v section=)" "$(cat "$tmp/plain.tsv")"

printf 'ok 1 - a\n1..1\n' |
	awk -v scope=host -v section=host/model -v exit_rc=2 -f "$awkf" >"$tmp/rc.tsv"
grep -q 'fail	host/model/exit-status	exited 2 without a failing test' "$tmp/rc.tsv"
ok $? "a command that exits non-zero with no failing case fails" "$(cat "$tmp/rc.tsv")"

printf 'ok 1 - a\n1..3\n' |
	awk -v scope=host -v section=s -v exit_rc=0 -f "$awkf" >"$tmp/inc.tsv"
grep -q 'fail	s/incomplete	2 of 3 planned' "$tmp/inc.tsv"
ok $? "a plain stream that planned more than it reported fails" "$(cat "$tmp/inc.tsv")"
tap_finish
