#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# /mpc/debug/trinity.sh of the `make check-debug` VM: Debian's trinity
# syscall fuzzer against the mali_perfcnt DRM nodes and its debugfs files,
# for a bounded time, as TAP section "trinity". Run by guest-debug.sh with
# the module loaded (simulated GPU); the kernel log it leaves is scanned
# here and again by guest-debug.sh's dmesg-debug section.
#
# Two trinity runs at the same time, one child each (the two vCPUs), both
# on the device: "dev" on the device's render and primary nodes, "debugfs"
# on its debugfs files. trinity 2023.01 takes one victim path (-V) and
# walks it without leaving its file system, and Debian builds it without
# its DRM descriptor provider, so the nodes are fuzzed as victim files of
# their own: character devices made with mknod in a directory of the
# guest's /tmp. Those files are trinity's victim files (its "pseudo"
# descriptor provider) and also its four test files: trinity 2023.01's
# ioctl set-up walks the lists of its "testfile" and "sockets" providers
# whether they are on or not (the btrfs and socket ioctl groups' fd_test),
# and a list that is off was never made, so with only "pseudo" every child
# died of SIGSEGV at its first ioctl (seen: 3 calls by 150 children in 25
# s, whatever the seed). So both are on: the test files
# (trinity-testfile1..4 in the run's directory, which trinity unlinks and
# opens with O_TRUNC) are bind mounts of the run's own files, which it can
# neither unlink nor truncate nor map, and the socket provider is on for
# its list alone: the debug kernel has no networking, so it makes no
# socket (-P UNIX keeps it to one cheap domain on a kernel that has). Each run
# makes the calls of
# /mpc/debug/trinity-calls marked for it. Only 64-bit calls (-a 64): the
# debug kernel has no IA32 emulation. trinity runs as root (--dangerous):
# the debugfs files are root only, and the driver's privileged paths are
# reached only then.
#
# /mpc/debug/trinity-args (optional, from MPC_TRINITY_ARGS on the host)
# replaces the time bound and the most calls of each run: "SECONDS CALLS"
# (default "70 200000"; trinity's countdown after its warning about root
# takes the first 10 s of the 70).
#
# Reported: per run, the calls made (from trinity's -v log of every call;
# its own count too), how many of them on each of our files (a test file
# counts as the file it is a bind mount of), trinity's exit status, and its
# per-call errno table (--stats). Debian's trinity has no DRM ioctl group:
# its random commands rarely carry the DRM type ('d'), which drm_ioctl()
# rejects with -ENOTTY before the driver sees them; the DRM core's own
# count of what it dispatched is reported from drm.debug.

# shellcheck source=../vm/guest-lib.sh
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

# The device's DRM nodes, made again in a directory of their own: several
# names for each (trinity opens as many files as it finds, picking each
# at random, the directory itself among them): six of the render node, two
# of the primary node.
vdev=/tmp/trinity-dev
rm -rf $vdev
mkdir -p $vdev
nodes='' render='' card=''
for d in /sys/class/drm/card* /sys/class/drm/renderD*; do
	[ "$(basename "$(readlink "$d/device/driver")")" = mali_perfcnt ] || continue
	b=$(basename "$d")
	mm=$(cat "$d/dev")
	case $b in
	render*) copies="1 2 3 4 5 6" render=$vdev/$b.1 ;;
	*) copies="1 2" card=$vdev/$b.1 ;;
	esac
	for i in $copies; do
		mknod "$vdev/$b.$i" c "${mm%:*}" "${mm#*:}" || continue
	done
	nodes="$nodes $b"
done
dbg=$(mpc_debugfs)
if [ -z "$nodes" ] || [ -z "$dbg" ]; then
	echo "1..1"
	echo "not ok 1 trinity_setup # no mali_perfcnt DRM node or debugfs directory"
	echo "=== END trinity rc=1"
	exit 1
fi

# calls RUN: trinity's -c options for RUN
calls() {
	grep -v '^#' /mpc/debug/trinity-calls |
		awk -v run="$1" '{ for (i = 2; i <= NF; i++) if ($i == run) printf " -c %s", $1 }'
}
bad=$(grep -v -e '^# ' -e '^#$' -e '^$' /mpc/debug/bad-patterns | paste -s -d '|')
taint0=$(cat /proc/sys/kernel/tainted)

