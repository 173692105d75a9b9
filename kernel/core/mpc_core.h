/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * mali_perfcnt: the counter core's types and the map of its files.
 *
 * The core (this directory: mpc_core.c, mpc_perfcnt.c, mpc_stream.c,
 * mpc_debugfs.c, mpc_ioctl.c, mpc_layout.c, mpc_product.c, mpc_regs.h,
 * Kbuild's mpc_core-objs) includes nothing of its host and reaches it only
 * through &struct mpc_host_ops (mpc_host.h); scripts/tests/core_split_test.sh
 * keeps it so.
 */
#ifndef MPC_CORE_H
#define MPC_CORE_H

#include <linux/atomic.h>
#include <linux/completion.h>
#include <linux/kref.h>
#include <linux/mutex.h>
#include <linux/sched.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <drm/drm_device.h>
#include <drm/drm_file.h>
#include <drm/drm_print.h>

#include "mpc_regs.h"
#include "mpc_host.h"

struct drm_file;
struct mpc_perfcnt;
struct mpc_session_hub;
struct seq_file;
struct dentry;

/* A sample (or a cache clean) that takes longer than this has failed. */
#define MPC_SAMPLE_TIMEOUT_MS	1000
/* Default GPU virtual address of the dump buffer (any page-aligned VA works). */
#define MPC_DEFAULT_GPU_VA	0x1000000ULL

/**
 * struct mpc_product - what the driver knows about a GPU model
 * @name: marketing name, e.g. "Mali-G52".
 * @id: product id from GPU_ID[31:16], after masking with @mask.
 * @mask: mask applied to the product id before comparing.
 * @v4_layout: the GPU dumps counters in the v4 core-group layout.
 * @nr_sets: counter sets selectable with PERFCNT_CFG.SETSEL.
 */
struct mpc_product {
	const char *name;
	u16 id;
	u16 mask;
	bool v4_layout;
	u8 nr_sets;
};

/**
 * struct mpc_layout - shape of one counter dump
 * @v4: core-group layout (T60x/T62x/T72x), else v5.
 * @nr_l2: L2 slices (v5) or L2 caches = core groups (v4).
 * @nr_core_groups: 1 on v5.
 * @nr_shader_blocks: shader block slots (v5: fls64; v4: 4 per group).
 * @nr_blocks: all block slots of a dump.
 * @dump_size: bytes of one dump.
 */
struct mpc_layout {
	bool v4;
	u32 nr_l2;
	u32 nr_core_groups;
	u32 nr_shader_blocks;
	u32 nr_blocks;
	u32 dump_size;
};

/**
 * struct mpc_features - read from the GPU once at probe
 * @gpu_id: GPU_ID.
 * @l2_features: L2_FEATURES.
 * @mem_features: MEM_FEATURES.
 * @mmu_features: MMU_FEATURES.
 * @as_present: AS_PRESENT.
 * @coherency_features: COHERENCY_FEATURES, 0 on Midgard (no register).
 * @shader_present: SHADER_PRESENT.
 * @tiler_present: TILER_PRESENT.
 * @l2_present: L2_PRESENT.
 * @product: recognised model, or a generic entry for unknown ones.
 * @hw_issue_8186: PRLAM-8186 affects this revision.
 * @layout: dump layout derived from the above.
 */
struct mpc_features {
	u32 gpu_id;
	u32 l2_features;
	u32 mem_features;
	u32 mmu_features;
	u32 as_present;
	u32 coherency_features;
	u64 shader_present;
	u64 tiler_present;
	u64 l2_present;
	const struct mpc_product *product;
	bool hw_issue_8186;
	struct mpc_layout layout;
};

/**
 * struct mpc_perfcnt_config - what the owner asked for
 * @set: counter set (PERFCNT_CFG.SETSEL).
 * @jm: PRFCNT_JM_EN.
 * @tiler: PRFCNT_TILER_EN.
 * @shader: PRFCNT_SHADER_EN.
 * @mmu_l2: PRFCNT_MMU_L2_EN.
 */
struct mpc_perfcnt_config {
	u32 set;
	u32 jm;
	u32 tiler;
	u32 shader;
	u32 mmu_l2;
};

struct mpc_perfcnt_owner;

/**
 * struct mpc_perfcnt_owner_ops - what the counter unit tells an owner
 * @lost: the counters were taken from @owner, which did not let them go
 *	itself: @err is -ENODEV (the device is unbound) or -EIO (the GPU
 *	was not recovered, or did not resume). Called after the counter
 *	unit dropped its lock, holding a reference to @owner; but possibly
 *	from inside the owner's own call into the unit (a sample that
 *	failed), so it must not take a lock the owner holds around such
 *	calls (a stream only flags itself and queues its work).
 * @release: the last reference to @owner is gone (&mpc_perfcnt_owner.ref):
 *	free it.
 *
 * Both or neither: an owner without ops is never told anything and its
 * reference count is not used (an open render node, debugfs).
 */
struct mpc_perfcnt_owner_ops {
	void (*lost)(struct mpc_perfcnt_owner *owner, int err);
	void (*release)(struct mpc_perfcnt_owner *owner);
};

/**
 * struct mpc_perfcnt_owner - one client of the counter unit
 * @ops: its callbacks, or NULL.
 * @name: what gpu_info and -EBUSY messages call it (static storage), or
 *	NULL for the process that enabled the counters.
 * @ref: with @ops: held by the owner itself, and by the counter unit from
 *	the moment it takes the counters away until it has called
 *	@ops->lost, so that a close in between cannot free the owner under
 *	that call.
 * @follows_power: its samples come out of mpc_perfcnt_power_down() too
 *	(the session hub's do): on a host whose policy allows it
 *	(&mpc_host_ops.power_follows) its counters hold no power reference
 *	and follow the GPU down and up.
 *
 * Embedded in what owns the counters: an open render node (&struct
 * mpc_file), a sampling stream, debugfs (&struct mpc_debugfs). The
 * counter unit only compares owners and calls @ops, never under its lock.
 * An owner without @ops must stay alive until it has released the
 * counters (mpc_perfcnt_release()).
 */
struct mpc_perfcnt_owner {
	const struct mpc_perfcnt_owner_ops *ops;
	const char *name;
	struct kref ref;
	bool follows_power;
};

/**
 * struct mpc_debugfs - debugfs as an owner of the counters
 * @owner: what perfcnt_enable enables the counters as.
 * @lock: serialises perfcnt_enable writes with the hand-over to and from
 *	perfcnt_stream; protects @period_us.
 * @period_us: the perfcnt_stream period given with the last enable
 *	("period_us=N"), 0 for none.
 */
struct mpc_debugfs {
	struct mpc_perfcnt_owner owner;
	struct mutex lock;	/* perfcnt_enable vs perfcnt_stream; @period_us */
	u32 period_us;
};

/**
 * struct mpc_stats - counts of events, for debugfs and the tests
 * @samples: completed samples.
 * @timeouts: samples or cache cleans that did not complete in time.
 * @gpu_faults: GPU_FAULT interrupts.
 * @mmu_faults: MMU page faults and bus errors.
 * @resets: resets done to recover (at any level).
 * @hard_resets: of those, resets that needed HARD_RESET.
 * @line_resets: of those, resets that needed the SoC's reset line.
 * @leaked_pages: dump and translation-table pages left allocated because
 *	the GPU did not answer any reset and may still write them.
 * @power_losses: system resumes that reprogrammed enabled counters.
 * @last_recovery_ns: CLOCK_MONOTONIC_RAW time the last successful recovery
 *	restarted the counters, 0 if none did.
 */
struct mpc_stats {
	u64 samples;
	u64 timeouts;
	u64 gpu_faults;
	u64 mmu_faults;
	u64 resets;
	u64 hard_resets;
	u64 line_resets;
	u64 leaked_pages;
	u64 power_losses;
	u64 last_recovery_ns;
};

/**
 * struct mpc_sample_info - what a sample reports besides its data
 * @seqno: sequence number.
 * @timestamp_ns: CLOCK_MONOTONIC_RAW time the GPU was asked to sample.
 * @interval_start_ns: start of the span the counters cover.
 * @data_flags: MALI_PERFCNT_DATA_* bits.
 * @session: the enable it belongs to (&mpc_perfcnt.session), internal.
 * @power: the GPU's &enum drm_mali_perfcnt_power_state over the interval,
 *	for counters that follow the host's power (else ON).
 */
struct mpc_sample_info {
	u64 seqno;
	u64 timestamp_ns;
	u64 interval_start_ns;
	u32 data_flags;
	u64 session;
	u8 power;
};

/**
 * struct mpc_perfcnt_status - a snapshot of the counter unit's state
 * @enabled: someone owns the counters.
 * @owner_name: the owner's &mpc_perfcnt_owner.name, NULL for a process.
 * @owner_pid: thread group id of the process that enabled them.
 * @owner_comm: its command name.
 * @cfg: configuration applied at enable, valid while @enabled.
 * @gpu_va: GPU VA the buffer is mapped at while @enabled, else the
 *	one the next enable maps it at.
 * @dead: the GPU answered no reset.
 * @power_lost: the GPU lost power since the last sample.
 *
 * Filled by mpc_perfcnt_status() under the counter unit's lock, for
 * debugfs and the sampling streams; struct mpc_perfcnt itself is private
 * to mpc_perfcnt.c.
 */
struct mpc_perfcnt_status {
	bool enabled;
	const char *owner_name;
	pid_t owner_pid;
	char owner_comm[TASK_COMM_LEN];
	struct mpc_perfcnt_config cfg;
	u64 gpu_va;
	bool dead;
	bool power_lost;
};

/**
 * struct mpc_device - one GPU, as the counter core sees it
 * @drm: the DRM device whose render node carries the uAPI (the host's).
 * @dev: the device the GPU is (runtime PM, DMA, messages).
 * @host_ops: how the core reaches its host (mpc_host.h).
 * @host: the host's context, passed to every @host_ops call.
 * @features: what the GPU reported at probe, filled by the host before
 *	mpc_perfcnt_init().
 * @gpu_freq_hz: GPU clock rate, 0 when unknown.
 * @live_allocs: allocations the module holds now (debugfs, leak tests).
 * @live_bytes: bytes of those allocations.
 * @perfcnt: counter state, private to mpc_perfcnt.c.
 * @debugfs: debugfs's share of it (mpc_debugfs.c).
 * @sessions: the counter sessions' hub (mpc_session_fd.c).
 * @stream_wq: where the sampling streams' work runs (mpc_stream.c): a
 *	freezable workqueue, so that no periodic sample runs while the
 *	system sleeps.
 */
struct mpc_device {
	struct drm_device *drm;
	struct device *dev;
	const struct mpc_host_ops *host_ops;
	void *host;
	struct mpc_features features;
	u64 gpu_freq_hz;
	atomic_t live_allocs;
	atomic64_t live_bytes;
	struct mpc_perfcnt *perfcnt;
	struct mpc_debugfs debugfs;
	struct mpc_session_hub *sessions;
	struct workqueue_struct *stream_wq;
};

/*
 * Log why an input was rejected (debug level, enable with drm.debug=0x2) and
 * evaluate to the errno, so every rejection is one line and one return.
 */
#define MPC_REJECT(mdev, err, fmt, ...) ({				\
	int __mpc_err = (err);						\
	drm_dbg_driver((mdev)->drm, "rejected (%d): " fmt "\n",	\
		       __mpc_err, ##__VA_ARGS__);			\
	__mpc_err; })

