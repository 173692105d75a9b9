// SPDX-License-Identifier: GPL-2.0-only
/*
 * The simulated Mali GPU.
 *
 * It stands behind the same boundary as real hardware: 32-bit register reads
 * and writes (struct mpc_io) and interrupt lines (real Linux IRQs from a
 * small IRQ domain of its own). It never sees a CPU pointer of the driver:
 * like a bus master, it reads translation tables and writes dumps through
 * physical addresses only, which it finds by walking the tables the driver
 * programmed into the address space PERFCNT_CFG.AS selects.
 *
 * Timing is asynchronous as on hardware: a sample, a cache clean and a reset
 * complete after a short delay (hrtimers), then raise their interrupt. The
 * dump lands in a model of the GPU's L2 first and reaches memory only when
 * the driver cleans the caches, so a driver that skips the clean reads stale
 * data, as it would on a real board.
 */
#include <linux/bitmap.h>
#include <linux/debugfs.h>
#include <linux/highmem.h>
#include <linux/hrtimer.h>
#include <linux/interrupt.h>
#include <linux/irq.h>
#include <linux/irq_work.h>
#include <linux/irqdomain.h>
#include <linux/math64.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/timekeeping.h>
#include <linux/uaccess.h>

#include "mpc_drv.h"
#include "mpc_sim.h"

#define SIM_NR_AS		8
#define SIM_MMU_FEATURES	0x2830	/* 48-bit VA, 40-bit PA */
#define SIM_JS_PRESENT		0x7
#define SIM_TIMESTAMP_MUL	3	/* TIMESTAMP ticks at 24 MHz: ns * 3 / 125 */
#define SIM_TIMESTAMP_DIV	125
#define SIM_SAMPLE_LATENCY_NS	(20 * NSEC_PER_USEC)
#define SIM_CLEAN_LATENCY_NS	(10 * NSEC_PER_USEC)
#define SIM_RESET_LATENCY_NS	(50 * NSEC_PER_USEC)
#define SIM_MAX_DELAY_MS	5000
/* The hardware ignores the low bits of PERFCNT_BASE */
#define SIM_PERFCNT_BASE_MASK	(~0xffULL)
/* Dirty tracking granule of the modelled L2: one 4-counter group */
#define SIM_L2_GRANULE		16

enum sim_line {
	SIM_LINE_JOB,
	SIM_LINE_MMU,
	SIM_LINE_GPU,
	SIM_NR_LINES,
};

static const char * const sim_line_names[SIM_NR_LINES] = { "job", "mmu", "gpu" };

enum sim_fault {
	SIM_FAULT_NONE,
	SIM_FAULT_DROP_IRQ,
	SIM_FAULT_DELAY,
	SIM_FAULT_STUCK_CLEAN,
	SIM_FAULT_GPU_FAULT,
};

/**
 * struct sim_as - one address space of the MMU
 * @transtab: AS_TRANSTAB as written.
 * @memattr: AS_MEMATTR as written.
 * @transcfg: AS_TRANSCFG as written.
 * @lockaddr: AS_LOCKADDR as written.
 * @live_transtab: AS_TRANSTAB latched by AS_COMMAND_UPDATE, used to walk.
 * @live_transcfg: AS_TRANSCFG latched by AS_COMMAND_UPDATE.
 * @faultstatus: AS_FAULTSTATUS.
 * @faultaddress: AS_FAULTADDRESS.
 */
struct sim_as {
	u64 transtab;
	u64 memattr;
	u64 transcfg;
	u64 lockaddr;
	u64 live_transtab;
	u64 live_transcfg;
	u32 faultstatus;
	u64 faultaddress;
};

/**
 * struct sim_line_work - delivers one interrupt line from hard IRQ context
 * @work: queued when the line is asserted.
 * @sim: owner.
 * @line: &enum sim_line.
 * @busy: a CPU is delivering this line now.
 * @again: the line was raised again while it was being delivered.
 */
struct sim_line_work {
	struct irq_work work;
	struct mpc_sim *sim;
	unsigned int line;
	atomic_t busy;
	atomic_t again;
};

/**
 * struct mpc_sim - one simulated GPU
 * @prod: product being simulated.
 * @shader_present: SHADER_PRESENT.
 * @l2_present: L2_PRESENT.
 * @nr_l2: L2 slices (v5) or core groups (v4).
 * @mem_features: MEM_FEATURES.
 * @mhz: modelled clock.
 * @hw_issue_8186: this revision has PRLAM-8186.
 * @dump_size: bytes of one dump.
 * @nr_units: rows of @acc.
 * @domain: IRQ domain of the interrupt lines.
 * @lines: per-line delivery work.
 * @sample_timer: completes a sample.
 * @clean_timer: completes a cache clean.
 * @reset_timer: completes a soft reset.
 * @lock: protects every member below (the register file and the model).
 * @gpu_irq_raw: GPU_INT_RAWSTAT.
 * @gpu_irq_mask: GPU_INT_MASK.
 * @mmu_irq_raw: MMU_INT_RAWSTAT.
 * @mmu_irq_mask: MMU_INT_MASK.
 * @job_irq_raw: JOB_INT_RAWSTAT.
 * @job_irq_mask: JOB_INT_MASK.
 * @fault_status: GPU_FAULT_STATUS.
 * @fault_address: GPU_FAULT_ADDRESS.
 * @shader_ready: SHADER_READY.
 * @tiler_ready: TILER_READY.
 * @l2_ready: L2_READY.
 * @perfcnt_base: PERFCNT_BASE.
 * @perfcnt_cfg: PERFCNT_CFG.
 * @en_jm: PRFCNT_JM_EN.
 * @en_shader: PRFCNT_SHADER_EN.
 * @en_tiler: PRFCNT_TILER_EN.
 * @en_mmu_l2: PRFCNT_MMU_L2_EN.
 * @tiler_broken: PRLAM-8186 struck: tiler counters are not collected.
 * @cycle_counting: GPU_CYCLE_COUNT runs.
 * @cycle_acc: cycles counted before @cycle_start_ns.
 * @cycle_start_ns: when the cycle counter last started.
 * @as: address spaces.
 * @load_pct: modelled load, 0..100.
 * @last_ns: time the model was last advanced to.
 * @acc: 64-bit counters, 64 per unit (SIM_UNIT_*).
 * @latched: the counters latched by the sample command in progress.
 * @latched_ts: TIMESTAMP when they were latched.
 * @latched_valid: the sample command found the counters running.
 * @l2_data: the modelled L2's copy of the dump.
 * @l2_dirty: granules of @l2_data not yet written to memory.
 * @l2_pa: physical address of each page of the dump, from the last sample.
 * @l2_base_off: offset of the dump in its first page.
 * @sample_pending: a sample is in progress.
 * @sample_base: PERFCNT_BASE captured by the sample command.
 * @sample_as: address space captured by the sample command.
 * @sample_drop_irq: the sample in progress will not raise its interrupt.
 * @sample_gpu_fault: the sample in progress will fault.
 * @clean_pending: a cache clean is in progress.
 * @clean_stuck: cache cleans never complete until the next reset.
 * @armed: fault armed for the next sample or clean.
 * @armed_delay_ms: sample latency of %SIM_FAULT_DELAY.
 */
