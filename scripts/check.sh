#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The runner of the test matrix, scripts/targets: `make check` (VIEW check)
# and `make check-debug` (VIEW debug) are its two views.
#
#   scripts/check.sh [check|debug]      (T=GLOBS: other rows; T=list)
#
# Runs the rows of the view in the table's order: builds what a row needs
# once, runs host rows here and boots each boot row's guest as a background
# job (MPC_VM_JOBS at a time) while the next rows build, parses their TAP
# (scripts/tap-parse.awk) and, when every job has finished, prints a result
# line per row line, the output of every failing case, the skipped cases
# with their reasons, and ends with exactly one line "N passed, N failed" (a
# build that fails or a guest that does not report counts as a failed case);
# exits non-zero on any failure. Documentation/testing.rst, "The test
# matrix", has the rest: the keys, selecting, adding a target, every knob.
# shellcheck disable=SC2031 # vm_job's files are its own, on purpose
set -uo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"
cd "$MPC_ROOT" || exit 1

view=${1:-check}
case $view in
check|debug) ;;
*) die "usage: $0 [check|debug]" ;;
esac
t_start=$(date +%s)

# ---- the table -------------------------------------------------------------
# R[ROW.KEY]=VALUE for each row (scripts/targets.awk reads the table), rows
# in table order; R[ROW.sects]: the sections S of its sect.S keys.
declare -A R=()
rows=()
targets=$(awk -f "$MPC_ROOT/scripts/targets.awk" "$MPC_ROOT/scripts/targets") || exit 1
while IFS=$'\t' read -r r k v; do
	R[$r.$k]=$v
	[[ $k != sect.* || -z $v ]] || R[$r.sects]+=" ${k#sect.}"
	[ "$k" != keys ] || rows+=("$r")
done <<<"$targets"
key() { echo "${R[$1.$2]:-${3:-}}"; }

# The kernels of a row: one release per line.
row_kernels() {
	local since krel

	since=$(key "$1" since)
	case $(key "$1" kernels) in
	x86_64)	mpc_kernels ;;
	arm64)	mpc_arm64_kernels ;;
	debug)	echo "${MPC_DEBUG_KREL:-debug}" ;;
	esac | while read -r krel; do
		{ [ -z "$since" ] || printf '%s\n' "$since" "$(mpc_series "$krel")" | sort -CV; } && echo "$krel"
	done
}

# selected ROW [KREL]: whether the row (on KREL) runs: without T=, the
# rows of the view; with it, those of the view whose name or ROW@KREL one
# of its globs matches.
selected() {
	local g
	local -a globs

	[ "$(key "$1" view)" = "$view" ] || return 1
	[ -n "${T:-}" ] || { [ "$(key "$1" default yes)" = yes ]; return; }
	# split on commas and blanks, never expanded as file names (T='panfrost/*'
	# is a glob of rows, not of the repository's panfrost/ directory)
	IFS=$', \t' read -ra globs <<<"$T"
	for g in "${globs[@]}"; do
		# shellcheck disable=SC2053 # globs on purpose
		if [ -n "${2:-}" ]; then
			[[ $1 == $g || $1@$2 == $g ]] && return 0
		else
			[[ $1 == $g || $1 == ${g%%@*} ]] && return 0
		fi
	done
	return 1
}

if [ "${T:-}" = list ]; then
	awk -v list=1 -f scripts/targets.awk scripts/targets
	echo "kernels: x86_64 $(mpc_kernels | tr '\n' ' '); arm64 $(mpc_arm64_kernels | tr '\n' ' ')"
	exit 0
fi
wanted=()
for r in "${rows[@]}"; do
	selected "$r" && wanted+=("$r")
done
[ ${#wanted[@]} -gt 0 ] || die "T=$T: no row of view $view matches (T=list shows them)"
# What the rows need: arm64 kernels, the accelerator of x86_64 guests, QEMU
need_arm64=0 need_accel=0 need_qemu=0
for r in "${wanted[@]}"; do
	case $(key "$r" kernels) in
	arm64)	need_arm64=1 ;;
	x86_64|debug) need_accel=1 ;;
	esac
	[ "$(key "$r" gpu sim)" = sim ] || need_qemu=1
	[[ " $(key "$r" needs) " != *" qemu "* ]] || need_qemu=1
done

