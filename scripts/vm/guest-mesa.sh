#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# /mpc/run of a qemu-gpu Mesa VM (busybox sh): Debian's Mesa renders
# through the kernel's own panfrost.ko on the emulated GPU of
# -M virt,mali=PRODUCT, whose model runs the job chains (model/, "job
# slots"). The image has Mesa and /mpc/gles-client, /mpc/pf-fault
# (mkinitramfs.sh --mesa), panfrost (--in-tree panfrost), mpc_ctl
# (--selftests), the tool (--user-dir, optional) and /mpc/target (its row
# of scripts/targets: product=, mhz= the model's clock, frames= per run,
# default 20, ctl= the QEMU device's test-control window, default
# 0x090c8000). The QEMU device runs with mali-gpu.workload=idle: every
# count comes from the jobs.
#
# TAP sections:
#  mesa_client  gles-client renders FRAMES frames (EGL surfaceless, GLES2,
#               an FBO) with no job timeout, reset or fault in dmesg (nor
#               a power or AS command that timed out); the
#               jobs the kernel ran on each slot (dma_fence_init events of
#               the timelines panfrost-js-N, tracefs) are the chains the
#               model started, none failed
#  mesa_stat    (with the tool) mali-perfcnt stat -- gles-client through
#               panfrost's perfcnt: JS0_JOBS equals the fragment jobs the
#               kernel ran (one fragment job a chain), JS1_JOBS at least
#               its vertex/tiler chains, GPU_ACTIVE and JS0/JS1_ACTIVE
#               within 2 % of the time the model says its slots were busy
#  mesa_record  (with the tool) mali-perfcnt record --jobs -- gles-client
#               into Chrome trace events: one slice per job the kernel ran
#               (dma_fence_init of panfrost-js-N), and each slot's summed
#               slice time at least its JSn_ACTIVE summed over the same
#               recording (the ratio printed; not within 5 % on the model);
#               then with GLES 3.1 compute jobs of ~250 ms each, one
#               slice per job and their sum within 5 % of JS1_ACTIVE
#  mesa_faults  hand-written chains (pf-fault): a JOB_CONFIG_FAULT, an
#               unmapped head (MMU fault, the AS disabled), a job that
#               outlives panfrost's 500 ms timeout (soft stop, GPU reset):
#               each ends, dmesg says so, and gles-client renders again
#  mesa_patched (the row's patched=yes, with the tool) the stock panfrost
#               unloaded, the panfrost series' loaded (pf-lib.sh, pf_swap):
#               the client renders while the tool's record -I 50 samples
#               through a counter session's stream, then again between two
#               reads of debugfs's perfcnt_counters (debugfs the owner);
#               for each reader the checks of mesa_stat (counter_checks),
#               the stream's samples more than one and none lost or
#               flagged, the debugfs reads consecutive samples
# Exit status: 0 when every section passed.

# shellcheck source=guest-lib.sh
. /mpc/lib.sh
product=$(mpc_key product) mhz=$(mpc_key mhz) frames=$(mpc_key frames) ctl=$(mpc_key ctl)
frames=${frames:-20} ctl=${ctl:-0x090c8000}
export MPC_QEMU_CTL="$ctl"
export LD_LIBRARY_PATH=/usr/lib/aarch64-linux-gnu:/lib/aarch64-linux-gnu
export EGL_PLATFORM=surfaceless
ctl_tool=/mpc/selftests/mpc_ctl
client=/mpc/gles-client
tool=/mpc/user/mali-perfcnt
tr=/sys/kernel/tracing
tmp=/tmp/mesa
mkdir -p $tmp
rc=0

n=0 fails=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
notok() {
	n=$((n + 1)); fails=$((fails + 1))
	echo "not ok $n - $1"
	[ -n "${2:-}" ] && echo "# $2"
	return 0
}
check() {
	name=$1
	shift
	if "$@"; then ok "$name"; else notok "$name"; fi
}
begin() { echo "=== BEGIN $1"; n=0 fails=0; sec=$1; read -r sec_t0 _ </proc/uptime; }
end() {
	read -r sec_t1 _ </proc/uptime
	echo "1..$n"
	echo "=== END $sec rc=$((fails > 0)) secs=$((${sec_t1%.*} - ${sec_t0%.*}))"
	[ "$fails" -eq 0 ] || rc=1
}

