// SPDX-License-Identifier: GPL-2.0-only
/*
 * mali_perfcnt: mali_perfcnt.ko as the host of the counter core.
 *
 * The core (kernel/core/) programs the counter unit and serves the uAPI; it
 * reaches the GPU only through mpc_host_ops (kernel/core/mpc_host.h). This
 * driver owns the whole GPU, so its host gives the core everything: the
 * registers (MMIO or the simulator, struct mpc_io), runtime PM, the cores'
 * power (mpc_gpu.c), the reset ladder (mpc_gpu.c, mpc_soc.c), address
 * space MPC_PERFCNT_AS with its translation tables (mpc_mmu.c), the dump
 * buffer (below) and the counter access policy (the sysctl below).
 *
 * The dump buffer is one mechanism of the DMA API, non-coherent memory:
 * dma_alloc_noncoherent(), read through its cached kernel mapping,
 * dma_sync_single_for_device() before each PERFCNT_SAMPLE and
 * dma_sync_single_for_cpu() once the dump is in memory (see mpc_perfcnt.c
 * for why).
 */
#include <linux/capability.h>
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/dma-mapping.h>
#include <linux/module.h>
#include <linux/pm_runtime.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/sysctl.h>
#include <linux/uaccess.h>
#include <drm/drm_drv.h>

#include "mpc_compat.h"
#include "mpc_drv.h"
#include "mpc_soc.h"

/*
 * Who may take the counters is the host's policy (&mpc_host_ops.paranoid),
 * set by root at run time through the sysctl
 * dev.mali_perfcnt.perf_stream_paranoid, as i915 and xe do with
 * dev.i915.perf_stream_paranoid: 1 (the default), the counters need
 * CAP_PERFMON; 0, any user who can open the render node may take them. The
 * load-time parameter unprivileged=1 starts it at 0 (deprecated: the sysctl
 * is the interface); it is read-only, so no writable module parameter holds
 * a security policy.
 */
static bool mpc_unprivileged;
module_param_named(unprivileged, mpc_unprivileged, bool, 0444);
MODULE_PARM_DESC(unprivileged,
		 "Deprecated: start sysctl dev.mali_perfcnt.perf_stream_paranoid at 0 (users without CAP_PERFMON may read the counters, which reveal other processes' GPU activity)");

static int mpc_paranoid = 1;
/*
 * dev.mali_perfcnt.session_min_period_unpriv_us: the shortest session
 * period a caller without CAP_PERFMON may ask for
 * (&mpc_host_ops.min_period_unpriv_ns), 100 us .. 1 s.
 */
static int mpc_session_min_unpriv_us = 1000;
static int mpc_session_min_us = 100;
static int mpc_session_max_us = 1000000;
static struct ctl_table_header *mpc_sysctl_header;
static struct ctl_table mpc_sysctl_table[] = {
	{
		.procname = "perf_stream_paranoid",
		.data = &mpc_paranoid,
		.maxlen = sizeof(mpc_paranoid),
		.mode = 0644,
		.proc_handler = proc_dointvec_minmax,
		.extra1 = SYSCTL_ZERO,
		.extra2 = SYSCTL_ONE,
	},
	{
		.procname = "session_min_period_unpriv_us",
		.data = &mpc_session_min_unpriv_us,
		.maxlen = sizeof(mpc_session_min_unpriv_us),
		.mode = 0644,
		.proc_handler = proc_dointvec_minmax,
		.extra1 = &mpc_session_min_us,
		.extra2 = &mpc_session_max_us,
	},
	MPC_SYSCTL_TABLE_END
};

/**
 * mpc_host_policy_init() - register the counter access sysctl
 *
 * Called once at module load, before any device probes.
 *
 * Return: 0 or -ENOMEM.
 */
int mpc_host_policy_init(void)
{
	if (mpc_unprivileged)
		mpc_paranoid = 0;
	mpc_sysctl_header = register_sysctl("dev/mali_perfcnt", mpc_sysctl_table);
	return mpc_sysctl_header ? 0 : -ENOMEM;
}

/** mpc_host_policy_exit() - unregister it, at module unload */
void mpc_host_policy_exit(void)
{
	unregister_sysctl_table(mpc_sysctl_header);
}

static bool mpc_host_paranoid(void *host)
{
	return READ_ONCE(mpc_paranoid);
}

static u64 mpc_host_min_period_unpriv_ns(void *host)
{
	return (u64)READ_ONCE(mpc_session_min_unpriv_us) * NSEC_PER_USEC;
}

