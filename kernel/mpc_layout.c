// SPDX-License-Identifier: GPL-2.0-only
/*
 * Pure logic of mali_perfcnt: dump layout arithmetic and the parsing of the
 * debugfs enable text. Nothing here touches hardware, so it can be
 * unit-tested on its own. GPU model recognition is in mpc_gpu.c.
 */
#include <linux/bitops.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/string.h>
#include <linux/time64.h>

#include "mpc_drv.h"
#include "mali_perfcnt_drm.h"

/**
 * mpc_layout_compute() - size and shape of a counter dump
 * @layout: filled in.
 * @v4: the GPU uses the v4 core-group layout.
 * @shader_present: SHADER_PRESENT.
 * @l2_present: L2_PRESENT.
 * @mem_features: MEM_FEATURES.
 *
 * v5: (2 + L2 slices + fls64(shader_present)) blocks. The shader blocks are
 * indexed by core bit position, so a sparse mask leaves holes and the size
 * follows the highest core, not the number of cores.
 * v4: 8 blocks per core group, one core group per L2 cache.
 *
 * Return: 0, or -EINVAL when the masks describe no usable GPU.
 */
int mpc_layout_compute(struct mpc_layout *layout, bool v4, u64 shader_present,
		       u64 l2_present, u32 mem_features)
{
	memset(layout, 0, sizeof(*layout));
	if (!shader_present || !l2_present)
		return -EINVAL;

	layout->v4 = v4;
	if (v4) {
		layout->nr_core_groups = hweight64(l2_present);
		layout->nr_l2 = layout->nr_core_groups;
		/* Each core group has room for four shader cores only */
		if (fls64(shader_present) > MPC_V4_SC_PER_GROUP * layout->nr_core_groups)
			return -EINVAL;
		layout->nr_shader_blocks = MPC_V4_SC_PER_GROUP * layout->nr_core_groups;
		layout->nr_blocks = MPC_V4_BLOCKS_PER_GROUP * layout->nr_core_groups;
	} else {
		layout->nr_core_groups = 1;
		layout->nr_l2 = MEM_FEATURES_L2_SLICES(mem_features);
		layout->nr_shader_blocks = fls64(shader_present);
		layout->nr_blocks = 2 + layout->nr_l2 + layout->nr_shader_blocks;
	}
	layout->dump_size = layout->nr_blocks * MPC_BLOCK_BYTES;
	return 0;
}

/**
 * mpc_layout_block_offset() - what lives in a block slot of a dump
 * @layout: dump layout.
 * @shader_present: SHADER_PRESENT, to tell shader cores from holes.
 * @slot: block slot, 0 .. nr_blocks - 1.
 * @kind: set to "jm", "tiler", "l2" or "shader".
 * @instance: set to the L2 slice or shader core number.
 *
 * Return: byte offset of the block in the dump, or -ENOENT for a hole
 * (absent shader core or reserved v4 block) and -EINVAL past the end.
 */
int mpc_layout_block_offset(const struct mpc_layout *layout, u64 shader_present,
			    unsigned int slot, const char **kind,
			    unsigned int *instance)
{
	unsigned int core, group, blk;

	if (slot >= layout->nr_blocks)
		return -EINVAL;

	if (layout->v4) {
		group = slot / MPC_V4_BLOCKS_PER_GROUP;
		blk = slot % MPC_V4_BLOCKS_PER_GROUP;
		if (blk < MPC_V4_SC_PER_GROUP) {
			core = group * MPC_V4_SC_PER_GROUP + blk;
			if (!(shader_present & BIT_ULL(core)))
				return -ENOENT;
			*kind = "shader";
			*instance = core;
		} else if (blk == MPC_V4_BLK_TILER) {
			*kind = "tiler";
			*instance = group;
		} else if (blk == MPC_V4_BLK_MMU_L2) {
			*kind = "l2";
			*instance = group;
		} else if (blk == MPC_V4_BLK_JM && group == 0) {
			*kind = "jm";
			*instance = 0;
		} else {
			return -ENOENT;
		}
	} else if (slot == 0) {
		*kind = "jm";
		*instance = 0;
	} else if (slot == 1) {
		*kind = "tiler";
		*instance = 0;
	} else if (slot < 2 + layout->nr_l2) {
		*kind = "l2";
		*instance = slot - 2;
	} else {
		core = slot - 2 - layout->nr_l2;
		if (!(shader_present & BIT_ULL(core)))
			return -ENOENT;
		*kind = "shader";
		*instance = core;
	}
	return slot * MPC_BLOCK_BYTES;
}

