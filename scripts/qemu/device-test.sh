#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Host-side tests of the project's QEMU (no guest runs): what
# -M virt,mali=PRODUCT puts into the device tree, the device's options and
# their errors, and the run-time workload/fault properties over HMP.
#
#   scripts/qemu/device-test.sh [QEMU]   (default: scripts/qemu/build.sh)
#
# TAP on stdout; exit status 0 when every test passed.
set -uo pipefail
. "$(dirname "$0")/../lib.sh"

bin=${1:-$("$MPC_ROOT/scripts/qemu/build.sh")} || die "no QEMU binary"
[ -x "$bin" ] || die "$bin is not executable"
command -v fdtget >/dev/null || die "fdtget missing (device-tree-compiler)"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/mpc-qemu-test.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

n=0 fails=0
ok() { n=$((n + 1)); echo "ok $n $1"; }
notok() {
	n=$((n + 1)) fails=$((fails + 1))
	echo "not ok $n $1"
	shift
	for l in "$@"; do echo "# $l"; done
}
# expect NAME GOT WANT: one test, GOT = WANT
expect() {
	if [ "$2" = "$3" ]; then
		ok "$1"
	else
		notok "$1" "got \"$2\", want \"$3\""
	fi
}
q() { timeout 20 "$bin" -nic none -display none "$@" </dev/null; }

# dtb PRODUCT: the board's device tree with the GPU, in $tmp/PRODUCT.dtb
dtb() {
	q -M "virt,mali=$1,dumpdtb=$tmp/$1.dtb" >"$tmp/$1.log" 2>&1 &&
		[ -s "$tmp/$1.dtb" ]
}

# compatible per family: Midgard names the product
for row in t720:arm,mali-t720 t860:arm,mali-t860 g31:arm,mali-bifrost \
	   g52:arm,mali-bifrost g72:arm,mali-bifrost g57:arm,mali-valhall-jm; do
	p=${row%%:*} want=${row#*:}
	if ! dtb "$p"; then
		notok "dt_$p" "dumpdtb failed: $(head -n 3 "$tmp/$p.log")"
		continue
	fi
	expect "dt_${p}_compatible" \
		"$(fdtget -t s "$tmp/$p.dtb" /gpu@90c0000 compatible 2>&1)" "$want"
done

# the node in full (g52): reg, three level-high SPIs 10-12 by name, the
# 24 MHz apb-pclk as its clock
f=$tmp/g52.dtb
if [ -s "$f" ]; then
	expect dt_reg "$(fdtget -t x "$f" /gpu@90c0000 reg)" "0 90c0000 0 4000"
	expect dt_interrupts "$(fdtget -t x "$f" /gpu@90c0000 interrupts)" \
		"0 a 4 0 b 4 0 c 4"
	expect dt_interrupt_names \
		"$(fdtget -t s "$f" /gpu@90c0000 interrupt-names | tr '\n' ' ')" \
		"job mmu gpu "
	expect dt_clocks_apb_pclk \
		"$(fdtget -t x "$f" /gpu@90c0000 clocks) $(fdtget -t u "$f" /apb-pclk clock-frequency)" \
		"$(fdtget -t x "$f" /apb-pclk phandle) 24000000"
fi

# test-clock=on and supplies=mali;sram: the counting test clock (at the
# mhz property's rate) as the GPU's clock in place of apb-pclk, a test
# regulator node per supply and the node's NAME-supply phandles to them
f=$tmp/g72-test.dtb
if q -M "virt,mali=g72,dumpdtb=$f" -global mali-gpu.test-clock=on \
	-global mali-gpu.mhz=50 -global "mali-gpu.supplies=mali;sram" \
	>"$tmp/g72-test.log" 2>&1 && [ -s "$f" ]; then
	expect dt_test_clock \
		"$(fdtget -t x "$f" /gpu@90c0000 clocks) $(fdtget -t s "$f" /mpc-test-clk compatible) $(fdtget -t u "$f" /mpc-test-clk clock-frequency)" \
		"$(fdtget -t x "$f" /mpc-test-clk phandle) mali-perfcnt,test-clock 50000000"
	for sup in mali sram; do
		expect "dt_test_supply_$sup" \
			"$(fdtget -t x "$f" /gpu@90c0000 "$sup-supply") $(fdtget -t s "$f" "/mpc-test-vreg-$sup" compatible) $(fdtget -t s "$f" "/mpc-test-vreg-$sup" mali-perfcnt,supply)" \
			"$(fdtget -t x "$f" "/mpc-test-vreg-$sup" phandle) mali-perfcnt,test-regulator $sup"
	done
else
	notok dt_test_providers "dumpdtb failed: $(head -n 3 "$tmp/g72-test.log")"
fi
# without them: no test provider, no supply
f=$tmp/g52.dtb
if [ -s "$f" ]; then
	expect dt_no_test_providers \
		"$(fdtget -l "$f" / | grep -c '^mpc-test-') $(fdtget -p "$f" /gpu@90c0000 | grep -c -- '-supply$')" "0 0"
fi

# no option, no GPU
if q -M "virt,dumpdtb=$tmp/none.dtb" >/dev/null 2>&1 &&
   ! fdtget "$tmp/none.dtb" /gpu@90c0000 compatible >/dev/null 2>&1; then
	ok dt_no_gpu_without_option
else
	notok dt_no_gpu_without_option "a GPU node without mali="
fi

# refused options, with the model's message
refused() { # NAME EXPECT-IN-MESSAGE QEMU-ARGS...
	local name=$1 want=$2 out
	shift 2
	if out=$(q -S "$@" 2>&1); then
		notok "$name" "QEMU accepted $*"
	elif [[ $out == *"$want"* ]]; then
		ok "$name"
	else
		notok "$name" "message: $out"
	fi
}
refused option_unknown_product "use one of" -M virt,mali=g99
refused option_bad_workload "busy=N" -M virt,mali=g52 -global mali-gpu.workload=busy=101
refused option_bad_fault "want none" -M virt,mali=g52 -global mali-gpu.fault=sometimes
refused option_bad_supplies "supply names" -M virt,mali=g52 -global mali-gpu.supplies=a/b

# run time: qom-set reaches the model, a bad value is refused
out=$(printf '%s\n' 'qom-get /machine/mali-gpu workload' \
	'qom-set /machine/mali-gpu workload busy=80' \
	'qom-get /machine/mali-gpu workload' \
	'qom-set /machine/mali-gpu workload often' \
	'qom-set /machine/mali-gpu fault delay=20' \
	'qom-get /machine/mali-gpu fault' 'quit' |
	timeout 20 "$bin" -nic none -display none -S -monitor stdio \
		-M virt,mali=g52 -global mali-gpu.workload=busy=50 2>&1 | tr -d '\r')
expect qom_workload_fault "$(grep -o '^"[^"]*"' <<<"$out" | tr '\n' ' ')" \
	'"busy=50" "busy=80" "delay=20" '
expect qom_bad_workload_refused \
	"$(grep -o 'Error: mali-gpu: workload=often' <<<"$out")" \
	"Error: mali-gpu: workload=often"

echo "1..$n"
[ "$fails" -eq 0 ]
