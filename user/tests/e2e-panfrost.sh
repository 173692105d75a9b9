#!/bin/sh
# SPDX-License-Identifier: MIT
#
# End-to-end test of mali-perfcnt against stock upstream panfrost.ko on the
# emulated Mali GPU of the project's QEMU (the arm64 qemu-gpu targets), run
# inside the guest under busybox ash (no bash, python or jq needed).
#
# Environment:
#   MPC_TOOL             path of the mali-perfcnt binary (with its shared
#                        libraries libdrm.so.2 and libkmod.so.2 in the guest)
#   MPC_FMTCHECK         path of the static mpc-fmtcheck validator
#   MPC_PANFROST_EXPECT  the target's key=value file (/mpc/target):
#                        product, v4, busy, mhz, shader_present, l2_present,
#                        l2_slices (the others are ignored)
#   MPC_TMP              optional scratch directory (default ${TMPDIR:-/tmp})
#   MPC_DEVICE           optional render node to pass as --device
#
# Expected state: panfrost loaded with unstable_ioctls=1, the counters free,
# the GPU running the configured load (busy=N). Must run as root (the
# unstable_ioctls parameter is 0600; so are the nodes without udev).
#
# Output: TAP ("ok N - name", "not ok N - name", "ok N - name # SKIP why"),
# then "1..N". Exit status 0 only if no test failed.

tool=${MPC_TOOL:?set MPC_TOOL to the mali-perfcnt binary}
fmt=${MPC_FMTCHECK:?set MPC_FMTCHECK to the mpc-fmtcheck binary}
exp=${MPC_PANFROST_EXPECT:?set MPC_PANFROST_EXPECT to the expectations file}
tmp=${MPC_TMP:-${TMPDIR:-/tmp}}/mpc-e2e-pf.$$
param=/sys/module/panfrost/parameters/unstable_ioctls
dev=
[ -n "${MPC_DEVICE:-}" ] && dev="--device $MPC_DEVICE"

backend="--backend panfrost"
mkdir -p "$tmp" || { echo "1..0 # SKIP cannot create $tmp"; exit 1; }
# shellcheck source=user/tests/tap.sh
. "$(dirname "$0")/tap.sh"
key() { sed -n "s/^$1=//p" "$exp" | head -n 1; }
popcount() {
	v=$(($1)) c=0
	while [ "$v" -ne 0 ]; do c=$((c + (v & 1))); v=$((v >> 1)); done
	echo $c
}
fls() {
	v=$(($1)) c=0
	while [ "$v" -ne 0 ]; do c=$((c + 1)); v=$((v >> 1)); done
	echo $c
}