struct mpc_sim {
	const struct mpc_sim_product *prod;
	u64 shader_present;
	u64 l2_present;
	u32 nr_l2;
	u32 mem_features;
	u32 mhz;
	bool hw_issue_8186;
	u32 dump_size;
	u32 nr_units;
	struct irq_domain *domain;
	struct sim_line_work lines[SIM_NR_LINES];
	struct hrtimer sample_timer;
	struct hrtimer clean_timer;
	struct hrtimer reset_timer;

	/* protects the register file and the model: every member below */
	spinlock_t lock;
	u32 gpu_irq_raw;
	u32 gpu_irq_mask;
	u32 mmu_irq_raw;
	u32 mmu_irq_mask;
	u32 job_irq_raw;
	u32 job_irq_mask;
	u32 fault_status;
	u64 fault_address;
	u64 shader_ready;
	u64 tiler_ready;
	u64 l2_ready;
	u64 perfcnt_base;
	u32 perfcnt_cfg;
	u32 en_jm;
	u32 en_shader;
	u32 en_tiler;
	u32 en_mmu_l2;
	bool tiler_broken;
	bool cycle_counting;
	u64 cycle_acc;
	u64 cycle_start_ns;
	struct sim_as as[SIM_NR_AS];
	u32 load_pct;
	u64 last_ns;
	struct mpc_sim_row *acc;
	struct mpc_sim_row *latched;
	u64 latched_ts;
	bool latched_valid;
	__le32 *l2_data;
	unsigned long *l2_dirty;
	phys_addr_t *l2_pa;
	u32 l2_base_off;
	bool sample_pending;
	u64 sample_base;
	u32 sample_as;
	bool sample_drop_irq;
	bool sample_gpu_fault;
	bool clean_pending;
	bool clean_stuck;
	enum sim_fault armed;
	u32 armed_delay_ms;
};

/* ---- interrupt lines ---------------------------------------------------- */

/*
 * The flow handler drops an interrupt that arrives while the same IRQ's
 * handler runs on another CPU; a level-triggered line on real hardware is
 * never lost that way. So one CPU at a time delivers a line, and an
 * assertion that arrives meanwhile makes it deliver once more.
 */
static void sim_line_work_fn(struct irq_work *work)
{
	struct sim_line_work *lw = container_of(work, struct sim_line_work, work);

	atomic_set(&lw->again, 1);
	if (atomic_xchg(&lw->busy, 1))
		return;
	while (atomic_xchg(&lw->again, 0))
		generic_handle_domain_irq(lw->sim->domain, lw->line);
	atomic_xchg(&lw->busy, 0);
	if (atomic_read(&lw->again))
		irq_work_queue(&lw->work);
}

/* Re-evaluate the lines after a raw or mask change; lock held. */
static void sim_update_lines(struct mpc_sim *sim)
{
	bool level[SIM_NR_LINES] = {
		[SIM_LINE_JOB] = sim->job_irq_raw & sim->job_irq_mask,
		[SIM_LINE_MMU] = sim->mmu_irq_raw & sim->mmu_irq_mask,
		[SIM_LINE_GPU] = sim->gpu_irq_raw & sim->gpu_irq_mask,
	};
	unsigned int i;

	for (i = 0; i < SIM_NR_LINES; i++)
		if (level[i])
			irq_work_queue(&sim->lines[i].work);
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

	for (i = 0; i < SIM_NR_LINES; i++) {
		if (strcmp(name, sim_line_names[i]))
			continue;
		virq = irq_create_mapping(sim->domain, i);
		return virq ? virq : -ENXIO;
	}
	return -EINVAL;
}

/* ---- workload model and counters --------------------------------------- */

static bool sim_counting(struct mpc_sim *sim)
{
	return PERFCNT_CFG_MODE(sim->perfcnt_cfg) == PERFCNT_CFG_MODE_MANUAL;
}

/* Bring the counters up to @now under the current load and power state. */
static void sim_advance(struct mpc_sim *sim, u64 now)
{
	struct mpc_sim_model_input in = {
		.prod = sim->prod,
		.load_pct = sim->load_pct,
		.nr_l2 = sim->nr_l2,
		.shader_powered = sim->shader_ready & sim->shader_present,
		.tiler_powered = sim->tiler_ready & 1,
		.l2_powered = sim->l2_ready & sim->l2_present,
	};
	u64 dt = now - sim->last_ns;

	sim->last_ns = now;
	if (!sim_counting(sim) || !dt)
		return;
	in.cycles = div_u64(dt * sim->mhz, 1000);
	mpc_sim_model_step(&in, sim->acc);
}

static void sim_clear_counters(struct mpc_sim *sim, u64 now)
{
	memset(sim->acc, 0, sim->nr_units * sizeof(*sim->acc));
	sim->last_ns = now;
}

static u64 sim_timestamp(void)
{
	return mul_u64_u32_div(ktime_get_raw_ns(), SIM_TIMESTAMP_MUL, SIM_TIMESTAMP_DIV);
}

static u64 sim_cycle_count(struct mpc_sim *sim)
{
	u64 c = sim->cycle_acc;

	if (sim->cycle_counting)
		c += div_u64((ktime_get_raw_ns() - sim->cycle_start_ns) * sim->mhz, 1000);
	return c;
}

