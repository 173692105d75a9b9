#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Host tests of `make -C user install` / `uninstall`: what is installed
# where (PREFIX, LIBDIR, DESTDIR), that libmaliperfcnt.so.1 exports exactly
# the functions maliperfcnt.h declares, that a program builds against the
# installed library with pkg-config alone and runs, that every manual page
# renders with `man -l` without a warning and holds every word of the
# --help page it was made from, and that uninstall leaves nothing behind.
# Needs `make -C user` done (make check does it first). Prints TAP.
set -uo pipefail
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/tap-lib.sh"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/mpc-install-test.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

user=$MPC_ROOT/user
root=$tmp/root
ma=$(gcc -dumpmachine)
libdir=/usr/lib/$ma

make -s -C "$user" install DESTDIR="$root" PREFIX=/usr LIBDIR="$libdir" \
	>"$tmp/install.log" 2>&1
ok $? "make install DESTDIR= PREFIX=/usr LIBDIR=/usr/lib/$ma" "$(cat "$tmp/install.log")"

# every command of the tool's --help page (but help) has a manual page:
# user/Makefile's MAN_CMDS must list them all
cmds=$("$root/usr/bin/mali-perfcnt" --help |
	awk '/^COMMANDS/ { on = 1; next } on && /^$/ { exit } on && $1 != "help" { print $1 }' |
	tr '\n' ' ' | sed 's/ $//')
man_cmds=$(sed -n 's/^MAN_CMDS[[:space:]]*:=[[:space:]]*//p' "$user/Makefile")
[ -n "$cmds" ] && [ "$cmds" = "$man_cmds" ]
ok $? "MAN_CMDS lists the commands of mali-perfcnt --help, in order" \
	"--help: '$cmds'; MAN_CMDS: '$man_cmds'"

want="/usr/bin/mali-perfcnt
/usr/include/maliperfcnt.h
$libdir/libmaliperfcnt.a
$libdir/libmaliperfcnt.so
$libdir/libmaliperfcnt.so.1
$libdir/libmaliperfcnt.so.1.0.0
$libdir/pkgconfig/maliperfcnt.pc
/usr/share/man/man1/mali-perfcnt.1
$(for c in $cmds; do echo "/usr/share/man/man1/mali-perfcnt-$c.1"; done)
/usr/share/man/man3/libmaliperfcnt.3"
got=$(cd "$root" && find . \( -type f -o -type l \) | sed 's|^\.||' | sort)
[ "$got" = "$(sort <<<"$want")" ]
ok $? "installed files" "$(diff <(sort <<<"$want") - <<<"$got")"

