/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PANFROST_MPC_H__
#define __PANFROST_MPC_H__

#include <linux/types.h>

struct drm_device;
struct drm_file;
struct panfrost_device;

u64 panfrost_mpc_features(struct panfrost_device *pfdev);
int panfrost_ioctl_perfcnt_info(struct drm_device *dev, void *data,
				struct drm_file *file_priv);
int panfrost_ioctl_perfcnt_sample(struct drm_device *dev, void *data,
				  struct drm_file *file_priv);

#endif
