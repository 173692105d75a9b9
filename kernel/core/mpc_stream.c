// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (C) 2026 The mali-perfcnt authors
 *
 * Sampling streams: a file descriptor that owns the counters, samples them
 * every period from an hrtimer (or on request) and queues the dumps as
 * records in a ring that read() drains, in the manner of i915/xe perf
 * streams.
 *
 * One producer at a time (st->sample_lock): the timer's work item or the
 * SAMPLE ioctl. It takes the same PERFCNT_SAMPLE -> clean -> complete chain
 * as the DUMP ioctl (mpc_perfcnt_sample()), directly into the ring slot it
 * reserved, and publishes the slot by moving the head. The reader copies out
 * of slots between tail and head without holding the spinlock, so no lock is
 * held across a user page fault; only it moves the tail.
 *
 * When the ring is full the sample is still taken (so the next interval
 * stays one period long and no counter saturates) and dropped; the next
 * published SAMPLE is preceded by a LOST record giving how many were dropped
 * and their interval. A failed sample becomes an ERROR record and, once the
 * GPU is recovered, the stream goes on.
 */

#include <linux/anon_inodes.h>
#include <linux/capability.h>
#include <linux/delay.h>
#include <linux/file.h>
#include <linux/hrtimer.h>
#include <linux/math64.h>
#include <linux/poll.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>
#include <linux/workqueue.h>

#include <drm/drm_drv.h>
#include <drm/drm_managed.h>
#include <drm/drm_print.h>

#include "mpc_core.h"
#include <drm/mali_perfcnt_drm.h>

/**
 * struct mpc_stream - one sampling stream
 * @owner: the stream as an owner of the counters; told when it loses them.
 * @mdev: the device; a drm_dev reference is held for the stream's life.
 * @period_ns: sampling period, 0 for manual sampling.
 * @nr: slots in @ring.
 * @rec_size: bytes per slot (a SAMPLE record: header + dump).
 * @ring: @nr slots of @rec_size bytes.
 * @scratch: where a sample that does not fit in the ring is taken.
 * @timer: fires every @period_ns while enabled, queues @work.
 * @work: takes one sample (process context: sampling sleeps).
 * @sample_lock: serialises producers (@work, the SAMPLE ioctl) with enable
 *	and disable; protects @next_flags, @lost, @lost_start, @lost_end,
 *	@lost_flags, @lost_error and @last_seqno, and the slot at @head.
 * @read_lock: serialises readers; only a reader moves @tail; protects
 *	@rd_off.
 * @lock: protects @head, @tail, @enabled, @dead and @end_error (taken in
 *	the timer).
 * @head: free-running index of the next slot to publish (64-bit: never
 *	wraps).
 * @tail: free-running index of the oldest unread slot.
 * @enabled: the timer runs / SAMPLE is allowed.
 * @dead: the device is gone or the GPU could not be recovered: no more
 *	records.
 * @end_error: the counter unit took the counters away with this error
 *	(mpc_stream_lost()): @work queues an ERROR record and ends
 *	the stream; 0 when none is due.
 * @wq: readers and poll() wait here for a record.
 * @next_flags: data flags for the next SAMPLE record.
 * @lost: samples dropped since the last published record.
 * @lost_start: start of the first dropped sample's interval.
 * @lost_end: end of the last dropped sample's interval.
 * @lost_flags: data flags of the dropped samples, ORed.
 * @lost_error: error of the first dropped ERROR record, 0 for none.
 * @last_seqno: sequence number of the last sample taken.
 * @from_debugfs: opened through debugfs perfcnt_stream: it took the
 *	counters over from debugfs and gives them back when closed.
 * @rd_off: bytes of the record at @tail already read (debugfs reads may
 *	split records).
 */
struct mpc_stream {
	struct mpc_perfcnt_owner owner;
	struct mpc_device *mdev;
	u64 period_ns;
	u32 nr;
	u32 rec_size;
	u8 *ring;
	u8 *scratch;
	struct hrtimer timer;
	struct work_struct work;
	struct mutex sample_lock;	/* producers; see @sample_lock above */
	struct mutex read_lock;		/* readers; only they move @tail */
	spinlock_t lock;		/* @head, @tail, @enabled, @dead, @end_error */
	u64 head;
	u64 tail;
	bool enabled;
	bool dead;
	int end_error;
	wait_queue_head_t wq;
	u32 next_flags;
	u64 lost;
	u64 lost_start;
	u64 lost_end;
	u32 lost_flags;
	int lost_error;
	u64 last_seqno;
	bool from_debugfs;
	u32 rd_off;
};

