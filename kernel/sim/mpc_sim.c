// SPDX-License-Identifier: GPL-2.0-only
/*
 * The simulated Mali GPU: the in-module host of the portable GPU model
 * (model/mali_model.c), which holds all of the GPU's behaviour.
 *
 * This file only gives the model what a bus gives a device: register access
 * (struct mpc_io, the same two calls MMIO uses), interrupt lines (real Linux
 * IRQs from a small IRQ domain of its own), one-shot timers (hrtimers), a
 * clock (CLOCK_MONOTONIC_RAW) and memory by physical address. The model never
 * sees a CPU pointer of the driver: it walks the driver's translation tables
 * and writes dumps through physical addresses only.
 *
 * The bus is a non-coherent one (see "the bus" below): the driver's DMA API
 * calls decide what the model reads and what the CPU sees of its writes.
 */
#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/dma-map-ops.h>
#include <linux/dma-mapping.h>
#include <linux/highmem.h>
#include <linux/hrtimer.h>
#include <linux/interrupt.h>
#include <linux/irq.h>
#include <linux/irq_work.h>
#include <linux/irqdomain.h>
#include <linux/list.h>
#include <linux/mm.h>
#include <linux/platform_device.h>
#include <linux/pm.h>
#include <linux/pm_domain.h>
#include <linux/pm_runtime.h>
#include <linux/slab.h>
#include <linux/workqueue.h>
#include <linux/spinlock.h>
#include <linux/timekeeping.h>
#include <linux/uaccess.h>

#include "mpc_drv.h"
#include "mali_model.h"

static const char * const sim_line_names[MALI_MODEL_NR_IRQS] = {
	[MALI_MODEL_IRQ_JOB] = "job",
	[MALI_MODEL_IRQ_MMU] = "mmu",
	[MALI_MODEL_IRQ_GPU] = "gpu",
};

/**
 * struct sim_line_work - delivers one interrupt line from hard IRQ context
 * @work: queued when the line is asserted.
 * @sim: owner.
 * @line: &enum mali_model_irq.
 * @late: delivers the line from process context (fault late_irq).
 * @late_busy: @late is queued or running.
 * @busy: a CPU is delivering this line now.
 * @again: the line was raised again while it was being delivered.
 */
struct sim_line_work {
	struct irq_work work;
	struct work_struct late;
	atomic_t late_busy;
	struct mpc_sim *sim;
	unsigned int line;
	atomic_t busy;
	atomic_t again;
};

/**
 * struct sim_timer - one of the model's one-shot timers
 * @timer: the hrtimer.
 * @sim: owner.
 * @id: &enum mali_model_timer.
 */
struct sim_timer {
	struct hrtimer timer;
	struct mpc_sim *sim;
	unsigned int id;
};

/**
 * struct mpc_sim - one simulated GPU
 * @domain: IRQ domain of the interrupt lines.
 * @lines: per-line delivery work.
 * @timers: the model's timers.
 * @lock: see below.
 * @dead: mpc_sim_destroy() began: timer callbacks leave the model alone.
 * @late_task: the task delivering a line for late_irq, or NULL.
 * @powered: the driver's power-ups not yet matched by a power-down, as a
 *	regulator's enable count; checked at mpc_sim_destroy().
 * @model: the GPU model, mali_model_size() bytes.
 * @dma_model: the device's DMA goes through sim_dma_ops (set at probe,
 *	before debugfs is created).
 * @dma_ranges: the live &struct sim_dma_range of the DMA model.
 * @dma_syncs: dma_sync_single_for_{device,cpu}() calls on tracked ranges.
 * @dma_errors: DMA API errors of the driver the DMA model found.
 */
struct mpc_sim {
	struct irq_domain *domain;
	struct sim_line_work lines[MALI_MODEL_NR_IRQS];
	struct sim_timer timers[MALI_MODEL_NR_TIMERS];
	/*
	 * Protects @model, @dead and the DMA model (@dma_ranges, each
	 * range's shadow and ownership, @dma_syncs, @dma_errors). The model
	 * has no lock of its own: every call into it (register accesses,
	 * timer callbacks, debugfs) is made with this lock held and IRQs off,
	 * and its host ops run under it; so the bus sees each DMA API call
	 * as one step between two device accesses.
	 */
	spinlock_t lock;
	bool dead;
	struct task_struct *late_task;
	atomic_t powered;
	struct mali_model *model;
	bool dma_model;
	struct list_head dma_ranges;
	u64 dma_syncs;
	u64 dma_errors;
};

/* ---- interrupt lines ---------------------------------------------------- */

/*
 * The flow handler drops an interrupt that arrives while the same IRQ's
 * handler runs on another CPU; a level-triggered line on real hardware is
 * never lost that way. So one CPU at a time delivers a line, and an
 * assertion that arrives meanwhile makes it deliver once more.
 */
