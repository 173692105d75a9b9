// SPDX-License-Identifier: GPL-2.0-only
/*
 * mali_perfcnt: counter sessions attached to the counter unit (uAPI
 * revision 3, SESSION_OPEN).
 *
 * All sessions of a device share one hub, which is a single owner of the
 * counter unit (&struct mpc_perfcnt_owner) while at least one session is
 * started: it enables the counters with the union of the started sessions'
 * masks, and every hardware sample it takes (a session's SAMPLE, a START or
 * STOP that changes who counts, or the watchdog at least every second) is
 * added once to the hub's sums (mpc_session.c), out of which each session
 * takes its own counters when it is sampled, stopped or loses the
 * counters. A session's
 * samples are thus not disturbed by another starting, stopping or sampling:
 * those only cut the hardware's intervals, never a session's sums. When a
 * START needs counters the hardware does not count yet, the hub samples,
 * then re-enables with the new union.
 *
 * Periodic sessions also have a ring: the hub's timer (an hrtimer at the
 * shortest running session's period, else the watchdog's second) queues
 * the hub's work on the device's freezable stream workqueue, which takes
 * one hardware sample and, for every ring session whose period is due,
 * writes the session's sample straight into its ring's next slot
 * (mpc_session_emit(): take, encode and mark in one pass), so a ring
 * sample costs one hardware sample and one pass per session, no syscall
 * and no copy but read()'s. A full ring takes no sample: the session's
 * interval goes on, and the next sample delivered says how many periods it
 * stands for (MALI_PERFCNT_DATA_OVERFLOW).
 *
 * Lock order: a session's read_lock, then hub->lock, then the counter
 * unit's lock (inside the mpc_perfcnt_*() calls); a session's ring_lock (a
 * spinlock, innermost) protects its ring's head and tail. The unit's
 * lost() callback may run inside such a call, so it only records the
 * error (hub->lost_err) for the hub to see under its lock, and queues the
 * hub's work so that blocked readers learn of it without waiting for a
 * period.
 */
#include <linux/anon_inodes.h>
#include <linux/capability.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/hrtimer.h>
#include <linux/math64.h>
#include <linux/poll.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <linux/workqueue.h>
#include <drm/drm_drv.h>
#include <drm/drm_managed.h>

#include "mpc_session.h"
#include <drm/mali_perfcnt_drm.h>

/**
 * struct mpc_session_hub - the sessions of one device
 * @mdev: the device.
 * @owner: what the hub owns the counters as while @hw_on.
 * @lock: protects every other field and every session's state; taken
 *	before the counter unit's lock.
 * @sessions: every open session (&mpc_session.node).
 * @nr_sessions: entries of @sessions.
 * @hw_on: the hub owns the counters, programmed with @hw_cfg.
 * @hw_cfg: the union the hardware counts.
 * @lost_err: set by the unit's lost() (no lock): the counters were taken
 *	away with that error; read and cleared under @lock.
 * @raw: one hardware dump.
 * @total: every hardware interval the hub took, summed (allocated with
 *	@raw).
 * @timer: fires every @period_ns while @hw_on and queues @work.
 * @work: samples the hardware and fills the due rings (on the device's
 *	freezable &mpc_device.stream_wq: never during system sleep).
 * @period_ns: the timer's period: the shortest running session's, or
 *	%MALI_PERFCNT_SESSION_WATCHDOG_NS (read by the timer).
 */
struct mpc_session_hub {
	struct mpc_device *mdev;
	struct mpc_perfcnt_owner owner;
	struct mutex lock;	/* everything here and in the sessions */
	struct list_head sessions;
	unsigned int nr_sessions;
	bool hw_on;
	struct mpc_perfcnt_config hw_cfg;
	atomic_t lost_err;
	__le32 *raw;
	struct mpc_session_total total;
	struct hrtimer timer;
	struct work_struct work;
	u64 period_ns;
};

/**
 * struct mpc_session - one session (an open session fd)
 * @hub: its device's hub.
 * @node: entry in &mpc_session_hub.sessions.
 * @acc: what it counted since its last sample: taken out of
 *	&mpc_session_hub.total while it runs (its mark is where it started).
 * @period_ns: its MALI_PERFCNT_PROP_PERIOD_NS, 0 for the watchdog's.
 * @user_data: its MALI_PERFCNT_PROP_USER_DATA.
 * @seqno: samples it returned.
 * @running: started.
 * @pending: @acc holds an interval a SAMPLE has not returned.
 * @err: the counters were lost with this error while it ran.
 * @sample_size: bytes of one sample.
 * @ring: @ring_nr slots of @sample_size bytes, NULL without a period.
 * @ring_nr: its slots (MALI_PERFCNT_PROP_RING_SAMPLES).
 * @ring_lost: periods folded into the interval since the last sample
 *	delivered because the ring was full.
 * @next_due_ns: when the ring's next sample is due (hardware clock).
 * @ring_lock: protects @head and @tail.
 * @head: free-running index of the next slot the hub fills.
 * @tail: free-running index of the oldest unread slot (moved by readers).
 * @read_lock: serialises readers.
 * @wq: readers and poll() wait here.
 *
 * @running is written under &mpc_session_hub.lock and read without it
 * (READ_ONCE) by waiting readers; @ring's slots between @tail and @head
 * belong to the readers, the others to the hub. All other fields but
 * @hub are protected by &mpc_session_hub.lock.
 */