# logged_calls FILE: the calls in a trinity -v log ("] [K] CALL(")
logged_calls() { grep -c -E '\] \[[0-9]+\] [a-z0-9_]+\(' "$1"; }
# logged_children FILE: the child processes in it
logged_children() { grep -o -E '^\[child[0-9]+:[0-9]+\]' "$1" | sort -u | wc -l; }

# testfiles RUN FILE1 FILE2 FILE3 FILE4: trinity's four test files in the
# run's directory, bind mounts of FILE1..4
testfiles() {
	r=$1
	shift
	for i in 1 2 3 4; do
		: >"/tmp/trinity-$r.d/trinity-testfile$i"
		mount --bind "$1" "/tmp/trinity-$r.d/trinity-testfile$i" || return 1
		echo "trinity-testfile$i=$1" >>"/tmp/trinity-$r.testfiles"
		shift
	done
}

# start RUN VICTIM FILE1..4: trinity in the background for $secs seconds
# (its test files: FILE1..4); its output in /tmp/trinity-RUN.out, its exit
# status in /tmp/trinity-RUN.rc.
# Should its children still die at once (as all did before the test files
# and sockets above; once a child sat in mprotect for the whole run), an
# attempt with under 50 calls 25 s in (10 s of countdown, 15 of calls) is
# stopped and trinity starts again with a new seed for the time left:
# RUN.out is the last
# attempt's log after one "[mpc] attempt K stopped: C calls by N child
# processes" line for each attempt stopped, and the report adds them up.
start() {
	rm -rf "/tmp/trinity-$1.d" "/tmp/trinity-$1.rc" "/tmp/trinity-$1.out" \
		"/tmp/trinity-$1.testfiles"
	mkdir -p "/tmp/trinity-$1.d"
	run=$1 victim=$2
	shift 2
	if ! testfiles "$run" "$@"; then
		echo "[mpc] cannot bind-mount the test files of $run" >"/tmp/trinity-$run.out"
		echo 1 >"/tmp/trinity-$run.rc"
		return
	fi
	set -- "$run" "$victim"
	(
		end=$(($(date +%s) + secs)) k=0 rc=0
		while left=$((end - $(date +%s))) && [ "$left" -ge 20 ]; do
			k=$((k + 1))
			log=/tmp/trinity-$1.$k.log
			rm -f "$log" "$log.stopped"
			# shellcheck disable=SC2046 # one option a word
			(cd "/tmp/trinity-$1.d" &&
				exec timeout -s KILL $((left + 30)) timeout -s INT "$left" \
					trinity --dangerous -v -l off --stats -a 64 -C 1 -N "$calls" \
					$(calls "$1") --enable-fds=pseudo,testfile,sockets -P UNIX \
					-V "$2" >"$log" 2>&1) &
			pid=$!
			w=0
			while mpc_alive "$pid"; do
				sleep 1
				w=$((w + 1))
				if [ "$w" -eq 25 ] && [ "$left" -ge 45 ] &&
					[ "$(logged_calls "$log")" -lt 50 ]; then
					echo "[mpc] attempt $k stopped:" \
						"$(logged_calls "$log") calls by" \
						"$(logged_children "$log") child processes" \
						"in 25 s; again, new seed" >"$log.stopped"
					# what its last children printed, for the report
					grep '^\[child' "$log" | tail -n 12 |
						sed 's/^/[mpc]   /' >>"$log.stopped"
					# busybox timeout execs its command: $pid is trinity's
					kill -INT "$pid" 2>/dev/null
				fi
			done
			wait "$pid"
			rc=$?
			if [ ! -f "$log.stopped" ]; then
				cat "$log" >>"/tmp/trinity-$1.out"
				break
			fi
			cat "$log.stopped" >>"/tmp/trinity-$1.out"
		done
		echo "$rc" >"/tmp/trinity-$1.rc"
	) &
}