/* ---- bus master: physical memory accesses ------------------------------ */

static int sim_phys_read64(phys_addr_t pa, u64 *val)
{
	unsigned long pfn = PHYS_PFN(pa);
	void *va;

	if (!pfn_valid(pfn) || !IS_ALIGNED(pa, sizeof(u64)))
		return -EFAULT;
	va = kmap_local_page(pfn_to_page(pfn));
	*val = le64_to_cpu(*(__le64 *)(va + offset_in_page(pa)));
	kunmap_local(va);
	return 0;
}

static int sim_phys_write(phys_addr_t pa, const void *src, size_t len)
{
	unsigned long pfn = PHYS_PFN(pa);
	void *va;

	if (!pfn_valid(pfn) || offset_in_page(pa) + len > PAGE_SIZE)
		return -EFAULT;
	va = kmap_local_page(pfn_to_page(pfn));
	memcpy(va + offset_in_page(pa), src, len);
	kunmap_local(va);
	return 0;
}

/* ---- MMU ----------------------------------------------------------------- */

struct sim_xlate_fault {
	u32 exception;
	bool bus_error;
};

/* Walk the live tables of @asn for a write to @va, as the GPU's MMU does. */
static int sim_translate(struct mpc_sim *sim, u32 asn, u64 va, phys_addr_t *pa,
			 struct sim_xlate_fault *fault)
{
	struct sim_as *as;
	u64 table, desc;
	unsigned int lvl;

	fault->bus_error = false;
	fault->exception = AS_FAULT_TRANSLATION(0);
	if (asn >= SIM_NR_AS || va >= BIT_ULL(MPC_PT_VA_BITS))
		return -EFAULT;
	as = &sim->as[asn];
	if (sim->prod->has_transcfg &&
	    (as->live_transcfg & AS_TRANSCFG_ADRMODE_MASK) != AS_TRANSCFG_ADRMODE_LEGACY)
		return -EFAULT;

	switch (as->live_transtab & AS_TRANSTAB_ADRMODE_MASK) {
	case AS_TRANSTAB_ADRMODE_IDENTITY:
		*pa = va;
		return 0;
	case AS_TRANSTAB_ADRMODE_TABLE:
		break;
	default:
		return -EFAULT;
	}

	table = as->live_transtab & AS_TRANSTAB_ADDR_MASK;
	for (lvl = 0; lvl < MPC_PT_LEVELS; lvl++) {
		u64 type, size;

		if (sim_phys_read64(table + 8 * MPC_PT_INDEX(va, lvl), &desc)) {
			fault->bus_error = true;
			return -EFAULT;
		}
		type = desc & MPC_PTE_TYPE_MASK;
		fault->exception = AS_FAULT_TRANSLATION(lvl);
		if (lvl < MPC_PT_LEVELS - 1 && type == MPC_PTE_TYPE_TABLE) {
			table = desc & MPC_PTE_ADDR_MASK;
			continue;
		}
		/* A level-3 page, or a level-1/2 block: both use type 1 */
		if (type != MPC_PTE_TYPE_PAGE || lvl == 0)
			return -EFAULT;
		if (!(desc & MPC_PTE_WRITE)) {
			fault->exception = AS_FAULT_PERMISSION(lvl);
			return -EFAULT;
		}
		size = BIT_ULL(MPC_PT_SHIFT(lvl));
		*pa = (desc & MPC_PTE_ADDR_MASK & ~(size - 1)) | (va & (size - 1));
		return 0;
	}
	return -EFAULT;
}

static void sim_mmu_fault(struct mpc_sim *sim, u32 asn, u64 va,
			  const struct sim_xlate_fault *fault)
{
	if (asn < SIM_NR_AS) {
		sim->as[asn].faultstatus = fault->exception |
					   (AS_FAULT_ACCESS_WRITE << 8);
		sim->as[asn].faultaddress = va;
	} else {
		asn = 0;
	}
	sim->mmu_irq_raw |= fault->bus_error ? MMU_IRQ_BUS_ERROR(asn) :
					       MMU_IRQ_PAGE_FAULT(asn);
}

/* ---- sampling ------------------------------------------------------------ */

/* Put one block into the modelled L2: header, then enabled counter groups. */
static void sim_stage_block(struct mpc_sim *sim, unsigned int slot,
			    const u64 *row, u32 enable, u64 ts)
{
	__le32 *blk = sim->l2_data + slot * MPC_COUNTERS_PER_BLOCK;
	unsigned int group, i, first = slot * (MPC_BLOCK_BYTES / SIM_L2_GRANULE);

	enable &= MPC_BLOCK_ENABLE_ALL;
	blk[MPC_HDR_TIMESTAMP_LO] = cpu_to_le32(lower_32_bits(ts));
	blk[MPC_HDR_TIMESTAMP_HI] = cpu_to_le32(upper_32_bits(ts));
	blk[MPC_HDR_ENABLE] = cpu_to_le32(enable);
	blk[3] = 0;
	set_bit(first, sim->l2_dirty);

	for (group = 1; group < MPC_COUNTERS_PER_BLOCK / 4; group++) {
		if (!(enable & BIT(group)))
			continue;
		for (i = group * 4; i < group * 4 + 4; i++)
			blk[i] = cpu_to_le32(row ? min_t(u64, row[i], U32_MAX) : 0);
		set_bit(first + group, sim->l2_dirty);
	}
}

