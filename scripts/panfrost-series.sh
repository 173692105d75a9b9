#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The panfrost patch series: the counter core hosted by panfrost, as a
# kernel developer gets it (git format-patch), generated from this
# repository for each Debian kernel source, then checked as a maintainer
# would check it.
#
#   panfrost-series.sh [--base 6.1|6.12]... [--out DIR] [--no-check|--artifacts]
#
# For each base (default both), from Debian's linux-source-BASE tarball
# (/usr/src, scripts/deps.sh), whose panfrost, uAPI headers, selftests
# framework, checkpatch and MAINTAINERS are extracted once into
# $MPC_PANFROST_SRC/BASE (a clean tree):
#   generate  panfrost/series applied patch by patch in a git tree of
#             the base: the core's files copied from kernel/ (never
#             edited in two places), panfrost/files, the anchored inserts
#             of panfrost/frag; one commit per patch, then
#             DIR/BASE/series/*.patch with a cover letter (format-patch)
#   check     the series applied with git am on a fresh clean tree; each
#             patch checkpatch --strict clean; after each patch panfrost.ko
#             builds (W=1, sparse) against the base's arm64 kernel headers with no
#             warning from a file the series touches; the kselftests built
#             and run with make run_tests on this machine (they skip: no
#             panfrost here); the arm64 kselftest install tree packed as
#             DIR/BASE/kselftest.tar.gz and the final module as
#             DIR/BASE/panfrost.ko
# --no-check stops after generating; --artifacts (what a boot row needs)
# builds only the last patch and the arm64 kselftests, without checkpatch
# or run_tests.
# Output: TAP, one case per step, on stdout; logs under DIR/BASE/.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

MPC_PANFROST_SRC=${MPC_PANFROST_SRC:-/var/cache/mali-perfcnt/panfrost-src}
bases=() out=$MPC_BUILD/pfseries check=1
while [ $# -gt 0 ]; do
	case $1 in
	--base)	case $2 in
		6.1|6.12) bases+=("$2") ;;
		*) die "--base $2: give 6.1 or 6.12" ;;
		esac
		shift 2 ;;
	--out)	out=$2; shift 2 ;;
	--no-check) check=0; shift ;;
	--artifacts) check=artifacts; shift ;;
	*)	die "unknown option $1 (usage: $0 [--base 6.1|6.12]... [--out DIR] [--no-check])" ;;
	esac
