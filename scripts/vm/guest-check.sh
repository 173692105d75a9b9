#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# /mpc/run of the `make check` VM (busybox sh): runs every selftest binary
# and then the userspace end-to-end test, each as a TAP section between
# "=== BEGIN name" and "=== END name rc=N" lines that scripts/check.sh
# parses on the host. Exit status: 0 when every section exited 0.
#
# pgtables= in /mpc/target (optional) lists more translation table writers
# to run sim_test on: section "sim_test-pgtable=W" loads the module with
# pgtable=W (MPC_MODULE_PARAMS) on top of each variant's parameters.

# shellcheck source=guest-lib.sh
. /mpc/lib.sh

if [ -d /mpc/selftests ]; then
	# Tests time themselves out per test; this bounds a wedged binary.
	tmo=$(sed -n 's/^timeout=//p' /mpc/selftests/settings 2>/dev/null)
	for t in uapi_test sim_test stress_test stream_test; do
		[ -x "/mpc/selftests/$t" ] || continue
		# shellcheck disable=SC2046 # harness options, e.g. -v g52 -t name
		section "$t" timeout "${tmo:-600}" "/mpc/selftests/$t" \
			$(cat /mpc/selftest-args 2>/dev/null)
		[ "$t" = sim_test ] || continue
		for w in $(mpc_key pgtables | tr , ' '); do
			# shellcheck disable=SC2046 # as above
			section "$t-pgtable=$w" env MPC_MODULE_PARAMS="pgtable=$w" \
				timeout "${tmo:-600}" "/mpc/selftests/$t" \
				$(cat /mpc/selftest-args 2>/dev/null)
		done
	done
fi

if [ -f /mpc/user/tests/e2e.sh ]; then
	rmmod mali_perfcnt 2>/dev/null
	if modprobe mali_perfcnt sim=g52 sim_cores=0xb sim_l2=2; then
		shell='sh'
		[ -x /bin/bash ] && shell=/bin/bash
		section e2e env MPC_TOOL=/mpc/user/mali-perfcnt \
			MPC_DEBUGFS="$(mpc_debugfs)" \
			MPC_FMTCHECK=/mpc/user/mpc-fmtcheck \
			timeout 600 "$shell" /mpc/user/tests/e2e.sh
	else
		echo "=== BEGIN e2e"
		echo "1..1"
		echo "not ok 1 e2e_module_load # modprobe mali_perfcnt sim=g52 failed"
		echo "=== END e2e rc=1"
		rc=1
	fi
	rmmod mali_perfcnt 2>/dev/null
fi

exit $rc
