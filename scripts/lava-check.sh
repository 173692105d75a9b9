#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The kselftest package run by LAVA's own dispatcher on this machine: the
# qemu job of lava/ booting the project's QEMU GPU (-M virt,mali=g52, the
# options of scripts/targets' mpc/g52 row) with Debian's arm64 kernel and a
# LAVA initramfs, its results as TAP (Documentation/lab.rst).
#
#   lava-check.sh [--krel KREL]... [--no-install]
#     --krel KREL    an arm64 kernel of scripts/deps.sh's root (repeatable;
#                    default: every one, or $MPC_LAVA_KERNELS)
#     --no-install   do not apt-get install lava-dispatcher when lava-run is
#                    missing (fail instead)
#
# Steps: lava-dispatcher from Debian (apt-get install --no-install-recommends,
# once), the qemu device-type templates from the lava-server package
# (apt-get download + dpkg -x into build/lava/server, no server installed),
# the arm64 kselftest package (scripts/kselftest-package.sh), then per
# kernel: the LAVA initramfs (mkinitramfs.sh --lava), device.yaml and
# job.yaml rendered (scripts/lava-render.py; the job checked with LAVA's
# schema), the board jobs of lava/jobs/ rendered and checked the same way,
# and lava-run. Its log (build/lava/KREL/lava-run.log) becomes TAP
# (scripts/lava-tap.py): every case of the job, LAVA's own actions as the
# suite "lava". Ends with "N passed, N failed"; exit status 0 only when no
# case failed.
set -uo pipefail
. "$(dirname "$0")/lib.sh"
cd "$MPC_ROOT" || exit 1

krels=() install=1
while [ $# -gt 0 ]; do
	case $1 in
	--krel)		krels+=("$2"); shift 2 ;;
	--no-install)	install=0; shift ;;
	*)		die "unknown option $1 (usage: $0 [--krel KREL]... [--no-install])" ;;
	esac
