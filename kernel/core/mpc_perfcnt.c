// SPDX-License-Identifier: GPL-2.0-only
/*
 * mali_perfcnt: the performance counter unit.
 *
 * One owner at a time (an open file or debugfs) enables the counters. The
 * GPU then writes a dump into a buffer we mapped in the perfcnt address space
 * each time it is told to sample:
 *
 *   PERFCNT_SAMPLE  ->  IRQ PERFCNT_SAMPLE_COMPLETED
 *   CLEAN_CACHES    ->  IRQ CLEAN_CACHES_COMPLETED  ->  the dump is in memory
 *
 * mali_perfcnt.ko's buffer (kernel/mpc_host.c) is one mechanism of the DMA
 * API, non-coherent memory: it comes from dma_alloc_noncoherent(), the CPU
 * reads it through its cached kernel mapping, and ownership passes
 * explicitly (&mpc_host_ops.buf_sync_for_device and .buf_sync_for_cpu):
 * dma_sync_single_for_device() before each PERFCNT_SAMPLE and
 * dma_sync_single_for_cpu() once the dump is in memory (the DMA API's
 * rule, and what kbase's JM counter backend does with its cached dump
 * buffer). The stale COUNTER[2] met while panfrost's
 * perfcnt support was reviewed came from a cached mapping with no cache
 * maintenance at all: lines the CPU held from before the GPU's write. Here
 * for_cpu invalidates them (also those speculatively fetched meanwhile) and
 * for_device cleans the lines of the allocation's zeroing, so none is
 * evicted over the GPU's data later. The memory is not a streaming mapping,
 * so swiotlb (swiotlb=force, memory beyond the DMA mask) never bounces it:
 * the GPU writes the pages the CPU reads, with no bounce buffer copied
 * behind a second, uncached alias, as the earlier dma_map_page() plus
 * write-combined vmap() did. dma_alloc_wc() with no syncs would also be
 * one mechanism, but every read of a dump would then go to DRAM uncached
 * (a dump is 2-10 KiB, read once per sample); on coherent integrations the
 * syncs cost nothing.
 *
 * Samples are copied to userspace only after pc->lock and the
 * drm_dev_enter() section are dropped: a user page fault may take any time
 * (a FUSE or userfaultfd page), and neither the other files of the device
 * nor drm_dev_unplug() of any DRM device may wait for it.
 */
#include <linux/capability.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/timekeeping.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>
#include <linux/workqueue.h>
#include <drm/drm_drv.h>
#include <drm/drm_file.h>
#include <drm/drm_managed.h>

#include "mpc_core.h"
#include <drm/mali_perfcnt_drm.h>

/**
 * mpc_perfcnt_check_access() - may the calling task take the counters
 * @mdev: device, for the message.
 *
 * The policy is the host's (&mpc_host_ops.paranoid): mali_perfcnt.ko's is
 * the sysctl dev.mali_perfcnt.perf_stream_paranoid (mpc_host.c), panfrost's
 * dev.panfrost.perf_stream_paranoid (the message names the driver's).
 *
 * Return: 0, or -EACCES without CAP_PERFMON while perf_stream_paranoid is 1.
 */
int mpc_perfcnt_check_access(struct mpc_device *mdev)
{
	if (mdev->host_ops->paranoid(mdev->host) && !perfmon_capable())
		return MPC_REJECT(mdev, -EACCES,
				  "counters need CAP_PERFMON, or sysctl dev.%s.perf_stream_paranoid=0",
				  mdev->drm->driver->name);
	return 0;
}

/* What the IRQ handler is waiting for on behalf of the sampler. */
enum mpc_wait {
	MPC_WAIT_NONE,
	MPC_WAIT_SAMPLE,
	MPC_WAIT_CLEAN,
};

/**
 * struct mpc_perfcnt - performance counter state
 * @lock: serialises enable, disable and sampling; protects every member
 *	below up to @stats.
 * @owner: who enabled the counters (a render node, a stream, debugfs), or
 *	NULL.
 * @owner_pid: thread group id of the process that enabled them.
 * @owner_comm: its command name.
 * @cfg: configuration applied at enable.
 * @dump: the host's dump buffer (&mpc_host_ops.buf_alloc), its kernel
 *	mapping; valid while @owner is set.
 * @gpu_va: the buffer's GPU VA, from the last &mpc_host_ops.counters_start.
 * @as: the address space PERFCNT_CFG.AS selects, from the same call.
 * @next_gpu_va: GPU VA the next enable maps the buffer at.
 * @seqno: sequence number of the last sample.
 * @session: number of the current enable, to tell a kept sample's session.
 * @lost_owner: an owner the counters were taken from under @lock, with a
 *	reference held, to be told (&mpc_perfcnt_owner_ops.lost) once the
 *	lock is dropped (mpc_perfcnt_unlock()); or NULL.
 * @lost_err: the error @lost_owner is told.
 * @interval_start_ns: CLOCK_MONOTONIC_RAW start of what the next sample
 *	covers: the last sample, the enable or the last recovery.
 * @data_flags: MALI_PERFCNT_DATA_* bits the next sample gets (FIRST,
 *	AFTER_RECOVERY, AFTER_POWER_LOSS).
 * @kept: a sample that was taken but could not be copied to its user
 *	buffer; the next DUMP returns it (kvmalloc'ed, dump_size bytes), or
 *	NULL.
 * @kept_info: what @kept reports.
 * @dead: the GPU answered no reset: ENABLE and DUMP fail with -EIO until
 *	the device is unbound; written under @lock, read locklessly by
 *	debugfs.
 * @hw_off: system sleep: from mpc_perfcnt_suspend() until a successful
 *	mpc_perfcnt_resume() the GPU may be unpowered and unclocked, and
 *	nothing here touches its registers (-EAGAIN).
 * @follow: the owner's counters follow the host's runtime power
 *	(&mpc_host_ops.power_follows, asked at enable): no power reference
 *	is held between calls, and mpc_perfcnt_power_down() and
 *	mpc_perfcnt_power_up() take them down and up with the GPU. Written
 *	under @lock, read locklessly by those two.
 * @rt_off: @follow, and the host powered the GPU down: nothing is
 *	programmed and a sample reads zeros without a register access. While
 *	@follow and not @rt_off, whoever holds @lock may touch the registers:
 *	the host's runtime suspend cannot pass mpc_perfcnt_power_down()
 *	without @lock.
 * @pwr_seen: MPC_PWR_SEEN_ON and MPC_PWR_SEEN_OFF: the power states of the
 *	interval since the last sample.
 * @power_up_pending: set (without @lock) by mpc_perfcnt_power_up(): the GPU
 *	is powered again and the counters are to be programmed by the next
 *	holder of @lock (mpc_perfcnt_power_catch_up_locked()).
 * @power_work: catches up when mpc_perfcnt_power_up() found @lock taken.
 * @mdev: the device, for @power_work.
 * @stats: event counts, protected by @irq_lock (the IRQ handlers count
 *	faults).
 * @irq_lock: protects @stats, @wait, @result and @irq_gen, shared with
 *	the IRQ handlers.
 * @irq_gen: reset generation, bumped before every recovery reset; an IRQ
 *	handler that read the interrupt status in an older generation
 *	drops what it read. Read without the lock before the status.
 * @wait: what the sampler waits for.
 * @result: 0, or -ENXIO when a GPU or MMU fault ended the wait.
 * @done: completed by the IRQ handlers when @wait is over.
 */