struct mpc_session {
	struct mpc_session_hub *hub;
	struct list_head node;
	struct mpc_session_acc acc;
	u64 period_ns;
	u64 user_data;
	u64 seqno;
	bool running;
	bool pending;
	int err;
	u32 sample_size;
	u8 *ring;
	u32 ring_nr;
	u32 ring_lost;
	u64 next_due_ns;
	spinlock_t ring_lock;	/* @head, @tail */
	u64 head;
	u64 tail;
	struct mutex read_lock;	/* readers */
	wait_queue_head_t wq;
};

static void mpc_session_lost(struct mpc_perfcnt_owner *owner, int err)
{
	struct mpc_session_hub *hub = container_of(owner, struct mpc_session_hub, owner);

	/* Maybe inside the hub's own call into the unit: no lock here */
	atomic_set(&hub->lost_err, err);
	/* Blocked readers are woken by the work, once it has stopped them */
	queue_work(hub->mdev->stream_wq, &hub->work);
}

static void mpc_session_hub_owner_release(struct mpc_perfcnt_owner *owner)
{
	/* The hub is device-managed memory and holds its own reference */
}

static const struct mpc_perfcnt_owner_ops mpc_session_owner_ops = {
	.lost = mpc_session_lost,
	.release = mpc_session_hub_owner_release,
};

/* What @s counted since its mark, into its sums (@s runs). */
static void mpc_session_take_locked(struct mpc_session *s)
{
	struct mpc_session_hub *hub = s->hub;
	struct mpc_device *mdev = hub->mdev;

	lockdep_assert_held(&hub->lock);
	mpc_session_take(&s->acc, &hub->total, &mdev->features.layout,
			 mdev->features.shader_present);
}

/*
 * The counters were taken from the hub: every started session stops, with
 * what it counted up to the last hardware sample.
 */
static void mpc_session_check_lost_locked(struct mpc_session_hub *hub)
{
	struct mpc_session *s;
	int err;

	lockdep_assert_held(&hub->lock);
	err = atomic_xchg(&hub->lost_err, 0);
	if (!err)
		return;
	WRITE_ONCE(hub->hw_on, false);
	list_for_each_entry(s, &hub->sessions, node) {
		if (s->running) {
			mpc_session_take_locked(s);
			WRITE_ONCE(s->running, false);
			s->err = err;
			wake_up_interruptible(&s->wq);
		}
	}
}

/* Add the hardware sample in @hub->raw to the sums of every interval. */
static void mpc_session_hw_add_locked(struct mpc_session_hub *hub,
				      const struct mpc_sample_info *info)
{
	struct mpc_device *mdev = hub->mdev;
	u64 sp = mdev->features.shader_present;
	struct mpc_session *s;
	u8 pwr = info->power;
	u8 *power = NULL;

	lockdep_assert_held(&hub->lock);
	/*
	 * The GPU's power over the interval, when the counters follow it
	 * (every block alike: the host powers the GPU as a whole); else the
	 * counter unit kept it powered, but for a system sleep inside.
	 */
	if (pwr == MALI_PERFCNT_POWER_ON && (info->data_flags & MALI_PERFCNT_DATA_AFTER_POWER_LOSS))
		pwr = MALI_PERFCNT_POWER_PARTIAL;
	if (pwr != MALI_PERFCNT_POWER_ON) {
		/* GFP_NOIO: also from the host's runtime suspend */
		power = kmalloc(mdev->features.layout.nr_blocks, GFP_NOIO);
		if (power)
			memset(power, pwr, mdev->features.layout.nr_blocks);
	}
	mpc_session_total_add(&hub->total, &mdev->features.layout, sp, &hub->hw_cfg, hub->raw,
			      power, info->data_flags, info->timestamp_ns);
	list_for_each_entry(s, &hub->sessions, node)
		if (s->running)
			s->pending = true;
	kfree(power);
}

/* Take a hardware sample and add it to the sums of every interval. */
static int mpc_session_hw_sample_locked(struct mpc_session_hub *hub)
{
	struct mpc_sample_info info;
	int ret;

	lockdep_assert_held(&hub->lock);
	mpc_session_check_lost_locked(hub);
	if (!hub->hw_on)
		return -ENODATA;
	ret = mpc_perfcnt_sample(hub->mdev, &hub->owner, NULL, hub->raw, &info);
	mpc_session_check_lost_locked(hub);
	if (ret)
		return ret;
	mpc_session_hw_add_locked(hub, &info);
	return 0;
}

/**
 * mpc_session_power_down() - the sessions' last sample before a power-down
 * @mdev: device, still powered.
 *
 * From mpc_perfcnt_power_down(), in the host's runtime suspend: neither
 * lock is waited for (an enable holding them may be waiting for this
 * suspend to end).
 *
 * Return: 0, -ENODATA (nothing counted), -EBUSY (a lock was taken: the
 * host fails its suspend) or the sample's error.
 */
int mpc_session_power_down(struct mpc_device *mdev)
{
	struct mpc_session_hub *hub = mdev->sessions;
	struct mpc_sample_info info;
	int ret;

	if (!hub)
		return mpc_perfcnt_sample_power_down(mdev, NULL, NULL, NULL);
	if (!mutex_trylock(&hub->lock))
		return -EBUSY;
	mpc_session_check_lost_locked(hub);
	/* Without hw_on the counter unit still stops what follows the power */
	ret = mpc_perfcnt_sample_power_down(mdev, hub->hw_on ? &hub->owner : NULL, hub->raw,
					    &info);
	mpc_session_check_lost_locked(hub);
	if (!ret && hub->hw_on)
		mpc_session_hw_add_locked(hub, &info);
	mutex_unlock(&hub->lock);
	return ret;
}