static void sim_line_deliver(struct sim_line_work *lw)
{
	atomic_set(&lw->again, 1);
	if (atomic_xchg(&lw->busy, 1))
		return;
	while (atomic_xchg(&lw->again, 0))
		generic_handle_domain_irq(lw->sim->domain, lw->line);
	atomic_xchg(&lw->busy, 0);
	if (atomic_read(&lw->again))
		irq_work_queue(&lw->work);
}

static void sim_line_work_fn(struct irq_work *work)
{
	sim_line_deliver(container_of(work, struct sim_line_work, work));
}

/*
 * late_irq: the handler is to be held up between reading the status and
 * acting on it, for longer than the driver's timeouts. Held up in hard IRQ
 * context it would also hold up that CPU's tick (and jiffies, when the CPU
 * keeps them), so the line is delivered from a work item instead, with
 * IRQs off as in an interrupt, and sim_stall() sleeps with them on. The
 * handler is still in progress for the IRQ core (synchronize_irq() waits
 * for it, spinning), and the line is still delivered by one CPU at a
 * time. Unbound, so that a CPU spinning in synchronize_irq() does not keep
 * the work from running: late_irq needs a second CPU, as a handler stuck
 * in hard IRQ context on one CPU would.
 */
static void sim_line_late_fn(struct work_struct *work)
{
	struct sim_line_work *lw = container_of(work, struct sim_line_work, late);

	WRITE_ONCE(lw->sim->late_task, current);
	local_irq_disable();
	sim_line_deliver(lw);
	local_irq_enable();
	WRITE_ONCE(lw->sim->late_task, NULL);
	atomic_set(&lw->late_busy, 0);
}

static int sim_irq_map(struct irq_domain *d, unsigned int virq, irq_hw_number_t hw)
{
	irq_set_chip_and_handler(virq, &dummy_irq_chip, handle_simple_irq);
	irq_set_chip_data(virq, d->host_data);
	return 0;
}

static const struct irq_domain_ops sim_irq_ops = {
	.map = sim_irq_map,
};

/**
 * mpc_sim_irq() - Linux IRQ number of one of the simulated GPU's lines
 * @sim: simulator.
 * @name: "job", "mmu" or "gpu", as in a Mali device-tree node.
 *
 * Return: the IRQ number, or a negative errno.
 */
int mpc_sim_irq(struct mpc_sim *sim, const char *name)
{
	unsigned int i, virq;

	for (i = 0; i < MALI_MODEL_NR_IRQS; i++) {
		if (strcmp(name, sim_line_names[i]))
			continue;
		virq = irq_create_mapping(sim->domain, i);
		return virq ? virq : -ENXIO;
	}
	return -EINVAL;
}

/* ---- the bus: a non-coherent DMA model ---------------------------------- */

/*
 * What the simulated GPU sees of memory, as a non-coherent integration
 * (no dma-coherent, the simulator's only kind) gives it, through the
 * device's own dma_map_ops: each streaming mapping and each non-coherent
 * allocation gets a shadow, the memory as the device sees it, and the
 * model's reads and writes inside such a range go to the shadow; outside
 * all of them they go to the page (kmap, as before). DMA addresses stay the
 * CPU's physical addresses, as dma-direct gives them without an IOMMU (the
 * driver's page tables and io-pgtable-arm rely on it).
 *
 * Ownership as the DMA API defines it: dma_map_page() and
 * dma_sync_single_for_device() give a range to the device and copy the
 * CPU's view into the shadow (a cache clean, which arm64 does for every
 * direction); dma_sync_single_for_cpu() and dma_unmap_page() give it back
 * and, unless the direction is DMA_TO_DEVICE, copy the shadow to the page
 * (an invalidate). A non-coherent allocation starts out the CPU's, its
 * shadow holding not the zeroing but garbage, as DRAM behind a CPU cache
 * would. A device access to a range the CPU owns is a driver error: it is
 * counted in sim_reports and logged once per range and ownership, and a
 * write still lands in the shadow, as on hardware, so a driver that never
 * syncs for the CPU reads what the page held before.
 *
 * This is stricter than hardware, on purpose: real caches are stale only
 * sometimes (when a line is still held or was fetched again), the model
 * always, so a missing or misplaced dma_sync fails every time.
 */

/**
 * struct sim_dma_range - one streaming mapping or non-coherent allocation
 * @node: in &mpc_sim.dma_ranges.
 * @start: DMA address, the physical address of the CPU's memory.
 * @len: bytes.
 * @page: the first page of an allocation (dma_alloc_pages()), NULL for a
 *	streaming mapping.
 * @device_owns: the device owns the range (last map or sync_for_device),
 *	else the CPU (allocation or sync_for_cpu).
 * @since: the call that last gave the range to the CPU, for the report.
 * @reported: a device access since then was reported.
 * @shadow: the memory as the device sees it, @len bytes.
 */
struct sim_dma_range {
	struct list_head node;
	phys_addr_t start;
	size_t len;
	struct page *page;
	bool device_owns;
	const char *since;
	bool reported;
	u8 shadow[];
};

