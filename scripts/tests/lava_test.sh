#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Host tests of the LAVA pieces that need no guest: every job of lava/jobs/
# renders and passes LAVA's own schema (lava_common, Debian's
# lava-dispatcher; skipped where it is not installed), a job the schema
# must refuse is refused, and scripts/lava-tap.py turns lava-run's log into
# TAP, failing what must fail. Prints TAP; run by make check.
set -uo pipefail
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/tap-lib.sh"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/mpc-lava-test.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
render=$MPC_ROOT/scripts/lava-render.py
tap=$MPC_ROOT/scripts/lava-tap.py

if ! /usr/bin/python3 -c 'import jinja2, yaml' 2>/dev/null; then
	skip lava "python3-jinja2 and python3-yaml are not installed"
	tap_finish
	exit
fi

# ---- the jobs and LAVA's schema ---------------------------------------------------
if /usr/bin/python3 -c 'import lava_common.schemas' 2>/dev/null; then
	for j in "$MPC_ROOT"/lava/jobs/*.yaml.jinja2; do
		b=$(basename "$j" .yaml.jinja2)
		defs=()
		[ "$b" = qemu-mali ] && defs=(-D kernel_url=file:///k -D ramdisk_url=file:///r
					     -D kselftest_url=file:///t)
		out=$(/usr/bin/python3 "$render" --job ${defs[@]+"${defs[@]}"} "jobs/$b.yaml.jinja2" \
			"$tmp/$b.yaml" 2>&1)
		ok $? "$b: renders, LAVA's schema takes it" "$out"
	done
	# Each case LAVA's test shell reports: one test definition, inline.
	ok "$(grep -c '^    - from: inline$' "$tmp/qemu-mali.yaml" | grep -qx 1; echo $?)" \
		"qemu-mali: one inline test definition" "$(cat "$tmp/qemu-mali.yaml")"
	# What the schema must refuse: a job without its visibility.
	mkdir -p "$tmp/lava/jobs"
	grep -v '^visibility:' "$MPC_ROOT/lava/jobs/rk3399-rock-pi-4b.yaml.jinja2" \
		>"$tmp/lava/jobs/bad.yaml.jinja2"
	cp "$MPC_ROOT"/lava/jobs/board-common.jinja2 "$MPC_ROOT"/lava/jobs/kselftest-test.jinja2 \
		"$tmp/lava/jobs/"
	sed -i '/^visibility:/d' "$tmp/lava/jobs/board-common.jinja2"
	out=$(/usr/bin/python3 "$render" --job --templates "$tmp/lava" jobs/bad.yaml.jinja2 \
		"$tmp/bad.yaml" 2>&1)
	rc=$?
	ok "$([ $rc != 0 ] && grep -q "schema refuses it.*visibility" <<<"$out"; echo $?)" \
		"a job without visibility: refused, saying why" "rc=$rc: $out"
	# A job whose variables are missing: refused by name, not rendered empty.
	out=$(/usr/bin/python3 "$render" --job jobs/qemu-mali.yaml.jinja2 "$tmp/x.yaml" 2>&1)
	rc=$?
	ok "$([ $rc != 0 ] && grep -q "kernel_url" <<<"$out"; echo $?)" \
		"qemu-mali without kernel_url: refused, naming it" "$out"
else
	skip "jobs and LAVA's schema" "lava-dispatcher is not installed (scripts/lava-check.sh installs it)"
fi

# ---- lava-run's log as TAP ------------------------------------------------------------
r() { printf '{"dt": "x", "lvl": "results", "msg": {"case": "%s", "definition": "%s", "result": "%s"}}\n' "$@"; }
{
	printf '{"dt": "x", "lvl": "info", "msg": "start: 0 validate"}\n'
	r validate lava pass
	r uapi_test.mpc.g52.open_close 1_mali-perfcnt-kselftest pass
	r uapi_test.mpc.t720.open_close 1_mali-perfcnt-kselftest skip
	r job lava pass
} >"$tmp/good.log"
out=$(/usr/bin/python3 "$tap" --prefix k/ --min-cases mali-perfcnt-kselftest=2 "$tmp/good.log")
rc=$?
want=$(printf '%s\n' 'ok 1 k/lava/validate' 'ok 2 k/1_mali-perfcnt-kselftest/uapi_test.mpc.g52.open_close' \
	'ok 3 k/1_mali-perfcnt-kselftest/uapi_test.mpc.t720.open_close # SKIP skipped in the guest (its reason is in the log)' \
	'ok 4 k/lava/job' 'ok 5 k/mali-perfcnt-kselftest/cases' '1..5')
ok "$([ $rc = 0 ] && [ "$out" = "$want" ]; echo $?)" "lava-tap.py: every case, in order" \
	"rc=$rc; $(diff <(echo "$want") <(echo "$out"))"

{ r validate lava pass; r x 1_mali-perfcnt-kselftest fail; r job lava pass; } >"$tmp/fail.log"
out=$(/usr/bin/python3 "$tap" "$tmp/fail.log")
ok "$([ $? = 1 ] && grep -qx 'not ok 2 1_mali-perfcnt-kselftest/x # result: fail' <<<"$out"; echo $?)" \
	"lava-tap.py: a failed case fails" "$out"
{ r validate lava pass; r x 1_mali-perfcnt-kselftest pass; } >"$tmp/died.log"
out=$(/usr/bin/python3 "$tap" "$tmp/died.log")
ok "$([ $? = 1 ] && grep -q '^not ok 3 lava/job # the log has no result of the job' <<<"$out"; echo $?)" \
	"lava-tap.py: a log without the job's result fails" "$out"
out=$(/usr/bin/python3 "$tap" --min-cases mali-perfcnt-kselftest=5 "$tmp/good.log")
ok "$([ $? = 1 ] && grep -q '^not ok 5 mali-perfcnt-kselftest/cases # 2 cases, at least 5 expected' <<<"$out"; echo $?)" \
	"lava-tap.py: too few cases fail" "$out"

tap_finish
