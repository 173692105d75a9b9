# SPDX-License-Identifier: MIT
# shellcheck shell=sh disable=SC2154 # $tool, $tmp, $dev, $backend: the script's
#
# TAP helpers of the tool's end-to-end scripts (e2e.sh, e2e-panfrost.sh,
# side-by-side.sh), sourced by them: POSIX sh, runs under busybox ash in the
# arm64 and x86_64 guests. The script sets $tool (the mali-perfcnt binary),
# $tmp (its scratch directory), $dev (empty or "--device PATH") and
# $backend (empty or "--backend NAME") before it calls run().
#
# Counts in $n (tests so far) and $fails (failed ones); the script ends
# with tap_done, which prints the plan and returns the exit status.

n=0
fails=0

ok() { n=$((n + 1)); echo "ok $n - $1"; }
skip() { n=$((n + 1)); echo "ok $n - $1 # SKIP $2"; }
# notok NAME [WHY]: a failed test; WHY and the start of the last command's
# stderr and stdout ($tmp/err, $tmp/out) as TAP comments
notok() {
	n=$((n + 1))
	fails=$((fails + 1))
	echo "not ok $n - $1"
	[ -n "${2:-}" ] && echo "# $2"
	for f in "$tmp/err" "$tmp/out"; do
		[ -s "$f" ] && sed -n '1,15s/^/#   /p' "$f"
	done
	return 0
}
# t NAME CMD...: a test that passes when CMD exits 0
t() {
	name=$1
	shift
	if "$@"; then ok "$name"; else notok "$name"; fi
}
# every value on stdin within [lo, hi], and exactly $3 of them (0: any count >= 1)
in_range() {
	awk -v lo="$1" -v hi="$2" -v want="$3" '
		{ c++; if ($1 == "" || $1 == "null" || $1 + 0 < lo || $1 + 0 > hi) bad++ }
		END { exit !(c >= 1 && (want == 0 || c == want) && !bad) }'
}
# median_in LO HI N: exactly N values on stdin, each > 0, their median
# within [lo, hi] (one late wakeup on a loaded TCG host lengthens one
# interval and shortens the next: the median stays, a wrong period moves it)
median_in() {
	awk -v lo="$1" -v hi="$2" -v want="$3" '
		{ v[c++] = $1 + 0; if ($1 + 0 <= 0) bad++ }
		END {
			for (i = 1; i < c; i++)
				for (j = i; j > 0 && v[j - 1] > v[j]; j--) {
					x = v[j]; v[j] = v[j - 1]; v[j - 1] = x
				}
			m = c % 2 ? v[(c - 1) / 2] : (v[c / 2 - 1] + v[c / 2]) / 2
			exit !(c == want && !bad && m >= lo && m <= hi)
		}'
}
# run ARGS...: the tool, stdout to $tmp/out, stderr to $tmp/err
# ($dev and $backend are empty or an option with its value: split on purpose)
# shellcheck disable=SC2086,SC2154
run() { "$tool" $dev $backend "$@" >"$tmp/out" 2>"$tmp/err"; }
# the last command failed with exactly one "mali-perfcnt: ..." line
one_line_error() { [ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -q "^mali-perfcnt: " "$tmp/err"; }
# print the plan; status 0 when no test failed
tap_done() {
	echo "1..$n"
	[ "$fails" -eq 0 ]
}
