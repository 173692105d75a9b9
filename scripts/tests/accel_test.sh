#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Host tests of the accelerator probe (scripts/vm/accel-probe.sh, mpc_accel)
# and of boot.sh's handling of a QEMU that fails before the guest prints
# anything. A fake qemu-system-x86_64 first on PATH plays each case; a plain
# file stands in for /dev/kvm (MPC_KVM_DEV). Prints TAP; run by make check.
set -uo pipefail
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/tap-lib.sh"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/mpc-accel-test.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/bin"

# The fake QEMU: FAKE_QEMU_MODE says what it does; every run appends its
# arguments to $tmp/calls.
cat >"$tmp/bin/qemu-system-x86_64" <<'EOF'
#!/bin/bash
echo "$*" >>"$FAKE_QEMU_LOG"
arg() { # the value after option $1
	local prev=''
	for a in "$@"; do
		[ "$prev" = "$OPT" ] && { echo "$a"; return; }
		prev=$a
	done
}
case $FAKE_QEMU_MODE in
msr)	# what a KVM without IA32_ARCH_CAPABILITIES does (nested)
	echo "qemu-system-x86_64: error: failed to set MSR 0x10a to 0x69" >&2
	echo "qemu-system-x86_64: ../../target/i386/kvm/kvm.c:3183: kvm_buf_set_msrs: Assertion \`ret == cpu->kvm_msr_buf->nmsrs' failed." >&2
	kill -ABRT $$ ;;
internal) # a KVM internal error: QEMU stops the guest and waits
	echo "KVM internal error. Suberror: 1" >&2
	echo "extra data[0]: 0x0000000000000000" >&2
	sleep 120 ;;
hang)	sleep 120 ;;
silent)	exit 0 ;;
ok)	# a guest that booted: only if given a kernel and the probe initramfs
	OPT=-kernel; k=$(arg "$@")
	OPT=-initrd; i=$(arg "$@")
	[ -r "$k" ] || exit 1
	gzip -dc "$i" | cpio -it --quiet 2>/dev/null | grep -qx init || exit 1
	case " $* " in
	*" -accel kvm -cpu host "*" isa-debug-exit,"*) exit 85 ;;
	esac
	exit 1 ;;
oops)	# a guest that printed an oops and died
	OPT=-serial; c=$(arg "$@"); c=${c#file:}
	echo "BUG: unable to handle page fault" >"$c"
	exit 0 ;;
esac
EOF
chmod +x "$tmp/bin/qemu-system-x86_64"
echo 'not a kernel' >"$tmp/vmlinuz"
: >"$tmp/kvm"

export PATH=$tmp/bin:$PATH FAKE_QEMU_LOG=$tmp/calls
export MPC_KVM_DEV=$tmp/kvm MPC_ACCEL_PROBE_KERNEL=$tmp/vmlinuz
# A timeout far above what a loaded machine needs to run the fake; only the
# "hang" case waits it out, with 3 s.
export MPC_BUILD=$tmp/build MPC_ACCEL_PROBE_TIMEOUT=60
unset MPC_ACCEL MPC_ACCEL_VERDICT

# probe MODE [ENV...]: run the probe; $out its stdout, $err its stderr, $rc.
probe() {
	local mode=$1
	shift
	: >"$FAKE_QEMU_LOG"
	out=$(env FAKE_QEMU_MODE="$mode" "$@" "$MPC_ROOT/scripts/vm/accel-probe.sh" 2>"$tmp/err")
	rc=$?
	err=$(cat "$tmp/err")
}
calls() { wc -l <"$FAKE_QEMU_LOG"; }

echo "TAP version 13"
echo "1..14"

probe msr
[ "$rc" = 0 ] && [ "$out" = "tcg max kvm present but failed to start a guest: qemu-system-x86_64: error: failed to set MSR 0x10a to 0x69" ]
ok $? "a KVM that aborts on its MSRs: TCG, with QEMU's first error line" "rc=$rc out='$out' err='$err'"
grep -q -- '-accel kvm -cpu host' "$FAKE_QEMU_LOG"
ok $? "the probe tried -accel kvm -cpu host" "$(cat "$FAKE_QEMU_LOG")"

# the verdict of the internal error, not of the timeout ("did not report
# within 60 s (KVM internal error...)"): the probe did not wait for it
probe internal
[ "$rc" = 0 ] && [ "$out" = "tcg max kvm present but failed to start a guest: KVM internal error. Suberror: 1" ]
ok $? "a KVM internal error (QEMU waits): TCG at once, not after the timeout" "rc=$rc out='$out'"

probe hang MPC_ACCEL_PROBE_TIMEOUT=3
[ "$rc" = 0 ] && [ "$out" = "tcg max kvm present but a probe guest did not report within 3 s" ]
ok $? "a probe guest that never reports: TCG after MPC_ACCEL_PROBE_TIMEOUT" "rc=$rc out='$out'"

probe silent
[ "$rc" = 0 ] && [ "$out" = "tcg max kvm present but a probe guest exited with status 0 without reporting" ]
ok $? "a probe guest that exits without reporting: TCG" "rc=$rc out='$out'"

probe ok
case $out in "kvm host a probe guest booted and reported in "*) r=0 ;; *) r=1 ;; esac
[ "$rc" = 0 ]
ok $((r | $?)) "a probe guest that reports: KVM with -cpu host" "rc=$rc out='$out' err='$err'"