#define MPC_REC_HDR	sizeof(struct drm_mali_perfcnt_record)

/*
 * The slot of free-running index @idx. The indices are 64-bit so that they
 * never wrap: with u32 ones, any @nr that is not a power of two put
 * 2^32 - 1 and 0 in slots that do not follow each other (review 2, N7).
 */
static struct drm_mali_perfcnt_record *mpc_stream_slot(struct mpc_stream *st, u64 idx)
{
	u32 slot;

	div_u64_rem(idx, st->nr, &slot);
	return (struct drm_mali_perfcnt_record *)(st->ring + (size_t)slot * st->rec_size);
}

/* Slots the producer may fill now. */
static u32 mpc_stream_space(struct mpc_stream *st)
{
	u64 used;

	spin_lock_irq(&st->lock);
	used = st->head - st->tail;
	spin_unlock_irq(&st->lock);
	return st->nr - (u32)used;
}

static void mpc_stream_publish(struct mpc_stream *st, u32 n)
{
	spin_lock_irq(&st->lock);
	st->head += n;
	spin_unlock_irq(&st->lock);
	wake_up_interruptible(&st->wq);
}

static void mpc_stream_fill_lost_locked(struct mpc_stream *st,
					struct drm_mali_perfcnt_record *rec)
{
	lockdep_assert_held(&st->sample_lock);
	*rec = (struct drm_mali_perfcnt_record) {
		.type = MALI_PERFCNT_RECORD_LOST,
		.header_size = MPC_REC_HDR,
		.size = MPC_REC_HDR,
		.seqno = st->last_seqno,
		.start_ns = st->lost_start,
		.end_ns = st->lost_end,
		.data_flags = st->lost_flags,
		.error = st->lost_error,
		.lost = st->lost,
	};
	st->lost = 0;
	st->lost_flags = 0;
	st->lost_error = 0;
}

/*
 * Account one record @hdr that had no room: the LOST record that stands for
 * it keeps its interval, its data flags and, for an ERROR, its error.
 */
static void mpc_stream_drop_locked(struct mpc_stream *st, const struct drm_mali_perfcnt_record *hdr)
{
	lockdep_assert_held(&st->sample_lock);
	if (!st->lost++)
		st->lost_start = hdr->start_ns;
	st->lost_end = hdr->end_ns;
	st->lost_flags |= hdr->data_flags;
	if (!st->lost_error)
		st->lost_error = hdr->error;
}

static void mpc_stream_end(struct mpc_stream *st)
{
	unsigned long flags;

	spin_lock_irqsave(&st->lock, flags);
	st->dead = true;
	st->enabled = false;
	st->end_error = 0;
	spin_unlock_irqrestore(&st->lock, flags);
	wake_up_interruptible(&st->wq);
}

/*
 * Queue the outcome of one sample: the record @hdr describes goes into the
 * slot reserved for it, @rec, after a LOST record in @lost_rec when samples
 * were dropped since the last published record (a SAMPLE's dump is already
 * in place behind @rec). With no room (@rec NULL) the record is counted
 * lost instead, over @hdr's interval.
 */
static void mpc_stream_emit_locked(struct mpc_stream *st,
				   struct drm_mali_perfcnt_record *lost_rec,
				   struct drm_mali_perfcnt_record *rec,
				   const struct drm_mali_perfcnt_record *hdr)
{
	lockdep_assert_held(&st->sample_lock);
	if (!rec) {
		mpc_stream_drop_locked(st, hdr);
		return;
	}
	if (lost_rec)
		mpc_stream_fill_lost_locked(st, lost_rec);
	*rec = *hdr;
	rec->header_size = MPC_REC_HDR;
	mpc_stream_publish(st, lost_rec ? 2 : 1);
}

/*
 * The slot for the next record, NULL when the ring has no room for it
 * (after a LOST record, in *@lost_rec, when samples were dropped).
 */