static void mpc_session_watchdog_arm_locked(struct mpc_session_hub *hub)
{
	struct mpc_session *s;
	u64 period = MALI_PERFCNT_SESSION_WATCHDOG_NS;

	lockdep_assert_held(&hub->lock);
	list_for_each_entry(s, &hub->sessions, node)
		if (s->running && s->period_ns && s->period_ns < period)
			period = s->period_ns;
	WRITE_ONCE(hub->period_ns, period);
	hrtimer_start(&hub->timer, ns_to_ktime(period), HRTIMER_MODE_REL);
}

static enum hrtimer_restart mpc_session_timer(struct hrtimer *timer)
{
	struct mpc_session_hub *hub = container_of(timer, struct mpc_session_hub, timer);

	if (!READ_ONCE(hub->hw_on))
		return HRTIMER_NORESTART;
	/* Still busy with the last one: this period folds into the next */
	queue_work(hub->mdev->stream_wq, &hub->work);
	hrtimer_forward_now(timer, ns_to_ktime(READ_ONCE(hub->period_ns)));
	return HRTIMER_RESTART;
}

/* Slots of @s's ring the hub may fill now. */
static u32 mpc_session_ring_space(struct mpc_session *s)
{
	u64 used;

	spin_lock(&s->ring_lock);
	used = s->head - s->tail;
	spin_unlock(&s->ring_lock);
	return s->ring_nr - (u32)used;
}

static u8 *mpc_session_ring_slot(struct mpc_session *s, u64 idx)
{
	u32 slot;

	div_u64_rem(idx, s->ring_nr, &slot);
	return s->ring + (size_t)slot * s->sample_size;
}

/* Header fields of @s's next sample; consumes what the ring folded. */
static void mpc_session_next_args_locked(struct mpc_session *s,
					 struct mpc_session_encode_args *ea)
{
	lockdep_assert_held(&s->hub->lock);
	ea->user_data = s->user_data;
	ea->seqno = ++s->seqno;
	ea->gpu_freq_hz = s->hub->mdev->gpu_freq_hz;
	ea->lost = s->ring_lost;
	s->ring_lost = 0;
}

/*
 * One period of @s is due: its sample since its mark goes into the ring's
 * next slot, or, with the ring full, its interval goes on.
 */
static void mpc_session_ring_push_locked(struct mpc_session *s)
{
	struct mpc_session_hub *hub = s->hub;
	struct mpc_device *mdev = hub->mdev;
	struct mpc_session_encode_args ea;

	lockdep_assert_held(&hub->lock);
	if (!mpc_session_ring_space(s)) {
		if (s->ring_lost < U32_MAX)
			s->ring_lost++;
		return;
	}
	mpc_session_next_args_locked(s, &ea);
	/* The slot at head is the hub's until head moves past it */
	if (mpc_session_emit(&s->acc, &hub->total, &mdev->features.layout,
			     mdev->features.shader_present, &ea,
			     mpc_session_ring_slot(s, s->head), s->sample_size) < 0)
		return;
	s->pending = false;
	spin_lock(&s->ring_lock);
	s->head++;
	spin_unlock(&s->ring_lock);
	wake_up_interruptible(&s->wq);
}

/* After a hardware sample: the rings whose period is due get their sample. */
static void mpc_session_ring_deliver_locked(struct mpc_session_hub *hub)
{
	u64 now = hub->total.end_ns, slack = hub->period_ns / 2;
	struct mpc_session *s;

	lockdep_assert_held(&hub->lock);
	list_for_each_entry(s, &hub->sessions, node) {
		if (!s->running || !s->ring || now + slack < s->next_due_ns)
			continue;
		s->next_due_ns += s->period_ns;
		if (s->next_due_ns <= now)	/* late by a period or more */
			s->next_due_ns = now + s->period_ns;
		mpc_session_ring_push_locked(s);
	}
}

static void mpc_session_work(struct work_struct *work)
{
	struct mpc_session_hub *hub = container_of(work, struct mpc_session_hub, work);

	mutex_lock(&hub->lock);
	/*
	 * Also after a lost(): the sample sees the loss, stops the sessions
	 * and wakes their readers. Another error (-ETIMEDOUT or -ENXIO after
	 * a recovery, -EAGAIN in system sleep) leaves the intervals going on:
	 * the next sample has the flags that say so.
	 */
	if (!mpc_session_hw_sample_locked(hub))
		mpc_session_ring_deliver_locked(hub);
	mutex_unlock(&hub->lock);
}

/* Program the hardware with the union of the started sessions plus @extra. */
static int mpc_session_reprogram_locked(struct mpc_session_hub *hub, struct mpc_session *extra)
{
	const struct mpc_perfcnt_config *cfgs[MPC_MAX_SESSIONS + 1];
	struct mpc_device *mdev = hub->mdev;
	struct mpc_perfcnt_config cfg;
	struct mpc_session *s;
	unsigned int n = 0;
	int ret;

	lockdep_assert_held(&hub->lock);
	if (extra)
		cfgs[n++] = &extra->acc.cfg;
	list_for_each_entry(s, &hub->sessions, node)
		if (s->running && n < ARRAY_SIZE(cfgs))
			cfgs[n++] = &s->acc.cfg;
	mpc_session_union(cfgs, n, &cfg);
	if (hub->hw_on) {
		ret = mpc_perfcnt_disable(mdev, &hub->owner);
		mpc_session_check_lost_locked(hub);
		if (ret && hub->hw_on)
			return ret;
		WRITE_ONCE(hub->hw_on, false);
	}
	if (!n)
		return 0;
	ret = mpc_perfcnt_enable(mdev, &hub->owner, &cfg);
	if (ret)
		return ret;
	hub->hw_cfg = cfg;
	WRITE_ONCE(hub->hw_on, true);
	return 0;
}

