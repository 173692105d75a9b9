#!/bin/sh
# SPDX-License-Identifier: MIT
#
# End-to-end test of mali-perfcnt's kbase backend against the test-only kbase
# uAPI double (mpc_kbase_double.ko, kernel/tests/mpc_kbase_double.c) on the
# GPU model, run inside a simulator guest under busybox ash. For each double
# version: mpc-kbprobe (the uAPI's answers to wrong use), then info, sample,
# stat, top, record (CSV stream and Perfetto) through the kbase backend, and
# for the versions with both interfaces the same through the legacy reader.
# Then the legacy reader's saturation at a 5000 MHz model clock. Last, side by side: mali_perfcnt's simulator and the double, the same GPU
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
	# the kernel's timer is late on a loaded guest: the records' counts must
	# match their own intervals, whatever their length (but the first: the
	# legacy reader does not say when it began counting). Summed, exactly;
	# one by one within 35..65 %: a guest preempted between the double's
	# timestamp and its latch moves a boundary by up to ~1 ms of a 10 ms
	# record (CI once: 58.6 % then 41.2 %), which the sum does not see.
	if run record -I 10 -n 20 -f csv -o - -e GPU_ACTIVE &&
	   [ "$(grep -c ',GPU_ACTIVE,' "$tmp/out")" -eq 20 ] &&
	   grep -q 'kernel stream' "$tmp/err" &&
	   awk -F, '$6 == "GPU_ACTIVE" && $3 > 0 && $11 !~ /first/ { print $8 / $3 / 8e6 }' \
		"$tmp/out" | in_range 35 65 19 &&
	   awk -F, '$6 == "GPU_ACTIVE" && $3 > 0 && $11 !~ /first/ { c += $8; t += $3 }
		END { if (t > 0) print c / t / 8e6 }' "$tmp/out" | in_range 45 55 1; then
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
	# CSF: one firmware and 8 CSG blocks, present with the model's 0 counts
	case $v in
	csf*) want_fw=1 want_csg=8 want_rows=8 ;;
	*) want_fw=0 want_csg=0 want_rows=0 ;;
	esac
	if run info --format json &&
	   grep -q "\"nr_fw_blocks\":$want_fw,\"nr_csg_blocks\":$want_csg," "$tmp/out" &&
	   run sample --raw -A -e csg:4,fw:4 --format csv &&
	   [ "$(grep -c ',csg\.[0-7],csg\[4\],' "$tmp/out")" -eq "$want_rows" ] &&
	   [ "$(grep -c ',fw\.0,fw\[4\],' "$tmp/out")" -eq "$want_fw" ]; then
		ok "$v: $want_fw firmware and $want_csg CSG blocks, sampled by instance"
	else
		notok "$v: $want_fw firmware and $want_csg CSG blocks, sampled by instance"
	fi
	case $v in
	jm11.38|csf1.18)
		MPC_KBASE_INTERFACE=legacy
		export MPC_KBASE_INTERFACE
		exercise "$v" "hwcnt reader (legacy)"
		unset MPC_KBASE_INTERFACE ;;
	esac
done
cleanup

# A Mali-G720-like CSF GPU (cpb=128): 128 values a block, the model's T860
# counts at the G720's indices (FRAG_SHADER_THREADS at 69, in the upper
# half), decoded with the G720's database entry and its derived metrics.
g720="version=csf1.38 cpb=128 gpu=t860 cores=0xb mhz=800 workload=busy=50"
cleanup
# shellcheck disable=SC2086 # the module's parameters, split on purpose
t "G720: insmod mpc_kbase_double $g720" insmod "$kbd" $g720
if run info --format json &&
   grep -q '"database_key":"g720"' "$tmp/out" &&
   grep -q '"counters_per_block":128,' "$tmp/out" &&
   grep -q '"nr_fw_blocks":1,"nr_csg_blocks":8,' "$tmp/out"; then
	ok "G720: info: Mali-G720, 128 counters a block, 1 firmware and 8 CSG blocks"
else
	notok "G720: info: Mali-G720, 128 counters a block, 1 firmware and 8 CSG blocks"
fi
if run sample -A -e GPU_ACTIVE,FRAG_ACTIVE,FRAG_SHADER_THREADS --format csv &&
   awk -F, '$5 == "jm" && $6 == "GPU_ACTIVE" && $3 > 0 { print $8 / $3 / 8e6 }' \
	"$tmp/out" | in_range 45 55 1 &&
   [ "$(csv_val shader.3 FRAG_SHADER_THREADS)" -gt 0 ] &&
   [ "$(csv_val shader.3 FRAG_ACTIVE)" -gt 0 ] && [ -z "$(csv_val shader.2 FRAG_ACTIVE)" ]; then
	ok "G720: sample: GPU_ACTIVE 45..55 % of 800 MHz, FRAG_SHADER_THREADS (index 69) counts"
