#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# /mpc/run of a qemu-gpu VM whose panfrost.ko is the one built from the
# panfrost series (scripts/panfrost-series.sh), in place of the kernel's
# own: loads it (no unstable_ioctls), then runs the series' kselftests as
# a kernel developer would, from the install tree of the patched kernel
# tree (/mpc/pf-kselftest.tar.gz) under its own runner:
# ./run_kselftest.sh -c drivers/gpu/panfrost. Its log goes out as "# "
# lines, then every case (ktap-cases.awk) as the TAP section
# "panfrost-patched", with MPC_QEMU_CTL the QEMU device's test-control
# window (the row's ctl=, default 0x090c8000: session_test arms the
# model's faults through it). Here every case applies, so a skip fails too: a
# stock panfrost (no PERFCNT_FEATURES) skips them all. Then, with the tool
# (/mpc/user), the section "panfrost-patched-tool": the tool reads the
# counters through the patched panfrost's sessions. Exit status: 0 when
# every case passed.

# shellcheck source=guest-lib.sh
. /mpc/lib.sh
if ! modprobe panfrost; then
	echo "=== BEGIN panfrost_load"
	echo "1..1"
	echo "not ok 1 modprobe_panfrost # modprobe panfrost (the patched module) failed"
	echo "=== END panfrost_load rc=1"
	exit 1
fi
dmesg | grep -i -E 'panfrost|mali' | sed 's/^/# /'
sed 's/^/# target: /' /mpc/target

for f in stdin:0 stdout:1 stderr:2; do
	[ -L "/dev/${f%:*}" ] || { rm -f "/dev/${f%:*}"; ln -s "/proc/self/fd/${f#*:}" "/dev/${f%:*}"; }
done
ctl=$(mpc_key ctl)
export MPC_QEMU_CTL="${ctl:-0x090c8000}"
ks=/tmp/pf-kselftest
mkdir -p "$ks"
sec=panfrost-patched
echo "=== BEGIN $sec"
if ! tar -xzf /mpc/pf-kselftest.tar.gz -C "$ks"; then
	echo "1..1"
	echo "not ok 1 kselftest_unpack # tar -xzf /mpc/pf-kselftest.tar.gz failed"
	echo "=== END $sec rc=1"
	exit 1
fi
(cd "$ks" && ./run_kselftest.sh -c drivers/gpu/panfrost) 2>&1 | cat >"/tmp/$sec.log"
sed 's/^/# /' "/tmp/$sec.log"
awk -f /mpc/ktap-cases.awk "/tmp/$sec.log" >"/tmp/$sec.cases"
r=0 n=0
while IFS='	' read -r st name why; do
	n=$((n + 1))
	case $st in
	pass)	echo "ok $n $name" ;;
	skip)	echo "not ok $n $name # skipped on the patched panfrost: $why"; r=1 ;;
	*)	echo "not ok $n $name${why:+ # $why}"; r=1 ;;
	esac
done <"/tmp/$sec.cases"
if [ "$n" = 0 ]; then
	n=1 r=1
	echo "not ok 1 run_kselftest # the runner reported no case"
fi
echo "1..$n"
echo "=== END $sec rc=$r"

# The tool on the patched panfrost (the row's tool=yes): it finds the
# sessions by the feature bit and reads the counters through them, the
# unstable ioctls only when asked (MPC_PANFROST_UNSTABLE=1).
tool=/mpc/user/mali-perfcnt
if [ -x "$tool" ]; then
	sec=panfrost-patched-tool n=0 f=0
	t() { # t NAME CMD...: one case
		n=$((n + 1)) name=$1
		shift
		if "$@"; then echo "ok $n $name"; else echo "not ok $n $name"; f=1; fi
	}
	echo "=== BEGIN $sec"
	mpc_bounded 60 "$tool" --backend panfrost info >/tmp/info.out 2>&1
	sed 's/^/# /' /tmp/info.out
	t "info: interface counter sessions (patched panfrost)" \
		grep -q '^interface  *counter sessions (patched panfrost)$' /tmp/info.out
	MPC_PANFROST_UNSTABLE=1 mpc_bounded 60 "$tool" --backend panfrost info >/tmp/info2.out 2>&1
	t "info with MPC_PANFROST_UNSTABLE=1: interface unstable perfcnt ioctls" \
		grep -q '^interface  *unstable perfcnt ioctls$' /tmp/info2.out
	mpc_bounded 60 "$tool" --backend panfrost stat -e GPU_ACTIVE,JS0_ACTIVE --format csv \
		--masks jm=0xffff,tiler=0,shader=0,l2=0 -- sleep 0.5 >/tmp/stat.out 2>&1
	sed 's/^/# /' /tmp/stat.out
	# sample,time_s,interval_s,type,block,name,lgc_name,value,unit,status,data_flags
	# shellcheck disable=SC2016 # an awk program
	t "stat through a session: GPU_ACTIVE > 0 at 50 % load over ~0.5 s, ok" \
		awk -F, '$6 == "GPU_ACTIVE" && $8 > 0 && $3 > 0.4 && $3 < 5 && $10 == "ok" { g = 1 }
			END { exit !g }' /tmp/stat.out
	echo "1..$n"
	echo "=== END $sec rc=$f"
	[ "$f" = 0 ] || r=1
fi
exit $r
