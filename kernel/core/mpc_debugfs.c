// SPDX-License-Identifier: GPL-2.0-only
/*
 * mali_perfcnt: debugfs files for bring-up (see Documentation/interfaces.rst
 * for their exact formats). Enabling through perfcnt_enable makes "debugfs"
 * the owner, so `echo 1 > perfcnt_enable; cat perfcnt_counters` works on a
 * board without any userspace tool.
 */
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/time64.h>
#include <linux/uaccess.h>
#include <drm/drm_drv.h>
#include <drm/drm_file.h>
#include <drm/drm_managed.h>

#include "mpc_core.h"
#include <drm/mali_perfcnt_drm.h>

/* Through debugfs "owned by an open file" reads better as busy. */
static int mpc_debugfs_errno(int ret)
{
	return ret == -EPERM ? -EBUSY : ret;
}

static void *mpc_snapshot_alloc(struct mpc_device *mdev)
{
	void *buf = kvzalloc(mdev->features.layout.dump_size, GFP_KERNEL);

	if (buf)
		mpc_track_alloc(mdev, mdev->features.layout.dump_size);
	return buf;
}

static void mpc_snapshot_free(struct mpc_device *mdev, void *buf)
{
	if (!buf)
		return;
	kvfree(buf);
	mpc_track_free(mdev, mdev->features.layout.dump_size);
}

/**
 * mpc_debugfs_text() - fetch the short text written to a debugfs file
 * @dst: receives the text, NUL-terminated, surrounding blanks removed.
 * @size: size of @dst.
 * @ubuf: user buffer given to the write handler.
 * @count: its length.
 * @ppos: file position given to the write handler.
 *
 * Return: the text, -EINVAL for a write that is not one piece shorter than
 * @size, -EFAULT.
 */
char *mpc_debugfs_text(char *dst, size_t size, const char __user *ubuf,
		       size_t count, const loff_t *ppos)
{
	if (*ppos || count >= size)
		return ERR_PTR(-EINVAL);
	if (copy_from_user(dst, ubuf, count))
		return ERR_PTR(-EFAULT);
	dst[count] = '\0';
	return strim(dst);
}

/**
 * mpc_parse_enable_text() - parse what was written to perfcnt_enable
 * @text: NUL-terminated text, one trailing newline allowed.
 * @cfg: configuration, filled in when enabling.
 * @period_us: set to the perfcnt_stream period, 0 when not given.
 * @enable: set to whether the text asks to enable.
 *
 * Accepted: "0", "1", or space-separated "set=N jm=X tiler=X shader=X l2=X
 * period_us=N" with any subset of the keys; masks default to all counters;
 * period_us (100 to 10000000) is the sampling period of perfcnt_stream.
 * Only the syntax and period_us are checked here: the counter set and the
 * masks are checked once, by mpc_perfcnt_enable(), for the ioctl and
 * debugfs alike.
 *
 * Return: 0, or -EINVAL for text that does not parse or a period out of
 * range.
 */
int mpc_parse_enable_text(const char *text, struct mpc_perfcnt_config *cfg,
			  u32 *period_us, bool *enable)
{
	char buf[128], *cur, *tok;
	size_t len = strlen(text);

	if (len && text[len - 1] == '\n')
		len--;
	if (!len || len >= sizeof(buf))
		return -EINVAL;
	memcpy(buf, text, len);
	buf[len] = '\0';

	cfg->set = 0;
	cfg->jm = MPC_BLOCK_ENABLE_ALL;
	cfg->tiler = MPC_BLOCK_ENABLE_ALL;
	cfg->shader = MPC_BLOCK_ENABLE_ALL;
	cfg->mmu_l2 = MPC_BLOCK_ENABLE_ALL;
	*period_us = 0;

	if (!strcmp(buf, "0")) {
		*enable = false;
		return 0;
	}
	*enable = true;
	if (!strcmp(buf, "1"))
		return 0;

	cur = buf;
	while ((tok = strsep(&cur, " \t")) != NULL) {
		char *val;
		u32 *dst;

		if (!*tok)
			continue;
		val = strchr(tok, '=');
		if (!val || !val[1])
			return -EINVAL;
		*val++ = '\0';
		if (!strcmp(tok, "set"))
			dst = &cfg->set;
		else if (!strcmp(tok, "jm"))
			dst = &cfg->jm;
		else if (!strcmp(tok, "tiler"))
			dst = &cfg->tiler;
		else if (!strcmp(tok, "shader"))
			dst = &cfg->shader;
		else if (!strcmp(tok, "l2"))
			dst = &cfg->mmu_l2;
		else if (!strcmp(tok, "period_us"))
			dst = period_us;
		else
			return -EINVAL;
		if (kstrtou32(val, 0, dst))
			return -EINVAL;
	}
	if (*period_us && (*period_us < MALI_PERFCNT_STREAM_MIN_PERIOD_NS / NSEC_PER_USEC ||
			   *period_us > MALI_PERFCNT_STREAM_MAX_PERIOD_NS / NSEC_PER_USEC))
		return -EINVAL;
	return 0;
}

