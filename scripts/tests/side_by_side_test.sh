#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Host tests of the comparison of user/tests/side-by-side.sh (--compare):
# two made-up CSVs of "mali-perfcnt stat --raw -e counters -A" that agree
# pass, one counter 2 % off or counting in one run only fails with a line
# naming it and both rates, and an interval's events counted in the next
# one (a late sample) still agree over the run. Prints TAP; run by make check.
set -uo pipefail
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/tap-lib.sh"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/mpc-sbs-test.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
sbs=$MPC_ROOT/user/tests/side-by-side.sh

# csv [awk -v options]: 10 intervals of about 400 ms of a G52's blocks
# (cores 0, 1, 3; 2 L2 slices), header words 0-3, counters 4-6 counting
# at 1e6 * index per second, 7 zero. want=KIND scale=F scales counter 5 of
# the blocks KIND; late=1 moves 5 ms of events of each interval into the next.
csv() {
	awk "$@" 'BEGIN {
		print "sample,time_s,interval_s,type,block,name,lgc_name,value,unit,status"
		split("jm tiler l2.0 l2.1 shader.0 shader.1 shader.3", b, " ")
		for (s = 0; s < 10; s++) {
			iv = 0.4 + (s % 3) * 0.001
			cnt = iv
			if (late != "")
				cnt = iv + (s < 9 ? 0.005 : 0) - (s > 0 ? 0.005 : 0)
			for (j = 1; j <= 7; j++) {
				k = b[j]; sub(/\..*/, "", k)
				for (i = 0; i < 8; i++) {
					v = i < 4 ? 777 * s * (late != "" ? 2 : 1) : (i == 7 ? 0 : int(1e6 * i * cnt))
					if (k == want && i == 5)
						v = int(v * scale)
					printf "%d,%.6f,%.9f,counter,%s,%s[%d],,%d,,ok\n",
						s, (s + 1) * iv, iv, b[j], k, i, v
				}
			}
		}
	}'
}

csv >"$tmp/a.csv"
csv -v late=1 >"$tmp/late.csv"
csv -v want=shader -v scale=1.02 >"$tmp/shader2.csv"
csv -v want=l2 -v scale=0.995 >"$tmp/l2half.csv"
csv -v want=tiler -v scale=0 >"$tmp/tiler0.csv"

out=$(sh "$sbs" --compare "$tmp/a.csv" "$tmp/a.csv")
rc=$?
[ "$rc" = 0 ] && [ "$(echo "$out" | grep -c '^ok .*driven counters')" = 4 ]
ok $? "the same rates: one passing line per block kind (jm, tiler, l2, shader)" "$out"

out=$(sh "$sbs" --compare "$tmp/a.csv" "$tmp/late.csv")
ok $? "a late sample's events counted in the next interval: the rates over the run agree" "$out"

out=$(sh "$sbs" --compare "$tmp/a.csv" "$tmp/l2half.csv")
ok $? "a counter 0.5 % off passes" "$out"

out=$(sh "$sbs" --compare "$tmp/a.csv" "$tmp/shader2.csv")
rc=$?
[ "$rc" = 1 ] && grep -q '^not ok 4 - shader' <<<"$out" &&
	grep -q '^# shader.0 shader\[5\]: panfrost 5000000.000/s, mali_perfcnt 5100000.000/s (+2.00 %)$' <<<"$out" &&
	[ "$(echo "$out" | grep -c '^ok ')" = 3 ]
ok $? "a shader counter 2 % off fails, naming the counter and both rates" "$out"

out=$(sh "$sbs" --compare "$tmp/tiler0.csv" "$tmp/a.csv")
rc=$?
[ "$rc" = 1 ] && grep -q '^# tiler tiler\[5\]: panfrost 0.000/s, mali_perfcnt 5000000.000/s' <<<"$out"
ok $? "a counter zero through panfrost only fails" "$out"

grep -v ',jm,' "$tmp/a.csv" >"$tmp/nojm.csv"
out=$(sh "$sbs" --compare "$tmp/a.csv" "$tmp/nojm.csv")
rc=$?
[ "$rc" = 1 ] && grep -q '^# jm jm\[4\]: only through panfrost' <<<"$out"
ok $? "a block missing from one run fails" "$out"

out=$(sh "$sbs" --compare "$tmp/nojm.csv" "$tmp/nojm.csv")
rc=$?
[ "$rc" = 1 ] && grep -q '^not ok 1 - jm' <<<"$out" &&
	grep -q 'no counter of this block counts in either run' <<<"$out"
ok $? "a block kind with no counting counter fails (nothing compared)" "$out"

tap_finish
