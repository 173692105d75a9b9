#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# /mpc/run of a guest that runs the kselftest package (scripts/
# kselftest-package.sh) as a board would: /mpc/kselftest.tar.gz unpacked
# into /tmp/kselftest, then the kernel's runner on our collection,
# unchanged: ./run_kselftest.sh -c drivers/gpu/mali_perfcnt. Its KTAP log
# goes out as "# " lines, then every case (ktap-cases.awk, as LAVA gets
# them) as the TAP section "kselftest". With board=1 in /mpc/target, the
# same as on a real board instead, where there is no QEMU test window
# (MPC_QEMU_CTL empty), as the section "kselftest-board": what needs the
# window must skip there, and no case fail. One run a boot: soc_test's
# runtime-PM cases fail when soc_test runs a second time in one boot (after
# bind_test), whatever the window. Nothing of the package is told where it
# runs: it finds the GPU,
# the module and the QEMU device's window itself; only the module parameters of the target (module_params= of
# /mpc/target or /mpc/hw-gpu, e.g. pgtable=builtin) go in MPC_MODULE_PARAMS,
# as a lab would set them. Exit status: 0 when no case failed.

module_params='' board=0
# shellcheck disable=SC1091 # written by the harness
[ -f /mpc/target ] && . /mpc/target
# shellcheck disable=SC1091
[ -f /mpc/hw-gpu ] && . /mpc/hw-gpu
[ -n "$module_params" ] && export MPC_MODULE_PARAMS="$module_params"

# The runner appends its programs' output to /dev/stdout: the links udev
# makes on a board, which devtmpfs has not (else a plain file gets it).
for f in stdin:0 stdout:1 stderr:2; do
	[ -L "/dev/${f%:*}" ] || { rm -f "/dev/${f%:*}"; ln -s "/proc/self/fd/${f#*:}" "/dev/${f%:*}"; }
done

ks=/tmp/kselftest
mkdir -p "$ks"
if ! tar -xzf /mpc/kselftest.tar.gz -C "$ks"; then
	echo "=== BEGIN kselftest"
	echo "1..1"
	echo "not ok 1 kselftest_unpack # tar -xzf /mpc/kselftest.tar.gz failed"
	echo "=== END kselftest rc=1"
	exit 1
fi
echo "# $(cd "$ks" && ./run_kselftest.sh -l | wc -l) programs: $(cd "$ks" && ./run_kselftest.sh -l | tr '\n' ' ')"

# run SECTION: the collection under the kernel's runner, its log as "# "
# lines, then its cases as the TAP section SECTION
rc=0
run() {
	sec=$1
	echo "=== BEGIN $sec"
	# Through a pipe: the runner appends its programs' output to /dev/stdout.
	(cd "$ks" && ./run_kselftest.sh -c drivers/gpu/mali_perfcnt) 2>&1 | cat >"/tmp/$sec.log"
	sed 's/^/# /' "/tmp/$sec.log"
	awk -f "$ks/drivers/gpu/mali_perfcnt/ktap-cases.awk" "/tmp/$sec.log" >"/tmp/$sec.cases"
	r=0
	n=0
	while IFS='	' read -r st name why; do
		n=$((n + 1))
		case $st in
		pass)	echo "ok $n $name" ;;
		skip)	echo "ok $n $name # SKIP $why" ;;
		*)	echo "not ok $n $name${why:+ # $why}"; r=1 ;;
		esac
	done <"/tmp/$sec.cases"
	echo "1..$n"
	echo "=== END $sec rc=$r"
	[ "$r" = 0 ] || rc=1
}

if [ "${board:-0}" = 1 ]; then
	# As on a board: no test-control window (MPC_QEMU_CTL empty: the
	# programs do not look for one). What needs it must skip, nothing fail.
	export MPC_QEMU_CTL=''
	run kselftest-board
else
	run kselftest
fi
exit $rc
