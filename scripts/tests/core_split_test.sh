#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Host test of the core/host split (Documentation/design.rst, "The core and
# its host"): the counter core, kernel/core/, includes nothing of its host
# and names none of the host's functions, types or macros; it reaches
# mali_perfcnt.ko only through struct mpc_host_ops (kernel/core/mpc_host.h),
# so that another driver can build Kbuild's mpc_core-objs. Comments are
# stripped first (gcc -fpreprocessed), so a comment may still say where a
# thing lives. The checks are run on copies with a host call, a host
# include and a module parameter put in, which must fail. Prints TAP.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/tap-lib.sh"
root=$(cd "$here/../.." && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/mpc-core-split.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# The core's files, and what a core file may include with "": each other,
# the uAPI header.
core_files=(mpc_core.c mpc_perfcnt.c mpc_stream.c mpc_debugfs.c mpc_ioctl.c mpc_layout.c
	mpc_product.c mpc_session.c mpc_session_fd.c mpc_regs.h mpc_host.h mpc_core.h
	mpc_session.h)

# Is $1 one of the core's files?
is_core_file() {
	case " ${core_files[*]} " in
	*" $1 "*) return 0 ;;
	esac
	return 1
}

# Source without comments: one file to stdout.
nocomment() {
	gcc -fpreprocessed -dD -E -P -x c "$1" 2>/dev/null
}

# Every identifier the host (kernel/*.[ch], kernel/sim/) defines: functions
# defined at the start of a line, struct/enum tags and macros of its
# headers, and its register accessors. $1: the kernel/ directory.
host_symbols() {
	local k=$1
	{
		cat "$k"/*.c "$k"/sim/*.c | grep -v ';[[:space:]]*$' |
			sed -n 's/^[a-z].*[^a-z0-9_]\([a-z_][a-z0-9_]*\)(.*/\1/p'
		cat "$k"/*.h | sed -n 's/^\(struct\|enum\) \([a-z_][a-z0-9_]*\) {.*/\2/p'
		cat "$k"/*.h | sed -n 's/^#define \([A-Za-z_][A-Za-z0-9_]*\).*/\1/p'
		cat "$k"/*.h | sed -n 's/^[a-z].*[^a-z0-9_]\(mpc_[a-z0-9_]*\)(.*;.*/\1/p'
		printf '%s\n' gpu_read gpu_write gpu_read64 gpu_write64 MPC_SIM
	} | grep -v -E '^(MPC_DRV_H|MPC_SOC_H|MPC_COMPAT_H)$' | sort -u
}

# Print each violation of core directory $1 against host directory $2.
check_includes() {
	local f inc
	for f in "$1"/*.[ch]; do
		nocomment "$f" | sed -n 's/^#include "\(.*\)".*/\1/p' | while read -r inc; do
			is_core_file "$inc" || [ "$inc" = mali_perfcnt_drm.h ] ||
				echo "$(basename "$f"): includes \"$inc\""
		done
	done
}

check_symbols() {
	local f syms
	syms=$(host_symbols "$2")
	# A name the core defines itself (a static helper) is not the host's
	for f in "$1"/*.[ch]; do
		nocomment "$f" | grep -o -w -F "$syms" | sort -u | while read -r s; do
			echo "$(basename "$f"): names the host's $s"
		done
	done
}

check_isms() {
	local f
	for f in "$1"/*.[ch]; do
		nocomment "$f" | grep -n -E '\b(module_param[a-z_]*|MODULE_[A-Z_]+|platform_driver|platform_device|of_device_id|module_init|module_exit|mpc_sim_[a-z_]*)\b' |
			sed "s|^|$(basename "$f"):|"
	done
}

command -v gcc >/dev/null || { skip "core split checks" "no gcc"; tap_finish; exit; }

for f in "${core_files[@]}"; do
	[ -f "$root/kernel/core/$f" ] || missing="${missing:-} $f"
done
ok "$([ -z "${missing:-}" ] && echo 0 || echo 1)" "kernel/core/ holds the core's files" \
	"missing:${missing:-}"

extra=
for f in "$root"/kernel/core/*.[ch]; do # (an in-tree build leaves its .o files)
	is_core_file "${f##*/}" || extra="$extra ${f##*/}"
done
ok "$([ -z "$extra" ] && echo 0 || echo 1)" "kernel/core/ holds nothing else" "$extra"

# Kbuild's mpc_core-objs names exactly the core's .c files
want=$(for f in "$root"/kernel/core/*.c; do echo "kernel/core/${f##*/}"; done |
	sed 's|\.c$|.o|' | sort)
got=$(sed -n '/^mpc_core-objs :=/,/^$/p' "$root/Kbuild" | grep -o 'kernel/core/[a-z_]*\.o' | sort)
ok "$([ -n "$got" ] && [ "$want" = "$got" ] && echo 0 || echo 1)" \
	"Kbuild's mpc_core-objs lists every core object" "$(diff <(echo "$want") <(echo "$got"))"
grep -q '^mali_perfcnt-y :=' "$root/Kbuild" &&
	sed -n '/^mali_perfcnt-y :=/,/^$/p' "$root/Kbuild" | grep -q -F 'mpc_core-objs)' # the $(...) of make
ok $? "mali_perfcnt.ko builds the core list and its host"

syms=$(host_symbols "$root/kernel")
nsyms=$(echo "$syms" | wc -l)
grep -q -x mpc_gpu_reset <<<"$syms" && grep -q -x mpc_hdev <<<"$syms" && [ "$nsyms" -gt 100 ]
ok $? "the host's symbols are found ($nsyms, mpc_gpu_reset and struct mpc_hdev among them)"

out=$(check_includes "$root/kernel/core" "$root/kernel")
ok "$([ -z "$out" ] && echo 0 || echo 1)" "the core includes no host header" "$out"

out=$(check_symbols "$root/kernel/core" "$root/kernel")
ok "$([ -z "$out" ] && echo 0 || echo 1)" "the core names no host function, type or macro" "$out"

out=$(check_isms "$root/kernel/core")
ok "$([ -z "$out" ] && echo 0 || echo 1)" \
	"the core has no module parameter, platform driver or simulator access" "$out"

grep -q 'host_ops->' "$root/kernel/core/mpc_perfcnt.c"
ok $? "the core reaches its host through mpc_host_ops"

# The checks can fail: a core with each kind of violation put in
cp -r "$root/kernel" "$tmp/kernel"
printf '#include "mpc_drv.h"\n' >>"$tmp/kernel/core/mpc_layout.c"
printf 'static int f(void *m) { return mpc_gpu_reset(m); }\n' >>"$tmp/kernel/core/mpc_ioctl.c"
printf 'module_param_named(x, y, uint, 0600);\n' >>"$tmp/kernel/core/mpc_stream.c"
printf '/* mpc_mmu_flush() in a comment is fine */\n' >>"$tmp/kernel/core/mpc_core.c"
inc=$(check_includes "$tmp/kernel/core" "$tmp/kernel")
sym=$(check_symbols "$tmp/kernel/core" "$tmp/kernel")
ism=$(check_isms "$tmp/kernel/core")
[ "$inc" = 'mpc_layout.c: includes "mpc_drv.h"' ] &&
	[ "$sym" = "mpc_ioctl.c: names the host's mpc_gpu_reset" ] &&
	grep -q '^mpc_stream.c:.*module_param_named' <<<"$ism"
ok $? "a host include, a host call and a module parameter put in are each found, a comment is not" \
	"$(printf 'includes: %s\nsymbols: %s\nisms: %s\n' "$inc" "$sym" "$ism")"

tap_finish
