#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Build a busybox initramfs that tests mali_perfcnt inside QEMU.
#
#   mkinitramfs.sh [options] KREL OUT.cpio.gz
#     --module KO     the mali_perfcnt.ko built for KREL (optional); the
#                     test power controller mpc_test_pd.ko built next to it
#                     (kernel/tests/mpc_test_pd.c, arm64 kernels) goes too
#     --in-tree MOD   also ship the kernel's own module MOD (e.g. panfrost)
#                     with its dependencies; /mpc/run loads it (repeatable)
#     --replace-module KO  KO (e.g. a patched panfrost.ko) instead of the
#                     kernel's module of the same name, shipped with
#                     --in-tree (its dependencies are the kernel's module's)
#     --run SCRIPT    becomes /mpc/run, started by /init (required, but
#                     with --lava)
#     --lava          a LAVA guest: /init loads the DRM modules and starts
#                     a shell on the serial console (ttyAMA0, ttyS0), for
#                     LAVA's boot and test actions (lava/, scripts/lava-check.sh)
#     --selftests DIR copy the executables of DIR to /mpc/selftests
#     --user          add user/build/mali-perfcnt (+ its shared libraries),
#                     user/build/mpc-fmtcheck and user/tests/ if they exist
#     --user-dir DIR  the same from DIR instead of user/build (a cross build);
#                     when DIR/debs holds the mali-perfcnt and libmaliperfcnt1
#                     packages (arm64), the tool is installed from them instead
#                     (their files unpacked into the image, /mpc/user/mali-perfcnt
#                     a link to /usr/bin/mali-perfcnt)
#     --file SRC:DST  add one more file at DST
#     --elf PATH      add the host executable PATH at the same path, with the
#                     shared libraries it needs (x86_64 only)
#     --mesa          (arm64) add Debian's Mesa (scripts/deps.sh --mesa):
#                     libEGL, libGLESv2, Mesa's EGL vendor library and
#                     panfrost_dri.so with every library they need, and
#                     /mpc/gles-client and /mpc/pf-fault (tools/gles-client,
#                     cross-built into build/gles-client-aarch64). They
#                     make a second cpio archive (~76 MB gzip'ed, ~220 MB
#                     unpacked), cached as build/vm-tools/arm64/mesa.cpio.gz
#                     and appended to the image (the kernel unpacks
#                     concatenated archives)
#
# Layout of the image: /init (scripts/vm/init), /bin/busybox with its
# applets, /lib/modules/KREL/{kernel,extra} with the in-tree modules the
# driver needs (decompressed) and a depmod index, /mpc/... for the tests.
#
# An arm64 KREL (*-arm64, see scripts/lib.sh) takes its kernel modules,
# busybox and shared libraries from the arm64 root of scripts/deps.sh and
# adds what the `virt` machine's result channel needs: the virtio-mmio and
# virtio-console modules (/mpc/early-deps, loaded first by /init) and
# /mpc/semihost-exit (scripts/vm/semihost-exit.c, cross-built once into
# build/vm-tools). No bash there: the test scripts run under busybox ash.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
trap 'echo "mkinitramfs.sh: failed at line $LINENO: $BASH_COMMAND" >&2' ERR

module='' run='' selftests='' user=0 files=() in_tree='' replace=() elfs=() mesa=0 lava=0
ub=$MPC_ROOT/user/build
while [ $# -gt 0 ]; do
	case "$1" in
	--module)	module=$2; shift 2 ;;
	--in-tree)	in_tree+=" $2"; shift 2 ;;
	--replace-module) replace+=("$2"); shift 2 ;;
	--run)		run=$2; shift 2 ;;
	--lava)		lava=1; shift ;;
	--selftests)	selftests=$2; shift 2 ;;
	--user)		user=1; shift ;;
	--user-dir)	user=1; ub=$2; shift 2 ;;
	--file)		files+=("$2"); shift 2 ;;
	--elf)		elfs+=("$2"); shift 2 ;;
	--mesa)		mesa=1; shift ;;
	-*)		die "unknown option $1" ;;
	*)		break ;;
	esac
