#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# The test programs of the drivers/gpu/mali_perfcnt kselftest collection
# (scripts/kselftest-package.sh): each NAME.sh of the package runs
# "mpc_ksft.sh NAME", which finds what this machine has and runs the test
# NAME on it, or skips it with the reason ("1..0 # SKIP why", exit 4, which
# the kernel's runner reports as "ok N ... # SKIP"). POSIX sh: busybox ash
# and dash run it.
#
# What it finds (each can be given in the environment instead):
#   MPC_MODULE        mali_perfcnt.ko: the package's modules/$(uname -r)/,
#                     else /lib/modules/$(uname -r)/extra/, else modinfo's
#   MPC_BIND_DEVICE   the device-tree Mali GPU (a platform device whose
#                     node's compatible is arm,mali-*): hardware mode; none
#                     and a module built with the simulator: simulator mode
#   MPC_QEMU_CTL      the test-control window of the project's QEMU device
#                     (-M virt,mali=PRODUCT: at 0x090c8000, answering its
#                     magic); only on QEMU's virt machine, never probed on
#                     a board
#   MPC_TOOL, MPC_FMTCHECK  the tool and its validator (e2e, side_by_side):
#                     the package's tool/, else mali-perfcnt on PATH
#   PANFROST_EXPECT   what panfrost_test expects of the GPU (a file)
#
# Hardware mode without the window: the tests whose fixture sets the
# modelled load or arms the model's faults (uapi_test, sim_test,
# stress_test, stream_test, session_test, e2e, side_by_side, model_reports)
# skip; soc_test and bind_test run.

name=${1:?usage: mpc_ksft.sh TEST [ARGS...]}
shift
here=$(cd "$(dirname "$0")" && pwd)
krel=$(uname -r)

skip() {
	echo "1..0 # SKIP $*"
	exit 4
}

fail() {
	echo "1..1"
	echo "not ok 1 $name # $*"
	exit 1
}

# ---- the module --------------------------------------------------------------
if [ -z "${MPC_MODULE:-}" ]; then
	for m in "$here/modules/$krel/mali_perfcnt.ko" \
		 "/lib/modules/$krel/extra/mali_perfcnt.ko" \
		 "$(modinfo -n mali_perfcnt 2>/dev/null)"; do
		[ -n "$m" ] && [ -f "$m" ] && MPC_MODULE=$m && break
	done
fi
[ -n "${MPC_MODULE:-}" ] ||
	skip "no mali_perfcnt.ko for kernel $krel: build it for this kernel (make KDIR=...) or install mali-perfcnt-dkms, or set MPC_MODULE"
export MPC_MODULE

# modinfo_of FIELD: the .ko's FIELD= strings (read from the file itself:
# busybox's modinfo wants a modules.dep, a board may have no binutils)
modinfo_of() {
	tr '\0' '\n' <"$MPC_MODULE" | sed -n "s/^$1=//p"
}

has_param() {
	modinfo_of parm | grep -q "^$1:"
}

# ---- the GPU -------------------------------------------------------------------
if [ -z "${MPC_BIND_DEVICE+x}" ]; then
	MPC_BIND_DEVICE=''
	for d in /sys/bus/platform/devices/*; do
		c=$(tr '\0' ' ' <"$d/of_node/compatible" 2>/dev/null) || continue
		case " $c" in
		*" arm,mali-"*) MPC_BIND_DEVICE=${d##*/}; break ;;
		esac
	done
fi
export MPC_BIND_DEVICE
if [ -n "$MPC_BIND_DEVICE" ]; then
	mode=hw
elif has_param sim_cores; then
	mode=sim
else
	skip "no device-tree Mali GPU on this machine, and $MPC_MODULE has no simulator (a production build, MPC_SIM=0)"
fi

# The QEMU device's test-control window: only on QEMU's virt machine.
if [ -z "${MPC_QEMU_CTL+x}" ]; then
	MPC_QEMU_CTL=''
	if [ "$mode" = hw ] && [ "$MPC_BIND_DEVICE" = 90c0000.gpu ] &&
	   tr '\0' '\n' </proc/device-tree/compatible 2>/dev/null | grep -qx linux,dummy-virt &&
	   MPC_QEMU_CTL=0x090c8000 "$here/mpc_ctl" reports >/dev/null 2>&1; then
		MPC_QEMU_CTL=0x090c8000
	fi
fi
export MPC_QEMU_CTL

