#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Host test: every shell script of the tree (the host's bash scripts, the
# guests' busybox sh scripts, .ci/run) is clean under shellcheck at
# severity warning, one case per file (.shellcheckrc: sourced files are
# followed from the script's own directory). Skipped without shellcheck
# (scripts/deps.sh installs it). Prints TAP.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/tap-lib.sh"
cd "$here/../.." || exit 1

if ! command -v shellcheck >/dev/null; then
	skip shellcheck "shellcheck missing (scripts/deps.sh installs it)"
	tap_finish
	exit
fi
files=$( { git ls-files '*.sh' 2>/dev/null || find . -name '*.sh' -printf '%P\n'; } |
	grep -v '^debian/' ; echo scripts/vm/init; echo .ci/run)
while read -r f; do
	[ -f "$f" ] || continue
	o=$(shellcheck -S warning "$f" 2>&1)
	ok $? "shellcheck -S warning $f" "$o"
done < <(sort -u <<<"$files")
tap_finish