deps=()
[ "$need_arm64" = 1 ] || deps=(--no-arm64)
"$MPC_ROOT/scripts/deps.sh" "${deps[@]}" || die "scripts/deps.sh failed"
mkdir -p "$MPC_BUILD"
exec 9>"$MPC_BUILD/.check-$view.lock"
flock -n 9 || { log "check: waiting for another $view run"; flock 9; }

out=$MPC_BUILD/check
[ "$view" = debug ] && out=$MPC_BUILD/check-debug
rm -rf "$out"
mkdir -p "$out"
res=$out/results.tsv
faillog=$out/failures.log
touch "$out/.start" "$res" "$faillog" "$out/lines.tsv" "$out/jobs.tsv"
tap=$MPC_ROOT/scripts/tap-parse.awk

# ---- results ----------------------------------------------------------------
# results.tsv: SCOPE <TAB> pass|fail|skip <TAB> CASE <TAB> REASON. A job
# writes its own files (vm_job), appended in the order the jobs started.
fail_case() { # fail_case SCOPE CASE REASON [LOG]: LOG's tail in the failure log
	printf '%s\tfail\t%s\t%s\n' "$1" "$2" "$3" >>"$res"
	{
		echo "---- $1: $2 $3"
		[ -n "${4:-}" ] && [ -f "$4" ] && tail -n 60 "$4"
	} >>"$faillog"
}
# line SCOPE ROW [DIR [DESC]]: ROW counts in SCOPE's result line, DIR the
# guest's log directory whose seconds it shows, DESC what the line's section
# runs (scripts/results.awk prints the lines).
line() { # (in the table's order: prefixed with the row's index, sorted at the end)
	printf '%s\t%s\t%s\t%s\t%s\n' "$row_i" "$1" "$2" "${3:-}" "${4:-}" >>"$out/lines.tsv"
}