done
[ ${#bases[@]} -gt 0 ] || bases=(6.1 6.12)
mkdir -p "$out"
out=$(cd "$out" && pwd)
pf=$MPC_ROOT/panfrost
pdir=drivers/gpu/drm/panfrost

# What of a kernel tree the series and its checks need.
src_paths=("$pdir/*" "include/uapi/drm/*" MAINTAINERS Makefile
	   Documentation/userspace-api/ioctl/ioctl-number.rst
	   scripts/checkpatch.pl scripts/spelling.txt scripts/const_structs.checkpatch
	   scripts/subarch.include "tools/scripts/*"
	   tools/testing/selftests/Makefile tools/testing/selftests/lib.mk
	   tools/testing/selftests/run_kselftest.sh "tools/testing/selftests/kselftest/*"
	   "tools/testing/selftests/kselftest*.h" tools/testing/selftests/gen_kselftest_tar.sh)

n=0 failed=0
ok() { n=$((n + 1)); echo "ok $n $*"; }
notok() { n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n $*"; }

# clean_tree BASE: the extracted subset of linux-source-BASE, once (again
# when src_paths changed: the marker holds the list it was extracted with;
# MPC_PANFROST_TARBALL: another linux-source-BASE tarball, for one base)
clean_tree() {
	local b=$1 d=$MPC_PANFROST_SRC/$1 tmp top want
	local tarball=${MPC_PANFROST_TARBALL:-/usr/src/linux-source-$1.tar.xz}

	want=$(printf '%s\n' "${src_paths[@]}")
	[ -f "$d/.mpc-complete" ] && [ "$(cat "$d/.mpc-complete")" = "$want" ] && return 0
	[ -r "$tarball" ] || die "$tarball missing (scripts/deps.sh)"
	tmp=$d.tmp.$$
	rm -rf "$tmp"
	mkdir -p "$tmp"
	top=linux-source-$b
	tar -xJf "$tarball" -C "$tmp" --strip-components=1 --wildcards \
		"${src_paths[@]/#/$top/}"
	printf '%s\n' "$want" >"$tmp/.mpc-complete"
	rm -rf "$d"
	mv "$tmp" "$d"
}

# git_tree DIR BASE: DIR, a git repository holding the clean tree of BASE
git_tree() {
	rm -rf "$1"
	mkdir -p "$1"
	tar -C "$MPC_PANFROST_SRC/$2" --exclude=.mpc-complete -cf - . | tar -C "$1" -xf -
	git -C "$1" init -q
	git -C "$1" add -A
	git -C "$1" commit -q -m "Debian linux-source-$2 (subset)"
}

# Who the series is from (the Signed-off-by and From: lines).
export GIT_AUTHOR_NAME=${MPC_SERIES_NAME:-mali-perfcnt developers}
export GIT_AUTHOR_EMAIL=${MPC_SERIES_EMAIL:-mali-perfcnt@example.org}
export GIT_COMMITTER_NAME=$GIT_AUTHOR_NAME GIT_COMMITTER_EMAIL=$GIT_AUTHOR_EMAIL
export GIT_AUTHOR_DATE='2026-12-02T12:00:00Z' GIT_COMMITTER_DATE='2026-12-02T12:00:00Z'

# insert FILE FRAG before|after|replace: FRAG's (a path) first line is the
# anchor; the rest goes before or after it, or in its place
insert() {
	local f=$1 frag=$2 where=$3 anchor c

	if [ "$where" = replace ] && grep -qx = "$frag"; then
		replace_lines "$f" "$frag"
		return
	fi
	anchor=$(head -n 1 "$frag")
	c=$(grep -cxF -- "$anchor" "$f" || true)
	[ "$c" = 1 ] || { log "$f: anchor of $frag found $c times"; return 1; }
	awk -v anchor="$anchor" -v where="$where" -v frag="$frag" '
		BEGIN { getline skip <frag; while ((getline l <frag) > 0) body = body l "\n" }
		$0 == anchor && where == "before" { printf "%s", body }
		$0 == anchor && where == "replace" { printf "%s", body; next }
		{ print }
		$0 == anchor && where == "after" { printf "%s", body }' "$f" >"$f.new"
	mv "$f.new" "$f"
}

# replace_lines FILE FRAG: FRAG's lines up to a line "=" are consecutive
# whole lines of FILE, found there once; the rest of FRAG goes in their place
replace_lines() {
	awk -v frag="$2" -v file="$1" '
		BEGIN {
			while ((getline l <frag) > 0) {
				if (!sep && l == "=") { sep = 1; continue }
				if (sep) body = body l "\n"; else a[na++] = l
			}
		}
		{ line[n++] = $0 }
		END {
			for (i = 0; i + na <= n; i++) {
				for (k = 0; k < na && line[i + k] == a[k]; k++)
					;
				if (k == na) { hits++; at = i }
			}
			if (hits != 1) {
				printf "%s: anchor of %s found %d times\n", file, frag, hits >"/dev/stderr"
				exit 1
			}
			for (i = 0; i < n; i++) {
				if (i == at) { printf "%s", body; i += na - 1; continue }
				print line[i]
			}
		}' "$1" >"$1.new" || { rm -f "$1.new"; return 1; }
	mv "$1.new" "$1"
}

# keep_base BASE <IN >OUT: the lines of a template for BASE
keep_base() {
	awk -v b="$1" '
		/ @6\.1$/ { if (b == "6.1") { sub(/ @6\.1$/, ""); print }; next }
		/ @6\.12$/ { if (b == "6.12") { sub(/ @6\.12$/, ""); print }; next }
		{ print }'
}

# generate BASE TREE: apply panfrost/series in TREE, a commit per patch
generate() {
	local b=$1 t=$2 op a c slug=''

	commit() {
		[ -n "$slug" ] || return 0
		git -C "$t" add -A
		git -C "$t" commit -q -s -F "$pf/msg/$slug.txt"
	}
	while read -r op a c; do
		case $op in
		''|'#'*) continue ;;
		patch)	commit; slug=$a ;;
		core)	mkdir -p "$t/$(dirname "$a")"; cp "$MPC_ROOT/$c" "$t/$a" ;;
		file)	mkdir -p "$t/$(dirname "$a")"
			keep_base "$b" <"$pf/files/$a" >"$t/$a" ;;
		after|before|replace)
			[ -f "$pf/frag/$c" ] || { log "no frag $c"; return 1; }
			keep_base "$b" <"$pf/frag/$c" >"$t.frag"
			insert "$t/$a" "$t.frag" "$op" || return 1
			rm -f "$t.frag" ;;
		*)	log "panfrost/series: unknown operation $op"; return 1 ;;
		esac
	done < <(keep_base "$b" <"$pf/series")
	commit
}

