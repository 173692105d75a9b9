// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * mali_model: a job-manager Mali GPU as a bus device (see mali_model.h).
 *
 * It stands behind the same boundary as real hardware: 32-bit register reads
 * and writes and three interrupt lines. Like a bus master it reads
 * translation tables and writes dumps through physical addresses only, which
 * it finds by walking the tables the driver programmed into the address
 * space PRFCNT_CONFIG.AS selects.
 *
 * Timing is asynchronous as on hardware: a sample, a cache clean and a reset
 * complete after a short delay (host timers), then raise their interrupt.
 * The dump lands in a model of the GPU's L2 first and reaches memory only
 * when the driver cleans the caches, so a driver that skips the clean reads
 * stale data, as it would on a real board.
 */
#include "mali_model_port.h"
#include "mali_model.h"
#include "mali_model_products.h"
#include "mali_hw_regs.h"

#define MM_NR_AS		8
#define MM_JS_PRESENT		0x7
/* TIMESTAMP ticks at 24 MHz: ns * 3 / 125 */
#define MM_TIMESTAMP_MUL	3
#define MM_TIMESTAMP_DIV	125
#define MM_NS_PER_US		1000ULL
#define MM_NS_PER_MS		1000000ULL
#define MM_SAMPLE_LATENCY_NS	(20 * MM_NS_PER_US)
#define MM_CLEAN_LATENCY_NS	(10 * MM_NS_PER_US)
#define MM_RESET_LATENCY_NS	(50 * MM_NS_PER_US)
#define MM_POWER_LATENCY_NS	(200 * MM_NS_PER_US)
#define MM_AS_LATENCY_NS	(5 * MM_NS_PER_US)
/* A dump write waiting this long on a LOCK: the driver forgot to unlock */
#define MM_STALL_REPORT_NS	(500 * MM_NS_PER_MS)
#define MM_MAX_DELAY_MS		5000
#define MM_MAX_MHZ		5000
/* The hardware ignores the low bits of PRFCNT_BASE */
#define MM_PRFCNT_BASE_MASK	(~0xffULL)
/* Dirty tracking granule of the modelled L2: one 4-counter group */
#define MM_L2_GRANULE		16
#define MM_MAX_DUMP		(MM_MAX_UNITS * MALI_HW_DUMP_BLOCK_BYTES)
#define MM_MAX_GRANULES		(MM_MAX_DUMP / MM_L2_GRANULE)
/* Pages a dump can touch: it need not start on a page boundary */
#define MM_MAX_DUMP_PAGES	(MM_MAX_DUMP / MALI_HW_PAGE_SIZE + 2)
#define MM_PAGE_MASK		(~(MALI_HW_PAGE_SIZE - 1))
#define MM_MSG			160
/* Translations each address space's TLB holds (4 KiB pages) */
#define MM_TLB_ENTRIES		16
/* l2_pa of a page the model must not write (a stale translation) */
#define MM_PA_NONE		(~0ULL)
#define MM_NR_JS		3
/* Jobs a slot runs per host timer, and the model time that may take */
#define MM_JS_BATCH		16
#define MM_JS_QUANTUM_NS	(50 * MM_NS_PER_US)
/* A chain that has run this many jobs is reported as looping */
#define MM_JS_LOOP_JOBS		65536
/*
 * Model time of a job, in GPU cycles: a fixed cost (header and descriptor
 * fetch), then per unit of work its descriptor states. Shader core work
 * is split over the cores of the affinity that are powered.
 */
#define MM_JOB_CYCLES		500
#define MM_FRAG_TILE_CYCLES	256	/* a 16x16 tile, a pixel a cycle */
#define MM_THREAD_CYCLES	4	/* a compute/vertex invocation */
#define MM_TILER_VERTEX_CYCLES	2	/* a vertex through the tiler */

/* Power domains */
enum mm_pwr {
	MM_PWR_SHADER,
	MM_PWR_TILER,
	MM_PWR_L2,
	MM_NR_PWR,
};

enum mm_fault {
	MM_FAULT_NONE,
	MM_FAULT_DROP_IRQ,
	MM_FAULT_DELAY,
	MM_FAULT_STUCK_CLEAN,
	MM_FAULT_GPU_FAULT,
	MM_FAULT_SOFT_RESET_STUCK,
	MM_FAULT_DEAD,
	MM_FAULT_LATE_IRQ,
	MM_FAULT_STUCK_POWER,
	MM_NR_FAULTS,
};

static const char * const mm_fault_names[MM_NR_FAULTS] = {
	[MM_FAULT_NONE] = "none",
	[MM_FAULT_DROP_IRQ] = "drop_irq",
	[MM_FAULT_DELAY] = "delay",
	[MM_FAULT_STUCK_CLEAN] = "stuck_clean",
	[MM_FAULT_GPU_FAULT] = "gpu_fault",
	[MM_FAULT_SOFT_RESET_STUCK] = "soft_reset_stuck",
	[MM_FAULT_DEAD] = "dead",
	[MM_FAULT_LATE_IRQ] = "late_irq",
	[MM_FAULT_STUCK_POWER] = "stuck_power",
};

/**
 * struct mm_tlb_entry - one cached translation
 * @va: page-aligned GPU virtual address.
 * @pa: page-aligned physical address it translated to.
 * @valid: the entry holds a translation.
 */
struct mm_tlb_entry {
	uint64_t va;
	uint64_t pa;
	bool valid;
};

/**
 * struct mm_as - one address space of the MMU
 * @transtab: AS_TRANSTAB as written.
 * @memattr: AS_MEMATTR as written.
 * @transcfg: AS_TRANSCFG as written.
 * @lockaddr: AS_LOCKADDR as written.
 * @live_transtab: AS_TRANSTAB latched by AS_COMMAND_UPDATE, used to walk.
 * @live_transcfg: AS_TRANSCFG latched by AS_COMMAND_UPDATE.
 * @faultstatus: AS_FAULTSTATUS.
 * @faultaddress: AS_FAULTADDRESS.
 * @active: AS_STATUS ACTIVE: a command runs (until MALI_MODEL_TIMER_AS).
 * @cmd: the command that runs while @active.
 * @locked: a LOCK is in force, until an UNLOCK, FLUSH_PT or FLUSH_MEM
 *	completes. GPU accesses through the region stall meanwhile.
 * @lock_base: start of the locked region.
 * @lock_size: bytes of the locked region.
 * @tlb: cached translations. As on hardware, AS_COMMAND_UPDATE does not
 *	drop them (it only broadcasts TRANSTAB/MEMATTR/TRANSCFG); UNLOCK,
 *	FLUSH_PT and FLUSH_MEM drop those in the LOCKADDR region, a reset
 *	drops all.
 * @tlb_next: entry the next miss replaces (round robin).
 */
struct mm_as {
	uint64_t transtab;
	uint64_t memattr;
	uint64_t transcfg;
	uint64_t lockaddr;
	uint64_t live_transtab;
	uint64_t live_transcfg;
	uint32_t faultstatus;
	uint64_t faultaddress;
	bool active;
	uint32_t cmd;
	bool locked;
	uint64_t lock_base;
	uint64_t lock_size;
	struct mm_tlb_entry tlb[MM_TLB_ENTRIES];
	unsigned int tlb_next;
};

enum mm_js_wait {
	MM_JS_WAIT_NONE,	/* a batch is in flight (or being planned) */
	MM_JS_WAIT_MMU,		/* a descriptor access stalls on an MMU fault */
	MM_JS_WAIT_DEP,		/* the next job's dependency never completes */
	MM_JS_WAIT_POWER,	/* the L2 or the affinity's cores are off */
};

/**
 * struct mm_job - one job of a batch in flight
 * @va: its header's GPU address.
 * @next: the next job's address, 0 at the end of the chain.
 * @type: header job type.
 * @kind: what it counts as.
 * @index: header job index.
 * @dep: header dependency indices (0: none).
 * @cycles: model time it takes.
 * @tasks: tiles, workgroups or primitives.
 * @threads: pixels or invocations.
 * @nr_cores: shader cores it runs on (at least 1).
 * @wv_addr: Write Value target.
 * @wv_type: Write Value type.
 * @wv_value: Write Value immediate.
 */
struct mm_job {
	uint64_t va;
	uint64_t next;
	uint32_t type;
	enum mali_model_job_kind kind;
	unsigned int index;
	unsigned int dep[2];
	uint64_t cycles;
	uint64_t tasks;
	uint64_t threads;
	unsigned int nr_cores;
	uint64_t wv_addr;
	uint32_t wv_type;
	uint64_t wv_value;
};

/**
 * struct mm_js - one job slot
 * @head_next: JS_HEAD_NEXT.
 * @affinity_next: JS_AFFINITY_NEXT.
 * @config_next: JS_CONFIG_NEXT.
 * @xaffinity_next: JS_XAFFINITY_NEXT.
 * @flush_id_next: JS_FLUSH_ID_NEXT.
 * @command_next: JS_COMMAND_NEXT: START until the slot takes the _NEXT set.
 * @head: JS_HEAD: the job the slot is at.
 * @tail: JS_TAIL: the last job completed; after a stop or fault, the job
 *	to resume from (the one that stopped or faulted).
 * @affinity: JS_AFFINITY of the chain (within SHADER_PRESENT).
 * @config: JS_CONFIG of the chain.
 * @xaffinity: JS_XAFFINITY of the chain.
 * @flush_id: the chain's flush ID (no register).
 * @status: JS_STATUS: ACTIVE while it runs, then how it ended.
 * @active: a chain runs (JOB_IRQ_JS_STATE bit).
 * @busy_until: model time the batch in flight takes until (the slot is
 *	busy until then, not until the host's timer fires, which may be
 *	late); ~0 while the chain waits (an MMU fault, a dependency, power).
 * @wait: why the chain does not progress, if it does not.
 * @soft_stop: a SOFT_STOP takes effect when the batch in flight completes.
 * @fault_exception: MMU exception of the fault a job stalls on.
 * @next_va: the next job to decode, 0 at the end of the chain.
 * @batch: jobs in flight, completing when the slot's timer fires.
 * @nr_batch: entries of @batch.
 * @nr_jobs: jobs of this chain completed.
 * @loop_reported: the chain was reported as looping.
 * @done: job indices of this chain completed, a bitmap.
 */
struct mm_js {
	uint64_t head_next;
	uint64_t affinity_next;
	uint32_t config_next;
	uint32_t xaffinity_next;
	uint32_t flush_id_next;
	uint32_t command_next;
	uint64_t head;
	uint64_t tail;
	uint64_t affinity;
	uint32_t config;
	uint32_t xaffinity;
	uint32_t flush_id;
	uint32_t status;
	bool active;
	uint64_t busy_until;
	enum mm_js_wait wait;
	bool soft_stop;
	uint32_t fault_exception;
	uint64_t next_va;
	struct mm_job batch[MM_JS_BATCH];
	unsigned int nr_batch;
	uint64_t nr_jobs;
	bool loop_reported;
	uint8_t done[65536 / 8];
};

/**
 * struct mali_model - one modelled GPU
 * @ops: host interface.
 * @host: its context.
 * @prod: product being modelled.
 * @shader_present: SHADER_PRESENT.
 * @l2_present: L2_PRESENT.
 * @nr_l2: L2 slices (v5) or core groups (v4).
 * @mem_features: MEM_FEATURES.
 * @mmu_features: MMU_FEATURES.
 * @mhz: modelled clock.
 * @hw_issue_8186: this revision has PRLAM-8186.
 * @dump_size: bytes of one dump.
 * @nr_units: rows of counters in use.
 * @nr_reports: driver errors reported.
 * @gpu_irq_raw: GPU_IRQ_RAWSTAT.
 * @gpu_irq_mask: GPU_IRQ_MASK.
 * @mmu_irq_raw: MMU_IRQ_RAWSTAT.
 * @mmu_irq_mask: MMU_IRQ_MASK.
 * @job_irq_raw: JOB_IRQ_RAWSTAT.
 * @job_irq_mask: JOB_IRQ_MASK.
 * @fault_status: GPU_FAULTSTATUS.
 * @fault_address: GPU_FAULTADDRESS.
 * @pwr_unlocked: PWR_KEY was written with the unlock value, and no
 *	PWR_OVERRIDE write since.
 * @pwr_override: PWR_OVERRIDE0 and PWR_OVERRIDE1.
 * @shader_ready: SHADER_READY.
 * @tiler_ready: TILER_READY.
 * @l2_ready: L2_READY.
 * @pwr_on: per &enum mm_pwr, cores that become ready when the power
 *	transition in progress completes (MALI_MODEL_TIMER_POWER).
 * @pwr_off: per &enum mm_pwr, cores that stop being ready then. PWRTRANS
 *	reads @pwr_on | @pwr_off.
 * @prfcnt_base: PRFCNT_BASE.
 * @prfcnt_config: PRFCNT_CONFIG.
 * @en_jm: PRFCNT_JM_EN.
 * @en_shader: PRFCNT_SHADER_EN.
 * @en_tiler: PRFCNT_TILER_EN.
 * @en_mmu_l2: PRFCNT_MMU_L2_EN.
 * @tiler_broken: PRLAM-8186 struck: tiler counters are not collected.
 * @cycle_counting: CYCLE_COUNT runs.
 * @cycle_acc: cycles counted before @cycle_start_ns.
 * @cycle_start_ns: when the cycle counter last started.
 * @coherent: the integration is I/O coherent (&mali_model_config.coherent).
 * @coherency_reset: COHERENCY_ENABLE's reset value.
 * @coherency_enable: COHERENCY_ENABLE.
 * @jm_config: JM_CONFIG (stored; only its G71 coherency field acts).
 * @coherency_checked: COHERENCY_ENABLE was checked against the integration
 *	at the first memory access since the reset.
 * @as: address spaces.
 * @load_pct: modelled load, 0..100.
 * @last_ns: time the model was last advanced to.
 * @rows: two sets of 64-bit counters, 64 per unit (MM_UNIT_*): the live
 *	ones (@acc_set) and those latched by the sample command in progress.
 * @acc_set: index of the live set in @rows.
 * @latched_ts: TIMESTAMP when the latched set was latched.
 * @latched_valid: the sample command found the counters running.
 * @l2_data: the modelled L2's copy of the dump, little-endian.
 * @l2_dirty: granules of @l2_data not yet written to memory, a bitmap.
 * @l2_pa: physical address of each page of the dump, from the last sample.
 * @l2_base_off: offset of the dump in its first page.
 * @sample_pending: a sample is in progress.
 * @sample_base: PRFCNT_BASE captured by the sample command.
 * @sample_as: address space captured by the sample command.
 * @sample_drop_irq: the sample in progress will not raise its interrupt.
 * @sample_gpu_fault: the sample in progress will fault.
 * @sample_stalled: the sample in progress waits for the LOCK of its
 *	address space to be released: its dump is in the locked region.
 * @stall_reported: the stall in progress was reported.
 * @clean_pending: a cache clean is in progress.
 * @clean_stuck: cache cleans never complete until the next reset.
 * @soft_reset_stuck: soft resets never complete until a hard reset.
 * @power_stuck: the shader cores' power transitions never complete until
 *	the next reset (%MM_FAULT_STUCK_POWER).
 * @dead: no reset completes (soft or hard) until the fault is disarmed.
 * @stall_ms: the host stalls the reader of GPU_IRQ_STATUS this long
 *	(%MM_FAULT_LATE_IRQ), taken by mali_model_take_stall_ms().
 * @armed: fault armed for the next sample or clean.
 * @armed_delay_ms: sample latency of %MM_FAULT_DELAY, stall of
 *	%MM_FAULT_LATE_IRQ.
 * @js: job slots.
 * @js_stats: what each slot ran (kept across resets).
 * @jobs_busy_ns: model time any slot ran a chain.
 * @js_acct_ns: time @js_stats and @jobs_busy_ns were accounted up to.
 * @latest_flush_id: LATEST_FLUSH_ID, bumped by each cache flush.
 */
