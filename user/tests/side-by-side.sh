#!/bin/sh
# SPDX-License-Identifier: MIT
#
# Side by side: the same emulated GPU and workload measured with the tool
# through stock panfrost.ko and through mali_perfcnt.ko, in one boot of the
# arm64 qemu-gpu mali_perfcnt G52 target; the counter rates must agree
# within 1 % for every counter the device drives (busybox ash).
#
#   side-by-side.sh                  the measurement (in the guest)
#   side-by-side.sh --compare PF MP  only the comparison, of two CSVs of
#                                    "mali-perfcnt stat --raw -e counters -A"
#                                    (scripts/tests/side_by_side_test.sh);
#                                    MPC_SBS_NAMES="A B" names the two runs
#                                    (default "panfrost mali_perfcnt")
#
# Environment of the measurement:
#   MPC_TOOL         path of the mali-perfcnt binary
#   MPC_BIND_DEVICE  the GPU's platform device (e.g. 90c0000.gpu)
#   MPC_LOAD_CMD     command that sets the modelled load, given "busy=50" or
#                    "idle" as its last argument (e.g. "mpc_ctl workload")
#   MPC_TMP          optional scratch directory (default ${TMPDIR:-/tmp})
#
# Expected state: neither panfrost nor mali_perfcnt loaded. The script loads
# panfrost (unstable_ioctls=1), measures, unbinds it, loads mali_perfcnt
# with bind=, measures again, and unloads both.
#
# What differs between the two, and how the comparison deals with it:
# - panfrost enables every counter (0xffffffff in each PRFCNT_*_EN), our
#   module per-block masks: the mali_perfcnt run passes --masks with every
#   group of each block, so both enable the same counters.
# - panfrost's counters are raw 32-bit values the tool samples at least every
#   500 ms; ours are sampled only when asked. The model adds whole events per
#   sample (a sample drops the fraction of a job it has not finished), so
#   different sample cadences would give different counts: both runs are
#   "stat -I 400" (no sample in between, one dump per interval in each).
# - panfrost's intervals are timed in userspace before each DUMP ioctl, ours
#   by the kernel when it starts the sample: one interval's time and count
#   can disagree by the ioctl's latency, but over consecutive intervals these
#   errors cancel. The rate compared is the sum of a counter over all
#   intervals divided by the sum of the intervals (the first dump after
#   ENABLE to the last).
# The block header words (indices 0-3: timestamps, enable mask) are not
# counters and are left out.
#
# Output: TAP, one test per block kind (jm, tiler, l2, shader), then "1..N".
# Exit status 0 only if no test failed.

# rates KIND CSV: "block name rate" of every counter of blocks KIND[.i]
# (counters by index, no header word), the rate per second over all intervals
rates() {
	awk -F, -v kind="$1" '
		NR == 1 || $4 != "counter" { next }
		{
			k = $5; sub(/\.[0-9]+$/, "", k)
			if (k != kind) next
			i = $6; sub(/^.*\[/, "", i); sub(/\].*$/, "", i)
			if (i + 0 < 4) next
			key = $5 " " $6
			if (!(key in sum)) order[n++] = key
			sum[key] += $8
			if (!seen[$1]++) t += $3
		}
		END { for (j = 0; j < n; j++) printf "%s %.6f\n", order[j], (t > 0 ? sum[order[j]] / t : -1) }' "$2"
}

# compare KIND PF.csv MP.csv: one TAP line for the blocks of KIND
compare() {
	kind=$1
	rates "$kind" "$2" >"$tmp/pf.$kind"
	rates "$kind" "$3" >"$tmp/mp.$kind"
	# shellcheck disable=SC2016 # an awk program
	msg=$(awk -v na="$name_a" -v nb="$name_b" '
		FNR == NR { pf[$1 " " $2] = $3; order[n++] = $1 " " $2; next }
		{ k = $1 " " $2; mp[k] = $3; if (!(k in pf)) order[n++] = k }
		END {
			for (j = 0; j < n; j++) {
				k = order[j]
				if (!(k in pf) || !(k in mp)) {
					printf "%s: only through %s\n", k, (k in pf) ? na : nb
					bad++
					continue
				}
				a = pf[k] + 0; b = mp[k] + 0
				if (a < 0 || b < 0) { printf "%s: no interval time\n", k; bad++; continue }
				if (a == 0 && b == 0) continue
				driven++
				d = a - b; if (d < 0) d = -d
				m = a > b ? a : b
				if (a == 0 || b == 0 || d > m / 100) {
					printf "%s: %s %.3f/s, %s %.3f/s (%+.2f %%)\n",
						k, na, a, nb, b, (a > 0 ? (b - a) * 100 / a : 100)
					bad++
				}
			}
			if (!driven && !bad) { print "no counter of this block counts in either run"; bad++ }
			if (!bad) printf "ok %d\n", driven
		}' "$tmp/pf.$kind" "$tmp/mp.$kind")
	# (the last stat's output is not what failed here)
	rm -f "$tmp/out" "$tmp/err"
	case $msg in
	"ok "*)	ok "$kind: ${msg#ok } driven counters, $name_a and $name_b rates within 1 %" ;;
	*)	notok "$kind: $name_a and $name_b rates within 1 %" \
			"$(echo "$msg" | sed '2,$s/^/# /')" ;;
	esac
}

