#!/bin/sh
# SPDX-License-Identifier: MIT
#
# End-to-end test of mali-perfcnt's kbase backend against the test-only kbase
# uAPI double (mpc_kbase_double.ko, kernel/tests/mpc_kbase_double.c) on the
# GPU model, run inside a simulator guest under busybox ash. For each double
# version: mpc-kbprobe (the uAPI's answers to wrong use), then info, sample,
# stat, top, record (CSV stream and Perfetto) through the kbase backend, and
# for the versions with both interfaces the same through the legacy reader.
# Last, side by side: mali_perfcnt's simulator and the double, the same GPU
# model and load, measured by the same stat; the counter rates must agree
# within 1 % (user/tests/side-by-side.sh --compare).
#
# Environment:
#   MPC_TOOL        path of the mali-perfcnt binary (with its shared libraries)
#   MPC_FMTCHECK    path of the static mpc-fmtcheck validator
#   MPC_KBPROBE     path of mpc-kbprobe (user/build/)
#   MPC_KBD_MODULE  path of mpc_kbase_double.ko
#   MPC_MP_MODULE   optional mali_perfcnt (MPC_SIM=1 build) for the side by
#                   side: a path to insmod, or a name to modprobe; skipped
#                   without it
#   MPC_VERSIONS    optional, default "jm11.38 jm11.46 csf1.18 csf1.38"
#   MPC_TMP         optional scratch directory (default ${TMPDIR:-/tmp})
#
# Expected state: root, debugfs mounted, neither module loaded; both are
# unloaded at the end. The model is a G52 with cores 0xb, 2 L2 slices,
# 800 MHz, busy=50.
#
# Output: TAP, then "1..N". Exit status 0 only if no test failed.

tool=${MPC_TOOL:?set MPC_TOOL to the mali-perfcnt binary}
fmt=${MPC_FMTCHECK:?set MPC_FMTCHECK to the mpc-fmtcheck binary}
probe=${MPC_KBPROBE:?set MPC_KBPROBE to the mpc-kbprobe binary}
kbd=${MPC_KBD_MODULE:?set MPC_KBD_MODULE to mpc_kbase_double.ko}
mp=${MPC_MP_MODULE:-}
versions=${MPC_VERSIONS:-jm11.38 jm11.46 csf1.18 csf1.38}
tmp=${MPC_TMP:-${TMPDIR:-/tmp}}/mpc-e2e-kb.$$
dev=
backend="--backend kbase"
model="gpu=g52 cores=0xb l2=2 mhz=800"
mkdir -p "$tmp" || { echo "1..0 # SKIP cannot create $tmp"; exit 1; }
# shellcheck source=user/tests/tap.sh
. "$(dirname "$0")/tap.sh"

cleanup() {
	rmmod mpc_kbase_double 2>/dev/null
	rmmod mali_perfcnt 2>/dev/null
	unset MPC_KBASE_INTERFACE
}
trap 'cleanup; rm -rf "$tmp"' EXIT

# the value of counter $2 of block $1 in row $3 (0-based) of the CSV in $tmp/out
csv_val() {
	awk -F, -v b="$1" -v c="$2" -v nth="${3:-0}" \
		'$5 == b && $6 == c && seen++ == nth { print $8; exit }' "$tmp/out"
}

# one interface of one version: $1 version, $2 interface name as info says it
exercise() {
	v=$1 want_if=$2 tag="$1 $2"
	case $v in
	jm*) drv="kbase JM ${v#jm}" ;;
	*) drv="kbase CSF ${v#csf}" ;;
	esac
	if run info --format json && "$fmt" json "$tmp/out" >/dev/null 2>&1 &&
	   grep -q "\"driver\":\"$drv\",\"interface\":\"$want_if\"" "$tmp/out" &&
	   grep -q '"database_key":"g52"' "$tmp/out" &&
	   grep -q '"shader_present":"0x000000000000000b"' "$tmp/out" &&
	   grep -q '"nr_l2":2,' "$tmp/out"; then
		ok "$tag: info names kbase, $drv, $want_if, the G52 with cores 0xb and 2 L2 slices"
	else
		notok "$tag: info names kbase, $drv, $want_if, the G52 with cores 0xb and 2 L2 slices"
	fi
	# busy=50 at 800 MHz: GPU_ACTIVE 4e8 a second of the kernel's interval
	if run sample -A -e GPU_ACTIVE,FRAG_ACTIVE --format csv &&
	   "$fmt" csv "$tmp/out" >/dev/null 2>&1 &&
	   awk -F, '$5 == "jm" && $6 == "GPU_ACTIVE" && $3 > 0 { print $8 / $3 / 8e6 }' \
		"$tmp/out" | in_range 45 55 1 &&
	   [ -n "$(csv_val shader.3 FRAG_ACTIVE)" ] && [ -z "$(csv_val shader.2 FRAG_ACTIVE)" ]; then
		ok "$tag: sample: GPU_ACTIVE 45..55 % of 800 MHz, cores 0, 1, 3 (not 2)"
	else
		notok "$tag: sample: GPU_ACTIVE 45..55 % of 800 MHz, cores 0, 1, 3 (not 2)"
	fi
	if run stat -I 200 -n 3 --freq 800 -e GPU_ACTIVE,MpcGPUActiveUtil --format csv &&
	   awk -F, '$6 == "MpcGPUActiveUtil" { print $8 }' "$tmp/out" | in_range 45 55 3; then
		ok "$tag: stat -I 200 -n 3: MpcGPUActiveUtil 45..55 % at busy=50"
	else
		notok "$tag: stat -I 200 -n 3: MpcGPUActiveUtil 45..55 % at busy=50"
	fi
	# the kernel's timer is late on a loaded guest: each record's count must
	# match its own interval, whatever its length (but the first: the legacy
	# reader does not say when it began counting)
	if run record -I 10 -n 20 -f csv -o - -e GPU_ACTIVE &&
	   [ "$(grep -c ',GPU_ACTIVE,' "$tmp/out")" -eq 20 ] &&
	   grep -q 'kernel stream' "$tmp/err" &&
	   awk -F, '$6 == "GPU_ACTIVE" && $3 > 0 && $11 !~ /first/ { print $8 / $3 / 8e6 }' \
		"$tmp/out" | in_range 45 55 19; then
		ok "$tag: record -I 10 -n 20: 20 kernel-timed records, 45..55 % busy after the first"
	else
		notok "$tag: record -I 10 -n 20: 20 kernel-timed records, 45..55 % busy after the first"
	fi
	if run record -I 10 -n 5 -o "$tmp/t.pftrace" && [ -s "$tmp/t.pftrace" ]; then
		ok "$tag: record a Perfetto trace"
	else
		notok "$tag: record a Perfetto trace"
	fi
	if run top -I 100 -n 2 --freq 800 && [ "$(grep -c 'frame [0-9]' "$tmp/out")" -eq 2 ]; then
		ok "$tag: top -n 2"
	else
		notok "$tag: top -n 2"
	fi
}