so=$root$libdir/libmaliperfcnt.so.1.0.0
soname=$(readelf -d "$so" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
[ "$soname" = libmaliperfcnt.so.1 ] &&
	[ "$(readlink "$root$libdir/libmaliperfcnt.so.1")" = libmaliperfcnt.so.1.0.0 ] &&
	[ "$(readlink "$root$libdir/libmaliperfcnt.so")" = libmaliperfcnt.so.1 ]
ok $? "soname libmaliperfcnt.so.1, links .so -> .so.1 -> .so.1.0.0" "soname '$soname'"

# The API: every function maliperfcnt.h declares, but the static inline ones.
api=$(cc -E -P -I"$MPC_ROOT/uapi/drm" "$user/include/maliperfcnt.h" | tr '\n' ' ' |
	grep -oE '(static inline [^(;{}]*)?\bmpc_[a-z0-9_]+ *\(' | grep -v '^static' |
	sed 's/ *($//' | sort -u)
exported=$(nm -D --defined-only "$so" | awk '$2 != "A" { print $3 }' | sed 's/@@*.*//' | sort -u)
[ -n "$api" ] && [ "$api" = "$exported" ]
ok $? "nm -D --defined-only: exactly the $(wc -l <<<"$api") functions of maliperfcnt.h" \
	"$(diff <(echo "$api") <(echo "$exported") | grep '^[<>]' | tr '\n' ' ')"
# LIBMALIPERFCNT_1.1 holds its new function and the two that answer block
# kinds, whose LIBMALIPERFCNT_1 versions stay for programs built before;
# LIBMALIPERFCNT_1.2 the two that add counter sessions' 64-bit sums,
# LIBMALIPERFCNT_1.3 the stream's 64-bit samples and its kind,
# LIBMALIPERFCNT_1.4 the blocks' power states
vers=$(nm -D --defined-only "$so" | awk '$2 != "A" { print $3 }' |
	grep -v '@@LIBMALIPERFCNT_1$' |
	grep -vx 'mpc_\(desc_nr_csf_blocks\|layout_slot\|sample_block_kind\)@@LIBMALIPERFCNT_1\.1' |
	grep -vx 'mpc_\(layout_slot\|sample_block_kind\)@LIBMALIPERFCNT_1' |
	grep -vx 'mpc_\(dev_sample_add\|sample_add_session\)@@LIBMALIPERFCNT_1\.2' |
	grep -vx 'mpc_dev_stream_\(kind\|next_add\)@@LIBMALIPERFCNT_1\.3' |
	grep -vx 'mpc_sample_block_power@@LIBMALIPERFCNT_1\.4')
[ -z "$vers" ] && [ "$(nm -D --defined-only "$so" | grep -c '[^@]@LIBMALIPERFCNT_1$')" -eq 2 ]
ok $? "every exported symbol has version LIBMALIPERFCNT_1, 1.1, 1.2, 1.3 or 1.4 (two kept in both)" "${vers//$'\n'/ }"

# A program built with pkg-config only, against the installed tree.
export PKG_CONFIG_SYSROOT_DIR=$root
export PKG_CONFIG_PATH=$root$libdir/pkgconfig
mod=$(pkg-config --modversion maliperfcnt 2>&1)
hver=$(sed -n 's/^#define MPC_VERSION[[:space:]]*"\(.*\)"/\1/p' "$user/include/maliperfcnt.h")
[ "$mod" = "$hver" ]
ok $? "pkg-config --modversion maliperfcnt = MPC_VERSION ($hver)" "got '$mod'"
# shellcheck disable=SC2046 # pkg-config's words
cc -Wall -Werror -o "$tmp/link_test" "$user/tests/link_test.c" \
	$(pkg-config --cflags --libs maliperfcnt) >"$tmp/cc.log" 2>&1
ok $? "cc link_test.c \$(pkg-config --cflags --libs maliperfcnt)" "$(cat "$tmp/cc.log")"
out=$(LD_LIBRARY_PATH=$root$libdir "$tmp/link_test" 2>&1)
lib=$(LD_LIBRARY_PATH=$root$libdir ldd "$tmp/link_test" | awk '$1 == "libmaliperfcnt.so.1" { print $3 }')
case $out in
"$hver Mali-G52 gpus="*" GPU_ACTIVE=3000 seqno=2 MpcGPUActiveUtil=1") [ "$lib" = "$root$libdir/libmaliperfcnt.so.1" ] ;;
*) false ;;
esac
ok $? "link_test runs against the installed libmaliperfcnt.so.1" "out '$out' lib '$lib'"
unset PKG_CONFIG_SYSROOT_DIR PKG_CONFIG_PATH

# Manual pages: no warning from man -l (as lintian runs it), and every word
# of the --help page in the rendered page.
man_ok() { # man_ok PAGE [HELP-TEXT]
	local w
	w=$(LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -E UTF-8 -l -Tutf8 -Z "$1" 2>&1 >/dev/null)
	[ -z "$w" ] || { echo "$w"; return 1; }
	[ -n "${2:-}" ] || return 0
	# shellcheck disable=SC2020 # sets: each blank becomes a newline
	LC_ALL=C.UTF-8 MANWIDTH=80 man -l "$1" 2>/dev/null | col -b | tr -s ' \t' '\n\n' |
		sort -u >"$tmp/man.words"
	# shellcheck disable=SC2020 # likewise
	tr -s ' \t' '\n\n' <<<"$2" | sort -u | comm -23 - "$tmp/man.words" | head -n 5 |
		tr '\n' ' ' >"$tmp/missing"
	[ ! -s "$tmp/missing" ] || { echo "words missing: $(cat "$tmp/missing")"; return 1; }
}
tool=$root/usr/bin/mali-perfcnt
d=$root/usr/share/man
diag=$(man_ok "$d/man1/mali-perfcnt.1" "$("$tool" --help)")
ok $? "man -l mali-perfcnt.1: no warning, every word of --help" "$diag"
for c in $cmds; do
	diag=$(man_ok "$d/man1/mali-perfcnt-$c.1" "$("$tool" help "$c")")
	ok $? "man -l mali-perfcnt-$c.1: no warning, every word of 'help $c'" "$diag"
done
diag=$(man_ok "$d/man3/libmaliperfcnt.3")
ok $? "man -l libmaliperfcnt.3: no warning" "$diag"

make -s -C "$user" uninstall DESTDIR="$root" PREFIX=/usr LIBDIR="$libdir" \
	>"$tmp/uninstall.log" 2>&1
left=$(cd "$root" && find . ! -type d)
[ -z "$left" ]
ok $? "make uninstall removes every installed file" "left: ${left//$'\n'/ }"

tap_finish
