// SPDX-License-Identifier: GPL-2.0
/*
 * panfrost as the host of the mali-perfcnt counter core.
 *
 * The core (mpc_*.c, the same source files mali_perfcnt.ko is built from)
 * programs the counter unit, accumulates every session's counters in 64
 * bits, and serves the sessions, the debugfs view and its uAPI handlers. It
 * reaches the GPU only through &struct mpc_host_ops (mpc_host.h), which
 * this file implements with what panfrost already has:
 *
 * - registers: panfrost's MMIO mapping;
 * - power: a runtime PM reference on the device while the core counts,
 *   shared with the job scheduler's; panfrost keeps the cores powered
 *   while the device is runtime-active, so there is nothing to power on;
 * - memory: the dump buffer is a kernel-owned BO in an MMU context of its
 *   own, which holds an address space through panfrost_mmu_as_get() while
 *   counting, as a job's context does: no address space is reserved;
 * - resets: the core's @reset is panfrost's own recovery (the reset work
 *   stops the schedulers, resets and resubmits), and a reset panfrost does
 *   for its own reasons (a job timeout) is passed to the core, which
 *   restarts its counters and flags the next sample AFTER_RECOVERY;
 * - one owner of the counter unit at a time: the core's sessions or
 *   panfrost_perfcnt.c (PERFCNT_ENABLE/DUMP and PERFCNT_SAMPLE); the other
 *   gets -EBUSY;
 * - who may open a session: the sysctl dev.panfrost.perf_stream_paranoid,
 *   as i915's dev.i915.perf_stream_paranoid (below).
 */

#include <linux/clk.h>
#include <linux/io.h>
#include <linux/iosys-map.h>
#include <linux/pm_runtime.h>
#include <linux/sysctl.h>
#include <linux/workqueue.h>

#include <drm/drm_drv.h>
#include <drm/drm_file.h>
#include <drm/drm_gem_shmem_helper.h>
#include <drm/drm_managed.h>
#include <drm/drm_print.h>
#include <drm/panfrost_drm.h>

#include "panfrost_device.h"
#include "panfrost_gem.h"
#include "panfrost_gpu.h" @6.12
#include "panfrost_mmu.h"
#include "panfrost_mpc.h"
#include "mpc_core.h"
#include "mpc_session.h"

/**
 * struct panfrost_mpc - panfrost's side of the counter core
 * @core: the core's device; its host context is this structure.
 * @pfdev: the device.
 * @owner_lock: protects @core_active and @legacy_active.
 * @core_active: the core owns the counter unit: from its @pm_get to its
 *	@pm_put. Read without the lock by the IRQ handlers.
 * @legacy_active: panfrost_perfcnt.c owns the counter unit.
 * @kpriv: the kernel's own "file": its MMU context (@kpriv.mmu) holds the
 *	dump buffer's mapping while the core counts.
 * @kfile: what panfrost_gem_open() and panfrost_gem_close() are given for
 *	@kpriv (they read only &drm_file.driver_priv).
 * @bo: the dump buffer, while the core has the counters enabled.
 * @mapping: its mapping in @kpriv.mmu.
 * @vaddr: its kernel mapping (write-combined, or coherent).
 * @as_lock: protects @as_held and @as (and @cc_held).
 * @as_held: the buffer's context holds an address space
 *	(panfrost_mmu_as_get()); a panfrost reset drops every one.
 * @as: that address space.
 * @core_reset: the reset running is the core's own (@reset), which restarts
 *	the counters itself.
 * @cc_held: the core holds a reference on panfrost's cycle counter (taken @6.12
 *	for the core's CYCLE_COUNT_START, dropped for its CYCLE_COUNT_STOP and @6.12
 *	before a reset), under @as_lock. @6.12
 * @reset_work: gives panfrost's own resets to the core
 *	(mpc_perfcnt_host_reset()), outside panfrost's reset path, which must
 *	not wait for the counter lock: a sample holding it may be waiting for
 *	that very reset.
 */
struct panfrost_mpc {
	struct mpc_device core;
	struct panfrost_device *pfdev;
	struct mutex owner_lock;	/* @core_active, @legacy_active */
	bool core_active;
	bool legacy_active;
	struct panfrost_file_priv kpriv;
	struct drm_file kfile;
	struct drm_gem_shmem_object *bo;
	struct panfrost_gem_mapping *mapping;
	void *vaddr;
	spinlock_t as_lock;		/* @as_held, @as, @cc_held */
	bool as_held;
	u32 as;
	bool core_reset;
	bool cc_held; @6.12
	struct work_struct reset_work;
};