/* Is any of @n reserved uAPI words non-zero? */
static inline bool mpc_any_set(const __u64 *words, size_t n)
{
	while (n--)
		if (words[n])
			return true;
	return false;
}

/* Register access, through the host */
static inline u32 mpc_reg_read(struct mpc_device *mdev, u32 reg)
{
	return mdev->host_ops->reg_read(mdev->host, reg);
}

static inline void mpc_reg_write(struct mpc_device *mdev, u32 reg, u32 val)
{
	mdev->host_ops->reg_write(mdev->host, reg, val);
}

static inline u64 mpc_reg_read64(struct mpc_device *mdev, u32 lo)
{
	return mpc_reg_read(mdev, lo) | ((u64)mpc_reg_read(mdev, lo + 4) << 32);
}

static inline void mpc_reg_write64(struct mpc_device *mdev, u32 lo, u64 val)
{
	mpc_reg_write(mdev, lo, lower_32_bits(val));
	mpc_reg_write(mdev, lo + 4, upper_32_bits(val));
}

/* mpc_core.c */
void mpc_track_alloc(struct mpc_device *mdev, size_t bytes);
void mpc_track_free(struct mpc_device *mdev, size_t bytes);
int __must_check mpc_reg_poll(struct mpc_device *mdev, u32 reg, u32 mask, u32 want,
			      u32 spin_us, u32 timeout_us, u32 *last);