/* Copy between @buf and physical memory, page by page, through kmap. */
static int sim_phys_access(phys_addr_t pa, void *buf, size_t len, bool write)
{
	while (len) {
		unsigned long pfn = PHYS_PFN(pa);
		size_t off = offset_in_page(pa);
		size_t n = min_t(size_t, len, PAGE_SIZE - off);
		void *va;

		if (!pfn_valid(pfn))
			return -EFAULT;
		va = kmap_local_page(pfn_to_page(pfn));
		if (write)
			memcpy(va + off, buf, n);
		else
			memcpy(buf, va + off, n);
		kunmap_local(va);
		pa += n;
		buf += n;
		len -= n;
	}
	return 0;
}

/*
 * The tracked range that holds @pa, or NULL; *@n is cut so that
 * [@pa, @pa + *@n) stays inside that range, or outside all of them.
 */
static struct sim_dma_range *sim_dma_find_locked(struct mpc_sim *sim, phys_addr_t pa,
						 size_t *n)
{
	struct sim_dma_range *r;

	lockdep_assert_held(&sim->lock);
	list_for_each_entry(r, &sim->dma_ranges, node) {
		if (pa >= r->start && pa - r->start < r->len) {
			*n = min_t(size_t, *n, r->len - (pa - r->start));
			return r;
		}
		if (r->start > pa && r->start - pa < *n)
			*n = r->start - pa;
	}
	return NULL;
}

/* The device reads or writes [@pa, @pa + @n) of @r. */
static void sim_dma_device_access_locked(struct mpc_sim *sim, struct sim_dma_range *r,
					 phys_addr_t pa, void *buf, size_t n, bool write)
{
	u8 *shadow = r->shadow + (pa - r->start);

	lockdep_assert_held(&sim->lock);
	if (!r->device_owns && !r->reported) {
		r->reported = true;
		sim->dma_errors++;
		pr_err("mali_model: driver error: DMA: device %s %pa+%#zx of DMA range %pa+%#zx owned by the CPU: no dma_sync_single_for_device() since %s\n",
		       write ? "wrote" : "read", &pa, n, &r->start, r->len, r->since);
	}
	if (write)
		memcpy(shadow, buf, n);
	else
		memcpy(buf, shadow, n);
}

/* Copy between @buf and memory as a bus master: the shadows, or the pages. */
static int sim_mem_access(struct mpc_sim *sim, phys_addr_t pa, void *buf, size_t len,
			  bool write)
{
	lockdep_assert_held(&sim->lock);
	while (len) {
		size_t n = len;
		struct sim_dma_range *r = sim_dma_find_locked(sim, pa, &n);

		if (r)
			sim_dma_device_access_locked(sim, r, pa, buf, n, write);
		else if (sim_phys_access(pa, buf, n, write))
			return -EFAULT;
		pa += n;
		buf += n;
		len -= n;
	}
	return 0;
}

static struct mpc_sim *sim_of(struct device *dev)
{
	return *(struct mpc_sim **)dev_get_platdata(dev);
}

#if IS_ENABLED(CONFIG_DMA_OPS) || IS_ENABLED(CONFIG_ARCH_HAS_DMA_OPS)
/* The range that holds all of [@addr, @addr + @size), or NULL. */
static struct sim_dma_range *sim_dma_lookup_locked(struct mpc_sim *sim, dma_addr_t addr,
						   size_t size)
{
	struct sim_dma_range *r;

	lockdep_assert_held(&sim->lock);
	list_for_each_entry(r, &sim->dma_ranges, node)
		if (addr >= r->start && addr - r->start <= r->len &&
		    size <= r->len - (addr - r->start))
			return r;
	return NULL;
}

/* A DMA API call the model cannot match to a range: a driver error. */
static void sim_dma_bad_locked(struct mpc_sim *sim, const char *call, dma_addr_t addr,
			       size_t size)
{
	lockdep_assert_held(&sim->lock);
	sim->dma_errors++;
	pr_err("mali_model: driver error: DMA: %s of %pad+%#zx, which is not mapped or allocated\n",
	       call, &addr, size);
}

/*
 * Hand [@addr, @addr + @size) of @r to the device (a clean) or to the CPU
 * (an invalidate; @call gave it back, for a later report).
 */
static void sim_dma_give_locked(struct sim_dma_range *r, dma_addr_t addr, size_t size,
				enum dma_data_direction dir, bool to_device, const char *call)
{
	void *shadow = r->shadow + (addr - r->start);

	if (to_device) {
		WARN_ON(sim_phys_access(addr, shadow, size, false));
	} else {
		if (dir != DMA_TO_DEVICE)
			WARN_ON(sim_phys_access(addr, shadow, size, true));
		r->since = call;
		r->reported = false;
	}
	r->device_owns = to_device;
}

