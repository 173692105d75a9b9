/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Differences between the kernels this module is built for (Debian's 6.1 and
 * 6.12), kept in one place. Features are tested, never version numbers.
 *
 * Differences avoided by design rather than handled here:
 *  - platform_driver.remove returns int on 6.1 and void on 6.12: the driver
 *    has no .remove; its teardown is a devm action (mpc_drv.c).
 *  - no_llseek is gone in 6.12: nonseekable files simply leave .llseek unset.
 *  - drm_driver.date is unused from 6.12 on but still present: set on both.
 */
#ifndef MPC_COMPAT_H
#define MPC_COMPAT_H

#include <linux/device.h>
#include <linux/fs.h>
#include <linux/platform_device.h>
#include <linux/string.h>
#include <linux/sysctl.h>

/*
 * 6.12's drm_open() warns and fails unless the file declares unsigned
 * offsets in file_operations.fop_flags, a member 6.1 does not have.
 */
#ifdef FOP_UNSIGNED_OFFSET
#define MPC_HAVE_FOP_FLAGS
#endif

/**
 * mpc_set_driver_override() - set or clear a platform device's driver_override
 * @pdev: device.
 * @name: driver name to force a match with, or "" to clear it.
 *
 * 6.1 keeps the override in struct platform_device (driver_set_override());
 * Debian's 6.12 in struct device (device_set_driver_override(), tested for
 * by Kbuild).
 *
 * Return: 0 or a negative errno.
 */
static inline int mpc_set_driver_override(struct platform_device *pdev,
					  const char *name)
{
#ifdef MPC_HAVE_DEVICE_DRIVER_OVERRIDE
	return device_set_driver_override(&pdev->dev, name);
#else
	return driver_set_override(&pdev->dev, &pdev->driver_override, name,
				   strlen(name));
#endif
}

/**
 * mpc_get_driver_override() - copy a platform device's driver_override
 * @pdev: device.
 * @buf: receives the name, "" when none is set.
 * @len: size of @buf.
 */
static inline void mpc_get_driver_override(struct platform_device *pdev,
					   char *buf, size_t len)
{
#ifdef MPC_HAVE_DEVICE_DRIVER_OVERRIDE
	spin_lock(&pdev->dev.driver_override.lock);
	strscpy(buf, pdev->dev.driver_override.name ?: "", len);
	spin_unlock(&pdev->dev.driver_override.lock);
#else
	/* driver_set_override() replaces it under the device lock */
	device_lock(&pdev->dev);
	strscpy(buf, pdev->driver_override ?: "", len);
	device_unlock(&pdev->dev);
#endif
}

/*
 * 6.1's register_sysctl() walks a table up to an empty entry; from 6.6 on it
 * takes the table's ARRAY_SIZE() and an empty entry would be one too many.
 * register_sysctl_sz() came with that change.
 */
#ifdef register_sysctl
#define MPC_SYSCTL_TABLE_END
#else
#define MPC_SYSCTL_TABLE_END	{ }
#endif

#endif /* MPC_COMPAT_H */