static struct drm_mali_perfcnt_record *
mpc_stream_reserve_locked(struct mpc_stream *st, struct drm_mali_perfcnt_record **lost_rec)
{
	u32 need = st->lost ? 2 : 1;

	lockdep_assert_held(&st->sample_lock);
	*lost_rec = NULL;
	if (mpc_stream_space(st) < need)
		return NULL;
	if (st->lost)
		*lost_rec = mpc_stream_slot(st, st->head);
	return mpc_stream_slot(st, st->head + need - 1);
}

/*
 * Take one sample and queue its record (or count it lost). Returns the
 * sample's error, 0 when it was taken.
 */
static int mpc_stream_sample_locked(struct mpc_stream *st)
{
	struct mpc_device *mdev = st->mdev;
	struct drm_mali_perfcnt_record *rec, *lost_rec, hdr;
	u32 dump_size = mdev->features.layout.dump_size;
	struct mpc_sample_info si;
	u64 start_ns;
	void *dst;
	int ret;

	lockdep_assert_held(&st->sample_lock);
	/*
	 * Where the interval this sample covers starts, for an ERROR record:
	 * the counter unit's own (the last sample, the enable, a recovery or
	 * a resume), as a SAMPLE record's start is.
	 */
	start_ns = mpc_perfcnt_interval_start(mdev);
	rec = mpc_stream_reserve_locked(st, &lost_rec);
	dst = rec ? (void *)(rec + 1) : st->scratch;

	ret = mpc_perfcnt_sample(mdev, &st->owner, NULL, dst, &si);
	if (ret == -EAGAIN)
		return ret;	/* system sleep: the interval goes on */
	if (ret == -ENODEV || ret == -ENODATA || ret == -EPERM) {
		/* unplugged, or the counters were taken from us: the end */
		mpc_stream_end(st);
		return ret;
	}
	if (ret) {
		/* a failed recovery disables the counters: no more samples */
		bool gone = !mpc_perfcnt_owned_by(mdev, &st->owner);
		u64 now = ktime_get_raw_ns();

		/*
		 * The failed interval ends where the next one starts: at the
		 * recovery that restarted the counters. What the GPU counted
		 * before the reset is gone: the next sample says so
		 * (AFTER_RECOVERY, its interval starting at the recovery), as
		 * a DUMP's would.
		 */
		if (!gone)
			now = mpc_perfcnt_interval_start(mdev);
		hdr = (struct drm_mali_perfcnt_record) {
			.type = MALI_PERFCNT_RECORD_ERROR,
			.size = MPC_REC_HDR,
			.seqno = st->last_seqno,
			.start_ns = start_ns,
			.end_ns = now,
			.error = ret,
		};
		mpc_stream_emit_locked(st, lost_rec, rec, &hdr);
		if (gone)
			mpc_stream_end(st);
		return ret;
	}

	hdr = (struct drm_mali_perfcnt_record) {
		.type = MALI_PERFCNT_RECORD_SAMPLE,
		.size = MPC_REC_HDR + dump_size,
		.seqno = si.seqno,
		/* the counters' own span: after a recovery, from it */
		.start_ns = si.interval_start_ns,
		.end_ns = si.timestamp_ns,
		.data_flags = si.data_flags | st->next_flags,
	};
	mpc_stream_emit_locked(st, lost_rec, rec, &hdr);
	/* a dropped sample's flags went with it: the LOST record says so */
	st->next_flags = 0;
	st->last_seqno = si.seqno;
	return 0;
}

/*
 * &mpc_perfcnt_owner_ops.lost: called by the counter unit once it dropped
 * its lock, with a reference to the stream. No sample_lock here: it may be
 * called from inside the stream's own sample (which holds it). Unbound,
 * the stream ends at once; on an error it gets an ERROR record first,
 * queued by its work item.
 */
static void mpc_stream_lost(struct mpc_perfcnt_owner *owner, int err)
{
	struct mpc_stream *st = container_of(owner, struct mpc_stream, owner);
	unsigned long flags;

	if (err != -EIO) {
		mpc_stream_end(st);
		return;
	}
	spin_lock_irqsave(&st->lock, flags);
	st->enabled = false;
	if (!st->dead)
		st->end_error = err;
	spin_unlock_irqrestore(&st->lock, flags);
	queue_work(st->mdev->stream_wq, &st->work);
}