cleanup() {
	[ -w "$param" ] && echo Y >"$param" 2>/dev/null
	[ -n "${holder:-}" ] && kill "$holder" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT

product=$(key product)
v4=$(key v4)
busy=$(key busy)
mhz=$(key mhz)
sp=$(key shader_present)
l2p=$(key l2_present)
slices=$(key l2_slices)
: "${v4:=0}" "${l2p:=0x1}" "${slices:=1}"
if [ -z "$product" ] || [ -z "$busy" ] || [ -z "$mhz" ] || [ -z "$sp" ]; then
	echo "1..0 # SKIP $exp lacks product, busy, mhz or shader_present"
	exit 1
fi
groups=$(popcount "$l2p")
if [ "$v4" = 1 ]; then
	layout=v4 nl2=$groups size=$((groups * 8 * 256))
else
	layout=v5 nl2=$slices size=$(((slices + $(fls "$sp") + 2) * 256))
fi
echo "# $product: layout $layout, cores $sp, $nl2 L2 block(s), $size-byte dumps, busy $busy % of $mhz MHz"

# --- basics ------------------------------------------------------------------
t "tool runs (--version)" run --version
if run info --format json && "$fmt" json "$tmp/out" >/dev/null &&
	grep -q '"backend":"panfrost","driver":"panfrost ' "$tmp/out" &&
	grep -q "\"database_key\":\"$product\"" "$tmp/out" &&
	grep -q "\"layout\":\"$layout\"" "$tmp/out" &&
	grep -q "\"shader_present\":\"$(printf '0x%016x' "$sp")\"" "$tmp/out" &&
	grep -q "\"nr_l2\":$nl2," "$tmp/out" &&
	grep -q "\"dump_size\":$size," "$tmp/out" &&
	grep -q '"counters_usable":"yes"' "$tmp/out"; then
	ok "info: panfrost backend, $product, $layout, cores $sp, $nl2 L2, $size-byte dumps (JSON valid)"
else
	notok "info: panfrost backend, $product, $layout, cores $sp, $nl2 L2, $size-byte dumps (JSON valid)"
fi
alloc=$(sed -n 's/.*"dump_alloc":\([0-9]*\),.*/\1/p' "$tmp/out")
t "info: the buffer holds what the kernel copies (${alloc:-?} >= $size)" [ "${alloc:-0}" -ge "$size" ]
if run info && grep -q '^limit .*no per-block masks' "$tmp/out" &&
	grep -q '^limit .*one owner per open file' "$tmp/out"; then
	ok "info (text): backend limits listed"
else
	notok "info (text): backend limits listed"
fi
t "info: CSV valid" sh -c "'$tool' $dev --backend panfrost info --format csv >'$tmp/out' && '$fmt' csv '$tmp/out' >/dev/null"
# the tool picks panfrost by itself too
# shellcheck disable=SC2086
if "$tool" $dev info --format json >"$tmp/out" 2>"$tmp/err" && grep -q '"backend":"panfrost"' "$tmp/out"; then
	ok "info without --backend chooses panfrost"
else
	notok "info without --backend chooses panfrost"
fi
if run list --format json && "$fmt" json "$tmp/out" >/dev/null && grep -q GPU_ACTIVE "$tmp/out"; then
	ok "list (device's GPU): JSON valid"
else
	notok "list (device's GPU): JSON valid"
fi

# --- every present core and L2 block ----------------------------------------
if run sample -A --format json && "$fmt" json "$tmp/out" >/dev/null; then
	ok "sample -A --format json valid"
	bad=''
	for b in jm tiler.0; do
		grep -q "\"block\":\"$b\",\"timestamp\"" "$tmp/out" || bad="$bad $b"
	done
	i=0
	while [ $i -lt "$nl2" ]; do
		grep -q "\"block\":\"l2.$i\",\"timestamp\"" "$tmp/out" || bad="$bad l2.$i"
		i=$((i + 1))
	done
	i=0
	while [ $i -lt 64 ]; do
		if [ $(((sp >> i) & 1)) -eq 1 ]; then
			grep -q "\"block\":\"shader.$i\",\"timestamp\"" "$tmp/out" || bad="$bad shader.$i"
		elif grep -q "\"block\":\"shader.$i\"" "$tmp/out"; then
			bad="$bad absent-shader.$i"
		fi
		i=$((i + 1))
	done
	if [ -z "$bad" ]; then
		ok "sample -A: jm, tiler, $nl2 L2 block(s) and every core of $sp decoded, no absent core"
	else
		notok "sample -A: jm, tiler, $nl2 L2 block(s) and every core of $sp decoded, no absent core" \
			"missing or wrong:$bad"
	fi
else
	notok "sample -A --format json valid"
fi
if run sample --freq "$mhz" --format csv && "$fmt" csv "$tmp/out" >/dev/null; then
	cp "$tmp/out" "$tmp/sample.csv"
	ok "sample --format csv valid"
	# shellcheck disable=SC2016 # an awk program
	t "sample: every counter collected" awk -F, '$4 == "counter" { c++; if ($10 != "ok") bad++ }
		END { exit !(c > 0 && !bad) }' "$tmp/sample.csv"
	if [ "$busy" -gt 0 ]; then
		t "sample: GPU_ACTIVE > 0" sh -c "'$fmt' csv-get '$tmp/sample.csv' GPU_ACTIVE | awk '{ exit !(\$1 > 0) }'"
	fi
else
	notok "sample --format csv valid"
fi

# --- live counting at the configured load -------------------------------------
lo=$((busy - 5)) hi=$((busy + 5))
if run stat -I 1000 -n 3 --freq "$mhz" -e MpcGPUActiveUtil,GPU_ACTIVE --format csv; then
	cp "$tmp/out" "$tmp/stat.csv"
	ok "stat -I 1000 -n 3 --format csv"
	t "stat CSV is valid" sh -c "'$fmt' csv '$tmp/stat.csv' >/dev/null"
	echo "# utilisation per interval: $("$fmt" csv-get "$tmp/stat.csv" MpcGPUActiveUtil | tr '\n' ' ')"
	if "$fmt" csv-get "$tmp/stat.csv" MpcGPUActiveUtil | in_range "$lo" "$hi" 3; then
		ok "stat -I 1000: GPU active utilisation $busy +- 5 % in each of 3 intervals"
	else
		notok "stat -I 1000: GPU active utilisation $busy +- 5 % in each of 3 intervals" \
			"got: $("$fmt" csv-get "$tmp/stat.csv" MpcGPUActiveUtil | tr '\n' ' ')"
	fi
	if awk -F, '$4 == "metric" && $6 == "MpcGPUActiveUtil" { print $3 }' "$tmp/stat.csv" |
		median_in 0.9 1.2 3; then
		ok "stat -I 1000: 3 intervals, their median about 1 s"
	else
		notok "stat -I 1000: 3 intervals, their median about 1 s" \
			"$(awk -F, '$4 == "metric" && $6 == "MpcGPUActiveUtil" { print $3 }' "$tmp/stat.csv" | tr '\n' ' ')"
	fi
else
	notok "stat -I 1000 -n 3 --format csv"
fi
if run stat -I 300 -n 2 --freq "$mhz" --format json && "$fmt" json "$tmp/out" >/dev/null &&
	[ "$(wc -l <"$tmp/out")" -eq 2 ]; then
	ok "stat --format json: 2 valid objects, one per line"
else
	notok "stat --format json: 2 valid objects, one per line"
fi
if run stat --freq "$mhz" -e MpcGPUActiveUtil --format csv -- sleep 2 &&
	"$fmt" csv-get "$tmp/out" MpcGPUActiveUtil | in_range "$lo" "$hi" 1; then
	ok "stat -- sleep 2: $busy +- 5 % over the command's run"
else
	notok "stat -- sleep 2: $busy +- 5 % over the command's run" \
		"got: $("$fmt" csv-get "$tmp/out" MpcGPUActiveUtil 2>/dev/null)"
fi

# --- 64-bit sums past 2^32 ------------------------------------------------------
# panfrost's counters are 32-bit and cleared by each dump: the tool dumps at
# least every 500 ms and adds them up. Counted long enough, GPU_ACTIVE
# (busy % of the cycles) passes 2^32; a sum kept in 32 bits would wrap.
if [ "$busy" -gt 0 ]; then
	rate=$((busy * mhz * 10000))
	secs=$((4294967296 / rate + 2))
	if run stat -e GPU_ACTIVE --format csv -- sleep "$secs" &&
		awk -F, -v rate="$rate" '$4 == "counter" && $6 == "GPU_ACTIVE" {
				c++; v = $8 + 0; r = $3 > 0 ? v / ($3 * rate) : 0
				printf "# GPU_ACTIVE %s over %s s: %.4f of %d/s\n", $8, $3, r, rate
			}
			END { exit !(c == 1 && v > 4294967296 && r > 0.99 && r < 1.01) }' "$tmp/out"; then
		ok "stat -- sleep $secs: GPU_ACTIVE passes 2^32, busy $busy % of $mhz MHz +- 1 %"
	else
		notok "stat -- sleep $secs: GPU_ACTIVE passes 2^32, busy $busy % of $mhz MHz +- 1 %"
	fi