static int mpc_gpu_info_show(struct seq_file *m, void *unused)
{
	struct mpc_device *mdev = m->private;
	const struct mpc_features *f = &mdev->features;
	struct mpc_perfcnt_status st;

	seq_printf(m, "product: %s\n", f->product->name);
	seq_printf(m, "gpu_id: 0x%08x\n", f->gpu_id);
	seq_printf(m, "product_id: 0x%04x\n", GPU_ID_PRODUCT(f->gpu_id));
	seq_printf(m, "version: r%up%u status %u\n", GPU_ID_VERSION_MAJOR(f->gpu_id),
		   GPU_ID_VERSION_MINOR(f->gpu_id), GPU_ID_VERSION_STATUS(f->gpu_id));
	seq_printf(m, "shader_present: 0x%016llx\n", f->shader_present);
	seq_printf(m, "l2_present: 0x%016llx\n", f->l2_present);
	seq_printf(m, "nr_l2: %u\n", f->layout.nr_l2);
	seq_printf(m, "l2_features: 0x%08x\n", f->l2_features);
	seq_printf(m, "mem_features: 0x%08x\n", f->mem_features);
	seq_printf(m, "layout: %s\n", f->layout.v4 ? "v4" : "v5");
	seq_printf(m, "nr_core_groups: %u\n", f->layout.nr_core_groups);
	seq_printf(m, "nr_shader_blocks: %u\n", f->layout.nr_shader_blocks);
	seq_printf(m, "nr_blocks: %u\n", f->layout.nr_blocks);
	seq_printf(m, "counters_per_block: %u\n", MPC_COUNTERS_PER_BLOCK);
	seq_printf(m, "dump_size: %u\n", f->layout.dump_size);
	seq_printf(m, "counter_sets: %u\n", f->product->nr_sets);
	seq_printf(m, "gpu_freq_hz: %llu\n", mdev->gpu_freq_hz);
	if (mdev->host_ops->debugfs_show)
		mdev->host_ops->debugfs_show(mdev->host, m, MPC_HOST_INFO_PLATFORM);
	seq_printf(m, "hw_issue_8186: %d\n", f->hw_issue_8186);
	if (mdev->host_ops->debugfs_show)
		mdev->host_ops->debugfs_show(mdev->host, m, MPC_HOST_INFO_MMU);

	mpc_perfcnt_status(mdev, &st);
	seq_printf(m, "dead: %d\n", st.dead);
	seq_printf(m, "power_lost: %d\n", st.power_lost);
	seq_printf(m, "enabled: %d\n", st.enabled);
	seq_printf(m, "counter_set: %u\n", st.enabled ? st.cfg.set : 0);
	if (st.enabled)
		seq_printf(m, "masks: jm=0x%x tiler=0x%x shader=0x%x l2=0x%x\n",
			   st.cfg.jm, st.cfg.tiler, st.cfg.shader, st.cfg.mmu_l2);
	else
		seq_puts(m, "masks: none\n");
	if (!st.enabled)
		seq_puts(m, "owner: none\n");
	else if (st.owner_name)
		seq_printf(m, "owner: %s\n", st.owner_name);
	else
		seq_printf(m, "owner: pid %d (%s)\n", st.owner_pid, st.owner_comm);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(mpc_gpu_info);

static int mpc_stats_show(struct seq_file *m, void *unused)
{
	struct mpc_device *mdev = m->private;
	struct mpc_stats stats;

	mpc_perfcnt_stats(mdev, &stats);

	seq_printf(m, "samples: %llu\n", stats.samples);
	seq_printf(m, "timeouts: %llu\n", stats.timeouts);
	seq_printf(m, "gpu_faults: %llu\n", stats.gpu_faults);
	seq_printf(m, "mmu_faults: %llu\n", stats.mmu_faults);
	seq_printf(m, "resets: %llu\n", stats.resets);
	seq_printf(m, "last_recovery_ns: %llu\n", stats.last_recovery_ns);
	seq_printf(m, "hard_resets: %llu\n", stats.hard_resets);
	seq_printf(m, "line_resets: %llu\n", stats.line_resets);
	seq_printf(m, "leaked_pages: %llu\n", stats.leaked_pages);
	seq_printf(m, "power_losses: %llu\n", stats.power_losses);
	seq_printf(m, "live_allocs: %d\n", atomic_read(&mdev->live_allocs));
	seq_printf(m, "live_bytes: %lld\n", atomic64_read(&mdev->live_bytes));
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(mpc_stats);

static ssize_t mpc_enable_read(struct file *file, char __user *ubuf,
			       size_t count, loff_t *ppos)
{
	struct mpc_device *mdev = file->private_data;
	struct mpc_perfcnt_status st;
	char text[3];

	mpc_perfcnt_status(mdev, &st);
	snprintf(text, sizeof(text), "%d\n", st.enabled);
	return simple_read_from_buffer(ubuf, count, ppos, text, 2);
}

static ssize_t mpc_enable_write(struct file *file, const char __user *ubuf,
				size_t count, loff_t *ppos)
{
	struct mpc_device *mdev = file->private_data;
	struct mpc_perfcnt_config cfg;
	char buf[128], *text;
	u32 period_us;
	bool enable;
	int ret;

	text = mpc_debugfs_text(buf, sizeof(buf), ubuf, count, ppos);
	if (IS_ERR(text))
		return MPC_REJECT(mdev, PTR_ERR(text),
				  "perfcnt_enable: write one line of at most %zu bytes",
				  sizeof(buf) - 1);

	ret = mpc_parse_enable_text(text, &cfg, &period_us, &enable);
	if (ret)
		return MPC_REJECT(mdev, ret,
				  "perfcnt_enable: want 0, 1 or \"set=N jm=0x.. tiler=0x.. shader=0x.. l2=0x.. period_us=N\"");

	if (mutex_lock_interruptible(&mdev->debugfs.lock))
		return -EINTR;
	if (enable) {
		ret = mpc_perfcnt_enable(mdev, &mdev->debugfs.owner, &cfg);
		/* the period perfcnt_stream samples at */
		if (!ret)
			mdev->debugfs.period_us = period_us;
	} else {
		ret = mpc_perfcnt_disable(mdev, &mdev->debugfs.owner);
	}
	mutex_unlock(&mdev->debugfs.lock);
	return ret ? mpc_debugfs_errno(ret) : count;
}

static const struct file_operations mpc_enable_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.read = mpc_enable_read,
	.write = mpc_enable_write,
	.llseek = default_llseek,
};

/**
 * struct mpc_dump_file - an open perfcnt_dump or perfcnt_counters file
 * @mdev: device, referenced (drm_dev_get()) until release.
 * @data: the file's one sample, taken at the first read.
 * @info: its sequence number, timestamps and data flags.
 * @status: 0, or the errno of the sample.
 * @taken: the sample was taken (or failed): later reads reuse it.
 */
struct mpc_dump_file {
	struct mpc_device *mdev;
	u32 *data;
	struct mpc_sample_info info;
	int status;
	bool taken;
};

/*
 * An open debugfs file pins the module, not the device: debugfs calls
 * ->release even after the device was unbound and its files removed. So
 * every file whose release touches the device holds a reference on it from
 * open to release (drm_dev_get()), and reads after an unbind get -ENODEV
 * from mpc_perfcnt_sample() (drm_dev_enter()).
 */
static struct mpc_dump_file *mpc_dump_file_new(struct inode *inode)
{
	struct mpc_device *mdev = inode->i_private;
	struct mpc_dump_file *df;

	df = kzalloc(sizeof(*df), GFP_KERNEL);
	if (!df)
		return NULL;
	df->mdev = mdev;
	df->data = mpc_snapshot_alloc(mdev);
	if (!df->data) {
		kfree(df);
		return NULL;
	}
	drm_dev_get(mdev->drm);
	return df;
}

static void mpc_dump_file_free(struct mpc_dump_file *df)
{
	struct mpc_device *mdev = df->mdev;

	mpc_snapshot_free(mdev, df->data);
	kfree(df);
	drm_dev_put(mdev->drm);
}

/* Take the file's one sample, the first time only. */
static int mpc_dump_file_sample(struct mpc_dump_file *df)
{
	if (!df->taken) {
		df->taken = true;
		df->status = mpc_perfcnt_sample(df->mdev, &df->mdev->debugfs.owner, NULL,
						df->data, &df->info);
	}
	return df->status;
}

static int mpc_dump_open(struct inode *inode, struct file *file)
{
	struct mpc_dump_file *df = mpc_dump_file_new(inode);

	if (!df)
		return -ENOMEM;
	file->private_data = df;
	return nonseekable_open(inode, file);
}

static ssize_t mpc_dump_read(struct file *file, char __user *ubuf,
			     size_t count, loff_t *ppos)
{
	struct mpc_dump_file *df = file->private_data;
	int ret;

	ret = mpc_dump_file_sample(df);
	if (ret)
		return mpc_debugfs_errno(ret);
	return simple_read_from_buffer(ubuf, count, ppos, df->data,
				       df->mdev->features.layout.dump_size);
}

static int mpc_dump_release(struct inode *inode, struct file *file)
{
	mpc_dump_file_free(file->private_data);
	return 0;
}

static const struct file_operations mpc_dump_fops = {
	.owner = THIS_MODULE,
	.open = mpc_dump_open,
	.read = mpc_dump_read,
	.release = mpc_dump_release,
};

/* @blk: one block of a dump, little-endian words as the GPU wrote them. */
static void mpc_print_block(struct seq_file *m, const __le32 *blk, const char *kind,
			    unsigned int instance)
{
	unsigned int i;

	if (!strcmp(kind, "jm") || !strcmp(kind, "tiler"))
		seq_printf(m, "%s", kind);
	else
		seq_printf(m, "%s.%u", kind, instance);
	seq_printf(m, " timestamp=0x%016llx enable=0x%08x\n",
		   le32_to_cpu(blk[MPC_HDR_TIMESTAMP_LO]) |
		   ((u64)le32_to_cpu(blk[MPC_HDR_TIMESTAMP_HI]) << 32),
		   le32_to_cpu(blk[MPC_HDR_ENABLE]));
	for (i = MPC_HDR_WORDS; i < MPC_COUNTERS_PER_BLOCK; i++)
		if (blk[i])
			seq_printf(m, "  %u %u\n", i, le32_to_cpu(blk[i]));
}

/*
 * seq_file runs the show routine again with a bigger buffer when the text
 * does not fit (a many-core GPU's is tens of KiB): the sample is taken on
 * the first run only, so one read of the file is one sample.
 */
static int mpc_counters_show(struct seq_file *m, void *unused)
{
	struct mpc_dump_file *df = m->private;
	const struct mpc_features *f = &df->mdev->features;
	unsigned int slot, instance;
	const char *kind;
	int ret;

	ret = mpc_dump_file_sample(df);
	if (ret)
		return mpc_debugfs_errno(ret);

	seq_printf(m, "seqno %llu timestamp_ns %llu interval_start_ns %llu data_flags 0x%x\n",
		   df->info.seqno, df->info.timestamp_ns, df->info.interval_start_ns,
		   df->info.data_flags);
	for (slot = 0; slot < f->layout.nr_blocks; slot++) {
		int off = mpc_layout_block_offset(&f->layout, f->shader_present,
						  slot, &kind, &instance);

		if (off < 0)
			continue;
		mpc_print_block(m, (const __le32 *)df->data + off / MPC_BYTES_PER_COUNTER, kind,
				instance);
	}
	return 0;
}

static int mpc_counters_open(struct inode *inode, struct file *file)
{
	struct mpc_dump_file *df = mpc_dump_file_new(inode);
	int ret;

	if (!df)
		return -ENOMEM;
	ret = single_open(file, mpc_counters_show, df);
	if (ret)
		mpc_dump_file_free(df);
	return ret;
}

static int mpc_counters_release(struct inode *inode, struct file *file)
{
	struct mpc_dump_file *df = ((struct seq_file *)file->private_data)->private;

	single_release(inode, file);
	mpc_dump_file_free(df);
	return 0;
}

static const struct file_operations mpc_counters_fops = {
	.owner = THIS_MODULE,
	.open = mpc_counters_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = mpc_counters_release,
};

static ssize_t mpc_va_read(struct file *file, char __user *ubuf,
			   size_t count, loff_t *ppos)
{
	struct mpc_device *mdev = file->private_data;
	struct mpc_perfcnt_status st;
	char text[32];
	int len;

	mpc_perfcnt_status(mdev, &st);
	len = scnprintf(text, sizeof(text), "0x%llx\n", st.gpu_va);
	return simple_read_from_buffer(ubuf, count, ppos, text, len);
}

static ssize_t mpc_va_write(struct file *file, const char __user *ubuf,
			    size_t count, loff_t *ppos)
{
	struct mpc_device *mdev = file->private_data;
	char buf[32], *text;
	u64 va;
	int ret;

	text = mpc_debugfs_text(buf, sizeof(buf), ubuf, count, ppos);
	if (IS_ERR(text))
		return MPC_REJECT(mdev, PTR_ERR(text), "perfcnt_va: write one value");

	if (!strcmp(text, "unmap"))
		ret = mpc_perfcnt_unmap(mdev);
	else if (kstrtou64(text, 0, &va))
		ret = MPC_REJECT(mdev, -EINVAL, "perfcnt_va: want \"unmap\" or an address");
	else
		ret = mpc_perfcnt_set_gpu_va(mdev, va);
	return ret ? ret : count;
}

static const struct file_operations mpc_va_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.read = mpc_va_read,
	.write = mpc_va_write,
	.llseek = default_llseek,
};