static void mpc_stream_free(struct mpc_stream *st)
{
	vfree(st->ring);
	kfree(st->scratch);
	mutex_destroy(&st->sample_lock);
	mutex_destroy(&st->read_lock);
	kfree(st);
}

/*
 * &mpc_perfcnt_owner_ops.release: the file is closed (or was never made)
 * and the counter unit has nothing more to tell the stream. Its timer is
 * stopped; the work item the last lost() may have queued is cancelled.
 */
static void mpc_stream_destroy(struct mpc_perfcnt_owner *owner)
{
	struct mpc_stream *st = container_of(owner, struct mpc_stream, owner);
	struct mpc_device *mdev = st->mdev;

	cancel_work_sync(&st->work);
	mpc_stream_free(st);
	drm_dev_put(mdev->drm);
}

static const struct mpc_perfcnt_owner_ops mpc_stream_owner_ops = {
	.lost = mpc_stream_lost,
	.release = mpc_stream_destroy,
};

static void mpc_stream_put(struct mpc_stream *st)
{
	mpc_perfcnt_owner_put(&st->owner);
}

/* The counters were taken away with an error: say so, then end. */
static void mpc_stream_error_end_locked(struct mpc_stream *st)
{
	struct drm_mali_perfcnt_record *rec, *lost_rec, hdr;
	int err;

	lockdep_assert_held(&st->sample_lock);
	spin_lock_irq(&st->lock);
	err = st->end_error;
	spin_unlock_irq(&st->lock);
	if (!err)
		return;
	hdr = (struct drm_mali_perfcnt_record) {
		.type = MALI_PERFCNT_RECORD_ERROR,
		.size = MPC_REC_HDR,
		.seqno = st->last_seqno,
		.start_ns = mpc_perfcnt_interval_start(st->mdev),
		.end_ns = ktime_get_raw_ns(),
		.error = err,
	};
	rec = mpc_stream_reserve_locked(st, &lost_rec);
	mpc_stream_emit_locked(st, lost_rec, rec, &hdr);
	mpc_stream_end(st);
}

static void mpc_stream_work(struct work_struct *work)
{
	struct mpc_stream *st = container_of(work, struct mpc_stream, work);

	mutex_lock(&st->sample_lock);
	if (READ_ONCE(st->enabled))
		mpc_stream_sample_locked(st);
	else
		mpc_stream_error_end_locked(st);
	mutex_unlock(&st->sample_lock);
}

static enum hrtimer_restart mpc_stream_timer(struct hrtimer *timer)
{
	struct mpc_stream *st = container_of(timer, struct mpc_stream, timer);
	unsigned long flags;
	bool on;

	spin_lock_irqsave(&st->lock, flags);
	on = st->enabled;
	spin_unlock_irqrestore(&st->lock, flags);
	if (!on)
		return HRTIMER_NORESTART;
	/* still busy with the last one: this period folds into the next */
	queue_work(st->mdev->stream_wq, &st->work);
	hrtimer_forward_now(timer, ns_to_ktime(st->period_ns));
	return HRTIMER_RESTART;
}

/* Start sampling; the first interval starts now. */
static int mpc_stream_enable_locked(struct mpc_stream *st, bool first)
{
	lockdep_assert_held(&st->sample_lock);
	if (st->dead)
		return -ENODEV;
	if (st->enabled)
		return 0;
	if (!first) {
		/* the counters ran on while disabled: start afresh */
		struct mpc_sample_info si;
		int ret = mpc_perfcnt_sample(st->mdev, &st->owner, NULL, st->scratch, &si);

		if (ret)
			return ret;
		st->last_seqno = si.seqno;
	}
	st->next_flags |= MALI_PERFCNT_DATA_FIRST;
	spin_lock_irq(&st->lock);
	st->enabled = true;
	spin_unlock_irq(&st->lock);
	if (st->period_ns)
		hrtimer_start(&st->timer, ns_to_ktime(st->period_ns), HRTIMER_MODE_REL);
	return 0;
}

