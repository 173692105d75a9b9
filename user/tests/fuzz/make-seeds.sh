#!/bin/sh
# SPDX-License-Identifier: MIT
# Write the starting corpus of each fuzz target into $1/corpus-<target>.
# Usage: tests/fuzz/make-seeds.sh BUILD_DIR/fuzz   (run from user/)
set -e
out=$1
mkdir -p "$out/corpus-dump" "$out/corpus-gpuinfo" "$out/corpus-db" "$out/corpus-expr"

# gpu_info texts (the format of Documentation/interfaces.rst)
printf 'product: Mali-G52\ngpu_id: 0x72120000\nproduct_id: 0x7212\nshader_present: 0xb\nl2_present: 0x1\nnr_l2: 2\nl2_features: 0x07120206\nmem_features: 0x00000101\nlayout: v5\nnr_core_groups: 1\nnr_shader_blocks: 4\nnr_blocks: 8\ncounters_per_block: 64\ndump_size: 2048\ncounter_sets: 2\ngpu_freq_hz: 800000000\nowner: none\n' \
	> "$out/corpus-gpuinfo/g52"
printf 'gpu_id: 0x07200000\nlayout: v4\nshader_present: 0x3f\nl2_present: 0x11\n' > "$out/corpus-gpuinfo/t720"

# database files: shipped ones, the G2 test layout, a partial overlay, metrics
cp db/gpus/mali-g52.txt db/gpus/mali-t720.txt db/gpus/mali-g1.txt "$out/corpus-db/"
cp tests/data/g2-test-layout.txt "$out/corpus-db/"
printf 'mali-perfcnt-db 1\ngpu g52 Mali-G52\nblock jm\n6 GPU_ACTIVE\n7 IRQ_ACTIVE unit=cycles\nblock shader\n9 FRAG_ACTIVE shift=1\n' \
	> "$out/corpus-db/g52-part"
printf 'mali-perfcnt-db 1\nmetrics m\nmetric A cycles * = (GPU_ACTIVE / 2) * 100\nmetric B percent g52,bifrost = max(min(A, 100), 0)\n' \
	> "$out/corpus-db/metrics"

# formulas
printf 'max(min((A / B) * 100, 100), 0)' > "$out/corpus-expr/clamp"
printf 'MaliA - -B * (S + T) / L' > "$out/corpus-expr/arith"
printf 'min(A, B, S, T, L, 3.5e2, MALI_CONFIG_TIME_SPAN) + Two' > "$out/corpus-expr/minmax"

# a Mali-G52 dump, cores 0xb, 2 L2 slices: 4 selector bytes (GPU 4 of the
# database = g52, cores, L2), then 8 blocks of 64 little-endian words
# shellcheck disable=SC2059 # the format is the octal escape being built
le32() { printf "\\$(printf %03o $(($1 & 255)))\\$(printf %03o $((($1 >> 8) & 255)))\\$(printf %03o $((($1 >> 16) & 255)))\\$(printf %03o $((($1 >> 24) & 255)))"; }
{
	printf '\004\013\000\002'
	b=0
	while [ $b -lt 8 ]; do
		le32 1; le32 0; le32 65535; le32 0
		i=4
		while [ $i -lt 64 ]; do
			le32 $((b * 1000 + i))
			i=$((i + 1))
		done
		b=$((b + 1))
	done
} > "$out/corpus-dump/g52"
printf '\003\001\000\001' > "$out/corpus-dump/short"