/**
 * mpc_debugfs_stream_take() - lend debugfs's counters to perfcnt_stream
 * @mdev: device.
 * @to: the perfcnt_stream file's stream, as an owner.
 * @period_ns: receives the period given to perfcnt_enable.
 *
 * The counters keep running; @to owns them until
 * mpc_debugfs_stream_give_back().
 *
 * Return: 0, -EBUSY when someone else owns them, -ENODATA when they are
 * not enabled or were enabled with no period, -EINTR.
 */
int mpc_debugfs_stream_take(struct mpc_device *mdev, struct mpc_perfcnt_owner *to,
			    u64 *period_ns)
{
	struct mpc_debugfs *dbg = &mdev->debugfs;
	int ret;

	if (mutex_lock_interruptible(&dbg->lock))
		return -EINTR;
	ret = mpc_perfcnt_transfer(mdev, &dbg->owner, to);
	if (ret) {
		ret = MPC_REJECT(mdev, ret,
				 "perfcnt_stream: enable with \"period_us=N\" > perfcnt_enable first%s",
				 ret == -EBUSY ? " (the counters are owned elsewhere)" : "");
	} else if (!dbg->period_us) {
		/* back to debugfs, still running */
		WARN_ON_ONCE(mpc_perfcnt_transfer(mdev, to, &dbg->owner));
		ret = MPC_REJECT(mdev, -ENODATA,
				 "perfcnt_stream: perfcnt_enable was given no period_us=N");
	} else {
		*period_ns = (u64)dbg->period_us * NSEC_PER_USEC;
	}
	mutex_unlock(&dbg->lock);
	return ret;
}