# ---- guests in the background -------------------------------------------------
vm_jobs=$(mpc_vm_jobs)
vm_job_n=0
vm_job() { # vm_job ARCH CMD...: the function CMD in a job with its own files
	local arch=$1 d

	shift
	vm_job_n=$((vm_job_n + 1))
	d=$out/jobs/$(printf '%03d' "$vm_job_n")
	mkdir -p "$d"
	echo "$arch" >"$d/arch"
	# host rows run while every slot is taken (vm_job of a host row waits)
	mpc_job_slot "$vm_jobs" run_queued_host
	# shellcheck disable=SC2030 # the job's own files
	(
		res=$d/results.tsv
		faillog=$d/failures.log
		touch "$res" "$faillog"
		t=$(date +%s)
		"$@"
		echo $(($(date +%s) - t)) >"$d/secs"
	) &
}
vm_jobs_wait() {
	local d

	wait
	for d in "$out"/jobs/*/; do
		[ -d "$d" ] || continue
		cat "$d/results.tsv" >>"$res" 2>/dev/null
		cat "$d/failures.log" >>"$faillog" 2>/dev/null
		[ -f "$d/secs" ] || fail_case "$(cat "$d/arch")" "vm/job-$(basename "$d")" \
			"a VM job ended without finishing (see its logs)"
		printf '%s\t%s\n' "$(cat "$d/arch")" "$(cat "$d/secs" 2>/dev/null)" >>"$out/jobs.tsv"
	done
}
# ---- builds, each once ---------------------------------------------------------
# build_X: build X; status 1, and a failed case, when it does not build.
declare -A built=()
have() { # have KEY CMD...: run CMD once, remember its status
	[ -n "${built[$1]+x}" ] || { "${@:2}"; built[$1]=$?; }
	return "${built[$1]}"
}
step() { # step SCOPE CASE REASON LOG CMD...: CMD >LOG; a failed case if it fails
	"${@:5}" >"$4" 2>&1 && return 0
	fail_case "$1" "$2" "$3" "$4"
	return 1
}
warnings() { # warnings SCOPE CASE LOG WHAT: a build's warnings fail
	grep -q 'warning:' "$3" || return 0
	grep -A3 'warning:' "$3" >"$3.warnings"
	fail_case "$1" "$2" "$(grep -c 'warning:' "$3") $4 warnings" "$3.warnings"
}
build_user() {
	log "== host: make -C user"
	step host build/user "make -C user failed" "$out/user-build.log" mpc_make_user x86_64 ""
}
declare -A st_dir=([x86_64]=$MPC_BUILD/selftests [arm64]=$MPC_BUILD/selftests-arm64)
build_selftests() { # ARCH
	log "== $1: make selftests"
	step "$1" build/selftests "selftests do not build" "$out/selftests-build-$1.log" \
		mpc_make_selftests "$1" "${st_dir[$1]}"
}
# The tool for arm64 guests: cross-built (a warning fails), installed in the
# guests from its arm64 packages (mkinitramfs.sh finds them in $ub/debs).
ub=$MPC_BUILD/user-arm64
build_user_arm64() {
	log "== arm64: make -C user (cross), make deb (cross)"
	rm -rf "$ub"
	step arm64 build/user "make -C user (arm64) failed" "$out/user-build-arm64.log" \
		mpc_make_user arm64 "$ub" all || return
	warnings arm64 build/user-warnings "$out/user-build-arm64.log" ""
	step arm64 build/deb "make deb (arm64) failed" "$out/deb-arm64.log" \
		env DEB_HOST_ARCH=arm64 MPC_LINTIAN=0 DEB_BUILD_OPTIONS=parallel=2 scripts/deb.sh || return
	mkdir -p "$ub/debs"
	cp "$MPC_BUILD"/deb/arm64/mali-perfcnt_*_arm64.deb \
	   "$MPC_BUILD"/deb/arm64/libmaliperfcnt1_*_arm64.deb "$ub/debs/"
}
# build_module KREL sim|hw: mali_perfcnt.ko in $MPC_BUILD/kmod/KREL[-hw], W=1
# (sparse on arm64, sparse C=2 and the KUnit module on the debug kernel); hw
# is the production build (MPC_SIM=0), kept while no source is newer.
build_module() {
	local krel=$1 kind=$2 kdir=$MPC_BUILD/kmod/$1 what="W=1" scope=$1 log
	local mk=(W=1)

	[ "$(mpc_arch "$krel")" = arm64 ] && mk+=(C=1) && what="W=1, sparse"
	[ "$krel" = "${MPC_DEBUG_KREL:-}" ] && mk+=(C=2) && what="W=1, sparse"
	if [ "$kind" = hw ]; then
		kdir+=-hw mk+=(MPC_SIM=0) scope="$krel qemu-gpu mali_perfcnt"
		[ -f "$kdir/mali_perfcnt.ko" ] &&
			[ -z "$(find kernel model uapi Kbuild -newer "$kdir/mali_perfcnt.ko" | head -n 1)" ] &&
			return 0
	fi
	log="$out/$krel/module-$kind.log"
	mkdir -p "$out/$krel"
	[ "$kind" = hw ] && what+=", MPC_SIM=0"
	log "== $krel: build mali_perfcnt.ko ($what)"
	if ! mpc_build_module "$krel" "$kdir" "$log" "${mk[@]}" ||
	   { [ "$krel" = "${MPC_DEBUG_KREL:-}" ] && [ ! -f "$kdir/mali_perfcnt_kunit.ko" ]; }; then
		fail_case "$scope" build/module "mali_perfcnt.ko does not build" "$log"
		return 1
	fi
	warnings "$scope" build/module-warnings "$log" "$what"
}
# The suite as a kernel kselftest package (scripts/kselftest-package.sh) for ARCH
build_kselftest() {
	log "== $1: scripts/kselftest-package.sh"
	step "$1" build/kselftest-package "the kselftest package does not build" \
		"$out/kselftest-package-$1.log" scripts/kselftest-package.sh --arch "$1"
}
build_pfseries() { # the series' panfrost.ko and kselftests: the pfseries/build row's, or built
	drain_host
	[ "$MPC_BUILD/pfseries/6.1/kselftest.tar.gz" -nt "$out/.start" ] &&
		[ "$MPC_BUILD/pfseries/6.12/kselftest.tar.gz" -nt "$out/.start" ] && return 0
	log "== arm64: scripts/panfrost-series.sh --artifacts (patched panfrost.ko)"
	step arm64 build/pfseries "the panfrost series does not build" "$out/pfseries-boot.log" \
		scripts/panfrost-series.sh --artifacts
}
build_qemu() {
	log "== arm64: scripts/qemu/build.sh (QEMU with the emulated Mali GPU)"
	qemu_bin=$(scripts/qemu/build.sh 2>"$out/qemu-build.log" | tail -n 1)
	[ -x "$qemu_bin" ] && return 0
	fail_case arm64 build/qemu "scripts/qemu/build.sh failed" "$out/qemu-build.log"
	return 1
}
# The debug kernel (cached, exported as one more kernel: mpc_debug_kernel)
# and the test tools its guests run.
dk=$MPC_ROOT/scripts/debug-kernel
build_debug() {
	local t

	log "== debug kernel"
	t=$(date +%s)
	if ! mpc_debug_kernel "$out/kernel.log"; then
		fail_case debug build/debug-kernel "the debug kernel does not build" "$out/kernel.log"
		return 1
	fi
	log "   $MPC_DEBUG_KREL ($(grep -m1 -o 'reusing\|building from scratch\|resuming' \
		"$out/kernel.log" || echo built), $(($(date +%s) - t))s)"
	for t in fail-nth fuzz; do
		step debug "build/$t" "tools/$t does not build" "$out/$t-build.log" \
			make -C "tools/$t" OUTPUT="$out/$t" || return
	done
	# The suites the KUnit module must report: every one its sources define.
	sed -n 's/^[[:space:]]*\.name = "\(mali_perfcnt_[a-z0-9_]*\)",$/\1/p' \
		kernel/tests/*.c >"$out/kunit-suites"
	[ -s "$out/kunit-suites" ] || fail_case debug build/kunit-suites "no KUnit suite found"
	echo "${MPC_FUZZ_ARGS:--n 1000000 -p 2 -u 3 -k}" >"$out/fuzz-args"
	echo "${MPC_TRINITY_ARGS:-}" >"$out/trinity-args"
	[ -x /usr/bin/trinity ] ||
		fail_case debug build/trinity "/usr/bin/trinity missing: run scripts/deps.sh"
}

# ---- host rows ------------------------------------------------------------------
# Queued (ROW INDEX), run while the guests' slots are full and at the end.
host_q=() in_host=''
run_queued_host() { # the next queued row, unless one runs; status 1: none run
	local row_i

	[ ${#host_q[@]} -gt 0 ] && [ -z "$in_host" ] || return 1
	row_i=${host_q[1]} in_host=1
	run_host "${host_q[0]}"
	in_host='' host_q=("${host_q[@]:2}")
}
drain_host() { # every queued host row, now (a boot row needs what one builds)
	while run_queued_host; do :; done
}
run_host() {
	local row=$1 scope c n
	local -a cmd

	scope=$(key "$row" line host)
	for n in $(key "$row" needs); do
		have "$n" "build_$n" || return
	done
	read -ra cmd <<<"$(key "$row" cmd)"
	cmd=("${cmd[@]/@qemu@/${qemu_bin:-}}")
	cmd=("${cmd[@]/@arm64-newest@/$(mpc_arm64_kernels | tail -n 1)}")
	# slot=yes: a command that boots a guest itself takes a guest's job slot
	if [ "$(key "$row" slot)" = yes ]; then
		vm_job arm64 run_host_cmd "$scope" "$row" "${cmd[@]}"
	elif [ ${#cmd[@]} -gt 0 ]; then
		run_host_cmd "$scope" "$row" "${cmd[@]}"
	fi
	# each=GLOB: every script it matches, a section of its own
	for c in $(key "$row" each); do
		[ -f "$c" ] && run_host_cmd "$scope" "$row/$(basename "$c" .sh)" bash "$c"
	done
	line "$scope" "$row"
}
run_host_cmd() { # SCOPE SECTION CMD...
	local log=$out/${2//\//-}.log rc

	log "== host: ${*:3}"
	"${@:3}" >"$log" 2>&1
	rc=$?
	awk -v scope="$1" -v section="$2" -v exit_rc=$rc -v faillog="$faillog" \
		-f "$tap" "$log" >>"$res"
	grep -q '^ok \|^not ok ' "$log" || fail_case "$1" "$2/no-tap" "${*:3} reported no test" "$log"
}

# ---- boot rows --------------------------------------------------------------------
# run_boot ROW KREL: build what the guest needs, its initramfs, then boot it
# in a job (boot_job).
run_boot() {
	local row=$1 krel=$2 arch driver gpu guest gout ko scope run k o s
	local -a args=() qargs=()

	arch=$(mpc_arch "$krel") driver=$(key "$row" driver) gpu=$(key "$row" gpu sim)
	guest=$(key "$row" guest)
	scope=$krel${R[$row.line]:+ $(key "$row" line)}
	gout=$out/$krel/${row//\//-}
	mkdir -p "$gout"
	have "st-$arch" build_selftests "$arch" && args+=(--selftests "${st_dir[$arch]}")
	# The tool, for its e2e sections (the sim row's e2e: e2e.sh on sim=g52).
	if [ -n "$(key "$row" sects)" ] || [ "$guest" = debug ] || [ "$(key "$row" tool)" = yes ]; then
		if [ "$arch" = arm64 ]; then
			have user-arm64 build_user_arm64 && args+=(--user-dir "$ub")
		else
			have user build_user && args+=(--user-dir "$MPC_ROOT/user/build")
		fi
	fi
	case $driver in
	mali_perfcnt)
		have "mod-$krel" build_module "$krel" sim || return
		ko=$MPC_BUILD/kmod/$krel/mali_perfcnt.ko
		# x86_64: the mali-perfcnt-dkms package's module when DKMS built it
		# (scripts/tests/deb_test.sh: same sources, no W=1), once the host
		# rows before have run.
		[ "$arch" = x86_64 ] && drain_host && [ -f "$MPC_BUILD/dkms/$krel/mali_perfcnt.ko" ] &&
			ko=$MPC_BUILD/dkms/$krel/mali_perfcnt.ko
		args+=(--module "$ko")
		# the kbase uAPI double of the same build, for e2e-kbase.sh
		ko=$MPC_BUILD/kmod/$krel/mpc_kbase_double.ko
		[ ! -f "$ko" ] || args+=(--file "$ko:/mpc/mpc_kbase_double.ko") ;;
	mali_perfcnt-hw)
		have "hw-$krel" build_module "$krel" hw || return
		args+=(--module "$MPC_BUILD/kmod/$krel-hw/mali_perfcnt.ko" --in-tree panfrost) ;;
	panfrost)
		args+=(--in-tree panfrost) ;;
	panfrost-patched)
		args+=(--in-tree panfrost) ;;
	esac
	# The series' panfrost.ko (its base: the kernel's series, 6.1 or 6.12)
	# and kselftests: instead of the kernel's module (driver=panfrost-patched)
	# or next to it, for the guest to swap in after the stock phase
	# (patched=yes, as /mpc/pf-panfrost.ko).
	if [ "$driver" = panfrost-patched ] || [ "$(key "$row" patched)" = yes ]; then
		have pfseries build_pfseries || return
		k=$MPC_BUILD/pfseries/$(mpc_series "$krel")
		if [ "$driver" = panfrost-patched ]; then
			args+=(--replace-module "$k/panfrost.ko")
		else
			args+=(--file "$k/panfrost.ko:/mpc/pf-panfrost.ko")
		fi
		args+=(--file "$k/kselftest.tar.gz:/mpc/pf-kselftest.tar.gz"
		       --file "$MPC_ROOT/scripts/kselftest/ktap-cases.awk:/mpc/ktap-cases.awk"
		       --file "$MPC_ROOT/scripts/vm/pf-lib.sh:/mpc/pf-lib.sh"
		       --file "$MPC_ROOT/scripts/vm/pf-skips:/mpc/pf-skips")
	fi
	if [ "$gpu" != sim ]; then
		have qemu build_qemu || return
		qargs+=(--qemu "$qemu_bin" --machine "mali=$gpu")
		# the device's options (-global mali-gpu.OPTION), those of empty keys left out
		for o in "workload=busy=$(key "$row" busy)" "workload=$(key "$row" workload)" \
			 $(key "$row" dev) "fault=$(key "$row" fault)"; do
			[[ $o == *= ]] || qargs+=(--qemu-arg -global --qemu-arg "mali-gpu.$o")
		done
	fi
	[ -z "$(key "$row" append)" ] || qargs+=(--append "$(key "$row" append)")
	[ -z "$(key "$row" parts)" ] || qargs+=(--append "mpc_parts=$(key "$row" parts)")
	# files=SRC:DEST...: @out@ is this run's output, @kmod@ the row's module build
	for o in $(key "$row" files); do
		o=${o//@out@/$out}
		args+=(--file "${o//@kmod@/$MPC_BUILD/kmod/$krel}")
	done
	# the guest's /mpc/target: the row's keys (scripts/targets.awk says which)
	awk -v target="$row" -v qgt=scripts/vm/qemu-gpu.target -f scripts/targets.awk scripts/targets \
		>"$gout/target"
	args+=(--file "$gout/target:/mpc/target")
	if [ -n "${MPC_SELFTEST_ARGS:-$(key "$row" selftest_args)}" ]; then
		echo "${MPC_SELFTEST_ARGS:-$(key "$row" selftest_args)}" >"$gout/selftest-args"
		args+=(--file "$gout/selftest-args:/mpc/selftest-args")
	fi
	# mesa=yes: Debian's arm64 Mesa and the GLES client (scripts/deps.sh --mesa, once)
	if [ "$(key "$row" mesa)" = yes ]; then
		have mesa step arm64 deps/mesa "scripts/deps.sh --mesa failed" "$out/deps-mesa.log" \
			scripts/deps.sh --mesa || return
		args+=(--mesa)
	fi
	if [ "$(key "$row" kselftest)" = yes ]; then
		have "ksft-$arch" build_kselftest "$arch" || return
		args+=(--file "$MPC_BUILD/kselftest-package/mali-perfcnt-kselftest-$arch.tar.gz:/mpc/kselftest.tar.gz")
	fi
	run=scripts/vm/guest-$guest.sh
	if [ "$guest" = debug ]; then
		run=$dk/guest-debug.sh
		[ -x /usr/bin/trinity ] &&
			args+=(--elf /usr/bin/trinity
			       --file "$dk/guest-trinity.sh:/mpc/debug/trinity.sh"
			       --file "$dk/trinity-calls:/mpc/debug/trinity-calls")
		[ -z "${MPC_TRINITY_ARGS:-}" ] ||
			args+=(--file "$out/trinity-args:/mpc/debug/trinity-args")
	fi
	log "== $krel: $row ($driver on ${gpu/sim/the simulator}, in the background)"
	vm_job "$arch" boot_job "$row" "$krel" "$scope" "$gout" "${qargs[@]}" -- \
		scripts/vm/mkinitramfs.sh --run "$run" "${args[@]}" "$krel" "$gout/initramfs.cpio.gz"
	line "$scope" "${row##*/}" "$gout/vm"
	k='|'
	for s in $(key "$row" sects); do
		# a row's sections that share a line name the row there once
		[[ $k != *"|$(key "$row" "sect.$s")|"* ]] || continue
		k+="$(key "$row" "sect.$s")|" o=''
		[ ! -f "user/tests/$s.sh" ] || o="user/tests/$s.sh on"
		line "$krel $(key "$row" "sect.$s")" "${row##*/}" "" "$o"
	done
}