struct mpc_perfcnt {
	/*
	 * serialises enable/disable/sample; protects owner..kept_info. Never
	 * held across a user copy: samples are copied out after it is dropped.
	 */
	struct mutex lock;
	struct mpc_perfcnt_owner *owner;
	pid_t owner_pid;
	char owner_comm[TASK_COMM_LEN];
	struct mpc_perfcnt_config cfg;
	void *dump;
	u64 gpu_va;
	u32 as;
	u64 next_gpu_va;
	u64 seqno;
	u64 session;
	struct mpc_perfcnt_owner *lost_owner;
	int lost_err;
	u64 interval_start_ns;
	u32 data_flags;
	void *kept;
	struct mpc_sample_info kept_info;
	bool dead;
	bool hw_off;
	bool follow;
	bool rt_off;
	u8 pwr_seen;
	atomic_t power_up_pending;
	struct work_struct power_work;
	struct mpc_device *mdev;
	struct mpc_stats stats;

	/* protects stats, wait, result and irq_gen; taken in hard IRQs */
	spinlock_t irq_lock;
	u32 irq_gen;
	enum mpc_wait wait;
	int result;
	struct completion done;
};

/* &mpc_perfcnt.pwr_seen */
#define MPC_PC_SEEN_ON		BIT(0)
#define MPC_PC_SEEN_OFF		BIT(1)

/*
 * Free the host's dump buffer, or leak it when the GPU is dead: it may then
 * still write the dump pages and walk the tables (a sample or dirty L2
 * lines in flight), so the host never gives them back to the page
 * allocator; they are counted here.
 */
static void mpc_dump_buf_release_locked(struct mpc_device *mdev)
{
	struct mpc_perfcnt *pc = mdev->perfcnt;
	unsigned int n;

	lockdep_assert_held(&pc->lock);
	if (!pc->dump)
		return;
	n = mdev->host_ops->buf_free(mdev->host, pc->dead);
	pc->dump = NULL;
	if (!pc->dead)
		return;
	spin_lock_irq(&pc->irq_lock);
	pc->stats.leaked_pages += n;
	spin_unlock_irq(&pc->irq_lock);
	drm_err(mdev->drm, "%u page(s) the GPU may still write are leaked, not freed\n", n);
}

static int __must_check mpc_dump_buf_alloc_locked(struct mpc_device *mdev)
{
	struct mpc_perfcnt *pc = mdev->perfcnt;
	size_t size = PAGE_ALIGN(mdev->features.layout.dump_size);

	lockdep_assert_held(&pc->lock);
	return mdev->host_ops->buf_alloc(mdev->host, size, pc->next_gpu_va, &pc->dump);
}

/* A sample on its way to userspace, or kept for the next DUMP. */
static void *mpc_sample_buf_alloc(struct mpc_device *mdev)
{
	void *buf = kvmalloc(mdev->features.layout.dump_size, GFP_KERNEL_ACCOUNT);

	if (buf)
		mpc_track_alloc(mdev, mdev->features.layout.dump_size);
	return buf;
}

static void mpc_sample_buf_free(struct mpc_device *mdev, void *buf)
{
	if (!buf)
		return;
	kvfree(buf);
	mpc_track_free(mdev, mdev->features.layout.dump_size);
}

/* Does a counter of @dump (header words excluded) read 0xffffffff? */
static bool mpc_dump_saturated(struct mpc_device *mdev, const u32 *dump)
{
	u32 i, n = mdev->features.layout.dump_size / MPC_BYTES_PER_COUNTER;

	/* Little-endian in memory, but all ones reads the same either way */
	for (i = 0; i < n; i++)
		if (i % MPC_COUNTERS_PER_BLOCK >= MPC_HDR_WORDS && dump[i] == U32_MAX)
			return true;
	return false;
}

/*
 * Issue @cmd and sleep until the IRQ handlers report that @wait is over.
 * @issued_ns, if not NULL, receives the CPU time the command was written:
 * the GPU latches its counters when it receives PERFCNT_SAMPLE, so this is
 * the instant a sample describes (the dump itself lands later).
 * @killable: the caller may be killed meanwhile. A dying process is not a
 * hung GPU (review 2, N10): after a fatal signal the wait goes on, no
 * longer killable, for the rest of the same timeout, so that the GPU ends
 * the command and is found idle rather than reset; the process still dies
 * within the timeout.
 * Return: 0, -ENXIO when the GPU faulted, -ETIMEDOUT.
 */
static int __must_check mpc_perfcnt_wait_locked(struct mpc_device *mdev, enum mpc_wait wait,
						u32 cmd, u64 *issued_ns, bool killable)
{
	struct mpc_perfcnt *pc = mdev->perfcnt;
	unsigned long timeout = msecs_to_jiffies(MPC_SAMPLE_TIMEOUT_MS);
	long left;
	int ret;

	lockdep_assert_held(&pc->lock);
	/* Old completions first, then the wait: none of them can end it */
	mpc_reg_write(mdev, GPU_INT_CLEAR, GPU_IRQ_PERFCNT_SAMPLE_COMPLETED |
				       GPU_IRQ_CLEAN_CACHES_COMPLETED);
	spin_lock_irq(&pc->irq_lock);
	reinit_completion(&pc->done);
	pc->wait = wait;
	pc->result = 0;
	spin_unlock_irq(&pc->irq_lock);

	if (issued_ns)
		*issued_ns = ktime_get_raw_ns();
	mpc_reg_write(mdev, GPU_CMD, cmd);

	if (killable) {
		unsigned long deadline = jiffies + timeout;

		left = wait_for_completion_killable_timeout(&pc->done, timeout);
		if (left < 0) {
			/* killed: the rest of the timeout, for the GPU to finish */
			left = time_before(jiffies, deadline) ? deadline - jiffies : 0;
			left = wait_for_completion_timeout(&pc->done, left);
		}
	} else {
		left = wait_for_completion_timeout(&pc->done, timeout);
	}

	spin_lock_irq(&pc->irq_lock);
	if (left > 0) {
		ret = pc->result;
	} else if (pc->wait == MPC_WAIT_NONE) {
		/* Completed between the timeout and taking the lock */
		ret = pc->result;
	} else {
		pc->wait = MPC_WAIT_NONE;
		pc->stats.timeouts++;
		ret = -ETIMEDOUT;
	}
	spin_unlock_irq(&pc->irq_lock);

	if (ret == -ETIMEDOUT)
		drm_err(mdev->drm, "%s did not complete in %d ms, resetting the GPU\n",
			wait == MPC_WAIT_SAMPLE ? "counter sample" : "cache clean",
			MPC_SAMPLE_TIMEOUT_MS);
	return ret;
}

/*
 * Wait for GPU_STATUS.PRFCNT_ACTIVE to clear, as kbase's JM counter
 * backend does before it reconfigures the counter unit or issues a sample
 * (review 2, N15): a GPU never takes a PERFCNT_SAMPLE while one is still
 * being written, and a dump still on its way would land in the next one's
 * buffer. Nothing here leaves a sample behind (every wait ends in the
 * sample's completion or in a reset), so this normally returns at the
 * first read.
 * Return: 0, or -ETIMEDOUT (the GPU then needs a reset).
 */
static int __must_check mpc_perfcnt_wait_inactive_locked(struct mpc_device *mdev)
{
	u32 status;
	int ret;

	lockdep_assert_held(&mdev->perfcnt->lock);
	ret = mpc_reg_poll(mdev, GPU_STATUS, GPU_STATUS_PRFCNT_ACTIVE, 0, 10,
			   MPC_SAMPLE_TIMEOUT_MS * USEC_PER_MSEC, &status);
	if (ret)
		drm_err(mdev->drm, "GPU_STATUS 0x%x: PRFCNT_ACTIVE did not clear in %d ms\n",
			status, MPC_SAMPLE_TIMEOUT_MS);
	return ret;
}

