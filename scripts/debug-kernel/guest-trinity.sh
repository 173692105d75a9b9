#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# /mpc/debug/trinity.sh of the `make check-debug` VM: Debian's trinity
# syscall fuzzer against the mali_perfcnt render node and its debugfs
# files, for a bounded time, as TAP section "trinity". Run by
# guest-debug.sh with the module loaded (simulated GPU); the kernel log it
# leaves is scanned by guest-debug.sh's dmesg-debug section.
#
# trinity refuses root without --dangerous; it runs as root here so that it
# can open the debugfs files (root only), but only with the calls listed in
# /mpc/debug/trinity-calls and only on the debugfs directory (-V: trinity
# takes one victim path) plus the fd kinds left on: its drm provider opens
# the render node (no sockets, no perf, no ...). Only 64-bit calls (-a 64):
# the debug kernel has no IA32 emulation. /mpc/debug/trinity-args
# (optional, from MPC_TRINITY_ARGS on the host) replaces the defaults of
# -N (calls) and the time bound: "SECONDS CALLS" (default 70 s, of which
# trinity's warning countdown for root takes the first 10).

. /mpc/lib.sh
n=0
fail=0
# check X CONDITION...: one TAP result named $name (X is ignored)
check() {
	n=$((n + 1))
	shift
	if "$@"; then
		echo "ok $n $name"
	else
		echo "not ok $n $name"
		fail=1
	fi
}

echo "=== BEGIN trinity"
secs=70 calls=200000
# shellcheck disable=SC2046 # two words
[ -r /mpc/debug/trinity-args ] && set -- $(cat /mpc/debug/trinity-args) &&
	secs=${1:-$secs} calls=${2:-$calls}

node=''
for d in /sys/class/drm/renderD*; do
	[ "$(basename "$(readlink "$d/device/driver")")" = mali_perfcnt ] &&
		node=/dev/dri/$(basename "$d")
done
dbg=$(mpc_debugfs)
if [ -z "$node" ] || [ -z "$dbg" ]; then
	echo "1..1"
	echo "not ok 1 trinity_setup # no mali_perfcnt render node or debugfs directory"
	echo "=== END trinity rc=1"
	exit 1
fi

calls_opt=''
# shellcheck disable=SC2013 # one name per line, no spaces
for c in $(grep -v "^#" /mpc/debug/trinity-calls); do
	calls_opt="$calls_opt -c $c"
done
taint0=$(cat /proc/sys/kernel/tainted)
mkdir -p /tmp/trinity && cd /tmp/trinity || exit 1
t=$(date +%s)
# Just before the time is up: where trinity's processes are (a trinity that
# made no calls shows why here).
(
	sleep $((secs - 3))
	for p in $(pidof trinity); do
		echo "# trinity pid $p $(cat /proc/"$p"/stat 2>/dev/null | cut -d' ' -f3) in $(cat /proc/"$p"/wchan 2>/dev/null):"
		sed 's/^/#   /' /proc/"$p"/stack 2>/dev/null | head -n 12
	done
) &
watcher=$!
# shellcheck disable=SC2086 # one option a word
timeout -s KILL $((secs + 30)) timeout -s INT "$secs" \
	trinity --dangerous -l off --stats -a 64 -C 2 -N "$calls" $calls_opt \
	--disable-fds=sockets,pipes,perf,epoll,eventfd,pseudo,timerfd,testfile,memfd \
	-V "$dbg" >/tmp/trinity.out 2>&1
r=$?
t=$(($(date +%s) - t))
kill "$watcher" 2>/dev/null
wait "$watcher" 2>/dev/null
cd / || exit 1
# trinity's own lines, and its per-syscall errno table (--stats)
grep -v 'Continuing in' /tmp/trinity.out | sed 's/^/# /' | tail -n 60
ran=$(sed -n 's/.*Ran \([0-9]*\) syscalls.*/\1/p' /tmp/trinity.out | tail -n 1)
[ -n "$ran" ] || ran=$(grep -o '[0-9]* iterations' /tmp/trinity.out | tail -n 1 | cut -d' ' -f1)
echo "# trinity: exit status $r after ${t}s, ${ran:-?} syscalls (-N $calls, at most ${secs}s)" \
	"of $(grep -v '^#' /mpc/debug/trinity-calls | tr '\n' ' ')on $node and $dbg"
taint1=$(cat /proc/sys/kernel/tainted)
name="trinity_ran (${ran:-?} syscalls in ${t}s)"
check x [ "${ran:-0}" -gt 0 ]
name="trinity_kernel_not_tainted (tainted $taint0 before, $taint1 after)"
check x [ "$taint0" = "$taint1" ]
# Whatever trinity left open is gone with it: the module must unload and
# come back.
name="trinity_module_reloads"
# shellcheck disable=SC2317 # called through check
reload() {
	rmmod mali_perfcnt && modprobe mali_perfcnt sim=g52 sim_cores=0xb sim_l2=2
}
check x reload
echo "1..$n"
echo "=== END trinity rc=$fail"
exit $fail