/* A new range of the CPU's, its shadow garbage, or NULL and a warning. */
static struct sim_dma_range *sim_dma_range_new(struct device *dev, phys_addr_t pa, size_t size,
					       u64 mask, gfp_t gfp)
{
	struct sim_dma_range *r;

	if (!size || pa + size - 1 > mask) {
		dev_warn_ratelimited(dev, "sim: %pa+%#zx is beyond the DMA mask %#llx; the simulator does not bounce\n",
				     &pa, size, mask);
		return NULL;
	}
	r = kmalloc(struct_size(r, shadow, size), gfp & ~__GFP_ZERO);
	if (!r)
		return NULL;
	r->start = pa;
	r->len = size;
	r->page = NULL;
	r->device_owns = false;
	r->reported = false;
	memset(r->shadow, 0xa5, size);
	return r;
}

static dma_addr_t sim_dma_map_page(struct device *dev, struct page *page, unsigned long offset,
				   size_t size, enum dma_data_direction dir, unsigned long attrs)
{
	struct mpc_sim *sim = sim_of(dev);
	phys_addr_t pa = page_to_phys(page) + offset;
	struct sim_dma_range *r;
	unsigned long flags;

	r = sim_dma_range_new(dev, pa, size, dma_get_mask(dev), GFP_ATOMIC | __GFP_NOWARN);
	if (!r)
		return DMA_MAPPING_ERROR;
	spin_lock_irqsave(&sim->lock, flags);
	list_add(&r->node, &sim->dma_ranges);
	if (attrs & DMA_ATTR_SKIP_CPU_SYNC)
		r->device_owns = true;
	else
		sim_dma_give_locked(r, pa, size, dir, true, NULL);
	spin_unlock_irqrestore(&sim->lock, flags);
	return pa;
}

static void sim_dma_unmap_page(struct device *dev, dma_addr_t addr, size_t size,
			       enum dma_data_direction dir, unsigned long attrs)
{
	struct mpc_sim *sim = sim_of(dev);
	struct sim_dma_range *r;
	unsigned long flags;

	spin_lock_irqsave(&sim->lock, flags);
	r = sim_dma_lookup_locked(sim, addr, size);
	if (!r || r->page || r->start != addr || r->len != size) {
		sim_dma_bad_locked(sim, "dma_unmap_page()", addr, size);
		spin_unlock_irqrestore(&sim->lock, flags);
		return;
	}
	if (!(attrs & DMA_ATTR_SKIP_CPU_SYNC))
		sim_dma_give_locked(r, addr, size, dir, false, "dma_unmap_page()");
	list_del(&r->node);
	spin_unlock_irqrestore(&sim->lock, flags);
	kfree(r);
}

static void sim_dma_sync(struct device *dev, dma_addr_t addr, size_t size,
			 enum dma_data_direction dir, bool to_device)
{
	const char *call = to_device ? "dma_sync_single_for_device()" :
				       "dma_sync_single_for_cpu()";
	struct mpc_sim *sim = sim_of(dev);
	struct sim_dma_range *r;
	unsigned long flags;

	spin_lock_irqsave(&sim->lock, flags);
	r = sim_dma_lookup_locked(sim, addr, size);
	if (r) {
		sim->dma_syncs++;
		sim_dma_give_locked(r, addr, size, dir, to_device, call);
	} else {
		sim_dma_bad_locked(sim, call, addr, size);
	}
	spin_unlock_irqrestore(&sim->lock, flags);
}

static void sim_dma_sync_for_cpu(struct device *dev, dma_addr_t addr, size_t size,
				 enum dma_data_direction dir)
{
	sim_dma_sync(dev, addr, size, dir, false);
}

static void sim_dma_sync_for_device(struct device *dev, dma_addr_t addr, size_t size,
				    enum dma_data_direction dir)
{
	sim_dma_sync(dev, addr, size, dir, true);
}

/* dma_alloc_pages(), dma_alloc_noncoherent(): @size is page-aligned. */
static struct page *sim_dma_alloc_pages(struct device *dev, size_t size, dma_addr_t *dma,
					enum dma_data_direction dir, gfp_t gfp)
{
	struct mpc_sim *sim = sim_of(dev);
	struct sim_dma_range *r;
	unsigned long flags;
	struct page *page;

	page = alloc_pages(gfp | __GFP_ZERO, get_order(size));
	if (!page)
		return NULL;
	r = sim_dma_range_new(dev, page_to_phys(page), size, dev->coherent_dma_mask, gfp);
	if (!r) {
		__free_pages(page, get_order(size));
		return NULL;
	}
	r->page = page;
	r->since = "dma_alloc_pages()";
	spin_lock_irqsave(&sim->lock, flags);
	list_add(&r->node, &sim->dma_ranges);
	spin_unlock_irqrestore(&sim->lock, flags);
	*dma = r->start;
	return page;
}