fi

# --- errors ---------------------------------------------------------------------
if ! run sample --masks jm=0x1 && one_line_error && grep -q "no per-block masks" "$tmp/err"; then
	ok "sample --masks: refused, panfrost has no per-block masks"
else
	notok "sample --masks: refused, panfrost has no per-block masks"
fi
# shellcheck disable=SC2086
"$tool" $dev --backend panfrost stat -I 100 -n 40 -e GPU_ACTIVE >/dev/null 2>&1 &
holder=$!
sleep 1
if ! run sample && one_line_error && grep -q "in use by another process" "$tmp/err"; then
	ok "a second owner gets EBUSY: one line"
else
	notok "a second owner gets EBUSY: one line"
fi
kill "$holder" 2>/dev/null
wait "$holder" 2>/dev/null
holder=
if [ -w "$param" ] && echo N >"$param"; then
	msg="mali-perfcnt: panfrost's perfcnt ioctls are disabled: echo Y > $param (root; taints the kernel)"
	if ! run sample && [ "$(cat "$tmp/err")" = "$msg" ]; then
		ok "unstable_ioctls=N: sample says how to enable the ioctls (ENOSYS)"
	else
		notok "unstable_ioctls=N: sample says how to enable the ioctls (ENOSYS)"
	fi
	if run info --format json && grep -q '"counters_usable":"panfrost.s perfcnt ioctls are disabled' "$tmp/out"; then
		ok "unstable_ioctls=N: info says so"
	else
		notok "unstable_ioctls=N: info says so"
	fi
	echo Y >"$param"
else
	skip "unstable_ioctls=N" "cannot write $param (not root?)"
fi
t "unstable_ioctls=Y again: sample works" run sample -e GPU_ACTIVE

cleanup
trap - EXIT
tap_done
