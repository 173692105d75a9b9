#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# /mpc/run of a qemu-gpu VM whose panfrost.ko is the one built from the
# panfrost series (scripts/panfrost-series.sh), in place of the kernel's
# own: loads it (no unstable_ioctls), then runs the series' kselftests as
# a kernel developer would (/mpc/pf-lib.sh, pf_kselftests: the tree's
# run_kselftest.sh -c drivers/gpu/panfrost) as the TAP section
# "panfrost-patched" (MPC_QEMU_CTL: the QEMU device's test-control window,
# the row's ctl=, default 0x090c8000), and with the tool (/mpc/user) the section
# "panfrost-patched-tool" (pf_tool): the tool reads the counters through
# the patched panfrost's sessions. The panfrost/* guests run the same two
# after their stock phase (guest-panfrost.sh). Exit status: 0 when every
# case passed.

# shellcheck source=guest-lib.sh
. /mpc/lib.sh
# shellcheck source=pf-lib.sh
. /mpc/pf-lib.sh
if ! modprobe panfrost; then
	echo "=== BEGIN panfrost_load"
	echo "1..1"
	echo "not ok 1 modprobe_panfrost # modprobe panfrost (the patched module) failed"
	echo "=== END panfrost_load rc=1"
	exit 1
fi
dmesg | grep -i -E 'panfrost|mali' | sed 's/^/# /'
sed 's/^/# target: /' /mpc/target

# The patched module is the first panfrost bound in this boot: no case of
# scripts/vm/pf-skips (a reference the stock module's unload left) applies
# shellcheck disable=SC2034 # read by pf_allowed
pf_no_skips=1
pf_kselftests panfrost-patched
pf_tool panfrost-patched-tool
exit $rc