static int mpc_session_start_locked(struct mpc_session *s)
{
	struct mpc_session_hub *hub = s->hub;
	struct mpc_session *o;
	bool others = false;
	u64 start;
	int ret;

	lockdep_assert_held(&hub->lock);
	if (s->running)
		return MPC_REJECT(hub->mdev, -EALREADY,
				  "SESSION START: already started (STOP first)");
	mpc_session_check_lost_locked(hub);
	list_for_each_entry(o, &hub->sessions, node)
		if (o->running)
			others = true;
	if (others && hub->hw_cfg.set != s->acc.cfg.set)
		return MPC_REJECT(hub->mdev, -EBUSY, "SESSION START: a session uses counter set %u",
				  hub->hw_cfg.set);

	if (hub->hw_on && mpc_session_covers(&hub->hw_cfg, &s->acc.cfg)) {
		/* Closes the others' current hardware interval: ours starts here */
		ret = mpc_session_hw_sample_locked(hub);
		if (ret)
			return ret;
		start = hub->total.end_ns;
	} else {
		if (hub->hw_on) {
			ret = mpc_session_hw_sample_locked(hub);
			if (ret)
				return ret;
		}
		ret = mpc_session_reprogram_locked(hub, s);
		if (ret) {
			/* Put the others back as they were, if they were */
			if (others && !hub->hw_on && mpc_session_reprogram_locked(hub, NULL))
				drm_warn(hub->mdev->drm, "sessions lost the counters\n");
			return ret;
		}
		start = mpc_perfcnt_interval_start(hub->mdev);
	}
	mpc_session_acc_restart(&s->acc, start, MALI_PERFCNT_DATA_FIRST);
	mpc_session_mark(&s->acc, &hub->total);
	WRITE_ONCE(s->running, true);
	s->pending = false;
	s->err = 0;
	s->ring_lost = 0;
	s->next_due_ns = start + s->period_ns;
	/* Rings of one period are filled by the same hardware samples */
	list_for_each_entry(o, &hub->sessions, node) {
		if (o != s && o->running && o->ring && o->period_ns == s->period_ns) {
			s->next_due_ns = o->next_due_ns;
			break;
		}
	}
	mpc_session_watchdog_arm_locked(hub);
	return 0;
}

static int mpc_session_stop_locked(struct mpc_session *s)
{
	struct mpc_session_hub *hub = s->hub;
	struct mpc_session *o;
	bool others = false;
	int ret;

	lockdep_assert_held(&hub->lock);
	mpc_session_check_lost_locked(hub);
	if (!s->running)
		return MPC_REJECT(hub->mdev, -EALREADY,
				  "SESSION STOP: not started (START first)");
	/* Its last hardware interval; a failure is kept as its error */
	ret = mpc_session_hw_sample_locked(hub);
	if (ret && ret != -ENODATA)
		s->err = ret;
	if (s->running)		/* not when the sample lost the counters */
		mpc_session_take_locked(s);
	WRITE_ONCE(s->running, false);
	/* A blocked reader takes the last interval, once the ring is drained */
	wake_up_interruptible(&s->wq);
	list_for_each_entry(o, &hub->sessions, node)
		if (o->running)
			others = true;
	if (!others && hub->hw_on) {
		WRITE_ONCE(hub->hw_on, false);
		hrtimer_cancel(&hub->timer);
		if (mpc_perfcnt_disable(hub->mdev, &hub->owner))
			drm_dbg_driver(hub->mdev->drm, "sessions: counters already gone\n");
		atomic_set(&hub->lost_err, 0);
	} else if (others && s->ring) {
		/* The timer may run at a shorter period than the others need */
		mpc_session_watchdog_arm_locked(hub);
	}
	return 0;
}

static int mpc_session_sample(struct mpc_session *s,
			      struct drm_mali_perfcnt_session_sample __user *uarg)
{
	struct mpc_session_hub *hub = s->hub;
	struct mpc_device *mdev = hub->mdev;
	const struct mpc_layout *layout = &mdev->features.layout;
	u64 sp = mdev->features.shader_present;
	struct drm_mali_perfcnt_session_sample args;
	struct mpc_session_encode_args ea;
	u32 size = mpc_session_sample_size(layout, sp);
	void *buf;
	int ret;

	if (copy_from_user(&args, uarg, sizeof(args)))
		return -EFAULT;
	if (args.flags || args.pad)
		return MPC_REJECT(mdev, -EINVAL, "SESSION SAMPLE: flags and pad must be 0");
	if (args.buf_size < size) {
		if (put_user(size, &uarg->buf_size))
			return -EFAULT;
		return MPC_REJECT(mdev, -ENOSPC, "SESSION SAMPLE: buffer of %u bytes, need %u",
				  args.buf_size, size);
	}
	buf = kvmalloc(size, GFP_KERNEL_ACCOUNT);
	if (!buf)
		return -ENOMEM;