/*
 * panfrost's gpu_read()/gpu_write(), spelled out: panfrost_regs.h and the
 * core's mpc_regs.h name the same registers, so one file includes one.
 */
static u32 panfrost_mpc_reg_read(void *host, u32 reg)
{
	struct panfrost_mpc *pm = host;

	return readl(pm->pfdev->iomem + reg);
}

/* @6.12
 * The cycle counter is shared with profiled jobs through panfrost's @6.12
 * reference count: the core's CYCLE_COUNT_START takes a reference once @6.12
 * (again after a reset dropped it, else only restarts the counter), its @6.12
 * CYCLE_COUNT_STOP drops it. @6.12
 */ @6.12
static void panfrost_mpc_cycle_counter(struct panfrost_mpc *pm, bool start) @6.12
{ @6.12
	struct panfrost_device *pfdev = pm->pfdev; @6.12
 @6.12
	spin_lock(&pm->as_lock); @6.12
	if (start && !pm->cc_held) @6.12
		panfrost_cycle_counter_get(pfdev); @6.12
	else if (start) @6.12
		writel(GPU_CMD_CYCLE_COUNT_START, pfdev->iomem + GPU_CMD); @6.12
	else if (pm->cc_held) @6.12
		panfrost_cycle_counter_put(pfdev); @6.12
	pm->cc_held = start; @6.12
	spin_unlock(&pm->as_lock); @6.12
} @6.12
 @6.12
static void panfrost_mpc_reg_write(void *host, u32 reg, u32 val)
{
	struct panfrost_mpc *pm = host;

	if (reg == GPU_CMD && @6.12
	    (val == GPU_CMD_CYCLE_COUNT_START || val == GPU_CMD_CYCLE_COUNT_STOP)) { @6.12
		panfrost_mpc_cycle_counter(pm, val == GPU_CMD_CYCLE_COUNT_START); @6.12
		return; @6.12
	} @6.12
	writel(val, pm->pfdev->iomem + reg);
}

/* panfrost's resets unmask the interrupts themselves */
static void panfrost_mpc_irq_enable(void *host)
{
}

static int panfrost_mpc_pm_get(void *host)
{
	struct panfrost_mpc *pm = host;
	int ret;

	mutex_lock(&pm->owner_lock);
	if (pm->legacy_active) {
		mutex_unlock(&pm->owner_lock);
		drm_dbg_driver(pm->pfdev->ddev,
			       "counters owned by PERFCNT_ENABLE/PERFCNT_SAMPLE\n");
		return -EBUSY;
	}
	WRITE_ONCE(pm->core_active, true);
	mutex_unlock(&pm->owner_lock);

	ret = pm_runtime_resume_and_get(pm->pfdev->dev);
	if (ret) {
		mutex_lock(&pm->owner_lock);
		WRITE_ONCE(pm->core_active, false);
		mutex_unlock(&pm->owner_lock);
	}
	return ret;
}

static void panfrost_mpc_pm_put(void *host)
{
	struct panfrost_mpc *pm = host;

	pm_runtime_mark_last_busy(pm->pfdev->dev);
	pm_runtime_put_autosuspend(pm->pfdev->dev);
	mutex_lock(&pm->owner_lock);
	WRITE_ONCE(pm->core_active, false);
	mutex_unlock(&pm->owner_lock);
}

/*
 * Sessions follow panfrost's runtime PM rather than hold the GPU up: it
 * suspends when no job needs it, after the core's last sample
 * (panfrost_mpc_runtime_suspend()), and the samples say it was off.
 */
static bool panfrost_mpc_power_follows(void *host)
{
	return true;
}

static void panfrost_mpc_pm_ref_put(void *host)
{
	struct panfrost_mpc *pm = host;

	pm_runtime_mark_last_busy(pm->pfdev->dev);
	pm_runtime_put_autosuspend(pm->pfdev->dev);
}

static void panfrost_mpc_pm_ref_get_noresume(void *host)
{
	struct panfrost_mpc *pm = host;

	pm_runtime_get_noresume(pm->pfdev->dev);
}

/* Runtime-active panfrost has every core powered (panfrost_gpu_power_on()) */
static int panfrost_mpc_power_on(void *host)
{
	return 0;
}