static void sim_dma_free_pages(struct device *dev, size_t size, struct page *page,
			       dma_addr_t dma, enum dma_data_direction dir)
{
	struct mpc_sim *sim = sim_of(dev);
	struct sim_dma_range *r;
	unsigned long flags;

	spin_lock_irqsave(&sim->lock, flags);
	r = sim_dma_lookup_locked(sim, dma, size);
	if (!r || r->page != page || r->start != dma || r->len != size) {
		sim_dma_bad_locked(sim, "dma_free_pages()", dma, size);
		spin_unlock_irqrestore(&sim->lock, flags);
		return;
	}
	list_del(&r->node);
	spin_unlock_irqrestore(&sim->lock, flags);
	kfree(r);
	__free_pages(page, get_order(size));
}

static const struct dma_map_ops sim_dma_ops = {
	.map_page = sim_dma_map_page,
	.unmap_page = sim_dma_unmap_page,
	.sync_single_for_cpu = sim_dma_sync_for_cpu,
	.sync_single_for_device = sim_dma_sync_for_device,
#ifdef MPC_HAVE_DMA_ALLOC_PAGES_OP
	.alloc_pages_op = sim_dma_alloc_pages,
#else
	.alloc_pages = sim_dma_alloc_pages,
#endif
	.free_pages = sim_dma_free_pages,
};
#endif

/**
 * mpc_sim_attach_dma() - give the simulator's device the non-coherent bus
 * @sim: simulator.
 * @dev: its platform device, being probed, before its DMA mask is set.
 *
 * The ops stay after an unbind (memory the driver frees late still goes
 * through them); a new probe sets them again. A kernel with neither
 * CONFIG_DMA_OPS nor CONFIG_ARCH_HAS_DMA_OPS keeps the direct bus, the
 * CPU's view.
 */
void mpc_sim_attach_dma(struct mpc_sim *sim, struct device *dev)
{
#if IS_ENABLED(CONFIG_DMA_OPS) || IS_ENABLED(CONFIG_ARCH_HAS_DMA_OPS)
	set_dma_ops(dev, &sim_dma_ops);
	sim->dma_model = true;
#else
	dev_info(dev, "sim: this kernel has no DMA ops: the bus is the CPU's view, dma_sync is not checked\n");
#endif
}

/* ---- the model's host interface (all called with sim->lock held) -------- */

static int sim_mem_read(void *host, u64 pa, void *buf, size_t len)
{
	return sim_mem_access(host, pa, buf, len, false);
}

static int sim_mem_write(void *host, u64 pa, const void *buf, size_t len)
{
	return sim_mem_access(host, pa, (void *)buf, len, true);
}

/* Level-triggered: a high line is delivered (again) until it drops. */
static void sim_set_irq(void *host, unsigned int line, bool level)
{
	struct mpc_sim *sim = host;

	lockdep_assert_held(&sim->lock);
	if (!level || line >= MALI_MODEL_NR_IRQS)
		return;
	if (mali_model_late_irq_armed(sim->model) &&
	    !atomic_xchg(&sim->lines[line].late_busy, 1)) {
		queue_work(system_unbound_wq, &sim->lines[line].late);
		return;
	}
	irq_work_queue(&sim->lines[line].work);
}

static void sim_timer_arm(void *host, unsigned int timer, u64 ns)
{
	struct mpc_sim *sim = host;

	lockdep_assert_held(&sim->lock);
	if (timer < MALI_MODEL_NR_TIMERS)
		hrtimer_start(&sim->timers[timer].timer, ns_to_ktime(ns),
			      HRTIMER_MODE_REL);
}

/*
 * Under the lock a running callback cannot be waited for (it waits for the
 * lock); it finds nothing to do in the model, or sim->dead set.
 */
static void sim_timer_cancel(void *host, unsigned int timer)
{
	struct mpc_sim *sim = host;

	lockdep_assert_held(&sim->lock);
	if (timer < MALI_MODEL_NR_TIMERS)
		hrtimer_try_to_cancel(&sim->timers[timer].timer);
}

static u64 sim_now_ns(void *host)
{
	return ktime_get_raw_ns();
}

static void sim_report(void *host, const char *msg)
{
	pr_err("mali_model: driver error: %s\n", msg);
}

static const struct mali_model_host_ops sim_host_ops = {
	.mem_read = sim_mem_read,
	.mem_write = sim_mem_write,
	.set_irq = sim_set_irq,
	.timer_arm = sim_timer_arm,
	.timer_cancel = sim_timer_cancel,
	.now_ns = sim_now_ns,
	.report = sim_report,
};

static enum hrtimer_restart sim_timer_fn(struct hrtimer *t)
{
	struct sim_timer *st = container_of(t, struct sim_timer, timer);
	struct mpc_sim *sim = st->sim;
	unsigned long flags;

	spin_lock_irqsave(&sim->lock, flags);
	if (!sim->dead)
		mali_model_timer(sim->model, st->id);
	spin_unlock_irqrestore(&sim->lock, flags);
	return HRTIMER_NORESTART;
}

