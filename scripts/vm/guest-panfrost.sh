#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# /mpc/run of a qemu-gpu panfrost VM (busybox sh): the kernel's own
# panfrost.ko on the emulated Mali GPU of -M virt,mali=PRODUCT. Loads it
# with unstable_ioctls=1 (the perfcnt ioctls), shows what it said, then
# runs /mpc/selftests/panfrost_test against /mpc/target (the row of
# scripts/targets: what the device was given) as the
# TAP section "panfrost_test", then, when the image has the tool,
# user/tests/e2e-panfrost.sh as "e2e-panfrost". Then, when the image has
# the panfrost series' module (the row's patched=yes: /mpc/pf-panfrost.ko,
# /mpc/pf-lib.sh), the stock module out and the patched one in, and what
# guest-panfrost-patched.sh runs on its own boot: the series' kselftests
# as "panfrost-patched" and the tool through the sessions as
# "panfrost-patched-tool" (pf-lib.sh). Exit status: 0 when every section
# passed.

# shellcheck source=guest-lib.sh
. /mpc/lib.sh
if ! modprobe panfrost unstable_ioctls=1; then
	echo "=== BEGIN panfrost_load"
	echo "1..1"
	echo "not ok 1 modprobe_panfrost # modprobe panfrost unstable_ioctls=1 failed"
	echo "=== END panfrost_load rc=1"
	exit 1
fi
# The probe ran inside modprobe (a platform device of the device tree).
dmesg | grep -i -E 'panfrost|mali' | sed 's/^/# /'
sed 's/^/# target: /' /mpc/target

tmo=$(sed -n 's/^timeout=//p' /mpc/selftests/settings 2>/dev/null)
# A device started with a fault armed (fault= in the target) runs only
# that fault's test, the others every test but the fault ones.
fault=$(mpc_key fault)
sel="-T fault_drop_irq"
[ -n "$fault" ] && sel="-t fault_$fault"
# shellcheck disable=SC2046,SC2086 # harness options, e.g. -t dump_layout
section panfrost_test timeout "${tmo:-600}" /mpc/selftests/panfrost_test $sel \
	$(cat /mpc/selftest-args 2>/dev/null)

# The tool against the same panfrost (user/tests/e2e-panfrost.sh), when
# the row asks (sect.e2e-panfrost: e2e_panfrost=1) and the image has it
# (mkinitramfs.sh --user-dir).
if [ -z "$fault" ] && [ "$(mpc_key e2e_panfrost)" = 1 ] &&
   [ -f /mpc/user/tests/e2e-panfrost.sh ] &&
   [ -x /mpc/user/mali-perfcnt ]; then
	section e2e-panfrost env MPC_TOOL=/mpc/user/mali-perfcnt \
		MPC_FMTCHECK=/mpc/user/mpc-fmtcheck MPC_PANFROST_EXPECT=/mpc/target \
		timeout 600 sh /mpc/user/tests/e2e-panfrost.sh
fi

# The patched panfrost on the same device (patched=yes; not with a fault armed)
if [ -z "$fault" ] && [ -f /mpc/pf-panfrost.ko ]; then
	# shellcheck source=pf-lib.sh
	. /mpc/pf-lib.sh
	if pf_swap; then
		dmesg | grep -i -E 'panfrost|mali' | tail -n 20 | sed 's/^/# patched: /'
		pf_kselftests panfrost-patched
		pf_tool panfrost-patched-tool
	fi
fi
exit $rc
