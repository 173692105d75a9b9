# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=sh
#
# What the guests share that run the panfrost series' panfrost.ko
# (scripts/panfrost-series.sh), installed as /mpc/pf-lib.sh with the
# series' files (scripts/check.sh: driver=panfrost-patched, or patched=yes
# next to the stock module): sourced after /mpc/lib.sh.
#
#   pf_swap             unload the stock panfrost, load /mpc/pf-panfrost.ko
#   pf_kselftests SEC   the series' kselftests (/mpc/pf-kselftest.tar.gz)
#                       under the tree's run_kselftest.sh, TAP section SEC
#   pf_tool SEC         the tool through the patched panfrost's sessions
#
# Every case must apply, so a skip fails (a stock panfrost, which has no
# PERFCNT_FEATURES, skips them all), unless /mpc/pf-skips lists it for
# this product with the reason it cannot apply there (that file's header).

# shellcheck disable=SC2034 # rc: the guest's exit status (lib.sh)
# pf_swap: the stock panfrost.ko out, the series' in (its dependencies are
# the stock module's, still loaded). Status 1, with a failing section
# "panfrost_swap", if either step fails.
pf_swap() {
	pf_e=''
	if ! rmmod panfrost 2>/tmp/pf-swap.err; then
		pf_e="rmmod panfrost (the stock module) failed: $(head -n 1 /tmp/pf-swap.err)"
	elif ! insmod /mpc/pf-panfrost.ko 2>/tmp/pf-swap.err; then
		pf_e="insmod /mpc/pf-panfrost.ko (the patched module) failed: $(head -n 1 /tmp/pf-swap.err)"
	fi
	[ -n "$pf_e" ] || return 0
	echo "=== BEGIN panfrost_swap"
	echo "1..1"
	echo "not ok 1 swap_panfrost # $pf_e"
	echo "=== END panfrost_swap rc=1"
	rc=1
	return 1
}

# pf_allowed CASE: the reason /mpc/pf-skips gives CASE on this product,
# or status 1
pf_allowed() {
	[ -z "$pf_no_skips" ] && [ -r /mpc/pf-skips ] || return 1
	awk -v p="$(mpc_key product)" -v c="$1" '
		/^#/ || NF < 3 { next }
		$1 == p && $2 == c { $1 = ""; $2 = ""; sub(/^ */, ""); print; f = 1; exit }
		END { exit !f }' /mpc/pf-skips
}

# pf_kselftests SEC: the series' kselftests as a kernel developer runs
# them, from the patched tree's install tree under its own runner
# (./run_kselftest.sh -c drivers/gpu/panfrost); its log as "# " lines,
# then every case (ktap-cases.awk) as the TAP section SEC. Status 0 when
# every case passed (or is a listed skip).
pf_kselftests() {
	pf_sec=$1 pf_ks=/tmp/pf-kselftest
	# the QEMU device's test-control window (the row's ctl=): session_test
	# arms the model's faults through it
	pf_ctl=$(mpc_key ctl)
	export MPC_QEMU_CTL="${pf_ctl:-0x090c8000}"
	for f in stdin:0 stdout:1 stderr:2; do
		[ -L "/dev/${f%:*}" ] || { rm -f "/dev/${f%:*}"; ln -s "/proc/self/fd/${f#*:}" "/dev/${f%:*}"; }
	done
	rm -rf "$pf_ks"
	mkdir -p "$pf_ks"
	read -r pf_t0 _ </proc/uptime
	echo "=== BEGIN $pf_sec"
	if ! tar -xzf /mpc/pf-kselftest.tar.gz -C "$pf_ks"; then
		echo "1..1"
		echo "not ok 1 kselftest_unpack # tar -xzf /mpc/pf-kselftest.tar.gz failed"
		echo "=== END $pf_sec rc=1"
		rc=1
		return 1
	fi
	(cd "$pf_ks" && ./run_kselftest.sh -c drivers/gpu/panfrost) 2>&1 | cat >"/tmp/$pf_sec.log"
	sed 's/^/# /' "/tmp/$pf_sec.log"
	awk -f /mpc/ktap-cases.awk "/tmp/$pf_sec.log" >"/tmp/$pf_sec.cases"
	pf_r=0 pf_n=0
	while IFS='	' read -r st name why; do
		pf_n=$((pf_n + 1))
		case $st in
		pass)	echo "ok $pf_n $name" ;;
		skip)	if pf_why=$(pf_allowed "$name"); then
				echo "ok $pf_n $name # SKIP on $(mpc_key product): $pf_why (the test: $why)"
			else
				echo "not ok $pf_n $name # skipped on the patched panfrost: $why"
				pf_r=1
			fi ;;
		*)	echo "not ok $pf_n $name${why:+ # $why}"; pf_r=1 ;;
		esac
	done <"/tmp/$pf_sec.cases"
	if [ "$pf_n" = 0 ]; then
		pf_n=1 pf_r=1
		echo "not ok 1 run_kselftest # the runner reported no case"
	fi
	read -r pf_t1 _ </proc/uptime
	echo "1..$pf_n"
	echo "=== END $pf_sec rc=$pf_r secs=$((${pf_t1%.*} - ${pf_t0%.*}))"
	[ "$pf_r" = 0 ] || rc=1
	return "$pf_r"
}

