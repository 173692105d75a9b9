#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# `make check`: host unit tests (user/ and scripts/tests/), then for every Debian kernel of each
# architecture (x86_64: the newest installed 6.1 and 6.12; arm64: the same
# releases' arm64 packages, cross-built, see scripts/deps.sh) build
# mali_perfcnt.ko with W=1 (arm64: and sparse), boot a QEMU VM and run the
# kselftest suite and the userspace end-to-end test inside it. On arm64
# sim_test runs a second time with pgtable=builtin, so both translation
# table writers are proven against the simulator's table walk.
#
# Prints per-kernel results, the TAP output of every failing test, the
# skipped tests with their reasons, the guests' time per architecture, and
# ends with exactly one line "N passed, N failed" (TAP test cases over the
# host and every kernel; a build that fails or a VM that does not report
# counts as a failed case). Exits non-zero on any failure.
#
# Environment: MPC_ARCHES="x86_64 arm64" (the default) limits the
# architectures, MPC_KERNELS="rel ..." the kernels (e.g. 6.1.0-57-arm64),
# MPC_SELFTEST_ARGS passes harness options (e.g. "-v g52 -t
# busy50_gpu_active_ratio"), MPC_VM_TIMEOUT bounds each boot in seconds
# (default 720 on x86_64, 1200 on arm64), MPC_VM_JOBS how many guests run
# at once (default: the number of cores, at most 4; each VM boot is a
# background job, its results merged in the order the boots were started,
# the result lines printed when all have finished). On arm64 the suite runs on the
# QEMU GPU (each arm64 kernel, the real-hardware path, below), not against
# the in-module simulator, whose suite the x86_64 kernels run: the arm64
# module is built (W=1, sparse); MPC_ARM64_SIM=newest (or all) adds the
# simulator's suite on the newest (or each) arm64 kernel, ~7 min a kernel.
#
# The tool's user/tests/e2e.sh in the VM of each kernel counts in a line of
# its own, "<release> e2e: N passed, ...".
#
# The qemu-gpu targets: on each arm64 kernel, the kernel's own panfrost.ko
# on the emulated Mali GPU of the project's QEMU (scripts/qemu/build.sh,
# built here when its cache is cold), one boot per product, one result line
# "<release> qemu-gpu panfrost: N passed, ..." per kernel. MPC_QEMU_GPUS
# ("g52 t720", "none") limits the products; MPC_QEMU_GPU_ONLY=1 runs only
# these targets (no host tests, module builds or mali_perfcnt VMs). When
# the tool is cross-built, its user/tests/e2e-panfrost.sh runs in the
# guests of t720, g52 and g57 (MPC_QEMU_E2E="..." names others), its
# results in the line "<release> qemu-gpu panfrost e2e: ...".
#
# The qemu-gpu mali_perfcnt targets: on each arm64 kernel, mali_perfcnt.ko
# bound to the same emulated GPU through the device tree (bind=, no sim=;
# the module is built without the simulator, MPC_SIM=0),
# one boot per product (t720, g71, g52, g57; MPC_QEMU_GPUS limits them
# too), the kselftest suite, bind_test, and on the G52 e2e.sh and
# side-by-side.sh (the tool through panfrost, then through mali_perfcnt, on
# the same GPU and load: the rates agree within 1 %); per kernel the
# result lines "<release> qemu-gpu mali_perfcnt: N passed, ...",
# "<release> qemu-gpu mali_perfcnt e2e: ..." and
# "<release> qemu-gpu side-by-side: ...".
set -uo pipefail
. "$(dirname "$0")/lib.sh"
cd "$MPC_ROOT" || exit 1

t_start=$(date +%s)
"$MPC_ROOT/scripts/deps.sh" || die "scripts/deps.sh failed"

# One make check at a time: they share build/check and build/kmod.
mkdir -p "$MPC_BUILD"
exec 9>"$MPC_BUILD/.check.lock"
flock -n 9 || { log "check: waiting for another make check"; flock 9; }

out=$MPC_BUILD/check
rm -rf "$out"
mkdir -p "$out"
res=$out/results.tsv
faillog=$out/failures.log
: >"$res"
: >"$faillog"
tap=$MPC_ROOT/scripts/tap-parse.awk
a64root=$MPC_ARM64_ROOT
declare -A st_dir=([x86_64]=$MPC_BUILD/selftests [arm64]=$MPC_BUILD/selftests-arm64)
declare -A have_st=() user_dir=()

# fail_case SCOPE NAME REASON [LOG]: one failed case, LOG shown on the host.
fail_case() {
	printf '%s\tfail\t%s\t%s\n' "$1" "$2" "$3" >>"$res"
	{
		echo "---- $1: $2 $3"
		[ -n "${4:-}" ] && [ -f "$4" ] && tail -n 60 "$4"
	} >>"$faillog"
}

count() { # count SCOPE STATUS
	awk -F'\t' -v s="$1" -v st="$2" \
		'($1 == s || s == "") && $2 == st { n++ } END { print n + 0 }' "$res"
}


