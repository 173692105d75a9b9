#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# /mpc/run of the `make check` VM (busybox sh): runs every selftest binary
# and then the userspace end-to-end test, each as a TAP section between
# "=== BEGIN name" and "=== END name rc=N" lines that scripts/check.sh
# parses on the host. Exit status: 0 when every section exited 0.
#
# Keys of /mpc/target (the row): sections= the parts to run, of selftests,
# e2e (user/tests/e2e.sh on sim=g52) and e2e-kbase (user/tests/e2e-kbase.sh:
# the kbase backend against mpc_kbase_double.ko); default "selftests,e2e".
# pgtables= (optional) lists more translation table writers to run sim_test
# on: section "sim_test-pgtable=W" loads the module with pgtable=W
# (MPC_MODULE_PARAMS) on top of each variant's parameters.

# shellcheck source=guest-lib.sh
. /mpc/lib.sh
parts=$(mpc_key sections)
want() {
	case ",${parts:-selftests,e2e}," in
	*",$1,"*) return 0 ;;
	esac
	return 1
}

if want selftests && [ -d /mpc/selftests ]; then
	# Tests time themselves out per test; this bounds a wedged binary.
	tmo=$(sed -n 's/^timeout=//p' /mpc/selftests/settings 2>/dev/null)
	for t in uapi_test sim_test stress_test stream_test session_test; do
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

if want e2e && [ -f /mpc/user/tests/e2e.sh ]; then
	rmmod mali_perfcnt 2>/dev/null
	if modprobe mali_perfcnt sim=g52 sim_cores=0xb sim_l2=2; then
		shell='sh'
		[ -x /bin/bash ] && shell=/bin/bash
		section e2e env MPC_TOOL=/mpc/user/mali-perfcnt \
			MPC_DEBUGFS="$(mpc_debugfs)" \
			MPC_SIM_PARAMS="sim=g52 sim_cores=0xb sim_l2=2" \
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

# The kbase backend against the kbase uAPI double, and side by side with
# mali_perfcnt's simulator (the same model and load).
if want e2e-kbase; then
	section e2e-kbase env MPC_TOOL=/mpc/user/mali-perfcnt \
		MPC_FMTCHECK=/mpc/user/mpc-fmtcheck MPC_KBPROBE=/mpc/user/mpc-kbprobe \
		MPC_KBD_MODULE=/mpc/mpc_kbase_double.ko MPC_MP_MODULE=mali_perfcnt \
		timeout 900 sh /mpc/user/tests/e2e-kbase.sh
fi

exit "$rc"