struct mali_model {
	const struct mali_model_host_ops *ops;
	void *host;
	const struct mali_model_product *prod;
	uint64_t shader_present;
	uint64_t l2_present;
	uint32_t nr_l2;
	uint32_t mem_features;
	uint32_t mmu_features;
	uint32_t mhz;
	bool hw_issue_8186;
	uint32_t dump_size;
	uint32_t nr_units;
	uint32_t nr_reports;

	uint32_t gpu_irq_raw;
	uint32_t gpu_irq_mask;
	uint32_t mmu_irq_raw;
	uint32_t mmu_irq_mask;
	uint32_t job_irq_raw;
	uint32_t job_irq_mask;
	uint32_t fault_status;
	uint64_t fault_address;
	bool pwr_unlocked;
	uint32_t pwr_override[2];
	uint64_t shader_ready;
	uint64_t tiler_ready;
	uint64_t l2_ready;
	uint64_t pwr_on[MM_NR_PWR];
	uint64_t pwr_off[MM_NR_PWR];
	uint64_t prfcnt_base;
	uint32_t prfcnt_config;
	uint32_t en_jm;
	uint32_t en_shader;
	uint32_t en_tiler;
	uint32_t en_mmu_l2;
	bool tiler_broken;
	bool cycle_counting;
	uint64_t cycle_acc;
	uint64_t cycle_start_ns;
	bool coherent;
	uint32_t coherency_reset;
	uint32_t coherency_enable;
	uint32_t jm_config;
	bool coherency_checked;
	struct mm_as as[MM_NR_AS];
	uint32_t load_pct;
	uint64_t last_ns;
	struct mali_model_row rows[2][MM_MAX_UNITS];
	unsigned int acc_set;
	uint64_t latched_ts;
	bool latched_valid;
	uint8_t l2_data[MM_MAX_DUMP];
	uint8_t l2_dirty[MM_MAX_GRANULES / 8];
	uint64_t l2_pa[MM_MAX_DUMP_PAGES];
	uint32_t l2_base_off;
	bool sample_pending;
	uint64_t sample_base;
	uint32_t sample_as;
	bool sample_drop_irq;
	bool sample_gpu_fault;
	bool sample_stalled;
	bool stall_reported;
	bool clean_pending;
	bool clean_stuck;
	bool soft_reset_stuck;
	bool power_stuck;
	bool dead;
	uint32_t stall_ms;
	enum mm_fault armed;
	uint32_t armed_delay_ms;
	struct mm_js js[MM_NR_JS];
	struct mali_model_js_stats js_stats[MM_NR_JS];
	uint64_t jobs_busy_ns;
	uint64_t js_acct_ns;
	uint32_t latest_flush_id;
};

/* ---- small helpers -------------------------------------------------------- */

static unsigned int mm_fls64(uint64_t x)
{
	unsigned int n = 0;

	while (x) {
		n++;
		x >>= 1;
	}
	return n;
}

static unsigned int mm_hweight64(uint64_t x)
{
	unsigned int n = 0;

	for (; x; x &= x - 1)
		n++;
	return n;
}

static uint32_t mm_lo(uint64_t v)
{
	return (uint32_t)v;
}

static uint32_t mm_hi(uint64_t v)
{
	return (uint32_t)(v >> 32);
}

static void mm_set_lo(uint64_t *r, uint32_t v)
{
	*r = (*r & 0xffffffff00000000ULL) | v;
}

static void mm_set_hi(uint64_t *r, uint32_t v)
{
	*r = (*r & 0xffffffffULL) | ((uint64_t)v << 32);
}

static void mm_put_le32(uint8_t *p, uint32_t v)
{
	p[0] = v;
	p[1] = v >> 8;
	p[2] = v >> 16;
	p[3] = v >> 24;
}

static void mm_set_bit(uint8_t *map, unsigned int bit)
{
	map[bit / 8] |= 1U << (bit % 8);
}

static void mm_report(struct mali_model *m, const char *msg)
{
	m->nr_reports++;
	m->ops->report(m->host, msg);
}

static uint64_t mm_now(struct mali_model *m)
{
	return m->ops->now_ns(m->host);
}

static void mm_timer_arm(struct mali_model *m, unsigned int timer, uint64_t ns)
{
	m->ops->timer_arm(m->host, timer, ns);
}

/* ---- interrupt lines ------------------------------------------------------ */

/* Drive the lines after a raw or mask change: high while RAWSTAT & MASK. */
static void mm_update_lines(struct mali_model *m)
{
	m->ops->set_irq(m->host, MALI_MODEL_IRQ_JOB, m->job_irq_raw & m->job_irq_mask);
	m->ops->set_irq(m->host, MALI_MODEL_IRQ_MMU, m->mmu_irq_raw & m->mmu_irq_mask);
	m->ops->set_irq(m->host, MALI_MODEL_IRQ_GPU, m->gpu_irq_raw & m->gpu_irq_mask);
}

/* ---- workload model and counters ----------------------------------------- */

static struct mali_model_row *mm_acc(struct mali_model *m)
{
	return m->rows[m->acc_set];
}

static struct mali_model_row *mm_latched(struct mali_model *m)
{
	return m->rows[!m->acc_set];
}

static bool mm_counting(struct mali_model *m)
{
	return MALI_HW_PRFCNT_CONFIG_MODE(m->prfcnt_config) ==
	       MALI_HW_PRFCNT_CONFIG_MODE_MANUAL;
}

/* Job slots running a chain, a bitmap */
static uint32_t mm_js_running(const struct mali_model *m)
{
	uint32_t v = 0;
	unsigned int n;

	for (n = 0; n < MM_NR_JS; n++)
		if (m->js[n].active)
			v |= MALI_HW_BIT(n);
	return v;
}

/* Bring the counters up to @now under the current load and power state. */
static void mm_advance(struct mali_model *m, uint64_t now)
{
	struct mali_model_step in = {
		.prod = m->prod,
		.load_pct = m->load_pct,
		.nr_l2 = m->nr_l2,
		.shader_powered = m->shader_ready & m->shader_present,
		.tiler_powered = m->tiler_ready & 1,
		.l2_powered = m->l2_ready & m->l2_present,
	};
	uint64_t dt = now - m->last_ns, busy = 0, cnt = 0, b, c;
	uint32_t running = mm_js_running(m);
	unsigned int n;

	/*
	 * A running slot is busy until its batch's time is up: the slots' own
	 * clock (statistics) and the counters' (cleared by samples) each from
	 * where they were last brought.
	 */
	for (n = 0; n < MM_NR_JS; n++) {
		uint64_t end = now < m->js[n].busy_until ? now : m->js[n].busy_until;

		if (!(running & MALI_HW_BIT(n)))
			continue;
		b = end > m->js_acct_ns ? end - m->js_acct_ns : 0;
		c = end > m->last_ns ? end - m->last_ns : 0;
		m->js_stats[n].busy_ns += b;
		busy = b > busy ? b : busy;
		in.js_cycles[n] = mali_model_div64(c * m->mhz, 1000);
		cnt = c > cnt ? c : cnt;
	}
	m->js_acct_ns = now;
	m->jobs_busy_ns += busy;

	m->last_ns = now;
	if (!mm_counting(m) || !dt)
		return;
	in.cycles = mali_model_div64(dt * m->mhz, 1000);
	in.job_cycles = mali_model_div64(cnt * m->mhz, 1000);
	mali_model_workload_step(&in, mm_acc(m));
}

static void mm_clear_counters(struct mali_model *m, uint64_t now)
{
	memset(mm_acc(m), 0, m->nr_units * sizeof(struct mali_model_row));
	m->last_ns = now;
}

static uint64_t mm_timestamp(struct mali_model *m)
{
	return mali_model_div64(mm_now(m) * MM_TIMESTAMP_MUL, MM_TIMESTAMP_DIV);
}

static uint64_t mm_cycle_count(struct mali_model *m)
{
	uint64_t c = m->cycle_acc;

	if (m->cycle_counting)
		c += mali_model_div64((mm_now(m) - m->cycle_start_ns) * m->mhz, 1000);
	return c;
}

/* ---- MMU ------------------------------------------------------------------ */

struct mm_xlate_fault {
	uint32_t exception;
	bool bus_error;
};

static unsigned int mm_va_bits(const struct mali_model *m)
{
	return m->mmu_features & 0xff;
}

static unsigned int mm_pa_bits(const struct mali_model *m)
{
	return (m->mmu_features >> 8) & 0xff;
}

/* COHERENCY_FEATURES: 0 on Midgard, which has neither it nor COHERENCY_ENABLE */
static uint32_t mm_coherency_features(const struct mali_model *m)
{
	return m->prod->ids->coherency_features;
}

/* The protocols the GPU honours: the G71's are what JM_CONFIG forces */
static uint32_t mm_coherency_offered(const struct mali_model *m)
{
	uint32_t forced = MALI_HW_JM_FORCE_COHERENCY(m->jm_config);

	if (m->prod->ids->coherency_forced && forced)
		return forced;
	return mm_coherency_features(m);
}

static const char *mm_coherency_name(uint32_t proto)
{
	switch (proto) {
	case MALI_HW_COHERENCY_ACE_LITE:
		return "ACE-Lite";
	case MALI_HW_COHERENCY_ACE:
		return "ACE";
	case MALI_HW_COHERENCY_NONE:
		return "NONE";
	default:
		return "reserved";
	}
}

/*
 * Before the first memory access after a reset: does the protocol in
 * COHERENCY_ENABLE fit the integration? A coherent one is I/O coherent
 * (the GPU snoops the CPU caches, never the reverse): ACE-Lite, which the
 * GPU must honour (a G71 only once JM_CONFIG forces it). Left at NONE the
 * GPU would neither snoop the CPU caches (the tables the CPU wrote may sit
 * in them, so the first walk reads stale descriptors) nor keep its writes
 * visible to them; full ACE expects snoops into the GPU's caches that an
 * I/O-coherent port never sends; on a non-coherent integration a coherent
 * protocol issues snooping transactions its port does not support. Each
 * is reported once; the model goes on as if it fit.
 */
static void mm_check_coherency(struct mali_model *m)
{
	uint32_t en = m->coherency_enable, offered = mm_coherency_offered(m);
	bool ok;
	char msg[MM_MSG];

	if (m->coherency_checked || !mm_coherency_features(m))
		return;
	m->coherency_checked = true;
	if (m->coherent)
		ok = en == MALI_HW_COHERENCY_ACE_LITE &&
		     (offered & MALI_HW_COHERENCY_BIT(en));
	else
		ok = en == MALI_HW_COHERENCY_NONE;
	if (ok)
		return;
	snprintf(msg, sizeof(msg),
		 "GPU memory access with COHERENCY_ENABLE %u (%s) on this %s integration (protocols honoured 0x%x, JM_CONFIG 0x%x): want %s",
		 en, mm_coherency_name(en), m->coherent ? "I/O-coherent" : "non-coherent",
		 offered, m->jm_config,
		 m->coherent ? "ACE-Lite (0), honoured" : "NONE (31)");
	mm_report(m, msg);
}

static int mm_read_desc(struct mali_model *m, uint64_t pa, uint64_t *desc)
{
	uint8_t b[8];
	unsigned int i;

	mm_check_coherency(m);
	if (m->ops->mem_read(m->host, pa, b, sizeof(b)))
		return -1;
	*desc = 0;
	for (i = 0; i < 8; i++)
		*desc |= (uint64_t)b[i] << (8 * i);
	return 0;
}

/* The input address size of an AArch64-format address space, 0: invalid. */
static unsigned int mm_a64_ias(const struct mm_as *as)
{
	unsigned int ina = (as->live_transcfg >> MALI_HW_TRANSCFG_INA_BITS_SHIFT) &
			   MALI_HW_TRANSCFG_INA_BITS_MASK;
	unsigned int ias = 55 - ina;

	return ias >= 25 && ias <= 48 ? ias : 0;
}

/* Does @as walk AArch64 (4 KiB granule) tables rather than legacy ones? */
static bool mm_as_a64(const struct mali_model *m, const struct mm_as *as)
{
	return m->prod->has_transcfg &&
	       (as->live_transcfg & MALI_HW_TRANSCFG_ADRMODE_MASK) ==
	       MALI_HW_TRANSCFG_ADRMODE_AARCH64_4K;
}

/*
 * Walk the live tables of @as for a write to @va, in the format it uses.
 * Both formats have 4 KiB granules, 512 entries a level and table
 * descriptors of type 3 at levels 0-2; they differ in the leaves:
 *  - legacy Mali LPAE: the walk starts at level 0; a level-3 page and a
 *    level-1/2 block are both type 1, writable with bit 7, no access flag;
 *  - AArch64: the walk starts at the level the input size needs (48 bits:
 *    0, 39: 1, 30: 2); a level-3 page is type 3, a level-1/2 block type 1;
 *    the access flag must be set, and AP[2] or an APTable[1] above the leaf
 *    makes it read-only.
 */