# drm.debug's core messages name every ioctl the DRM core dispatches (and
# every one it rejects as unknown): counted below, then switched off again.
dbg0=$(cat /sys/module/drm/parameters/debug 2>/dev/null)
echo 0x1 >/sys/module/drm/parameters/debug 2>/dev/null
t=$(date +%s)
start dev $vdev "$render" "$render" "$render" "$card"
start debugfs "$dbg" "$dbg/perfcnt_enable" "$dbg/perfcnt_va" \
	"$dbg/perfcnt_counters" "$dbg/perfcnt_dump"
# Just before the time is up: where trinity's processes are (a trinity that
# makes no calls shows why here).
# (Both have started after 15 s: their countdown is still running.)
while [ $(($(date +%s) - t)) -lt $((secs - 3)) ]; do
	[ $(($(date +%s) - t)) -gt 15 ] && ! pidof trinity >/dev/null && break
	sleep 1
done
for p in $(pidof trinity); do
	echo "# trinity pid $p $(cut -d' ' -f3 /proc/"$p"/stat 2>/dev/null) in $(cat /proc/"$p"/wchan 2>/dev/null):"
	sed 's/^/#   /' /proc/"$p"/stack 2>/dev/null | head -n 12
done
wait
t=$(($(date +%s) - t))
# the test files' bind mounts go before anything is unbound or unloaded
for m in /tmp/trinity-*.d/trinity-testfile*; do
	umount "$m" 2>/dev/null
done
echo "${dbg0:-0}" >/sys/module/drm/parameters/debug 2>/dev/null

# report RUN: the summary of one run; sets ran (trinity's count) and ours
# (the calls on our files in its log)
report() {
	out=/tmp/trinity-$1.out
	r=$(cat "/tmp/trinity-$1.rc" 2>/dev/null)
	# trinity's own lines, and its per-call errno table (--stats)
	grep -v -e 'Continuing in' -e '^\[child' -e '^\[main\]  *start:' \
		-e '^\[main\] futex:' -e '^= ' "$out" | sed "s/^/# $1: /" | tail -n 60
	ran=$(sed -n 's/.*Ran \([0-9]*\) syscalls.*/\1/p' "$out" | tail -n 1)
	# the attempts stopped: how many, their calls and child processes
	stopped='/^\[mpc\] attempt [0-9]+ stopped:/'
	tries=$(awk "$stopped { n++ } END { print n + 0 }" "$out")
	calls0=$(awk "$stopped { n += \$5 } END { print n + 0 }" "$out")
	kids0=$(awk "$stopped { n += \$8 } END { print n + 0 }" "$out")
	# "[main] file fd:N filename:PATH ..." for each file trinity opened;
	# "[childN:PID] [K] CALL(fd=N, ..." for each call (-v)
	# (the victim directory itself is one of those files)
	# "[main] testfile fd:N filename:trinity-testfileK ..." for each
	# test file, named as the file it is a bind mount of
	per_file=$(awk -v dir="$2" -v tf="$(paste -s -d ' ' "/tmp/trinity-$1.testfiles" 2>/dev/null)" '
		BEGIN {
			n = split(tf, l, " ")
			for (i = 1; i <= n; i++) {
				split(l[i], kv, "="); bound[kv[1]] = kv[2]
			}
		}
		/^\[main\] (file|testfile) fd:/ {
			fd = substr($3, 4); f = substr($4, 10)
			if (f in bound) f = bound[f]
			if (f == dir) f = "(directory)"
			sub(".*/", "", f); sub("[.][0-9]+$", "", f)
			name[fd] = f; files[f] = 1
		}
		match($0, /^\[child[0-9]+:[0-9]+\]/) {
			p = substr($0, RSTART, RLENGTH); if (!(p in pids)) { pids[p] = 1; np++ }
		}
		match($0, /\] \[[0-9]+\] [a-z0-9]+\(fd=-?[0-9]+/) {
			s = substr($0, RSTART, RLENGTH); sub(".*fd=", "", s)
			if (!(s in name)) other++
			else if (name[s] == "(directory)") dirs++
			else { ours++; c[name[s]]++ }
		}
		END {
			for (f in files) if (f != "(directory)") l = l sprintf(" %s:%d", f, c[f])
			printf "%d %d %d %d%s\n", ours, dirs, other, np, l
		}' "$out")
	# shellcheck disable=SC2086 # the words of per_file
	set -- "$1" $per_file
	ours=$2
	# the calls made: those of the log, and of the attempts stopped
	made=$(($2 + $3 + $4 + calls0))
	echo "# trinity: $1: $made calls in ${t}s by $(($5 + kids0)) child processes in" \
		"$((tries + 1)) attempt(s) (the last one: trinity's count ${ran:-?}, exit" \
		"${r:-?}; -N $calls, at most ${secs}s): $2 on our files," \
		"$3 on the directory, $4 on other descriptors;" \
		"per file:$(shift 5; printf ' %s' "$@")"
}

report dev $vdev
ran_dev=$made ours_dev=$ours
report debugfs "$dbg"
ran_dbg=$made ours_dbg=$ours
echo "# trinity: calls (runs):$(grep -v '^#' /mpc/debug/trinity-calls |
	awk '{ r = $2; for (i = 3; i <= NF; i++) r = r "+" $i; printf " %s(%s)", $1, r }')"

