# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=sh
#
# Helpers for the scripts that run inside the test VM (busybox sh);
# installed as /mpc/lib.sh.

# The guest's exit status: 0 until a section fails.
# shellcheck disable=SC2034 # read by the script that sources this one
rc=0

# mpc_key KEY: the value of KEY in /mpc/target, the row of scripts/targets
# this guest runs (its keys, the device's options with - as _, the facts of
# its GPU), unquoted; empty when absent.
mpc_key() {
	sed -n "s/^$1=//p" /mpc/target 2>/dev/null | head -n 1 | sed "s/^'\(.*\)'\$/\1/"
}

# section NAME CMD...: CMD's output as the TAP section NAME between
# "=== BEGIN NAME" and "=== END NAME rc=N secs=S" (scripts/tap-parse.awk reads
# them on the host); a failing CMD sets rc=1, the guest's exit status.
section() {
	mpc_name=$1
	shift
	read -r mpc_t0 _ </proc/uptime
	echo "=== BEGIN $mpc_name"
	"$@"
	mpc_r=$?
	read -r mpc_t1 _ </proc/uptime
	echo "=== END $mpc_name rc=$mpc_r secs=$((${mpc_t1%.*} - ${mpc_t0%.*}))"
	[ "$mpc_r" -eq 0 ] || rc=1
	return "$mpc_r"
}

# The device's debugfs directory: dri/N on 6.1, dri/<device> on 6.12.
mpc_debugfs() {
	for d in /sys/kernel/debug/dri/*; do
		case "$(cat "$d/name" 2>/dev/null)" in
		mali_perfcnt*)
			[ -e "$d/gpu_info" ] && { echo "$d"; return 0; } ;;
		esac
	done
	return 1
}

# mpc_alive PID: PID runs (a zombie, not yet waited for, does not)
mpc_alive() {
	mpc_st=$(cut -d' ' -f3 "/proc/$1/stat" 2>/dev/null) &&
		[ -n "$mpc_st" ] && [ "$mpc_st" != Z ]
}

# mpc_bounded SECS CMD...: CMD's exit status if it finishes within SECS
# seconds; else 124, after the kernel stacks of every process that sleeps
# in the kernel (as "# " lines): the guest goes on instead of hanging until
# the VM's timeout (a task in D state outlives any kill).
mpc_bounded() {
	mpc_secs=$1
	shift
	"$@" &
	mpc_pid=$!
	mpc_w=0
	while mpc_alive "$mpc_pid" && [ "$mpc_w" -lt "$mpc_secs" ]; do
		sleep 1
		mpc_w=$((mpc_w + 1))
	done
	if ! mpc_alive "$mpc_pid"; then
		wait "$mpc_pid"
		return
	fi
	echo "# $* did not finish in $mpc_secs s; the processes sleeping in the kernel:"
	for mpc_st in /proc/[0-9]*/stat; do
		mpc_p=${mpc_st#/proc/}
		mpc_p=${mpc_p%/stat}
		case $(cut -d' ' -f3 "$mpc_st" 2>/dev/null) in
		D|S) ;;
		*) continue ;;
		esac
		mpc_wc=$(cat "/proc/$mpc_p/wchan" 2>/dev/null)
		case $mpc_wc in
		''|0|do_wait|do_select|do_sys_poll|ep_poll|__x64_sys_pause) continue ;;
		esac
		echo "# pid $mpc_p ($(cat "/proc/$mpc_p/comm" 2>/dev/null)) in $mpc_wc:"
		sed 's/^/#   /' "/proc/$mpc_p/stack" 2>/dev/null | head -n 16
	done
	return 124
}