# The guests run in the background, $vm_jobs at a time (MPC_VM_JOBS,
# scripts/lib.sh), while the main loop goes on building. vm_job ARCH CMD...
# runs the function CMD in a job of its own whose fail_case and count use
# the job's own results and failures files (so jobs never write one file
# together); vm_jobs_wait waits for them all and appends their files to
# $res and $faillog in the order the jobs were started, so the report reads
# the same whatever finished first. Job N's directory $out/jobs/N also
# keeps its ARCH and its seconds.
vm_jobs=$(mpc_vm_jobs)
vm_job_n=0
vm_job() {
	local arch=$1 d
	shift
	vm_job_n=$((vm_job_n + 1))
	d=$out/jobs/$(printf '%03d' "$vm_job_n")
	mkdir -p "$d"
	echo "$arch" >"$d/arch"
	mpc_job_slot "$vm_jobs"
	# shellcheck disable=SC2030 # the job's own files, on purpose
	(
		res=$d/results.tsv
		faillog=$d/failures.log
		: >"$res"
		: >"$faillog"
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
	done
}
# guest_secs ARCH: the seconds its guests' jobs took, added up.
guest_secs() {
	local d n=0

	for d in "$out"/jobs/*/; do
		[ -f "$d/secs" ] && [ "$(cat "$d/arch")" = "$1" ] &&
			n=$((n + $(cat "$d/secs")))
	done
	echo "$n"
}

# Result lines are printed when every job has finished: summ SCOPE TEXT
# [VMDIR...] records one, TEXT's @VM@ then becoming the seconds of the
# boots logged in the VMDIRs (boot_secs writes them).
sum_scope=() sum_text=() sum_vms=()
summ() {
	sum_scope+=("$1")
	sum_text+=("$2")
	shift 2
	sum_vms+=("$*")
}
summ_print() {
	local i d n text

	for i in "${!sum_scope[@]}"; do
		n=0
		for d in ${sum_vms[$i]}; do
			[ -f "$d/secs" ] && n=$((n + $(cat "$d/secs")))
		done
		text=${sum_text[$i]}
		result_line "${sum_scope[$i]}" "${text//@VM@/${n}s}"
	done
}

# rescope PREFIX SECTION=SCOPE2...: filter results.tsv lines (stdin to
# stdout), counting the cases named PREFIX<SECTION>/... as SCOPE2's.
rescope() {
	local pre=$1 map='' m
	shift
	for m in "$@"; do map+="$m;"; done
	awk -F'\t' -v OFS='\t' -v pre="$pre" -v map="$map" '
		BEGIN {
			n = split(map, kv, ";")
			for (i = 1; i <= n; i++)
				if (kv[i] != "") {
					e = index(kv[i], "=")
					to[substr(kv[i], 1, e - 1)] = substr(kv[i], e + 1)
				}
		}
		{
			sec = substr($3, length(pre) + 1)
			sub(/\/.*/, "", sec)
			if (sec in to)
				$1 = to[sec]
			print
		}'
}

# result_line SCOPE TEXT: "SCOPE: N passed, N failed, N skipped (TEXT)"
result_line() {
	echo "$1: $(count "$1" pass) passed, $(count "$1" fail) failed," \
		"$(count "$1" skip) skipped ($2)"
}

kernels=${MPC_KERNELS:-$(mpc_check_kernels)}
[ -n "$kernels" ] || fail_case host kernels "no Debian 6.1/6.12 kernel installed"
if [ -z "${MPC_KERNELS:-}" ] && mpc_want_arch arm64 &&
   [ "$(mpc_arm64_kernels)" != "$(mpc_arm64_wanted)" ]; then
	fail_case arm64 kernels "not all of $(mpc_arm64_wanted | tr '\n' ' ')in $a64root (scripts/deps.sh)"
fi
arches=$(for krel in $kernels; do mpc_arch "$krel"; done | sort -u)
# How the x86_64 guests run (KVM only where a probe guest ran): one line.
case " $arches " in
*" x86_64 "*) mpc_accel ;;
esac

# 1. Userspace: build, host unit tests.
have_user=0
gpu_only=${MPC_QEMU_GPU_ONLY:-0}
[ -f user/Makefile ] && have_user=1
if [ "$have_user" = 1 ] && [ "$gpu_only" != 1 ]; then
	log "== host: make -C user"
	if ! make -C user -j2 >"$out/user-build.log" 2>&1; then
		fail_case host build/user "make -C user failed" "$out/user-build.log"
	fi
	log "== host: make -C user test"
	make -C user test >"$out/user-test.log" 2>&1
	rc=$?
	awk -v scope=host -v section=user-unit -v exit_rc=$rc \
		-v faillog="$faillog" -f "$tap" "$out/user-test.log" >>"$res"