	ret = mutex_lock_killable(&hub->lock);
	if (ret)
		goto out_free;
	mpc_session_check_lost_locked(hub);
	if (s->running) {
		ret = mpc_session_hw_sample_locked(hub);
		if (!ret) {
			mpc_session_take_locked(s);
		} else if (!s->running) {
			/*
			 * The loss that stopped it, reported now, once: also when
			 * the counters went (another path's failed recovery)
			 * before this sample could be taken, which then found
			 * them off (-ENODATA) and the loss only afterwards.
			 */
			if (ret == -ENODATA && s->err)
				ret = s->err;
			s->err = 0;
		}
	} else if (s->err) {
		ret = s->err;
		s->err = 0;
	} else if (!s->pending) {
		ret = MPC_REJECT(mdev, -ENODATA, "SESSION SAMPLE: not started");
	}
	if (!ret) {
		mpc_session_next_args_locked(s, &ea);
		ret = mpc_session_encode(&s->acc, layout, sp, &ea, buf, size);
		mpc_session_acc_restart(&s->acc, s->acc.end_ns, 0);
		mpc_session_mark(&s->acc, &hub->total);
		s->pending = false;
	}
	mutex_unlock(&hub->lock);
	if (ret < 0)
		goto out_free;
	ret = 0;
	if (copy_to_user(u64_to_user_ptr(args.buf_ptr), buf, size) ||
	    put_user(size, &uarg->buf_size))
		ret = -EFAULT;
out_free:
	kvfree(buf);
	return ret;
}

static long mpc_session_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	struct mpc_session *s = file->private_data;
	struct mpc_session_hub *hub = s->hub;
	int ret;

	switch (cmd) {
	case MALI_PERFCNT_SESSION_IOCTL_START:
	case MALI_PERFCNT_SESSION_IOCTL_STOP:
		ret = mutex_lock_interruptible(&hub->lock);
		if (ret)
			return ret;
		if (cmd == MALI_PERFCNT_SESSION_IOCTL_START)
			ret = mpc_session_start_locked(s);
		else
			ret = mpc_session_stop_locked(s);
		mutex_unlock(&hub->lock);
		return ret;
	case MALI_PERFCNT_SESSION_IOCTL_SAMPLE:
		return mpc_session_sample(s, (void __user *)arg);
	default:
		return -ENOTTY;
	}
}

/* Free a session that is not (or no longer) listed. */
static void mpc_session_free(struct mpc_session *s)
{
	if (s->ring)
		mpc_track_free(s->hub->mdev, array_size(s->ring_nr, s->sample_size));
	kvfree(s->ring);
	mpc_session_acc_free(&s->acc);
	mutex_destroy(&s->read_lock);
	kfree(s);
}

/* What a blocked reader waits for: a sample, or the session's stop. */
static bool mpc_session_read_wake(struct mpc_session *s)
{
	bool wake;

	spin_lock(&s->ring_lock);
	wake = s->head != s->tail;
	spin_unlock(&s->ring_lock);
	return wake || !READ_ONCE(s->running);
}

/*
 * An empty ring: a running session waits (0), a stopped one returns its
 * last interval into @buf (the sample's size), the error that stopped it
 * once, -ENODEV once the device is gone, else -ENODATA.
 */
static int mpc_session_read_stopped(struct mpc_session *s, void *buf)
{
	struct mpc_session_hub *hub = s->hub;
	struct mpc_device *mdev = hub->mdev;
	struct mpc_session_encode_args ea;
	int ret = 0;

	if (mutex_lock_interruptible(&hub->lock))
		return -EINTR;
	mpc_session_check_lost_locked(hub);
	if (s->running) {
		ret = 0;
	} else if (s->pending) {
		mpc_session_next_args_locked(s, &ea);
		ret = mpc_session_encode(&s->acc, &mdev->features.layout,
					 mdev->features.shader_present, &ea, buf, s->sample_size);
		mpc_session_acc_restart(&s->acc, s->acc.end_ns, 0);
		mpc_session_mark(&s->acc, &hub->total);
		s->pending = false;
	} else if (s->err) {
		ret = s->err;
		s->err = 0;
	} else if (drm_dev_is_unplugged(mdev->drm)) {
		ret = MPC_REJECT(mdev, -ENODEV, "session read: device unplugged");
	} else {
		ret = MPC_REJECT(mdev, -ENODATA, "session read: stopped, ring empty (START first)");
	}
	mutex_unlock(&hub->lock);
	return ret;
}

/* Copy out the whole samples of the ring that fit in @len bytes. */
static ssize_t mpc_session_read_ring(struct mpc_session *s, char __user *ubuf, size_t len)
{
	size_t done = 0;
	u64 head;

	/*
	 * The hub fills a slot, then moves the head under ring_lock: reading
	 * the head under it orders the reads of the slots after those writes,
	 * and the hub never writes a slot between tail and head.
	 */
	spin_lock(&s->ring_lock);
	head = s->head;
	spin_unlock(&s->ring_lock);
	while (s->tail != head && len - done >= s->sample_size) {
		if (copy_to_user(ubuf + done, mpc_session_ring_slot(s, s->tail), s->sample_size))
			return done ? done : -EFAULT;
		done += s->sample_size;
		spin_lock(&s->ring_lock);
		s->tail++;
		spin_unlock(&s->ring_lock);
	}
	return done;
}