#ifdef MPC_SIM
/* Test hook of simulator builds only; see mpc_stream_open_test_delay() */
static unsigned int mpc_test_open_delay_ms;
module_param_named(test_stream_open_delay_ms, mpc_test_open_delay_ms, uint, 0600);
MODULE_PARM_DESC(test_stream_open_delay_ms,
		 "Test hook (simulator builds): STREAM_OPEN waits this long before it installs the fd");

static unsigned int mpc_host_open_delay(void *host)
{
	return READ_ONCE(mpc_test_open_delay_ms);
}
#endif

static size_t mpc_dump_buf_size(const struct mpc_dump_buf *buf)
{
	return (size_t)buf->nr_pages * PAGE_SIZE;
}

/* The CPU-side bookkeeping of @buf, once its memory was freed or leaked. */
static void mpc_dump_buf_forget(struct mpc_hdev *mdev, struct mpc_dump_buf *buf)
{
	if (buf->dma)
		mpc_track_free(&mdev->core, 0);
	kfree(buf->dma);
	buf->dma = NULL;
	buf->vaddr = NULL;
	buf->nr_pages = 0;
	buf->mapped = false;
}

static void mpc_dump_buf_free(struct mpc_hdev *mdev, struct mpc_dump_buf *buf)
{
	mpc_vm_free(mdev, &buf->vm);
	if (buf->vaddr) {
		dma_free_noncoherent(mdev->dev, mpc_dump_buf_size(buf), buf->vaddr,
				     buf->dma_base, DMA_FROM_DEVICE);
		mpc_track_free(&mdev->core, mpc_dump_buf_size(buf));
	}
	mpc_dump_buf_forget(mdev, buf);
}

/*
 * The GPU answered no reset: it may still write the dump pages and walk the
 * tables (a sample or dirty L2 lines in flight). Never give them back to the
 * page allocator; leak them, DMA allocation included. Only the CPU-side
 * bookkeeping (the address array) is freed. Return: the pages leaked, for
 * the core's count.
 */
static unsigned int mpc_dump_buf_leak(struct mpc_hdev *mdev, struct mpc_dump_buf *buf)
{
	unsigned int n;

	n = mpc_vm_leak(mdev, &buf->vm);
	if (buf->vaddr) {
		/* Never dma_free_noncoherent()'d: the allocation stays */
		mpc_track_free(&mdev->core, mpc_dump_buf_size(buf));
		n += buf->nr_pages;
	}
	mpc_dump_buf_forget(mdev, buf);
	return n;
}

static int __must_check mpc_dump_buf_alloc(struct mpc_hdev *mdev, struct mpc_dump_buf *buf,
					   size_t size, u64 gpu_va)
{
	unsigned int i, n = DIV_ROUND_UP(size, PAGE_SIZE);
	int ret = -ENOMEM;

	buf->dma = kcalloc(n, sizeof(*buf->dma), GFP_KERNEL);
	if (!buf->dma)
		return -ENOMEM;
	mpc_track_alloc(&mdev->core, 0);

	/* Zeroed through the cached mapping: the first for_device cleans it */
	buf->vaddr = dma_alloc_noncoherent(mdev->dev, (size_t)n * PAGE_SIZE, &buf->dma_base,
					   DMA_FROM_DEVICE, GFP_KERNEL);
	if (!buf->vaddr)
		goto err;
	buf->nr_pages = n;
	mpc_track_alloc(&mdev->core, mpc_dump_buf_size(buf));
	/*
	 * Never true for memory that was allocated, but DMA-API debugging
	 * before 6.4 records dma_alloc_pages() as a streaming mapping and
	 * warns at the free that its error was not checked.
	 */
	if (dma_mapping_error(mdev->dev, buf->dma_base))
		goto err;
	for (i = 0; i < n; i++)
		buf->dma[i] = buf->dma_base + (dma_addr_t)i * PAGE_SIZE;

	buf->gpu_va = gpu_va;
	ret = mpc_vm_init(mdev, &buf->vm);
	if (ret)
		goto err;
	ret = mpc_vm_map(mdev, &buf->vm, gpu_va, buf->dma, n);
	if (ret)
		goto err;
	buf->mapped = true;
	return 0;

err:
	mpc_dump_buf_free(mdev, buf);
	return ret;
}

static u32 mpc_host_reg_read(void *host, u32 reg)
{
	return gpu_read(host, reg);
}

static void mpc_host_reg_write(void *host, u32 reg, u32 val)
{
	gpu_write(host, reg, val);
}

static void mpc_host_irq_enable(void *host)
{
	mpc_gpu_irq_mask_set(host);
}

static int mpc_host_pm_get(void *host)
{
	struct mpc_hdev *mdev = host;

	return pm_runtime_resume_and_get(mdev->dev);
}