done
[ $# -eq 2 ] || die "usage: $0 [options] KREL OUT"
krel=$1 out=$2
[ -n "$run" ] || [ "$lava" = 1 ] || die "--run is required"
arch=$(mpc_arch "$krel")
# The kernel's modules come from its root (the arm64 or the debug kernel's
# cache, or the host's own), the userland from the architecture's.
root=$(mpc_sysroot "$krel")
[ -d "$root/lib/modules/$krel" ] || die "kernel $krel is not installed${root:+ in $root (scripts/deps.sh)}"
uroot=''
[ "$arch" = arm64 ] && uroot=$MPC_ARM64_ROOT
mesa_root=$MPC_ARM64_CACHE/mesa/root
if [ "$mesa" = 1 ]; then
	[ "$arch" = arm64 ] || die "--mesa: arm64 images only"
	[ -s "$mesa_root/.mpc-mesa" ] || die "--mesa: no Mesa in $mesa_root (run scripts/deps.sh --mesa)"
fi

stage=$(mktemp -d "${TMPDIR:-/tmp}/mpc-initramfs.XXXXXX")
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage"/{bin,sbin,dev,proc,sys,tmp,etc,mpc,lib64,usr/bin}
mkdir -p "$stage/lib/modules/$krel/extra"

cp "$uroot/bin/busybox" "$stage/bin/busybox"
install -m 0755 "$MPC_ROOT/scripts/vm/init" "$stage/init"
[ -z "$run" ] || install -m 0755 "$run" "$stage/mpc/run"
[ "$lava" = 0 ] || : >"$stage/mpc/lava"
install -m 0644 "$MPC_ROOT/scripts/vm/guest-lib.sh" "$stage/mpc/lib.sh"
echo "$krel" > "$stage/mpc/krel"

# copy_elf FILE: copy an executable and every shared library it needs
# (found with ldd) to the same paths in the image.
copy_elf() {
	local f=$1 lib

	if [ "$arch" = arm64 ]; then
		copy_elf_cross "$f" "$f"
		return
	fi
	mkdir -p "$stage$(dirname "$f")"
	cp -L "$f" "$stage$f"
	# A static executable has no libraries (ldd then fails).
	for lib in $(ldd "$f" 2>/dev/null | grep -o '/[^ ]*' || true); do
		[ -e "$stage$lib" ] && continue
		mkdir -p "$stage$(dirname "$lib")"
		cp -L "$lib" "$stage$lib"
	done
}

# copy_elf_cross SRC DST: an arm64 executable or library at DST in the
# image, then its interpreter and the libraries it needs (DT_NEEDED, read
# with readelf, recursively), taken from the arm64 root at the same paths.
copy_elf_cross() {
	local src=$1 dst=$2 interp lib dir found

	mkdir -p "$stage$(dirname "$dst")"
	cp -L "$src" "$stage$dst"
	interp=$("${MPC_ARM64_CROSS}readelf" -lW "$src" |
		sed -n 's/.*Requesting program interpreter: \(.*\)]$/\1/p')
	if [ -n "$interp" ] && [ ! -e "$stage$interp" ]; then
		[ -e "$root$interp" ] || die "$src: interpreter $interp not in $root"
		mkdir -p "$stage$(dirname "$interp")"
		cp -L "$root$interp" "$stage$interp"
	fi
	for lib in $("${MPC_ARM64_CROSS}readelf" -dW "$src" |
			sed -n 's/.*(NEEDED).*\[\(.*\)\]$/\1/p'); do
		found=''
		for dir in /lib/aarch64-linux-gnu /usr/lib/aarch64-linux-gnu; do
			if [ -e "$stage$dir/$lib" ]; then
				found=staged
				break
			fi
			# The arm64 root, then (--mesa) Mesa's
			for r in "$root" ${libroot:+"$libroot"}; do
				if [ -e "$r$dir/$lib" ]; then
					copy_elf_cross "$r$dir/$lib" "$dir/$lib"
					found=copied
					break 2
				fi
			done
		done
		[ -n "$found" ] || die "$src needs $lib, not in $root${libroot:+ or $libroot} (scripts/deps.sh)"
	done
}
libroot=''

# mesa_archive OUT: the --mesa archive: the GLES client and Mesa, with the
# libraries they need (from Mesa's root, or the arm64 root). libEGL finds
# Mesa through glvnd's vendor file, Mesa's EGL its DRI driver by path.
mesa_archive() {
	local out=$1 base_stage=$stage lib=usr/lib/aarch64-linux-gnu f

	stage=$(mktemp -d "${TMPDIR:-/tmp}/mpc-mesa.XXXXXX")
	libroot=$mesa_root
	copy_elf_cross "$client" /mpc/gles-client
	copy_elf_cross "$client_dir/pf-fault" /mpc/pf-fault
	for f in $lib/libEGL_mesa.so.0 $lib/dri/panfrost_dri.so; do
		[ -e "$mesa_root/$f" ] || die "--mesa: $mesa_root/$f missing (scripts/deps.sh --mesa)"
		copy_elf_cross "$mesa_root/$f" "/$f"
	done
	mkdir -p "$stage/usr/share/glvnd/egl_vendor.d"
	cp "$mesa_root/usr/share/glvnd/egl_vendor.d/50_mesa.json" \
		"$stage/usr/share/glvnd/egl_vendor.d/"
	(cd "$stage" && find . -print0 | sort -z |
		cpio --null -o -H newc --owner=0:0 --quiet) | gzip -1 > "$out.tmp"
	mv "$out.tmp" "$out"
	rm -rf "$stage"
	stage=$base_stage libroot=''
}

# copy_module PATH: an in-tree module, decompressed, at its usual path.
copy_module() {
	local src=$1 rel dst

	rel=${src#"$root"/lib/modules/"$krel"/}
	dst=$stage/lib/modules/$krel/${rel%.xz}
	mkdir -p "$(dirname "$dst")"
	case "$src" in
	*.xz)	xz -dc "$src" > "$dst" ;;
	*)	cp "$src" "$dst" ;;
	esac
}