# pf_tool SEC: the tool (/mpc/user) on the patched panfrost as the TAP
# section SEC: it finds the sessions by the feature bit and reads the
# counters through them, the unstable ioctls only when asked
# (MPC_PANFROST_UNSTABLE=1). Needs a GPU at 50 % load (busy=50). The load
# runs no job, so the GPU is held runtime-active as jobs would hold it:
# sessions follow its power.
pf_tool() {
	pf_tool=/mpc/user/mali-perfcnt pf_sec=$1 pf_n=0 pf_f=0
	[ -x "$pf_tool" ] || return 0
	read -r pf_t0 _ </proc/uptime
	echo "=== BEGIN $pf_sec"
	pf_pm=
	for d in /sys/class/drm/renderD*/device; do
		[ "$(basename "$(readlink "$d/driver")")" = panfrost ] && pf_pm=$d/power/control
	done
	[ -n "$pf_pm" ] && echo on >"$pf_pm"
	mpc_bounded 60 "$pf_tool" --backend panfrost info >/tmp/info.out 2>&1
	sed 's/^/# /' /tmp/info.out
	pf_t "info: interface counter sessions (patched panfrost)" \
		grep -q '^interface  *counter sessions (patched panfrost)$' /tmp/info.out
	MPC_PANFROST_UNSTABLE=1 mpc_bounded 60 "$pf_tool" --backend panfrost info >/tmp/info2.out 2>&1
	pf_t "info with MPC_PANFROST_UNSTABLE=1: interface unstable perfcnt ioctls" \
		grep -q '^interface  *unstable perfcnt ioctls$' /tmp/info2.out
	mpc_bounded 60 "$pf_tool" --backend panfrost stat -e GPU_ACTIVE,JS0_ACTIVE --format csv \
		--masks jm=0xffff,tiler=0,shader=0,l2=0 -- sleep 0.5 >/tmp/stat.out 2>&1
	sed 's/^/# /' /tmp/stat.out
	# sample,time_s,interval_s,type,block,name,lgc_name,value,unit,status,data_flags
	# shellcheck disable=SC2016 # an awk program
	pf_t "stat through a session: GPU_ACTIVE > 0 at 50 % load over ~0.5 s, ok" \
		awk -F, '$6 == "GPU_ACTIVE" && $8 > 0 && $3 > 0.4 && $3 < 5 && $10 == "ok" { g = 1 }
			END { exit !g }' /tmp/stat.out
	# record: the kernel samples every 20 ms into a ring session's ring
	pf_t "info: record's kernel stream is the v3 session" \
		grep -q '^kernel_stream  *v3 session$' /tmp/info.out
	mpc_bounded 60 "$pf_tool" --backend panfrost record -I 20 -n 10 -e GPU_ACTIVE --format csv \
		-o /tmp/rec.csv >/tmp/rec.err 2>&1
	sed 's/^/# /' /tmp/rec.err
	pf_t "record -I 20 -n 10: through the v3 session, 0 samples lost, 0 failed" \
		grep -q 'record: 10 samples to /tmp/rec.csv (csv, kernel stream (v3 session)).* 0 samples lost, 0 failed' \
		/tmp/rec.err
	# shellcheck disable=SC2016 # an awk program
	pf_t "record: 10 samples of ~20 ms, status ok, GPU_ACTIVE > 0 at 50 % load" \
		awk -F, '$6 == "GPU_ACTIVE" { c++; s += $8; if ($10 != "ok" || $3 < 0.005 || $3 > 0.2) bad++ }
			END { exit !(c == 10 && !bad && s > 0) }' /tmp/rec.csv
	[ -n "$pf_pm" ] && echo auto >"$pf_pm"
	read -r pf_t1 _ </proc/uptime
	echo "1..$pf_n"
	echo "=== END $pf_sec rc=$pf_f secs=$((${pf_t1%.*} - ${pf_t0%.*}))"
	[ "$pf_f" = 0 ] || rc=1
	return "$pf_f"
}
pf_t() { # pf_t NAME CMD...: one case of pf_tool
	pf_n=$((pf_n + 1)) pf_name=$1
	shift
	if "$@"; then echo "ok $pf_n $pf_name"; else echo "not ok $pf_n $pf_name"; pf_f=1; fi
}