static void sim_stage_dump(struct mpc_sim *sim, u64 ts)
{
	/* Secondary counter sets are not modelled: their counters read 0 */
	bool primary = PERFCNT_CFG_GET_SETSEL(sim->perfcnt_cfg) == 0;
	u32 tiler_en = sim->tiler_broken ? 0 : sim->en_tiler;
	unsigned int g, i, core;

#define ROW(unit) (primary ? sim->latched[unit].c : NULL)
	if (sim->prod->v4) {
		for (g = 0; g < sim->nr_l2; g++) {
			unsigned int base = g * MPC_V4_BLOCKS_PER_GROUP;

			for (i = 0; i < MPC_V4_SC_PER_GROUP; i++) {
				core = g * MPC_V4_SC_PER_GROUP + i;
				if (sim->shader_present & BIT_ULL(core))
					sim_stage_block(sim, base + i,
							ROW(SIM_UNIT_CORE(sim->nr_l2, core)),
							sim->en_shader, ts);
			}
			sim_stage_block(sim, base + MPC_V4_BLK_TILER,
					g ? NULL : ROW(SIM_UNIT_TILER), tiler_en, ts);
			sim_stage_block(sim, base + MPC_V4_BLK_MMU_L2,
					ROW(SIM_UNIT_L2(g)), sim->en_mmu_l2, ts);
			if (!g)
				sim_stage_block(sim, base + MPC_V4_BLK_JM,
						ROW(SIM_UNIT_JM), sim->en_jm, ts);
		}
	} else {
		sim_stage_block(sim, 0, ROW(SIM_UNIT_JM), sim->en_jm, ts);
		sim_stage_block(sim, 1, ROW(SIM_UNIT_TILER), tiler_en, ts);
		for (i = 0; i < sim->nr_l2; i++)
			sim_stage_block(sim, 2 + i, ROW(SIM_UNIT_L2(i)),
					sim->en_mmu_l2, ts);
		for (core = 0; core < 64; core++)
			if (sim->shader_present & BIT_ULL(core))
				sim_stage_block(sim, 2 + sim->nr_l2 + core,
						ROW(SIM_UNIT_CORE(sim->nr_l2, core)),
						sim->en_shader, ts);
	}
#undef ROW
}

/*
 * Translate the dump's pages, then stage the latched counters.
 * Return: 0, or -EFAULT on a fault.
 */
static int sim_do_sample(struct mpc_sim *sim)
{
	u64 base = sim->sample_base & SIM_PERFCNT_BASE_MASK;
	u32 off = offset_in_page(base);
	unsigned int i, nr_pages = DIV_ROUND_UP(off + sim->dump_size, PAGE_SIZE);
	struct sim_xlate_fault fault;

	for (i = 0; i < nr_pages; i++) {
		u64 va = (base & PAGE_MASK) + (u64)i * PAGE_SIZE;
		phys_addr_t pa;

		if (sim_translate(sim, sim->sample_as, va, &pa, &fault)) {
			sim_mmu_fault(sim, sim->sample_as, va, &fault);
			return -EFAULT;
		}
		sim->l2_pa[i] = pa & PAGE_MASK;
	}
	sim->l2_base_off = off;
	sim_stage_dump(sim, sim->latched_ts);
	return 0;
}

/* Write the dirty part of the modelled L2 back to memory. */
static void sim_l2_writeback(struct mpc_sim *sim)
{
	unsigned int nbits = sim->dump_size / SIM_L2_GRANULE, g;

	for_each_set_bit(g, sim->l2_dirty, nbits) {
		u32 pos = sim->l2_base_off + g * SIM_L2_GRANULE;
		phys_addr_t pa = sim->l2_pa[pos / PAGE_SIZE] + pos % PAGE_SIZE;

		/* The pages were translated at sample time: they are RAM */
		WARN_ON_ONCE(sim_phys_write(pa, (u8 *)sim->l2_data + g * SIM_L2_GRANULE,
					    SIM_L2_GRANULE));
	}
	bitmap_zero(sim->l2_dirty, nbits);
}

static enum hrtimer_restart sim_sample_done(struct hrtimer *t)
{
	struct mpc_sim *sim = container_of(t, struct mpc_sim, sample_timer);
	unsigned long flags;

	spin_lock_irqsave(&sim->lock, flags);
	if (!sim->sample_pending)
		goto out;
	sim->sample_pending = false;

	if (sim->sample_gpu_fault) {
		sim->fault_status = GPU_FAULT_BUS;
		sim->fault_address = sim->sample_base;
		sim->gpu_irq_raw |= GPU_IRQ_FAULT;
	} else if (!sim->latched_valid || !sim_do_sample(sim)) {
		/* A sample while the counters are off completes, writing nothing */
		if (!sim->sample_drop_irq)
			sim->gpu_irq_raw |= GPU_IRQ_PERFCNT_SAMPLE_COMPLETED;
	}
	/* else: an MMU fault; the sample never completes */
	sim_update_lines(sim);
out:
	spin_unlock_irqrestore(&sim->lock, flags);
	return HRTIMER_NORESTART;
}

static enum hrtimer_restart sim_clean_done(struct hrtimer *t)
{
	struct mpc_sim *sim = container_of(t, struct mpc_sim, clean_timer);
	unsigned long flags;

	spin_lock_irqsave(&sim->lock, flags);
	if (sim->clean_pending && !sim->clean_stuck) {
		sim->clean_pending = false;
		sim_l2_writeback(sim);
		sim->gpu_irq_raw |= GPU_IRQ_CLEAN_CACHES_COMPLETED;
		sim_update_lines(sim);
	}
	spin_unlock_irqrestore(&sim->lock, flags);
	return HRTIMER_NORESTART;
}

static enum hrtimer_restart sim_reset_done(struct hrtimer *t)
{
	struct mpc_sim *sim = container_of(t, struct mpc_sim, reset_timer);
	unsigned long flags;

	spin_lock_irqsave(&sim->lock, flags);
	sim->gpu_irq_raw |= GPU_IRQ_RESET_COMPLETED;
	sim_update_lines(sim);
	spin_unlock_irqrestore(&sim->lock, flags);
	return HRTIMER_NORESTART;
}

/* Every register back to its reset value; the L2's contents are lost. */
static void sim_reset_state(struct mpc_sim *sim)
{
	u64 now = ktime_get_raw_ns();
	unsigned int i;

	sim->gpu_irq_raw = 0;
	sim->gpu_irq_mask = 0;
	sim->mmu_irq_raw = 0;
	sim->mmu_irq_mask = 0;
	sim->job_irq_raw = 0;
	sim->job_irq_mask = 0;
	sim->fault_status = 0;
	sim->fault_address = 0;
	sim->shader_ready = 0;
	sim->tiler_ready = 0;
	sim->l2_ready = 0;
	sim->perfcnt_base = 0;
	sim->perfcnt_cfg = 0;
	sim->en_jm = 0;
	sim->en_shader = 0;
	sim->en_tiler = 0;
	sim->en_mmu_l2 = 0;
	sim->tiler_broken = false;
	sim->cycle_counting = false;
	sim->cycle_acc = 0;
	memset(sim->as, 0, sizeof(sim->as));
	for (i = 0; i < SIM_NR_AS; i++)
		sim->as[i].live_transtab = AS_TRANSTAB_ADRMODE_UNMAPPED;
	sim->sample_pending = false;
	sim->clean_pending = false;
	sim->clean_stuck = false;
	bitmap_zero(sim->l2_dirty, sim->dump_size / SIM_L2_GRANULE);
	sim_clear_counters(sim, now);
}