probe ok MPC_KVM_DEV="$tmp/no-such-kvm"
[ "$rc" = 0 ] && [ "$out" = "tcg max no $tmp/no-such-kvm" ] && [ "$(calls)" = 0 ]
ok $? "no /dev/kvm: TCG without starting QEMU" "rc=$rc out='$out' calls=$(calls)"

chmod 0444 "$tmp/kvm"
if [ "$(id -u)" -ne 0 ]; then
	probe ok
	case $out in "tcg max $tmp/kvm is not readable and writable"*) r=0 ;; *) r=1 ;; esac
	ok $r "a /dev/kvm this user cannot open: TCG" "out='$out'"
else
	n=$((n + 1))
	echo "ok $n - a /dev/kvm this user cannot open: TCG # SKIP root opens any file"
fi
chmod 0666 "$tmp/kvm"

probe ok MPC_ACCEL=tcg
[ "$rc" = 0 ] && [ "$out" = "tcg max MPC_ACCEL=tcg" ] && [ "$(calls)" = 0 ]
ok $? "MPC_ACCEL=tcg: TCG, no probe" "rc=$rc out='$out' calls=$(calls)"

probe msr MPC_ACCEL=kvm
[ "$rc" = 1 ] && [ -z "$out" ] &&
	[ "$err" = "error: MPC_ACCEL=kvm, but KVM cannot be used here: kvm present but failed to start a guest: qemu-system-x86_64: error: failed to set MSR 0x10a to 0x69 (unset MPC_ACCEL to fall back to TCG)" ]
ok $? "MPC_ACCEL=kvm where KVM fails: an error saying why, not TCG" "rc=$rc out='$out' err='$err'"

probe ok MPC_ACCEL=hvf
[ "$rc" = 1 ] && [ "$err" = "error: MPC_ACCEL=hvf: want kvm or tcg, or leave it unset to probe" ]
ok $? "MPC_ACCEL=hvf: rejected" "rc=$rc err='$err'"

# mpc_accel: one probe per run, one line.
: >"$FAKE_QEMU_LOG"
line=$(export FAKE_QEMU_MODE=msr; mpc_accel 2>&1; mpc_accel_verdict; mpc_accel 2>&1)
[ "$(calls)" = 1 ] &&
	[ "$line" = "$(printf 'accel: tcg (kvm present but failed to start a guest: qemu-system-x86_64: error: failed to set MSR 0x10a to 0x69)\n%s' \
		'accel: tcg (kvm present but failed to start a guest: qemu-system-x86_64: error: failed to set MSR 0x10a to 0x69)')" ]
ok $? "mpc_accel probes once per run and prints 'accel: tcg (why)'" "calls=$(calls) line='$line'"

# boot.sh: a QEMU that fails before the guest printed anything is shown,
# not booted again; a guest that printed and died is booted once more.
krel=$(mpc_kernels | tail -n 1)
if [ -n "$krel" ]; then
	: >"$FAKE_QEMU_LOG"
	err=$(FAKE_QEMU_MODE=msr MPC_ACCEL_VERDICT="kvm host test" \
		"$MPC_ROOT/scripts/vm/boot.sh" "$krel" "$tmp/vmlinuz" "$tmp/vm1" 20 2>&1)
	rc=$?
	[ "$rc" = 126 ] && [ "$(calls)" = 1 ] &&
		grep -q '^boot.sh:   qemu-system-x86_64: error: failed to set MSR 0x10a to 0x69$' <<<"$err" &&
		grep -q -- '-accel kvm .*-cpu host' "$FAKE_QEMU_LOG"
	ok $? "boot.sh: QEMU failing before the guest printed: status 126, its stderr shown, no second boot" \
		"rc=$rc calls=$(calls) err='$err'"
	: >"$FAKE_QEMU_LOG"
	FAKE_QEMU_MODE=oops MPC_ACCEL_VERDICT="tcg max test" \
		"$MPC_ROOT/scripts/vm/boot.sh" "$krel" "$tmp/vmlinuz" "$tmp/vm2" 20 2>/dev/null
	rc=$?
	[ "$rc" = 125 ] && [ "$(calls)" = 2 ] && [ -s "$tmp/vm2/console.first-boot.log" ]
	ok $? "boot.sh: a guest that died while booting: booted once more, then status 125" \
		"rc=$rc calls=$(calls)"
else
	for what in "QEMU failing before the guest printed" "a guest that died while booting"; do
		n=$((n + 1))
		echo "ok $n - boot.sh: $what # SKIP no Debian kernel installed"
	done
fi
tap_finish