/* Program the GPU for the current owner: power, AS, buffer, counter mode. */
static int __must_check mpc_perfcnt_hw_setup_locked(struct mpc_device *mdev)
{
	struct mpc_perfcnt *pc = mdev->perfcnt;
	const struct mpc_perfcnt_config *cfg = &pc->cfg;
	bool quirk_8186 = mdev->features.hw_issue_8186;
	u32 cfg_reg;
	int ret;

	lockdep_assert_held(&pc->lock);
	ret = mdev->host_ops->power_on(mdev->host);
	if (ret)
		return ret;
	/* The buffer's VA and address space may change from start to start */
	ret = mdev->host_ops->counters_start(mdev->host, &pc->gpu_va, &pc->as);
	if (ret)
		return ret;

	mpc_reg_write64(mdev, GPU_PERFCNT_BASE_LO, pc->gpu_va);
	mpc_reg_write(mdev, GPU_CMD, GPU_CMD_PERFCNT_CLEAR);
	ret = mpc_perfcnt_wait_locked(mdev, MPC_WAIT_CLEAN, GPU_CMD_CLEAN_INV_CACHES, NULL,
				      false);
	if (ret)
		return ret;

	ret = mpc_perfcnt_wait_inactive_locked(mdev);
	if (ret)
		return ret;
	cfg_reg = PERFCNT_CFG_AS(pc->as) | PERFCNT_CFG_SETSEL(cfg->set);
	mpc_reg_write(mdev, GPU_PERFCNT_CFG, cfg_reg | PERFCNT_CFG_MODE(PERFCNT_CFG_MODE_OFF));
	mpc_reg_write(mdev, GPU_PRFCNT_JM_EN, cfg->jm);
	mpc_reg_write(mdev, GPU_PRFCNT_SHADER_EN, cfg->shader);
	mpc_reg_write(mdev, GPU_PRFCNT_MMU_L2_EN, cfg->mmu_l2);
	/*
	 * PRLAM-8186: on the first T600 revision the tiler counters must be
	 * enabled after MANUAL mode is set. Other GPUs get the documented
	 * order, as the workaround is not known to be safe on them.
	 */
	mpc_reg_write(mdev, GPU_PRFCNT_TILER_EN, quirk_8186 ? 0 : cfg->tiler);
	mpc_reg_write(mdev, GPU_PERFCNT_CFG, cfg_reg | PERFCNT_CFG_MODE(PERFCNT_CFG_MODE_MANUAL));
	if (quirk_8186)
		mpc_reg_write(mdev, GPU_PRFCNT_TILER_EN, cfg->tiler);
	/*
	 * The cycle counter runs while the counters are enabled, as kbase's
	 * JM counter backend keeps it (kbase_pm_request_gpu_cycle_counter*()
	 * from dump_enable to dump_disable). kbase's register map documents
	 * CYCLE_COUNT_START as "starts the cycle counter, and system timestamp
	 * propagation": the block headers' TIMESTAMP words may stay 0 or
	 * frozen without it. Not confirmed on a board (design.rst). Nothing
	 * else in this driver uses the cycle counter, so no reference count;
	 * a reset stops it and the recovery comes through here again.
	 */
	mpc_reg_write(mdev, GPU_CMD, GPU_CMD_CYCLE_COUNT_START);
	/* The counters were cleared and count from here */
	pc->interval_start_ns = ktime_get_raw_ns();
	return 0;
}

/*
 * Stop the counters, unmap the address space and power the cores down.
 * Return: 0, or -ETIMEDOUT when the address space flush did not complete
 * (the GPU may still hold translations of the buffer) or a power domain
 * did not power down: either way the GPU needs a reset.
 */
static int __must_check mpc_perfcnt_hw_teardown_locked(struct mpc_device *mdev)
{
	int ret;

	lockdep_assert_held(&mdev->perfcnt->lock);
	mpc_reg_write(mdev, GPU_CMD, GPU_CMD_CYCLE_COUNT_STOP);
	mpc_reg_write(mdev, GPU_PRFCNT_JM_EN, 0);
	mpc_reg_write(mdev, GPU_PRFCNT_SHADER_EN, 0);
	mpc_reg_write(mdev, GPU_PRFCNT_TILER_EN, 0);
	mpc_reg_write(mdev, GPU_PRFCNT_MMU_L2_EN, 0);
	mpc_reg_write(mdev, GPU_PERFCNT_CFG, PERFCNT_CFG_MODE(PERFCNT_CFG_MODE_OFF));
	ret = mdev->host_ops->counters_stop(mdev->host);
	/* Powered down even when the flush failed: a reset follows then */
	return mdev->host_ops->power_off(mdev->host) ?: ret;
}

/*
 * Reset a GPU whose state is unknown (soft, then hard, then the reset
 * line); every register is lost. A new IRQ generation starts first, so a
 * handler that read the status before the reset drops what it read. When
 * no reset works the device is dead.
 */
static int __must_check mpc_perfcnt_reset_locked(struct mpc_device *mdev)
{
	struct mpc_perfcnt *pc = mdev->perfcnt;
	int ret;

	lockdep_assert_held(&pc->lock);
	if (pc->dead)
		return -EIO;
	spin_lock_irq(&pc->irq_lock);
	pc->stats.resets++;
	WRITE_ONCE(pc->irq_gen, pc->irq_gen + 1);
	pc->wait = MPC_WAIT_NONE;
	spin_unlock_irq(&pc->irq_lock);

	ret = mdev->host_ops->reset(mdev->host);
	if (ret < 0) {
		WRITE_ONCE(pc->dead, true);
		drm_err(mdev->drm, "GPU answers no reset: device dead, ENABLE and DUMP fail with -EIO; unbind it or reboot\n");
		return -EIO;
	}
	spin_lock_irq(&pc->irq_lock);
	if (ret >= MPC_RESET_HARD)
		pc->stats.hard_resets++;
	if (ret == MPC_RESET_LINE)
		pc->stats.line_resets++;
	spin_unlock_irq(&pc->irq_lock);
	mdev->host_ops->irq_enable(mdev->host);
	return 0;
}

/*
 * After a timeout or a fault: reset, restore the buffer's translation if it
 * was removed, and program everything again, so the owner keeps working
 * counters.
 */
static int __must_check mpc_perfcnt_restart_locked(struct mpc_device *mdev);

static int __must_check mpc_perfcnt_recover_locked(struct mpc_device *mdev)
{
	struct mpc_perfcnt *pc = mdev->perfcnt;
	int ret;

	lockdep_assert_held(&pc->lock);
	ret = mpc_perfcnt_reset_locked(mdev);
	if (ret)
		return ret;
	return mpc_perfcnt_restart_locked(mdev);
}

/*
 * After a reset, ours or the host's: program everything again (the
 * host's counters_start() restores the buffer's translation if it was
 * removed), so the owner keeps working counters.
 */
static int __must_check mpc_perfcnt_restart_locked(struct mpc_device *mdev)
{
	struct mpc_perfcnt *pc = mdev->perfcnt;
	int ret;

	lockdep_assert_held(&pc->lock);
	ret = mpc_perfcnt_hw_setup_locked(mdev);
	if (ret) {
		drm_err(mdev->drm, "counters could not be restarted after a reset (%d)\n", ret);
		return ret;
	}
	/* What the counters held before the reset is lost */
	pc->data_flags |= MALI_PERFCNT_DATA_AFTER_RECOVERY;
	spin_lock_irq(&pc->irq_lock);
	pc->stats.last_recovery_ns = pc->interval_start_ns;
	spin_unlock_irq(&pc->irq_lock);
	return 0;
}

/*
 * Stop the counters and unmap the buffer, so that its pages may be freed.
 * With @reset_first the GPU's state is unknown (a failed enable or
 * recovery) and it is reset before. When the teardown does not complete,
 * a reset drops whatever the GPU still holds of the buffer.
 * Return: 0, or -EIO when the GPU answered no reset: it is then dead and
 * mpc_dump_buf_release_locked() leaks the pages rather than free them.
 */
