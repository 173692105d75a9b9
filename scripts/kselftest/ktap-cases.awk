# SPDX-License-Identifier: GPL-2.0-only
#
# The cases of a run_kselftest.sh log (KTAP: the runner's own results at
# the top level, each test program's TAP nested under "# "), one a line:
#
#   pass|fail|skip <TAB> NAME <TAB> reason
#
# NAME is PROGRAM.CASE (PROGRAM without .sh, CASE the nested result's name,
# e.g. uapi_test.mpc.g52.open_close; the e2e scripts' "- " left out), every
# character but letters, digits, '.', '_' and '-' as '_': what LAVA takes as a
# test case name. A program that skipped as a whole, or failed (an exit
# status, a timeout, a crash) with no failing case of its own, is one more
# case named PROGRAM, so that no failure is lost; one that passed adds
# none (its cases are the count). A program planned in the top-level plan
# but never reported is a failing case PROGRAM too.
#
#   awk -f ktap-cases.awk LOG

function clean(s) {
	gsub(/[^A-Za-z0-9._-]/, "_", s)
	return s
}

# result LINE (without its prefix): sets r_status, r_name, r_reason
function result(line,   m, dir) {
	r_status = (line ~ /^not ok/) ? "fail" : "pass"
	sub(/^(not )?ok [0-9]+ */, "", line)
	r_reason = ""
	if (match(line, / *# */)) {
		dir = substr(line, RSTART + RLENGTH)
		r_reason = dir
		line = substr(line, 1, RSTART - 1)
		if (toupper(dir) ~ /^SKIP/) {
			r_status = "skip"
			sub(/^[Ss][Kk][Ii][Pp] */, "", r_reason)
		} else if (toupper(dir) ~ /^TODO/ && r_status == "fail") {
			r_status = "skip"
		}
	}
	sub(/^- */, "", line)
	r_name = line
}

BEGIN { prog = ""; planned = -1; reported = 0; run_name = "" }

# The runner's header of a program: "# selftests: DIR: PROGRAM"
/^# selftests: [^:]*: / {
	prog = $0
	sub(/^# selftests: [^:]*: */, "", prog)
	sub(/\.sh$/, "", prog)
	nfail = 0
	why = ""
	next
}

# A program's own plan of nothing: "# 1..0 # SKIP why"
/^# 1\.\.0/ {
	why = $0
	sub(/^# 1\.\.0 *#? *([Ss][Kk][Ii][Pp])? */, "", why)
	next
}

# The harness's line before a case: "# #  RUN           name ..." (the
# kselftest harness of Linux 6.1 names no skipped case in its result line,
# "ok N # SKIP why": the name is this one's)
/^# #  RUN  / {
	run_name = $4
	next
}

# A nested result (one level deep only: "# ok N name")
/^# (not )?ok [0-9]+/ {
	if (prog == "")
		next
	line = $0
	sub(/^# /, "", line)
	result(line)
	if (r_name == "")
		r_name = run_name
	run_name = ""
	printf "%s\t%s\t%s\n", r_status, clean(prog "." r_name), r_reason
	if (r_status == "fail")
		nfail++
	next
}

/^1\.\.[0-9]+/ {
	if (planned < 0)
		planned = substr($1, 4) + 0
	next
}

# The runner's result of a program: "ok N selftests: DIR: PROGRAM[ # ...]"
/^(not )?ok [0-9]+ selftests: / {
	reported++
	result($0)
	name = r_name
	sub(/^selftests: [^:]*: */, "", name)
	sub(/\.sh$/, "", name)
	if (r_status == "skip" || (r_status == "fail" && nfail == 0)) {
		# POSIX awk (mawk, busybox) takes no newline inside ?:
		if (why != "")
			reason = why
		else if (r_reason != "")
			reason = r_reason
		else if (r_status == "skip")
			reason = "the program skipped, giving no reason"
		else
			reason = "the program failed with no failing case"
		printf "%s\t%s\t%s\n", r_status, clean(name), reason
	}
	prog = ""
	nfail = 0
	why = ""
	next
}

END {
	if (planned < 0)
		printf "fail\tkselftest\tthe run printed no plan (did run_kselftest.sh run?)\n"
	else if (reported < planned)
		printf "fail\tkselftest\t%d of %d programs never reported\n",
			planned - reported, planned
}