# boot_job ROW KREL SCOPE GOUT [BOOT.SH OPTIONS...] -- MKINITRAMFS... (a VM
# job, whose results.tsv is its own): the initramfs, the boot, then the
# guest's TAP cases as SCOPE's "ROW/section/case", those of each section S
# of the row's sect.S keys as the line of sect.S; a section that reported
# nothing from a guest that finished fails there. The guest's exit status
# and the driver errors the model saw (mali_model_host_ops.report) are
# SCOPE's.
boot_job() {
	local row=$1 krel=$2 scope=$3 gout=$4 rc tmo s t n map=''
	local -a opts=()

	shift 4
	while [ "$1" != -- ]; do opts+=("$1"); shift; done
	shift
	step "$scope" "$row/vm/initramfs" "initramfs build failed" "$gout/initramfs.log" "$@" || return
	tmo=${MPC_VM_TIMEOUT:-$(key "$row" timeout 600)}
	t=$(date +%s)
	# the guest's CPU seconds (user, system) in vm/cpu: a TCG guest waits much of its time
	{ TIMEFORMAT='%U %S'; time scripts/vm/boot.sh "${opts[@]}" "$krel" \
		"$gout/initramfs.cpio.gz" "$gout/vm" "$tmo" 2>&3; } 3>&2 2>"$gout/vm.cpu"
	rc=$?
	mkdir -p "$gout/vm"
	echo $(($(date +%s) - t)) >"$gout/vm/secs"
	mv "$gout/vm.cpu" "$gout/vm/cpu"
	for s in $(key "$row" sects); do map+="$s=$krel $(key "$row" "sect.$s");"; done
	awk -v scope="$scope" -v prefix="$row/" -v map="$map" -v faillog="$faillog" \
		-f "$tap" "$gout/vm/output.log" >>"$res"
	case $rc in
	124)	fail_case "$scope" "$row/vm/timeout" "no result after ${tmo}s" "$gout/vm/console.log" ;;
	125)	fail_case "$scope" "$row/vm/no-report" "guest died without reporting (panic?)" \
			"$gout/vm/console.log" ;;
	126)	fail_case "$scope" "$row/vm/qemu-error" \
			"QEMU failed before the guest printed anything: $(head -n 1 "$gout/vm/qemu.out")" \
			"$gout/vm/qemu.out" ;;
	*)	[ "$rc" = 0 ] || grep -q $'\tfail\t' "$res" ||
			fail_case "$scope" "$row/vm/exit-status" \
				"the guest reported status $rc but no failing test" "$gout/vm/output.log"
		for s in $(key "$row" sects); do
			grep -q "^=== BEGIN $s\$" "$gout/vm/output.log" ||
				fail_case "$krel $(key "$row" "sect.$s")" "$row/$s/missing" \
					"the guest ran no $s section" "$gout/vm/output.log"
		done ;;
	esac
	n=$(grep -c 'mali_model: driver error' "$gout/vm/qemu.log" 2>/dev/null)
	[ "${n:-0}" = 0 ] || fail_case "$scope" "$row/model-reports" "$n driver errors" "$gout/vm/qemu.log"
}