static void mpc_stream_disable_locked(struct mpc_stream *st)
{
	lockdep_assert_held(&st->sample_lock);
	spin_lock_irq(&st->lock);
	st->enabled = false;
	spin_unlock_irq(&st->lock);
	/* a blocked reader of an empty ring gets -EIO */
	wake_up_interruptible(&st->wq);
	hrtimer_cancel(&st->timer);
	/* a queued work item sees !enabled and does nothing */
}

static long mpc_stream_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	struct mpc_stream *st = file->private_data;
	struct mpc_device *mdev = st->mdev;
	int ret = 0;

	switch (cmd) {
	case MALI_PERFCNT_STREAM_IOCTL_ENABLE:
	case MALI_PERFCNT_STREAM_IOCTL_DISABLE:
	case MALI_PERFCNT_STREAM_IOCTL_SAMPLE:
		break;
	default:
		return MPC_REJECT(mdev, -ENOTTY, "stream: unknown ioctl 0x%x", cmd);
	}
	if (arg)
		return MPC_REJECT(mdev, -EINVAL, "stream ioctl 0x%x takes no argument", cmd);
	if (mutex_lock_interruptible(&st->sample_lock))
		return -EINTR;
	switch (cmd) {
	case MALI_PERFCNT_STREAM_IOCTL_ENABLE:
		ret = mpc_stream_enable_locked(st, false);
		break;
	case MALI_PERFCNT_STREAM_IOCTL_DISABLE:
		mpc_stream_disable_locked(st);
		break;
	case MALI_PERFCNT_STREAM_IOCTL_SAMPLE:
		if (st->dead)
			ret = -ENODEV;
		else if (!st->enabled)
			ret = MPC_REJECT(mdev, -ENODATA, "stream: SAMPLE on a disabled stream");
		else
			ret = mpc_stream_sample_locked(st);
		break;
	}
	mutex_unlock(&st->sample_lock);
	return ret;
}

/* What a blocked reader waits for: a record, the end, or a disable. */
static bool mpc_stream_wake(struct mpc_stream *st)
{
	bool wake;

	spin_lock_irq(&st->lock);
	wake = st->head != st->tail || st->dead || (!st->enabled && !st->end_error);
	spin_unlock_irq(&st->lock);
	return wake;
}

static ssize_t mpc_stream_read(struct file *file, char __user *ubuf, size_t len,
			       loff_t *ppos)
{
	struct mpc_stream *st = file->private_data;
	size_t done = 0;
	int ret;

	if (!len)
		return 0;
	if (mutex_lock_interruptible(&st->read_lock))
		return -EINTR;
	for (;;) {
		u64 head, tail;
		bool dead, enabled;
		int end_error;

		spin_lock_irq(&st->lock);
		head = st->head;
		tail = st->tail;
		dead = st->dead;
		enabled = st->enabled;
		end_error = st->end_error;
		spin_unlock_irq(&st->lock);
		if (head != tail)
			break;
		if (dead) {
			ret = -ENODEV;
			goto out;
		}
		if (file->f_flags & O_NONBLOCK) {
			ret = -EAGAIN;
			goto out;
		}
		/* as i915's perf streams: no record would ever come */
		if (!enabled && !end_error) {
			ret = MPC_REJECT(st->mdev, -EIO,
					 "stream: blocking read of a disabled stream; ENABLE it first");
			goto out;
		}
		mutex_unlock(&st->read_lock);
		ret = wait_event_interruptible(st->wq, mpc_stream_wake(st));
		if (ret)
			return ret;
		if (mutex_lock_interruptible(&st->read_lock))
			return -EINTR;
	}
	for (;;) {
		struct drm_mali_perfcnt_record *rec;
		size_t n;
		u64 head;

		/*
		 * The producer fills a slot and then moves the head under
		 * st->lock (mpc_stream_publish()); reading the head under the
		 * same lock orders every read of the slot after those writes.
		 */
		spin_lock_irq(&st->lock);
		head = st->head;
		spin_unlock_irq(&st->lock);
		if (head == st->tail)
			break;
		rec = mpc_stream_slot(st, st->tail);
		n = rec->size - st->rd_off;
		if (n > len - done) {
			/* the fd returns whole records; debugfs is a byte stream (cat) */
			if (!st->from_debugfs)
				break;
			n = len - done;
		}
		if (!n)
			break;
		/* no lock held: the producer never writes a published slot */
		if (copy_to_user(ubuf + done, (u8 *)rec + st->rd_off, n)) {
			ret = done ? 0 : -EFAULT;
			goto out_done;
		}
		done += n;
		st->rd_off += n;
		if (st->rd_off < rec->size)
			break;
		st->rd_off = 0;
		spin_lock_irq(&st->lock);
		st->tail++;
		spin_unlock_irq(&st->lock);
	}
	ret = 0;
	if (!done)
		ret = MPC_REJECT(st->mdev, -ENOSPC, "stream: read of %zu bytes, a record needs %u",
				 len, mpc_stream_slot(st, st->tail)->size);
out_done:
	mutex_unlock(&st->read_lock);
	return done ? done : ret;
out:
	mutex_unlock(&st->read_lock);
	return ret;
}