static void mpc_host_pm_put(void *host)
{
	struct mpc_hdev *mdev = host;

	pm_runtime_mark_last_busy(mdev->dev);
	pm_runtime_put_autosuspend(mdev->dev);
}

/*
 * Sessions follow the GPU's runtime power only when asked (debugfs
 * power_policy): this driver runs no jobs, so nothing else keeps a GPU
 * awake that a bring-up engineer is measuring; by default the counters do.
 */
static bool mpc_host_power_follows(void *host)
{
	struct mpc_hdev *mdev = host;

	return READ_ONCE(mdev->power_follows);
}

static void mpc_host_pm_ref_get_noresume(void *host)
{
	struct mpc_hdev *mdev = host;

	pm_runtime_get_noresume(mdev->dev);
}

static int mpc_host_power_on(void *host)
{
	return mpc_gpu_power_on(host);
}

static int mpc_host_power_off(void *host)
{
	return mpc_gpu_power_off(host);
}

static int mpc_host_reset(void *host)
{
	return mpc_gpu_reset(host);
}

static int mpc_host_buf_alloc(void *host, size_t size, u64 gpu_va, void **vaddr)
{
	struct mpc_hdev *mdev = host;
	int ret;

	ret = mpc_dump_buf_alloc(mdev, &mdev->buf, size, gpu_va);
	*vaddr = ret ? NULL : mdev->buf.vaddr;
	return ret;
}

static unsigned int mpc_host_buf_free(void *host, bool leak)
{
	struct mpc_hdev *mdev = host;

	if (leak)
		return mpc_dump_buf_leak(mdev, &mdev->buf);
	mpc_dump_buf_free(mdev, &mdev->buf);
	return 0;
}

static void mpc_host_buf_sync_for_device(void *host)
{
	struct mpc_hdev *mdev = host;

	dma_sync_single_for_device(mdev->dev, mdev->buf.dma_base,
				   mpc_dump_buf_size(&mdev->buf), DMA_FROM_DEVICE);
}

static void mpc_host_buf_sync_for_cpu(void *host)
{
	struct mpc_hdev *mdev = host;

	dma_sync_single_for_cpu(mdev->dev, mdev->buf.dma_base,
				mpc_dump_buf_size(&mdev->buf), DMA_FROM_DEVICE);
}

static int mpc_host_va_check(void *host, u64 va, u64 size)
{
	return mpc_vm_check_range(host, va, size);
}

/* Restore the translation a test hook or a reset removed, then the AS */
static int mpc_host_counters_start(void *host, u64 *gpu_va, u32 *as)
{
	struct mpc_hdev *mdev = host;
	struct mpc_dump_buf *buf = &mdev->buf;
	int ret;

	if (!buf->mapped) {
		ret = mpc_vm_map(mdev, &buf->vm, buf->gpu_va, buf->dma, buf->nr_pages);
		if (ret)
			return ret;
		buf->mapped = true;
	}
	ret = mpc_mmu_as_enable(mdev, &buf->vm);
	if (ret)
		return ret;
	*gpu_va = buf->gpu_va;
	*as = MPC_PERFCNT_AS;
	return 0;
}

static int mpc_host_counters_stop(void *host)
{
	return mpc_mmu_as_disable(host);
}

static int mpc_host_buf_unmap(void *host)
{
	struct mpc_hdev *mdev = host;
	struct mpc_dump_buf *buf = &mdev->buf;

	if (!buf->mapped)
		return 0;
	mpc_vm_unmap(mdev, &buf->vm, buf->gpu_va, buf->nr_pages);
	buf->mapped = false;
	return mpc_mmu_flush(mdev, buf->gpu_va, (u64)buf->nr_pages * PAGE_SIZE,
			     AS_COMMAND_FLUSH_PT);
}

#ifdef MPC_SIM
/*
 * debugfs host_reset, a test hook of simulator builds: reset the GPU as a
 * render driver that hosts the core does for its own reasons (a job
 * timeout), behind the core's back, then give the core the reset
 * notification (mpc_perfcnt_host_reset()), which restarts enabled
 * counters. Any write does it.
 */
static ssize_t mpc_host_reset_write(struct file *file, const char __user *ubuf,
				    size_t count, loff_t *ppos)
{
	struct mpc_hdev *mdev = file->private_data;
	int ret, idx;

	if (!drm_dev_enter(&mdev->drm, &idx))
		return -ENODEV;
	ret = pm_runtime_resume_and_get(mdev->dev);
	if (ret)
		goto out;
	ret = mpc_gpu_reset(mdev);
	if (ret >= 0) {
		mpc_gpu_irq_mask_set(mdev);
		ret = 0;
	}
	mpc_perfcnt_host_reset(&mdev->core);
	mpc_host_pm_put(mdev);
out:
	drm_dev_exit(idx);
	return ret ?: count;
}

