// SPDX-License-Identifier: GPL-2.0-only
/*
 * mali_perfcnt: ioctls of the render node. Every field the uAPI marks as
 * "must be zero" is checked here, each rejection with its own message.
 */
#include <linux/bitops.h>
#include <linux/string.h>
#include <drm/drm_file.h>
#include <drm/drm_ioctl.h>

#include "mpc_core.h"
#include <drm/mali_perfcnt_drm.h>

int mpc_ioctl_get_info(struct mpc_device *mdev, struct mpc_perfcnt_owner *owner, void *data)
{
	const struct mpc_features *f = &mdev->features;
	struct drm_mali_perfcnt_get_info *args = data;

	if (args->flags)
		return MPC_REJECT(mdev, -EINVAL, "GET_INFO: flags 0x%x must be 0", args->flags);
	if (args->pad)
		return MPC_REJECT(mdev, -EINVAL, "GET_INFO: pad must be 0");
	if (mpc_any_set(args->reserved, ARRAY_SIZE(args->reserved)))
		return MPC_REJECT(mdev, -EINVAL, "GET_INFO: reserved must be 0");

	args->gpu_id = f->gpu_id;
	args->layout = f->layout.v4 ? MALI_PERFCNT_LAYOUT_V4 : MALI_PERFCNT_LAYOUT_V5;
	args->shader_present = f->shader_present;
	args->l2_present = f->l2_present;
	args->nr_l2 = f->layout.nr_l2;
	args->nr_core_groups = f->layout.nr_core_groups;
	args->nr_shader_blocks = f->layout.nr_shader_blocks;
	args->nr_blocks = f->layout.nr_blocks;
	args->counters_per_block = MPC_COUNTERS_PER_BLOCK;
	args->dump_size = f->layout.dump_size;
	args->nr_counter_sets = f->product->nr_sets;
	args->l2_features = f->l2_features;
	args->mem_features = f->mem_features;
	args->uapi_version = MALI_PERFCNT_UAPI_VERSION;
	/*
	 * Since revision 2, whether the GPU is simulated and whether the
	 * PRLAM-8186 workaround applies are in debugfs gpu_info, not here.
	 */
	args->caps = 0;
	if (f->product->nr_sets > 1)
		args->caps |= MALI_PERFCNT_CAP_SET_SECONDARY;
	args->gpu_freq_hz = mdev->gpu_freq_hz;
	strscpy(args->product, f->product->name, sizeof(args->product));
	return 0;
}

/**
 * mpc_ioctl_config() - the counter configuration of ENABLE or STREAM_OPEN
 * @mdev: device.
 * @who: the ioctl, for the log.
 * @use_masks: the caller's *_F_MASKS flag: take @masks, else every counter.
 * @set: counter set.
 * @jm: PRFCNT_JM_EN with @use_masks, else must be 0.
 * @tiler: PRFCNT_TILER_EN, likewise.
 * @shader: PRFCNT_SHADER_EN, likewise.
 * @l2: PRFCNT_MMU_L2_EN, likewise.
 * @cfg: filled in.
 *
 * Return: 0, or -EINVAL for masks given without the flag (the set and the
 * masks' values are checked by mpc_perfcnt_enable()).
 */
int mpc_ioctl_config(struct mpc_device *mdev, const char *who, bool use_masks, u32 set,
		     u32 jm, u32 tiler, u32 shader, u32 l2, struct mpc_perfcnt_config *cfg)
{
	if (!use_masks && (jm | tiler | shader | l2))
		return MPC_REJECT(mdev, -EINVAL, "%s: masks given without the F_MASKS flag", who);
	cfg->set = set;
	cfg->jm = use_masks ? jm : MPC_BLOCK_ENABLE_ALL;
	cfg->tiler = use_masks ? tiler : MPC_BLOCK_ENABLE_ALL;
	cfg->shader = use_masks ? shader : MPC_BLOCK_ENABLE_ALL;
	cfg->mmu_l2 = use_masks ? l2 : MPC_BLOCK_ENABLE_ALL;
	return 0;
}

