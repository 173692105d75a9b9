# SPDX-License-Identifier: GPL-2.0-only
#
# The result lines of scripts/check.sh, from its lines.tsv (SCOPE <TAB> ROW
# <TAB> [LOG DIR] <TAB> [WHAT THE SECTION RUNS], one per row that counts in
# SCOPE's line) and results.tsv (SCOPE <TAB> pass|fail|skip <TAB> CASE
# <TAB> REASON): one line per scope in the order the rows named it,
#   SCOPE: N passed, N failed, N skipped (ROWS; VMs Ns, logs in DIR)
# with the seconds of the guests of its log directories (DIR/secs), then
# one per scope no row names (a build's cases): SCOPE: N passed, N failed
# (builds).
#
#   awk -F'\t' -v root=MPC_ROOT -f scripts/results.awk LINES.TSV RESULTS.TSV

FILENAME == ARGV[1] {
	if (!($1 in names)) { order[++n] = $1; names[$1] = "" }
	names[$1] = names[$1] " " $2
	if ($3 != "") dirs[$1] = dirs[$1] " " $3
	if ($4 != "") desc[$1] = $4 " "
	next
}
{
	if (!(($1, "seen") in c)) { c[$1, "seen"] = 1; scopes[++ns] = $1 }
	c[$1, $2]++
}
END {
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