need_window() {
	[ "$mode" = sim ] || [ -n "$MPC_QEMU_CTL" ] ||
		skip "$name needs the test-control window of the project's QEMU mali-gpu device (it sets the modelled load and arms faults); real hardware has none"
}

dbgfs() {
	for d in /sys/kernel/debug/dri/*; do
		case "$(cat "$d/name" 2>/dev/null)" in
		mali_perfcnt*) [ -e "$d/gpu_info" ] && { echo "$d"; return 0; } ;;
		esac
	done
	return 1
}

unload() {
	rmmod mali_perfcnt 2>/dev/null
	return 0
}

# load PARAMS...: mali_perfcnt.ko bound to the GPU (hw) or with PARAMS
# (sim), its in-tree dependencies first.
load() {
	for dep in $(modinfo_of depends | tr ',' ' '); do
		modprobe -q "$dep" 2>/dev/null
	done
	unload
	if [ "$mode" = hw ]; then
		# shellcheck disable=SC2086 # parameters: several words
		insmod "$MPC_MODULE" bind="$MPC_BIND_DEVICE" ${MPC_MODULE_PARAMS:-}
	else
		# shellcheck disable=SC2086
		insmod "$MPC_MODULE" "$@" ${MPC_MODULE_PARAMS:-}
	fi
}

# The GPU free: the kernel's panfrost bound it at boot on a board with udev.
if [ "$mode" = hw ] && grep -q '^panfrost ' /proc/modules 2>/dev/null; then
	rmmod panfrost 2>/dev/null ||
		skip "panfrost drives $MPC_BIND_DEVICE and cannot be unloaded (in use): stop what uses the GPU"
fi
grep -q '^debugfs ' /proc/mounts ||
	mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null

# The test power providers of the QEMU board (-global mali-gpu.power-domains=,
# test-clock=, supplies=), if it has them: their driver (mpc_test_pd.ko,
# next to the module) before mali_perfcnt.ko can take them.
if [ "$mode" = hw ]; then
	for n in /proc/device-tree/mpc-test-pd /proc/device-tree/mpc-test-clk \
		 /proc/device-tree/mpc-test-vreg-*; do
		[ -d "$n" ] || continue
		grep -q '^mpc_test_pd ' /proc/modules ||
			insmod "$(dirname "$MPC_MODULE")/mpc_test_pd.ko" 2>/dev/null ||
			modprobe -q mpc_test_pd ||
			echo "# mpc_test_pd.ko not loaded: the test-provider cases fail"
		break
	done
fi

# The fixture variant of the GPU (hw): the product gpu_info names, if the
# module takes the node at all (soc_test checks a refusal's reason).
variant=''
if [ "$mode" = hw ] && [ "$name" != soc_test ] && [ "$name" != panfrost_test ]; then
	load 2>/dev/null ||
		{ unload; skip "mali_perfcnt refuses $MPC_BIND_DEVICE on this machine (soc_test says whether it must)"; }
	i=0
	until dbg=$(dbgfs) || [ $i -ge 10 ]; do
		sleep 1
		i=$((i + 1))
	done
	# "product: mali-g52": the fixture's variant is g52
	# shellcheck disable=SC2018,SC2019 # ASCII product names, any tr
	variant=$(sed -n 's/^product: *//p' "$dbg/gpu_info" 2>/dev/null | tr 'A-Z' 'a-z')
	variant=${variant#mali-}
	unload
	[ -n "$variant" ] || fail "mali_perfcnt bound $MPC_BIND_DEVICE but gpu_info names no product"
fi

# variant_args TEST: args= -v VARIANT when the fixture has one for this
# GPU (hw), else skips (the harness lists its tests on stderr)
variant_args() {
	args=''
	[ -n "$variant" ] || return 0
	"$here/$1" -l 2>&1 | grep -qw -- "$variant" ||
		skip "the fixture has no variant for this GPU ($variant)"
	args="-v $variant"
}

tool() {
	MPC_TOOL=${MPC_TOOL:-}
	MPC_FMTCHECK=${MPC_FMTCHECK:-$here/tool/mpc-fmtcheck}
	if [ -z "$MPC_TOOL" ]; then
		MPC_TOOL=$here/tool/mali-perfcnt
		[ -x "$MPC_TOOL" ] && "$MPC_TOOL" --version >/dev/null 2>&1 ||
			MPC_TOOL=$(command -v mali-perfcnt) ||
			skip "no mali-perfcnt that runs here (the package's tool/ needs libdrm2 and libkmod2): install it or set MPC_TOOL"
	fi
	[ -x "$MPC_FMTCHECK" ] || skip "no mpc-fmtcheck: set MPC_FMTCHECK"
	export MPC_TOOL MPC_FMTCHECK
}

# The e2e scripts' expectations: a G52 with cores 0xb and two L2 slices.
need_g52() {
	case $mode in
	sim) ;;
	*)	need_window
		[ "$variant" = g52 ] ||
			skip "$name checks the figures of the QEMU device's G52 (cores 0xb, two L2 slices); this GPU is a $variant" ;;
	esac
}