static void sim_start(struct hrtimer *t, u64 ns)
{
	hrtimer_start(t, ns_to_ktime(ns), HRTIMER_MODE_REL);
}

static void sim_command(struct mpc_sim *sim, u32 cmd)
{
	u64 now = ktime_get_raw_ns();
	u64 latency;

	switch (cmd) {
	case GPU_CMD_SOFT_RESET:
	case GPU_CMD_HARD_RESET:
		sim_reset_state(sim);
		sim_start(&sim->reset_timer, SIM_RESET_LATENCY_NS);
		break;
	case GPU_CMD_PERFCNT_CLEAR:
		sim_clear_counters(sim, now);
		break;
	case GPU_CMD_PERFCNT_SAMPLE:
		if (sim->sample_pending)
			break;
		latency = SIM_SAMPLE_LATENCY_NS;
		sim->sample_drop_irq = sim->armed == SIM_FAULT_DROP_IRQ;
		sim->sample_gpu_fault = sim->armed == SIM_FAULT_GPU_FAULT;
		if (sim->armed == SIM_FAULT_DELAY)
			latency = (u64)sim->armed_delay_ms * NSEC_PER_MSEC;
		if (sim->armed != SIM_FAULT_STUCK_CLEAN)
			sim->armed = SIM_FAULT_NONE;
		sim->sample_base = sim->perfcnt_base;
		sim->sample_as = PERFCNT_CFG_GET_AS(sim->perfcnt_cfg);
		sim->sample_pending = true;
		/* The counters are latched (and cleared) now; written later */
		sim->latched_valid = sim_counting(sim);
		if (sim->latched_valid) {
			sim_advance(sim, now);
			/* Same size: the live rows become the latched ones */
			swap(sim->latched, sim->acc);
			sim->latched_ts = sim_timestamp();
			sim_clear_counters(sim, now);
		}
		sim_start(&sim->sample_timer, latency);
		break;
	case GPU_CMD_CYCLE_COUNT_START:
		if (!sim->cycle_counting) {
			sim->cycle_counting = true;
			sim->cycle_start_ns = now;
		}
		break;
	case GPU_CMD_CYCLE_COUNT_STOP:
		sim->cycle_acc = sim_cycle_count(sim);
		sim->cycle_counting = false;
		break;
	case GPU_CMD_CLEAN_CACHES:
	case GPU_CMD_CLEAN_INV_CACHES:
		if (sim->armed == SIM_FAULT_STUCK_CLEAN) {
			sim->armed = SIM_FAULT_NONE;
			sim->clean_stuck = true;
		}
		if (sim->clean_stuck || sim->clean_pending)
			break;
		sim->clean_pending = true;
		sim_start(&sim->clean_timer, SIM_CLEAN_LATENCY_NS);
		break;
	default:
		break;
	}
}

/* ---- register file ------------------------------------------------------- */

static void sim_set_lo(u64 *r, u32 v)
{
	*r = (*r & GENMASK_ULL(63, 32)) | v;
}

static void sim_set_hi(u64 *r, u32 v)
{
	*r = (*r & GENMASK_ULL(31, 0)) | ((u64)v << 32);
}

/* The 64-bit AS register at @off (its LO or HI half), NULL for others. */
static u64 *sim_as_reg64(struct sim_as *as, u32 off)
{
	switch (off & ~4U) {
	case 0x00:
		return &as->transtab;
	case 0x08:
		return &as->memattr;
	case 0x10:
		return &as->lockaddr;
	case 0x20:
		return &as->faultaddress;
	case 0x30:
		return &as->transcfg;
	default:
		return NULL;
	}
}

static struct sim_as *sim_as_of(struct mpc_sim *sim, u32 reg, u32 *off)
{
	u32 asn = (reg - MMU_AS(0)) >> 6;

	*off = (reg - MMU_AS(0)) & 0x3f;
	return asn < SIM_NR_AS ? &sim->as[asn] : NULL;
}

static u32 sim_as_read(struct mpc_sim *sim, u32 reg)
{
	struct sim_as *as;
	u64 *r;
	u32 off;

	as = sim_as_of(sim, reg, &off);
	if (!as)
		return 0;
	if (off == 0x1c)
		return as->faultstatus;
	/* AS_STATUS reads 0: commands complete at once */
	r = sim_as_reg64(as, off);
	if (!r)
		return 0;
	return off & 4 ? upper_32_bits(*r) : lower_32_bits(*r);
}

static void sim_as_write(struct mpc_sim *sim, u32 reg, u32 val)
{
	struct sim_as *as;
	u64 *r;
	u32 off;

	as = sim_as_of(sim, reg, &off);
	if (!as)
		return;
	if (off == 0x18) {
		/* No TLB is modelled: LOCK, UNLOCK and the flushes are no-ops */
		if (val == AS_COMMAND_UPDATE) {
			as->live_transtab = as->transtab;
			as->live_transcfg = as->transcfg;
		}
		return;
	}
	r = sim_as_reg64(as, off);
	/* AS_FAULTADDRESS is read-only */
	if (!r || r == &as->faultaddress)
		return;
	if (off & 4)
		sim_set_hi(r, val);
	else
		sim_set_lo(r, val);
}

