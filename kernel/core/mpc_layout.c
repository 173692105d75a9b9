// SPDX-License-Identifier: GPL-2.0-only
/*
 * Pure logic of mali_perfcnt: dump layout arithmetic and the enable masks.
 * Nothing here touches hardware, so it can be unit-tested on its own. GPU
 * model recognition is in mpc_gpu.c, the debugfs enable text is parsed in
 * mpc_debugfs.c.
 */
#include <linux/bitops.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/string.h>

#include "mpc_core.h"

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