static ssize_t mpc_session_read(struct file *file, char __user *ubuf, size_t len, loff_t *ppos)
{
	struct mpc_session *s = file->private_data;
	struct mpc_device *mdev = s->hub->mdev;
	void *last = NULL;
	ssize_t ret;

	if (!len)
		return 0;
	if (!s->ring)
		return MPC_REJECT(mdev, -EINVAL,
				  "session read: no ring without PERIOD_NS (use SAMPLE)");
	if (len < s->sample_size)
		return MPC_REJECT(mdev, -ENOSPC, "session read: %zu bytes, a sample needs %u",
				  len, s->sample_size);
	if (mutex_lock_interruptible(&s->read_lock))
		return -EINTR;
	for (;;) {
		ret = mpc_session_read_ring(s, ubuf, len);
		if (ret)
			break;
		/* Empty: only a stopped session's last interval may follow */
		if (!READ_ONCE(s->running)) {
			if (!last)
				last = kvmalloc(s->sample_size, GFP_KERNEL_ACCOUNT);
			if (!last) {
				ret = -ENOMEM;
				break;
			}
			ret = mpc_session_read_stopped(s, last);
			if (ret > 0 && copy_to_user(ubuf, last, ret))
				ret = -EFAULT;	/* that interval is lost, as SAMPLE's */
			if (ret)
				break;
			continue;	/* restarted meanwhile */
		}
		if (file->f_flags & O_NONBLOCK) {
			ret = -EAGAIN;
			break;
		}
		mutex_unlock(&s->read_lock);
		ret = wait_event_interruptible(s->wq, mpc_session_read_wake(s));
		if (ret)
			goto out_free;
		if (mutex_lock_interruptible(&s->read_lock)) {
			ret = -EINTR;
			goto out_free;
		}
	}
	mutex_unlock(&s->read_lock);
out_free:
	kvfree(last);
	return ret;
}

static __poll_t mpc_session_poll(struct file *file, poll_table *wait)
{
	struct mpc_session *s = file->private_data;
	struct mpc_session_hub *hub = s->hub;
	__poll_t mask = 0;

	if (!s->ring)
		return EPOLLERR;
	poll_wait(file, &s->wq, wait);
	spin_lock(&s->ring_lock);
	if (s->head != s->tail)
		mask |= EPOLLIN | EPOLLRDNORM;
	spin_unlock(&s->ring_lock);
	if (mask || READ_ONCE(s->running))
		return mask;
	/* Stopped and drained: the last interval, an error, or nothing */
	mutex_lock(&hub->lock);
	mpc_session_check_lost_locked(hub);
	if (s->pending)
		mask |= EPOLLIN | EPOLLRDNORM;
	else if (s->err)
		mask |= EPOLLERR;
	mutex_unlock(&hub->lock);
	if (drm_dev_is_unplugged(hub->mdev->drm))
		mask |= EPOLLHUP | EPOLLERR;
	return mask;
}

static int mpc_session_release(struct inode *inode, struct file *file)
{
	struct mpc_session *s = file->private_data;
	struct mpc_session_hub *hub;
	struct drm_device *drm;

	if (!s)		/* SESSION_OPEN failed before listing it */
		return 0;
	hub = s->hub;
	drm = hub->mdev->drm;
	mutex_lock(&hub->lock);
	if (s->running)
		mpc_session_stop_locked(s);
	list_del(&s->node);
	hub->nr_sessions--;
	mutex_unlock(&hub->lock);
	mpc_session_free(s);
	drm_dev_put(drm);
	return 0;
}

static const struct file_operations mpc_session_fops = {
	.owner = THIS_MODULE,
	.read = mpc_session_read,
	.poll = mpc_session_poll,
	.release = mpc_session_release,
	.unlocked_ioctl = mpc_session_ioctl,
	.compat_ioctl = compat_ptr_ioctl,
	.llseek = noop_llseek,
};

static void mpc_session_hub_fini(struct drm_device *drm, void *data)
{
	struct mpc_session_hub *hub = data;

	hrtimer_cancel(&hub->timer);
	cancel_work_sync(&hub->work);
	mpc_session_total_free(&hub->total);
}

/**
 * mpc_session_init() - set up the device's session hub, at probe
 * @mdev: device, its features read.
 *
 * Return: 0 or -ENOMEM.
 */
int mpc_session_init(struct mpc_device *mdev)
{
	struct mpc_session_hub *hub;
	int ret;

	hub = drmm_kzalloc(mdev->drm, sizeof(*hub), GFP_KERNEL);
	if (!hub)
		return -ENOMEM;
	ret = drmm_mutex_init(mdev->drm, &hub->lock);
	if (ret)
		return ret;
	hub->mdev = mdev;
	hub->owner.ops = &mpc_session_owner_ops;
	hub->owner.name = "sessions";
	hub->owner.follows_power = true;
	kref_init(&hub->owner.ref);
	INIT_LIST_HEAD(&hub->sessions);
	INIT_WORK(&hub->work, mpc_session_work);
	hrtimer_init(&hub->timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL);
	hub->timer.function = mpc_session_timer;
	mdev->sessions = hub;
	return drmm_add_action(mdev->drm, mpc_session_hub_fini, hub);
}

/* The dump buffer and the sums, once the layout is known (after mpc_gpu_init()). */
static int mpc_session_hub_bufs_locked(struct mpc_session_hub *hub)
{
	int ret;

	lockdep_assert_held(&hub->lock);
	if (hub->raw)
		return 0;
	ret = mpc_session_total_alloc(&hub->total, &hub->mdev->features.layout);
	if (ret)
		return ret;
	hub->raw = drmm_kzalloc(hub->mdev->drm, hub->mdev->features.layout.dump_size,
				GFP_KERNEL);
	if (!hub->raw) {
		mpc_session_total_free(&hub->total);
		return -ENOMEM;
	}
	return 0;
}