/**
 * mpc_debugfs_stream_give_back() - perfcnt_stream is closed
 * @mdev: device.
 * @from: the stream that took the counters with mpc_debugfs_stream_take().
 *
 * They keep running, owned by debugfs again; nothing happens when @from
 * lost them in the meantime.
 */
void mpc_debugfs_stream_give_back(struct mpc_device *mdev, struct mpc_perfcnt_owner *from)
{
	struct mpc_debugfs *dbg = &mdev->debugfs;

	mutex_lock(&dbg->lock);
	if (mpc_perfcnt_transfer(mdev, from, &dbg->owner))
		dbg->period_us = 0;
	mutex_unlock(&dbg->lock);
}

/**
 * mpc_debugfs_setup() - debugfs's state, before any file exists
 * @mdev: device.
 *
 * Return: 0 or -ENOMEM.
 */
int mpc_debugfs_setup(struct mpc_device *mdev)
{
	mdev->debugfs.owner.name = "debugfs";
	return drmm_mutex_init(mdev->drm, &mdev->debugfs.lock);
}

/**
 * mpc_debugfs_init() - create the debugfs files of a DRM minor
 * @mdev: device.
 * @root: the minor's debugfs directory, which receives them (the host's
 *	DRM debugfs_init calls this, and its own files come from
 *	&mpc_host_ops.debugfs_init).
 */
void mpc_debugfs_init(struct mpc_device *mdev, struct dentry *root)
{
	debugfs_create_file("gpu_info", 0444, root, mdev, &mpc_gpu_info_fops);
	debugfs_create_file("perfcnt_enable", 0600, root, mdev, &mpc_enable_fops);
	debugfs_create_file("perfcnt_dump", 0400, root, mdev, &mpc_dump_fops);
	debugfs_create_file("perfcnt_counters", 0400, root, mdev, &mpc_counters_fops);
	debugfs_create_file("perfcnt_va", 0600, root, mdev, &mpc_va_fops);
	debugfs_create_file("perfcnt_stats", 0444, root, mdev, &mpc_stats_fops);
	debugfs_create_file("perfcnt_stream", 0400, root, mdev, &mpc_stream_debugfs_fops);
	if (mdev->host_ops->debugfs_init)
		mdev->host_ops->debugfs_init(mdev->host, root);
}