for v in $versions; do
	cleanup
	# shellcheck disable=SC2086 # the model's parameters, split on purpose
	if ! insmod "$kbd" version="$v" $model workload=busy=50 2>"$tmp/err" ||
	   [ ! -c /dev/mali0 ]; then
		notok "$v: insmod mpc_kbase_double version=$v gives /dev/mali0"
		continue
	fi
	ok "$v: insmod mpc_kbase_double version=$v gives /dev/mali0"
	if "$probe" /dev/mali0 >"$tmp/probe" 2>&1 && ! grep -q '^not ok' "$tmp/probe"; then
		ok "$v: mpc-kbprobe: $(grep -c '^ok' "$tmp/probe") checks of the uAPI's answers"
	else
		notok "$v: mpc-kbprobe: the uAPI's answers" "$(grep '^not ok\|Bail' "$tmp/probe" |
			head -n 10 | sed '2,$s/^/# /')"
	fi
	exercise "$v" kinstr_prfcnt
	case $v in
	jm11.38|csf1.18)
		MPC_KBASE_INTERFACE=legacy
		export MPC_KBASE_INTERFACE
		exercise "$v" "hwcnt reader (legacy)"
		unset MPC_KBASE_INTERFACE ;;
	esac
done
cleanup

# side by side: the same model and load through both drivers
if [ -z "$mp" ]; then
	skip "side by side with mali_perfcnt" "no MPC_MP_MODULE"
else
	stat="stat -I 400 -n 10 --raw -e counters -A --format csv"
	dbg=
	case $mp in
	*/*) load=insmod ;;
	*) load=modprobe ;;
	esac
	if $load "$mp" sim=g52 sim_cores=0xb sim_l2=2 sim_mhz=800 2>"$tmp/err"; then
		for d in /sys/kernel/debug/dri/*; do
			grep -qs '^mali_perfcnt' "$d/name" && dbg=$d
		done
	fi
	if [ -n "$dbg" ] && echo busy=50 >"$dbg/sim_workload"; then
		ok "mali_perfcnt sim=g52 (cores 0xb, 2 L2, 800 MHz), busy=50"
	else
		notok "mali_perfcnt sim=g52 (cores 0xb, 2 L2, 800 MHz), busy=50"
	fi
	backend="--backend mali_perfcnt"
	all=jm=0xffff,tiler=0xffff,shader=0xffff,l2=0xffff
	# shellcheck disable=SC2086 # options with their values
	t "through mali_perfcnt: $stat" run $stat --masks "$all"
	cp "$tmp/out" "$tmp/mp.csv"
	rmmod mali_perfcnt
	# shellcheck disable=SC2086
	t "mpc_kbase_double version=jm11.38, the same model and load" \
		insmod "$kbd" version=jm11.38 $model workload=busy=50
	backend="--backend kbase"
	# shellcheck disable=SC2086
	t "through kbase (kinstr_prfcnt): $stat" run $stat
	cp "$tmp/out" "$tmp/kb.csv"
	cleanup
	MPC_SBS_NAMES="mali_perfcnt kbase" sh "$(dirname "$0")/side-by-side.sh" --compare \
		"$tmp/mp.csv" "$tmp/kb.csv" >"$tmp/sbs" 2>&1
	while IFS= read -r line; do
		case $line in
		"ok "*) ok "side by side: ${line#ok * - }" ;;
		"not ok "*) notok "side by side: ${line#not ok * - }" ;;
		"#"*) echo "$line" ;;
		esac
	done <"$tmp/sbs"
fi
tap_done