static int panfrost_mpc_power_off(void *host)
{
	return 0;
}

/*
 * The core's sample timed out or faulted: panfrost's recovery, as for a
 * hung job, which the core waits for. panfrost_mpc_reset_done() sees
 * @core_reset and leaves the restart to the core.
 */
static int panfrost_mpc_reset(void *host)
{
	struct panfrost_mpc *pm = host;

	WRITE_ONCE(pm->core_reset, true);
	panfrost_device_schedule_reset(pm->pfdev);
	flush_work(&pm->pfdev->reset.work);
	WRITE_ONCE(pm->core_reset, false);
	return MPC_RESET_SOFT;
}

static void panfrost_mpc_buf_release(struct panfrost_mpc *pm)
{
	struct iosys_map map = IOSYS_MAP_INIT_VADDR(pm->vaddr);

	if (pm->vaddr)
		drm_gem_shmem_vunmap(pm->bo, &map); @6.1
		drm_gem_vunmap_unlocked(&pm->bo->base, &map); @6.12
	pm->vaddr = NULL;
	if (pm->mapping)
		panfrost_gem_mapping_put(pm->mapping);
	pm->mapping = NULL;
	if (pm->bo) {
		panfrost_gem_close(&pm->bo->base, &pm->kfile);
		drm_gem_object_put(&pm->bo->base);
	}
	pm->bo = NULL;
	if (pm->kpriv.mmu)
		panfrost_mmu_ctx_put(pm->kpriv.mmu);
	pm->kpriv.mmu = NULL;
}

/* The core's VA is ignored: the buffer goes where the context's mm puts it */
static int panfrost_mpc_buf_alloc(void *host, size_t size, u64 gpu_va, void **vaddr)
{
	struct panfrost_mpc *pm = host;
	struct panfrost_device *pfdev = pm->pfdev;
	struct iosys_map map;
	int ret;

	pm->kpriv.mmu = panfrost_mmu_ctx_create(pfdev);
	if (IS_ERR(pm->kpriv.mmu)) {
		ret = PTR_ERR(pm->kpriv.mmu);
		pm->kpriv.mmu = NULL;
		return ret;
	}

	pm->bo = drm_gem_shmem_create(pfdev->ddev, size);
	if (IS_ERR(pm->bo)) {
		ret = PTR_ERR(pm->bo);
		pm->bo = NULL;
		goto err;
	}
	ret = panfrost_gem_open(&pm->bo->base, &pm->kfile);
	if (ret) {
		drm_gem_object_put(&pm->bo->base);
		pm->bo = NULL;
		goto err;
	}
	pm->mapping = panfrost_gem_mapping_get(to_panfrost_bo(&pm->bo->base), &pm->kpriv);
	if (!pm->mapping) {
		ret = -EINVAL;
		goto err;
	}
	ret = drm_gem_shmem_vmap(pm->bo, &map); @6.1
	ret = drm_gem_vmap_unlocked(&pm->bo->base, &map); @6.12
	if (ret)
		goto err;
	pm->vaddr = map.vaddr;
	*vaddr = pm->vaddr;
	return 0;

err:
	panfrost_mpc_buf_release(pm);
	return ret;
}

static unsigned int panfrost_mpc_buf_free(void *host, bool leak)
{
	struct panfrost_mpc *pm = host;

	/* The GPU answered no reset: it may still write the pages */
	if (leak)
		return pm->bo ? pm->bo->base.size >> PAGE_SHIFT : 0;
	panfrost_mpc_buf_release(pm);
	return 0;
}

/*
 * The buffer is mapped write-combined (or the GPU is coherent): the CPU
 * reads what the GPU's cache clean wrote back, with nothing to maintain.
 */
static void panfrost_mpc_buf_sync(void *host)
{
}

static int panfrost_mpc_va_check(void *host, u64 va, u64 size)
{
	return 0;
}

static int panfrost_mpc_counters_start(void *host, u64 *gpu_va, u32 *as)
{
	struct panfrost_mpc *pm = host;

	spin_lock(&pm->as_lock);
	if (!pm->as_held) {
		pm->as = panfrost_mmu_as_get(pm->pfdev, pm->mapping->mmu);
		pm->as_held = true;
	}
	*as = pm->as;
	spin_unlock(&pm->as_lock);
	*gpu_va = pm->mapping->mmnode.start << PAGE_SHIFT;
	return 0;
}