/* ---- register access ---------------------------------------------------- */

/*
 * The fault late_irq=MS: the reader of the status register that showed the
 * completion (the driver's IRQ handler, delivered by sim_line_late_fn()) is
 * held up MS ms before it can act on it, outside the model's lock, as a
 * handler delayed by interrupt latency would be. Any other reader (there
 * is none in the driver) busy-waits.
 */
static void sim_stall(struct mpc_sim *sim, u32 ms)
{
	if (READ_ONCE(sim->late_task) == current) {
		local_irq_enable();
		msleep(ms);
		local_irq_disable();
		return;
	}
	while (ms--)
		mdelay(1);
}

static u32 sim_read(void *ctx, u32 reg)
{
	struct mpc_sim *sim = ctx;
	unsigned long flags;
	u32 val, stall;

	spin_lock_irqsave(&sim->lock, flags);
	val = mali_model_read(sim->model, reg);
	stall = mali_model_take_stall_ms(sim->model);
	spin_unlock_irqrestore(&sim->lock, flags);
	if (stall)
		sim_stall(sim, stall);
	return val;
}

static void sim_write(void *ctx, u32 reg, u32 val)
{
	struct mpc_sim *sim = ctx;
	unsigned long flags;

	spin_lock_irqsave(&sim->lock, flags);
	mali_model_write(sim->model, reg, val);
	spin_unlock_irqrestore(&sim->lock, flags);
}

static const struct mpc_io mpc_sim_io_ops = {
	.read = sim_read,
	.write = sim_write,
};

/**
 * mpc_sim_io() - register accessors of the simulated GPU
 *
 * Return: the accessors; their context is the struct mpc_sim.
 */
const struct mpc_io *mpc_sim_io(void)
{
	return &mpc_sim_io_ops;
}

/**
 * mpc_sim_clock_hz() - the modelled GPU clock
 * @sim: simulator.
 *
 * Return: the clock in Hz.
 */
u64 mpc_sim_clock_hz(struct mpc_sim *sim)
{
	return mali_model_clock_hz(sim->model);
}

/**
 * mpc_sim_power() - the driver turns the simulated GPU's supply on or off
 * @sim: simulator.
 * @on: powered up (supply, clocks, reset released) or down.
 *
 * The simulated GPU has no regulator or clock; this keeps their enable
 * count, so that a driver path that leaves the GPU powered is reported
 * when the simulator goes, as _regulator_put() warns on real hardware.
 */
void mpc_sim_power(struct mpc_sim *sim, bool on)
{
	if (on)
		atomic_inc(&sim->powered);
	else if (atomic_dec_return(&sim->powered) < 0)
		pr_err(MPC_DRIVER_NAME ": sim: powered down more often than up\n");
}

/*
 * The simulated GPU's power domain, as genpd gives a SoC's GPU: the
 * driver's callbacks run as usual, and in the noirq phase of system sleep
 * the domain is switched off whatever the driver did, so the GPU loses all
 * of its state (mali_model_power_loss()).
 */
#ifdef CONFIG_PM_SLEEP
static int sim_pd_suspend_noirq(struct device *dev)
{
	struct mpc_sim *sim = sim_of(dev);
	unsigned long flags;
	int ret;

	ret = pm_generic_suspend_noirq(dev);
	if (ret)
		return ret;
	spin_lock_irqsave(&sim->lock, flags);
	mali_model_power_loss(sim->model);
	spin_unlock_irqrestore(&sim->lock, flags);
	return 0;
}
#else
/* no system sleep (the debug kernel): the PM core never calls it */
#define sim_pd_suspend_noirq NULL
#endif

static struct dev_pm_domain sim_pm_domain = {
	.ops = {
		.runtime_suspend = pm_generic_runtime_suspend,
		.runtime_resume = pm_generic_runtime_resume,
		.suspend = pm_generic_suspend,
		.suspend_noirq = sim_pd_suspend_noirq,
		.resume_noirq = pm_generic_resume_noirq,
		.resume = pm_generic_resume,
		.freeze = pm_generic_freeze,
		.thaw = pm_generic_thaw,
		.poweroff = pm_generic_poweroff,
		.restore = pm_generic_restore,
	},
};

static void sim_pd_detach(void *data)
{
	dev_pm_domain_set(data, NULL);
}

/**
 * mpc_sim_attach_pm_domain() - put the simulator's device in its power domain
 * @sim: simulator.
 * @dev: its platform device, being probed (as the platform bus attaches a
 *	genpd before the driver's probe).
 *
 * Return: 0 or -ENOMEM.
 */
int mpc_sim_attach_pm_domain(struct mpc_sim *sim, struct device *dev)
{
	dev_pm_domain_set(dev, &sim_pm_domain);
	return devm_add_action_or_reset(dev, sim_pd_detach, dev);
}

/* ---- debugfs: workload, fault injection, reports ------------------------ */