static int __must_check mpc_perfcnt_stop_locked(struct mpc_device *mdev, bool reset_first)
{
	struct mpc_perfcnt *pc = mdev->perfcnt;
	int ret;

	lockdep_assert_held(&pc->lock);
	if (pc->dead)
		return -EIO;
	if (reset_first) {
		ret = mpc_perfcnt_reset_locked(mdev);
		if (ret)
			return ret;
	}
	if (!mpc_perfcnt_hw_teardown_locked(mdev))
		return 0;
	drm_err(mdev->drm, "the GPU did not stop cleanly, resetting it before freeing its pages\n");
	return mpc_perfcnt_reset_locked(mdev);
}

/* Forget the kept sample, if any. */
static void mpc_perfcnt_drop_kept_locked(struct mpc_device *mdev)
{
	struct mpc_perfcnt *pc = mdev->perfcnt;

	lockdep_assert_held(&pc->lock);
	mpc_sample_buf_free(mdev, pc->kept);
	pc->kept = NULL;
}

/*
 * @reset_first: the GPU's state is unknown, see mpc_perfcnt_stop_locked().
 * @err: why: 0 (the owner lets them go), -ENODEV (unbind) or -EIO (the GPU
 * was not recovered); see &mpc_perfcnt_owner_ops.lost.
 */
static void mpc_perfcnt_disable_locked(struct mpc_device *mdev, bool reset_first, int err)
{
	struct mpc_perfcnt *pc = mdev->perfcnt;
	int ret;

	lockdep_assert_held(&pc->lock);
	if (pc->follow) {
		/* A reference for the pm_put() below: following counters hold none */
		mdev->host_ops->pm_ref_get_noresume(mdev->host);
		atomic_set(&pc->power_up_pending, 0);
	}
	/*
	 * The pages are freed only once the GPU holds nothing of them: after
	 * the host's flush (&mpc_host_ops.counters_stop), or else after a reset. When the
	 * reset fails too the device is dead and the pages are leaked: the
	 * release decides by pc->dead, which every failure of the stop sets.
	 */
	/* Powered down, the counters were stopped and unmapped before */
	ret = pc->follow && pc->rt_off ? 0 : mpc_perfcnt_stop_locked(mdev, reset_first);
	WARN_ON_ONCE(ret && !pc->dead);
	WRITE_ONCE(pc->follow, false);
	pc->rt_off = false;
	mpc_dump_buf_release_locked(mdev);
	mpc_perfcnt_drop_kept_locked(mdev);
	/*
	 * An owner that did not let them go itself is told, once the lock is
	 * dropped (a stream ends): mpc_perfcnt_unlock().
	 */
	if (err && pc->owner->ops && !WARN_ON_ONCE(pc->lost_owner)) {
		kref_get(&pc->owner->ref);
		pc->lost_owner = pc->owner;
		pc->lost_err = err;
	}
	/* Read without the lock by mpc_perfcnt_release() */
	WRITE_ONCE(pc->owner, NULL);
	pc->owner_pid = 0;
	pc->owner_comm[0] = '\0';
	mdev->host_ops->pm_put(mdev->host);
}

static void mpc_perfcnt_owner_release(struct kref *ref)
{
	struct mpc_perfcnt_owner *owner = container_of(ref, struct mpc_perfcnt_owner, ref);

	owner->ops->release(owner);
}

/**
 * mpc_perfcnt_owner_put() - drop a reference to an owner with ops
 * @owner: the owner; &mpc_perfcnt_owner_ops.release frees it with the last.
 */
void mpc_perfcnt_owner_put(struct mpc_perfcnt_owner *owner)
{
	kref_put(&owner->ref, mpc_perfcnt_owner_release);
}

/*
 * Drop pc->lock, then tell the owner the counters were taken from meanwhile,
 * if any: the unit never calls an owner under its lock. Every path that
 * may take the counters away (mpc_perfcnt_disable_locked() with an error)
 * unlocks through here.
 */
static void mpc_perfcnt_unlock(struct mpc_device *mdev)
{
	struct mpc_perfcnt *pc = mdev->perfcnt;
	struct mpc_perfcnt_owner *owner = pc->lost_owner;
	int err = pc->lost_err;

	pc->lost_owner = NULL;
	mutex_unlock(&pc->lock);
	if (owner) {
		owner->ops->lost(owner, err);
		mpc_perfcnt_owner_put(owner);
	}
}

/**
 * mpc_perfcnt_enable() - take the counters and start them
 * @mdev: device.
 * @owner: the caller (a render node's, a stream's or debugfs's owner).
 * @cfg: counter set and block masks, validated here.
 *
 * Return: 0, -EALREADY (already enabled by @owner), -EBUSY (someone else
 * owns them), -EACCES, -EINVAL, -ENODEV (the device is unplugged), -EIO
 * (the GPU is dead: it answered no reset), or an error from the hardware.
 */
int mpc_perfcnt_enable(struct mpc_device *mdev, struct mpc_perfcnt_owner *owner,
		       const struct mpc_perfcnt_config *cfg)
{
	struct mpc_perfcnt *pc = mdev->perfcnt;
	int ret, idx;

	ret = mpc_perfcnt_check_access(mdev);
	if (ret)
		return ret;
	if (cfg->set >= mdev->features.product->nr_sets)
		return MPC_REJECT(mdev, -EINVAL, "counter set %u: %s has %u set(s)",
				  cfg->set, mdev->features.product->name,
				  mdev->features.product->nr_sets);
	if (mpc_check_masks(cfg))
		return MPC_REJECT(mdev, -EINVAL,
				  "enable masks use bits above 15 (64-counter blocks have 16 groups)");

	/*
	 * SRCU read side, taken outside pc->lock: drm_dev_unplug() in
	 * mpc_unplug_action() waits for it before it takes pc->lock to
	 * release whatever this enable set up.
	 */
	if (!drm_dev_enter(mdev->drm, &idx))
		return MPC_REJECT(mdev, -ENODEV, "device unplugged");

	ret = mutex_lock_interruptible(&pc->lock);
	if (ret) {
		drm_dev_exit(idx);
		return ret;
	}
	if (pc->dead) {
		ret = MPC_REJECT(mdev, -EIO, "GPU dead (answered no reset): unbind it or reboot");
		goto out_unlock;
	}
	if (pc->owner == owner) {
		ret = MPC_REJECT(mdev, -EALREADY, "counters already enabled by this file");
		goto out_unlock;
	}
	if (pc->hw_off) {
		ret = MPC_REJECT(mdev, -EAGAIN, "GPU suspended for system sleep: enable later");
		goto out_unlock;
	}
	if (pc->owner) {
		ret = MPC_REJECT(mdev, -EBUSY, "counters owned by %s (pid %d)",
				 pc->owner->name ?: pc->owner_comm, pc->owner_pid);
		goto out_unlock;
	}

	ret = mdev->host_ops->pm_get(mdev->host);
	if (ret)
		goto out_unlock;

	ret = mpc_dump_buf_alloc_locked(mdev);
	if (ret)
		goto err_pm;

	pc->cfg = *cfg;
	ret = mpc_perfcnt_hw_setup_locked(mdev);
	if (ret)
		goto err_hw;

	pc->session++;
	pc->data_flags = MALI_PERFCNT_DATA_FIRST;
	pc->pwr_seen = MPC_PC_SEEN_ON;
	pc->rt_off = false;
	atomic_set(&pc->power_up_pending, 0);
	WRITE_ONCE(pc->follow, owner->follows_power && mdev->host_ops->power_follows &&
		   mdev->host_ops->power_follows(mdev->host));
	WRITE_ONCE(pc->owner, owner);
	pc->owner_pid = task_tgid_nr(current);
	get_task_comm(pc->owner_comm, current);
	/*
	 * Following counters hold no power: from here the host may suspend
	 * the GPU, through mpc_perfcnt_power_down() (pc->follow is set).
	 */
	if (pc->follow)
		mdev->host_ops->pm_ref_put(mdev->host);
	mutex_unlock(&pc->lock);
	drm_dev_exit(idx);
	return 0;

err_hw:
	/*
	 * Whatever the GPU was stuck in, the next enable starts afresh; the
	 * reset also dropped whatever it held of the buffer, so a failed
	 * flush in the teardown does not keep the pages from being freed.
	 */
	if (mpc_perfcnt_stop_locked(mdev, true))
		ret = -EIO;	/* dead: the release leaks the pages */
	mpc_dump_buf_release_locked(mdev);
err_pm:
	mdev->host_ops->pm_put(mdev->host);
out_unlock:
	mutex_unlock(&pc->lock);
	drm_dev_exit(idx);
	return ret;
}