/* The address space goes back to panfrost; the close flushes the mapping */
static int panfrost_mpc_counters_stop(void *host)
{
	struct panfrost_mpc *pm = host;

	spin_lock(&pm->as_lock);
	if (pm->as_held)
		panfrost_mmu_as_put(pm->pfdev, pm->mapping->mmu);
	pm->as_held = false;
	spin_unlock(&pm->as_lock);
	return 0;
}

/*
 * Who may open a counter session, root's choice at run time, as i915's
 * dev.i915.perf_stream_paranoid: dev.panfrost.perf_stream_paranoid 1 (the
 * default) needs CAP_PERFMON, as panfrost_perfcnt.c's ioctls do; 0 lets any
 * user who can open the render node count (the counters show other
 * processes' GPU activity). dev.panfrost.session_min_period_unpriv_us is
 * the shortest session period a caller without CAP_PERFMON may ask for,
 * 100 us .. 1 s. One table for every panfrost device, registered at module
 * load (panfrost_mpc_policy_init()).
 */
static int panfrost_mpc_paranoid_val = 1;
static int panfrost_mpc_min_unpriv_us = 1000;
static int panfrost_mpc_min_us = 100;
static int panfrost_mpc_max_us = 1000000;
static struct ctl_table_header *panfrost_mpc_sysctl;
static struct ctl_table panfrost_mpc_sysctl_table[] = {
	{
		.procname = "perf_stream_paranoid",
		.data = &panfrost_mpc_paranoid_val,
		.maxlen = sizeof(panfrost_mpc_paranoid_val),
		.mode = 0644,
		.proc_handler = proc_dointvec_minmax,
		.extra1 = SYSCTL_ZERO,
		.extra2 = SYSCTL_ONE,
	},
	{
		.procname = "session_min_period_unpriv_us",
		.data = &panfrost_mpc_min_unpriv_us,
		.maxlen = sizeof(panfrost_mpc_min_unpriv_us),
		.mode = 0644,
		.proc_handler = proc_dointvec_minmax,
		.extra1 = &panfrost_mpc_min_us,
		.extra2 = &panfrost_mpc_max_us,
	},
	{ } @6.1
};

static bool panfrost_mpc_paranoid(void *host)
{
	return READ_ONCE(panfrost_mpc_paranoid_val);
}

static u64 panfrost_mpc_min_period_unpriv_ns(void *host)
{
	return (u64)READ_ONCE(panfrost_mpc_min_unpriv_us) * NSEC_PER_USEC;
}

/**
 * panfrost_mpc_policy_init() - register the counter access sysctls
 *
 * Once, at module load, before any device probes.
 *
 * Return: 0, or -ENOMEM.
 */
int panfrost_mpc_policy_init(void)
{
	panfrost_mpc_sysctl = register_sysctl("dev/panfrost", panfrost_mpc_sysctl_table);
	/* Without CONFIG_SYSCTL the policy stays at its default, CAP_PERFMON */
	if (IS_ENABLED(CONFIG_SYSCTL) && !panfrost_mpc_sysctl)
		return -ENOMEM;
	return 0;
}

/**
 * panfrost_mpc_policy_exit() - unregister them, at module unload
 */
void panfrost_mpc_policy_exit(void)
{
	unregister_sysctl_table(panfrost_mpc_sysctl);
}

static const struct mpc_host_ops panfrost_mpc_host_ops = {
	.reg_read = panfrost_mpc_reg_read,
	.reg_write = panfrost_mpc_reg_write,
	.irq_enable = panfrost_mpc_irq_enable,
	.pm_get = panfrost_mpc_pm_get,
	.pm_put = panfrost_mpc_pm_put,
	.power_follows = panfrost_mpc_power_follows,
	.pm_ref_put = panfrost_mpc_pm_ref_put,
	.pm_ref_get_noresume = panfrost_mpc_pm_ref_get_noresume,
	.power_on = panfrost_mpc_power_on,
	.power_off = panfrost_mpc_power_off,
	.reset = panfrost_mpc_reset,
	.buf_alloc = panfrost_mpc_buf_alloc,
	.buf_free = panfrost_mpc_buf_free,
	.buf_sync_for_device = panfrost_mpc_buf_sync,
	.buf_sync_for_cpu = panfrost_mpc_buf_sync,
	.va_check = panfrost_mpc_va_check,
	.counters_start = panfrost_mpc_counters_start,
	.counters_stop = panfrost_mpc_counters_stop,
	.paranoid = panfrost_mpc_paranoid,
	.min_period_unpriv_ns = panfrost_mpc_min_period_unpriv_ns,
};