case $name in
soc_test|bind_test)
	[ "$mode" = hw ] || skip "$name needs a device-tree Mali GPU (none here: simulator mode)"
	if [ "$name" = bind_test ]; then
		modinfo panfrost >/dev/null 2>&1 ||
			skip "bind_test needs the kernel's panfrost module (CONFIG_DRM_PANFROST=m)"
	fi
	"$here/$name" "$@"
	rc=$?
	unload
	rmmod panfrost 2>/dev/null
	exit $rc ;;
uapi_test|sim_test|stress_test|stream_test|session_test)
	need_window
	variant_args "$name"
	# shellcheck disable=SC2086 # -v VARIANT
	"$here/$name" $args "$@"
	rc=$?
	unload
	exit $rc ;;
e2e|side_by_side)
	need_g52
	tool
	[ -f "$here/tool/tests/e2e.sh" ] || skip "the package has no tool/tests/"
	if [ "$name" = side_by_side ]; then
		[ "$mode" = hw ] || skip "side_by_side compares panfrost with mali_perfcnt on a device-tree GPU"
		# side-by-side.sh modprobes mali_perfcnt: the package's module
		# when it is not installed (a modprobe in front on PATH).
		shim=$(mktemp -d "${TMPDIR:-/tmp}/mpc-ksft.XXXXXX") || fail "mktemp failed"
		real=$(command -v modprobe)
		# shellcheck disable=SC2016 # the generated script expands them
		printf '#!/bin/sh\n[ "$1" = mali_perfcnt ] || exec %s "$@"\nshift\nexec insmod "$MPC_MODULE" "$@"\n' \
			"$real" >"$shim/modprobe"
		chmod +x "$shim/modprobe"
		PATH=$shim:$PATH MPC_LOAD_CMD="$here/mpc_ctl workload" \
			sh "$here/tool/tests/side-by-side.sh"
		rc=$?
		rm -rf "$shim"
		unload
		rmmod panfrost 2>/dev/null
		exit $rc
	fi
	load sim=g52 sim_cores=0xb sim_l2=2 || fail "insmod $MPC_MODULE failed"
	dbg=$(dbgfs) || { unload; fail "no mali_perfcnt debugfs directory"; }
	load_cmd=''
	[ "$mode" = hw ] && load_cmd="$here/mpc_ctl workload"
	MPC_DEBUGFS=$dbg MPC_LOAD_CMD=$load_cmd sh "$here/tool/tests/e2e.sh"
	rc=$?
	unload
	exit $rc ;;
model_reports)
	[ "$mode" = hw ] || skip "model_reports reads the QEMU device's log of driver errors (simulator mode: none)"
	need_window
	n=$("$here/mpc_ctl" reports 2>&1)
	echo "1..1"
	if [ "$n" = 0 ]; then
		echo "ok 1 model_reports_none"
		exit 0
	fi
	echo "not ok 1 model_reports_none # $n driver errors the model saw (QEMU's log has them)"
	exit 1 ;;
panfrost_test)
	[ "$mode" = hw ] || skip "panfrost_test needs a device-tree Mali GPU"
	[ -n "${PANFROST_EXPECT:-}" ] ||
		skip "panfrost_test needs what this GPU is (PANFROST_EXPECT=FILE, see Documentation/lab.rst)"
	[ -r "$PANFROST_EXPECT" ] || fail "PANFROST_EXPECT=$PANFROST_EXPECT: no such file"
	export PANFROST_EXPECT
	modprobe panfrost unstable_ioctls=1 || fail "modprobe panfrost unstable_ioctls=1 failed"
	"$here/panfrost_test" "$@"
	rc=$?
	rmmod panfrost 2>/dev/null
	exit $rc ;;
*)
	echo "mpc_ksft.sh: no test $name" >&2
	exit 2 ;;
esac