int mpc_ioctl_enable(struct mpc_device *mdev, struct mpc_perfcnt_owner *owner, void *data)
{
	struct drm_mali_perfcnt_enable *args = data;
	struct mpc_perfcnt_config cfg;
	bool masks = args->jm_mask | args->tiler_mask | args->shader_mask |
		     args->mmu_l2_mask;
	int ret;

	if (args->flags & ~MALI_PERFCNT_ENABLE_F_MASKS)
		return MPC_REJECT(mdev, -EINVAL, "ENABLE: unknown flags 0x%x",
				  args->flags & ~MALI_PERFCNT_ENABLE_F_MASKS);
	if (args->pad)
		return MPC_REJECT(mdev, -EINVAL, "ENABLE: pad must be 0");
	if (mpc_any_set(args->reserved, ARRAY_SIZE(args->reserved)))
		return MPC_REJECT(mdev, -EINVAL, "ENABLE: reserved must be 0");
	if (args->enable > 1)
		return MPC_REJECT(mdev, -EINVAL, "ENABLE: enable=%u, want 0 or 1", args->enable);

	if (!args->enable) {
		if (args->counter_set || masks || args->flags)
			return MPC_REJECT(mdev, -EINVAL,
					  "ENABLE: disabling takes no set, masks or flags");
		return mpc_perfcnt_disable(mdev, owner);
	}

	ret = mpc_ioctl_config(mdev, "ENABLE", args->flags & MALI_PERFCNT_ENABLE_F_MASKS,
			       args->counter_set, args->jm_mask, args->tiler_mask,
			       args->shader_mask, args->mmu_l2_mask, &cfg);
	if (ret)
		return ret;
	return mpc_perfcnt_enable(mdev, owner, &cfg);
}

/*
 * Does @ptr fit in a user pointer? u64_to_user_ptr() truncates on 32-bit
 * kernels, which would write to another address than the one given.
 */
static bool mpc_user_ptr_fits(u64 ptr)
{
	return (u64)(uintptr_t)u64_to_user_ptr(ptr) == ptr;
}

int mpc_ioctl_dump(struct mpc_device *mdev, struct mpc_perfcnt_owner *owner, void *data)
{
	struct drm_mali_perfcnt_dump *args = data;
	u32 size = mdev->features.layout.dump_size;
	struct mpc_sample_info info;
	int ret;

	if (args->flags)
		return MPC_REJECT(mdev, -EINVAL, "DUMP: flags 0x%x must be 0", args->flags);
	/*
	 * interval_start_ns and data_flags are outputs and their input is
	 * ignored, as seqno's: revision 1 never wrote those words, so a
	 * caller that reuses its struct for the next DUMP must keep working.
	 */
	if (args->pad)
		return MPC_REJECT(mdev, -EINVAL, "DUMP: pad must be 0");
	if (args->buf_size < size) {
		u32 given = args->buf_size;

		args->buf_size = size;
		return MPC_REJECT(mdev, -ENOSPC, "DUMP: buffer of %u bytes, a dump needs %u",
				  given, size);
	}
	if (!args->buf_ptr)
		return MPC_REJECT(mdev, -EFAULT, "DUMP: NULL buffer");
	if (!mpc_user_ptr_fits(args->buf_ptr))
		return MPC_REJECT(mdev, -EFAULT, "DUMP: buf_ptr 0x%llx does not fit in a pointer",
				  args->buf_ptr);

	ret = mpc_perfcnt_sample(mdev, owner, u64_to_user_ptr(args->buf_ptr),
				 NULL, &info);
	if (ret)
		return ret;
	/* drm_ioctl() copies the struct back even on errors: outputs only here */
	args->buf_size = size;
	args->seqno = info.seqno;
	args->timestamp_ns = info.timestamp_ns;
	args->interval_start_ns = info.interval_start_ns;
	args->data_flags = info.data_flags;
	return 0;
}