static __poll_t mpc_stream_poll(struct file *file, poll_table *wait)
{
	struct mpc_stream *st = file->private_data;
	__poll_t mask = 0;

	poll_wait(file, &st->wq, wait);
	spin_lock_irq(&st->lock);
	if (st->head != st->tail)
		mask |= EPOLLIN | EPOLLRDNORM;
	else if (st->dead)
		mask |= EPOLLHUP | EPOLLERR;
	spin_unlock_irq(&st->lock);
	return mask;
}

static int mpc_stream_release(struct inode *inode, struct file *file)
{
	struct mpc_stream *st = file->private_data;
	struct mpc_device *mdev = st->mdev;

	mutex_lock(&st->sample_lock);
	mpc_stream_disable_locked(st);
	mutex_unlock(&st->sample_lock);
	cancel_work_sync(&st->work);
	if (st->from_debugfs) {
		/* debugfs owns the counters again, still running */
		mpc_debugfs_stream_give_back(mdev, &st->owner);
	} else {
		mpc_perfcnt_release(mdev, &st->owner);
	}
	/* freed once the counter unit, too, is done with it */
	mpc_stream_put(st);
	return 0;
}

/*
 * A stream, stopped, owning nothing yet, holding a reference to the DRM
 * device; NULL when out of memory. mpc_stream_put() frees it.
 */
static struct mpc_stream *mpc_stream_new(struct mpc_device *mdev, u64 period_ns, u32 nr)
{
	u32 dump_size = mdev->features.layout.dump_size;
	struct mpc_stream *st;

	/* charged to the caller's memory cgroup, as all of its memory */
	st = kzalloc(sizeof(*st), GFP_KERNEL_ACCOUNT);
	if (!st)
		return NULL;
	st->owner.ops = &mpc_stream_owner_ops;
	st->mdev = mdev;
	st->period_ns = period_ns;
	st->nr = nr;
	st->rec_size = MPC_REC_HDR + dump_size;
	mutex_init(&st->sample_lock);
	mutex_init(&st->read_lock);
	spin_lock_init(&st->lock);
	init_waitqueue_head(&st->wq);
	INIT_WORK(&st->work, mpc_stream_work);
	hrtimer_init(&st->timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL);
	st->timer.function = mpc_stream_timer;
	st->ring = __vmalloc(array_size(st->nr, st->rec_size), GFP_KERNEL_ACCOUNT | __GFP_ZERO);
	st->scratch = kzalloc(dump_size, GFP_KERNEL_ACCOUNT);
	if (!st->ring || !st->scratch) {
		mpc_stream_free(st);
		return NULL;
	}
	kref_init(&st->owner.ref);
	drm_dev_get(mdev->drm);
	return st;
}

static void mpc_stream_wq_destroy(struct drm_device *drm, void *wq)
{
	destroy_workqueue(wq);
}

/**
 * mpc_stream_init() - set up what the device's streams share
 * @mdev: device.
 *
 * The streams' work runs on a freezable workqueue of the device's own: the
 * freezer waits for a sample in progress and holds the rest until every
 * device has resumed, so that no periodic sample reaches a GPU that system
 * sleep powered down (userspace, and with it every ioctl, is frozen too).
 * High priority, as a sample's interval should end when its timer fires.
 *
 * Return: 0 or -ENOMEM.
 */