static int mm_walk(struct mali_model *m, const struct mm_as *as, uint64_t va,
		   uint64_t *pa, struct mm_xlate_fault *fault, bool write)
{
	bool a64 = mm_as_a64(m, as), rdonly = false, leaf, writable;
	unsigned int ias = a64 ? mm_a64_ias(as) : 0, lvl = 0;
	uint64_t table, desc, type, size;

	fault->bus_error = false;
	fault->exception = MALI_HW_EXCEPTION_TRANSLATION_FAULT(0);
	if (a64) {
		if (!ias)
			return -1;
		if (va >> ias) {
			fault->exception = MALI_HW_EXCEPTION_ADDR_SIZE_FAULT_IN(0);
			return -1;
		}
		/* Each level resolves 9 bits above the 12 of the page offset */
		lvl = 4 - (ias - 12 + 8) / 9;
	}
	table = as->live_transtab & MALI_HW_TRANSTAB_ADDR_MASK;
	for (; lvl < MALI_HW_PT_LEVELS; lvl++) {
		if (mm_read_desc(m, table + 8 * MALI_HW_PT_INDEX(va, lvl), &desc)) {
			fault->exception = MALI_HW_EXCEPTION_TRANSTAB_BUS_FAULT(lvl);
			fault->bus_error = true;
			return -1;
		}
		type = desc & MALI_HW_PT_DESC_TYPE_MASK;
		fault->exception = MALI_HW_EXCEPTION_TRANSLATION_FAULT(lvl);
		if (lvl < MALI_HW_PT_LEVELS - 1 && type == MALI_HW_PT_DESC_TABLE) {
			rdonly |= a64 && (desc & MALI_HW_A64_TABLE_AP_RDONLY);
			table = desc & MALI_HW_PT_DESC_ADDR_MASK;
			continue;
		}
		if (a64 && lvl == MALI_HW_PT_LEVELS - 1)
			leaf = type == MALI_HW_A64_DESC_PAGE;
		else
			leaf = type == MALI_HW_PT_DESC_LEAF && lvl;
		if (!leaf)
			return -1;
		if (a64 && !(desc & MALI_HW_A64_DESC_AF)) {
			fault->exception = MALI_HW_EXCEPTION_ACCESS_FLAG(lvl);
			return -1;
		}
		if (!write)
			writable = a64 || (desc & MALI_HW_PT_DESC_READ);
		else
			writable = a64 ? !rdonly && !(desc & MALI_HW_A64_DESC_AP_RDONLY) :
					 !!(desc & MALI_HW_PT_DESC_WRITE);
		if (!writable) {
			fault->exception = MALI_HW_EXCEPTION_PERMISSION_FAULT(lvl);
			return -1;
		}
		size = MALI_HW_BIT64(MALI_HW_PT_LEVEL_SHIFT(lvl));
		*pa = (desc & MALI_HW_PT_DESC_ADDR_MASK & ~(size - 1)) | (va & (size - 1));
		/* An output address wider than MMU_FEATURES says the bus has */
		if (*pa >> mm_pa_bits(m)) {
			fault->exception = MALI_HW_EXCEPTION_ADDR_SIZE_FAULT_OUT(lvl);
			return -1;
		}
		return 0;
	}
	return -1;
}

static struct mm_tlb_entry *mm_tlb_find(struct mm_as *as, uint64_t va)
{
	unsigned int i;

	for (i = 0; i < MM_TLB_ENTRIES; i++)
		if (as->tlb[i].valid && as->tlb[i].va == va)
			return &as->tlb[i];
	return NULL;
}

static void mm_tlb_insert(struct mm_as *as, uint64_t va, uint64_t pa)
{
	struct mm_tlb_entry *e = &as->tlb[as->tlb_next];

	as->tlb_next = (as->tlb_next + 1) % MM_TLB_ENTRIES;
	e->va = va;
	e->pa = pa;
	e->valid = true;
}

/* Drop the cached translations of [@base, @base + @size). */
static void mm_tlb_flush(struct mm_as *as, uint64_t base, uint64_t size)
{
	unsigned int i;

	for (i = 0; i < MM_TLB_ENTRIES; i++)
		if (as->tlb[i].va >= base && as->tlb[i].va - base < size)
			as->tlb[i].valid = false;
}

/*
 * Translate the page at @va of address space @asn for a write (or, with
 * @write false, a read), as the GPU's
 * MMU does: from the TLB, else by walking the live tables (and caching the
 * result). *@pa is MM_PA_NONE when the TLB gave a translation the tables no
 * longer have: the model reports it and does not write there (on a board
 * the GPU would write into memory the driver may have freed).
 * Return: 0, or -1 for an MMU fault described in @fault.
 */
static int mm_translate(struct mali_model *m, uint32_t asn, uint64_t va,
			uint64_t *pa, struct mm_xlate_fault *fault, bool write)
{
	struct mm_tlb_entry *hit;
	struct mm_as *as;
	char msg[MM_MSG];
	uint64_t now_pa;

	fault->bus_error = false;
	fault->exception = MALI_HW_EXCEPTION_TRANSLATION_FAULT(0);
	if (asn >= MM_NR_AS)
		return -1;
	/* An input address wider than MMU_FEATURES says the MMU translates */
	if (va >> mm_va_bits(m)) {
		fault->exception = MALI_HW_EXCEPTION_ADDR_SIZE_FAULT_IN(0);
		return -1;
	}
	as = &m->as[asn];
	if (m->prod->has_transcfg) {
		switch (as->live_transcfg & MALI_HW_TRANSCFG_ADRMODE_MASK) {
		case MALI_HW_TRANSCFG_ADRMODE_LEGACY:
			break;	/* TRANSTAB says */
		case MALI_HW_TRANSCFG_ADRMODE_IDENTITY:
			*pa = va;
			return 0;
		case MALI_HW_TRANSCFG_ADRMODE_AARCH64_4K:
			goto walk;
		default:
			/* UNMAPPED, 64 KiB granule (not modelled), reserved */
			return -1;
		}
	}

	switch (as->live_transtab & MALI_HW_TRANSTAB_ADRMODE_MASK) {
	case MALI_HW_TRANSTAB_ADRMODE_IDENTITY:
		*pa = va;
		return 0;
	case MALI_HW_TRANSTAB_ADRMODE_TABLE:
		break;
	default:
		/* UNMAPPED, and the reserved encoding */
		return -1;
	}

walk:
	hit = mm_tlb_find(as, va);
	if (!hit) {
		if (mm_walk(m, as, va, pa, fault, write))
			return -1;
		mm_tlb_insert(as, va, *pa);
		return 0;
	}
	/* The cached translation is used; is it still what the tables say? */
	*pa = hit->pa;
	if (mm_walk(m, as, va, &now_pa, fault, write) || now_pa != hit->pa) {
		snprintf(msg, sizeof(msg),
			 "%s through a stale TLB entry: AS%u VA 0x%llx PA 0x%llx, the tables no longer map it",
			 write ? "write" : "read", asn, (unsigned long long)va,
			 (unsigned long long)hit->pa);
		mm_report(m, msg);
		*pa = MM_PA_NONE;
	}
	return 0;
}

static void mm_mmu_fault(struct mali_model *m, uint32_t asn, uint64_t va,
			 const struct mm_xlate_fault *fault, uint32_t access)
{
	if (asn < MM_NR_AS) {
		m->as[asn].faultstatus = fault->exception |
			(access << MALI_HW_AS_FAULTSTATUS_ACCESS_SHIFT);
		m->as[asn].faultaddress = va;
	} else {
		asn = 0;
	}
	m->mmu_irq_raw |= fault->bus_error ? MALI_HW_MMU_IRQ_BUS_ERROR(asn) :
					     MALI_HW_MMU_IRQ_PAGE_FAULT(asn);
}

/* ---- sampling ------------------------------------------------------------- */

/* Put one block into the modelled L2: header, then enabled counter groups. */
static void mm_stage_block(struct mali_model *m, unsigned int slot,
			   const uint64_t *row, uint32_t enable, uint64_t ts)
{
	uint8_t *blk = m->l2_data + slot * MALI_HW_DUMP_BLOCK_BYTES;
	unsigned int group, i;
	unsigned int first = slot * (MALI_HW_DUMP_BLOCK_BYTES / MM_L2_GRANULE);

	enable &= (1U << MALI_HW_DUMP_EN_GROUPS) - 1;
	mm_put_le32(blk + 4 * MALI_HW_DUMP_HDR_TIMESTAMP_LO, mm_lo(ts));
	mm_put_le32(blk + 4 * MALI_HW_DUMP_HDR_TIMESTAMP_HI, mm_hi(ts));
	mm_put_le32(blk + 4 * MALI_HW_DUMP_HDR_PRFCNT_EN, enable);
	mm_put_le32(blk + 4 * 3, 0);
	mm_set_bit(m->l2_dirty, first);

	for (group = 1; group < MALI_HW_DUMP_EN_GROUPS; group++) {
		if (!(enable & (1U << group)))
			continue;
		for (i = group * 4; i < group * 4 + 4; i++) {
			uint64_t v = row ? row[i] : 0;

			mm_put_le32(blk + 4 * i, v > 0xffffffffULL ? 0xffffffffU : (uint32_t)v);
		}
		mm_set_bit(m->l2_dirty, first + group);
	}
}

static void mm_stage_dump(struct mali_model *m, uint64_t ts)
{
	/* Secondary counter sets are not modelled: their counters read 0 */
	bool primary = MALI_HW_PRFCNT_CONFIG_SETSEL(m->prfcnt_config) == 0;
	uint32_t tiler_en = m->tiler_broken ? 0 : m->en_tiler;
	struct mali_model_row *latched = mm_latched(m);
	unsigned int g, i, core;

#define ROW(unit) (primary ? latched[unit].c : NULL)
	if (m->prod->v4) {
		for (g = 0; g < m->nr_l2; g++) {
			unsigned int base = g * MALI_HW_V4_BLOCKS_PER_GROUP;

			for (i = 0; i < MALI_HW_V4_SC_PER_GROUP; i++) {
				core = g * MALI_HW_V4_SC_PER_GROUP + i;
				if (m->shader_present & MALI_HW_BIT64(core))
					mm_stage_block(m, base + i,
						       ROW(MM_UNIT_CORE(m->nr_l2, core)),
						       m->en_shader, ts);
			}
			mm_stage_block(m, base + MALI_HW_V4_BLK_TILER,
				       g ? NULL : ROW(MM_UNIT_TILER), tiler_en, ts);
			mm_stage_block(m, base + MALI_HW_V4_BLK_MMU_L2,
				       ROW(MM_UNIT_L2(g)), m->en_mmu_l2, ts);
			if (!g)
				mm_stage_block(m, base + MALI_HW_V4_BLK_JM,
					       ROW(MM_UNIT_JM), m->en_jm, ts);
		}
	} else {
		mm_stage_block(m, 0, ROW(MM_UNIT_JM), m->en_jm, ts);
		mm_stage_block(m, 1, ROW(MM_UNIT_TILER), tiler_en, ts);
		for (i = 0; i < m->nr_l2; i++)
			mm_stage_block(m, 2 + i, ROW(MM_UNIT_L2(i)),
				       m->en_mmu_l2, ts);
		for (core = 0; core < MM_MAX_CORES; core++)
			if (m->shader_present & MALI_HW_BIT64(core))
				mm_stage_block(m, 2 + m->nr_l2 + core,
					       ROW(MM_UNIT_CORE(m->nr_l2, core)),
					       m->en_shader, ts);
	}
#undef ROW
}

/*
 * Translate the dump's pages, then stage the latched counters.
 * Return: 0, or -1 on an MMU fault.
 */
static int mm_do_sample(struct mali_model *m)
{
	uint64_t base = m->sample_base & MM_PRFCNT_BASE_MASK;
	uint32_t off = base & (MALI_HW_PAGE_SIZE - 1);
	unsigned int i;
	unsigned int nr_pages = (off + m->dump_size + MALI_HW_PAGE_SIZE - 1) /
				MALI_HW_PAGE_SIZE;
	struct mm_xlate_fault fault;

	for (i = 0; i < nr_pages; i++) {
		uint64_t va = (base & MM_PAGE_MASK) + (uint64_t)i * MALI_HW_PAGE_SIZE;
		uint64_t pa;

		if (mm_translate(m, m->sample_as, va, &pa, &fault, true)) {
			mm_mmu_fault(m, m->sample_as, va, &fault, MALI_HW_ACCESS_WRITE);
			return -1;
		}
		m->l2_pa[i] = pa == MM_PA_NONE ? pa : pa & MM_PAGE_MASK;
	}
	m->l2_base_off = off;
	mm_stage_dump(m, m->latched_ts);
	return 0;
}

/* Write the dirty part of the modelled L2 back to memory. */
static void mm_l2_writeback(struct mali_model *m)
{
	unsigned int nbits = m->dump_size / MM_L2_GRANULE, g;
	char msg[MM_MSG];

	mm_check_coherency(m);
	for (g = 0; g < nbits; g++) {
		uint32_t pos = m->l2_base_off + g * MM_L2_GRANULE;
		uint64_t pa;

		if (!(m->l2_dirty[g / 8] & (1U << (g % 8))))
			continue;
		pa = m->l2_pa[pos / MALI_HW_PAGE_SIZE];
		/* Reported when it was translated */
		if (pa == MM_PA_NONE)
			continue;
		pa += pos % MALI_HW_PAGE_SIZE;
		if (m->ops->mem_write(m->host, pa, m->l2_data + g * MM_L2_GRANULE,
				      MM_L2_GRANULE)) {
			snprintf(msg, sizeof(msg),
				 "L2 writeback to PA 0x%llx: no memory there",
				 (unsigned long long)pa);
			mm_report(m, msg);
		}
	}
	memset(m->l2_dirty, 0, sizeof(m->l2_dirty));
}

/* Does the dump of the sample in progress lie (partly) in a LOCKed region? */
static bool mm_sample_locked(const struct mali_model *m)
{
	const struct mm_as *as;
	uint64_t start = m->sample_base & MM_PRFCNT_BASE_MASK;
	uint64_t end = start + m->dump_size - 1;

	if (m->sample_as >= MM_NR_AS)
		return false;
	as = &m->as[m->sample_as];
	return as->locked && start <= as->lock_base + (as->lock_size - 1) &&
	       as->lock_base <= end;
}

static void mm_sample_done(struct mali_model *m)
{
	if (!m->sample_pending)
		return;
	/*
	 * The dump writer's accesses go through the MMU: into a locked
	 * region they wait until the lock is released (mm_as_done()).
	 */
	if (m->latched_valid && !m->sample_gpu_fault && mm_sample_locked(m)) {
		if (!m->sample_stalled) {
			m->sample_stalled = true;
			m->stall_reported = false;
			mm_timer_arm(m, MALI_MODEL_TIMER_STALL, MM_STALL_REPORT_NS);
		}
		return;
	}
	m->sample_stalled = false;
	m->sample_pending = false;

	if (m->sample_gpu_fault) {
		m->fault_status = MALI_HW_EXCEPTION_BUS_FAULT;
		m->fault_address = m->sample_base;
		m->gpu_irq_raw |= MALI_HW_GPU_IRQ_FAULT;
	} else if (!m->latched_valid || !mm_do_sample(m)) {
		/* A sample while the counters are off completes, writing nothing */
		if (!m->sample_drop_irq)
			m->gpu_irq_raw |= MALI_HW_GPU_IRQ_PRFCNT_SAMPLE_COMPLETED;
	}
	/* else: an MMU fault; the sample never completes */
	mm_update_lines(m);
}

static void mm_clean_done(struct mali_model *m)
{
	if (m->clean_pending && !m->clean_stuck) {
		m->clean_pending = false;
		mm_l2_writeback(m);
		m->gpu_irq_raw |= MALI_HW_GPU_IRQ_CLEAN_CACHES_COMPLETED;
		mm_update_lines(m);
	}
}

static void mm_reset_done(struct mali_model *m)
{
	m->gpu_irq_raw |= MALI_HW_GPU_IRQ_RESET_COMPLETED;
	mm_update_lines(m);
}