# krel_of BASE: the arm64 kernel of that series
krel_of() {
	mpc_arm64_kernels | grep -E "^${1//./\\.}[.-]" | head -n 1
}

# build TREE KREL LOG: panfrost.ko of TREE for KREL (W=1, sparse on every
# file compiled), the tree's uAPI headers ahead of the installed ones
build() {
	local t=$1 krel=$2 lg=$3

	make -C "$(mpc_kdir "$krel")" M="$t/$pdir" ARCH=arm64 CROSS_COMPILE="$MPC_ARM64_CROSS" \
		CONFIG_DRM_PANFROST=m W=1 C=1 NOSTDINC_FLAGS="-nostdinc -I$t/include/uapi" \
		-j2 modules >"$lg" 2>&1 && [ -f "$t/$pdir/panfrost.ko" ]
}

# The selftests' install rule copies with rsync; where it is missing, its
# one use there (files onto the install tree) is cp -a.
if ! command -v rsync >/dev/null; then
	mkdir -p "$out/bin"
	cat >"$out/bin/rsync" <<'SH'
#!/bin/sh
# rsync -a[qR] [--copy-unsafe-links] SRC... DEST: cp -a SRC... DEST
while [ $# -gt 0 ]; do
	case $1 in -*) shift ;; *) break ;; esac