# jobs FIELD SLOT: one number of the model's "jobs" report in $tmp/jobs
# (jsN=CHAINS/DONE/FAILED/JOBS/BUSY_NS ... busy_ns=NS); SLOT - for busy_ns
jobs_snap() { "$ctl_tool" jobs >"$tmp/jobs.$1" 2>&1; }
jobs_get() {
	tr ' ' '\n' <"$tmp/jobs.$1" | awk -F'[=/]' -v f="$2" -v s="$3" '
		s == "-" && $1 == "busy_ns" { print $2 }
		$1 == "js" s { print $(f + 1) }'
}
# jobs_delta FIELD SLOT: after - before (fields: 1 chains, 2 done, 3 failed,
# 4 jobs, 5 busy_ns)
jobs_delta() { echo $(($(jobs_get after "$1" "$2") - $(jobs_get before "$1" "$2"))); }

# The kernel's own count of the jobs it ran on slot N since trace_clear
trace_clear() { : >"$tr/trace"; }
kjobs() { grep -c "timeline=panfrost-js-$1 " "$tr/trace"; }

# dmesg lines since the mark, and whether any says the GPU was in trouble
dmesg_mark() { dmesg | wc -l >"$tmp/dmesg.mark"; }
dmesg_new() { dmesg | tail -n +"$(($(cat "$tmp/dmesg.mark") + 1))"; }
trouble='sched timeout|reset|fault|Fault|Unhandled|Soft-stop|js event|timed out|timeout|bit stuck'

# within_pct A B PCT: A is within PCT % of B (B > 0)
# shellcheck disable=SC2317 # called in the checks below
within_pct() {
	awk -v a="$1" -v b="$2" -v p="$3" 'BEGIN { d = a - b; if (d < 0) d = -d
		exit !(b > 0 && d * 100 <= p * b) }'
}

# csv_sum FILE NAME: counter NAME summed over the samples of the tool's csv
# (sample,time_s,interval_s,type,block,name,lgc_name,value,...)
# shellcheck disable=SC2317 # called through counter_checks
csv_sum() {
	awk -F, -v c="$2" '$4 == "counter" && $6 == c { v += $8; f = 1 }
		END { if (f) printf "%.0f\n", v }' "$1"
}