int mpc_ioctl_get_info_v3(struct mpc_device *mdev, struct mpc_perfcnt_owner *owner, void *data)
{
	const struct mpc_features *f = &mdev->features;
	struct drm_mali_perfcnt_get_info_v3 *args = data;
	struct drm_mali_perfcnt_block_type_info bt[MALI_PERFCNT_MAX_BLOCK_TYPES] = {};
	u32 slot, type, inst, n = 0, i;

	if (args->flags || args->pad)
		return MPC_REJECT(mdev, -EINVAL, "GET_INFO_V3: flags and pad must be 0");
	if (mpc_any_set(args->reserved, ARRAY_SIZE(args->reserved)))
		return MPC_REJECT(mdev, -EINVAL, "GET_INFO_V3: reserved must be 0");

	for (slot = 0; slot < f->layout.nr_blocks; slot++) {
		if (mpc_session_slot(&f->layout, f->shader_present, slot, &type, &inst))
			continue;
		for (i = 0; i < n && bt[i].type != type; i++)
			;
		if (i == n) {
			if (n == ARRAY_SIZE(bt))
				continue;
			bt[n].type = type;
			bt[n].nr_values = MPC_COUNTERS_PER_BLOCK;
			n++;
		}
		bt[i].nr_instances++;
		if (inst < 64)
			bt[i].instance_mask |= BIT_ULL(inst);
	}
	if (args->block_types_ptr &&
	    copy_to_user(u64_to_user_ptr(args->block_types_ptr), bt,
			 min(n, args->nr_block_types) * sizeof(bt[0])))
		return -EFAULT;

	args->gpu_id = f->gpu_id;
	args->uapi_version = MALI_PERFCNT_UAPI_VERSION;
	args->shader_present = f->shader_present;
	args->l2_present = f->l2_present;
	args->gpu_freq_hz = mdev->gpu_freq_hz;
	args->nr_block_types = n;
	args->nr_counter_sets = f->product->nr_sets;
	args->max_sessions = MPC_MAX_SESSIONS;
	args->sample_size = mpc_session_sample_size(&f->layout, f->shader_present);
	args->caps = f->product->nr_sets > 1 ? MALI_PERFCNT_CAP_SET_SECONDARY : 0;
	strscpy(args->product, f->product->name, sizeof(args->product));
	return 0;
}

struct mpc_session_props {
	u32 given;	/* BIT(property) of those set */
	struct mpc_perfcnt_config cfg;
	u64 period_ns;
	u64 user_data;
	u32 ring_nr;
};

static int mpc_session_parse(struct mpc_device *mdev, u64 uptr, struct mpc_session_props *p)
{
	struct drm_mali_perfcnt_ext_set_property ext;
	unsigned int n = 0;
	u64 min;

	while (uptr) {
		if (++n > MALI_PERFCNT_MAX_EXTENSIONS)
			return MPC_REJECT(mdev, -E2BIG, "SESSION_OPEN: more than %u extensions",
					  MALI_PERFCNT_MAX_EXTENSIONS);
		if (copy_from_user(&ext, u64_to_user_ptr(uptr), sizeof(ext)))
			return -EFAULT;
		if (ext.base.name != MALI_PERFCNT_EXT_SET_PROPERTY)
			return MPC_REJECT(mdev, -EINVAL, "SESSION_OPEN: unknown extension %u",
					  ext.base.name);
		if (ext.base.pad || ext.pad)
			return MPC_REJECT(mdev, -EINVAL, "SESSION_OPEN: extension pad must be 0");
		if (ext.property < MALI_PERFCNT_PROP_JM_MASK ||
		    ext.property > MALI_PERFCNT_PROP_RING_SAMPLES)
			return MPC_REJECT(mdev, -EINVAL, "SESSION_OPEN: unknown property %u",
					  ext.property);
		if (p->given & BIT(ext.property))
			return MPC_REJECT(mdev, -EINVAL, "SESSION_OPEN: property %u set twice",
					  ext.property);
		p->given |= BIT(ext.property);
		if (ext.property <= MALI_PERFCNT_PROP_MMU_L2_MASK &&
		    (ext.value & ~(u64)MPC_BLOCK_ENABLE_ALL))
			return MPC_REJECT(mdev, -EINVAL, "SESSION_OPEN: mask 0x%llx above bit 15",
					  ext.value);
		switch (ext.property) {
		case MALI_PERFCNT_PROP_JM_MASK:
			p->cfg.jm = ext.value;
			break;
		case MALI_PERFCNT_PROP_TILER_MASK:
			p->cfg.tiler = ext.value;
			break;
		case MALI_PERFCNT_PROP_SHADER_MASK:
			p->cfg.shader = ext.value;
			break;
		case MALI_PERFCNT_PROP_MMU_L2_MASK:
			p->cfg.mmu_l2 = ext.value;
			break;
		case MALI_PERFCNT_PROP_PERIOD_NS:
			min = perfmon_capable() ? MALI_PERFCNT_STREAM_MIN_PERIOD_NS :
			      mdev->host_ops->min_period_unpriv_ns ?
			      mdev->host_ops->min_period_unpriv_ns(mdev->host) :
			      MALI_PERFCNT_STREAM_MIN_PERIOD_UNPRIV_NS;
			if (ext.value && (ext.value < min ||
					  ext.value > MALI_PERFCNT_SESSION_WATCHDOG_NS))
				return MPC_REJECT(mdev, -EINVAL,
						  "SESSION_OPEN: period %llu ns out of [%llu, %llu]",
						  ext.value, min, MALI_PERFCNT_SESSION_WATCHDOG_NS);
			p->period_ns = ext.value;
			break;
		case MALI_PERFCNT_PROP_RING_SAMPLES:
			if (ext.value < 2 || ext.value > MALI_PERFCNT_SESSION_MAX_RING_SAMPLES)
				return MPC_REJECT(mdev, -EINVAL,
						  "SESSION_OPEN: ring of %llu samples, want 2 to %u",
						  ext.value, MALI_PERFCNT_SESSION_MAX_RING_SAMPLES);
			p->ring_nr = ext.value;
			break;
		default:
			p->user_data = ext.value;
			break;
		}
		uptr = ext.base.next_extension;
	}
	if (p->ring_nr && !p->period_ns)
		return MPC_REJECT(mdev, -EINVAL,
				  "SESSION_OPEN: RING_SAMPLES without PERIOD_NS (a ring fills each period)");
	return 0;
}