int mpc_stream_init(struct mpc_device *mdev)
{
	mdev->stream_wq = alloc_workqueue("mali_perfcnt_stream", WQ_FREEZABLE | WQ_HIGHPRI, 0);
	if (!mdev->stream_wq)
		return -ENOMEM;
	return drmm_add_action_or_reset(mdev->drm, mpc_stream_wq_destroy, mdev->stream_wq);
}

static const struct file_operations mpc_stream_fops = {
	.owner = THIS_MODULE,
	.read = mpc_stream_read,
	.poll = mpc_stream_poll,
	.unlocked_ioctl = mpc_stream_ioctl,
	.compat_ioctl = mpc_stream_ioctl,
	.release = mpc_stream_release,
};

/*
 * STREAM_OPEN waits here, right before it installs the stream's fd, so that
 * a test can close() the fd number it will get while the ioctl is in flight
 * (the close must fail: the fd is not there yet). The delay is the host's
 * test hook (&mpc_host_ops.open_delay; mali_perfcnt.ko's simulator builds
 * have test_stream_open_delay_ms).
 */
static void mpc_stream_open_test_delay(struct mpc_device *mdev)
{
	unsigned int ms = mdev->host_ops->open_delay ? mdev->host_ops->open_delay(mdev->host) : 0;

	if (ms)
		msleep(ms);
}

#define MPC_STREAM_FLAGS (MALI_PERFCNT_STREAM_F_MASKS | MALI_PERFCNT_STREAM_F_DISABLED | \
			  MALI_PERFCNT_STREAM_F_NONBLOCK | MALI_PERFCNT_STREAM_F_CLOEXEC)

int mpc_ioctl_stream_open(struct mpc_device *mdev, struct mpc_perfcnt_owner *owner, void *data)
{
	struct drm_mali_perfcnt_stream_open *args = data;
	u64 min_period = perfmon_capable() ? MALI_PERFCNT_STREAM_MIN_PERIOD_NS :
			 MALI_PERFCNT_STREAM_MIN_PERIOD_UNPRIV_NS;
	struct mpc_perfcnt_config cfg;
	struct mpc_stream *st;
	struct file *filp;
	int fd, ret;

	if (args->flags & ~MPC_STREAM_FLAGS)
		return MPC_REJECT(mdev, -EINVAL, "STREAM_OPEN: unknown flags 0x%x",
				  args->flags & ~MPC_STREAM_FLAGS);
	if (args->pad || mpc_any_set(args->reserved, ARRAY_SIZE(args->reserved)))
		return MPC_REJECT(mdev, -EINVAL, "STREAM_OPEN: pad and reserved must be 0");
	if (args->fd || args->record_size)
		return MPC_REJECT(mdev, -EINVAL, "STREAM_OPEN: fd, record_size: pass 0");
	if (args->period_ns && (args->period_ns < min_period ||
				args->period_ns > MALI_PERFCNT_STREAM_MAX_PERIOD_NS))
		return MPC_REJECT(mdev, -EINVAL,
				  "STREAM_OPEN: period %llu ns, want 0 or %llu to %llu%s",
				  args->period_ns, min_period, MALI_PERFCNT_STREAM_MAX_PERIOD_NS,
				  perfmon_capable() ? "" : " (1 ms without CAP_PERFMON)");
	if (args->ring_records < 2 || args->ring_records > MALI_PERFCNT_STREAM_MAX_RECORDS)
		return MPC_REJECT(mdev, -EINVAL, "STREAM_OPEN: ring of %u records, want 2 to %u",
				  args->ring_records, MALI_PERFCNT_STREAM_MAX_RECORDS);
	ret = mpc_ioctl_config(mdev, "STREAM_OPEN", args->flags & MALI_PERFCNT_STREAM_F_MASKS,
			       args->counter_set, args->jm_mask, args->tiler_mask,
			       args->shader_mask, args->mmu_l2_mask, &cfg);
	if (ret)
		return ret;
	/*
	 * Before the ring is allocated (up to tens of MiB): no caller that
	 * cannot have the counters makes the kernel zero it for nothing. The
	 * enable below checks both again, under the counter unit's lock.
	 */
	ret = mpc_perfcnt_check_access(mdev);
	if (ret)
		return ret;
	if (!mpc_perfcnt_owned_by(mdev, NULL))
		return MPC_REJECT(mdev, -EBUSY, "STREAM_OPEN: the counters are owned elsewhere");

	st = mpc_stream_new(mdev, args->period_ns, args->ring_records);
	if (!st)
		return -ENOMEM;

	/* the stream owns the counters: EBUSY for everyone else */
	ret = mpc_perfcnt_enable(mdev, &st->owner, &cfg);
	if (ret)
		goto err_free;

	/*
	 * The fd is installed last: from fd_install() on, another thread may
	 * close() it (the number is predictable, the lowest free one) and
	 * the release frees @st, so nothing here may touch @st after it.
	 */
	fd = get_unused_fd_flags(O_RDONLY |
				 (args->flags & MALI_PERFCNT_STREAM_F_CLOEXEC ? O_CLOEXEC : 0));
	if (fd < 0) {
		ret = fd;
		goto err_release;
	}
	filp = anon_inode_getfile("[mali_perfcnt_stream]", &mpc_stream_fops, st,
				  O_RDONLY |
				  (args->flags & MALI_PERFCNT_STREAM_F_NONBLOCK ? O_NONBLOCK : 0));
	if (IS_ERR(filp)) {
		ret = PTR_ERR(filp);
		goto err_put_fd;
	}
	if (!(args->flags & MALI_PERFCNT_STREAM_F_DISABLED)) {
		mutex_lock(&st->sample_lock);
		mpc_stream_enable_locked(st, true);
		mutex_unlock(&st->sample_lock);
	}
	args->fd = fd;
	args->record_size = st->rec_size;
	mpc_stream_open_test_delay(mdev);
	/*
	 * The file is live from here on: its release undoes the rest. v2
	 * returns the fd in @args: should drm_ioctl() then fail to copy them
	 * back (-EFAULT), the fd stays open, unknown to the caller, until it
	 * exits.
	 */
	fd_install(fd, filp);
	return 0;

err_put_fd:
	put_unused_fd(fd);
err_release:
	mpc_perfcnt_release(mdev, &st->owner);
err_free:
	mpc_stream_put(st);
	return ret;
}