static u32 sim_read_locked(struct mpc_sim *sim, u32 reg)
{
	switch (reg) {
	case GPU_ID:
		return sim->prod->gpu_id;
	case GPU_L2_FEATURES:
		return sim->prod->l2_features;
	case GPU_MEM_FEATURES:
		return sim->mem_features;
	case GPU_MMU_FEATURES:
		return SIM_MMU_FEATURES;
	case GPU_AS_PRESENT:
		return GENMASK(SIM_NR_AS - 1, 0);
	case GPU_JS_PRESENT:
		return SIM_JS_PRESENT;
	case GPU_INT_RAWSTAT:
		return sim->gpu_irq_raw;
	case GPU_INT_MASK:
		return sim->gpu_irq_mask;
	case GPU_INT_STAT:
		return sim->gpu_irq_raw & sim->gpu_irq_mask;
	case GPU_STATUS:
		return (sim->sample_pending || sim->clean_pending ? GPU_STATUS_ACTIVE : 0) |
		       (sim->sample_pending ? GPU_STATUS_PRFCNT_ACTIVE : 0);
	case GPU_FAULT_STATUS:
		return sim->fault_status;
	case GPU_FAULT_ADDRESS_LO:
		return lower_32_bits(sim->fault_address);
	case GPU_FAULT_ADDRESS_HI:
		return upper_32_bits(sim->fault_address);
	case GPU_PERFCNT_BASE_LO:
		return lower_32_bits(sim->perfcnt_base);
	case GPU_PERFCNT_BASE_HI:
		return upper_32_bits(sim->perfcnt_base);
	case GPU_PERFCNT_CFG:
		return sim->perfcnt_cfg;
	case GPU_PRFCNT_JM_EN:
		return sim->en_jm;
	case GPU_PRFCNT_SHADER_EN:
		return sim->en_shader;
	case GPU_PRFCNT_TILER_EN:
		return sim->en_tiler;
	case GPU_PRFCNT_MMU_L2_EN:
		return sim->en_mmu_l2;
	case GPU_CYCLE_COUNT_LO:
		return lower_32_bits(sim_cycle_count(sim));
	case GPU_CYCLE_COUNT_HI:
		return upper_32_bits(sim_cycle_count(sim));
	case GPU_TIMESTAMP_LO:
		return lower_32_bits(sim_timestamp());
	case GPU_TIMESTAMP_HI:
		return upper_32_bits(sim_timestamp());
	case GPU_SHADER_PRESENT_LO:
		return lower_32_bits(sim->shader_present);
	case GPU_SHADER_PRESENT_HI:
		return upper_32_bits(sim->shader_present);
	case GPU_TILER_PRESENT_LO:
		return 1;
	case GPU_L2_PRESENT_LO:
		return lower_32_bits(sim->l2_present);
	case GPU_L2_PRESENT_HI:
		return upper_32_bits(sim->l2_present);
	case GPU_SHADER_READY_LO:
		return lower_32_bits(sim->shader_ready);
	case GPU_SHADER_READY_HI:
		return upper_32_bits(sim->shader_ready);
	case GPU_TILER_READY_LO:
		return lower_32_bits(sim->tiler_ready);
	case GPU_L2_READY_LO:
		return lower_32_bits(sim->l2_ready);
	case GPU_L2_READY_HI:
		return upper_32_bits(sim->l2_ready);
	case JOB_INT_RAWSTAT:
		return sim->job_irq_raw;
	case JOB_INT_MASK:
		return sim->job_irq_mask;
	case JOB_INT_STAT:
		return sim->job_irq_raw & sim->job_irq_mask;
	case MMU_INT_RAWSTAT:
		return sim->mmu_irq_raw;
	case MMU_INT_MASK:
		return sim->mmu_irq_mask;
	case MMU_INT_STAT:
		return sim->mmu_irq_raw & sim->mmu_irq_mask;
	default:
		if (reg >= MMU_AS(0) && reg < MMU_AS(SIM_NR_AS))
			return sim_as_read(sim, reg);
		return 0;
	}
}

/* Power a domain up or down; the model is advanced first. */
static void sim_power(struct mpc_sim *sim, u64 *ready, u64 present, u64 mask, bool on)
{
	sim_advance(sim, ktime_get_raw_ns());
	if (on)
		*ready |= mask & present;
	else
		*ready &= ~mask;
	sim->gpu_irq_raw |= GPU_IRQ_POWER_CHANGED | GPU_IRQ_POWER_CHANGED_ALL;
}

static void sim_write_cfg(struct mpc_sim *sim, u32 val)
{
	u64 now = ktime_get_raw_ns();
	bool was_on = sim_counting(sim);

	sim_advance(sim, now);
	sim->perfcnt_cfg = val;
	if (!was_on && sim_counting(sim))
		sim_clear_counters(sim, now);
	/* Our model of PRLAM-8186: tiler enabled when MANUAL is set breaks it */
	if (PERFCNT_CFG_MODE(val) == PERFCNT_CFG_MODE_OFF)
		sim->tiler_broken = false;
	else if (sim->hw_issue_8186 && !was_on && sim->en_tiler)
		sim->tiler_broken = true;
}

static void sim_write_locked(struct mpc_sim *sim, u32 reg, u32 val)
{
	u64 v = val;

	switch (reg) {
	case GPU_INT_CLEAR:
		sim->gpu_irq_raw &= ~val;
		break;
	case GPU_INT_MASK:
		sim->gpu_irq_mask = val;
		break;
	case GPU_CMD:
		sim_command(sim, val);
		break;
	case GPU_PERFCNT_BASE_LO:
		sim_set_lo(&sim->perfcnt_base, val);
		break;
	case GPU_PERFCNT_BASE_HI:
		sim_set_hi(&sim->perfcnt_base, val);
		break;
	case GPU_PERFCNT_CFG:
		sim_write_cfg(sim, val);
		break;
	case GPU_PRFCNT_JM_EN:
		sim->en_jm = val;
		break;
	case GPU_PRFCNT_SHADER_EN:
		sim->en_shader = val;
		break;
	case GPU_PRFCNT_TILER_EN:
		sim->en_tiler = val;
		break;
	case GPU_PRFCNT_MMU_L2_EN:
		sim->en_mmu_l2 = val;
		break;
	case GPU_SHADER_PWRON_LO:
	case GPU_SHADER_PWRON_HI:
	case GPU_SHADER_PWROFF_LO:
	case GPU_SHADER_PWROFF_HI:
		sim_power(sim, &sim->shader_ready, sim->shader_present,
			  reg & 4 ? v << 32 : v, reg < GPU_SHADER_PWROFF_LO);
		break;
	case GPU_TILER_PWRON_LO:
	case GPU_TILER_PWROFF_LO:
		sim_power(sim, &sim->tiler_ready, 1, v, reg == GPU_TILER_PWRON_LO);
		break;
	case GPU_L2_PWRON_LO:
	case GPU_L2_PWRON_HI:
	case GPU_L2_PWROFF_LO:
	case GPU_L2_PWROFF_HI:
		sim_power(sim, &sim->l2_ready, sim->l2_present,
			  reg & 4 ? v << 32 : v, reg < GPU_L2_PWROFF_LO);
		break;
	case JOB_INT_CLEAR:
		sim->job_irq_raw &= ~val;
		break;
	case JOB_INT_MASK:
		sim->job_irq_mask = val;
		break;
	case MMU_INT_CLEAR:
		sim->mmu_irq_raw &= ~val;
		break;
	case MMU_INT_MASK:
		sim->mmu_irq_mask = val;
		break;
	default:
		if (reg >= MMU_AS(0) && reg < MMU_AS(SIM_NR_AS))
			sim_as_write(sim, reg, val);
		break;
	}
	sim_update_lines(sim);
}

