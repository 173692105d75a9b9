#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Build a busybox initramfs that tests mali_perfcnt inside QEMU.
#
#   mkinitramfs.sh [options] KREL OUT.cpio.gz
#     --module KO     the mali_perfcnt.ko built for KREL (optional)
#     --run SCRIPT    becomes /mpc/run, started by /init (required)
#     --selftests DIR copy the executables of DIR to /mpc/selftests
#     --user          add user/build/mali-perfcnt (+ its shared libraries),
#                     user/build/mpc-fmtcheck and user/tests/ if they exist
#     --file SRC:DST  add one more file at DST
#
# Layout of the image: /init (scripts/vm/init), /bin/busybox with its
# applets, /lib/modules/KREL/{kernel,extra} with the in-tree modules the
# driver needs (decompressed) and a depmod index, /mpc/... for the tests.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
trap 'echo "mkinitramfs.sh: failed at line $LINENO: $BASH_COMMAND" >&2' ERR

module='' run='' selftests='' user=0 files=()
while [ $# -gt 0 ]; do
	case "$1" in
	--module)	module=$2; shift 2 ;;
	--run)		run=$2; shift 2 ;;
	--selftests)	selftests=$2; shift 2 ;;
	--user)		user=1; shift ;;
	--file)		files+=("$2"); shift 2 ;;
	-*)		die "unknown option $1" ;;
	*)		break ;;
	esac
done
[ $# -eq 2 ] || die "usage: $0 [options] KREL OUT"
krel=$1 out=$2
[ -n "$run" ] || die "--run is required"
[ -d "/lib/modules/$krel" ] || die "kernel $krel is not installed"

stage=$(mktemp -d "${TMPDIR:-/tmp}/mpc-initramfs.XXXXXX")
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage"/{bin,sbin,dev,proc,sys,tmp,etc,mpc,lib64,usr/bin}
mkdir -p "$stage/lib/modules/$krel/extra"

cp /bin/busybox "$stage/bin/busybox"
install -m 0755 "$MPC_ROOT/scripts/vm/init" "$stage/init"
install -m 0755 "$run" "$stage/mpc/run"
install -m 0644 "$MPC_ROOT/scripts/vm/guest-lib.sh" "$stage/mpc/lib.sh"
echo "$krel" > "$stage/mpc/krel"

# copy_elf FILE: copy an executable and every shared library it needs
# (found with ldd) to the same paths in the image.
copy_elf() {
	local f=$1 lib

	mkdir -p "$stage$(dirname "$f")"
	cp -L "$f" "$stage$f"
	# A static executable has no libraries (ldd then fails).
	for lib in $(ldd "$f" 2>/dev/null | grep -o '/[^ ]*' || true); do
		[ -e "$stage$lib" ] && continue
		mkdir -p "$stage$(dirname "$lib")"
		cp -L "$lib" "$stage$lib"
	done
}

# copy_module PATH: an in-tree module, decompressed, at its usual path.
copy_module() {
	local src=$1 rel dst

	rel=${src#/lib/modules/"$krel"/}
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
	deps=$(modinfo -F depends "$module" | tr ',' ' ')
	[ -n "$deps" ] || deps=drm
fi
echo "$deps" > "$stage/mpc/deps"
for d in $deps; do
	modprobe -S "$krel" --show-depends "$d" | awk '$1 == "insmod" { print $2 }'
done | sort -u | while read -r m; do
	copy_module "$m"
done
for f in modules.builtin modules.builtin.modinfo modules.order; do
	[ -e "/lib/modules/$krel/$f" ] && cp "/lib/modules/$krel/$f" \
		"$stage/lib/modules/$krel/"
done
depmod -b "$stage" "$krel"

if [ -n "$selftests" ]; then
	mkdir -p "$stage/mpc/selftests"
	find "$selftests" -maxdepth 1 -type f -executable \
		-exec cp {} "$stage/mpc/selftests/" \;
	[ -f "$selftests/settings" ] && cp "$selftests/settings" "$stage/mpc/selftests/"
fi

if [ "$user" = 1 ]; then
	ub=$MPC_ROOT/user/build
	if [ -x "$ub/mali-perfcnt" ]; then
		copy_elf "$ub/mali-perfcnt"
		mkdir -p "$stage/mpc/user"
		ln -s "$ub/mali-perfcnt" "$stage/mpc/user/mali-perfcnt"
	fi
	if [ -x "$ub/mpc-fmtcheck" ]; then
		copy_elf "$ub/mpc-fmtcheck"
		mkdir -p "$stage/mpc/user"
		ln -s "$ub/mpc-fmtcheck" "$stage/mpc/user/mpc-fmtcheck"
	fi
	if [ -d "$MPC_ROOT/user/tests" ]; then
		mkdir -p "$stage/mpc/user"
		cp -r "$MPC_ROOT/user/tests" "$stage/mpc/user/tests"
		# Test scripts may want bash; busybox has only ash.
		copy_elf /bin/bash
	fi
fi

for f in ${files[@]+"${files[@]}"}; do
	mkdir -p "$stage$(dirname "${f#*:}")"
	cp "${f%%:*}" "$stage${f#*:}"
done

mkdir -p "$(dirname "$out")"
(cd "$stage" && find . -print0 | sort -z |
	cpio --null -o -H newc --owner=0:0 --quiet) | gzip -1 > "$out.tmp"
mv "$out.tmp" "$out"
