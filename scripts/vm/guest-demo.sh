#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# /mpc/run of the `make demo` VM: the simulated Mali-G52 at 50% load,
# one second of counters from debugfs, then the userspace tool if built.
# shellcheck source=guest-lib.sh
. /mpc/lib.sh

run() {
	echo "\$ $*"
	sh -c "$*" || exit 1
}

run modprobe mali_perfcnt sim=g52
d=$(mpc_debugfs) || exit 1
cd "$d" || exit 1
echo "\$ cd $d"
run cat gpu_info
run "echo busy=50 > sim_workload"
run "echo 1 > perfcnt_enable"
run sleep 1
run cat perfcnt_counters
if [ -x /mpc/user/mali-perfcnt ]; then
	run "echo 0 > perfcnt_enable"
	run /mpc/user/mali-perfcnt stat -I 200 -n 3
fi
cd /
rmmod mali_perfcnt