/**
 * mpc_check_masks() - reject enable bits that select no counters
 * @cfg: requested configuration.
 *
 * A 64-counter block has 16 groups of four counters; bits 16-31 of the
 * enable registers select nothing, so a mask using them is a caller bug.
 *
 * Return: 0 or -EINVAL.
 */
int mpc_check_masks(const struct mpc_perfcnt_config *cfg)
{
	if ((cfg->jm | cfg->tiler | cfg->shader | cfg->mmu_l2) & ~MPC_BLOCK_ENABLE_ALL)
		return -EINVAL;
	return 0;
}

/**
 * mpc_parse_enable_text() - parse what was written to perfcnt_enable
 * @text: NUL-terminated text, one trailing newline allowed.
 * @nr_sets: counter sets the GPU has.
 * @cfg: configuration, filled in when enabling.
 * @period_us: set to the perfcnt_stream period, 0 when not given.
 * @enable: set to whether the text asks to enable.
 *
 * Accepted: "0", "1", or space-separated "set=N jm=X tiler=X shader=X l2=X
 * period_us=N" with any subset of the keys; masks default to all counters;
 * period_us (100 to 10000000) is the sampling period of perfcnt_stream.
 *
 * Return: 0, or -EINVAL for text that does not parse or values out of range.
 */
int mpc_parse_enable_text(const char *text, u32 nr_sets,
			  struct mpc_perfcnt_config *cfg, u32 *period_us, bool *enable)
{
	char buf[128], *cur, *tok;
	size_t len = strlen(text);

	if (len && text[len - 1] == '\n')
		len--;
	if (!len || len >= sizeof(buf))
		return -EINVAL;
	memcpy(buf, text, len);
	buf[len] = '\0';

	cfg->set = 0;
	cfg->jm = MPC_BLOCK_ENABLE_ALL;
	cfg->tiler = MPC_BLOCK_ENABLE_ALL;
	cfg->shader = MPC_BLOCK_ENABLE_ALL;
	cfg->mmu_l2 = MPC_BLOCK_ENABLE_ALL;
	*period_us = 0;

	if (!strcmp(buf, "0")) {
		*enable = false;
		return 0;
	}
	*enable = true;
	if (!strcmp(buf, "1"))
		return 0;

	cur = buf;
	while ((tok = strsep(&cur, " \t")) != NULL) {
		char *val;
		u32 *dst;

		if (!*tok)
			continue;
		val = strchr(tok, '=');
		if (!val || !val[1])
			return -EINVAL;
		*val++ = '\0';
		if (!strcmp(tok, "set"))
			dst = &cfg->set;
		else if (!strcmp(tok, "jm"))
			dst = &cfg->jm;
		else if (!strcmp(tok, "tiler"))
			dst = &cfg->tiler;
		else if (!strcmp(tok, "shader"))
			dst = &cfg->shader;
		else if (!strcmp(tok, "l2"))
			dst = &cfg->mmu_l2;
		else if (!strcmp(tok, "period_us"))
			dst = period_us;
		else
			return -EINVAL;
		if (kstrtou32(val, 0, dst))
			return -EINVAL;
	}
	if (cfg->set >= nr_sets)
		return -EINVAL;
	if (*period_us && (*period_us < MALI_PERFCNT_STREAM_MIN_PERIOD_NS / NSEC_PER_USEC ||
			   *period_us > MALI_PERFCNT_STREAM_MAX_PERIOD_NS / NSEC_PER_USEC))
		return -EINVAL;
	return mpc_check_masks(cfg);
}
