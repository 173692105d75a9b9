#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The suite as a standard kselftest package, laid out as a kernel tree's
# `make -C tools/testing/selftests gen_tar` lays it out, one per
# architecture (Documentation/lab.rst):
#
#   kselftest-package.sh [--arch ARCH]... [--out DIR]
#     --arch ARCH  x86_64 or arm64 (repeatable; default both)
#     --out DIR    where the trees and tarballs go (default build/kselftest-package)
#
# DIR/ARCH/ is the install tree, DIR/mali-perfcnt-kselftest-ARCH.tar.gz its
# tarball:
#   run_kselftest.sh, kselftest/{runner.sh,prefix.pl,ktap_helpers.sh,...}
#                    the kernel's runner, from Debian's linux-source tarball
#                    ($MPC_LINUX_SRC) at build time
#   kselftest-list.txt   drivers/gpu/mali_perfcnt:TEST.sh, one a line
#   drivers/gpu/mali_perfcnt/
#     settings, config   the collection's (timeout=, kernel options)
#     TEST.sh            the test programs the runner runs: each runs
#                        mpc_ksft.sh TEST (scripts/kselftest/mpc_ksft.sh),
#                        which finds the module, the GPU and the QEMU test
#                        window, then the binary TEST, or skips with why
#     soc_test, ...      the selftest binaries (static), mpc_ctl
#     ktap-cases.awk     the runner's log as one case a line (LAVA's cases)
#     lava-cases.sh      those cases as LAVA test cases (lava-test-case)
#     modules/KREL/      mali_perfcnt.ko for each Debian kernel of ARCH
#                        (arm64: the production build, MPC_SIM=0, with
#                        mpc_test_pd.ko; x86_64: with the simulator)
#     tool/              mali-perfcnt, mpc-fmtcheck and tool/tests/ (the
#                        tool's e2e scripts)
# arm64 is cross-built as scripts/check.sh builds it (scripts/deps.sh's
# arm64 root); its kernels are those mpc_arm64_kernels lists.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
trap 'echo "kselftest-package.sh: failed at line $LINENO: $BASH_COMMAND" >&2' ERR

arches=() out=$MPC_BUILD/kselftest-package
while [ $# -gt 0 ]; do
	case $1 in
	--arch)	case $2 in
		x86_64|arm64) arches+=("$2") ;;
		*) die "--arch $2: give x86_64 or arm64" ;;
		esac
		shift 2 ;;
	--out)	out=$2; shift 2 ;;
	*)	die "unknown option $1 (usage: $0 [--arch x86_64|arm64]... [--out DIR])" ;;
	esac