static void panfrost_mpc_reset_work(struct work_struct *work)
{
	struct panfrost_mpc *pm = container_of(work, struct panfrost_mpc, reset_work);

	mpc_perfcnt_host_reset(&pm->core);
}

/**
 * panfrost_mpc_init() - host the counter core on a probed device
 * @pfdev: the device, its GPU initialised and powered.
 *
 * Before drm_dev_register(): the render node's ioctls and debugfs use it.
 * Everything is DRM-managed: it lives as long as the DRM device.
 *
 * Return: 0 or a negative errno.
 */
int panfrost_mpc_init(struct panfrost_device *pfdev)
{
	struct drm_device *ddev = pfdev->ddev;
	struct mpc_features *f;
	struct panfrost_mpc *pm;
	struct mpc_device *mdev;
	int ret;

	pm = drmm_kzalloc(ddev, sizeof(*pm), GFP_KERNEL);
	if (!pm)
		return -ENOMEM;
	ret = drmm_mutex_init(ddev, &pm->owner_lock);
	if (ret)
		return ret;
	spin_lock_init(&pm->as_lock);
	INIT_WORK(&pm->reset_work, panfrost_mpc_reset_work);
	pm->pfdev = pfdev;
	pm->kpriv.pfdev = pfdev;
	pm->kfile.driver_priv = &pm->kpriv;

	mdev = &pm->core;
	mdev->drm = ddev;
	mdev->dev = pfdev->dev;
	mdev->host_ops = &panfrost_mpc_host_ops;
	mdev->host = pm;
	f = &mdev->features;
	f->gpu_id = readl(pfdev->iomem + GPU_ID);
	f->l2_features = pfdev->features.l2_features;
	f->mem_features = pfdev->features.mem_features;
	f->mmu_features = pfdev->features.mmu_features;
	f->as_present = pfdev->features.as_present;
	f->coherency_features = pfdev->features.coherency_features;
	f->shader_present = pfdev->features.shader_present;
	f->tiler_present = pfdev->features.tiler_present;
	f->l2_present = pfdev->features.l2_present;
	f->product = mpc_product_lookup(f->gpu_id);
	f->hw_issue_8186 = mpc_has_hw_issue_8186(f->gpu_id);
	ret = mpc_layout_compute(&f->layout, f->product->v4_layout, f->shader_present,
				 f->l2_present, f->mem_features);
	if (ret)
		return ret;
	if (pfdev->clock)
		mdev->gpu_freq_hz = clk_get_rate(pfdev->clock);

	ret = mpc_perfcnt_init(mdev);
	if (ret)
		return ret;
	ret = mpc_stream_init(mdev);
	if (ret)
		return ret;
	ret = mpc_session_init(mdev);
	if (ret)
		return ret;
	ret = mpc_debugfs_setup(mdev);
	if (ret)
		return ret;
	/* The device's debugfs directory, which a render node's minor shares */ @6.12
	mpc_debugfs_init(mdev, ddev->debugfs_root); @6.12

	/* The IRQ hooks see the core from here on (their smp_load_acquire()) */
	smp_store_release(&pfdev->mpc, pm);
	return 0;
}

/**
 * panfrost_mpc_unplug() - the device is being unbound
 * @pfdev: the device, still powered.
 *
 * Whoever counts loses the counters (sessions get -ENODEV from here on),
 * before panfrost_remove()'s drm_dev_unplug(), which waits for the ioctls
 * and debugfs readers inside the device and unregisters it.
 */
void panfrost_mpc_unplug(struct panfrost_device *pfdev)
{
	struct panfrost_mpc *pm = pfdev->mpc;

	if (pm)
		mpc_perfcnt_release(&pm->core, NULL);
}

/**
 * panfrost_mpc_unplugged() - the device is unplugged (drm_dev_unplug())
 * @pfdev: the device, still powered.
 *
 * An enable that came in between panfrost_mpc_unplug() and the unplug is
 * released too; no reset notification is left pending.
 */
void panfrost_mpc_unplugged(struct panfrost_device *pfdev)
{
	struct panfrost_mpc *pm = pfdev->mpc;

	if (!pm)
		return;
	mpc_perfcnt_release(&pm->core, NULL);
	cancel_work_sync(&pm->reset_work);
}