/**
 * mpc_perfcnt_disable() - stop the counters and release them
 * @mdev: device.
 * @owner: the caller (a render node's, a stream's or debugfs's owner).
 *
 * Return: 0, -EALREADY when nothing is enabled, -EPERM when someone else
 * owns the counters.
 */
int mpc_perfcnt_disable(struct mpc_device *mdev, struct mpc_perfcnt_owner *owner)
{
	struct mpc_perfcnt *pc = mdev->perfcnt;
	int ret;

	ret = mutex_lock_interruptible(&pc->lock);
	if (ret)
		return ret;
	if (!pc->owner)
		ret = MPC_REJECT(mdev, -EALREADY, "counters are not enabled");
	else if (pc->owner != owner)
		ret = MPC_REJECT(mdev, -EPERM, "counters are owned by someone else");
	else
		mpc_perfcnt_disable_locked(mdev, false, 0);
	mutex_unlock(&pc->lock);
	return ret;
}

/**
 * mpc_perfcnt_release() - an owner goes away
 * @mdev: device.
 * @owner: the owner that goes away, or NULL when the device itself does
 *	(whoever owns the counters then loses them).
 *
 * A file that does not own the counters returns at once, without the lock:
 * closing a render node must not wait for another file's DUMP.
 */
void mpc_perfcnt_release(struct mpc_device *mdev, struct mpc_perfcnt_owner *owner)
{
	struct mpc_perfcnt *pc = mdev->perfcnt;

	/*
	 * Race-free without the lock: only @owner itself can become the
	 * owner (an enable, or a transfer it asks for), and it is closing,
	 * so it has nothing in flight. If it is the owner, only the lock
	 * holder can change that.
	 */
	if (owner && READ_ONCE(pc->owner) != owner)
		return;
	mutex_lock(&pc->lock);
	if (pc->owner && (!owner || pc->owner == owner))
		mpc_perfcnt_disable_locked(mdev, false, owner ? 0 : -ENODEV);
	mpc_perfcnt_unlock(mdev);
}

/*
 * The host powered the GPU up again (mpc_perfcnt_power_up()): program the
 * following counters again. Their interval goes on from the last sample:
 * nothing was lost, as the GPU counted nothing while off.
 */
static void mpc_perfcnt_power_catch_up_locked(struct mpc_device *mdev)
{
	struct mpc_perfcnt *pc = mdev->perfcnt;
	u64 start;
	int ret;

	lockdep_assert_held(&pc->lock);
	if (!atomic_xchg(&pc->power_up_pending, 0) || !pc->follow || !pc->rt_off || pc->dead)
		return;
	pc->rt_off = false;
	pc->pwr_seen |= MPC_PC_SEEN_ON;
	/* In system resume: mpc_perfcnt_resume() programs them */
	if (pc->hw_off)
		return;
	start = pc->interval_start_ns;
	ret = mpc_perfcnt_hw_setup_locked(mdev);
	if (!ret) {
		pc->interval_start_ns = start;
	} else if (mpc_perfcnt_recover_locked(mdev)) {
		drm_err(mdev->drm, "counters not restarted after power-up (%d), disabled\n", ret);
		mpc_perfcnt_disable_locked(mdev, true, -EIO);
	}
}

/*
 * Take one sample into *@data (dump_size bytes) and describe it in @info,
 * or return the kept sample: with @swap its buffer is exchanged with
 * *@data (the caller frees what it then holds), else it is copied.
 */
static int mpc_perfcnt_sample_locked(struct mpc_device *mdev, struct mpc_perfcnt_owner *owner,
				     void **data, bool swap, struct mpc_sample_info *info)
{
	struct mpc_perfcnt *pc = mdev->perfcnt;
	u32 size = mdev->features.layout.dump_size;
	u64 ts;
	int ret;

	lockdep_assert_held(&pc->lock);
	if (pc->dead)
		return MPC_REJECT(mdev, -EIO, "GPU dead (answered no reset): unbind it or reboot");
	if (!pc->owner)
		return MPC_REJECT(mdev, -ENODATA, "counters are not enabled");
	if (pc->owner != owner)
		return MPC_REJECT(mdev, -EPERM, "counters are owned by someone else");

	if (pc->kept) {
		*info = pc->kept_info;
		if (swap)
			swap(*data, pc->kept);
		else
			memcpy(*data, pc->kept, size);
		mpc_perfcnt_drop_kept_locked(mdev);
		return 0;
	}

	if (pc->hw_off)
		return MPC_REJECT(mdev, -EAGAIN, "GPU suspended for system sleep: sample later");

	if (pc->follow) {
		mpc_perfcnt_power_catch_up_locked(mdev);
		if (pc->dead)
			return -EIO;
		if (!pc->owner)
			return -ENODATA;	/* disabled: not restarted after power-up */
		if (pc->rt_off) {
			/* Nothing counts on a GPU that is off, and nothing is read */
			memset(*data, 0, size);
			ts = ktime_get_raw_ns();
			goto out_info;
		}
	}

	ret = mpc_perfcnt_wait_inactive_locked(mdev);
	if (!ret) {
		/* The GPU owns the buffer until the dump is in memory */
		mdev->host_ops->buf_sync_for_device(mdev->host);
		mpc_reg_write64(mdev, GPU_PERFCNT_BASE_LO, pc->gpu_va);
		ret = mpc_perfcnt_wait_locked(mdev, MPC_WAIT_SAMPLE, GPU_CMD_PERFCNT_SAMPLE, &ts,
					      true);
	}
	if (ret) {
		/* Keep the owner's counters running for the next sample */
		if (mpc_perfcnt_recover_locked(mdev)) {
			drm_err(mdev->drm, "GPU not recovered, counters disabled\n");
			/*
			 * As a failed enable does: the next one starts afresh
			 * (a dead GPU's pages are leaked, not freed)
			 */
			mpc_perfcnt_disable_locked(mdev, true, -EIO);
			ret = -EIO;
		}
		return ret;
	}

	/* The dump is in memory (CLEAN_CACHES completed): the CPU's turn */
	mdev->host_ops->buf_sync_for_cpu(mdev->host);
	memcpy(*data, pc->dump, size);

	spin_lock_irq(&pc->irq_lock);
	pc->stats.samples++;
	spin_unlock_irq(&pc->irq_lock);

out_info:
	info->power = pc->pwr_seen == MPC_PC_SEEN_ON ? MALI_PERFCNT_POWER_ON :
		      pc->pwr_seen == MPC_PC_SEEN_OFF ? MALI_PERFCNT_POWER_OFF :
		      MALI_PERFCNT_POWER_PARTIAL;
	pc->pwr_seen = pc->follow && pc->rt_off ? MPC_PC_SEEN_OFF : MPC_PC_SEEN_ON;
	info->seqno = ++pc->seqno;
	info->timestamp_ns = ts;
	info->interval_start_ns = pc->interval_start_ns;
	info->data_flags = pc->data_flags;
	if (mpc_dump_saturated(mdev, *data))
		info->data_flags |= MALI_PERFCNT_DATA_SATURATED;
	info->session = pc->session;
	pc->interval_start_ns = ts;
	pc->data_flags = 0;
	return 0;
}

/*
 * The copy of a sample to userspace failed: keep it for the next DUMP if it
 * is still the newest sample of the same enable. Return: @data if it was
 * not kept (the caller frees it), else NULL.
 */