# shellcheck disable=SC2086 # two words
set -- ${MPC_SBS_NAMES:-panfrost mali_perfcnt} -- "$@"
name_a=$1 name_b=$2
shift 3

if [ "${1:-}" = --compare ]; then
	[ $# -eq 3 ] || { echo "usage: $0 --compare PANFROST.csv MALI_PERFCNT.csv" >&2; exit 2; }
	tmp=$(mktemp -d "${TMPDIR:-/tmp}/mpc-sbs.XXXXXX") || exit 1
	# shellcheck source=user/tests/tap.sh
	. "$(dirname "$0")/tap.sh"
	for k in jm tiler l2 shader; do
		compare "$k" "$2" "$3"
	done
	rm -rf "$tmp"
	tap_done
	exit
fi

tool=${MPC_TOOL:?set MPC_TOOL to the mali-perfcnt binary}
gpu=${MPC_BIND_DEVICE:?set MPC_BIND_DEVICE to the GPU platform device}
load=${MPC_LOAD_CMD:?set MPC_LOAD_CMD to the command that sets the load}
tmp=${MPC_TMP:-${TMPDIR:-/tmp}}/mpc-sbs.$$
dev='' backend=''
mkdir -p "$tmp" || { echo "1..0 # SKIP cannot create $tmp"; exit 1; }
# shellcheck source=user/tests/tap.sh
. "$(dirname "$0")/tap.sh"
sysdev=/sys/bus/platform/devices/$gpu
# the counters of both runs: every one by index, per block instance
stat="stat -I 400 -n 10 --raw -e counters -A --format csv"

driver_of() { basename "$(readlink "$sysdev/driver" 2>/dev/null)" 2>/dev/null; }
cleanup() {
	# shellcheck disable=SC2086 # a command with its arguments
	$load idle >/dev/null 2>&1
	rmmod mali_perfcnt 2>/dev/null
	rmmod panfrost 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT

# shellcheck disable=SC2086
if $load busy=50 >"$tmp/out" 2>"$tmp/err"; then
	ok "workload busy=50 ($load)"
else
	notok "workload busy=50 ($load)"
fi

# 1. stock panfrost
if modprobe panfrost unstable_ioctls=1 && [ "$(driver_of)" = panfrost ]; then
	ok "panfrost (unstable_ioctls=1) drives $gpu"
else
	notok "panfrost (unstable_ioctls=1) drives $gpu" "driver: $(driver_of)"
fi
backend="--backend panfrost"
# shellcheck disable=SC2086 # options with their values
t "through panfrost: $stat" run $stat
cp "$tmp/out" "$tmp/panfrost.csv"

# 2. the same GPU given to mali_perfcnt
echo "$gpu" >/sys/bus/platform/drivers/panfrost/unbind 2>/dev/null
if [ -z "$(driver_of)" ] && modprobe mali_perfcnt bind="$gpu" &&
   [ "$(driver_of)" = mali_perfcnt ]; then
	ok "panfrost unbound, mali_perfcnt bind=$gpu drives it"
else
	notok "panfrost unbound, mali_perfcnt bind=$gpu drives it" "driver: $(driver_of)"
fi
backend="--backend mali_perfcnt"
# panfrost enables every counter: so do we
all=jm=0xffff,tiler=0xffff,shader=0xffff,l2=0xffff
# shellcheck disable=SC2086
t "through mali_perfcnt: $stat --masks $all" run $stat --masks "$all"
cp "$tmp/out" "$tmp/mali_perfcnt.csv"

for k in jm tiler l2 shader; do
	compare "$k" "$tmp/panfrost.csv" "$tmp/mali_perfcnt.csv"
done
# the rates of the counters that count, for the log
for k in jm tiler l2 shader; do
	awk 'FNR == NR { pf[$1 " " $2] = $3; next }
		{ k = $1 " " $2; if ($3 + 0 || pf[k] + 0) printf "# %s: panfrost %s/s, mali_perfcnt %s/s\n", k, pf[k], $3 }' \
		"$tmp/pf.$k" "$tmp/mp.$k"
done
cleanup
trap - EXIT
tap_done
