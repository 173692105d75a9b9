#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# lava-cases.sh CASES: each line of ktap-cases.awk's output ("pass|fail|skip
# TAB name TAB reason") as a LAVA test case (lava-test-case NAME --result
# RESULT), the reason printed first; run by the test definition
# lava/testdefs/mali-perfcnt-kselftest.yaml inside a LAVA test shell.
# Exit status 1 when there is no case at all.

[ -r "${1:-}" ] || { echo "usage: lava-cases.sh CASES (ktap-cases.awk's output)" >&2; exit 2; }
command -v lava-test-case >/dev/null ||
	{ echo "lava-cases.sh: no lava-test-case: run it in a LAVA test shell" >&2; exit 2; }
tab=$(printf '\t')
n=0
while IFS=$tab read -r st name why; do
	n=$((n + 1))
	[ -z "$why" ] || echo "$name: $st: $why"
	lava-test-case "$name" --result "$st"
done <"$1"
echo "lava-cases.sh: $n cases"
[ "$n" -gt 0 ]
