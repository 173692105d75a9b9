// SPDX-License-Identifier: GPL-2.0-only
/*
 * mali_perfcnt: the counter core's small helpers: allocation accounting
 * and register polling through the host (mpc_host.h).
 */
#include <linux/atomic.h>
#include <linux/iopoll.h>

#include "mpc_core.h"

/**
 * mpc_track_alloc() - account an allocation the module holds
 * @mdev: device.
 * @bytes: its size.
 */
void mpc_track_alloc(struct mpc_device *mdev, size_t bytes)
{
	atomic_inc(&mdev->live_allocs);
	atomic64_add(bytes, &mdev->live_bytes);
}

/**
 * mpc_track_free() - account the release of an allocation
 * @mdev: device.
 * @bytes: its size.
 */
void mpc_track_free(struct mpc_device *mdev, size_t bytes)
{
	atomic_dec(&mdev->live_allocs);
	atomic64_sub(bytes, &mdev->live_bytes);
}

/**
 * mpc_reg_poll() - wait for a register to reach a value, spinning first
 * @mdev: device.
 * @reg: register.
 * @mask: bits to compare.
 * @want: wanted value of the bits in @mask.
 * @spin_us: busy-wait this long first (transitions that usually finish in
 *	microseconds should not cost a scheduler round trip), then sleep.
 * @timeout_us: give up after this long in all.
 * @last: receives the last value read.
 *
 * The caller may sleep.
 *
 * Return: 0 or -ETIMEDOUT.
 */
int mpc_reg_poll(struct mpc_device *mdev, u32 reg, u32 mask, u32 want,
		 u32 spin_us, u32 timeout_us, u32 *last)
{
	u32 val;
	int ret;

	ret = read_poll_timeout_atomic(mpc_reg_read, val, (val & mask) == want,
				       1, spin_us, false, mdev, reg);
	if (ret && timeout_us > spin_us)
		ret = read_poll_timeout(mpc_reg_read, val, (val & mask) == want,
					10, timeout_us - spin_us, false, mdev, reg);
	*last = val;
	return ret;
}