/**
 * panfrost_mpc_irq_gen() - the core's reset generation, for the GPU IRQ
 * @pfdev: the device.
 *
 * Read before GPU_INT_STAT (see mpc_perfcnt_irq_gen()).
 *
 * Return: the generation, 0 before the core is set up.
 */
u32 panfrost_mpc_irq_gen(struct panfrost_device *pfdev)
{
	/* Pairs with smp_store_release() in panfrost_mpc_init() */
	struct panfrost_mpc *pm = smp_load_acquire(&pfdev->mpc);

	return pm ? mpc_perfcnt_irq_gen(&pm->core) : 0;
}

/**
 * panfrost_mpc_gpu_irq() - the GPU interrupt, while the core counts
 * @pfdev: the device.
 * @state: GPU_INT_STAT.
 * @gen: panfrost_mpc_irq_gen() before @state was read.
 *
 * The core clears and handles the counter interrupts (it issues the cache
 * clean of a sample itself), so panfrost_perfcnt.c's handlers must not run.
 *
 * Return: true when the interrupt was the core's (cleared and handled).
 */
bool panfrost_mpc_gpu_irq(struct panfrost_device *pfdev, u32 state, u32 gen)
{
	/* Pairs with smp_store_release() in panfrost_mpc_init() */
	struct panfrost_mpc *pm = smp_load_acquire(&pfdev->mpc);

	if (!pm || !READ_ONCE(pm->core_active))
		return false;
	writel(state, pfdev->iomem + GPU_INT_CLEAR);
	mpc_perfcnt_gpu_irq(&pm->core, state, gen);
	return true;
}

/**
 * panfrost_mpc_mmu_fault() - an MMU fault, from panfrost's MMU IRQ thread
 * @pfdev: the device.
 * @as: the address space that faulted.
 *
 * A fault in the dump buffer's address space ends the core's sample with
 * -ENXIO; the core then recovers through panfrost_mpc_reset().
 */
void panfrost_mpc_mmu_fault(struct panfrost_device *pfdev, u32 as)
{
	/* Pairs with smp_store_release() in panfrost_mpc_init() */
	struct panfrost_mpc *pm = smp_load_acquire(&pfdev->mpc);
	bool ours;

	if (!pm || !READ_ONCE(pm->core_active))
		return;
	spin_lock(&pm->as_lock);
	ours = pm->as_held && pm->as == as;
	spin_unlock(&pm->as_lock);
	if (ours)
		mpc_perfcnt_mmu_fault(&pm->core, mpc_perfcnt_irq_gen(&pm->core));
}

/** @6.12
 * panfrost_mpc_reset_prepare() - panfrost is about to reset the GPU @6.12
 * @pfdev: the device. @6.12
 * @6.12
 * The reset stops the cycle counter and expects no reference on it: the @6.12
 * core's is dropped, and taken again when the core restarts the counters. @6.12
 */ @6.12
void panfrost_mpc_reset_prepare(struct panfrost_device *pfdev) @6.12
{ @6.12
	struct panfrost_mpc *pm = pfdev->mpc; @6.12
 @6.12
	if (!pm) @6.12
		return; @6.12
	spin_lock(&pm->as_lock); @6.12
	if (pm->cc_held) @6.12
		panfrost_cycle_counter_put(pfdev); @6.12
	pm->cc_held = false; @6.12
	spin_unlock(&pm->as_lock); @6.12
} @6.12
 @6.12
/* A reset or resume released every address space, the core's too. */
static void panfrost_mpc_as_released(struct panfrost_mpc *pm)
{
	spin_lock(&pm->as_lock);
	pm->as_held = false;
	spin_unlock(&pm->as_lock);
}

/**
 * panfrost_mpc_reset_done() - panfrost reset the GPU (panfrost_reset())
 * @pfdev: the device, reset, its address spaces all released.
 *
 * A reset of panfrost's own (a job timeout) restarts the core's counters,
 * from a work item: the counter lock may be held by a sample waiting for
 * this reset to complete.
 */
void panfrost_mpc_reset_done(struct panfrost_device *pfdev)
{
	struct panfrost_mpc *pm = pfdev->mpc;

	if (!pm)
		return;
	panfrost_mpc_as_released(pm);
	if (!READ_ONCE(pm->core_reset) && READ_ONCE(pm->core_active))
		queue_work(system_wq, &pm->reset_work);
}

