/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The few kernel API differences between the Debian 6.1 and 6.12 kernels this
 * module is built for, kept in one place.
 */
#ifndef MPC_COMPAT_H
#define MPC_COMPAT_H

#include <linux/version.h>

/* 6.11 made platform_driver.remove return void. */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 11, 0)
#define MPC_PLATFORM_REMOVE_RET	void
#define MPC_PLATFORM_REMOVE_DONE	return
#else
#define MPC_PLATFORM_REMOVE_RET	int
#define MPC_PLATFORM_REMOVE_DONE	return 0
#endif

/* drm_driver.date is deprecated from 6.12 on and removed in 6.14. */
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 12, 0)
#define MPC_DRM_DRIVER_DATE	.date = "20261129",
#else
#define MPC_DRM_DRIVER_DATE
#endif

#endif /* MPC_COMPAT_H */
