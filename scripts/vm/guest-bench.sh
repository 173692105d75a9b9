#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# /mpc/run of the `make bench` VM: mali_perfcnt on its simulated Mali-G52
# (cores 0xb, 2 L2 slices), then stream_bench: the sampling stream at 10 kHz
# and 1 kHz, and the cost of one sample three ways. Figures only.
# shellcheck source=guest-lib.sh
. /mpc/lib.sh
[ -f /mpc/bench-env ] && . /mpc/bench-env

modprobe mali_perfcnt sim=g52 sim_cores=0xb sim_l2=2 || exit 1
/mpc/selftests/stream_bench "${MPC_BENCH_SECONDS:-10}"
rc=$?
rmmod mali_perfcnt
exit $rc