static ssize_t sim_text_read(struct file *file, char __user *ubuf, size_t count,
			     loff_t *ppos,
			     void (*show)(struct mali_model *m, char *buf, size_t len))
{
	struct mpc_sim *sim = file->private_data;
	char text[32];
	size_t len;

	spin_lock_irq(&sim->lock);
	show(sim->model, text, sizeof(text) - 1);
	spin_unlock_irq(&sim->lock);
	len = strlen(text);
	text[len++] = '\n';
	return simple_read_from_buffer(ubuf, count, ppos, text, len);
}

static ssize_t sim_text_write(struct file *file, const char __user *ubuf,
			      size_t count, loff_t *ppos, size_t max,
			      const char *name,
			      int (*set)(struct mali_model *m, const char *text,
					 char *err, size_t errlen))
{
	struct mpc_sim *sim = file->private_data;
	char buf[32], err[96], *text;
	int ret;

	text = mpc_debugfs_text(buf, min(max, sizeof(buf)), ubuf, count, ppos);
	if (IS_ERR(text))
		return PTR_ERR(text);

	spin_lock_irq(&sim->lock);
	ret = set(sim->model, text, err, sizeof(err));
	spin_unlock_irq(&sim->lock);
	if (ret) {
		pr_debug(MPC_DRIVER_NAME ": %s: %s\n", name, err);
		return -EINVAL;
	}
	return count;
}

static ssize_t sim_workload_read(struct file *file, char __user *ubuf,
				 size_t count, loff_t *ppos)
{
	return sim_text_read(file, ubuf, count, ppos, mali_model_show_workload);
}

static ssize_t sim_workload_write(struct file *file, const char __user *ubuf,
				  size_t count, loff_t *ppos)
{
	return sim_text_write(file, ubuf, count, ppos, 16, "sim_workload",
			      mali_model_set_workload);
}

static const struct file_operations sim_workload_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.read = sim_workload_read,
	.write = sim_workload_write,
	.llseek = default_llseek,
};

static ssize_t sim_fault_read(struct file *file, char __user *ubuf,
			      size_t count, loff_t *ppos)
{
	return sim_text_read(file, ubuf, count, ppos, mali_model_show_fault);
}

static ssize_t sim_fault_write(struct file *file, const char __user *ubuf,
			       size_t count, loff_t *ppos)
{
	return sim_text_write(file, ubuf, count, ppos, 32, "sim_fault",
			      mali_model_set_fault);
}

static const struct file_operations sim_fault_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.read = sim_fault_read,
	.write = sim_fault_write,
	.llseek = default_llseek,
};

static int sim_reports_get(void *data, u64 *val)
{
	struct mpc_sim *sim = data;

	spin_lock_irq(&sim->lock);
	*val = mali_model_nr_reports(sim->model) + sim->dma_errors;
	spin_unlock_irq(&sim->lock);
	return 0;
}
DEFINE_DEBUGFS_ATTRIBUTE(sim_reports_fops, sim_reports_get, NULL, "%llu\n");

static int sim_dma_syncs_get(void *data, u64 *val)
{
	struct mpc_sim *sim = data;

	spin_lock_irq(&sim->lock);
	*val = sim->dma_syncs;
	spin_unlock_irq(&sim->lock);
	return 0;
}
DEFINE_DEBUGFS_ATTRIBUTE(sim_dma_syncs_fops, sim_dma_syncs_get, NULL, "%llu\n");

static int sim_dma_errors_get(void *data, u64 *val)
{
	struct mpc_sim *sim = data;

	spin_lock_irq(&sim->lock);
	*val = sim->dma_errors;
	spin_unlock_irq(&sim->lock);
	return 0;
}
DEFINE_DEBUGFS_ATTRIBUTE(sim_dma_errors_fops, sim_dma_errors_get, NULL, "%llu\n");

/**
 * mpc_sim_debugfs_init() - create the simulator's debugfs files
 * @sim: simulator.
 * @root: directory to create them in.
 *
 * sim_workload and sim_fault take the model's text controls;
 * sim_reports counts the driver errors the model reported, those of the
 * DMA model included. With the DMA model, sim_dma_syncs counts the
 * dma_sync_single_for_{device,cpu}() calls on its ranges and
 * sim_dma_errors its share of sim_reports (since the module was loaded).
 */
void mpc_sim_debugfs_init(struct mpc_sim *sim, struct dentry *root)
{
	debugfs_create_file("sim_workload", 0600, root, sim, &sim_workload_fops);
	debugfs_create_file("sim_fault", 0600, root, sim, &sim_fault_fops);
	debugfs_create_file_unsafe("sim_reports", 0400, root, sim, &sim_reports_fops);
	if (!sim->dma_model)
		return;
	debugfs_create_file_unsafe("sim_dma_syncs", 0400, root, sim, &sim_dma_syncs_fops);
	debugfs_create_file_unsafe("sim_dma_errors", 0400, root, sim, &sim_dma_errors_fops);
}