/* Every register back to its reset value; the L2's contents are lost. */
static void mm_reset_state(struct mali_model *m)
{
	uint64_t now = mm_now(m);
	unsigned int i;

	m->gpu_irq_raw = 0;
	m->gpu_irq_mask = 0;
	m->mmu_irq_raw = 0;
	m->mmu_irq_mask = 0;
	m->job_irq_raw = 0;
	m->job_irq_mask = 0;
	m->fault_status = 0;
	m->fault_address = 0;
	/* Assumed, as panfrost and kbase write them again after every reset */
	m->pwr_unlocked = false;
	m->pwr_override[0] = 0;
	m->pwr_override[1] = 0;
	m->shader_ready = 0;
	m->tiler_ready = 0;
	m->l2_ready = 0;
	memset(m->pwr_on, 0, sizeof(m->pwr_on));
	memset(m->pwr_off, 0, sizeof(m->pwr_off));
	m->prfcnt_base = 0;
	m->prfcnt_config = 0;
	m->en_jm = 0;
	m->en_shader = 0;
	m->en_tiler = 0;
	m->en_mmu_l2 = 0;
	m->tiler_broken = false;
	m->cycle_counting = false;
	m->cycle_acc = 0;
	m->coherency_enable = m->coherency_reset;
	m->jm_config = 0;
	m->coherency_checked = false;
	memset(m->as, 0, sizeof(m->as));
	for (i = 0; i < MM_NR_AS; i++)
		m->as[i].live_transtab = MALI_HW_TRANSTAB_ADRMODE_UNMAPPED;
	m->sample_pending = false;
	m->sample_stalled = false;
	m->clean_pending = false;
	m->clean_stuck = false;
	m->power_stuck = false;
	memset(m->l2_dirty, 0, sizeof(m->l2_dirty));
	mm_advance(m, now);
	/* A timer of a chain reset away finds no batch in flight */
	memset(m->js, 0, sizeof(m->js));
	m->latest_flush_id = 0;
	mm_clear_counters(m, now);
}

/*
 * The counter unit writes its dump through the L2 (the dump is in the L2
 * until a clean, see mm_l2_writeback()): with the L2 powered off or
 * powering off a sample cannot be written. kbase therefore disables the
 * counters before it powers the L2 down and enables them only once the L2
 * is up again; a real GPU never completes such a sample. The model keeps
 * it pending (GPU_STATUS PRFCNT_ACTIVE, no interrupt, until a reset) and
 * reports the driver error. Return: true when that happened.
 */
static bool mm_sample_needs_l2(struct mali_model *m)
{
	uint64_t l2_on = m->l2_ready & m->l2_present & ~m->pwr_off[MM_PWR_L2];
	char msg[MM_MSG];

	if (l2_on)
		return false;
	snprintf(msg, sizeof(msg),
		 "PRFCNT_SAMPLE with the L2 powered off (L2_READY 0x%llx%s): it never completes",
		 (unsigned long long)m->l2_ready,
		 m->pwr_off[MM_PWR_L2] ? ", powering off" : "");
	mm_report(m, msg);
	m->sample_pending = true;
	m->sample_stalled = false;
	m->latched_valid = false;
	return true;
}

static void mm_command(struct mali_model *m, uint32_t cmd)
{
	uint64_t now = mm_now(m);
	uint64_t latency;

	switch (cmd) {
	case MALI_HW_GPU_COMMAND_SOFT_RESET:
	case MALI_HW_GPU_COMMAND_HARD_RESET:
		mm_reset_state(m);
		/* A GPU that stopped answering: RESET_COMPLETED never comes */
		if (m->dead)
			break;
		if (cmd == MALI_HW_GPU_COMMAND_SOFT_RESET && m->soft_reset_stuck)
			break;
		m->soft_reset_stuck = false;
		mm_timer_arm(m, MALI_MODEL_TIMER_RESET, MM_RESET_LATENCY_NS);
		break;
	case MALI_HW_GPU_COMMAND_PRFCNT_CLEAR:
		mm_clear_counters(m, now);
		break;
	case MALI_HW_GPU_COMMAND_PRFCNT_SAMPLE:
		if (m->sample_pending)
			break;
		if (mm_sample_needs_l2(m))
			break;
		latency = MM_SAMPLE_LATENCY_NS;
		m->sample_drop_irq = m->armed == MM_FAULT_DROP_IRQ ||
				     m->armed == MM_FAULT_SOFT_RESET_STUCK ||
				     m->armed == MM_FAULT_DEAD;
		m->sample_gpu_fault = m->armed == MM_FAULT_GPU_FAULT;
		if (m->armed == MM_FAULT_DELAY)
			latency = (uint64_t)m->armed_delay_ms * MM_NS_PER_MS;
		/* The GPU hangs on this sample and resets stop working */
		if (m->armed == MM_FAULT_SOFT_RESET_STUCK)
			m->soft_reset_stuck = true;
		if (m->armed == MM_FAULT_DEAD)
			m->dead = true;
		if (m->armed != MM_FAULT_STUCK_CLEAN && m->armed != MM_FAULT_LATE_IRQ)
			m->armed = MM_FAULT_NONE;
		m->sample_base = m->prfcnt_base;
		m->sample_as = MALI_HW_PRFCNT_CONFIG_AS(m->prfcnt_config);
		m->sample_pending = true;
		/* The counters are latched (and cleared) now; written later */
		m->latched_valid = mm_counting(m);
		if (m->latched_valid) {
			mm_advance(m, now);
			/* Same size: the live rows become the latched ones */
			m->acc_set = !m->acc_set;
			m->latched_ts = mm_timestamp(m);
			mm_clear_counters(m, now);
		}
		mm_timer_arm(m, MALI_MODEL_TIMER_SAMPLE, latency);
		break;
	case MALI_HW_GPU_COMMAND_CYCLE_COUNT_START:
		if (!m->cycle_counting) {
			m->cycle_counting = true;
			m->cycle_start_ns = now;
		}
		break;
	case MALI_HW_GPU_COMMAND_CYCLE_COUNT_STOP:
		m->cycle_acc = mm_cycle_count(m);
		m->cycle_counting = false;
		break;
	case MALI_HW_GPU_COMMAND_CLEAN_CACHES:
	case MALI_HW_GPU_COMMAND_CLEAN_INV_CACHES:
		if (m->armed == MM_FAULT_STUCK_CLEAN) {
			m->armed = MM_FAULT_NONE;
			m->clean_stuck = true;
		}
		if (m->clean_stuck || m->clean_pending)
			break;
		m->clean_pending = true;
		mm_timer_arm(m, MALI_MODEL_TIMER_CLEAN, MM_CLEAN_LATENCY_NS);
		break;
	default:
		break;
	}
}

/* ---- job slots ------------------------------------------------------------ */

/*
 * The job manager (Documentation/design.rst, "Job model"): a slot runs the
 * chain its _NEXT set names, one job after the other in chain order,
 * reading each header through the GPU's MMU in the address space JS_CONFIG
 * names. No shading happens and nothing but job headers (exception_status)
 * and Write Value targets is written; a job takes model time by type and
 * by the work its descriptor states. Jobs are run in batches of up to
 * MM_JS_BATCH jobs or MM_JS_QUANTUM_NS of model time, each batch one host
 * timer; a batch's jobs complete (DONE written, counters counted) when its
 * timer fires, never before their time.
 */

static uint32_t mm_js_reg(uint32_t reg, unsigned int *js)
{
	*js = (reg - MALI_HW_JS_BASE) / MALI_HW_JS_STRIDE;
	return (reg - MALI_HW_JS_BASE) % MALI_HW_JS_STRIDE;
}

static bool mm_is_js_reg(uint32_t reg)
{
	return reg >= MALI_HW_JS_BASE &&
	       reg < MALI_HW_JS_BASE + MM_NR_JS * MALI_HW_JS_STRIDE;
}

static uint64_t mm_cycles_ns(const struct mali_model *m, uint64_t cycles)
{
	return mali_model_div64(cycles * 1000 + m->mhz - 1, m->mhz);
}

static bool mm_js_bit(const uint8_t *map, unsigned int idx)
{
	return map[idx / 8] & (1U << (idx % 8));
}

/* Read @len bytes (within one page) of GPU VA @va in @asn. */
static int mm_gpu_read(struct mali_model *m, uint32_t asn, uint64_t va, void *buf,
		       size_t len, struct mm_xlate_fault *fault)
{
	uint64_t pa;

	if (mm_translate(m, asn, va & MM_PAGE_MASK, &pa, fault, false))
		return -1;
	if (pa == MM_PA_NONE)
		return 0;	/* reported; reads as zero */
	mm_check_coherency(m);
	if (m->ops->mem_read(m->host, (pa & MM_PAGE_MASK) + (va & ~MM_PAGE_MASK), buf, len)) {
		fault->exception = MALI_HW_EXC_JOB_BUS_FAULT;
		fault->bus_error = true;
		return -1;
	}
	return 0;
}

/* Write @len bytes (within one page) at GPU VA @va of @asn; -1 on a fault. */
static int mm_gpu_write(struct mali_model *m, uint32_t asn, uint64_t va,
			const void *buf, size_t len)
{
	struct mm_xlate_fault fault;
	uint64_t pa;

	if (mm_translate(m, asn, va & MM_PAGE_MASK, &pa, &fault, true))
		return -1;
	if (pa == MM_PA_NONE)
		return 0;	/* reported, not written */
	mm_check_coherency(m);
	return m->ops->mem_write(m->host, (pa & MM_PAGE_MASK) + (va & ~MM_PAGE_MASK),
				 buf, len) ? -1 : 0;
}

