# SPDX-License-Identifier: GPL-2.0-only
#
# Reads the test matrix, scripts/targets (its header says the format), for
# scripts/check.sh: each row with the words of its "defaults GLOB" rows
# applied, as "ROW <TAB> KEY <TAB> VALUE" lines, a key once (the last value
# given wins, in the place it was first given), then "ROW <TAB> keys <TAB>
# KEY..." ending the row. With -v list=1 the table instead, as
# `make check T=list` prints it; with -v target=ROW -v qgt=FILE the
# guest's /mpc/target of ROW (target_file()). Words are split as xargs splits them, but
# without backslash escapes: "..." and '...' quote. A word that is not
# KEY=VALUE is an error (status 1).
#
#   awk [-v list=1 | -v target=ROW -v qgt=FILE] -f scripts/targets.awk scripts/targets

function words(s, w,    n, i, c, q, cur, in_w) {
	n = 0; q = ""; cur = ""; in_w = 0
	for (i = 1; i <= length(s); i++) {
		c = substr(s, i, 1)
		if (q != "") {
			if (c == q) q = ""; else cur = cur c
		} else if (c == "\"" || c == "'") {
			q = c; in_w = 1
		} else if (c ~ /[ \t]/) {
			if (in_w) { w[++n] = cur; cur = ""; in_w = 0 }
		} else {
			cur = cur c; in_w = 1
		}
	}
	if (in_w) w[++n] = cur
	return n
}

# a glob of the shell as an anchored regular expression
function glob_re(g,    i, c, re) {
	re = "^"
	for (i = 1; i <= length(g); i++) {
		c = substr(g, i, 1)
		if (c == "*") re = re ".*"
		else if (c == "?") re = re "."
		else if (c == "[" && substr(g, i + 1, 1) == "!") { re = re "[^"; i++ }
		else if (index(".+^$(){}|\\/", c)) re = re "\\" c
		else re = re c
	}
	return re "$"
}

function row(s,    w, n, dw, dn, i, d, name, k, keys, val, all, an) {
	n = words(s, w)
	if (w[1] == "defaults") {
		ndef++
		def_re[ndef] = glob_re(w[2])
		def_words[ndef] = s
		return
	}
	name = w[1]
	an = 0
	for (d = 1; d <= ndef; d++) {
		if (name !~ def_re[d]) continue
		dn = words(def_words[d], dw)
		for (i = 3; i <= dn; i++) all[++an] = dw[i]
	}
	for (i = 2; i <= n; i++) all[++an] = w[i]
	keys = ""
	for (i = 1; i <= an; i++) {
		if (all[i] !~ /=/) {
			printf "error: scripts/targets: %s: '%s' is not KEY=VALUE\n", name, all[i] > "/dev/stderr"
			bad = 1
			exit 1
		}
		k = substr(all[i], 1, index(all[i], "=") - 1)
		if (!((k) in val)) keys = keys " " k
		val[k] = substr(all[i], index(all[i], "=") + 1)
	}
	if (list) {
		list_row(name, val)
		return
	}
	if (target != "") {
		if (name == target) target_file(val, keys)
		return
	}
	n = split(keys, w, " ")
	for (i = 1; i <= n; i++) printf "%s\t%s\t%s\n", name, w[i], val[w[i]]
	printf "%s\tkeys\t%s\n", name, keys
}

function kv(v, k, d) { return (k in v) && v[k] != "" ? v[k] : d }

# a value as the shell and panfrost_test read it: quoted only if need be
function shq(s) { return s ~ /[^A-Za-z0-9_.,:\/+=-]/ ? "'" s "'" : s }

# The guest's /mpc/target of a row: its keys (but sect.*, dev and files) as
# shell assignments, the device's options one by one (- as _), and on the
# QEMU GPU the facts of its board (the file qgt=).
function target_file(v, keys,    n, w, i, k, l) {
	n = split(keys, w, " ")
	for (i = 1; i <= n; i++)
		if (w[i] !~ /^sect\./ && w[i] != "dev" && w[i] != "files") print w[i] "=" shq(v[w[i]])
	n = split(kv(v, "dev", ""), w, " ")
	for (i = 1; i <= n; i++) {
		k = substr(w[i], 1, index(w[i], "=") - 1)
		gsub(/-/, "_", k)
		print k "=" shq(substr(w[i], index(w[i], "=") + 1))
	}
	if (kv(v, "gpu", "sim") == "sim") return
	print "product=" v["gpu"] "\nvariant=" v["gpu"]
	while ((getline l < qgt) > 0)
		if (l !~ /^#/ && l != "") print l
	print "module_params=" shq(kv(v, "params", "")) "\ne2e=" (kv(v, "sect.e2e", "") != "") \
		"\ne2e_panfrost=" (kv(v, "sect.e2e-panfrost", "") != "")
}

function list_row(name, v,    l, view) {
	l = kv(v, "line", "")
	if (kv(v, "kind", "boot") != "host") l = "<release>" (l != "" ? " " l : "")
	view = kv(v, "view", "")
	if (kv(v, "default", "yes") != "yes") view = "(" view ")"
	printf "%-22s %-6s %-7s %-7s %-16s %s\n", name, view, kv(v, "kind", "boot"),
		kv(v, "kernels", "-"), kv(v, "driver", "-"), l
}

BEGIN {
	if (list) printf "%-22s %-6s %-7s %-7s %-16s %s\n", "ROW", "VIEW", "KIND", "KERNELS", "DRIVER", "RESULT LINE"
}
/^#/ || /^$/ { next }
/^[ \t]/ { cur = cur " " $0; next }
{
	if (cur != "") row(cur)
	cur = $0
}
END {
	if (bad) exit 1
	if (cur != "") row(cur)
	if (list) print "(VIEW): only when T= names the row"
}