done
[ ${#krels[@]} -gt 0 ] ||
	read -ra krels <<<"${MPC_LAVA_KERNELS:-$(mpc_arm64_kernels | tr '\n' ' ')}"
[ ${#krels[@]} -gt 0 ] || die "no arm64 kernel in $MPC_ARM64_ROOT: run scripts/deps.sh"

out=$MPC_BUILD/lava
mkdir -p "$out"
n=0 failed=0
ok() { # ok STATUS NAME [WHY]
	n=$((n + 1))
	if [ "$1" = 0 ]; then
		echo "ok $n $2"
	else
		failed=$((failed + 1))
		echo "not ok $n $2${3:+ # $3}"
	fi
}
finish() {
	echo "1..$n"
	echo "lava: $((n - failed)) passed, $failed failed"
	[ "$failed" = 0 ]
	exit
}
step() { # step NAME LOG CMD...: a case of its own, its log on failure
	local name=$1 log=$2

	shift 2
	if "$@" >"$log" 2>&1; then
		ok 0 "$name"
		return 0
	fi
	ok 1 "$name" "$* failed (see ${log#"$MPC_ROOT"/})"
	tail -n 15 "$log" | sed 's/^/# /'
	return 1
}

t0=$(date +%s)
# ---- LAVA: the dispatcher, and the server's device-type templates -----------
# shellcheck disable=SC2317 # called through step
install_lava() {
	command -v lava-run >/dev/null && return 0
	[ "$install" = 1 ] || { echo "lava-run missing (apt-get install lava-dispatcher)"; return 1; }
	mpc_apt install -y --no-install-recommends lava-dispatcher ||
		{ mpc_apt update && mpc_apt install -y --no-install-recommends lava-dispatcher; }
}
srv=$out/server
tmpl=$srv/usr/share/lava-server/device-types
# shellcheck disable=SC2317 # likewise
server_templates() {
	[ -f "$tmpl/qemu.jinja2" ] && return 0
	rm -rf "$srv" "$out/deb"
	mkdir -p "$out/deb"
	(cd "$out/deb" && apt-get download lava-server) || return 1
	dpkg -x "$out"/deb/lava-server_*.deb "$srv"
	[ -f "$tmpl/qemu.jinja2" ]
}
step lava/install "$out/install.log" install_lava || finish
step lava/server-templates "$out/server-templates.log" server_templates || finish
echo "# $(dpkg-query -W -f='lava-dispatcher ${Version}' lava-dispatcher 2>/dev/null), $(($(date +%s) - t0))s"

# ---- the board jobs: rendered with example values, LAVA's schema ---------------
for j in lava/jobs/*.yaml.jinja2; do
	b=$(basename "$j" .yaml.jinja2)
	[ "$b" = qemu-mali ] && continue
	step "lava/schema/$b" "$out/schema-$b.log" /usr/bin/python3 scripts/lava-render.py --job \
		"${j#lava/}" "$out/$b.yaml"
done

# ---- what the guest runs -------------------------------------------------------
qemu=$(scripts/qemu/build.sh 2>"$out/qemu-build.log" | tail -n 1)
[ -x "$qemu" ] || { ok 1 build/qemu "scripts/qemu/build.sh failed (see build/lava/qemu-build.log)"; finish; }
mkdir -p "$out/bin"
# lava-run takes qemu-system-aarch64 from PATH
ln -sfn "$qemu" "$out/bin/qemu-system-aarch64"
pkg=$MPC_BUILD/kselftest-package
step build/kselftest-package "$out/package.log" scripts/kselftest-package.sh --arch arm64 || finish
tarball=$pkg/mali-perfcnt-kselftest-arm64.tar.gz
programs=$(wc -l <"$pkg/arm64/kselftest-list.txt")

# The QEMU GPU of the mpc/g52 row (scripts/targets).
globals=(mali-gpu.shader-present=0xb mali-gpu.l2-slices=2 mali-gpu.va-bits=33 mali-gpu.mhz=24
	 "mali-gpu.dt-compatible=amlogic,meson-g12a-mali;arm,mali-bifrost")
jobid=0
for krel in "${krels[@]}"; do
	d=$out/$krel
	rm -rf "$d"
	mkdir -p "$d"
	jobid=$((jobid + 1))
	ko=$pkg/arm64/drivers/gpu/mali_perfcnt/modules/$krel/mali_perfcnt.ko
	[ -f "$ko" ] || { ok 1 "$krel/module" "the package has no module for $krel"; continue; }
	step "$krel/initramfs" "$d/initramfs.log" scripts/vm/mkinitramfs.sh --lava --module "$ko" \
		--in-tree panfrost --user-dir "$pkg/obj/user-arm64" "$krel" "$d/initramfs.cpio.gz" ||
		continue
	gargs=()
	for g in "${globals[@]}"; do
		gargs+=(-L "mali_globals=$g")
	done
	step "$krel/device.yaml" "$d/render.log" /usr/bin/python3 scripts/lava-render.py \
		--templates "$tmpl" -D mali=g52 "${gargs[@]}" devices/qemu-mali.jinja2 "$d/device.yaml" ||
		continue
	step "$krel/job.yaml" "$d/render.log" /usr/bin/python3 scripts/lava-render.py --job \
		-D mali=g52 -D "kernel_url=file://$MPC_ARM64_ROOT/boot/vmlinuz-$krel" \
		-D "ramdisk_url=file://$d/initramfs.cpio.gz" -D "kselftest_url=file://$tarball" \
		jobs/qemu-mali.yaml.jinja2 "$d/job.yaml" || continue
	# Ours, not Debian's (which PATH would find if the cached binary went
	# away): the machine's mali= property exists only in ours.
	if [ ! -x "$(readlink -f "$out/bin/qemu-system-aarch64")" ]; then
		ok 1 "$krel/qemu" "$qemu is gone (the QEMU cache dropped it?): run scripts/qemu/build.sh"
		continue
	fi
	t=$(date +%s)
	PATH=$out/bin:$PATH timeout -k 30 4500 lava-run --job-id "$jobid" --output-dir "$d/out" \
		--device "$d/device.yaml" "$d/job.yaml" >"$d/lava-run.log" 2>&1
	rc=$?
	echo "# $krel: lava-run exit status $rc, $(($(date +%s) - t))s (log: build/lava/$krel/lava-run.log)"
	# Every case of the job, at least one per program of the package.
	/usr/bin/python3 scripts/lava-tap.py --prefix "$krel/" \
		--min-cases "mali-perfcnt-kselftest=$programs" "$d/lava-run.log" >"$d/tap"
	while IFS= read -r l; do
		case $l in
		"ok "*)		ok 0 "${l#ok [0-9]* }" ;;
		"not ok "*)	l=${l#not ok [0-9]* }; ok 1 "${l%% # *}" "${l#* # }" ;;
		esac
	done <"$d/tap"
	ok "$([ "$rc" = 0 ]; echo $?)" "$krel/lava-run" "exit status $rc"
done
echo "# $(($(date +%s) - t0))s in all"
finish