/* ---- creation ------------------------------------------------------------ */

/**
 * mpc_sim_create() - build a simulated GPU
 * @product: product name (model/mali_model_products.c).
 * @cores: SHADER_PRESENT, 0 for the product's default.
 * @l2_slices: L2 slices (v5 only), 0 for the default.
 * @mhz: modelled clock, 0 for the default.
 * @va_bits: MMU_FEATURES VA width, 0 for the product's default.
 * @pa_bits: MMU_FEATURES PA width, 0 for the product's default.
 * @out: the new simulator.
 *
 * Return: 0, -EINVAL for a parameter it cannot simulate, -ENOMEM.
 */
int mpc_sim_create(const char *product, u64 cores, u32 l2_slices, u32 mhz,
		   u32 va_bits, u32 pa_bits, struct mpc_sim **out)
{
	const struct mali_model_config cfg = {
		.product = product,
		.shader_present = cores,
		.l2_slices = l2_slices,
		.mhz = mhz,
		.va_bits = va_bits,
		.pa_bits = pa_bits,
	};
	struct mpc_sim *sim;
	unsigned int i;
	char err[160];
	int ret;

	sim = kzalloc(sizeof(*sim), GFP_KERNEL);
	if (!sim)
		return -ENOMEM;
	sim->model = kvzalloc(mali_model_size(), GFP_KERNEL);
	if (!sim->model)
		goto err_free;

	spin_lock_init(&sim->lock);
	INIT_LIST_HEAD(&sim->dma_ranges);
	for (i = 0; i < MALI_MODEL_NR_TIMERS; i++) {
		hrtimer_init(&sim->timers[i].timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL);
		sim->timers[i].timer.function = sim_timer_fn;
		sim->timers[i].sim = sim;
		sim->timers[i].id = i;
	}
	for (i = 0; i < MALI_MODEL_NR_IRQS; i++) {
		sim->lines[i].work = IRQ_WORK_INIT_HARD(sim_line_work_fn);
		INIT_WORK(&sim->lines[i].late, sim_line_late_fn);
		atomic_set(&sim->lines[i].late_busy, 0);
		sim->lines[i].sim = sim;
		sim->lines[i].line = i;
		atomic_set(&sim->lines[i].busy, 0);
		atomic_set(&sim->lines[i].again, 0);
	}

	spin_lock_irq(&sim->lock);
	ret = mali_model_init(sim->model, &cfg, &sim_host_ops, sim, err, sizeof(err));
	spin_unlock_irq(&sim->lock);
	if (ret) {
		pr_err(MPC_DRIVER_NAME ": sim=%s: %s\n", product, err);
		kvfree(sim->model);
		kfree(sim);
		return -EINVAL;
	}

	sim->domain = irq_domain_create_linear(NULL, MALI_MODEL_NR_IRQS, &sim_irq_ops, sim);
	if (!sim->domain)
		goto err_free;

	pr_info(MPC_DRIVER_NAME ": simulating %s: GPU_ID 0x%08x, cores 0x%llx, %u L2 slice(s), %llu MHz\n",
		product, mali_model_gpu_id(sim->model),
		mali_model_shader_present(sim->model),
		mali_model_l2_slices(sim->model),
		div_u64(mali_model_clock_hz(sim->model), 1000000));
	*out = sim;
	return 0;

err_free:
	kvfree(sim->model);
	kfree(sim);
	return -ENOMEM;
}

/**
 * mpc_sim_destroy() - tear a simulated GPU down
 * @sim: simulator; its device must be gone (no IRQ handler installed).
 */
void mpc_sim_destroy(struct mpc_sim *sim)
{
	struct sim_dma_range *r, *tmp;
	unsigned int i, virq;

	if (atomic_read(&sim->powered) > 0)
		pr_err(MPC_DRIVER_NAME ": sim: the GPU was left powered (%d power-up(s) not undone)\n",
		       atomic_read(&sim->powered));
	spin_lock_irq(&sim->lock);
	sim->dead = true;
	mali_model_fini(sim->model);
	spin_unlock_irq(&sim->lock);
	/* A callback that was already running has seen sim->dead */
	for (i = 0; i < MALI_MODEL_NR_TIMERS; i++)
		hrtimer_cancel(&sim->timers[i].timer);
	for (i = 0; i < MALI_MODEL_NR_IRQS; i++) {
		cancel_work_sync(&sim->lines[i].late);
		irq_work_sync(&sim->lines[i].work);
		virq = irq_find_mapping(sim->domain, i);
		if (virq)
			irq_dispose_mapping(virq);
	}
	irq_domain_remove(sim->domain);
	/*
	 * Ranges the driver leaked (a dead GPU's pages): the pages stay
	 * leaked, the model's bookkeeping goes
	 */
	list_for_each_entry_safe(r, tmp, &sim->dma_ranges, node) {
		list_del(&r->node);
		kfree(r);
	}
	kvfree(sim->model);
	kfree(sim);
}
