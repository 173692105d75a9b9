# SPDX-License-Identifier: GPL-2.0-only
#
# The instruments' figures of `make check-debug`, printed by scripts/check.sh
# after the result lines: KUnit per suite (from the run's results.tsv), then
# per debug guest (its vm/output.log, guest-debug.sh's "# ..." summaries):
# fail-nth per operation, its kmemleak scans, the fuzzers' and trinity's
# lines.
#
#   awk -f scripts/debug-kernel/report.awk RESULTS.TSV [OUT/KREL/ROW/vm/output.log...]

function flush(    i) {
	for (i = 1; i <= nf; i++) print fn[i]
	for (i = 1; i <= nk; i++) print km[i]
	for (i = 1; i <= nz; i++) print fz[i]
	nf = nk = nz = 0
}

FNR == 1 && FILENAME != ARGV[1] {
	if (!kunit_done) {
		for (s in n)
			printf "KUnit %s: %d/%d cases passed\n", substr(s, 7), p[s], n[s] | "sort"
		close("sort")
		kunit_done = 1
	}
	flush()
	# the guest's row, as its log directory is named (debug-suite)
	guest = FILENAME
	sub(/\/vm\/output\.log$/, "", guest)
	sub(/.*\//, "", guest)
}
FILENAME == ARGV[1] {
	split($0, f, "\t")
	t = f[3]
	sub(/^debug\/[^\/]*\//, "", t)
	if (t ~ /^kunit-/) {
		split(t, a, "/")
		n[a[1]]++
		if (f[2] == "pass") p[a[1]]++
	}
	next
}
/^# fail-nth summary: [^ ]* [0-9]* points [0-9]* driver-sites/ {
	split($0, w, " ")
	rest = $0
	sub(/^# fail-nth summary: [^ ]* [0-9]* points [0-9]* driver-sites/, "", rest)
	fn[++nf] = "fail-nth " w[4] ": " w[5] " allocations failed one at a time, " w[7] \
		" distinct call sites in mali_perfcnt" rest
}
{
	s = $0
	while (match(s, /kmemleak_empty \([0-9]* unreferenced objects\)/)) {
		km[++nk] = guest ": " substr(s, RSTART, RLENGTH)
		s = substr(s, RSTART + RLENGTH)
	}
}
/^# (fuzz|fuzz-race|trinity): / { fz[++nz] = substr($0, 3) }
END {
	if (!kunit_done)
		for (s in n)
			printf "KUnit %s: %d/%d cases passed\n", substr(s, 7), p[s], n[s] | "sort"
	close("sort")
	flush()
}
