# SPDX-License-Identifier: MIT
#
# A --help page of mali-perfcnt (tool/help.c, printed by mpc-mangen) to a
# manual page. The pages follow one layout: SECTION lines at column 0, text
# indented by 4, option and command lists as "    TAG  description" with
# continuation lines indented further, examples and layouts indented by 6+;
# SYNOPSIS, OUTPUT and EXAMPLES are kept as they are laid out.
#   awk -v name=mali-perfcnt-info -v version=1.0 [-v date=...] [-v cmds="..."]
function esc(s) {
	gsub(/\\/, "\\\\e", s)
	gsub(/-/, "\\-", s)
	if (s ~ /^[.']/)
		s = "\\&" s
	return s
}
function fill() { if (nf) { print ".fi"; nf = 0 } }
function nofill() { if (!nf) { print ".nf"; nf = 1 } }
# an option list entry: the tag ends at the first double space, or at
# column 22 where the help pages align descriptions
function tp(line,	p, tag, desc) {
	line = substr(line, 5)
	p = index(line, "  ")
	if (p == 0 || p > 18) {
		if (substr(line, 18, 1) == " " && substr(line, 17, 1) != " ")
			p = 18
	}
	if (p == 0) {
		tag = line
		desc = ""
	} else {
		tag = substr(line, 1, p - 1)
		desc = substr(line, p)
		sub(/^ +/, "", desc)
	}
	print ".TP"
	print "\\fB" esc(tag) "\\fR"
	if (desc != "")
		print esc(desc)
}
BEGIN {
	up = toupper(name)
	printf ".TH %s %s \"%s\" \"mali-perfcnt %s\" \"mali-perfcnt manual\"\n", \
		up, "1", date, version
	print ".nh"
	print ".ad l"
}
/^[A-Z][A-Z ]*[A-Z]$/ {
	fill()
	sec = $0
	if (sec == "SEE ALSO")
		seen_see_also = 1
	printf ".SH \"%s\"\n", sec
	next
}
/^ *$/ {
	if (sec == "SYNOPSIS" || sec == "EXAMPLES")
		next
	if (sec == "OUTPUT") {
		print ".sp"
		next
	}
	fill()
	if (sec !~ /OPTIONS$/ && sec != "COMMANDS")
		print ".PP"
	next
}
sec == "NAME" {
	line = $0
	sub(/^ +/, "", line)
	p = index(line, " - ")
	print esc(name) " \\- " esc(p ? substr(line, p + 3) : line)
	next
}
sec == "SYNOPSIS" || sec == "EXAMPLES" || sec == "OUTPUT" {
	nofill()
	print esc(substr($0, 5))
	next
}
sec ~ /OPTIONS$/ || sec == "COMMANDS" {
	if ($0 ~ /^    [^ ]/)
		tp($0)
	else {
		line = $0
		sub(/^ +/, "", line)
		print esc(line)
	}
	next
}
/^    [^ ]/ {
	fill()
	print esc(substr($0, 5))
	next
}
{
	nofill()
	print esc(substr($0, 5))
}
END {
	fill()
	if (!seen_see_also)
		print ".SH \"SEE ALSO\""
	else
		print ".PP"
	if (cmds != "") {
		n = split(cmds, c, " ")
		for (i = 1; i <= n; i++)
			printf ".BR %s\\-%s (1),\n", esc("mali-perfcnt"), c[i]
		print ".BR libmaliperfcnt (3)"
	} else
		print ".BR mali\\-perfcnt (1)"
}