/* mpc_layout.c: pure functions, no hardware access */
int mpc_layout_compute(struct mpc_layout *layout, bool v4, u64 shader_present,
		       u64 l2_present, u32 mem_features);
int mpc_layout_block_offset(const struct mpc_layout *layout, u64 shader_present,
			    unsigned int slot, const char **kind,
			    unsigned int *instance);
int mpc_check_masks(const struct mpc_perfcnt_config *cfg);

/* mpc_product.c: the product table and the errata checks */
const struct mpc_product *mpc_product_lookup(u32 gpu_id);
bool mpc_has_hw_issue_8186(u32 gpu_id);
bool mpc_gpu_has_transcfg(u32 gpu_id);

/* mpc_perfcnt.c */
int __must_check mpc_perfcnt_check_access(struct mpc_device *mdev);
int __must_check mpc_perfcnt_init(struct mpc_device *mdev);
int __must_check mpc_perfcnt_enable(struct mpc_device *mdev, struct mpc_perfcnt_owner *owner,
				    const struct mpc_perfcnt_config *cfg);
int __must_check mpc_perfcnt_disable(struct mpc_device *mdev, struct mpc_perfcnt_owner *owner);
int __must_check mpc_perfcnt_sample(struct mpc_device *mdev, struct mpc_perfcnt_owner *owner,
				    void __user *ubuf, void *kbuf, struct mpc_sample_info *info);