static uint32_t mm_le32(const uint8_t *p)
{
	return p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t mm_le64(const uint8_t *p)
{
	return mm_le32(p) | (uint64_t)mm_le32(p + 4) << 32;
}

static unsigned int mm_arch(const struct mali_model *m)
{
	return m->prod->gpu_id >> 28;	/* 0 on Midgard, 6-7 Bifrost, 9 Valhall */
}

/* The invocations and workgroups a Midgard/Bifrost Invocation section packs */
static void mm_invocations(const uint8_t *inv, uint64_t *threads, uint64_t *groups)
{
	uint32_t packed = mm_le32(inv + MALI_HW_INVOC_PACKED);
	uint32_t sh = mm_le32(inv + MALI_HW_INVOC_SHIFTS);
	unsigned int b[7] = {
		0, sh & 0x1f, (sh >> 5) & 0x1f, (sh >> 10) & 0x3f,
		(sh >> 16) & 0x3f, (sh >> 22) & 0x3f, 32,
	};
	uint64_t v[6];
	unsigned int i;

	for (i = 0; i < 6; i++) {
		unsigned int lo = b[i], hi = b[i + 1] > lo ? b[i + 1] : lo;

		hi = hi > 32 ? 32 : hi;
		v[i] = (hi > lo ? (packed >> lo) & ((1ULL << (hi - lo)) - 1) : 0) + 1;
	}
	*groups = v[3] * v[4] * v[5];
	*threads = v[0] * v[1] * v[2] * *groups;
}

/*
 * Decode the job at @va for the batch: its kind, its work and cost. Return
 * 0, or a JS exception code for a malformed descriptor (reported), or -1
 * for an MMU fault described in @fault (an access at *@fault_va).
 */
static int mm_js_decode(struct mali_model *m, struct mm_js *js, uint64_t va,
			struct mm_job *job, struct mm_xlate_fault *fault,
			uint64_t *fault_va)
{
	unsigned int asn = MALI_HW_JS_CONFIG_AS(js->config), arch = mm_arch(m);
	uint64_t align = arch >= 9 ? 128 : 64, fbd, cores;
	uint8_t d[64], fb[8];
	uint32_t flags, deps, type, lo, hi;
	char msg[MM_MSG];
	unsigned int i;

	*fault_va = va;
	/* What the GPU reports itself (JS_STATUS) is not a model report */
	if (va & (align - 1))
		return MALI_HW_EXC_JOB_CONFIG_FAULT;
	if (mm_gpu_read(m, asn, va, d, sizeof(d), fault))
		return -1;
	flags = mm_le32(d + MALI_HW_JOB_HDR_FLAGS);
	deps = mm_le32(d + MALI_HW_JOB_HDR_DEPS);
	type = MALI_HW_JOB_HDR_TYPE(flags);
	memset(job, 0, sizeof(*job));
	job->va = va;
	job->type = type;
	job->index = MALI_HW_JOB_HDR_INDEX(flags);
	job->dep[0] = deps & 0xffff;
	job->dep[1] = deps >> 16;
	job->next = mm_le64(d + MALI_HW_JOB_HDR_NEXT);
	if (arch < 9 && !(flags & MALI_HW_JOB_HDR_IS_64B)) {
		snprintf(msg, sizeof(msg),
			 "JS%u: job at 0x%llx has a 32-bit descriptor: only 64-bit ones are modelled",
			 (unsigned int)(js - m->js), (unsigned long long)va);
		mm_report(m, msg);
		return MALI_HW_EXC_JOB_CONFIG_FAULT;
	}
	cores = js->affinity & m->shader_ready;
	for (i = 0; i < MM_MAX_CORES; i++)
		job->nr_cores += !!(cores & MALI_HW_BIT64(i));
	if (!job->nr_cores)
		job->nr_cores = 1;
	job->cycles = MM_JOB_CYCLES;
	switch (type) {
	case MALI_HW_JOB_TYPE_NULL:
	case MALI_HW_JOB_TYPE_CACHE_FLUSH:
		job->kind = MM_JOB_OTHER;
		return 0;
	case MALI_HW_JOB_TYPE_WRITE_VALUE:
		job->kind = MM_JOB_OTHER;
		job->wv_addr = mm_le64(d + MALI_HW_JOB_PAYLOAD);
		job->wv_type = mm_le32(d + MALI_HW_JOB_PAYLOAD + 8);
		job->wv_value = mm_le64(d + MALI_HW_JOB_PAYLOAD + 16);
		if (job->wv_type < 1 || job->wv_type > 7)
			return MALI_HW_EXC_JOB_CONFIG_FAULT;
		return 0;
	case MALI_HW_JOB_TYPE_FRAGMENT:
		job->kind = MM_JOB_FRAGMENT;
		lo = mm_le32(d + MALI_HW_JOB_PAYLOAD + MALI_HW_FRAG_BOUND_MIN);
		hi = mm_le32(d + MALI_HW_JOB_PAYLOAD + MALI_HW_FRAG_BOUND_MAX);
		if (MALI_HW_FRAG_TILE_X(hi) < MALI_HW_FRAG_TILE_X(lo) ||
		    MALI_HW_FRAG_TILE_Y(hi) < MALI_HW_FRAG_TILE_Y(lo))
			return MALI_HW_EXC_TILE_RANGE_FAULT;
		job->tasks = (uint64_t)(MALI_HW_FRAG_TILE_X(hi) - MALI_HW_FRAG_TILE_X(lo) + 1) *
			     (MALI_HW_FRAG_TILE_Y(hi) - MALI_HW_FRAG_TILE_Y(lo) + 1);
		job->threads = job->tasks * 256;
		/* The framebuffer descriptor is read first: it must be mapped */
		fbd = mm_le64(d + MALI_HW_JOB_PAYLOAD + MALI_HW_FRAG_FBD) & ~MALI_HW_FBD_TAG_MASK;
		*fault_va = fbd;
		if (mm_gpu_read(m, asn, fbd, fb, sizeof(fb), fault))
			return -1;
		job->cycles += mali_model_div64(job->tasks * MM_FRAG_TILE_CYCLES +
						job->nr_cores - 1, job->nr_cores);
		return 0;
	case MALI_HW_JOB_TYPE_COMPUTE:
	case MALI_HW_JOB_TYPE_VERTEX:
	case MALI_HW_JOB_TYPE_GEOMETRY:
		if (arch >= 9 && type != MALI_HW_JOB_TYPE_COMPUTE)
			break;
		job->kind = MM_JOB_COMPUTE;
		if (arch >= 9) {
			uint32_t l = mm_le32(d + MALI_HW_JOB_PAYLOAD + MALI_HW_V9_COMPUTE_LOCAL);
			const uint8_t *c = d + MALI_HW_JOB_PAYLOAD + MALI_HW_V9_COMPUTE_COUNT_X;

			job->tasks = (uint64_t)mm_le32(c) * mm_le32(c + 4) * mm_le32(c + 8);
			job->threads = job->tasks * ((l & 0x3ff) + 1) *
				       (((l >> 10) & 0x3ff) + 1) * (((l >> 20) & 0x3ff) + 1);
		} else {
			mm_invocations(d + MALI_HW_JOB_PAYLOAD, &job->threads, &job->tasks);
		}
		job->cycles += mali_model_div64(job->threads * MM_THREAD_CYCLES +
						job->nr_cores - 1, job->nr_cores);
		return 0;
	case MALI_HW_JOB_TYPE_TILER:
	case MALI_HW_JOB_TYPE_INDEXED_VERTEX:
	case MALI_HW_JOB_TYPE_MALLOC_VERTEX:
		if (type == MALI_HW_JOB_TYPE_MALLOC_VERTEX && arch < 9)
			break;
		if (type == MALI_HW_JOB_TYPE_INDEXED_VERTEX && arch < 6)
			break;
		job->kind = type == MALI_HW_JOB_TYPE_TILER ? MM_JOB_TILER : MM_JOB_IDVS;
		if (arch >= 9) {
			const uint8_t *pl = d + MALI_HW_JOB_PAYLOAD;
			uint32_t inst = mm_le32(pl + MALI_HW_V9_DRAW_INSTANCES);
			uint32_t verts = type == MALI_HW_JOB_TYPE_TILER ?
				mm_le32(pl + MALI_HW_V9_DRAW_VERTICES) : 3;

			job->threads = (uint64_t)(inst ? inst : 1) * verts;
		} else {
			uint64_t groups;

			mm_invocations(d + MALI_HW_JOB_PAYLOAD, &job->threads, &groups);
		}
		job->tasks = mali_model_div64(job->threads, 3);
		job->cycles += job->threads * MM_TILER_VERTEX_CYCLES;
		if (job->kind == MM_JOB_IDVS)
			job->cycles += mali_model_div64(job->threads * MM_THREAD_CYCLES +
							job->nr_cores - 1, job->nr_cores);
		return 0;
	default:
		break;
	}
	/* A type this GPU does not have */
	return MALI_HW_EXC_JOB_CONFIG_FAULT;
}

static void mm_js_raise(struct mali_model *m, unsigned int n, bool failed)
{
	m->job_irq_raw |= failed ? MALI_HW_JOB_IRQ_FAILED(n) : MALI_HW_JOB_IRQ_DONE(n);
	if (failed)
		m->js_stats[n].failed++;
	else
		m->js_stats[n].done++;
}

/* The chain ends: the slot is free; the L2 is flushed if JS_CONFIG says. */
static void mm_js_end(struct mali_model *m, unsigned int n, uint32_t status)
{
	struct mm_js *js = &m->js[n];

	mm_advance(m, mm_now(m));
	m->ops->timer_cancel(m->host, MALI_MODEL_TIMER_JS0 + n);
	js->active = false;
	js->wait = MM_JS_WAIT_NONE;
	js->nr_batch = 0;
	js->soft_stop = false;
	js->status = status;
	if (status == MALI_HW_EXC_DONE &&
	    (js->config & MALI_HW_JS_CONFIG_END_FLUSH_CLEAN)) {
		mm_l2_writeback(m);
		m->latest_flush_id++;
	}
	mm_js_raise(m, n, status != MALI_HW_EXC_DONE);
}

/* A job fails: its header and the slot say @code; TAIL is the job. */
static void mm_js_fail(struct mali_model *m, unsigned int n, uint64_t va, uint32_t code)
{
	struct mm_js *js = &m->js[n];
	uint8_t b[4];

	js->tail = va;
	js->head = va;
	mm_put_le32(b, code);
	if (!(js->config & MALI_HW_JS_CONFIG_NO_DESC_WRITEBACK))
		mm_gpu_write(m, MALI_HW_JS_CONFIG_AS(js->config), va + MALI_HW_JOB_HDR_EXCEPTION,
			     b, sizeof(b));
	mm_js_end(m, n, code);
}

static void mm_js_stop(struct mali_model *m, unsigned int n, uint32_t status)
{
	struct mm_js *js = &m->js[n];

	js->tail = js->nr_batch ? js->batch[0].va : js->next_va;
	mm_js_end(m, n, status);
}

/*
 * Plan the next batch of slot @n, from js->next_va: decode jobs until the
 * batch is full, the chain ends or a job cannot start yet (it faults, or
 * waits on a dependency). A problem with the first job of a batch takes
 * effect now (fault, MMU stall, wait); with a later one, once the jobs
 * before it completed.
 */
static void mm_js_plan(struct mali_model *m, unsigned int n)
{
	struct mm_js *js = &m->js[n];
	struct mm_xlate_fault fault;
	uint64_t ns = 0, fault_va;
	char msg[MM_MSG];
	int ret;

	js->nr_batch = 0;
	while (js->next_va && js->nr_batch < MM_JS_BATCH && ns < MM_JS_QUANTUM_NS) {
		struct mm_job *job = &js->batch[js->nr_batch];
		unsigned int d;
		bool ready = true;

		ret = mm_js_decode(m, js, js->next_va, job, &fault, &fault_va);
		if (ret && js->nr_batch)
			break;
		if (ret > 0) {
			mm_js_fail(m, n, js->next_va, ret);
			return;
		}
		if (ret < 0) {
			/* The access stalls until the driver resolves the fault */
			mm_mmu_fault(m, MALI_HW_JS_CONFIG_AS(js->config), fault_va, &fault,
				     MALI_HW_ACCESS_READ);
			js->wait = MM_JS_WAIT_MMU;
			js->busy_until = ~0ULL;
			js->fault_exception = fault.exception;
			mm_update_lines(m);
			return;
		}
		for (d = 0; d < 2; d++) {
			unsigned int i, dep = job->dep[d];
			bool batched = false;

			if (!dep || mm_js_bit(js->done, dep))
				continue;
			for (i = 0; i < js->nr_batch; i++)
				batched |= js->batch[i].index == dep;
			if (!batched)
				ready = false;
		}
		if (!ready) {
			if (js->nr_batch)
				break;
			/* Jobs run in chain order: nothing before it had the index */
			snprintf(msg, sizeof(msg),
				 "JS%u: job 0x%llx (index %u) depends on %u, %u: none earlier in the chain",
				 n, (unsigned long long)job->va, job->index, job->dep[0],
				 job->dep[1]);
			mm_report(m, msg);
			js->wait = MM_JS_WAIT_DEP;
			js->busy_until = ~0ULL;
			js->head = job->va;
			return;
		}
		ns += mm_cycles_ns(m, job->cycles);
		js->next_va = job->next;
		js->nr_batch++;
	}
	if (!js->nr_batch) {
		mm_js_end(m, n, MALI_HW_EXC_DONE);
		return;
	}
	js->head = js->batch[0].va;
	js->wait = MM_JS_WAIT_NONE;
	js->busy_until = mm_now(m) + ns;
	m->ops->timer_arm(m->host, MALI_MODEL_TIMER_JS0 + n, ns ? ns : 1);
}

/* Does the chain of slot @n find the L2 and its cores powered? */
static bool mm_js_powered(struct mali_model *m, unsigned int n)
{
	struct mm_js *js = &m->js[n];
	char msg[MM_MSG];

	if ((m->l2_ready & m->l2_present) && (js->affinity & m->shader_ready))
		return true;
	if (js->wait != MM_JS_WAIT_POWER) {
		snprintf(msg, sizeof(msg),
			 "JS%u: chain started with L2_READY 0x%llx, SHADER_READY 0x%llx, affinity 0x%llx: it waits for power",
			 n, (unsigned long long)m->l2_ready, (unsigned long long)m->shader_ready,
			 (unsigned long long)js->affinity);
		mm_report(m, msg);
	}
	js->wait = MM_JS_WAIT_POWER;
	js->busy_until = ~0ULL;
	return false;
}

/* COMMAND_NEXT START takes effect when the slot is free and not failed. */
static void mm_js_try_start(struct mali_model *m, unsigned int n)
{
	struct mm_js *js = &m->js[n];

	if (js->active || js->command_next != MALI_HW_JS_COMMAND_START ||
	    (m->job_irq_raw & MALI_HW_JOB_IRQ_FAILED(n)))
		return;
	mm_advance(m, mm_now(m));
	js->command_next = MALI_HW_JS_COMMAND_NOP;
	js->head = js->head_next;
	js->tail = js->head_next;
	js->affinity = js->affinity_next & m->shader_present;
	js->config = js->config_next;
	js->xaffinity = js->xaffinity_next;
	js->flush_id = js->flush_id_next;
	js->active = true;
	js->busy_until = ~0ULL;
	js->status = MALI_HW_EXC_ACTIVE;
	js->soft_stop = false;
	js->wait = MM_JS_WAIT_NONE;
	js->nr_batch = 0;
	js->nr_jobs = 0;
	js->loop_reported = false;
	js->next_va = js->head_next;
	memset(js->done, 0, sizeof(js->done));
	m->js_stats[n].chains++;
	if (js->config & MALI_HW_JS_CONFIG_START_FLUSH_CLEAN) {
		bool skip = (js->config & MALI_HW_JS_CONFIG_FLUSH_REDUCTION) &&
			    js->flush_id == m->latest_flush_id;

		if (!skip) {
			mm_l2_writeback(m);
			m->latest_flush_id++;
		}
	}
	if (!js->affinity) {
		mm_js_fail(m, n, js->head, MALI_HW_EXC_JOB_AFFINITY_FAULT);
		return;
	}
	if (mm_js_powered(m, n))
		mm_js_plan(m, n);
}

/* The batch in flight on slot @n completes. */
static void mm_js_batch_done(struct mali_model *m, unsigned int n)
{
	struct mm_js *js = &m->js[n];
	unsigned int asn = MALI_HW_JS_CONFIG_AS(js->config), i;
	char msg[MM_MSG];
	uint8_t b[8];

	if (!js->active || js->wait != MM_JS_WAIT_NONE || !js->nr_batch)
		return;
	mm_advance(m, mm_now(m));
	for (i = 0; i < js->nr_batch; i++) {
		struct mm_job *job = &js->batch[i];
		struct mali_model_job cnt = {
			.prod = m->prod, .nr_l2 = m->nr_l2, .js = n, .kind = job->kind,
			.cycles = job->cycles, .tasks = job->tasks, .threads = job->threads,
			.cores = js->affinity & m->shader_ready,
			.read_cycles = job->cycles < MM_JOB_CYCLES ? job->cycles : MM_JOB_CYCLES,
		};

		if (job->type == MALI_HW_JOB_TYPE_WRITE_VALUE) {
			uint64_t v = job->wv_value;
			size_t len = 8;

			if (job->wv_type == 1)
				v = mm_cycle_count(m);
			else if (job->wv_type == 2)
				v = mm_timestamp(m);
			else if (job->wv_type == 3)
				v = 0;
			else
				len = 1U << (job->wv_type - 4);
			mm_put_le32(b, mm_lo(v));
			mm_put_le32(b + 4, mm_hi(v));
			if (mm_gpu_write(m, asn, job->wv_addr, b, len)) {
				snprintf(msg, sizeof(msg),
					 "JS%u: Write Value job at 0x%llx: target 0x%llx not writable",
					 n, (unsigned long long)job->va,
					 (unsigned long long)job->wv_addr);
				mm_report(m, msg);
			}
		}
		mm_put_le32(b, MALI_HW_EXC_DONE);
		if (!(js->config & MALI_HW_JS_CONFIG_NO_DESC_WRITEBACK) &&
		    mm_gpu_write(m, asn, job->va + MALI_HW_JOB_HDR_EXCEPTION, b, 4)) {
			snprintf(msg, sizeof(msg),
				 "JS%u: job at 0x%llx: its header is not writable, DONE not written",
				 n, (unsigned long long)job->va);
			mm_report(m, msg);
		}
		if (job->index)
			js->done[job->index / 8] |= 1U << (job->index % 8);
		if (mm_counting(m))
			mali_model_job_step(&cnt, mm_acc(m));
		js->tail = job->va;
		js->nr_jobs++;
		m->js_stats[n].jobs++;
	}
	js->nr_batch = 0;
	if (js->nr_jobs >= MM_JS_LOOP_JOBS && !js->loop_reported) {
		js->loop_reported = true;
		snprintf(msg, sizeof(msg),
			 "JS%u: the chain from 0x%llx has run %u jobs: it loops (next 0x%llx)",
			 n, (unsigned long long)js->head_next, (unsigned int)js->nr_jobs,
			 (unsigned long long)js->next_va);
		mm_report(m, msg);
	}
	if (js->soft_stop && js->next_va) {
		mm_js_stop(m, n, MALI_HW_EXC_STOPPED);
		return;
	}
	mm_js_plan(m, n);
}

static void mm_js_timer(struct mali_model *m, unsigned int n)
{
	mm_js_batch_done(m, n);
	/* A chain that ended hands the slot to the one in _NEXT */
	mm_js_try_start(m, n);
	mm_update_lines(m);
}

/* JS_COMMAND: the stops. START is for COMMAND_NEXT; here it is ignored. */
static void mm_js_command(struct mali_model *m, unsigned int n, uint32_t cmd)
{
	struct mm_js *js = &m->js[n];
	bool flag = js->config & MALI_HW_JS_CONFIG_JOB_CHAIN_FLAG, hard;

	switch (cmd) {
	case MALI_HW_JS_COMMAND_SOFT_STOP:
	case MALI_HW_JS_COMMAND_HARD_STOP:
		break;
	case MALI_HW_JS_COMMAND_SOFT_STOP_0:
	case MALI_HW_JS_COMMAND_HARD_STOP_0:
		if (flag)
			return;
		break;
	case MALI_HW_JS_COMMAND_SOFT_STOP_1:
	case MALI_HW_JS_COMMAND_HARD_STOP_1:
		if (!flag)
			return;
		break;
	default:
		return;
	}
	if (!js->active)
		return;
	hard = cmd == MALI_HW_JS_COMMAND_HARD_STOP || cmd == MALI_HW_JS_COMMAND_HARD_STOP_0 ||
	       cmd == MALI_HW_JS_COMMAND_HARD_STOP_1;
	if (hard) {
		/* The jobs in flight stop where they are; none completes */
		mm_js_stop(m, n, MALI_HW_EXC_TERMINATED);
		return;
	}
	/* A soft stop waits for the jobs in flight; a job not started stops now */
	if (js->wait == MM_JS_WAIT_DEP || js->wait == MM_JS_WAIT_POWER)
		mm_js_stop(m, n, MALI_HW_EXC_STOPPED);
	else
		js->soft_stop = true;
}

/* The 64-bit JS register at @off (LO or HI half), NULL for others. */
static uint64_t *mm_js_reg64(struct mm_js *js, uint32_t off)
{
	switch (off & ~4U) {
	case MALI_HW_JS_HEAD:
		return &js->head;
	case MALI_HW_JS_TAIL:
		return &js->tail;
	case MALI_HW_JS_AFFINITY:
		return &js->affinity;
	case MALI_HW_JS_HEAD_NEXT:
		return &js->head_next;
	case MALI_HW_JS_AFFINITY_NEXT:
		return &js->affinity_next;
	default:
		return NULL;
	}
}

static uint32_t mm_js_read(struct mali_model *m, uint32_t reg)
{
	unsigned int n;
	uint32_t off = mm_js_reg(reg, &n);
	struct mm_js *js = &m->js[n];
	uint64_t *r;

	switch (off) {
	case MALI_HW_JS_CONFIG:
		return js->config;
	case MALI_HW_JS_XAFFINITY:
		return js->xaffinity;
	case MALI_HW_JS_STATUS:
		return js->status;
	case MALI_HW_JS_CONFIG_NEXT:
		return js->config_next;
	case MALI_HW_JS_XAFFINITY_NEXT:
		return js->xaffinity_next;
	case MALI_HW_JS_COMMAND_NEXT:
		return js->command_next;
	case MALI_HW_JS_FLUSH_ID_NEXT:
		return js->flush_id_next;
	}
	r = mm_js_reg64(js, off);
	if (!r)
		return 0;
	return off & 4 ? mm_hi(*r) : mm_lo(*r);
}

static void mm_js_write(struct mali_model *m, uint32_t reg, uint32_t val)
{
	unsigned int n;
	uint32_t off = mm_js_reg(reg, &n);
	struct mm_js *js = &m->js[n];
	uint64_t *r;

	switch (off) {
	case MALI_HW_JS_COMMAND:
		mm_js_command(m, n, val);
		return;
	case MALI_HW_JS_CONFIG_NEXT:
		js->config_next = val;
		return;
	case MALI_HW_JS_XAFFINITY_NEXT:
		js->xaffinity_next = val;
		return;
	case MALI_HW_JS_FLUSH_ID_NEXT:
		js->flush_id_next = val;
		return;
	case MALI_HW_JS_COMMAND_NEXT:
		js->command_next = val == MALI_HW_JS_COMMAND_START ? val : MALI_HW_JS_COMMAND_NOP;
		mm_js_try_start(m, n);
		return;
	}
	r = mm_js_reg64(js, off);
	/* Only the _NEXT set is writable */
	if (r != &js->head_next && r != &js->affinity_next)
		return;
	if (off & 4)
		mm_set_hi(r, val);
	else
		mm_set_lo(r, val);
}

static uint32_t mm_js_state(const struct mali_model *m)
{
	uint32_t v = 0;
	unsigned int n;

	for (n = 0; n < MM_NR_JS; n++) {
		if (m->js[n].active)
			v |= MALI_HW_BIT(n);
		if (m->js[n].command_next == MALI_HW_JS_COMMAND_START)
			v |= MALI_HW_BIT(n + 16);
	}
	return v;
}

static bool mm_js_any_active(const struct mali_model *m)
{
	return mm_js_state(m) & 0x7;
}

/*
 * An UPDATE or FLUSH_PT completed on the address spaces in @mask: a job
 * stalled on an MMU fault of one of them retries the access once the
 * driver cleared the fault (it mapped the page, then flushed the page
 * tables, as panfrost does for a growable heap); if the driver disabled
 * the address space instead (panfrost and kbase on an unhandled fault),
 * the job is killed with the fault's code.
 */
static void mm_js_as_updated(struct mali_model *m, uint32_t mask)
{
	unsigned int n;

	for (n = 0; n < MM_NR_JS; n++) {
		struct mm_js *js = &m->js[n];
		unsigned int asn = MALI_HW_JS_CONFIG_AS(js->config);
		const struct mm_as *as;

		if (!js->active || js->wait != MM_JS_WAIT_MMU || asn >= MM_NR_AS ||
		    !(mask & MALI_HW_BIT(asn)))
			continue;
		if (m->mmu_irq_raw & (MALI_HW_MMU_IRQ_PAGE_FAULT(asn) |
				      MALI_HW_MMU_IRQ_BUS_ERROR(asn)))
			continue;
		as = &m->as[asn];
		if ((as->live_transtab & MALI_HW_TRANSTAB_ADRMODE_MASK) ==
		    MALI_HW_TRANSTAB_ADRMODE_UNMAPPED &&
		    (!m->prod->has_transcfg ||
		     (as->live_transcfg & MALI_HW_TRANSCFG_ADRMODE_MASK) ==
		     MALI_HW_TRANSCFG_ADRMODE_LEGACY)) {
			mm_js_fail(m, n, js->next_va, js->fault_exception);
			continue;
		}
		js->wait = MM_JS_WAIT_NONE;
		mm_js_plan(m, n);
	}
}

/* A power transition completed: chains waiting for power may start. */
static void mm_js_power_changed(struct mali_model *m)
{
	unsigned int n;

	for (n = 0; n < MM_NR_JS; n++)
		if (m->js[n].active && m->js[n].wait == MM_JS_WAIT_POWER &&
		    mm_js_powered(m, n)) {
			m->js[n].wait = MM_JS_WAIT_NONE;
			mm_js_plan(m, n);
		}
}

/**
 * mali_model_js_stats() - what a job slot ran
 * @m: model.
 * @js: slot, 0..2.
 * @st: receives the statistics.
 *
 * Return: 0, or -1 for a slot the GPU does not have.
 */
int mali_model_js_stats(const struct mali_model *m, unsigned int js,
			struct mali_model_js_stats *st)
{
	if (js >= MM_NR_JS)
		return -1;
	*st = m->js_stats[js];
	return 0;
}

/**
 * mali_model_jobs_busy_ns() - model time in which any slot ran a chain
 * @m: model.
 *
 * Return: nanoseconds, since the model was set up.
 */
uint64_t mali_model_jobs_busy_ns(const struct mali_model *m)
{
	return m->jobs_busy_ns;
}

/* ---- register file -------------------------------------------------------- */

/* The region AS_LOCKADDR names: 2^(width + 1) bytes, naturally aligned. */
static void mm_lock_region(const struct mm_as *as, uint64_t *base, uint64_t *size)
{
	unsigned int log2 = (as->lockaddr & MALI_HW_LOCKADDR_SIZE_MASK) + 1;

	if (log2 < MALI_HW_LOCKADDR_MIN_LOG2)
		log2 = MALI_HW_LOCKADDR_MIN_LOG2;
	*size = log2 >= 64 ? ~0ULL : MALI_HW_BIT64(log2);
	*base = log2 >= 64 ? 0 : as->lockaddr & ~(*size - 1) & MM_PAGE_MASK;
}

/*
 * A reserved address mode was latched: what the MMU then does is undefined
 * (the legacy TRANSTAB format's UNMAPPED is 0, not 1, which is TRANSCFG's
 * UNMAPPED). Report it; a sample through it faults.
 */
static void mm_check_modes(struct mali_model *m, const struct mm_as *as)
{
	unsigned int asn = as - m->as;
	uint64_t cfg = as->live_transcfg & MALI_HW_TRANSCFG_ADRMODE_MASK;
	char msg[MM_MSG];

	if (m->prod->has_transcfg) {
		switch (cfg) {
		case MALI_HW_TRANSCFG_ADRMODE_LEGACY:
			break;	/* TRANSTAB says */
		case MALI_HW_TRANSCFG_ADRMODE_AARCH64_4K:
			if (!mm_a64_ias(as)) {
				uint64_t ina = as->live_transcfg >>
					       MALI_HW_TRANSCFG_INA_BITS_SHIFT;

				ina &= MALI_HW_TRANSCFG_INA_BITS_MASK;
				snprintf(msg, sizeof(msg),
					 "AS%u: TRANSCFG INA_BITS %llu: input size outside 25..48 bits",
					 asn, (unsigned long long)ina);
				mm_report(m, msg);
			}
			return;
		case MALI_HW_TRANSCFG_ADRMODE_UNMAPPED:
		case MALI_HW_TRANSCFG_ADRMODE_IDENTITY:
		case MALI_HW_TRANSCFG_ADRMODE_AARCH64_64K:
			return;
		default:
			snprintf(msg, sizeof(msg),
				 "AS%u: TRANSCFG ADRMODE %llu is reserved", asn,
				 (unsigned long long)cfg);
			mm_report(m, msg);
			return;
		}
	}
	if ((as->live_transtab & MALI_HW_TRANSTAB_ADRMODE_MASK) ==
	    MALI_HW_TRANSTAB_ADRMODE_RESERVED) {
		snprintf(msg, sizeof(msg),
			 "AS%u: TRANSTAB ADRMODE 1 is reserved (UNMAPPED is 0)%s", asn,
			 m->prod->has_transcfg ? ", with TRANSCFG LEGACY" : "");
		mm_report(m, msg);
	}
}

static void mm_as_command(struct mali_model *m, struct mm_as *as, uint32_t cmd)
{
	uint64_t base, size;
	char msg[MM_MSG];

	if (cmd == MALI_HW_AS_COMMAND_NOP)
		return;
	/* A driver polls AS_STATUS until ACTIVE clears before each command */
	if (as->active) {
		snprintf(msg, sizeof(msg),
			 "AS%u: AS_COMMAND %u written while AS_STATUS is ACTIVE",
			 (unsigned int)(as - m->as), cmd);
		mm_report(m, msg);
	}
	as->active = true;
	as->cmd = cmd;
	mm_timer_arm(m, MALI_MODEL_TIMER_AS, MM_AS_LATENCY_NS);
	mm_lock_region(as, &base, &size);
	switch (cmd) {
	case MALI_HW_AS_COMMAND_UPDATE:
		/* Broadcasts the configuration; the TLB is kept */
		as->live_transtab = as->transtab;
		as->live_transcfg = as->transcfg;
		mm_check_modes(m, as);
		break;
	case MALI_HW_AS_COMMAND_LOCK:
		as->locked = true;
		as->lock_base = base;
		as->lock_size = size;
		break;
	case MALI_HW_AS_COMMAND_UNLOCK:
		/* A flush of the region; the lock is released when it completes */
		mm_tlb_flush(as, base, size);
		break;
	case MALI_HW_AS_COMMAND_FLUSH_MEM:
		/* Outstanding writes reach memory first: the L2 is written back */
		mm_l2_writeback(m);
		mm_tlb_flush(as, base, size);
		break;
	case MALI_HW_AS_COMMAND_FLUSH_PT:
		mm_tlb_flush(as, base, size);
		break;
	default:
		break;
	}
}

/* The 64-bit AS register at @off (its LO or HI half), NULL for others. */
static uint64_t *mm_as_reg64(struct mm_as *as, uint32_t off)
{
	switch (off & ~4U) {
	case MALI_HW_AS_TRANSTAB:
		return &as->transtab;
	case MALI_HW_AS_MEMATTR:
		return &as->memattr;
	case MALI_HW_AS_LOCKADDR:
		return &as->lockaddr;
	case MALI_HW_AS_FAULTADDRESS:
		return &as->faultaddress;
	case MALI_HW_AS_TRANSCFG:
		return &as->transcfg;
	default:
		return NULL;
	}
}

static struct mm_as *mm_as_of(struct mali_model *m, uint32_t reg, uint32_t *off)
{
	uint32_t asn = (reg - MALI_HW_AS_BASE) / MALI_HW_AS_STRIDE;

	*off = (reg - MALI_HW_AS_BASE) % MALI_HW_AS_STRIDE;
	return asn < MM_NR_AS ? &m->as[asn] : NULL;
}

static bool mm_is_as_reg(uint32_t reg)
{
	return reg >= MALI_HW_AS_BASE &&
	       reg < MALI_HW_AS_BASE + MM_NR_AS * MALI_HW_AS_STRIDE;
}

static uint32_t mm_as_read(struct mali_model *m, uint32_t reg)
{
	struct mm_as *as;
	uint64_t *r;
	uint32_t off;

	as = mm_as_of(m, reg, &off);
	if (!as)
		return 0;
	if (off == MALI_HW_AS_FAULTSTATUS)
		return as->faultstatus;
	if (off == MALI_HW_AS_STATUS)
		return as->active ? MALI_HW_AS_STATUS_ACTIVE : 0;
	r = mm_as_reg64(as, off);
	if (!r)
		return 0;
	return off & 4 ? mm_hi(*r) : mm_lo(*r);
}

static void mm_as_write(struct mali_model *m, uint32_t reg, uint32_t val)
{
	struct mm_as *as;
	uint64_t *r;
	uint32_t off;

	as = mm_as_of(m, reg, &off);
	if (!as)
		return;
	if (off == MALI_HW_AS_COMMAND) {
		mm_as_command(m, as, val);
		return;
	}
	r = mm_as_reg64(as, off);
	/* AS_FAULTADDRESS is read-only */
	if (!r || r == &as->faultaddress)
		return;
	if (off & 4)
		mm_set_hi(r, val);
	else
		mm_set_lo(r, val);
}

/* LO/HI halves of a 64-bit register at @base */
static bool mm_reg64(uint32_t reg, uint32_t base, uint64_t v, uint32_t *out)
{
	if (reg == base)
		*out = mm_lo(v);
	else if (reg == base + 4)
		*out = mm_hi(v);
	else
		return false;
	return true;
}

/* The feature registers of &struct mali_model_ids; 0 for other registers. */
static uint32_t mm_read_ids(const struct mali_model *m, uint32_t reg)
{
	const struct mali_model_ids *ids = m->prod->ids;

	switch (reg) {
	case MALI_HW_CORE_FEATURES:
		return ids->core_features;
	case MALI_HW_TILER_FEATURES:
		return ids->tiler_features;
	case MALI_HW_THREAD_MAX_THREADS:
		return ids->thread_max_threads;
	case MALI_HW_THREAD_MAX_WORKGROUP_SIZE:
		return ids->thread_max_workgroup;
	case MALI_HW_THREAD_MAX_BARRIER_SIZE:
		return ids->thread_max_barrier;
	case MALI_HW_THREAD_FEATURES:
		return ids->thread_features;
	case MALI_HW_COHERENCY_FEATURES:
		return ids->coherency_features;
	}
	if (reg >= MALI_HW_TEXTURE_FEATURES(0) && reg <= MALI_HW_TEXTURE_FEATURES(3))
		return ids->texture_features[(reg - MALI_HW_TEXTURE_FEATURES(0)) / 4];
	/* One JS_FEATURES per JS_PRESENT bit: slots 0-2 */
	if (reg >= MALI_HW_JS_FEATURES(0) && reg <= MALI_HW_JS_FEATURES(2))
		return ids->js_features[(reg - MALI_HW_JS_FEATURES(0)) / 4];
	return 0;
}

static uint32_t mm_read_reg64(struct mali_model *m, uint32_t reg)
{
	uint32_t v = 0;

	if (mm_reg64(reg, MALI_HW_GPU_FAULTADDRESS_LO, m->fault_address, &v) ||
	    mm_reg64(reg, MALI_HW_PRFCNT_BASE_LO, m->prfcnt_base, &v) ||
	    mm_reg64(reg, MALI_HW_CYCLE_COUNT_LO, mm_cycle_count(m), &v) ||
	    mm_reg64(reg, MALI_HW_TIMESTAMP_LO, mm_timestamp(m), &v) ||
	    mm_reg64(reg, MALI_HW_SHADER_PRESENT, m->shader_present, &v) ||
	    mm_reg64(reg, MALI_HW_TILER_PRESENT, 1, &v) ||
	    mm_reg64(reg, MALI_HW_L2_PRESENT, m->l2_present, &v) ||
	    mm_reg64(reg, MALI_HW_STACK_PRESENT,
		     m->prod->ids->core_stacks ? m->shader_present : 0, &v) ||
	    mm_reg64(reg, MALI_HW_SHADER_READY, m->shader_ready, &v) ||
	    mm_reg64(reg, MALI_HW_TILER_READY, m->tiler_ready, &v) ||
	    mm_reg64(reg, MALI_HW_L2_READY, m->l2_ready, &v) ||
	    mm_reg64(reg, MALI_HW_SHADER_PWRTRANS,
		     m->pwr_on[MM_PWR_SHADER] | m->pwr_off[MM_PWR_SHADER], &v) ||
	    mm_reg64(reg, MALI_HW_TILER_PWRTRANS,
		     m->pwr_on[MM_PWR_TILER] | m->pwr_off[MM_PWR_TILER], &v) ||
	    mm_reg64(reg, MALI_HW_L2_PWRTRANS,
		     m->pwr_on[MM_PWR_L2] | m->pwr_off[MM_PWR_L2], &v))
		return v;
	if (mm_is_as_reg(reg))
		return mm_as_read(m, reg);
	if (mm_is_js_reg(reg))
		return mm_js_read(m, reg);
	return mm_read_ids(m, reg);
}

/**
 * mali_model_read() - a 32-bit register read
 * @m: model.
 * @reg: byte offset in the register window.
 *
 * Return: the register's value; 0 for registers the model does not have.
 */
uint32_t mali_model_read(struct mali_model *m, uint32_t reg)
{
	uint32_t v;

	switch (reg) {
	case MALI_HW_GPU_ID:
		return m->prod->gpu_id;
	case MALI_HW_L2_FEATURES:
		return m->prod->l2_features;
	case MALI_HW_MEM_FEATURES:
		return m->mem_features;
	case MALI_HW_MMU_FEATURES:
		return m->mmu_features;
	/* 8 and 3, as public T860 and G52 boot logs say (as 0xff js 0x7) */
	case MALI_HW_AS_PRESENT:
		return (1U << MM_NR_AS) - 1;
	case MALI_HW_JS_PRESENT:
		return MM_JS_PRESENT;
	case MALI_HW_GPU_IRQ_RAWSTAT:
		return m->gpu_irq_raw;
	case MALI_HW_GPU_IRQ_MASK:
		return m->gpu_irq_mask;
	case MALI_HW_GPU_IRQ_STATUS:
		v = m->gpu_irq_raw & m->gpu_irq_mask;
		if (m->armed == MM_FAULT_LATE_IRQ &&
		    (v & MALI_HW_GPU_IRQ_PRFCNT_SAMPLE_COMPLETED)) {
			m->armed = MM_FAULT_NONE;
			m->stall_ms = m->armed_delay_ms;
		}
		return v;
	case MALI_HW_GPU_STATUS:
		return (m->sample_pending || m->clean_pending || mm_js_any_active(m) ?
			MALI_HW_GPU_STATUS_GPU_ACTIVE : 0) |
		       (m->sample_pending ? MALI_HW_GPU_STATUS_PRFCNT_ACTIVE : 0);
	case MALI_HW_GPU_FAULTSTATUS:
		return m->fault_status;
	case MALI_HW_PWR_OVERRIDE0:
		return m->pwr_override[0];
	case MALI_HW_PWR_OVERRIDE1:
		return m->pwr_override[1];
	case MALI_HW_PRFCNT_CONFIG:
		return m->prfcnt_config;
	case MALI_HW_COHERENCY_ENABLE:
		return mm_coherency_features(m) ? m->coherency_enable : 0;
	case MALI_HW_JM_CONFIG:
		return m->jm_config;
	case MALI_HW_PRFCNT_JM_EN:
		return m->en_jm;
	case MALI_HW_PRFCNT_SHADER_EN:
		return m->en_shader;
	case MALI_HW_PRFCNT_TILER_EN:
		return m->en_tiler;
	case MALI_HW_PRFCNT_MMU_L2_EN:
		return m->en_mmu_l2;
	case MALI_HW_JOB_IRQ_RAWSTAT:
		return m->job_irq_raw;
	case MALI_HW_JOB_IRQ_MASK:
		return m->job_irq_mask;
	case MALI_HW_JOB_IRQ_STATUS:
		return m->job_irq_raw & m->job_irq_mask;
	case MALI_HW_JOB_IRQ_JS_STATE:
		return mm_js_state(m);
	case MALI_HW_LATEST_FLUSH_ID:
		return m->latest_flush_id;
	case MALI_HW_MMU_IRQ_RAWSTAT:
		return m->mmu_irq_raw;
	case MALI_HW_MMU_IRQ_MASK:
		return m->mmu_irq_mask;
	case MALI_HW_MMU_IRQ_STATUS:
		v = m->mmu_irq_raw & m->mmu_irq_mask;
		if (m->armed == MM_FAULT_LATE_IRQ && v) {
			m->armed = MM_FAULT_NONE;
			m->stall_ms = m->armed_delay_ms;
		}
		return v;
	default:
		return mm_read_reg64(m, reg);
	}
}

static uint64_t *mm_ready(struct mali_model *m, unsigned int d)
{
	return d == MM_PWR_SHADER ? &m->shader_ready :
	       d == MM_PWR_TILER ? &m->tiler_ready : &m->l2_ready;
}

static uint64_t mm_present(const struct mali_model *m, unsigned int d)
{
	return d == MM_PWR_SHADER ? m->shader_present :
	       d == MM_PWR_TILER ? 1 : m->l2_present;
}

/* Cores of domain @d that are powered or being powered (up or down). */
static uint64_t mm_powered(struct mali_model *m, unsigned int d)
{
	return *mm_ready(m, d) | m->pwr_on[d];
}

/*
 * Start powering cores of domain @d up or down: PWRTRANS is set now, READY
 * changes when MALI_MODEL_TIMER_POWER fires, with POWER_CHANGED. Powering
 * the L2 down while shader cores or the tiler are still powered (or still
 * powering down) is reported: they need it.
 */
static void mm_power(struct mali_model *m, unsigned int d, uint64_t mask, bool on)
{
	char msg[MM_MSG];

	mask &= mm_present(m, d);
	/* A hung power controller takes no command until a reset */
	if (d == MM_PWR_SHADER && m->power_stuck)
		return;
	if (on) {
		m->pwr_on[d] |= mask & ~*mm_ready(m, d);
		m->pwr_off[d] &= ~mask;
	} else {
		if (d == MM_PWR_L2 && (mask & mm_powered(m, d)) &&
		    (mm_powered(m, MM_PWR_SHADER) || mm_powered(m, MM_PWR_TILER))) {
			snprintf(msg, sizeof(msg),
				 "L2 powered off while shader cores 0x%llx and tiler 0x%llx are on",
				 (unsigned long long)mm_powered(m, MM_PWR_SHADER),
				 (unsigned long long)mm_powered(m, MM_PWR_TILER));
			mm_report(m, msg);
		}
		m->pwr_off[d] |= mask & mm_powered(m, d);
		m->pwr_on[d] &= ~mask;
		/* Cores that stop, then hang in their power-down until a reset */
		if (d == MM_PWR_SHADER && m->pwr_off[d] && m->armed == MM_FAULT_STUCK_POWER) {
			m->shader_ready &= ~m->pwr_off[d];
			m->power_stuck = true;
			m->armed = MM_FAULT_NONE;
		}
	}
	if (m->pwr_on[d] | m->pwr_off[d])
		mm_timer_arm(m, MALI_MODEL_TIMER_POWER, MM_POWER_LATENCY_NS);
}

/* The power transitions in progress complete; the model is advanced first. */
static void mm_power_done(struct mali_model *m)
{
	bool changed = false;
	unsigned int d;

	mm_advance(m, mm_now(m));
	for (d = 0; d < MM_NR_PWR; d++) {
		uint64_t *ready = mm_ready(m, d);

		if (!(m->pwr_on[d] | m->pwr_off[d]))
			continue;
		if (d == MM_PWR_SHADER && m->power_stuck)
			continue;
		*ready = (*ready | m->pwr_on[d]) & ~m->pwr_off[d];
		m->pwr_on[d] = 0;
		m->pwr_off[d] = 0;
		changed = true;
	}
	if (changed) {
		m->gpu_irq_raw |= MALI_HW_GPU_IRQ_POWER_CHANGED_SINGLE |
				  MALI_HW_GPU_IRQ_POWER_CHANGED_ALL;
		mm_js_power_changed(m);
		mm_update_lines(m);
	}
}

/*
 * The AS commands in progress complete. UNLOCK, FLUSH_PT and FLUSH_MEM
 * release the LOCK of their address space; a sample stalled on it goes on.
 */
static void mm_as_done(struct mali_model *m)
{
	uint32_t updated = 0;
	unsigned int i;

	for (i = 0; i < MM_NR_AS; i++) {
		struct mm_as *as = &m->as[i];

		if (as->active && (as->cmd == MALI_HW_AS_COMMAND_UPDATE ||
				   as->cmd == MALI_HW_AS_COMMAND_FLUSH_PT))
			updated |= MALI_HW_BIT(i);

		if (as->active && (as->cmd == MALI_HW_AS_COMMAND_UNLOCK ||
				   as->cmd == MALI_HW_AS_COMMAND_FLUSH_PT ||
				   as->cmd == MALI_HW_AS_COMMAND_FLUSH_MEM))
			as->locked = false;
		as->active = false;
	}
	if (m->sample_stalled && !mm_sample_locked(m))
		mm_sample_done(m);
	mm_js_as_updated(m, updated);
	mm_update_lines(m);
}

/* A sample has waited on a LOCK for MM_STALL_REPORT_NS: report it once. */
static void mm_stall_check(struct mali_model *m)
{
	const struct mm_as *as = &m->as[m->sample_as];
	char msg[MM_MSG];

	if (!m->sample_stalled || m->stall_reported)
		return;
	m->stall_reported = true;
	snprintf(msg, sizeof(msg),
		 "AS%u: the dump at VA 0x%llx waits on a LOCK of 0x%llx+0x%llx for %llu ms: no UNLOCK or FLUSH",
		 m->sample_as, (unsigned long long)m->sample_base,
		 (unsigned long long)as->lock_base, (unsigned long long)as->lock_size,
		 (unsigned long long)(MM_STALL_REPORT_NS / MM_NS_PER_MS));
	mm_report(m, msg);
}

static void mm_write_config(struct mali_model *m, uint32_t val)
{
	uint64_t now = mm_now(m);
	bool was_on = mm_counting(m);

	mm_advance(m, now);
	m->prfcnt_config = val;
	if (!was_on && mm_counting(m))
		mm_clear_counters(m, now);
	/* Our model of PRLAM-8186: tiler enabled when MANUAL is set breaks it */
	if (MALI_HW_PRFCNT_CONFIG_MODE(val) == MALI_HW_PRFCNT_CONFIG_MODE_OFF)
		m->tiler_broken = false;
	else if (m->hw_issue_8186 && !was_on && m->en_tiler)
		m->tiler_broken = true;
}

/* PWRON/PWROFF of the three domains; false for other registers. */
static bool mm_write_power(struct mali_model *m, uint32_t reg, uint32_t val)
{
	uint64_t mask = reg & 4 ? (uint64_t)val << 32 : val;
	uint32_t base = reg & ~4U;

	switch (base) {
	case MALI_HW_SHADER_PWRON:
	case MALI_HW_SHADER_PWROFF:
		mm_power(m, MM_PWR_SHADER, mask, base == MALI_HW_SHADER_PWRON);
		return true;
	case MALI_HW_TILER_PWRON:
	case MALI_HW_TILER_PWROFF:
		/* Only the LO half: there is one tiler */
		if (reg & 4)
			return false;
		mm_power(m, MM_PWR_TILER, mask, base == MALI_HW_TILER_PWRON);
		return true;
	case MALI_HW_L2_PWRON:
	case MALI_HW_L2_PWROFF:
		mm_power(m, MM_PWR_L2, mask, base == MALI_HW_L2_PWRON);
		return true;
	default:
		return false;
	}
}

/*
 * PWR_OVERRIDE0/1 take a write only right after PWR_KEY was written with
 * the unlock value; one write locks them again. Hardware ignores a locked
 * write silently: the model reports it.
 */
static void mm_write_pwr_override(struct mali_model *m, uint32_t reg, uint32_t val)
{
	unsigned int n = reg == MALI_HW_PWR_OVERRIDE1;
	char msg[MM_MSG];

	if (!m->pwr_unlocked) {
		snprintf(msg, sizeof(msg),
			 "PWR_OVERRIDE%u = 0x%08x without PWR_KEY unlock: ignored", n, val);
		mm_report(m, msg);
		return;
	}
	m->pwr_unlocked = false;
	m->pwr_override[n] = val;
}

/**
 * mali_model_write() - a 32-bit register write
 * @m: model.
 * @reg: byte offset in the register window.
 * @val: value; writes to read-only or absent registers are ignored.
 */
void mali_model_write(struct mali_model *m, uint32_t reg, uint32_t val)
{
	switch (reg) {
	case MALI_HW_GPU_IRQ_CLEAR:
		m->gpu_irq_raw &= ~val;
		break;
	case MALI_HW_GPU_IRQ_MASK:
		m->gpu_irq_mask = val;
		break;
	case MALI_HW_GPU_COMMAND:
		mm_command(m, val);
		break;
	case MALI_HW_PRFCNT_BASE_LO:
		mm_set_lo(&m->prfcnt_base, val);
		break;
	case MALI_HW_PRFCNT_BASE_HI:
		mm_set_hi(&m->prfcnt_base, val);
		break;
	case MALI_HW_PRFCNT_CONFIG:
		mm_write_config(m, val);
		break;
	case MALI_HW_PRFCNT_JM_EN:
		m->en_jm = val;
		break;
	case MALI_HW_PRFCNT_SHADER_EN:
		m->en_shader = val;
		break;
	case MALI_HW_PRFCNT_TILER_EN:
		m->en_tiler = val;
		break;
	case MALI_HW_PRFCNT_MMU_L2_EN:
		m->en_mmu_l2 = val;
		break;
	case MALI_HW_COHERENCY_ENABLE:
		if (mm_coherency_features(m))
			m->coherency_enable = val & 0x1f;
		break;
	case MALI_HW_JM_CONFIG:
		m->jm_config = val;
		break;
	case MALI_HW_JOB_IRQ_CLEAR: {
		unsigned int n;

		m->job_irq_raw &= ~val;
		/* A failed slot takes its _NEXT chain once the failure is cleared */
		for (n = 0; n < MM_NR_JS; n++)
			mm_js_try_start(m, n);
		break;
	}
	case MALI_HW_JOB_IRQ_MASK:
		m->job_irq_mask = val;
		break;
	case MALI_HW_MMU_IRQ_CLEAR:
		m->mmu_irq_raw &= ~val;
		break;
	case MALI_HW_MMU_IRQ_MASK:
		m->mmu_irq_mask = val;
		break;
	case MALI_HW_PWR_KEY:
		m->pwr_unlocked = val == MALI_HW_PWR_KEY_UNLOCK;
		break;
	case MALI_HW_PWR_OVERRIDE0:
	case MALI_HW_PWR_OVERRIDE1:
		mm_write_pwr_override(m, reg, val);
		break;
	default:
		if (mm_write_power(m, reg, val))
			break;
		if (mm_is_as_reg(reg))
			mm_as_write(m, reg, val);
		else if (mm_is_js_reg(reg))
			mm_js_write(m, reg, val);
		break;
	}
	mm_update_lines(m);
}

/**
 * mali_model_timer() - a timer the model armed fired
 * @m: model.
 * @timer: &enum mali_model_timer.
 */
void mali_model_timer(struct mali_model *m, unsigned int timer)
{
	switch (timer) {
	case MALI_MODEL_TIMER_SAMPLE:
		mm_sample_done(m);
		break;
	case MALI_MODEL_TIMER_CLEAN:
		mm_clean_done(m);
		break;
	case MALI_MODEL_TIMER_RESET:
		mm_reset_done(m);
		break;
	case MALI_MODEL_TIMER_POWER:
		mm_power_done(m);
		break;
	case MALI_MODEL_TIMER_AS:
		mm_as_done(m);
		break;
	case MALI_MODEL_TIMER_STALL:
		mm_stall_check(m);
		break;
	case MALI_MODEL_TIMER_JS0:
	case MALI_MODEL_TIMER_JS1:
	case MALI_MODEL_TIMER_JS2:
		mm_js_timer(m, timer - MALI_MODEL_TIMER_JS0);
		break;
	default:
		break;
	}
}

/* ---- text controls -------------------------------------------------------- */

static bool mm_is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* Copy @text into @buf without surrounding blanks; false when too long. */
static bool mm_trim(char *buf, size_t size, const char *text)
{
	size_t len;

	while (mm_is_space(*text))
		text++;
	len = strlen(text);
	while (len && mm_is_space(text[len - 1]))
		len--;
	if (len >= size)
		return false;
	memcpy(buf, text, len);
	buf[len] = '\0';
	return true;
}

/* A decimal number of at most @max, digits only; false otherwise. */
static bool mm_parse_u32(const char *s, uint32_t max, uint32_t *out)
{
	uint64_t v = 0;

	if (!*s)
		return false;
	for (; *s; s++) {
		if (*s < '0' || *s > '9')
			return false;
		v = v * 10 + (uint64_t)(*s - '0');
		if (v > max)
			return false;
	}
	*out = (uint32_t)v;
	return true;
}

static int mm_error(char *err, size_t errlen, const char *msg)
{
	if (errlen)
		snprintf(err, errlen, "%s", msg);
	return -1;
}

/**
 * mali_model_set_workload() - set the modelled load
 * @m: model.
 * @text: "idle" or "busy=N", N in 0..100.
 * @err: receives one line on error.
 * @errlen: size of @err.
 *
 * Return: 0, or -1 for text it does not accept.
 */
int mali_model_set_workload(struct mali_model *m, const char *text,
			    char *err, size_t errlen)
{
	char buf[16];
	uint32_t load;

	if (!mm_trim(buf, sizeof(buf), text))
		goto bad;
	if (!strcmp(buf, "idle"))
		load = 0;
	else if (strncmp(buf, "busy=", 5) || !mm_parse_u32(buf + 5, 100, &load))
		goto bad;

	mm_advance(m, mm_now(m));
	m->load_pct = load;
	return 0;
bad:
	return mm_error(err, errlen, "want \"idle\" or \"busy=N\", N in 0..100");
}

/**
 * mali_model_show_workload() - the load, as mali_model_set_workload() takes it
 * @m: model.
 * @buf: receives the text, no newline.
 * @len: size of @buf.
 */
void mali_model_show_workload(struct mali_model *m, char *buf, size_t len)
{
	if (m->load_pct)
		snprintf(buf, len, "busy=%u", m->load_pct);
	else
		snprintf(buf, len, "idle");
}

/**
 * mali_model_set_fault() - arm a fault for the next sample or cache clean
 * @m: model.
 * @text: "none", "drop_irq" (the next sample raises no interrupt),
 *	"delay=MS" (the next sample takes MS ms, at most 5000), "stuck_clean"
 *	(cache cleans never complete until a reset), "gpu_fault" (the next
 *	sample raises a GPU bus fault instead), "soft_reset_stuck" (the next
 *	sample raises no interrupt and soft resets stop completing until a
 *	hard reset), "dead" (the next sample raises no interrupt and no reset
 *	completes any more; "none" revives the GPU) or "late_irq=MS" (the
 *	first read of GPU_IRQ_STATUS that shows PRFCNT_SAMPLE_COMPLETED, or
 *	of MMU_IRQ_STATUS that shows a fault, asks the host to stall its
 *	reader MS ms, at most 5000: an interrupt handler delayed between
 *	reading the status and acting on it) or "stuck_power" (the next
 *	power-down of the shader cores never completes: they stop at once,
 *	SHADER_PWRTRANS stays set and their power commands are ignored
 *	until a reset).
 * @err: receives one line on error.
 * @errlen: size of @err.
 *
 * Return: 0, or -1 for text it does not accept.
 */
int mali_model_set_fault(struct mali_model *m, const char *text,
			 char *err, size_t errlen)
{
	unsigned int fault;
	uint32_t delay = 0;
	char buf[32];

	if (!mm_trim(buf, sizeof(buf), text))
		goto bad;
	for (fault = MM_FAULT_NONE; fault < MM_NR_FAULTS; fault++)
		if (fault != MM_FAULT_DELAY && fault != MM_FAULT_LATE_IRQ &&
		    !strcmp(buf, mm_fault_names[fault]))
			break;
	if (fault == MM_NR_FAULTS) {
		if (!strncmp(buf, "delay=", 6) &&
		    mm_parse_u32(buf + 6, MM_MAX_DELAY_MS, &delay))
			fault = MM_FAULT_DELAY;
		else if (!strncmp(buf, "late_irq=", 9) &&
			 mm_parse_u32(buf + 9, MM_MAX_DELAY_MS, &delay))
			fault = MM_FAULT_LATE_IRQ;
		else
			goto bad;
	}
	/* "none" also revives a GPU that died or whose soft reset broke */
	if (fault == MM_FAULT_NONE) {
		m->dead = false;
		m->soft_reset_stuck = false;
	}
	m->armed = fault;
	m->armed_delay_ms = delay;
	return 0;
bad:
	return mm_error(err, errlen,
			"want none, drop_irq, delay=MS, stuck_clean, gpu_fault, soft_reset_stuck, dead, stuck_power or late_irq=MS (MS <= 5000)");
}

/**
 * mali_model_show_fault() - the armed fault, as mali_model_set_fault() takes it
 * @m: model.
 * @buf: receives the text, no newline.
 * @len: size of @buf.
 */
void mali_model_show_fault(struct mali_model *m, char *buf, size_t len)
{
	if (m->armed == MM_FAULT_DELAY || m->armed == MM_FAULT_LATE_IRQ)
		snprintf(buf, len, "%s=%u", mm_fault_names[m->armed], m->armed_delay_ms);
	else
		snprintf(buf, len, "%s", mm_fault_names[m->armed]);
}

/**
 * mali_model_power_loss() - the GPU's power domain was switched off
 * @m: model.
 *
 * Everything the GPU held is lost: registers back to their reset values,
 * the L2's contents and anything in progress gone. The driver finds the
 * GPU as after power-on.
 */
void mali_model_power_loss(struct mali_model *m)
{
	mm_reset_state(m);
	mm_update_lines(m);
}

/**
 * mali_model_late_irq_armed() - whether late_irq waits for its status read
 * @m: model.
 *
 * A host whose interrupt delivery would hold up the rest of the system
 * while it stalls (the CPU's tick) delivers the interrupt differently then
 * (the kernel simulator: from a work item).
 *
 * Return: true while late_irq is armed.
 */
bool mali_model_late_irq_armed(const struct mali_model *m)
{
	return m->armed == MM_FAULT_LATE_IRQ;
}

/**
 * mali_model_take_stall_ms() - a stall %MM_FAULT_LATE_IRQ asked of the host
 * @m: model.
 *
 * A host that can delay the caller of mali_model_read() (outside its own
 * lock) calls this after each read; others never do, and late_irq then
 * has no effect.
 *
 * Return: milliseconds to stall the reader, 0 for none; cleared.
 */
uint32_t mali_model_take_stall_ms(struct mali_model *m)
{
	uint32_t ms = m->stall_ms;

	m->stall_ms = 0;
	return ms;
}

/* ---- creation ------------------------------------------------------------- */

/**
 * mali_model_size() - bytes the host allocates for a struct mali_model
 *
 * Return: the size.
 */
size_t mali_model_size(void)
{
	return sizeof(struct mali_model);
}

static int mm_init_error(char *err, size_t errlen, const char *msg)
{
	return mm_error(err, errlen, msg);
}

/**
 * mali_model_init() - set a model up, in its reset state
 * @m: zeroed memory of mali_model_size() bytes.
 * @cfg: the GPU to model.
 * @ops: host interface.
 * @host: its context, passed to every op.
 * @err: receives one line on error.
 * @errlen: size of @err.
 *
 * Return: 0, or -1 for a configuration it cannot model.
 */
int mali_model_init(struct mali_model *m, const struct mali_model_config *cfg,
		    const struct mali_model_host_ops *ops, void *host,
		    char *err, size_t errlen)
{
	const struct mali_model_product *prod;
	uint64_t cores;
	uint32_t l2_slices, mhz, va_bits, pa_bits, blocks, coherency_reset;
	char msg[MM_MSG];

	prod = cfg->product ? mali_model_product_find(cfg->product) : NULL;
	if (!prod) {
		snprintf(msg, sizeof(msg), "product \"%s\" unknown; use one of %s",
			 cfg->product ? cfg->product : "", mali_model_products());
		return mm_init_error(err, errlen, msg);
	}
	cores = cfg->shader_present ? cfg->shader_present : prod->shader_present;
	l2_slices = prod->v4 ? 1 : (cfg->l2_slices ? cfg->l2_slices : prod->l2_slices);
	mhz = cfg->mhz ? cfg->mhz : prod->mhz;
	va_bits = cfg->va_bits ? cfg->va_bits : prod->va_bits;
	pa_bits = cfg->pa_bits ? cfg->pa_bits : prod->pa_bits;
	if (prod->v4 && mm_fls64(cores) >
	    MALI_HW_V4_SC_PER_GROUP * mm_hweight64(prod->l2_present)) {
		snprintf(msg, sizeof(msg),
			 "shader_present 0x%llx: %s has room for %u cores per core group",
			 (unsigned long long)cores, prod->name, MALI_HW_V4_SC_PER_GROUP);
		return mm_init_error(err, errlen, msg);
	}
	if (l2_slices > MM_MAX_L2) {
		snprintf(msg, sizeof(msg), "l2_slices %u: at most %d", l2_slices, MM_MAX_L2);
		return mm_init_error(err, errlen, msg);
	}
	if (mhz > MM_MAX_MHZ) {
		snprintf(msg, sizeof(msg), "mhz %u: at most %d", mhz, MM_MAX_MHZ);
		return mm_init_error(err, errlen, msg);
	}
	if (va_bits < 32 || va_bits > 48) {
		snprintf(msg, sizeof(msg), "va_bits %u: want 32..48", va_bits);
		return mm_init_error(err, errlen, msg);
	}
	if (pa_bits < 32 || pa_bits > 48) {
		snprintf(msg, sizeof(msg), "pa_bits %u: want 32..48", pa_bits);
		return mm_init_error(err, errlen, msg);
	}
	if (!cfg->coherency_reset || !strcmp(cfg->coherency_reset, "none")) {
		coherency_reset = MALI_HW_COHERENCY_NONE;
	} else if (!strcmp(cfg->coherency_reset, "ace-lite")) {
		coherency_reset = MALI_HW_COHERENCY_ACE_LITE;
	} else if (!strcmp(cfg->coherency_reset, "ace")) {
		coherency_reset = MALI_HW_COHERENCY_ACE;
	} else {
		snprintf(msg, sizeof(msg), "coherency_reset \"%s\": want none, ace-lite or ace",
			 cfg->coherency_reset);
		return mm_init_error(err, errlen, msg);
	}

	memset(m, 0, sizeof(*m));
	m->ops = ops;
	m->host = host;
	m->prod = prod;
	m->shader_present = cores;
	m->l2_present = prod->l2_present;
	m->nr_l2 = prod->v4 ? mm_hweight64(prod->l2_present) : l2_slices;
	m->mem_features = ((l2_slices - 1) << MALI_HW_MEM_FEATURES_L2_SLICES_SHIFT) |
			  MALI_HW_MEM_FEATURES_COHERENT_CORE_GROUP;
	m->mmu_features = MALI_HW_MMU_FEATURES_VAL(va_bits, pa_bits);
	m->mhz = mhz;
	m->coherent = cfg->coherent;
	m->coherency_reset = coherency_reset;
	m->hw_issue_8186 = prod->gpu_id == 0x69560001;
	if (prod->v4)
		blocks = MALI_HW_V4_BLOCKS_PER_GROUP * m->nr_l2;
	else
		blocks = 2 + m->nr_l2 + mm_fls64(cores);
	m->dump_size = blocks * MALI_HW_DUMP_BLOCK_BYTES;
	m->nr_units = 2 + m->nr_l2 + mm_fls64(cores);
	if (m->dump_size > MM_MAX_DUMP || m->nr_units > MM_MAX_UNITS)
		return mm_init_error(err, errlen, "too many blocks to model");
	mm_reset_state(m);
	return 0;
}

/**
 * mali_model_fini() - quiesce a model
 * @m: model; no host op is called after this returns.
 */
void mali_model_fini(struct mali_model *m)
{
	unsigned int t;

	for (t = 0; t < MALI_MODEL_NR_TIMERS; t++)
		m->ops->timer_cancel(m->host, t);
}

/* ---- what the model was configured as ------------------------------------ */

uint32_t mali_model_gpu_id(const struct mali_model *m)
{
	return m->prod->gpu_id;
}

uint64_t mali_model_shader_present(const struct mali_model *m)
{
	return m->shader_present;
}

uint32_t mali_model_l2_slices(const struct mali_model *m)
{
	return (m->mem_features >> MALI_HW_MEM_FEATURES_L2_SLICES_SHIFT & 0xf) + 1;
}

uint64_t mali_model_clock_hz(const struct mali_model *m)
{
	return (uint64_t)m->mhz * 1000000;
}

uint32_t mali_model_dump_size(const struct mali_model *m)
{
	return m->dump_size;
}

uint32_t mali_model_nr_reports(const struct mali_model *m)
{
	return m->nr_reports;
}