static u32 sim_read(void *ctx, u32 reg)
{
	struct mpc_sim *sim = ctx;
	unsigned long flags;
	u32 val;

	spin_lock_irqsave(&sim->lock, flags);
	val = sim_read_locked(sim, reg);
	spin_unlock_irqrestore(&sim->lock, flags);
	return val;
}

static void sim_write(void *ctx, u32 reg, u32 val)
{
	struct mpc_sim *sim = ctx;
	unsigned long flags;

	spin_lock_irqsave(&sim->lock, flags);
	sim_write_locked(sim, reg, val);
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
	return (u64)sim->mhz * 1000000;
}

/* ---- debugfs: workload and fault injection ------------------------------ */

static ssize_t sim_workload_read(struct file *file, char __user *ubuf,
				 size_t count, loff_t *ppos)
{
	struct mpc_sim *sim = file->private_data;
	char text[16];
	int len;

	spin_lock_irq(&sim->lock);
	if (sim->load_pct)
		len = scnprintf(text, sizeof(text), "busy=%u\n", sim->load_pct);
	else
		len = scnprintf(text, sizeof(text), "idle\n");
	spin_unlock_irq(&sim->lock);
	return simple_read_from_buffer(ubuf, count, ppos, text, len);
}

static ssize_t sim_workload_write(struct file *file, const char __user *ubuf,
				  size_t count, loff_t *ppos)
{
	struct mpc_sim *sim = file->private_data;
	char buf[16], *text;
	u32 load;

	text = mpc_debugfs_text(buf, sizeof(buf), ubuf, count, ppos);
	if (IS_ERR(text))
		return PTR_ERR(text);

	if (!strcmp(text, "idle")) {
		load = 0;
	} else if (strncmp(text, "busy=", 5) || kstrtou32(text + 5, 10, &load) || load > 100) {
		pr_debug(MPC_DRIVER_NAME ": sim_workload: want \"idle\" or \"busy=N\", N in 0..100\n");
		return -EINVAL;
	}

	spin_lock_irq(&sim->lock);
	sim_advance(sim, ktime_get_raw_ns());
	sim->load_pct = load;
	spin_unlock_irq(&sim->lock);
	return count;
}

static const struct file_operations sim_workload_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.read = sim_workload_read,
	.write = sim_workload_write,
	.llseek = default_llseek,
};

static const char * const sim_fault_names[] = {
	[SIM_FAULT_NONE] = "none",
	[SIM_FAULT_DROP_IRQ] = "drop_irq",
	[SIM_FAULT_DELAY] = "delay",
	[SIM_FAULT_STUCK_CLEAN] = "stuck_clean",
	[SIM_FAULT_GPU_FAULT] = "gpu_fault",
};

static ssize_t sim_fault_read(struct file *file, char __user *ubuf,
			      size_t count, loff_t *ppos)
{
	struct mpc_sim *sim = file->private_data;
	char text[32];
	int len;

	spin_lock_irq(&sim->lock);
	if (sim->armed == SIM_FAULT_DELAY)
		len = scnprintf(text, sizeof(text), "delay=%u\n", sim->armed_delay_ms);
	else
		len = scnprintf(text, sizeof(text), "%s\n", sim_fault_names[sim->armed]);
	spin_unlock_irq(&sim->lock);
	return simple_read_from_buffer(ubuf, count, ppos, text, len);
}

static ssize_t sim_fault_write(struct file *file, const char __user *ubuf,
			       size_t count, loff_t *ppos)
{
	struct mpc_sim *sim = file->private_data;
	unsigned int fault;
	char buf[32], *text;
	u32 delay = 0;

	text = mpc_debugfs_text(buf, sizeof(buf), ubuf, count, ppos);
	if (IS_ERR(text))
		return PTR_ERR(text);

	for (fault = SIM_FAULT_NONE; fault < ARRAY_SIZE(sim_fault_names); fault++)
		if (fault != SIM_FAULT_DELAY && !strcmp(text, sim_fault_names[fault]))
			break;
	if (fault == ARRAY_SIZE(sim_fault_names)) {
		if (strncmp(text, "delay=", 6) || kstrtou32(text + 6, 10, &delay) ||
		    delay > SIM_MAX_DELAY_MS) {
			pr_debug(MPC_DRIVER_NAME ": sim_fault: want none, drop_irq, delay=MS (<= %d), stuck_clean or gpu_fault\n",
				 SIM_MAX_DELAY_MS);
			return -EINVAL;
		}
		fault = SIM_FAULT_DELAY;
	}

	spin_lock_irq(&sim->lock);
	sim->armed = fault;
	sim->armed_delay_ms = delay;
	spin_unlock_irq(&sim->lock);
	return count;
}

static const struct file_operations sim_fault_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.read = sim_fault_read,
	.write = sim_fault_write,
	.llseek = default_llseek,
};

/**
 * mpc_sim_debugfs_init() - create the simulator's debugfs files
 * @sim: simulator.
 * @root: directory to create them in.
 */