taint1=$(cat /proc/sys/kernel/tainted)
# The kernel log since guest-debug.sh's last harvest, that is, of trinity's
# runs (left in place for that harvest and its dmesg-debug scan).
dmesg >/tmp/trinity-kmsg.log 2>/dev/null
grep -E "$bad" /tmp/trinity-kmsg.log | grep -v -E "$MPC_TRINITY_OWN" | head -n 20 |
	sed 's/^/# kernel: /'
# trinity's own crashes, which the kernel logs (MPC_TRINITY_OWN, from
# guest-debug.sh): its bugs, not the kernel's
echo "# trinity: its own children crashed $(grep -c -E "$MPC_TRINITY_OWN" \
	/tmp/trinity-kmsg.log) time(s) with a segfault the kernel logged"
# "[drm:drm_ioctl [drm]] comm="trinity-c0" pid=N, dev=0x..., auth=1, NAME"
echo "# trinity: ioctls the DRM core dispatched for trinity: $(awk '
	/comm="trinity/ { all++ }
	/comm="trinity/ && /invalid ioctl:/ { bad++; next }
	/comm="trinity/ && / auth=[01], [A-Z0-9_]+$/ {
		n++; if ($NF ~ /MALI_PERFCNT/) { ours++; c[$NF]++ }
	}
	END {
		printf "%d (%d of them mali_perfcnt'"'"'s:", n, ours
		for (i in c) { s = i; sub("DRM_IOCTL_MALI_PERFCNT_", "", s); printf " %s:%d", s, c[i] }
		printf "), %d unknown to it (drm.debug: %d core messages about trinity in all)\n", bad, all
	}' /tmp/trinity-kmsg.log)"
# Conditions for check (shellcheck does not see them called)
# shellcheck disable=SC2317
both_positive() { [ "${1:-0}" -gt 0 ] && [ "${2:-0}" -gt 0 ]; }
# shellcheck disable=SC2317
log_clean() {
	! grep -E "$bad" /tmp/trinity-kmsg.log | grep -q -v -E "$MPC_TRINITY_OWN"
}
name="trinity_dev_ran ($ran_dev calls, $ours_dev on$nodes)"
check x both_positive "$ran_dev" "$ours_dev"
name="trinity_debugfs_ran ($ran_dbg calls, $ours_dbg on $dbg)"
check x both_positive "$ran_dbg" "$ours_dbg"
name="trinity_kernel_log_clean"
check x log_clean
name="trinity_kernel_not_tainted (tainted $taint0 before, $taint1 after)"
check x [ "$taint0" = "$taint1" ]
# Whatever trinity left open is gone with it: the module must unload and
# come back.
name="trinity_module_reloads"
# (each within 90 s, else the stacks of what sleeps in the kernel)
# shellcheck disable=SC2317 # called through check
reload() {
	mpc_bounded 90 rmmod mali_perfcnt &&
		mpc_bounded 90 modprobe mali_perfcnt sim=g52 sim_cores=0xb sim_l2=2
}
check x reload
echo "1..$n"
echo "=== END trinity rc=$fail"
exit $fail