static const struct file_operations mpc_host_reset_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.write = mpc_host_reset_write,
	.llseek = noop_llseek,
};

#endif

/*
 * debugfs power_policy: "always_on" (the default: enabled counters keep
 * the GPU runtime-active and its cores powered) or "follow" (sessions hold
 * no power: the GPU suspends when nothing else keeps it awake, and their
 * samples say which blocks were powered). Read at every enable.
 */
static int mpc_host_power_policy_show(struct seq_file *m, void *unused)
{
	struct mpc_hdev *mdev = m->private;

	seq_puts(m, READ_ONCE(mdev->power_follows) ? "follow\n" : "always_on\n");
	return 0;
}

static int mpc_host_power_policy_open(struct inode *inode, struct file *file)
{
	return single_open(file, mpc_host_power_policy_show, inode->i_private);
}

static ssize_t mpc_host_power_policy_write(struct file *file, const char __user *ubuf,
					   size_t count, loff_t *ppos)
{
	struct mpc_hdev *mdev = ((struct seq_file *)file->private_data)->private;
	char buf[16];

	if (count >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	buf[count] = '\0';
	if (sysfs_streq(buf, "follow")) {
		WRITE_ONCE(mdev->power_follows, true);
	} else if (sysfs_streq(buf, "always_on")) {
		WRITE_ONCE(mdev->power_follows, false);
	} else {
		drm_dbg_driver(&mdev->drm, "power_policy: \"%s\": write follow or always_on\n",
			       strim(buf));
		return -EINVAL;
	}
	return count;
}

static const struct file_operations mpc_host_power_policy_fops = {
	.owner = THIS_MODULE,
	.open = mpc_host_power_policy_open,
	.read = seq_read,
	.write = mpc_host_power_policy_write,
	.llseek = seq_lseek,
	.release = single_release,
};

static void mpc_host_debugfs_init(void *host, struct dentry *root)
{
	struct mpc_hdev *mdev = host;

	debugfs_create_file("power_policy", 0600, root, mdev, &mpc_host_power_policy_fops);
#ifdef MPC_SIM
	if (!mdev->sim)
		return;
	mpc_sim_debugfs_init(mdev->sim, root);
	debugfs_create_file("host_reset", 0200, root, mdev, &mpc_host_reset_fops);
#endif
}

static void mpc_host_debugfs_show(void *host, struct seq_file *m, enum mpc_host_info what)
{
	struct mpc_hdev *mdev = host;

	switch (what) {
	case MPC_HOST_INFO_PLATFORM:
		seq_printf(m, "simulated: %d\n", !!mdev->sim);
		seq_printf(m, "soc: %s\n", mdev->soc_compatible);
		seq_printf(m, "soc_power_down: %s\n", mpc_soc_down_text(mdev));
		break;
	case MPC_HOST_INFO_MMU:
		seq_printf(m, "pgtable: %s\n", mpc_vm_backend_name(mdev));
		seq_printf(m, "va_bits: %u\n", mpc_mmu_va_bits(mdev));
		break;
	}
}

/* What the counter core (kernel/core/) calls of mali_perfcnt.ko */
const struct mpc_host_ops mpc_host_ops = {
	.reg_read = mpc_host_reg_read,
	.reg_write = mpc_host_reg_write,
	.irq_enable = mpc_host_irq_enable,
	.pm_get = mpc_host_pm_get,
	.pm_put = mpc_host_pm_put,
	.power_follows = mpc_host_power_follows,
	.pm_ref_put = mpc_host_pm_put,
	.pm_ref_get_noresume = mpc_host_pm_ref_get_noresume,
	.power_on = mpc_host_power_on,
	.power_off = mpc_host_power_off,
	.reset = mpc_host_reset,
	.buf_alloc = mpc_host_buf_alloc,
	.buf_free = mpc_host_buf_free,
	.buf_sync_for_device = mpc_host_buf_sync_for_device,
	.buf_sync_for_cpu = mpc_host_buf_sync_for_cpu,
	.va_check = mpc_host_va_check,
	.counters_start = mpc_host_counters_start,
	.counters_stop = mpc_host_counters_stop,
	.buf_unmap = mpc_host_buf_unmap,
	.paranoid = mpc_host_paranoid,
	.min_period_unpriv_ns = mpc_host_min_period_unpriv_ns,
#ifdef MPC_SIM
	.open_delay = mpc_host_open_delay,
#endif
	.debugfs_init = mpc_host_debugfs_init,
	.debugfs_show = mpc_host_debugfs_show,
};