/**
 * panfrost_mpc_runtime_suspend() - runtime PM is about to power the GPU down
 * @pfdev: the device, idle, still powered, its interrupts on.
 *
 * Counting sessions take their last sample here and stop the counters.
 *
 * Return: 0, or -EBUSY while the counter core is in use: the suspend fails
 * and runtime PM tries again after the autosuspend delay.
 */
int panfrost_mpc_runtime_suspend(struct panfrost_device *pfdev)
{
	int ret;

	if (!pfdev->mpc)
		return 0;
	ret = mpc_perfcnt_power_down(&pfdev->mpc->core);
	if (ret)
		pm_runtime_mark_last_busy(pfdev->dev);
	return ret;
}

/**
 * panfrost_mpc_runtime_resume() - runtime PM powered the GPU up again
 * @pfdev: the device, reset (every address space released), its
 *	interrupts on.
 *
 * Counting sessions' counters are programmed again before any job runs.
 */
void panfrost_mpc_runtime_resume(struct panfrost_device *pfdev)
{
	struct panfrost_mpc *pm = pfdev->mpc;

	if (!pm)
		return;
	panfrost_mpc_as_released(pm);
	mpc_perfcnt_power_up(&pm->core);
}

/**
 * panfrost_mpc_suspend() - system sleep is about to take the GPU's power
 * @pfdev: the device.
 */
void panfrost_mpc_suspend(struct panfrost_device *pfdev)
{
	if (pfdev->mpc)
		mpc_perfcnt_suspend(&pfdev->mpc->core);
}

/**
 * panfrost_mpc_resume() - the GPU is back from system sleep
 * @pfdev: the device.
 * @err: the resume's result.
 *
 * The resume reset the GPU and released every address space.
 */
void panfrost_mpc_resume(struct panfrost_device *pfdev, int err)
{
	struct panfrost_mpc *pm = pfdev->mpc;

	if (!pm)
		return;
	panfrost_mpc_as_released(pm);
	mpc_perfcnt_resume(&pm->core, err);
}

/**
 * panfrost_mpc_legacy_get() - panfrost_perfcnt.c takes the counter unit
 * @pfdev: the device.
 *
 * Return: 0, or -EBUSY while the core's sessions count.
 */
int panfrost_mpc_legacy_get(struct panfrost_device *pfdev)
{
	struct panfrost_mpc *pm = pfdev->mpc;
	int ret = 0;

	mutex_lock(&pm->owner_lock);
	if (pm->core_active) {
		drm_dbg_driver(pfdev->ddev, "counters owned by a counter session\n");
		ret = -EBUSY;
	} else {
		pm->legacy_active = true;
	}
	mutex_unlock(&pm->owner_lock);
	return ret;
}

/**
 * panfrost_mpc_legacy_put() - panfrost_perfcnt.c gives the counter unit back
 * @pfdev: the device.
 */
void panfrost_mpc_legacy_put(struct panfrost_device *pfdev)
{
	struct panfrost_mpc *pm = pfdev->mpc;

	mutex_lock(&pm->owner_lock);
	pm->legacy_active = false;
	mutex_unlock(&pm->owner_lock);
}

/** @6.1
 * panfrost_mpc_debugfs_init() - the core's files in the minor's directory @6.1
 * @minor: the DRM minor. @6.1
 */ @6.1
void panfrost_mpc_debugfs_init(struct drm_minor *minor) @6.1
{ @6.1
	struct panfrost_device *pfdev = minor->dev->dev_private; @6.1
 @6.1
	if (pfdev->mpc) @6.1
		mpc_debugfs_init(&pfdev->mpc->core, minor->debugfs_root); @6.1
} @6.1
 @6.1
int panfrost_ioctl_perfcnt_query(struct drm_device *dev, void *data,
				 struct drm_file *file_priv)
{
	struct panfrost_device *pfdev = dev->dev_private;

	return mpc_ioctl_get_info_v3(&pfdev->mpc->core, NULL, data);
}

int panfrost_ioctl_perfcnt_session_open(struct drm_device *dev, void *data,
					struct drm_file *file_priv)
{
	struct panfrost_device *pfdev = dev->dev_private;

	return mpc_ioctl_session_open(&pfdev->mpc->core, NULL, data);
}