void mpc_perfcnt_release(struct mpc_device *mdev, struct mpc_perfcnt_owner *owner);
void mpc_perfcnt_suspend(struct mpc_device *mdev);
void mpc_perfcnt_resume(struct mpc_device *mdev, int err);
int mpc_perfcnt_power_down(struct mpc_device *mdev);
void mpc_perfcnt_power_up(struct mpc_device *mdev);
int mpc_perfcnt_sample_power_down(struct mpc_device *mdev, struct mpc_perfcnt_owner *owner,
				  void *kbuf, struct mpc_sample_info *info);
int mpc_session_power_down(struct mpc_device *mdev);
void mpc_perfcnt_host_reset(struct mpc_device *mdev);
int __must_check mpc_perfcnt_set_gpu_va(struct mpc_device *mdev, u64 va);
int __must_check mpc_perfcnt_unmap(struct mpc_device *mdev);
void mpc_perfcnt_status(struct mpc_device *mdev, struct mpc_perfcnt_status *st);
void mpc_perfcnt_stats(struct mpc_device *mdev, struct mpc_stats *stats);
u64 mpc_perfcnt_interval_start(struct mpc_device *mdev);
bool mpc_perfcnt_owned_by(struct mpc_device *mdev, struct mpc_perfcnt_owner *owner);
void mpc_perfcnt_owner_put(struct mpc_perfcnt_owner *owner);
int __must_check mpc_perfcnt_transfer(struct mpc_device *mdev, struct mpc_perfcnt_owner *from,
				      struct mpc_perfcnt_owner *to);
u32 mpc_perfcnt_irq_gen(struct mpc_device *mdev);
void mpc_perfcnt_gpu_irq(struct mpc_device *mdev, u32 status, u32 gen);
void mpc_perfcnt_mmu_fault(struct mpc_device *mdev, u32 gen);

/* mpc_ioctl.c */
/*
 * The uAPI handlers: the host's DRM ioctl table calls them with its device
 * and the counter owner of the calling file (render node).
 */
int mpc_ioctl_get_info(struct mpc_device *mdev, struct mpc_perfcnt_owner *owner, void *data);
int mpc_ioctl_enable(struct mpc_device *mdev, struct mpc_perfcnt_owner *owner, void *data);
int mpc_ioctl_dump(struct mpc_device *mdev, struct mpc_perfcnt_owner *owner, void *data);
int mpc_ioctl_stream_open(struct mpc_device *mdev, struct mpc_perfcnt_owner *owner, void *data);
int mpc_ioctl_config(struct mpc_device *mdev, const char *who, bool use_masks, u32 set,
		     u32 jm, u32 tiler, u32 shader, u32 l2, struct mpc_perfcnt_config *cfg);

/* mpc_stream.c */
int __must_check mpc_stream_init(struct mpc_device *mdev);
/* mpc_stream.c: the debugfs perfcnt_stream file */
extern const struct file_operations mpc_stream_debugfs_fops;

/* mpc_debugfs.c */
int __must_check mpc_debugfs_setup(struct mpc_device *mdev);
void mpc_debugfs_init(struct mpc_device *mdev, struct dentry *root);
int __must_check mpc_debugfs_stream_take(struct mpc_device *mdev, struct mpc_perfcnt_owner *to,
					 u64 *period_ns);
void mpc_debugfs_stream_give_back(struct mpc_device *mdev, struct mpc_perfcnt_owner *from);
char *mpc_debugfs_text(char *dst, size_t size, const char __user *ubuf,
		       size_t count, const loff_t *ppos);
int mpc_parse_enable_text(const char *text, struct mpc_perfcnt_config *cfg,
			  u32 *period_us, bool *enable);

#endif /* MPC_CORE_H */