# ---- the run ----------------------------------------------------------------------
[ "$need_arm64" = 0 ] || [ -n "${T:-}" ] ||
	[ "$(mpc_arm64_kernels)" = "$(mpc_arm64_wanted)" ] ||
	fail_case arm64 kernels "not all of $(mpc_arm64_wanted | tr '\n' ' ')in $MPC_ARM64_ROOT (scripts/deps.sh)"
[ -n "$(mpc_kernels)" ] || fail_case host kernels "no Debian 6.1/6.12 kernel installed"
# How the x86_64 guests run (KVM only where a probe guest ran): one line.
[ "$need_accel" = 0 ] || mpc_accel
# QEMU, when a row needs it, builds from the start in the background (a cold
# build takes minutes the first rows' guests leave idle); build_qemu waits.
[ "$need_qemu" = 0 ] || (nice -n 10 scripts/qemu/build.sh >/dev/null 2>"$out/qemu-prefetch.log" &)
# Rows in table order; consecutive rows of one result line kernel by kernel.
i=0
while [ $i -lt ${#wanted[@]} ]; do
	r=${wanted[$i]} group=("$r") row_i=$i
	while [ $((i + 1)) -lt ${#wanted[@]} ] &&
	      [ "$(key "${wanted[$((i + 1))]}" line)" = "$(key "$r" line)" ] &&
	      [ "$(key "${wanted[$((i + 1))]}" kernels)" = "$(key "$r" kernels)" ]; do
		i=$((i + 1)) group+=("${wanted[$i]}")
	done
	i=$((i + 1))
	if [ "$(key "$r" kind boot)" = host ]; then
		for g in "${group[@]}"; do host_q+=("$g" "$row_i"); done
		continue
	fi
	[ "$(key "$r" kernels)" != debug ] || have debug build_debug || continue
	for krel in $(row_kernels "$r"); do
		for g in "${group[@]}"; do
			selected "$g" "$krel" || continue
			[[ $'\n'$(row_kernels "$g")$'\n' == *$'\n'$krel$'\n'* ]] || continue
			case $(key "$g" kind boot) in
			build)	have "mod-$krel" build_module "$krel" sim &&
					echo "$krel: module built (W=1, sparse); suite on the QEMU GPU (mpc/*)" ;;
			*)	run_boot "$g" "$krel" ;;
			esac
		done
	done
done
drain_host
vm_jobs_wait
sort -s -t $'\t' -n -k1,1 "$out/lines.tsv" | cut -f2- >"$out/lines.tmp" && mv "$out/lines.tmp" "$out/lines.tsv"
awk -F'\t' -v part=lines -v root="$MPC_ROOT" -f scripts/results.awk "$out/lines.tsv" "$res"
# the debug guests' instruments: KUnit per suite, fail-nth, kmemleak, the fuzzers
[ "$view" != debug ] || find "$out" -mindepth 4 -maxdepth 4 -path '*/debug-*/vm/output.log' -print0 |
	sort -z | xargs -0 awk -f "$dk/report.awk" "$res"
awk -F'\t' -v part=summary -v faillog="$faillog" -v secs=$(($(date +%s) - t_start)) \
	-v vm_jobs="$vm_jobs" -v out="${out#"$MPC_ROOT"/}" -f scripts/results.awk "$res" "$out/jobs.tsv"
