// SPDX-License-Identifier: GPL-2.0
/*
 * panfrost as a host of the mali-perfcnt counter core: the stable counter
 * ioctls on panfrost's render node.
 *
 * The dump layout is the core's (mpc_layout.c, the same source file
 * mali_perfcnt.ko is built from); the counter unit is panfrost's own
 * (panfrost_perfcnt.c): the dump buffer is a BO mapped in the owning file's
 * address space, so counting takes one of panfrost's address spaces through
 * panfrost_mmu_as_get() like any job of that file instead of reserving AS0,
 * and it holds a runtime PM reference shared with the job scheduler.
 */

#include <linux/ktime.h>
#include <linux/uaccess.h>

#include <drm/drm_device.h>
#include <drm/drm_file.h>
#include <drm/panfrost_drm.h>

#include "panfrost_device.h"
#include "panfrost_features.h"
#include "panfrost_mpc.h"
#include "panfrost_perfcnt.h"
#include "mpc_core.h"

u64 panfrost_mpc_features(struct panfrost_device *pfdev)
{
	return DRM_PANFROST_PERFCNT_FEATURE_SAMPLE |
	       DRM_PANFROST_PERFCNT_FEATURE_RESET_RESTORE;
}

static int panfrost_mpc_layout(struct panfrost_device *pfdev,
			       struct mpc_layout *layout)
{
	bool v4 = panfrost_has_hw_feature(pfdev, HW_FEATURE_V4);

	return mpc_layout_compute(layout, v4, pfdev->features.shader_present,
				  pfdev->features.l2_present,
				  pfdev->features.mem_features);
}

int panfrost_ioctl_perfcnt_info(struct drm_device *dev, void *data,
				struct drm_file *file_priv)
{
	struct panfrost_device *pfdev = dev->dev_private;
	struct drm_panfrost_perfcnt_info *info = data;
	struct mpc_layout layout;
	int ret;

	if (info->pad)
		return -EINVAL;

	ret = panfrost_mpc_layout(pfdev, &layout);
	if (ret)
		return ret;

	info->dump_size = layout.dump_size;
	info->block_size = MPC_BLOCK_BYTES;
	info->nr_blocks = layout.nr_blocks;
	info->nr_l2 = layout.nr_l2;
	info->nr_shader_blocks = layout.nr_shader_blocks;
	info->flags = layout.v4 ? DRM_PANFROST_PERFCNT_INFO_V4 : 0;
	info->nr_counter_sets = panfrost_model_is_bifrost(pfdev) ? 2 : 1;
	info->shader_present = pfdev->features.shader_present;

	return 0;
}

int panfrost_ioctl_perfcnt_sample(struct drm_device *dev, void *data,
				  struct drm_file *file_priv)
{
	struct panfrost_device *pfdev = dev->dev_private;
	struct drm_panfrost_perfcnt_sample *req = data;
	u32 resets = 0;
	int ret;

	switch (req->op) {
	case DRM_PANFROST_PERFCNT_OP_ENABLE:
		return panfrost_perfcnt_set(pfdev, file_priv, true,
					    req->counterset);
	case DRM_PANFROST_PERFCNT_OP_DISABLE:
		return panfrost_perfcnt_set(pfdev, file_priv, false, 0);
	case DRM_PANFROST_PERFCNT_OP_DUMP:
		ret = panfrost_perfcnt_read(pfdev, file_priv,
					    u64_to_user_ptr(req->buf_ptr),
					    req->buf_size, &resets);
		if (ret < 0)
			return ret;
		req->resets = resets;
		req->timestamp_ns = ktime_get_ns();
		return 0;
	default:
		return -EINVAL;
	}
}