else
	notok "G720: sample: GPU_ACTIVE 45..55 % of 800 MHz, FRAG_SHADER_THREADS (index 69) counts"
fi
if run stat -I 200 -n 3 --freq 800 -e MpcGPUActiveUtil,MaliTilerUtil,MaliFragThroughputCy \
	--format csv &&
   awk -F, '$6 == "MpcGPUActiveUtil" { print $8 }' "$tmp/out" | in_range 45 55 3 &&
   awk -F, '$6 == "MaliTilerUtil" { print $8 }' "$tmp/out" | in_range 0.001 100 3 &&
   awk -F, '$6 == "MaliFragThroughputCy" { print $8 }' "$tmp/out" | in_range 0.0001 1e9 3; then
	ok "G720: stat: MpcGPUActiveUtil 45..55 %, the G720's MaliTilerUtil and MaliFragThroughputCy"
else
	notok "G720: stat: MpcGPUActiveUtil 45..55 %, the G720's MaliTilerUtil and MaliFragThroughputCy"
fi
cleanup
t "cpb=128 refused with version=jm11.38" sh -c "! insmod '$kbd' version=jm11.38 cpb=128 2>/dev/null"
cleanup

# The legacy reader's u32 values saturate: kbase adds each client's deltas in
# u64 and narrows them at 2^32 - 1. At 5000 MHz and busy=100 GPU_ACTIVE grows
# 5e9 a second; a kinstr client sampling every 200 ms keeps every hardware
# dump near 1e9 (so the model's own u32 dump does not saturate), while a
# legacy client's 1.5 s interval adds up to 7.5e9 in the double.
if insmod "$kbd" version=jm11.38 gpu=g52 cores=0xb l2=2 mhz=5000 workload=busy=100 \
	2>"$tmp/err"; then
	ok "saturation: insmod mpc_kbase_double version=jm11.38 mhz=5000 workload=busy=100"
else
	notok "saturation: insmod mpc_kbase_double version=jm11.38 mhz=5000 workload=busy=100"
fi
MPC_KBASE_INTERFACE=legacy
export MPC_KBASE_INTERFACE
# (the sample's flag may come from another counter: GPU_ACTIVE's status is its own)
if run sample --delay 100 -e GPU_ACTIVE --format csv &&
   [ "$(awk -F, '$6 == "GPU_ACTIVE" { print $10 }' "$tmp/out")" = ok ]; then
	ok "saturation: legacy sample --delay 100 (5e8 cycles) is not saturated"
else
	notok "saturation: legacy sample --delay 100 (5e8 cycles) is not saturated" \
		"$(head -c 600 "$tmp/out" "$tmp/err")"
fi
# shellcheck disable=SC2086 # the backend option and its value
MPC_KBASE_INTERFACE=kinstr "$tool" $backend record -I 200 -n 12 -f csv -o "$tmp/kin.csv" \
	-e GPU_ACTIVE >/dev/null 2>"$tmp/kin.err" &
bg=$!
sleep 1
if run sample --delay 1500 -e GPU_ACTIVE --format csv &&
   [ "$(awk -F, '$6 == "GPU_ACTIVE" { print $8 "," $10 }' "$tmp/out")" = 4294967295,saturated ] &&
   awk -F, '$6 == "GPU_ACTIVE" { print $11 }' "$tmp/out" | grep -q saturated; then
	ok "saturation: legacy sample --delay 1500 beside a kinstr client: GPU_ACTIVE 2^32 - 1, flagged saturated"
else
	notok "saturation: legacy sample --delay 1500 beside a kinstr client: GPU_ACTIVE 2^32 - 1, flagged saturated" \
		"$(head -c 600 "$tmp/out" "$tmp/err")"
fi
unset MPC_KBASE_INTERFACE
wait "$bg"
st=$?
cp "$tmp/kin.csv" "$tmp/out" 2>/dev/null
if [ "$st" -eq 0 ] && [ "$(grep -c ',GPU_ACTIVE,' "$tmp/out")" -eq 12 ] &&
   [ "$(awk -F, '$6 == "GPU_ACTIVE" && $10 != "ok"' "$tmp/out")" = "" ] &&
   awk -F, '$6 == "GPU_ACTIVE" && $3 > 0 && $11 !~ /first/ { print $8 / $3 / 5e7 }' \
	"$tmp/out" | in_range 80 102 11; then
	ok "saturation: the kinstr client meanwhile: 12 records, none saturated, 80..102 % busy"
else
	notok "saturation: the kinstr client meanwhile: 12 records, none saturated, 80..102 % busy" \
		"exit $st $(head -c 600 "$tmp/out" "$tmp/kin.err")"
fi
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
