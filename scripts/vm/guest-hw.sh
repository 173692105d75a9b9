#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# /mpc/run of a qemu-gpu mali_perfcnt VM (busybox sh): mali_perfcnt.ko on
# the emulated Mali GPU of -M virt,mali=PRODUCT through its real-hardware
# path (the device-tree node, its clock, IRQs and MMIO; no sim=).
# /mpc/target (the row of scripts/targets) says device= (the GPU's platform device,
# e.g. 90c0000.gpu), ctl= (the physical address of the QEMU device's
# test-control window), variant= (the selftest fixture variant the machine
# is) and e2e= (1: run user/tests/e2e.sh, whose checks are a G52 with cores
# 0xb and two L2 slices, and user/tests/side-by-side.sh) and module_params=
# (MPC_MODULE_PARAMS: appended to every load of the module by the fixture,
# e.g. pgtable=builtin on a kernel booted with swiotlb=force, where
# io-pgtable refuses the bounced table pages). Sections, as in
# guest-check.sh: soc_test (the SoC data of the node's compatible; when
# the module must refuse the node, the sections after it are left out),
# bind_test (with the kernel's panfrost.ko), uapi_test,
# sim_test, stress_test (the fixture in hardware mode: MPC_BIND_DEVICE,
# MPC_QEMU_CTL), e2e, side-by-side (the tool through panfrost, then through
# mali_perfcnt, on the same GPU and load; with e2e=1) and model_reports (the
# driver errors the model saw, through the window: must be 0).

# shellcheck source=guest-lib.sh
. /mpc/lib.sh
device=$(mpc_key device) ctl=$(mpc_key ctl) variant=$(mpc_key variant)
e2e=$(mpc_key e2e) module_params=$(mpc_key module_params)
export MPC_BIND_DEVICE="$device" MPC_QEMU_CTL="$ctl" MPC_MODULE_PARAMS="$module_params"
ctl_tool=/mpc/selftests/mpc_ctl

echo "# kernel command line: $(cat /proc/cmdline); module parameters: ${module_params:-none}"
echo "# GPU node $device: $(tr '\0' ' ' <"/sys/bus/platform/devices/$device/of_node/compatible" 2>/dev/null)"
tmo=$(sed -n 's/^timeout=//p' /mpc/selftests/settings 2>/dev/null)
# Test power providers of the board (-global mali-gpu.power-domains=...,
# test-clock=on, supplies=...): their driver, kernel/tests/mpc_test_pd.c,
# before mali_perfcnt.ko can take them (else its probe defers).
test_prov=''
for n in /proc/device-tree/mpc-test-pd /proc/device-tree/mpc-test-clk \
	 /proc/device-tree/mpc-test-vreg-*; do
	[ -d "$n" ] && test_prov="$test_prov ${n##*/}"
done
if [ -n "$test_prov" ]; then
	if modprobe mpc_test_pd; then
		echo "# test power providers:$test_prov"
		[ ! -d /proc/device-tree/mpc-test-pd ] ||
			echo "# test power domains: $(tr '\0' ' ' </proc/device-tree/mpc-test-pd/mali-perfcnt,domain-names)"
	else
		echo "# modprobe mpc_test_pd failed: soc_test's test-provider cases fail"
	fi
fi
# First, on the GPU bound to nothing: the SoC data of the node's compatible
# (a boot row may give it a SoC's, e.g. one the module must refuse).
section soc_test timeout "${tmo:-600}" /mpc/selftests/soc_test
rmmod mali_perfcnt 2>/dev/null
skip_rest=0
# shellcheck disable=SC2086 # module_params: several words
if [ "$rc" = 0 ] && ! modprobe mali_perfcnt bind="$device" $module_params 2>/dev/null; then
	# soc_test passed, so it expected the refusal: nothing else applies
	echo "# soc_test: the module refuses this node as it must; the other sections do not apply"
	skip_rest=1
fi
rmmod mali_perfcnt 2>/dev/null
if [ "$skip_rest" = 0 ] && ! /mpc/selftests/uapi_test -l 2>&1 | grep -qw -- "$variant"; then
	# A product the fixture has no variant for (the G72 of the MT8183 row)
	echo "# no fixture variant $variant: soc_test only on this node; the other sections run on the other rows"
	skip_rest=1
fi

if [ "$skip_rest" = 0 ]; then
# Before the others: it needs the GPU free and leaves panfrost unloaded.
section bind_test timeout "${tmo:-600}" /mpc/selftests/bind_test
rmmod mali_perfcnt 2>/dev/null
rmmod panfrost 2>/dev/null

for t in uapi_test sim_test stress_test stream_test session_test; do
	# shellcheck disable=SC2046 # harness options, e.g. -t name
	section "$t" timeout "${tmo:-600}" "/mpc/selftests/$t" -v "$variant" \
		$(cat /mpc/selftest-args 2>/dev/null)
done
rmmod mali_perfcnt 2>/dev/null

if [ "${e2e:-0}" = 1 ] && [ -f /mpc/user/tests/e2e.sh ]; then
	# shellcheck disable=SC2086 # module_params: several words
	if modprobe mali_perfcnt bind="$device" $module_params; then
		section e2e env MPC_TOOL=/mpc/user/mali-perfcnt \
			MPC_DEBUGFS="$(mpc_debugfs)" \
			MPC_FMTCHECK=/mpc/user/mpc-fmtcheck \
			MPC_LOAD_CMD="$ctl_tool workload" \
			timeout 600 sh /mpc/user/tests/e2e.sh
	else
		echo "=== BEGIN e2e"
		echo "1..1"
		echo "not ok 1 e2e_module_load # modprobe mali_perfcnt bind=$device failed"
		echo "=== END e2e rc=1"
		rc=1
	fi
	rmmod mali_perfcnt 2>/dev/null
fi
# The same GPU and load through stock panfrost, then through mali_perfcnt
# (user/tests/side-by-side.sh: the rates agree within 1 %).
if [ "${e2e:-0}" = 1 ] && [ -f /mpc/user/tests/side-by-side.sh ]; then
	section side-by-side env MPC_TOOL=/mpc/user/mali-perfcnt \
		MPC_BIND_DEVICE="$device" MPC_LOAD_CMD="$ctl_tool workload" \
		timeout 600 sh /mpc/user/tests/side-by-side.sh
fi

fi # skip_rest

# What the model saw the driver do wrong over the whole run.
echo "=== BEGIN model_reports"
echo "1..1"
n=$("$ctl_tool" reports 2>&1)
r=0
if [ "$n" = 0 ]; then
	echo "ok 1 model_reports_none"
else
	echo "not ok 1 model_reports_none # $n (the QEMU log has them)"
	r=1
	rc=1
fi
echo "=== END model_reports rc=$r"
exit $rc