done
[ $# -ge 2 ] || exit 0
exec cp -a "$@"
SH
	chmod +x "$out/bin/rsync"
	PATH=$out/bin:$PATH
fi

for b in "${bases[@]}"; do
	o=$out/$b
	rm -rf "$o"
	mkdir -p "$o"
	clean_tree "$b"
	gen=$o/gen
	git_tree "$gen" "$b"
	if generate "$b" "$gen" >"$o/generate.log" 2>&1; then
		ok "$b generate: $(git -C "$gen" rev-list --count HEAD~0 --not "$(git -C "$gen" rev-list --max-parents=0 HEAD)") patches"
	else
		notok "$b generate # see $o/generate.log"
		continue
	fi
	first=$(git -C "$gen" rev-list --max-parents=0 HEAD)
	git -C "$gen" format-patch -q --cover-letter -o "$o/series" "$first"
	cover=$o/series/0000-cover-letter.patch
	subj=$(head -n 1 "$pf/msg/cover.txt")
	awk -v subj="$subj" -v blurb="$pf/msg/cover.txt" '
		/\*\*\* SUBJECT HERE \*\*\*/ { sub(/\*\*\* SUBJECT HERE \*\*\*/, subj) }
		/\*\*\* BLURB HERE \*\*\*/ { getline l <blurb; getline l <blurb
			while ((getline l <blurb) > 0) print l; next }
		{ print }' "$cover" >"$cover.new"
	mv "$cover.new" "$cover"
	git -C "$gen" diff --stat "$first" HEAD >"$o/stat"
	[ "$check" != 0 ] || continue

	krel=$(krel_of "$b")
	am=$o/am
	git_tree "$am" "$b"
	if git -C "$am" am -q "$o"/series/0[0-9][0-9][1-9]-*.patch >"$o/am.log" 2>&1; then
		ok "$b git am: the series applies to a clean linux-source-$b tree"
	else
		notok "$b git am # see $o/am.log"
		continue
	fi
	for p in "$o"/series/0[0-9][0-9][1-9]-*.patch; do
		[ "$check" = 1 ] || break
		name=$(basename "$p" .patch)
		if (cd "$am" && perl scripts/checkpatch.pl --strict --no-tree --quiet \
				--no-signoff "$p") >"$o/checkpatch-$name.log" 2>&1 &&
		   ! [ -s "$o/checkpatch-$name.log" ]; then
			ok "$b checkpatch --strict $name"
		else
			notok "$b checkpatch --strict $name # $(grep -c -E '^(ERROR|WARNING|CHECK)' "$o/checkpatch-$name.log") findings, see $o/checkpatch-$name.log"
		fi
	done
	if [ -z "$krel" ]; then
		notok "$b builds # no arm64 kernel of $b with headers (scripts/deps.sh)"
		continue
	fi
	# Each patch builds, one after the other in one tree (bisectable).
	i=0
	commits=$(git -C "$am" rev-list --reverse "$first"..HEAD)
	[ "$check" = 1 ] || commits=$(git -C "$am" rev-parse HEAD)
	for c in $commits; do
		i=$((i + 1))
		git -C "$am" checkout -q "$c"
		lg=$o/build-$i.log
		touched=$(git -C "$am" diff --name-only "$first" "$c" | sed -n "s|^$pdir/||p" | tr '\n' '|')
		if ! build "$am" "$krel" "$lg"; then
			notok "$b patch $i builds for $krel # see $lg"
		elif grep -E "^(${touched%|}):[0-9]+:[0-9]+: warning" <(sed "s|^$am/$pdir/||; s|^\\./||" "$lg") >/dev/null; then
			notok "$b patch $i builds for $krel # W=1 or sparse warnings in the series' files, see $lg"
		else
			if [ "$check" = 1 ]; then
				ok "$b patch $i builds for $krel (W=1, sparse)"
			else
				ok "$b the series builds for $krel (W=1, sparse)"
			fi
		fi
	done
	cp "$am/$pdir/panfrost.ko" "$o/panfrost.ko"
	"${MPC_ARM64_CROSS}strip" --strip-debug "$o/panfrost.ko"
	# The kselftests, through the tree's own selftests Makefile, with
	# what "make headers" would install of the uAPI they include (a
	# subset of a tree cannot run it): include/uapi/drm without __user.
	mkdir -p "$am/usr/include/drm"
	for h in "$am"/include/uapi/drm/*.h; do
		sed 's/__user //g' "$h" >"$am/usr/include/drm/${h##*/}"
	done
	if [ "$check" != 1 ]; then
		:
	elif make -C "$am/tools/testing/selftests" TARGETS=drivers/gpu/panfrost run_tests \
			>"$o/run_tests.log" 2>&1 && ! grep -q 'not ok' "$o/run_tests.log" &&
	     grep -q '^ok [0-9]* selftests: drivers/gpu/panfrost: perfcnt_test' "$o/run_tests.log"; then
		ok "$b make -C tools/testing/selftests TARGETS=drivers/gpu/panfrost run_tests (skips here)"
	else
		notok "$b make run_tests # see $o/run_tests.log"
	fi
	make -C "$am/tools/testing/selftests" TARGETS=drivers/gpu/panfrost clean >/dev/null 2>&1 || true
	ks=$o/kselftest
	if make -C "$am/tools/testing/selftests" TARGETS=drivers/gpu/panfrost ARCH=arm64 \
			CROSS_COMPILE="$MPC_ARM64_CROSS" CC="${MPC_ARM64_CROSS}gcc -static" \
			INSTALL_PATH="$ks" install >"$o/kselftest.log" 2>&1 &&
	   [ -x "$ks/drivers/gpu/panfrost/perfcnt_test" ]; then
		tar -C "$ks" -czf "$o/kselftest.tar.gz" .
		ok "$b arm64 kselftest install tree ($(wc -l <"$ks/kselftest-list.txt") programs)"
	else
		notok "$b arm64 kselftest install # see $o/kselftest.log"
	fi
done
echo "1..$n"
[ "$failed" = 0 ]