# In-tree dependencies: those the module declares, else DRM itself.
deps=drm
if [ -n "$module" ]; then
	[ -f "$module" ] || die "$module not found"
	cp "$module" "$stage/lib/modules/$krel/extra/mali_perfcnt.ko"
	test_pd=$(dirname "$module")/mpc_test_pd.ko
	[ ! -f "$test_pd" ] || cp "$test_pd" "$stage/lib/modules/$krel/extra/"
	deps=$(modinfo -F depends "$module" | tr ',' ' ')
	[ -n "$deps" ] || deps=drm
fi
echo "$deps" > "$stage/mpc/deps"
early=''
[ "$arch" = arm64 ] && early='virtio_mmio virtio_console'
echo "$early" > "$stage/mpc/early-deps"
for d in $deps $early $in_tree; do
	modprobe ${root:+-d "$root"} -S "$krel" --show-depends "$d" |
		awk '$1 == "insmod" { print $2 }'
done | sort -u | while read -r m; do
	copy_module "$m"
done
for m in "${replace[@]}"; do
	[ -f "$m" ] || die "--replace-module $m: not found"
	dst=$(find "$stage/lib/modules/$krel" -name "$(basename "$m")")
	[ -n "$dst" ] || die "--replace-module $m: no $(basename "$m") in the image (--in-tree)"
	cp "$m" "$dst"
done
for f in modules.builtin modules.builtin.modinfo modules.order; do
	[ -e "$root/lib/modules/$krel/$f" ] && cp "$root/lib/modules/$krel/$f" \
		"$stage/lib/modules/$krel/"
done
depmod -b "$stage" "$krel"

# What images share (the semihosting tool and the Mesa archive in
# build/vm-tools, the GLES client) is built by one mkinitramfs.sh at a time.
mkdir -p "$MPC_BUILD/vm-tools"
exec 7>"$MPC_BUILD/vm-tools/.lock"
if [ "$arch" = arm64 ]; then
	flock 7
	tool=$MPC_BUILD/vm-tools/arm64/mpc-semihost-exit
	src=$MPC_ROOT/scripts/vm/semihost-exit.c
	if [ ! -x "$tool" ] || [ "$src" -nt "$tool" ]; then
		mkdir -p "$(dirname "$tool")"
		"${MPC_ARM64_CROSS}gcc" -static -O2 -Wall -Wextra -o "$tool.tmp" "$src"
		mv "$tool.tmp" "$tool"
	fi
	install -m 0755 "$tool" "$stage/mpc/semihost-exit"
	flock -u 7
fi