static void *mpc_perfcnt_keep(struct mpc_device *mdev, struct mpc_perfcnt_owner *owner,
			      void *data, const struct mpc_sample_info *info)
{
	struct mpc_perfcnt *pc = mdev->perfcnt;

	if (mutex_lock_killable(&pc->lock))
		return data;
	if (pc->owner == owner && pc->session == info->session &&
	    pc->seqno == info->seqno && !pc->kept) {
		pc->kept = data;
		pc->kept_info = *info;
		data = NULL;
	} else {
		drm_dbg_driver(mdev->drm, "sample %llu not kept: the counters moved on\n",
			       info->seqno);
	}
	mutex_unlock(&pc->lock);
	return data;
}

/**
 * mpc_perfcnt_sample() - take one sample and copy it out
 * @mdev: device.
 * @owner: the caller (a render node's, a stream's or debugfs's owner).
 * @ubuf: user destination, or NULL.
 * @kbuf: kernel destination when @ubuf is NULL.
 * @info: receives the sample's seqno, timestamps and data flags, on
 *	success only.
 *
 * The destination holds at least the dump size. The sample is taken into
 * a kernel buffer under pc->lock and copied to @ubuf after the lock and
 * the drm_dev_enter() section are dropped. When that copy fails, the
 * sample is kept and the next call returns it (see the uAPI header).
 * A fatal signal ends the wait for the counter unit's lock (-EINTR); a
 * sample already issued is let finish, within the sample timeout.
 *
 * After a timeout or a fault the GPU is reset and the counters restarted
 * for the next sample. When that fails too, the
 * counters are disabled as if the owner had done it: later samples fail at
 * once with -ENODATA.
 *
 * Return: 0, -ENODATA, -EPERM, -EFAULT, -ENOMEM, -ENODEV (the device is
 * unplugged), -ETIMEDOUT, -ENXIO (a GPU or MMU fault; recovered), -EIO
 * (the GPU was not recovered, or is dead: then at once) or -EINTR.
 */
int mpc_perfcnt_sample(struct mpc_device *mdev, struct mpc_perfcnt_owner *owner,
		       void __user *ubuf, void *kbuf, struct mpc_sample_info *info)
{
	struct mpc_perfcnt *pc = mdev->perfcnt;
	struct mpc_sample_info si;
	void *data = kbuf;
	int ret, idx;

	if (ubuf) {
		data = mpc_sample_buf_alloc(mdev);
		if (!data)
			return -ENOMEM;
	}

	/* SRCU read side, outside pc->lock: see mpc_perfcnt_enable() */
	if (!drm_dev_enter(mdev->drm, &idx)) {
		ret = MPC_REJECT(mdev, -ENODEV, "device unplugged");
		goto out_free;
	}
	ret = mutex_lock_killable(&pc->lock);
	if (!ret) {
		ret = mpc_perfcnt_sample_locked(mdev, owner, &data, !!ubuf, &si);
		mpc_perfcnt_unlock(mdev);
	}
	drm_dev_exit(idx);
	if (ret)
		goto out_free;

	/* No lock held: the copy may fault in any kind of page */
	if (ubuf && copy_to_user(ubuf, data, mdev->features.layout.dump_size)) {
		ret = MPC_REJECT(mdev, -EFAULT,
				 "dump buffer is not writable; sample %llu is kept for the next DUMP",
				 si.seqno);
		data = mpc_perfcnt_keep(mdev, owner, data, &si);
		goto out_free;
	}
	*info = si;

out_free:
	if (ubuf)
		mpc_sample_buf_free(mdev, data);
	return ret;
}

/**
 * mpc_perfcnt_suspend() - system sleep: stop enabled counters
 * @mdev: device, still powered.
 *
 * The owner keeps the counters and the buffer; the GPU stops counting
 * and its address space is flushed and disabled, as the SoC may cut its
 * power. From here until mpc_perfcnt_resume() succeeds no register is
 * touched: a sample or an enable fails with -EAGAIN. mpc_perfcnt_resume()
 * programs it all again.
 */
void mpc_perfcnt_suspend(struct mpc_device *mdev)
{
	struct mpc_perfcnt *pc = mdev->perfcnt;

	mutex_lock(&pc->lock);
	/* Following counters on a GPU that is off were stopped before */
	if (pc->owner && !pc->dead && !(pc->follow && pc->rt_off) &&
	    mpc_perfcnt_hw_teardown_locked(mdev))
		drm_warn(mdev->drm, "the GPU did not stop cleanly before system sleep\n");
	pc->hw_off = true;
	mutex_unlock(&pc->lock);
}

/**
 * mpc_perfcnt_resume() - system resume: restart enabled counters
 * @mdev: device.
 * @err: 0 when the GPU is powered and reset again (runtime resume ran),
 *	else the error of the resume.
 *
 * Reprograms the address space, PERFCNT_BASE, PERFCNT_CFG and the block
 * masks of the owner's configuration, and marks the next sample as one
 * after a power loss; its interval still starts where the last sample
 * before the sleep ended, so it spans the sleep. When that fails the GPU
 * is reset and programmed again, as after a fault; if even that fails the
 * counters are disabled. When the resume itself failed (@err) the GPU
 * may be unpowered or in any state: the counters are disabled without a
 * register access, the device is marked dead (its pages are leaked, not
 * freed) and a stream that owned them ends with an ERROR record.
 */
void mpc_perfcnt_resume(struct mpc_device *mdev, int err)
{
	struct mpc_perfcnt *pc = mdev->perfcnt;
	u64 start;
	int ret;

	mutex_lock(&pc->lock);
	if (err) {
		if (pc->owner && !pc->dead) {
			drm_err(mdev->drm, "GPU not resumed (%d): counters disabled, device dead; unbind it or reboot\n",
				err);
			WRITE_ONCE(pc->dead, true);
			mpc_perfcnt_disable_locked(mdev, false, -EIO);
		}
		/* With no owner the next enable's runtime resume tries again */
		pc->hw_off = !!pc->dead;
		mpc_perfcnt_unlock(mdev);
		return;
	}
	pc->hw_off = false;
	/* A GPU that stays runtime-suspended: mpc_perfcnt_power_up() programs */
	if (pc->owner && !pc->dead && !(pc->follow && pc->rt_off)) {
		start = pc->interval_start_ns;
		ret = mpc_perfcnt_hw_setup_locked(mdev);
		if (!ret) {
			/* What the GPU counted before the sleep is lost, not the span */
			pc->interval_start_ns = start;
		} else if (mpc_perfcnt_recover_locked(mdev)) {
			drm_err(mdev->drm, "counters not restarted after resume (%d), disabled\n",
				ret);
			mpc_perfcnt_disable_locked(mdev, true, -EIO);
		}
		pc->data_flags |= MALI_PERFCNT_DATA_AFTER_POWER_LOSS;
		spin_lock_irq(&pc->irq_lock);
		pc->stats.power_losses++;
		spin_unlock_irq(&pc->irq_lock);
	}
	mpc_perfcnt_unlock(mdev);
}

/**
 * mpc_perfcnt_sample_power_down() - the last sample before a power-down
 * @mdev: device, still powered, its interrupts still on.
 * @owner: the owner that gets the sample (the session hub), or NULL.
 * @kbuf: the dump, dump_size bytes, when @owner owns the counters.
 * @info: the sample's description, then.
 *
 * For counters that follow the host's power (&mpc_perfcnt.follow): take a
 * sample, stop the counters, unmap the buffer and mark the GPU off; from
 * here samples read zeros with the power state OFF, without a register
 * access, until mpc_perfcnt_power_up(). Called from the host's runtime
 * suspend (through mpc_perfcnt_power_down()), so it never waits for the
 * counter lock: its holder may be waiting for this very suspend to end.
 *
 * Return: 0 with a sample in @kbuf, -ENODATA without one, -EBUSY when the
 * lock was taken (the host then fails its suspend), or the sample's error
 * (the counters are stopped all the same).
 */
