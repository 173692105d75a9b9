# SPDX-License-Identifier: GPL-2.0-only
#
# The report of a scripts/check.sh run, from the run's files:
#   lines.tsv    SCOPE <TAB> ROW <TAB> [LOG DIR] <TAB> [WHAT THE SECTION RUNS],
#                one per row that counts in SCOPE's result line
#   results.tsv  SCOPE <TAB> pass|fail|skip <TAB> CASE <TAB> REASON
#   jobs.tsv     ARCH <TAB> SECONDS of each guest's job
# part=lines: one line per scope in the order the rows named it,
#   SCOPE: N passed, N failed, N skipped (ROWS; VMs Ns, logs in DIR)
# with the seconds of the guests of its log directories (DIR/secs), then
# one per scope no row names (a build's cases): SCOPE: N passed, N failed
# (builds). part=summary: the failure log (faillog=), the skipped cases
# with their reasons, the time line (secs= of the run, vm_jobs= at a time,
# logs in out=) and the last line, "N passed, N failed"; status 1 when a
# case failed.
#
#   awk -F'\t' -v part=lines -v root=MPC_ROOT -f scripts/results.awk lines.tsv results.tsv
#   awk -F'\t' -v part=summary -v faillog=F -v secs=N -v vm_jobs=N -v out=DIR \
#       -f scripts/results.awk results.tsv jobs.tsv

FILENAME ~ /lines\.tsv$/ {
	if (!($1 in names)) { order[++n] = $1; names[$1] = "" }
	names[$1] = names[$1] " " $2
	if ($3 != "") dirs[$1] = dirs[$1] " " $3
	if ($4 != "") desc[$1] = $4 " "
	next
}
FILENAME ~ /jobs\.tsv$/ {
	guest[$1] += $2
	next
}
{
	if ($2 == "skip") skipped[++nskip] = $1 ": " $3 ": " $4
	total[$2]++
	if (!(($1, "seen") in c)) { c[$1, "seen"] = 1; scopes[++ns] = $1 }
	c[$1, $2]++
}
END {
	if (part == "summary") {
		summary()
		exit total["fail"] ? 1 : 0
	}
	for (i = 1; i <= n; i++) {
		s = order[i]
		text = desc[s] substr(names[s], 2)
		nd = split(dirs[s], d, " ")
		secs = 0
		for (j = 1; j <= nd; j++) {
			if ((getline x < (d[j] "/secs")) > 0) secs += x
			close(d[j] "/secs")
		}
		if (nd) {
			dir = d[1]
			sub(/\/vm$/, "", dir)
			sub(/\/[^\/]*$/, "", dir)
			if (index(dir, root "/") == 1) dir = substr(dir, length(root) + 2)
			text = text "; VMs " secs "s, logs in " dir
		}
		printf "%s: %d passed, %d failed, %d skipped (%s)\n", s, c[s, "pass"], c[s, "fail"],
			c[s, "skip"], text
	}
	for (i = 1; i <= ns; i++)
		if (!(scopes[i] in names))
			printf "%s: %d passed, %d failed (builds)\n", scopes[i], c[scopes[i], "pass"],
				c[scopes[i], "fail"]
}

function summary(    l, nl, i, times, arch) {
	while ((getline l < faillog) > 0) {
		if (!nl++) printf "\n==== failures\n"
		print l
	}
	if (nskip) printf "\n==== skipped\n"
	for (i = 1; i <= nskip; i++) print skipped[i]
	print ""
	split("x86_64 arm64", arch, " ")
	for (i = 1; i <= 2; i++)
		if (guest[arch[i]]) times = times ", " arch[i] " " guest[arch[i]] "s"
	printf "time: %ds in all; guests (%d at a time)%s; logs in %s\n", secs, vm_jobs,
		substr(times, 2), out
	printf "%d passed, %d failed\n", total["pass"], total["fail"]
}
