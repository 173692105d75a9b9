# SPDX-License-Identifier: GPL-2.0-only
#
# Parse the TAP sections of a test log into one line per test case:
#   scope <TAB> pass|fail|skip <TAB> section/name <TAB> reason
# Sections are delimited by "=== BEGIN name" / "=== END name rc=N" (the VM
# runner); with -v section=NAME the whole input is one section. Only
# top-level result lines count. A section that planned more tests than it
# reported, or never ended, adds a failing case. The output of each failing
# test (the lines since the previous result) is appended to -v faillog=FILE.
# -v prefix=P puts P before every name (e.g. the target's "mpc/g52/").
# -v map="SEC=SCOPE2;..." counts the cases of section SEC as SCOPE2's (a
# result line of its own, e.g. a guest's e2e section).
#
#   awk -v scope=6.1.0-57-amd64 [-v section=NAME -v exit_rc=N -v prefix=P] \
#       [-v map=M] -v faillog=F -f tap-parse.awk LOG

function start(name) {
	sec = name; open_ = 1; planned = -1; seen = 0; nbuf = 0; failed = 0
}

function finish(how) {
	if (!open_)
		return
	if (how != "")
		emit("fail", sec "/" how, "")
	else if (planned >= 0 && seen < planned)
		emit("fail", sec "/incomplete",
		     (planned - seen) " of " planned " planned tests never reported")
	else if (rc != "" && rc != 0 && !failed)
		emit("fail", sec "/exit-status", "exited " rc " without a failing test")
	open_ = 0
}

function emit(status, name, reason,   i, sc) {
	name = prefix name
	sc = (sec in to) ? to[sec] : scope
	printf "%s\t%s\t%s\t%s\n", sc, status, name, reason
	if (status == "fail")
		failed++
	if (status == "fail" && faillog != "") {
		printf "---- %s: %s %s\n", sc, name, reason >> faillog
		for (i = 1; i <= nbuf; i++)
			print buf[i] >> faillog
	}
	nbuf = 0
}

BEGIN {
	open_ = 0
	n = split(map, kv, ";")
	for (i = 1; i <= n; i++)
		if ((e = index(kv[i], "=")) > 0)
			to[substr(kv[i], 1, e - 1)] = substr(kv[i], e + 1)
	if (section != "")
		start(section)
}

/^=== BEGIN / {
	finish("never ended (crashed or timed out)")
	start($3)
	rc = ""
	next
}
/^=== END / {
	if (open_ && $3 == sec) {
		rc = $4; sub(/^rc=/, "", rc)
		finish("")
	}
	next
}
!open_ { next }
/^1\.\.[0-9]+/ { planned = substr($1, 4) + 0; next }
/^(not )?ok [0-9]+/ {
	line = $0
	status = ($1 == "not") ? "fail" : "pass"
	name = line
	sub(/^(not )?ok [0-9]+ *-? */, "", name)
	reason = ""
	if (match(name, / *# */)) {
		directive = substr(name, RSTART + RLENGTH)
		name = substr(name, 1, RSTART - 1)
		if (toupper(substr(directive, 1, 4)) == "SKIP") {
			status = "skip"
			reason = substr(directive, 5)
			sub(/^ */, "", reason)
		} else if (toupper(substr(directive, 1, 4)) == "TODO") {
			status = "skip"
			reason = substr(directive, 5)
			sub(/^ */, "", reason)
			reason = "TODO " reason
		}
	}
	seen++
	buf[++nbuf] = line
	emit(status, sec "/" name, reason)
	next
}
{ buf[++nbuf] = $0; if (nbuf > 400) { for (i = 1; i < 400; i++) buf[i] = buf[i + 1]; nbuf = 399 } }
END {
	if (section != "")
		rc = exit_rc
	finish(section != "" ? "" : "never ended (crashed or timed out)")
}