fi
# The test scripts' own tests (e.g. the accelerator probe, with a fake QEMU).
for t in scripts/tests/*_test.sh; do
	name=$(basename "$t" .sh)
	log "== host: $t"
	bash "$t" >"$out/$name.log" 2>&1
	rc=$?
	awk -v scope=host -v section="scripts-$name" -v exit_rc=$rc \
		-v faillog="$faillog" -f "$tap" "$out/$name.log" >>"$res"
done
echo "host: $(count host pass) passed, $(count host fail) failed," \
	"$(count host skip) skipped"

# 1b. The GPU model as plain userspace C (-Wall -Wextra -Werror), and its
# host unit tests.
log "== host: make -C model check"
make -C model check >"$out/model-test.log" 2>&1
rc=$?
awk -v scope=host -v section=model-unit -v exit_rc=$rc \
	-v faillog="$faillog" -f "$tap" "$out/model-test.log" >>"$res"
grep -q '^ok \|^not ok ' "$out/model-test.log" ||
	fail_case host build/model "make -C model check failed" "$out/model-test.log"
echo "host: model: $(awk -F'\t' '$1 == "host" && $3 ~ /^model-unit/ && $2 == "pass" { n++ } END { print n + 0 }' "$res") passed," \
	"$(awk -F'\t' '$1 == "host" && $3 ~ /^model-unit/ && $2 == "fail" { n++ } END { print n + 0 }' "$res") failed"

# 2. The selftests (static binaries, run in the VMs) and, for arm64, the
# tool, cross-built against the arm64 libdrm and libkmod (a warning fails).
for arch in $arches; do
	have_st[$arch]=1
	mk=(-C selftests/drivers/gpu/mali_perfcnt -j2 OUTPUT="${st_dir[$arch]}")
	[ "$arch" = arm64 ] && mk+=(CC="${MPC_ARM64_CROSS}gcc"
		LIBDRM_CFLAGS="-I$a64root/usr/include/libdrm")
	log "== $arch: make selftests"
	if ! make "${mk[@]}" >"$out/selftests-build-$arch.log" 2>&1; then
		fail_case "$arch" build/selftests "selftests do not build" \
			"$out/selftests-build-$arch.log"
		have_st[$arch]=0
	fi
	user_dir[$arch]=''
	if [ "$arch" = x86_64 ] && [ "$have_user" = 1 ]; then
		user_dir[$arch]=$MPC_ROOT/user/build
	elif [ "$arch" = arm64 ] && [ "$have_user" = 1 ]; then
		ub=$MPC_BUILD/user-arm64
		log "== arm64: make -C user (cross)"
		rm -rf "$ub"
		if ! PKG_CONFIG_SYSROOT_DIR=$a64root \
		     PKG_CONFIG_LIBDIR=$a64root/usr/lib/aarch64-linux-gnu/pkgconfig:$a64root/usr/share/pkgconfig \
		     make -C user -j2 O="$ub" CC="${MPC_ARM64_CROSS}gcc" \
			AR="${MPC_ARM64_CROSS}ar" \
			LDFLAGS="-L$a64root/usr/lib/aarch64-linux-gnu -Wl,-rpath-link,$a64root/lib/aarch64-linux-gnu:$a64root/usr/lib/aarch64-linux-gnu" \
			all >"$out/user-build-arm64.log" 2>&1; then
			fail_case arm64 build/user "make -C user (arm64) failed" \
				"$out/user-build-arm64.log"
		elif grep -q 'warning:' "$out/user-build-arm64.log"; then
			grep -A3 'warning:' "$out/user-build-arm64.log" \
				>"$out/user-warnings-arm64.log"
			fail_case arm64 build/user-warnings \
				"$(grep -c 'warning:' "$out/user-build-arm64.log") warnings" \
				"$out/user-warnings-arm64.log"
		fi
		# The guests install the tool from its arm64 packages (mkinitramfs.sh
		# finds them in $ub/debs).
		log "== arm64: make deb (cross)"
		if DEB_HOST_ARCH=arm64 MPC_LINTIAN=0 DEB_BUILD_OPTIONS=parallel=2 \
		   scripts/deb.sh >"$out/deb-arm64.log" 2>&1; then
			mkdir -p "$ub/debs"
			cp "$MPC_BUILD"/deb/arm64/mali-perfcnt_*_arm64.deb \
			   "$MPC_BUILD"/deb/arm64/libmaliperfcnt1_*_arm64.deb "$ub/debs/"
		else
			fail_case arm64 build/deb "make deb (arm64) failed" "$out/deb-arm64.log"
		fi
		user_dir[$arch]=$ub
	fi
done

# kernel_boot KREL KOUT TIMEOUT (a VM job): boot the initramfs of KOUT on
# KREL's kernel, the suite's results as KREL's, e2e.sh's as "KREL e2e".
kernel_boot() {
	local krel=$1 kout=$2 tmo=$3 rc nf0

	boot_secs "$kout/vm" scripts/vm/boot.sh "$krel" "$kout/initramfs.cpio.gz" \
		"$kout/vm" "$tmo"
	rc=$?
	nf0=$(count "" fail)
	# The tool's e2e.sh (through our module on the simulator): a line of its own.
	awk -v scope="$krel" -v faillog="$faillog" -f "$tap" \
		"$kout/vm/output.log" | rescope "" "e2e=$krel e2e" >>"$res"
	case $rc in
	124)	fail_case "$krel" vm/timeout "no result after ${tmo}s" \
			"$kout/vm/console.log" ;;
	125)	fail_case "$krel" vm/no-report "guest died without reporting (panic?)" \
			"$kout/vm/console.log" ;;
	126)	fail_case "$krel" vm/qemu-error \
			"QEMU failed before the guest printed anything: $(head -n 1 "$kout/vm/qemu.out")" \
			"$kout/vm/qemu.out" ;;
	0)	;;
	*)	# e.g. the guest runner died before its first section
		[ "$(count "" fail)" -gt "$nf0" ] ||
			fail_case "$krel" vm/exit-status \
				"the guest reported status $rc but no failing test" \
				"$kout/vm/output.log" ;;
	esac
}

# boot_secs LOGDIR CMD...: run CMD, its seconds in LOGDIR/secs; CMD's status.
boot_secs() {
	local dir=$1 t rc
	shift
	t=$(date +%s)
	"$@"
	rc=$?
	mkdir -p "$dir"
	echo $(($(date +%s) - t)) >"$dir/secs"
	return $rc
}

# 3. Each kernel: module build, VM run.
a64_sim_krel=$(for k in $kernels; do [ "$(mpc_arch "$k")" = arm64 ] && echo "$k"; done |
	sort -V | tail -n 1)
for krel in $kernels; do
	[ "$gpu_only" = 1 ] && break
	arch=$(mpc_arch "$krel")
	kout=$out/$krel
	kdir=$MPC_BUILD/kmod/$krel
	mkdir -p "$kout"
	kmake=(KDIR="$(mpc_kdir "$krel")" W=1)
	# shellcheck disable=SC2207 # ARCH=... CROSS_COMPILE=..., no spaces
	kmake+=($(mpc_kmake_args "$krel"))
	what="W=1"
	if [ "$arch" = arm64 ]; then
		# The issue's endianness/width checks: sparse on arm64.
		kmake+=(C=1)
		what="W=1, sparse"
	fi
	log "== $krel: build mali_perfcnt.ko ($what)"
	mpc_copy_kernel_tree "$kdir"
	if ! make -C "$kdir" "${kmake[@]}" -j2 >"$kout/build.log" 2>&1 ||
			[ ! -f "$kdir/mali_perfcnt.ko" ]; then
		fail_case "$krel" build/module "mali_perfcnt.ko does not build" \
			"$kout/build.log"
		continue
	fi
	if grep -q 'warning:' "$kout/build.log"; then
		grep -A3 'warning:' "$kout/build.log" >"$kout/warnings.log"
		fail_case "$krel" build/module-warnings \
			"$(grep -c 'warning:' "$kout/build.log") $what warnings" \
			"$kout/warnings.log"
	fi

	# arm64: every arm64 kernel runs the suite against the QEMU GPU (step
	# 5, qemu-gpu mali_perfcnt), the same driver through its real-hardware
	# path with io-pgtable tables as here; the simulator's suite (which the
	# x86_64 kernels run) only with MPC_ARM64_SIM=newest|all, or when there
	# is no QEMU GPU target (MPC_QEMU_GPUS=none). Keeps a warm .ci/run in
	# its budget.
	a64_sim=${MPC_ARM64_SIM:-none}
	if [ "$arch" = arm64 ] && [ "${MPC_QEMU_GPUS:-}" != none ] &&
	   { [ "$a64_sim" = none ] ||
	     { [ "$a64_sim" != all ] && [ "$krel" != "$a64_sim_krel" ]; }; }; then
		log "== $krel: the suite runs on the QEMU GPU (MPC_ARM64_SIM=newest|all adds the simulator's)"
		echo "$krel: module built (W=1, sparse); suite on the QEMU GPU below"
		continue
	fi

	args=()
	[ "${have_st[$arch]}" = 1 ] && args+=(--selftests "${st_dir[$arch]}")
	[ -n "${user_dir[$arch]}" ] && args+=(--user-dir "${user_dir[$arch]}")
	if [ -n "${MPC_SELFTEST_ARGS:-}" ]; then
		echo "$MPC_SELFTEST_ARGS" >"$kout/selftest-args"
		args+=(--file "$kout/selftest-args:/mpc/selftest-args")
	fi
	if [ "$arch" = arm64 ]; then
		# auto = io-pgtable here; prove the builtin writer too.
		echo builtin >"$kout/sim-pgtables"
		args+=(--file "$kout/sim-pgtables:/mpc/sim-pgtables")
	fi
	# x86_64: the suite loads the mali-perfcnt-dkms package's module when
	# DKMS built it (scripts/tests/deb_test.sh, same sources, no W=1).
	ko=$kdir/mali_perfcnt.ko
	if [ "$arch" = x86_64 ] && [ -f "$MPC_BUILD/dkms/$krel/mali_perfcnt.ko" ]; then
		ko=$MPC_BUILD/dkms/$krel/mali_perfcnt.ko
		log "== $krel: the guest loads the DKMS-built mali_perfcnt.ko ($ko)"
	fi
	if ! scripts/vm/mkinitramfs.sh --module "$ko" \
			--run scripts/vm/guest-check.sh "${args[@]}" \
			"$krel" "$kout/initramfs.cpio.gz" >"$kout/initramfs.log" 2>&1; then
		fail_case "$krel" vm/initramfs "initramfs build failed" \
			"$kout/initramfs.log"
		continue
	fi

	tmo=720
	[ "$arch" = arm64 ] && tmo=1200
	tmo=${MPC_VM_TIMEOUT:-$tmo}
	log "== $krel: boot QEMU ($arch) and run the tests (in the background)"
	vm_job "$arch" kernel_boot "$krel" "$kout" "$tmo"
	summ "$krel" "VM @VM@, logs in ${kout#"$MPC_ROOT"/}" "$kout/vm"
	[ -z "${user_dir[$arch]}" ] ||
		summ "$krel e2e" "user/tests/e2e.sh, mali_perfcnt sim=g52"
done

# 4. qemu-gpu: the arm64 kernels' own panfrost.ko on the emulated Mali GPU
# of our QEMU (scripts/qemu/build.sh, built when its cache is cold), one
# boot per (kernel, product). Columns: product, the oldest kernel series
# whose panfrost knows it, the product's GPU_ID, v4 layout, and the
# device's options; the guest checks what they say
# (/mpc/panfrost-expect). g31 and g52 have the narrow VA widths of real
# RK356x/MediaTek integrations (MMU_FEATURES 0x2821/0x2823).
qemu_gpus=(
	"t720 6.1 0x07201000 1 shader-present=0x3 l2-slices=1 mhz=600 va-bits=48 pa-bits=40"
	"t860 6.1 0x08602000 0 shader-present=0xf l2-slices=1 mhz=800 va-bits=48 pa-bits=40"
	"g31 6.1 0x70930000 0 shader-present=0x3 l2-slices=1 mhz=650 va-bits=33 pa-bits=40"
	"g52 6.1 0x72120000 0 shader-present=0xb l2-slices=2 mhz=800 va-bits=35 pa-bits=40"
	"g72 6.1 0x62210030 0 shader-present=0x7 l2-slices=1 mhz=800 va-bits=48 pa-bits=40"
	"g57 6.12 0x90930000 0 shader-present=0x1f l2-slices=1 mhz=950 va-bits=48 pa-bits=40"
)
# Boots with a fault of the model armed (mali-gpu.fault): product, fault;
# panfrost_test then runs only its test fault_<fault>.
qemu_faults=("g52 drop_irq")
qemu_busy=50
# The layouts the tool must get right: v4, sparse cores with two L2
# slices, Valhall.
qemu_e2e=${MPC_QEMU_E2E:-t720 g52 g57}
a64_kernels=$(for krel in $kernels; do [ "$(mpc_arch "$krel")" = arm64 ] && echo "$krel"; done)
[ "${MPC_QEMU_GPUS:-}" = none ] && a64_kernels=''
qemu_bin=''
if [ -n "$a64_kernels" ] && [ "${have_st[arm64]:-0}" = 1 ]; then
	log "== arm64: scripts/qemu/build.sh (QEMU with the emulated Mali GPU)"
	if ! qemu_bin=$(scripts/qemu/build.sh 2>"$out/qemu-build.log" | tail -n 1) ||
	   [ ! -x "$qemu_bin" ]; then
		fail_case arm64 build/qemu "scripts/qemu/build.sh failed" "$out/qemu-build.log"
		qemu_bin=''
	fi
	if [ -n "$qemu_bin" ]; then
		# The board's GPU node and the device's options, no guest.
		log "== arm64: scripts/qemu/device-test.sh"
		scripts/qemu/device-test.sh "$qemu_bin" >"$out/qemu-device-test.log" 2>&1
		rc=$?
		awk -v scope="qemu-gpu device" -v section=device-test -v exit_rc=$rc \
			-v faillog="$faillog" -f "$tap" "$out/qemu-device-test.log" >>"$res"
		echo "qemu-gpu device: $(count "qemu-gpu device" pass) passed," \
			"$(count "qemu-gpu device" fail) failed (scripts/qemu/device-test.sh)"
	fi
fi
# qemu_gpu_boot SCOPE NAME GOUT GUEST TIMEOUT WHAT [SECTION=SCOPE2 ...]: one
# qemu-gpu boot (the globals krel, args, qargs): the initramfs of GUEST
# (scripts/vm/guest-*.sh) with the mkinitramfs.sh options ${args[@]}, built
# here, then a VM job (qemu_gpu_run) that boots QEMU with the boot.sh
# options ${qargs[@]} for at most TIMEOUT s. Status 1 when no VM will run.
qemu_gpu_boot() {
	local scope=$1 name=$2 gout=$3 guest=$4 tmo=$5 what=$6
	shift 6
	if ! scripts/vm/mkinitramfs.sh --run "$guest" "${args[@]}" "$krel" \
			"$gout/initramfs.cpio.gz" >"$gout/initramfs.log" 2>&1; then
		fail_case "$scope" "$name/vm/initramfs" "initramfs build failed" \
			"$gout/initramfs.log"
		return 1
	fi
	log "== $krel: qemu-gpu $name, $what (in the background)"
	vm_job arm64 qemu_gpu_run "$scope" "$name" "$gout" "$tmo" "$@"
}
# qemu_gpu_run SCOPE NAME GOUT TIMEOUT [SECTION=SCOPE2 ...] (a VM job): its
# TAP cases as SCOPE "NAME/section/test", except those of each SECTION,
# counted as SCOPE2 (a result line of its own); a SECTION that reported
# nothing from a guest that finished counts as a failed case of SCOPE2. The
# guest's exit status and the driver errors the model saw
# (mali_model_host_ops.report) are SCOPE's.
qemu_gpu_run() {
	local scope=$1 name=$2 gout=$3 tmo=$4 rc m nf0
	shift 4
	boot_secs "$gout/vm" scripts/vm/boot.sh "${qargs[@]}" "$krel" \
		"$gout/initramfs.cpio.gz" "$gout/vm" "$tmo"
	rc=$?
	nf0=$(count "" fail)
	awk -v scope="$scope" -v faillog="$faillog" -f "$tap" "$gout/vm/output.log" |
		sed "s|\t|\t$name/|2" | rescope "$name/" "$@" >>"$res"
	case $rc in
	124)	fail_case "$scope" "$name/vm/timeout" "no result after ${tmo}s" \
			"$gout/vm/console.log" ;;
	125)	fail_case "$scope" "$name/vm/no-report" "guest died without reporting" \
			"$gout/vm/console.log" ;;
	126)	fail_case "$scope" "$name/vm/qemu-error" "QEMU failed before the guest ran" \
			"$gout/vm/qemu.log" ;;
	*)	# (a failed case of this boot may be counted in a SCOPE2)
		[ "$rc" = 0 ] || [ "$(count "" fail)" -gt "$nf0" ] ||
			fail_case "$scope" "$name/vm/exit-status" \
				"the guest reported status $rc but no failing test" \
				"$gout/vm/output.log"
		for m in "$@"; do
			grep -q "^=== BEGIN ${m%%=*}\$" "$gout/vm/output.log" ||
				fail_case "${m#*=}" "$name/${m%%=*}/missing" \
					"the guest ran no ${m%%=*} section" "$gout/vm/output.log"
		done ;;
	esac
	if grep -q 'mali_model: driver error' "$gout/vm/qemu.log"; then
		fail_case "$scope" "$name/model-reports" \
			"$(grep -c 'mali_model: driver error' "$gout/vm/qemu.log") driver errors" \
			"$gout/vm/qemu.log"
	fi
}

for krel in $a64_kernels; do
	[ -n "$qemu_bin" ] || break
	scope="$krel qemu-gpu panfrost"
	e2e_scope="$krel qemu-gpu panfrost e2e"
	e2e_gpus=''
	series=${krel%%.*}.$(echo "$krel" | cut -d. -f2 | cut -d- -f1)
	done_gpus=''
	# Each run: name, fault (- for none), then a row of qemu_gpus.
	runs=()
	for row in "${qemu_gpus[@]}"; do
		runs+=("${row%% *} - $row")
	done
	for f in "${qemu_faults[@]}"; do
		for row in "${qemu_gpus[@]}"; do
			[ "${row%% *}" = "${f%% *}" ] && runs+=("${f/ /-} ${f#* } $row")
		done
	done
	for run in "${runs[@]}"; do
		read -r name fault product since gpu_id v4 opts <<<"$run"
		case " ${MPC_QEMU_GPUS:-$product} " in
		*" $product "*) ;;
		*) continue ;;
		esac
		# 6.1's panfrost has no Valhall GPU_ID 0x9003.
		[ "$(printf '%s\n%s\n' "$since" "$series" | sort -V | head -n 1)" = "$since" ] ||
			continue
		gout=$out/$krel/qemu-gpu-$name
		mkdir -p "$gout"
		{
			echo "product=$product"
			echo "gpu_id=$gpu_id"
			echo "l2_present=0x1"
			echo "v4=$v4"
			echo "busy=$qemu_busy"
			# The model's TIMESTAMP (block headers) runs at 24 MHz.
			echo "timestamp_hz=24000000"
			for o in $opts; do echo "$o"; done | tr '-' '_'
			[ "$fault" = - ] || echo "fault=$fault"
		} >"$gout/panfrost-expect"
		args=(--selftests "${st_dir[arm64]}" --in-tree panfrost
		      --file "$gout/panfrost-expect:/mpc/panfrost-expect")
		# The tool's e2e-panfrost.sh (about 12 s a boot) runs there too
		# when it was built, on the products of $qemu_e2e.
		e2e=0
		case " $qemu_e2e " in
		*" $name "*)
			[ -n "${user_dir[arm64]:-}" ] && [ "$fault" = - ] && e2e=1 ;;
		esac
		[ "$e2e" = 1 ] && args+=(--user-dir "${user_dir[arm64]}")
		if [ -n "${MPC_SELFTEST_ARGS:-}" ]; then
			echo "$MPC_SELFTEST_ARGS" >"$gout/selftest-args"
			args+=(--file "$gout/selftest-args:/mpc/selftest-args")
		fi
		qargs=(--qemu "$qemu_bin" --machine "mali=$product"
		       --qemu-arg -global --qemu-arg "mali-gpu.workload=busy=$qemu_busy")
		for o in $opts; do
			qargs+=(--qemu-arg -global --qemu-arg "mali-gpu.$o")
		done
		[ "$fault" = - ] ||
			qargs+=(--qemu-arg -global --qemu-arg "mali-gpu.fault=$fault")
		sec=()
		[ "$e2e" = 1 ] && sec=("e2e-panfrost=$e2e_scope") && e2e_gpus+=" $name"
		qemu_gpu_boot "$scope" "$name" "$gout" scripts/vm/guest-panfrost.sh \
			"${MPC_VM_TIMEOUT:-300}" "stock panfrost.ko" "${sec[@]}" || continue
		done_gpus+=" $name"
	done
	summ "$scope" "${done_gpus# }; VMs @VM@, logs in ${out#"$MPC_ROOT"/}/$krel/qemu-gpu-*" \
		$(for g in $done_gpus; do echo "$out/$krel/qemu-gpu-$g/vm"; done)
	[ -z "$e2e_gpus" ] ||
		summ "$e2e_scope" "user/tests/e2e-panfrost.sh on${e2e_gpus}"
done

# 5. qemu-gpu mali_perfcnt: our module on the same emulated GPUs through its
# real-hardware path (the device-tree node, its clock, IRQs and MMIO; bound
# with bind=, no sim=), one boot per (kernel, product): bind_test (with the
# kernel's panfrost.ko in the guest), the kselftest suite in the fixture's
# hardware mode (the fixture variant of the product; faults and load through
# the QEMU device's test-control window) and, on the G52, e2e.sh and
# side-by-side.sh. Result lines per kernel: "<release> qemu-gpu
# mali_perfcnt: ...", and those of the G52's e2e and side-by-side sections.
# Columns: product (= fixture variant) and the device's options: the
# products' defaults as sim= has them, a G71 MP32 with core 16 fused off and
# four L2 slices (a text of perfcnt_counters over a page), the G52 with the
# sparse cores 0xb and two L2 slices, and the clock of the device tree's GPU
# clock (apb-pclk, 24 MHz), which the driver reads with clk_get_rate(). Two
# words are not device options: append=WORDS goes on the guest kernel's
# command line, module_params=P on every load of the module. The G57 boots
# with swiotlb=force, so the driver's streaming mappings bounce: its page
# tables (the dump buffer is dma_alloc_noncoherent() memory, which does not
# bounce) reach the GPU only through dma_sync_single_for_device();
# io-pgtable refuses bounce-buffered table pages, so that boot uses the
# driver's own table writer (pgtable=builtin). The G71 is an I/O-coherent integration (coherent=on: the node
# says dma-coherent), whose COHERENCY_ENABLE resets to NONE: the driver
# must select ACE-Lite before the GPU touches memory, else the model
# reports it; the other rows are non-coherent, as the boards panfrost
# runs on are. dt-compatible=A;B gives the node a SoC's compatible list
# (soc_test, kernel/mpc_soc.c): the G52 is an Amlogic G12B's (the
# power-override quirk), the G72 (MP3) a MediaTek MT8183's in its three
# domains core0..core2 of a test power controller (power-domains=A;B;C:
# the board's /mpc-test-pd, driven by kernel/tests/mpc_test_pd.ko; the
# domains follow the GPU's runtime PM and unbind), with test supplies
# mali and sram and a test clock (supplies=A;B, test-clock=on: counting
# providers of the same module, so soc_test sees which power steps the
# driver took in runtime and system suspend), the G57 an MT8192's in five
# test domains with a test mali supply and the test clock (the SoC whose
# data allows gated clocks and cut supplies in system suspend; it runs the
# whole suite), the G76 an MT8183's without its power domains (refused, as
# panfrost refuses it) and the T880 a MediaTek MT6797's, a SoC we have no
# data for (refused): the G72, G76 and T880 boots run soc_test and nothing
# else.
qemu_hw_gpus=(
	"t720 mhz=24"
	"g71 shader-present=0xfffeffff l2-slices=4 mhz=24 coherent=on"
	"g52 shader-present=0xb l2-slices=2 va-bits=33 mhz=24 dt-compatible=amlogic,meson-g12a-mali;arm,mali-bifrost"
	"g72 mhz=24 dt-compatible=mediatek,mt8183-mali;arm,mali-bifrost power-domains=core0;core1;core2 supplies=mali;sram test-clock=on"
	"g76 mhz=24 dt-compatible=mediatek,mt8183-mali;arm,mali-bifrost"
	"t880 mhz=24 dt-compatible=mediatek,mt6797-mali;arm,mali-t880"
	"g57 mhz=24 dt-compatible=mediatek,mt8192-mali;arm,mali-valhall-jm power-domains=core0;core1;core2;core3;core4 supplies=mali test-clock=on append=swiotlb=force module_params=pgtable=builtin"
)
qemu_hw_device=90c0000.gpu	# /gpu@90c0000 of -M virt,mali=PRODUCT
qemu_hw_ctl=0x090c8000		# its test-control window (qemu/virt-mali.patch)
for krel in $a64_kernels; do
	[ -n "$qemu_bin" ] || break
	scope="$krel qemu-gpu mali_perfcnt"
	e2e_scope="$krel qemu-gpu mali_perfcnt e2e"
	sbs_scope="$krel qemu-gpu side-by-side"
	e2e_gpus=''
	# The production build, without the simulator (MPC_SIM=0): these
	# boots prove the real-hardware path of the module as shipped.
	kdir=$MPC_BUILD/kmod/$krel-hw
	kout=$out/$krel
	mkdir -p "$kout"
	if [ ! -f "$kdir/mali_perfcnt.ko" ] || [ "$gpu_only" = 1 ] ||
	   [ "$(find kernel model uapi Kbuild -newer "$kdir/mali_perfcnt.ko" | head -n 1)" ]; then
		log "== $krel: build mali_perfcnt.ko for the qemu-gpu targets (MPC_SIM=0)"
		mpc_copy_kernel_tree "$kdir"
		# shellcheck disable=SC2046 # ARCH=... CROSS_COMPILE=..., no spaces
		if ! make -C "$kdir" KDIR="$(mpc_kdir "$krel")" W=1 \
				$(mpc_kmake_args "$krel") MPC_SIM=0 -j2 >"$kout/qemu-gpu-build.log" 2>&1 ||
		   [ ! -f "$kdir/mali_perfcnt.ko" ]; then
			fail_case "$scope" build/module "mali_perfcnt.ko does not build" \
				"$kout/qemu-gpu-build.log"
			continue
		fi
	fi
	done_gpus=''
	for row in "${qemu_hw_gpus[@]}"; do
		read -r product opts <<<"$row"
		case " ${MPC_QEMU_GPUS:-$product} " in
		*" $product "*) ;;
		*) continue ;;
		esac
		gout=$kout/qemu-gpu-mpc-$product
		mkdir -p "$gout"
		e2e=0
		[ "$product" = g52 ] && [ -n "${user_dir[arm64]:-}" ] && e2e=1
		append='' mparams='' devopts=''
		for o in $opts; do
			case $o in
			append=*)	append+=" ${o#append=}" ;;
			module_params=*) mparams+=" ${o#module_params=}" ;;
			*)		devopts+=" $o" ;;
			esac
		done
		{
			echo "device=$qemu_hw_device"
			echo "ctl=$qemu_hw_ctl"
			echo "variant=$product"
			echo "e2e=$e2e"
			echo "module_params='${mparams# }'"
		} >"$gout/hw-gpu"
		args=(--module "$kdir/mali_perfcnt.ko" --in-tree panfrost
		      --selftests "${st_dir[arm64]}"
		      --file "$gout/hw-gpu:/mpc/hw-gpu")
		[ "$e2e" = 1 ] && args+=(--user-dir "${user_dir[arm64]}")
		if [ -n "${MPC_SELFTEST_ARGS:-}" ]; then
			echo "$MPC_SELFTEST_ARGS" >"$gout/selftest-args"
			args+=(--file "$gout/selftest-args:/mpc/selftest-args")
		fi
		qargs=(--qemu "$qemu_bin" --machine "mali=$product")
		[ -z "$append" ] || qargs+=(--append "${append# }")
		for o in $devopts; do
			qargs+=(--qemu-arg -global --qemu-arg "mali-gpu.$o")
		done
		sec=()
		[ "$e2e" = 1 ] && sec=("e2e=$e2e_scope" "side-by-side=$sbs_scope") &&
			e2e_gpus+=" $product"
		qemu_gpu_boot "$scope" "$product" "$gout" scripts/vm/guest-hw.sh \
			"${MPC_VM_TIMEOUT:-600}" "mali_perfcnt.ko bind=$qemu_hw_device" \
			"${sec[@]}" || continue
		done_gpus+=" $product"
	done
	summ "$scope" "${done_gpus# }; VMs @VM@, logs in ${kout#"$MPC_ROOT"/}/qemu-gpu-mpc-*" \
		$(for g in $done_gpus; do echo "$kout/qemu-gpu-mpc-$g/vm"; done)
	if [ -n "$e2e_gpus" ]; then
		summ "$e2e_scope" "user/tests/e2e.sh on${e2e_gpus}"
		summ "$sbs_scope" "user/tests/side-by-side.sh on${e2e_gpus}: panfrost vs mali_perfcnt"
	fi
done

# Every guest has finished: their results, then the result lines.
vm_jobs_wait
summ_print

if [ -s "$faillog" ]; then
	echo
	echo "==== failures"
	cat "$faillog"
fi
if [ "$(count "" skip)" -gt 0 ]; then
	echo
	echo "==== skipped"
	awk -F'\t' '$2 == "skip" { printf "%s: %s: %s\n", $1, $3, $4 }' "$res"
fi
passed=$(count "" pass)
failed=$(count "" fail)
echo
times=''
for arch in $arches; do
	times+=", $arch $(guest_secs "$arch")s"
done
echo "time: $(($(date +%s) - t_start))s in all; guests ($vm_jobs at a time)${times#,}"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