int mpc_ioctl_session_open(struct mpc_device *mdev, struct mpc_perfcnt_owner *owner, void *data)
{
	struct mpc_session_hub *hub = mdev->sessions;
	struct drm_mali_perfcnt_session_open *args = data;
	struct mpc_session_props p = {};
	struct mpc_session *s;
	bool listed = false;
	struct file *f;
	int ret, fd;

	if (args->flags & ~(MALI_PERFCNT_SESSION_F_CLOEXEC | MALI_PERFCNT_SESSION_F_START))
		return MPC_REJECT(mdev, -EINVAL, "SESSION_OPEN: unknown flags 0x%x", args->flags);
	if (mpc_any_set(args->reserved, ARRAY_SIZE(args->reserved)))
		return MPC_REJECT(mdev, -EINVAL, "SESSION_OPEN: reserved must be 0");
	if (args->counter_set >= mdev->features.product->nr_sets)
		return MPC_REJECT(mdev, -EINVAL, "SESSION_OPEN: counter set %u: %s has %u",
				  args->counter_set, mdev->features.product->name,
				  mdev->features.product->nr_sets);
	p.cfg.jm = MPC_BLOCK_ENABLE_ALL;
	p.cfg.tiler = MPC_BLOCK_ENABLE_ALL;
	p.cfg.shader = MPC_BLOCK_ENABLE_ALL;
	p.cfg.mmu_l2 = MPC_BLOCK_ENABLE_ALL;
	ret = mpc_session_parse(mdev, args->extensions, &p);
	if (ret)
		return ret;
	p.cfg.set = args->counter_set;
	ret = mpc_perfcnt_check_access(mdev);
	if (ret)
		return ret;

	s = kzalloc(sizeof(*s), GFP_KERNEL_ACCOUNT);
	if (!s)
		return -ENOMEM;
	spin_lock_init(&s->ring_lock);
	mutex_init(&s->read_lock);
	init_waitqueue_head(&s->wq);
	ret = mpc_session_acc_init(&s->acc, &mdev->features.layout, &p.cfg);
	if (ret)
		goto err_free;
	s->hub = hub;
	s->period_ns = p.period_ns;
	s->user_data = p.user_data;
	s->sample_size = mpc_session_sample_size(&mdev->features.layout,
						 mdev->features.shader_present);
	if (p.ring_nr) {
		/* Charged to the opener; at most 16 sessions of 1024 samples a device */
		s->ring = kvmalloc(array_size(p.ring_nr, s->sample_size), GFP_KERNEL_ACCOUNT);
		if (!s->ring) {
			ret = -ENOMEM;
			goto err_free;
		}
		s->ring_nr = p.ring_nr;
		mpc_track_alloc(mdev, array_size(p.ring_nr, s->sample_size));
	}

	fd = get_unused_fd_flags(O_RDONLY | (args->flags & MALI_PERFCNT_SESSION_F_CLOEXEC ?
					     O_CLOEXEC : 0));
	if (fd < 0) {
		ret = fd;
		goto err_free;
	}
	f = anon_inode_getfile("[mali_perfcnt_session]", &mpc_session_fops, s, O_RDONLY);
	if (IS_ERR(f)) {
		ret = PTR_ERR(f);
		goto err_fd;
	}

	mutex_lock(&hub->lock);
	ret = mpc_session_hub_bufs_locked(hub);
	if (!ret && hub->nr_sessions >= MPC_MAX_SESSIONS)
		ret = MPC_REJECT(mdev, -EMFILE, "SESSION_OPEN: %u sessions open",
				 MPC_MAX_SESSIONS);
	if (!ret) {
		list_add_tail(&s->node, &hub->sessions);
		listed = true;
		hub->nr_sessions++;
		drm_dev_get(mdev->drm);
		if (args->flags & MALI_PERFCNT_SESSION_F_START)
			ret = mpc_session_start_locked(s);
	}
	mutex_unlock(&hub->lock);
	if (ret) {
		/* Once listed, the file's release unlists and frees it */
		if (!listed)
			f->private_data = NULL;
		fput(f);
		put_unused_fd(fd);
		if (listed)
			return ret;
		goto err_free;
	}
	fd_install(fd, f);
	return fd;

err_fd:
	put_unused_fd(fd);
err_free:
	mpc_session_free(s);
	return ret;
}