void mpc_sim_debugfs_init(struct mpc_sim *sim, struct dentry *root)
{
	debugfs_create_file("sim_workload", 0600, root, sim, &sim_workload_fops);
	debugfs_create_file("sim_fault", 0600, root, sim, &sim_fault_fops);
}

/* ---- creation ------------------------------------------------------------ */

static void sim_free(struct mpc_sim *sim)
{
	kfree(sim->acc);
	kfree(sim->latched);
	kfree(sim->l2_data);
	bitmap_free(sim->l2_dirty);
	kfree(sim->l2_pa);
	kfree(sim);
}

/**
 * mpc_sim_create() - build a simulated GPU
 * @product: product name (see mpc_sim_model.c).
 * @cores: SHADER_PRESENT, 0 for the product's default.
 * @l2_slices: L2 slices (v5 only), 0 for the default.
 * @mhz: modelled clock, 0 for the default.
 * @out: the new simulator.
 *
 * Return: 0, -EINVAL for a parameter it cannot simulate, -ENOMEM.
 */
int mpc_sim_create(const char *product, u64 cores, u32 l2_slices, u32 mhz,
		   struct mpc_sim **out)
{
	const struct mpc_sim_product *prod = mpc_sim_product_find(product);
	struct mpc_sim *sim;
	unsigned int i, nr_pages;
	u32 blocks;

	if (!prod) {
		pr_err(MPC_DRIVER_NAME ": sim=%s: unknown product; use one of t600 t720 t760 t820 t830 t860 t880 g71 g72 g51 g76 g52 g31 g57\n",
		       product);
		return -EINVAL;
	}
	cores = cores ?: prod->shader_present;
	l2_slices = prod->v4 ? 1 : (l2_slices ?: prod->l2_slices);
	mhz = mhz ?: prod->mhz;
	if (prod->v4 && fls64(cores) > MPC_V4_SC_PER_GROUP * hweight64(prod->l2_present)) {
		pr_err(MPC_DRIVER_NAME ": sim_cores=0x%llx: %s has room for %u cores per core group\n",
		       cores, product, MPC_V4_SC_PER_GROUP);
		return -EINVAL;
	}
	if (l2_slices > SIM_MAX_L2) {
		pr_err(MPC_DRIVER_NAME ": sim_l2=%u: at most %d slices\n", l2_slices, SIM_MAX_L2);
		return -EINVAL;
	}
	if (mhz > 5000) {
		pr_err(MPC_DRIVER_NAME ": sim_mhz=%u: at most 5000\n", mhz);
		return -EINVAL;
	}

	sim = kzalloc(sizeof(*sim), GFP_KERNEL);
	if (!sim)
		return -ENOMEM;
	sim->prod = prod;
	sim->shader_present = cores;
	sim->l2_present = prod->l2_present;
	sim->nr_l2 = prod->v4 ? hweight64(prod->l2_present) : l2_slices;
	sim->mem_features = ((l2_slices - 1) << 8) | MEM_FEATURES_COHERENT_GROUP;
	sim->mhz = mhz;
	sim->hw_issue_8186 = prod->gpu_id == 0x69560001;
	if (prod->v4)
		blocks = MPC_V4_BLOCKS_PER_GROUP * sim->nr_l2;
	else
		blocks = 2 + sim->nr_l2 + fls64(cores);
	sim->dump_size = blocks * MPC_BLOCK_BYTES;
	sim->nr_units = 2 + sim->nr_l2 + fls64(cores);
	nr_pages = DIV_ROUND_UP(sim->dump_size, PAGE_SIZE) + 1;

	sim->acc = kcalloc(sim->nr_units, sizeof(*sim->acc), GFP_KERNEL);
	sim->latched = kcalloc(sim->nr_units, sizeof(*sim->latched), GFP_KERNEL);
	sim->l2_data = kzalloc(sim->dump_size, GFP_KERNEL);
	sim->l2_dirty = bitmap_zalloc(sim->dump_size / SIM_L2_GRANULE, GFP_KERNEL);
	sim->l2_pa = kcalloc(nr_pages, sizeof(*sim->l2_pa), GFP_KERNEL);
	if (!sim->acc || !sim->latched || !sim->l2_data || !sim->l2_dirty || !sim->l2_pa)
		goto err_free;

	spin_lock_init(&sim->lock);
	hrtimer_init(&sim->sample_timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL);
	sim->sample_timer.function = sim_sample_done;
	hrtimer_init(&sim->clean_timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL);
	sim->clean_timer.function = sim_clean_done;
	hrtimer_init(&sim->reset_timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL);
	sim->reset_timer.function = sim_reset_done;
	for (i = 0; i < SIM_NR_LINES; i++) {
		sim->lines[i].work = IRQ_WORK_INIT_HARD(sim_line_work_fn);
		sim->lines[i].sim = sim;
		sim->lines[i].line = i;
		atomic_set(&sim->lines[i].busy, 0);
		atomic_set(&sim->lines[i].again, 0);
	}

	sim->domain = irq_domain_create_linear(NULL, SIM_NR_LINES, &sim_irq_ops, sim);
	if (!sim->domain)
		goto err_free;

	spin_lock_irq(&sim->lock);
	sim_reset_state(sim);
	spin_unlock_irq(&sim->lock);

	pr_info(MPC_DRIVER_NAME ": simulating %s: GPU_ID 0x%08x, cores 0x%llx, %u L2 slice(s), %u MHz\n",
		product, prod->gpu_id, cores, l2_slices, mhz);
	*out = sim;
	return 0;

err_free:
	sim_free(sim);
	return -ENOMEM;
}

/**
 * mpc_sim_destroy() - tear a simulated GPU down
 * @sim: simulator; its device must be gone (no IRQ handler installed).
 */
void mpc_sim_destroy(struct mpc_sim *sim)
{
	unsigned int i, virq;

	hrtimer_cancel(&sim->sample_timer);
	hrtimer_cancel(&sim->clean_timer);
	hrtimer_cancel(&sim->reset_timer);
	for (i = 0; i < SIM_NR_LINES; i++) {
		irq_work_sync(&sim->lines[i].work);
		virq = irq_find_mapping(sim->domain, i);
		if (virq)
			irq_dispose_mapping(virq);
	}
	irq_domain_remove(sim->domain);
	sim_free(sim);
}
