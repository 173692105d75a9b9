#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Build, or reuse from the cache, the debug kernel `make check-debug` boots:
# Debian's linux-source-6.1 with the local patches of patches/ applied and
# the config fragment debug.config on top of tinyconfig (KASAN, lockdep,
# kmemleak, debug objects, KUnit, fault injection).
#
#   build.sh            make sure the kernel is built; prints its release
#   build.sh --key      print the cache key and exit
#   build.sh --env      print KREL=, KDIR=, ROOT= of the cached kernel
#
# The cache lives at a FIXED absolute path (the build records absolute
# paths, so a moved tree means a full rebuild): $MPC_DEBUG_KERNEL_CACHE,
# default /var/cache/mali-perfcnt/debug-kernel, holding
#   src/    the patched kernel source       build/  the O= build directory
#   root/   boot/vmlinuz-KREL and lib/modules/KREL (modules_install)
#   key     what the tree was built from    complete  the build finished
# The key hashes the source tarball, debug.config, the patches, the
# compiler and linker versions and this recipe's revision. A different key
# wipes the cache and builds from scratch; an interrupted build with the
# same key resumes (make is incremental). Concurrent runs are serialised
# with flock on $CACHE.lock (skipped when the caller already holds it and
# says so with MPC_DEBUG_KERNEL_LOCKED=1).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"

CACHE=${MPC_DEBUG_KERNEL_CACHE:-/var/cache/mali-perfcnt/debug-kernel}
SRC_TAR=${MPC_DEBUG_KERNEL_SRC:-/usr/src/linux-source-6.1.tar.xz}
JOBS=${MPC_JOBS:-2}
# Bump when the steps below change in a way that needs a rebuild.
RECIPE=1
FRAGMENT=$here/debug.config

case "$CACHE" in
/*) ;;
*) die "MPC_DEBUG_KERNEL_CACHE must be an absolute path" ;;
esac

cache_key() {
	{
		echo "recipe $RECIPE"
		sha256sum <"$SRC_TAR"
		sha256sum <"$FRAGMENT"
		find "$here/patches" -name '*.patch' | LC_ALL=C sort |
			while read -r p; do
				echo "patch $(basename "$p") $(sha256sum <"$p")"
			done
		gcc --version | head -n 1
		ld --version | head -n 1
	} | sha256sum | cut -c1-16
}

# Every line of the fragment must hold in the final .config: a dependency
# that silently drops an option would otherwise leave an instrument off.
verify_config() {
	awk '
	FNR == NR {
		if (/^CONFIG_[A-Za-z0-9_]+=/) {
			split($0, kv, "="); want[kv[1]] = substr($0, length(kv[1]) + 2)
		} else if (/^# CONFIG_[A-Za-z0-9_]+ is not set/) {
			want[$2] = "n"
		}
		next
	}
	/^CONFIG_[A-Za-z0-9_]+=/ {
		split($0, kv, "="); have[kv[1]] = substr($0, length(kv[1]) + 2)
	}
	END {
		for (k in want) {
			h = (k in have) ? have[k] : "n"
			if (h != want[k]) {
				printf "debug.config: %s=%s wanted, .config has %s\n", k, want[k], h
				bad = 1
			}
		}
		exit bad
	}' "$FRAGMENT" "$CACHE/build/.config"
}

print_env() {
	local krel

	krel=$(cat "$CACHE/krel")
	echo "KREL=$krel"
	echo "KDIR=$CACHE/build"
	echo "ROOT=$CACHE/root"
}

case "${1:-}" in
--key)	cache_key; exit 0 ;;
--env)	[ -e "$CACHE/complete" ] || die "no debug kernel in $CACHE"
	print_env; exit 0 ;;
"")	;;
*)	die "usage: $0 [--key|--env]" ;;
esac

mkdir -p "$(dirname "$CACHE")"
if [ "${MPC_DEBUG_KERNEL_LOCKED:-0}" != 1 ]; then
	exec 9>"$CACHE.lock"
	flock -n 9 || { log "debug-kernel: waiting for another build ($CACHE.lock)"; flock 9; }
fi

mpc_install_pkgs debug-kernel "${MPC_DEBUG_KERNEL_PKGS[@]}"
[ -r "$SRC_TAR" ] || die "$SRC_TAR missing"
key=$(cache_key)

if [ -e "$CACHE/complete" ] && [ "$(cat "$CACHE/key" 2>/dev/null)" = "$key" ]; then
	log "debug-kernel: reusing $CACHE (key $key)"
	cat "$CACHE/krel"
	exit 0
fi

t0=$(date +%s)
if [ "$(cat "$CACHE/key" 2>/dev/null)" != "$key" ]; then
	log "debug-kernel: building from scratch in $CACHE (key $key)"
	rm -rf "$CACHE"
	mkdir -p "$CACHE"
	echo "$key" >"$CACHE/key"
else
	log "debug-kernel: resuming the build in $CACHE (key $key)"
fi
blog=$CACHE/build.log

if [ ! -e "$CACHE/src.ok" ]; then
	rm -rf "$CACHE/src"
	mkdir -p "$CACHE/src"
	log "debug-kernel: extracting $(basename "$SRC_TAR")"
	tar -xJf "$SRC_TAR" -C "$CACHE/src" --strip-components=1
	for p in $(find "$here/patches" -name '*.patch' | LC_ALL=C sort); do
		log "debug-kernel: applying $(basename "$p")"
		patch -d "$CACHE/src" -p1 --forward --no-backup-if-mismatch -s <"$p" ||
			die "$(basename "$p") does not apply"
	done
	touch "$CACHE/src.ok"
fi

kmake() {
	make -C "$CACHE/src" O="$CACHE/build" "$@" >>"$blog" 2>&1 ||
		{ tail -n 40 "$blog" >&2; die "make $* failed (log: $blog)"; }
}

if [ ! -e "$CACHE/config.ok" ]; then
	log "debug-kernel: configuring (tinyconfig + debug.config)"
	mkdir -p "$CACHE/build"
	kmake tinyconfig
	(cd "$CACHE/build" &&
	 "$CACHE/src/scripts/kconfig/merge_config.sh" -m -O "$CACHE/build" \
		"$CACHE/build/.config" "$FRAGMENT") >>"$blog" 2>&1 ||
		die "merge_config.sh failed (log: $blog)"
	kmake olddefconfig
	verify_config >&2 || die "the config fragment did not apply"
	touch "$CACHE/config.ok"
fi

log "debug-kernel: make -j$JOBS bzImage modules (8-11 min on 2 idle cores)"
kmake -j"$JOBS" bzImage modules
krel=$(make -s -C "$CACHE/src" O="$CACHE/build" kernelrelease 2>/dev/null | tail -n 1)
[ -n "$krel" ] || die "no kernel release"
rm -rf "$CACHE/root"
mkdir -p "$CACHE/root/boot"
kmake INSTALL_MOD_PATH="$CACHE/root" INSTALL_MOD_STRIP=1 modules_install
cp "$CACHE/build/arch/x86/boot/bzImage" "$CACHE/root/boot/vmlinuz-$krel"
rm -f "$CACHE/root/lib/modules/$krel/build" "$CACHE/root/lib/modules/$krel/source"
ln -s "$CACHE/build" "$CACHE/root/lib/modules/$krel/build"
echo "$krel" >"$CACHE/krel"
touch "$CACHE/complete"
log "debug-kernel: $krel built in $(($(date +%s) - t0)) s"
echo "$krel"