/*
 * debugfs perfcnt_stream: `echo "period_us=1000" > perfcnt_enable; cat
 * perfcnt_stream > capture.bin` records the same records as a stream fd,
 * at that period, into a ring of MPC_DEBUGFS_RING records. While the file is
 * open it owns the counters (perfcnt_dump and perfcnt_counters are -EBUSY,
 * so nothing takes a sample from under it); closing it gives them back to
 * debugfs, still running. Unlike the stream fd it is a byte stream: a read
 * may end inside a record, so cat works with any buffer size.
 */
#define MPC_DEBUGFS_RING	256

static int mpc_stream_debugfs_open(struct inode *inode, struct file *file)
{
	struct mpc_device *mdev = inode->i_private;
	struct mpc_stream *st;
	int ret, idx;

	if (!drm_dev_enter(mdev->drm, &idx))
		return -ENODEV;
	st = mpc_stream_new(mdev, 0, MPC_DEBUGFS_RING);
	if (!st) {
		drm_dev_exit(idx);
		return -ENOMEM;
	}
	st->from_debugfs = true;
	st->owner.name = "debugfs perfcnt_stream";
	ret = mpc_debugfs_stream_take(mdev, &st->owner, &st->period_ns);
	if (ret) {
		mpc_stream_put(st);
		drm_dev_exit(idx);
		return ret;
	}
	file->private_data = st;
	/* the counters ran before: a first sample starts the interval */
	mutex_lock(&st->sample_lock);
	ret = mpc_stream_enable_locked(st, false);
	mutex_unlock(&st->sample_lock);
	drm_dev_exit(idx);
	if (ret) {
		mpc_stream_release(inode, file);
		return ret;
	}
	return stream_open(inode, file);
}

const struct file_operations mpc_stream_debugfs_fops = {
	.owner = THIS_MODULE,
	.open = mpc_stream_debugfs_open,
	.read = mpc_stream_read,
	.poll = mpc_stream_poll,
	.release = mpc_stream_release,
};