if [ -n "$selftests" ]; then
	mkdir -p "$stage/mpc/selftests"
	find "$selftests" -maxdepth 1 -type f -executable \
		-exec cp {} "$stage/mpc/selftests/" \;
	[ -f "$selftests/settings" ] && cp "$selftests/settings" "$stage/mpc/selftests/"
fi

if [ "$user" = 1 ]; then
	debs=''
	[ -d "$ub/debs" ] && debs=$(find "$ub/debs" -maxdepth 1 \( \
		-name 'mali-perfcnt_*.deb' -o -name 'libmaliperfcnt1_*.deb' \) | sort)
	if [ -n "$debs" ]; then
		[ "$arch" = arm64 ] || die "--user-dir: packages are for arm64 images"
		[ "$(wc -l <<<"$debs")" = 2 ] || die "$ub/debs: not one mali-perfcnt and one libmaliperfcnt1"
		pk=$stage/.debs
		for d in $debs; do
			dpkg-deb -x "$d" "$pk"
		done
		rm -rf "${pk:?}/usr/share"
		# The library first (with its links), then each ELF with what it needs.
		cp -a "$pk/usr/." "$stage/usr/"
		for f in $(cd "$pk" && find usr -type f); do
			copy_elf_cross "$pk/$f" "/$f"
		done
		rm -rf "$pk"
		mkdir -p "$stage/mpc/user"
		ln -s /usr/bin/mali-perfcnt "$stage/mpc/user/mali-perfcnt"
	elif [ -x "$ub/mali-perfcnt" ]; then
		# The libraries; the binary itself goes to a fixed guest path (a
		# link to the host path breaks when the checkout is under /tmp,
		# which the guest mounts a tmpfs over).
		copy_elf "$ub/mali-perfcnt"
		mkdir -p "$stage/mpc/user"
		cp -L "$ub/mali-perfcnt" "$stage/mpc/user/mali-perfcnt"
	fi
	# The test helpers: the libraries; each binary at a fixed guest path (a
	# link to the host path breaks when the checkout is under /tmp, which
	# the guest mounts a tmpfs over).
	for t in mpc-fmtcheck mpc-kbprobe; do
		[ -x "$ub/$t" ] || continue
		copy_elf "$ub/$t"
		mkdir -p "$stage/mpc/user"
		cp -L "$ub/$t" "$stage/mpc/user/$t"
	done
	if [ -d "$MPC_ROOT/user/tests" ]; then
		mkdir -p "$stage/mpc/user"
		cp -r "$MPC_ROOT/user/tests" "$stage/mpc/user/tests"
		# Test scripts may want bash; busybox has only ash. (Not in
		# the arm64 image: e2e.sh is written for ash.)
		[ "$arch" = arm64 ] || copy_elf /bin/bash
	fi
fi

for f in ${elfs[@]+"${elfs[@]}"}; do
	[ "$arch" = arm64 ] && die "--elf $f: x86_64 images only"
	copy_elf "$f"
done

for f in ${files[@]+"${files[@]}"}; do
	mkdir -p "$stage$(dirname "${f#*:}")"
	cp "${f%%:*}" "$stage${f#*:}"
done

extra=''
if [ "$mesa" = 1 ]; then
	client_dir=$MPC_BUILD/gles-client-aarch64
	client=$client_dir/gles-client
	flock 7
	make -s -C "$MPC_ROOT/tools/gles-client" CC="${MPC_ARM64_CROSS}gcc" \
		MESA_ROOT="$mesa_root" OUTPUT="$client_dir" >&2 ||
		die "--mesa: building tools/gles-client for arm64 failed"
	extra=$MPC_BUILD/vm-tools/arm64/mesa.cpio.gz
	mkdir -p "$(dirname "$extra")"
	if [ ! -s "$extra" ] || [ "$mesa_root/.mpc-mesa" -nt "$extra" ] ||
	   [ "$client" -nt "$extra" ] || [ "$client_dir/pf-fault" -nt "$extra" ] ||
	   [ "$0" -nt "$extra" ]; then
		mesa_archive "$extra"
	fi
	flock -u 7
fi

mkdir -p "$(dirname "$out")"
(cd "$stage" && find . -print0 | sort -z |
	cpio --null -o -H newc --owner=0:0 --quiet) | gzip -1 > "$out.tmp"
[ -z "$extra" ] || cat "$extra" >>"$out.tmp"
mv "$out.tmp" "$out"
