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

#include <linux/fs.h>

/*
 * 6.12's drm_open() warns and fails unless the file declares unsigned
 * offsets in file_operations.fop_flags, a member 6.1 does not have.
 */
#ifdef FOP_UNSIGNED_OFFSET
#define MPC_HAVE_FOP_FLAGS
#endif

#endif /* MPC_COMPAT_H */
