# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=bash
#
# TAP helpers of the host test scripts (scripts/tests/*_test.sh), sourced:
#   ok STATUS NAME [DIAG]  case NAME passes when STATUS is 0; else DIAG (at
#                          most 20 lines) follows as "# " comments
#   skip NAME WHY          a skipped case
#   tap_finish             "# N passed, N failed"; exit status 0 only if
#                          none failed
n=0
failed=0

ok() {
	n=$((n + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $n - $2"
	else
		echo "not ok $n - $2"
		[ -n "${3:-}" ] && printf '%s\n' "$3" | head -n 20 | sed 's/^/# /'
		failed=$((failed + 1))
	fi
}

skip() {
	n=$((n + 1))
	echo "ok $n - $1 # SKIP $2"
}

tap_finish() {
	echo "# $((n - failed)) passed, $failed failed"
	[ "$failed" -eq 0 ]
}