int mpc_perfcnt_sample_power_down(struct mpc_device *mdev, struct mpc_perfcnt_owner *owner,
				  void *kbuf, struct mpc_sample_info *info)
{
	struct mpc_perfcnt *pc = mdev->perfcnt;
	int ret = -ENODATA;

	if (!mutex_trylock(&pc->lock))
		return -EBUSY;
	atomic_set(&pc->power_up_pending, 0);
	if (pc->follow && !pc->rt_off) {
		/* In system sleep mpc_perfcnt_suspend() stopped them already */
		if (!pc->hw_off && !pc->dead) {
			if (owner && pc->owner == owner)
				ret = mpc_perfcnt_sample_locked(mdev, owner, &kbuf, false, info);
			if (pc->follow && !pc->dead && mpc_perfcnt_hw_teardown_locked(mdev))
				drm_warn(mdev->drm, "the GPU did not stop cleanly before its power-down\n");
		}
		if (pc->follow) {
			pc->rt_off = true;
			pc->pwr_seen = MPC_PC_SEEN_OFF;
		}
	}
	mpc_perfcnt_unlock(mdev);
	return ret;
}

/**
 * mpc_perfcnt_power_down() - the host is about to power the GPU down
 * @mdev: device, still powered, its interrupts still on.
 *
 * Runtime suspend of a host whose counters follow its power
 * (&mpc_host_ops.power_follows): what the GPU counted up to here goes
 * into the sessions' sums, and the counters stop.
 *
 * Return: 0, or -EBUSY: the counter unit is in use right now; the host
 * fails its suspend with it (runtime PM tries again after the autosuspend
 * delay).
 */
int mpc_perfcnt_power_down(struct mpc_device *mdev)
{
	if (!READ_ONCE(mdev->perfcnt->follow))
		return 0;
	return mpc_session_power_down(mdev) == -EBUSY ? -EBUSY : 0;
}

/**
 * mpc_perfcnt_power_up() - the host powered the GPU up again
 * @mdev: device, reset and powered, its interrupts unmasked.
 *
 * Runtime resume of a host whose counters follow its power: they are
 * programmed again here, before the host runs anything on the GPU. The
 * counter lock may be held by an enable waiting for this very resume
 * (which then programs them itself) or by a short call: then a work item
 * catches up as soon as it is free.
 */
void mpc_perfcnt_power_up(struct mpc_device *mdev)
{
	struct mpc_perfcnt *pc = mdev->perfcnt;

	if (!READ_ONCE(pc->follow))
		return;
	atomic_set(&pc->power_up_pending, 1);
	if (!mutex_trylock(&pc->lock)) {
		queue_work(system_wq, &pc->power_work);
		return;
	}
	mpc_perfcnt_power_catch_up_locked(mdev);
	mpc_perfcnt_unlock(mdev);
}

static void mpc_perfcnt_power_work(struct work_struct *work)
{
	struct mpc_perfcnt *pc = container_of(work, struct mpc_perfcnt, power_work);

	mutex_lock(&pc->lock);
	mpc_perfcnt_power_catch_up_locked(pc->mdev);
	mpc_perfcnt_unlock(pc->mdev);
}

static void mpc_perfcnt_fini(struct drm_device *drm, void *data)
{
	struct mpc_perfcnt *pc = data;

	cancel_work_sync(&pc->power_work);
}

/**
 * mpc_perfcnt_set_gpu_va() - choose where the next enable maps the buffer
 * @mdev: device.
 * @va: page-aligned GPU virtual address; the buffer must end at or below
 *	the host's VA range (&mpc_host_ops.va_check).
 *
 * Return: 0, -EINVAL, or -EBUSY while the counters are enabled.
 */
int mpc_perfcnt_set_gpu_va(struct mpc_device *mdev, u64 va)
{
	struct mpc_perfcnt *pc = mdev->perfcnt;
	int ret;

	ret = mdev->host_ops->va_check(mdev->host, va,
				       PAGE_ALIGN((u64)mdev->features.layout.dump_size));
	if (ret)
		return ret;

	mutex_lock(&pc->lock);
	if (pc->owner)
		ret = MPC_REJECT(mdev, -EBUSY, "cannot move the buffer while counters are enabled");
	else
		pc->next_gpu_va = va;
	mutex_unlock(&pc->lock);
	return ret;
}

/**
 * mpc_perfcnt_host_reset() - the host reset the GPU for its own reasons
 * @mdev: device.
 *
 * A reset notification (mpc_host.h): every register of the counter unit
 * was lost. Enabled counters are restarted for their owner, as after a
 * recovery of the core's own, and the next sample is flagged
 * AFTER_RECOVERY; when the restart fails they are disabled and the owner
 * is told (-EIO). Called in process context after the reset, with the
 * interrupts unmasked, holding no lock the host's ops take.
 */
void mpc_perfcnt_host_reset(struct mpc_device *mdev)
{
	struct mpc_perfcnt *pc = mdev->perfcnt;

	mutex_lock(&pc->lock);
	/* What the IRQ handlers read before the reset is stale */
	spin_lock_irq(&pc->irq_lock);
	WRITE_ONCE(pc->irq_gen, pc->irq_gen + 1);
	pc->wait = MPC_WAIT_NONE;
	spin_unlock_irq(&pc->irq_lock);
	if (pc->owner && !pc->dead && !pc->hw_off && !(pc->follow && pc->rt_off) &&
	    mpc_perfcnt_restart_locked(mdev)) {
		drm_err(mdev->drm, "GPU not recovered, counters disabled\n");
		mpc_perfcnt_disable_locked(mdev, true, -EIO);
	}
	mpc_perfcnt_unlock(mdev);
}

/**
 * mpc_perfcnt_unmap() - remove the buffer's GPU translation (test hook)
 * @mdev: device.
 *
 * The next sample makes the GPU fault; the recovery maps the buffer again.
 *
 * Return: 0, or -ENODATA when the counters are not enabled.
 */
int mpc_perfcnt_unmap(struct mpc_device *mdev)
{
	struct mpc_perfcnt *pc = mdev->perfcnt;
	int ret = 0;

	mutex_lock(&pc->lock);
	if (!pc->owner)
		ret = MPC_REJECT(mdev, -ENODATA, "counters are not enabled");
	else if (pc->hw_off)
		ret = MPC_REJECT(mdev, -EAGAIN, "GPU suspended for system sleep");
	else if (pc->follow && pc->rt_off)
		ret = MPC_REJECT(mdev, -EAGAIN, "GPU powered down (runtime suspend)");
	else if (!mdev->host_ops->buf_unmap)
		ret = MPC_REJECT(mdev, -EOPNOTSUPP, "the host cannot unmap the buffer");
	else
		ret = mdev->host_ops->buf_unmap(mdev->host);
	mutex_unlock(&pc->lock);
	return ret;
}

/**
 * mpc_perfcnt_status() - take a snapshot of the counter unit's state
 * @mdev: device.
 * @st: filled in, consistently: under the lock.
 *
 * May wait for a sample in progress (up to the sample timeout).
 */
void mpc_perfcnt_status(struct mpc_device *mdev, struct mpc_perfcnt_status *st)
{
	struct mpc_perfcnt *pc = mdev->perfcnt;

	memset(st, 0, sizeof(*st));
	mutex_lock(&pc->lock);
	st->enabled = !!pc->owner;
	st->owner_name = pc->owner ? pc->owner->name : NULL;
	st->owner_pid = pc->owner_pid;
	strscpy(st->owner_comm, pc->owner_comm, sizeof(st->owner_comm));
	st->cfg = pc->cfg;
	st->gpu_va = pc->owner ? pc->gpu_va : pc->next_gpu_va;
	st->dead = READ_ONCE(pc->dead);
	st->power_lost = !!(pc->data_flags & MALI_PERFCNT_DATA_AFTER_POWER_LOSS);
	mutex_unlock(&pc->lock);
}