# counter_checks WHO FN: what a counter reader saw over one run of the
# client (between jobs_snap before/after, after trace_clear) against the
# kernel's jobs and the model's busy time; FN NAME prints the count of
# counter NAME over the run. JS0_JOBS is the fragment jobs the kernel ran
# (one a chain), JS1_JOBS at least its vertex/tiler chains, GPU_ACTIVE and
# JS0/JS1_ACTIVE within 2 % of the time the model says the GPU and its
# slots were busy (at the product's clock, mhz=).
counter_checks() {
	cc_who=${1:+$1: } cc_fn=$2
	k0=$(kjobs 0) k1=$(kjobs 1)
	j0=$($cc_fn JS0_JOBS) j1=$($cc_fn JS1_JOBS)
	check "${cc_who}JS0_JOBS $j0 = the $k0 fragment jobs the kernel ran" [ "${j0:-x}" = "$k0" ]
	check "${cc_who}JS1_JOBS $j1 >= the $k1 vertex/tiler jobs the kernel ran (> 0)" \
		[ "$k1" -gt 0 -a "${j1:-0}" -ge "$k1" ]
	for c in GPU_ACTIVE:- JS0_ACTIVE:0 JS1_ACTIVE:1; do
		name=${c%:*} slot=${c#*:}
		if [ "$slot" = - ]; then
			busy=$(jobs_delta 0 -)
		else
			busy=$(jobs_delta 5 "$slot")
		fi
		cyc=$($cc_fn "$name")
		ns=$(awk -v c="${cyc:-0}" -v m="$mhz" 'BEGIN { printf "%.0f", c * 1000 / m }')
		check "${cc_who}$name ${cyc:-?} cycles = $ns ns, within 2 % of the model's $busy ns busy" \
			within_pct "$ns" "$busy" 2
	done
}

# --- panfrost ------------------------------------------------------------------
echo "=== BEGIN mesa_load"
echo "1..1"
if modprobe panfrost unstable_ioctls=1; then
	echo "ok 1 modprobe_panfrost"
	echo "=== END mesa_load rc=0"
else
	echo "not ok 1 modprobe_panfrost # modprobe panfrost unstable_ioctls=1 failed"
	echo "=== END mesa_load rc=1"
	exit 1
fi
dmesg | grep -i -E 'panfrost|mali' | sed 's/^/# /'
echo "# $product at $mhz MHz, $frames frames a run, test control at $ctl"
mount -t tracefs nodev $tr 2>/dev/null
echo 1 >"$tr/events/dma_fence/dma_fence_init/enable" 2>/dev/null ||
	echo "# no dma_fence_init trace event: the kernel's job counts are unknown"

# --- the client ------------------------------------------------------------------
begin mesa_client
dmesg_mark
jobs_snap before
trace_clear
if mpc_bounded 300 "$client" -n "$frames" >"$tmp/client.out" 2>&1; then
	ok "gles-client renders $frames frames"
else
	notok "gles-client renders $frames frames" "$(head -n 5 "$tmp/client.out")"
fi
sed 's/^/# /' "$tmp/client.out"
jobs_snap after
check "GL_RENDERER is panfrost's Mali" grep -q 'renderer "Mali-[^"]*(Panfrost)"' "$tmp/client.out"
dmesg_new >"$tmp/dmesg.client"
if grep -E "$trouble" "$tmp/dmesg.client" >"$tmp/dmesg.bad"; then
	notok "no job timeout, reset or fault in dmesg" "$(head -n 5 "$tmp/dmesg.bad")"
else
	ok "no job timeout, reset or fault in dmesg"
fi
k0=$(kjobs 0) k1=$(kjobs 1)
c0=$(jobs_delta 1 0) c1=$(jobs_delta 1 1)
echo "# kernel: $k0 fragment, $k1 vertex/tiler jobs; model: $c0 and $c1 chains; $(cat "$tmp/jobs.after")"
check "the kernel ran at least $frames fragment and $frames vertex/tiler jobs" \
	[ "$k0" -ge "$frames" -a "$k1" -ge "$frames" ]
check "the model started a chain for each: JS0 $c0 = $k0, JS1 $c1 = $k1" \
	[ "$c0" = "$k0" -a "$c1" = "$k1" ]
check "each chain completed (DONE), none failed" \
	[ "$(jobs_delta 2 0)" = "$c0" -a "$(jobs_delta 2 1)" = "$c1" -a \
	  "$(jobs_delta 3 0)" = 0 -a "$(jobs_delta 3 1)" = 0 ]
end

# --- mali-perfcnt stat -- client ------------------------------------------------------
if [ -x "$tool" ] && [ -n "$mhz" ]; then
	begin mesa_stat
	jobs_snap before
	trace_clear
	ev=GPU_ACTIVE,JS0_JOBS,JS1_JOBS,JS0_ACTIVE,JS1_ACTIVE
	if mpc_bounded 300 "$tool" --backend panfrost stat --freq "$mhz" -e "$ev" \
		--format csv -- "$client" -n "$frames" >"$tmp/stat.out" 2>"$tmp/stat.err"; then
		ok "mali-perfcnt stat -- gles-client -n $frames"
	else
		notok "mali-perfcnt stat -- gles-client -n $frames" "$(head -n 3 "$tmp/stat.err")"
	fi
	jobs_snap after
	grep -v '^gles-client' "$tmp/stat.out" | sed 's/^/# /'
	# shellcheck disable=SC2317 # called through counter_checks
	val() { csv_sum "$tmp/stat.out" "$1"; }
	counter_checks "" val
	end
else
	echo "# no tool (--user-dir) or mhz: no mesa_stat section"
fi

# --- record --jobs: the kernel's jobs next to the counters ---------------------------
# jtrace FILE: "COUNTER SUM" for each counter's values and "QUEUE N US" for
# each job queue's X events (their count and summed dur) of a chrome-trace
jtrace() {
	awk '
	function field(s, k,   i, r) {
		i = index(s, "\"" k "\":")
		if (!i)
			return ""
		r = substr(s, i + length(k) + 3)
		sub(/^"/, "", r)
		sub(/["},].*$/, "", r)
		return r
	}
	/"name":"thread_name"/ { a = $0; sub(/.*"args":/, "", a); q[field($0, "tid")] = field(a, "name") }
	/"ph":"C"/ { n = field($0, "name"); v = $0; sub(/.*:/, "", v); sub(/}}.*/, "", v); c[n] += v }
	/"ph":"X"/ { t = field($0, "tid"); nj[t]++; d[t] += field($0, "dur") }
	END {
		for (n in c) printf "%s %.0f\n", n, c[n]
		for (t in nj) printf "%s %d %.3f\n", q[t], nj[t], d[t]
	}' "$1"
}
if [ -x "$tool" ] && [ -n "$mhz" ]; then
	begin mesa_record
	trace_clear
	# jobs long enough (~0.3-1 ms) that the kernel's latency around each
	# (fence made before the slot starts, signalled from the IRQ thread) is
	# small beside it; not so long that a counter dump waits behind them
	scene="-n 10 -s 1024x1024 -t 32768"
	# shellcheck disable=SC2086 # $scene is the client's options
	if mpc_bounded 300 "$tool" --backend panfrost record --jobs -I 10 --freq "$mhz" \
		-e JS0_ACTIVE,JS1_ACTIVE --format chrome-trace -o "$tmp/jobs.json" -- \
		"$client" $scene >"$tmp/rec.out" 2>"$tmp/rec.err"; then
		ok "mali-perfcnt record --jobs -- gles-client $scene"
	else
		notok "mali-perfcnt record --jobs -- gles-client $scene" "$(head -n 3 "$tmp/rec.err")"
	fi
	sed 's/^/# /' "$tmp/rec.err"
	jtrace "$tmp/jobs.json" >"$tmp/jobs.sum"
	sed 's/^/# trace: /' "$tmp/jobs.sum"
	for js in 0 1; do
		k=$(kjobs "$js")
		nj=$(awk -v q="panfrost-js-$js" '$1 == q { print $2 }' "$tmp/jobs.sum")
		us=$(awk -v q="panfrost-js-$js" '$1 == q { print $3 }' "$tmp/jobs.sum")
		cyc=$(awk -v c="JS${js}_ACTIVE" '$1 == c { print $2 }' "$tmp/jobs.sum")
		act=$(awk -v c="${cyc:-0}" -v m="$mhz" 'BEGIN { printf "%.3f", c / m }')
		check "panfrost-js-$js: ${nj:-no} slices for the $k jobs the kernel ran" \
			[ "${nj:-x}" = "$k" -a "$k" -gt 0 ]
		# The model's job time lies inside each slice; the slice also holds
		# the kernel's latency and the host timer's that completes the job
		# (which JSn_ACTIVE does not count): on a loaded TCG host it is not
		# within 5 % (see Documentation/design.rst), so this checks the bound
		# and prints the ratio.
		check "panfrost-js-$js: ${us:-?} us of slices hold JS${js}_ACTIVE ${cyc:-?} cycles = $act us ($(awk -v a="${us:-0}" -v b="$act" 'BEGIN { if (b > 0) printf "%.2fx", a / b }'))" \
			awk -v a="${us:-0}" -v b="$act" 'BEGIN { exit !(b > 0 && a >= b * 0.99) }'

	done
	# Compute jobs of ~250 ms of model time (GLES 3.1; not the T720's
	# GLES 2.0; panfrost's job timeout is 500 ms): the few ms of latency
	# around each are small beside it, so the slot's slices are its
	# JS1_ACTIVE within 5 %. An invocation takes 4 cycles, split over the
	# cores: Y rows of 65535 workgroups of 128 make it 250 ms.
	if grep -q 'version "OpenGL ES 3\.[1-9]' "$tmp/client.out"; then
		sp=$(dmesg | sed -n 's/.*shader_present=\(0x[0-9a-f]*\).*/\1/p' | head -n 1)
		y=$(awk -v sp="$((${sp:-1}))" -v m="$mhz" 'BEGIN {
			for (c = 0; sp > 0; sp = int(sp / 2)) c += sp % 2
			y = int(0.25 * m * 1e6 * c / 4 / (65535 * 128) + 0.5); print y < 1 ? 1 : y }')
		trace_clear
		cscene="-c 65535x$y -n 4"
		# shellcheck disable=SC2086 # $cscene is the client's options
		if mpc_bounded 300 "$tool" --backend panfrost record --jobs -I 10 --freq "$mhz" \
			-e JS1_ACTIVE --format chrome-trace -o "$tmp/cjobs.json" -- \
			"$client" $cscene >"$tmp/crec.out" 2>"$tmp/crec.err"; then
			ok "mali-perfcnt record --jobs -- gles-client $cscene"
		else
			notok "mali-perfcnt record --jobs -- gles-client $cscene" "$(head -n 3 "$tmp/crec.err")"
		fi
		sed 's/^/# /' "$tmp/crec.out" "$tmp/crec.err"
		jtrace "$tmp/cjobs.json" >"$tmp/cjobs.sum"
		sed 's/^/# trace: /' "$tmp/cjobs.sum"
		k=$(kjobs 1)
		nj=$(awk '$1 == "panfrost-js-1" { print $2 }' "$tmp/cjobs.sum")
		us=$(awk '$1 == "panfrost-js-1" { print $3 }' "$tmp/cjobs.sum")
		cyc=$(awk '$1 == "JS1_ACTIVE" { print $2 }' "$tmp/cjobs.sum")
		act=$(awk -v c="${cyc:-0}" -v m="$mhz" 'BEGIN { printf "%.3f", c / m }')
		check "compute: panfrost-js-1: ${nj:-no} slices for the $k jobs the kernel ran" \
			[ "${nj:-x}" = "$k" -a "$k" -ge 4 ]
		check "compute: panfrost-js-1: ${us:-?} us of slices within 5 % of JS1_ACTIVE ${cyc:-?} cycles = $act us" \
			within_pct "${us:-0}" "$act" 5
	else
		echo "# $(grep -o 'version "[^"]*"' "$tmp/client.out"): no compute shaders, no compute check"
	fi
	end
fi

# --- faults, each recovered ----------------------------------------------------------
begin mesa_faults
for f in ok:- config:"js fault" unmapped:"Unhandled Page fault" long:"sched timeout"; do
	mode=${f%%:*} want=${f#*:}
	dmesg_mark
	if mpc_bounded 60 /mpc/pf-fault "$mode" >"$tmp/pf.out" 2>&1; then
		ok "pf-fault $mode: the chain ended as it should"
	else
		notok "pf-fault $mode: the chain ended as it should" "$(cat "$tmp/pf.out")"
	fi
	sed 's/^/# /' "$tmp/pf.out"
	dmesg_new >"$tmp/dmesg.pf"
	sed -n '1,12s/^/#   /p' "$tmp/dmesg.pf"
	if [ "$want" = - ]; then
		if grep -E "$trouble" "$tmp/dmesg.pf" >/dev/null; then
			notok "pf-fault ok: nothing in dmesg"
		else
			ok "pf-fault ok: nothing in dmesg"
		fi
	else
		check "pf-fault $mode: dmesg says \"$want\"" grep -q "$want" "$tmp/dmesg.pf"
	fi
	if mpc_bounded 120 "$client" -n 2 >"$tmp/client.out" 2>&1; then
		ok "after pf-fault $mode: gles-client renders again"
	else
		notok "after pf-fault $mode: gles-client renders again" "$(head -n 3 "$tmp/client.out")"
	fi
done
end

# --- the patched panfrost: a stream and debugfs while the client renders --------
# (the row's patched=yes: /mpc/pf-panfrost.ko, /mpc/pf-lib.sh) The stock
# module out, the panfrost series' in, on the same device; then the checks
# of mesa_stat (counter_checks) for each reader of the core's counters:
# the tool's record, which on a patched panfrost samples through a counter
# session's stream (user/lib/be_panfrost.c), and debugfs's
# perfcnt_counters (kernel/core/mpc_debugfs.c), read before and after the
# client with debugfs owning the counters (the two exclude each other).
# pf_dbg FILE NAME: counter NAME of the jm block of a perfcnt_counters text
# ("jm timestamp=... enable=..." then "  INDEX VALUE" lines); its index on
# this GPU from the tool's database for the GPU_ID the device reports
# ($tmp/jm.csv: mali-perfcnt list --counters, type,block,index,name,...)
# shellcheck disable=SC2317 # called through counter_checks
pf_dbg() {
	i=$(awk -F, -v c="$2" '$2 == "jm" && $4 == c { print $3; exit }' "$tmp/jm.csv")
	[ -n "$i" ] || { echo "# no jm counter $2 in mali-perfcnt list" >&2; return; }
	awk -v i="$i" '
		/^[a-z]/ { jm = ($1 == "jm"); next }
		jm && $1 == i { v = $2 }
		END { print v + 0 }' "$1"
}
if [ -f /mpc/pf-panfrost.ko ] && [ -x "$tool" ] && [ -n "$mhz" ]; then
	# shellcheck source=pf-lib.sh
	. /mpc/pf-lib.sh
	if pf_swap; then
		begin mesa_patched
		dmesg | grep -i -E 'panfrost|mali' | tail -n 12 | sed 's/^/# patched: /'
		mpc_bounded 60 "$tool" --backend panfrost info >"$tmp/pinfo.out" 2>&1
		check "the tool reads the patched panfrost through counter sessions" \
			grep -q '^interface  *counter sessions (patched panfrost)$' "$tmp/pinfo.out"
		# the stream: record -I 50 (csv: stat's rows, a sample a row each)
		ev=GPU_ACTIVE,JS0_JOBS,JS1_JOBS,JS0_ACTIVE,JS1_ACTIVE
		jobs_snap before
		trace_clear
		if mpc_bounded 300 "$tool" --backend panfrost record -I 50 --freq "$mhz" -e "$ev" \
			--format csv -o "$tmp/prec.csv" -- "$client" -n "$frames" \
			>"$tmp/prec.out" 2>"$tmp/prec.err"; then
			ok "stream: mali-perfcnt record -I 50 -- gles-client -n $frames"
		else
			notok "stream: mali-perfcnt record -I 50 -- gles-client -n $frames" \
				"$(head -n 3 "$tmp/prec.err")"
		fi
		jobs_snap after
		sed 's/^/# /' "$tmp/prec.err"
		ns=$(grep -c ',counter,jm,GPU_ACTIVE,' "$tmp/prec.csv")
		echo "# stream: data_flags seen: $(awk -F, 'NR > 1 && $11 != "" { print $11 }' "$tmp/prec.csv" | sort -u | tr '\n' ' ')"
		check "stream: $ns samples, one every 50 ms (more than one)" [ "$ns" -ge 2 ]
		# shellcheck disable=SC2016 # an awk program
		check "stream: no sample lost or after a recovery" \
			awk -F, 'NR > 1 && $11 ~ /after-lost|after-recovery|after-power-loss|saturated/ { b = 1 }
				END { exit b }' "$tmp/prec.csv"
		# shellcheck disable=SC2317 # called through counter_checks
		rval() { csv_sum "$tmp/prec.csv" "$1"; }
		counter_checks stream rval
		# debugfs: its own owner of the counters, one sample a read
		"$tool" --backend panfrost list --counters --format csv >"$tmp/jm.csv" 2>&1
		dd=''
		for d in /sys/kernel/debug/dri/*; do
			[ "$(cut -d' ' -f1 "$d/name" 2>/dev/null)" = panfrost ] &&
				[ -e "$d/perfcnt_counters" ] && dd=$d && break
		done
		if [ -n "$dd" ] && echo 1 >"$dd/perfcnt_enable"; then
			ok "debugfs: echo 1 > $dd/perfcnt_enable"
			cat "$dd/perfcnt_counters" >"$tmp/dbg.before" 2>&1
			jobs_snap before
			trace_clear
			if mpc_bounded 300 "$client" -n "$frames" >"$tmp/dclient.out" 2>&1; then
				ok "debugfs: gles-client renders $frames frames"
			else
				notok "debugfs: gles-client renders $frames frames" "$(head -n 5 "$tmp/dclient.out")"
			fi
			jobs_snap after
			cat "$dd/perfcnt_counters" >"$tmp/dbg.after" 2>&1
			echo 0 >"$dd/perfcnt_enable"
			head -n 1 "$tmp/dbg.before" | sed 's/^/# before: /'
			sed -n '1,/^tiler/p' "$tmp/dbg.after" | sed 's/^/# after: /'
			# "seqno N timestamp_ns N interval_start_ns N data_flags 0x.."
			s0=$(awk 'NR == 1 && $1 == "seqno" { print $2 }' "$tmp/dbg.before")
			s1=$(awk 'NR == 1 && $1 == "seqno" { print $2 }' "$tmp/dbg.after")
			fl=$(awk 'NR == 1 && $1 == "seqno" { print $8 }' "$tmp/dbg.after")
			check "debugfs: the read after is the sample after the one before (${s0:-?}, ${s1:-?}), flags ${fl:-?} with no saturation, recovery or power loss" \
				[ -n "$s0" ] && [ "${s1:-x}" = $((s0 + 1)) ] && [ $((${fl:-8} & 7)) = 0 ]
			# shellcheck disable=SC2317 # called through counter_checks
			dval() { pf_dbg "$tmp/dbg.after" "$1"; }
			counter_checks debugfs dval
		else
			notok "debugfs: echo 1 > perfcnt_enable" "no panfrost directory with perfcnt_counters under /sys/kernel/debug/dri, or the write failed"
		fi
		end
	fi
fi

exit $rc