done
[ ${#arches[@]} -gt 0 ] || arches=(x86_64 arm64)
out=$(mkdir -p "$out" && cd "$out" && pwd)

coll=drivers/gpu/mali_perfcnt
# The test programs, in the order the qemu-gpu guests run them
# (scripts/vm/guest-hw.sh): soc_test and bind_test on the free GPU first,
# model_reports last.
tests=(soc_test bind_test uapi_test sim_test stress_test stream_test session_test e2e side_by_side
       panfrost_test model_reports)
runner=(tools/testing/selftests/run_kselftest.sh
	tools/testing/selftests/kselftest/runner.sh
	tools/testing/selftests/kselftest/prefix.pl
	tools/testing/selftests/kselftest/ktap_helpers.sh
	tools/testing/selftests/kselftest/module.sh
	tools/testing/selftests/kselftest/ksft.py)
mpc_extract_linux_src "${runner[@]}"
ls_src=$MPC_BUILD/linux-src/tools/testing/selftests

# build_modules ARCH DEST: mali_perfcnt.ko for each kernel of ARCH
build_modules() {
	local arch=$1 dest=$2 krel kdir tree n=0
	local -a mk

	if [ "$arch" = arm64 ]; then
		krels=$(mpc_arm64_kernels)
	else
		krels=$(mpc_kernels)
	fi
	[ -n "$krels" ] || die "no $arch kernel with headers (scripts/deps.sh)"
	for krel in $krels; do
		kdir=$(mpc_kdir "$krel")
		tree=$out/obj/kmod-$krel
		read -ra mk <<<"$(mpc_kmake_args "$krel")"
		[ "$arch" = arm64 ] && mk+=(MPC_SIM=0)
		mpc_copy_kernel_tree "$tree"
		log "== $krel: mali_perfcnt.ko (${mk[*]})"
		make -C "$kdir" M="$tree" "${mk[@]}" -j2 modules >"$out/obj/kmod-$krel.log" 2>&1 ||
			die "mali_perfcnt.ko does not build for $krel (see $out/obj/kmod-$krel.log)"
		mkdir -p "$dest/$krel"
		cp "$tree/mali_perfcnt.ko" "$dest/$krel/"
		[ "$arch" = arm64 ] && [ -f "$tree/mpc_test_pd.ko" ] && cp "$tree/mpc_test_pd.ko" "$dest/$krel/"
		n=$((n + 1))
	done
	log "   $n kernel(s)"
}

# build_user ARCH O: the tool and mpc-fmtcheck into O
build_user() {
	log "== $1: make -C user"
	mpc_make_user "$1" "$2" all >"$2.log" 2>&1 || die "make -C user ($1) failed (see $2.log)"
}

for arch in "${arches[@]}"; do
	t0=$(date +%s)
	tree=$out/$arch
	cd_=$tree/$coll
	rm -rf "$tree"
	mkdir -p "$cd_" "$out/obj" "$tree/kselftest"

	# The runner, as the kernel's selftests Makefile installs it.
	install -m 0755 "$ls_src/run_kselftest.sh" "$tree/"
	for f in runner.sh prefix.pl ktap_helpers.sh module.sh ksft.py; do
		install -m 0744 "$ls_src/kselftest/$f" "$tree/kselftest/"
	done

	log "== $arch: selftests"
	st=$out/obj/selftests-$arch
	mpc_make_selftests "$arch" "$st" >"$st.log" 2>&1 || die "selftests do not build for $arch (see $st.log)"
	for f in soc_test bind_test uapi_test sim_test stress_test stream_test session_test panfrost_test \
		 mpc_ctl; do
		install -m 0755 "$st/$f" "$cd_/"
	done
	install -m 0644 "$st/settings" "$st/config" "$cd_/"
	install -m 0755 "$MPC_ROOT/scripts/kselftest/mpc_ksft.sh" "$cd_/"
	install -m 0644 "$MPC_ROOT/scripts/kselftest/ktap-cases.awk" "$cd_/"
	install -m 0755 "$MPC_ROOT/scripts/kselftest/lava-cases.sh" "$cd_/"
	for t in "${tests[@]}"; do
		# shellcheck disable=SC2016 # the generated script expands them
		printf '#!/bin/sh\n# SPDX-License-Identifier: GPL-2.0-only\n# %s of mali_perfcnt (mpc_ksft.sh says what it needs)\nexec "$(dirname "$0")/mpc_ksft.sh" %s "$@"\n' \
			"$t" "$t" >"$cd_/$t.sh"
		chmod 0755 "$cd_/$t.sh"
		echo "$coll:$t.sh"
	done >"$tree/kselftest-list.txt"

	build_modules "$arch" "$cd_/modules"

	ub=$out/obj/user-$arch
	build_user "$arch" "$ub"
	mkdir -p "$cd_/tool/tests"
	install -m 0755 "$ub/mali-perfcnt" "$ub/mpc-fmtcheck" "$cd_/tool/"
	for f in e2e.sh side-by-side.sh e2e-panfrost.sh tap.sh; do
		install -m 0644 "$MPC_ROOT/user/tests/$f" "$cd_/tool/tests/"
	done

	# Every file the package holds is executable for its architecture.
	want=x86-64
	[ "$arch" = arm64 ] && want=aarch64
	for f in "$cd_"/*_test "$cd_/mpc_ctl" "$cd_/tool/mali-perfcnt" "$cd_/tool/mpc-fmtcheck"; do
		file -b "$f" | grep -q "$want" || die "$f is not an $arch executable: $(file -b "$f")"
	done

	tar -C "$tree" --owner=0 --group=0 -czf "$out/mali-perfcnt-kselftest-$arch.tar.gz.tmp" .
	mv "$out/mali-perfcnt-kselftest-$arch.tar.gz.tmp" "$out/mali-perfcnt-kselftest-$arch.tar.gz"
	log "== $arch: $out/mali-perfcnt-kselftest-$arch.tar.gz ($(wc -l <"$tree/kselftest-list.txt") tests, $(($(date +%s) - t0))s)"
done