/**
 * mpc_perfcnt_interval_start() - where the next sample's interval starts
 * @mdev: device.
 *
 * Return: CLOCK_MONOTONIC_RAW time of the last sample, the enable, the
 * last recovery or resume, whichever came last (&mpc_perfcnt.interval_start_ns).
 */
u64 mpc_perfcnt_interval_start(struct mpc_device *mdev)
{
	struct mpc_perfcnt *pc = mdev->perfcnt;
	u64 ns;

	mutex_lock(&pc->lock);
	ns = pc->interval_start_ns;
	mutex_unlock(&pc->lock);
	return ns;
}

/**
 * mpc_perfcnt_stats() - copy the event counts
 * @mdev: device.
 * @stats: filled in.
 *
 * Takes only the IRQ lock: it does not wait for a sample in progress.
 */
void mpc_perfcnt_stats(struct mpc_device *mdev, struct mpc_stats *stats)
{
	struct mpc_perfcnt *pc = mdev->perfcnt;

	spin_lock_irq(&pc->irq_lock);
	*stats = pc->stats;
	spin_unlock_irq(&pc->irq_lock);
}

/**
 * mpc_perfcnt_owned_by() - do the counters belong to @owner now
 * @mdev: device.
 * @owner: an owner.
 *
 * Lockless: only the owner itself, or the lock holder, can change the
 * answer, so it is stable for the owner asking about itself.
 *
 * Return: true when @owner owns the counters.
 */
bool mpc_perfcnt_owned_by(struct mpc_device *mdev, struct mpc_perfcnt_owner *owner)
{
	return READ_ONCE(mdev->perfcnt->owner) == owner;
}

/**
 * mpc_perfcnt_transfer() - hand running counters to another owner
 * @mdev: device.
 * @from: the owner now.
 * @to: the owner from now on.
 *
 * The counters keep running, configuration, buffer and sample sequence
 * unchanged (debugfs lends them to its perfcnt_stream file and takes them
 * back).
 *
 * Return: 0, -ENODATA when nobody owns the counters, -EBUSY when someone
 * other than @from does.
 */
int mpc_perfcnt_transfer(struct mpc_device *mdev, struct mpc_perfcnt_owner *from,
			 struct mpc_perfcnt_owner *to)
{
	struct mpc_perfcnt *pc = mdev->perfcnt;
	int ret = 0;

	mutex_lock(&pc->lock);
	if (!pc->owner)
		ret = -ENODATA;
	else if (pc->owner != from)
		ret = -EBUSY;
	else
		WRITE_ONCE(pc->owner, to);	/* read without the lock by mpc_perfcnt_release() */
	mutex_unlock(&pc->lock);
	return ret;
}

/* End the sampler's wait with @result; irq_lock held. */
static void mpc_perfcnt_finish(struct mpc_perfcnt *pc, int result)
{
	lockdep_assert_held(&pc->irq_lock);
	pc->wait = MPC_WAIT_NONE;
	pc->result = result;
	complete(&pc->done);
}

/**
 * mpc_perfcnt_irq_gen() - the reset generation, for the IRQ handlers
 * @mdev: device.
 *
 * Read before the interrupt status; passed to mpc_perfcnt_gpu_irq() and
 * mpc_perfcnt_mmu_fault() with what was read.
 *
 * Return: the generation.
 */
u32 mpc_perfcnt_irq_gen(struct mpc_device *mdev)
{
	/*
	 * Lockless: a handler that reads the old value after the increment
	 * finds the new one under irq_lock and drops its status, and the
	 * reset's synchronize_irq() waits for any handler still running.
	 */
	return READ_ONCE(mdev->perfcnt->irq_gen);
}

/**
 * mpc_perfcnt_gpu_irq() - GPU interrupts, from the hard IRQ handler
 * @mdev: device.
 * @status: GPU_INT_STAT bits, already cleared.
 * @gen: mpc_perfcnt_irq_gen() before @status was read.
 *
 * One step of the sample per call: a CLEAN_CACHES_COMPLETED read together
 * with the PERFCNT_SAMPLE_COMPLETED that issues the clean predates it.
 */
void mpc_perfcnt_gpu_irq(struct mpc_device *mdev, u32 status, u32 gen)
{
	struct mpc_perfcnt *pc = mdev->perfcnt;
	unsigned long flags;

	spin_lock_irqsave(&pc->irq_lock, flags);
	if (gen != pc->irq_gen) {
		/* Read before a reset: stale */
		spin_unlock_irqrestore(&pc->irq_lock, flags);
		return;
	}
	if (status & (GPU_IRQ_FAULT | GPU_IRQ_MULTIPLE_FAULT)) {
		u32 fault = mpc_reg_read(mdev, GPU_FAULT_STATUS);
		u64 addr = mpc_reg_read64(mdev, GPU_FAULT_ADDRESS_LO);

		pc->stats.gpu_faults++;
		drm_err_ratelimited(mdev->drm, "GPU fault 0x%x at 0x%llx\n", fault, addr);
		if (pc->wait != MPC_WAIT_NONE)
			mpc_perfcnt_finish(pc, -ENXIO);
	}
	if ((status & GPU_IRQ_PERFCNT_SAMPLE_COMPLETED) && pc->wait == MPC_WAIT_SAMPLE) {
		pc->wait = MPC_WAIT_CLEAN;
		/* The dump may still sit in the GPU's L2: write it back */
		mpc_reg_write(mdev, GPU_CMD, GPU_CMD_CLEAN_CACHES);
	} else if ((status & GPU_IRQ_CLEAN_CACHES_COMPLETED) && pc->wait == MPC_WAIT_CLEAN) {
		mpc_perfcnt_finish(pc, 0);
	}
	spin_unlock_irqrestore(&pc->irq_lock, flags);
}

/**
 * mpc_perfcnt_mmu_fault() - the MMU faulted, from the hard IRQ handler
 * @mdev: device.
 * @gen: mpc_perfcnt_irq_gen() before the interrupt status was read.
 *
 * The host decodes and logs the fault; here it is counted and ends the
 * sampler's wait with -ENXIO, unless a reset came in between.
 */
void mpc_perfcnt_mmu_fault(struct mpc_device *mdev, u32 gen)
{
	struct mpc_perfcnt *pc = mdev->perfcnt;
	unsigned long flags;

	spin_lock_irqsave(&pc->irq_lock, flags);
	pc->stats.mmu_faults++;
	if (pc->wait != MPC_WAIT_NONE && gen == pc->irq_gen)
		mpc_perfcnt_finish(pc, -ENXIO);
	spin_unlock_irqrestore(&pc->irq_lock, flags);
}

/**
 * mpc_perfcnt_init() - set up the counter state of a new device
 * @mdev: device.
 *
 * Software state only, no hardware access: the probe calls it before
 * the host installs the IRQ handlers that use it.
 *
 * Return: 0 or -ENOMEM.
 */
int mpc_perfcnt_init(struct mpc_device *mdev)
{
	struct mpc_perfcnt *pc;
	int ret;

	pc = drmm_kzalloc(mdev->drm, sizeof(*pc), GFP_KERNEL);
	if (!pc)
		return -ENOMEM;
	mdev->perfcnt = pc;
	pc->mdev = mdev;
	spin_lock_init(&pc->irq_lock);
	init_completion(&pc->done);
	atomic_set(&pc->power_up_pending, 0);
	INIT_WORK(&pc->power_work, mpc_perfcnt_power_work);
	pc->next_gpu_va = MPC_DEFAULT_GPU_VA;
	ret = drmm_mutex_init(mdev->drm, &pc->lock);
	if (ret)
		return ret;
	return drmm_add_action_or_reset(mdev->drm, mpc_perfcnt_fini, pc);
}
