// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * mali_model: the GPUs it can be and its workload model.
 *
 * GPU_ID values are those of shipping parts. Counter indices are each
 * product's real ones (from the public counter layouts), so that a decoder
 * that names counters by index decodes the model correctly.
 *
 * The workload model turns elapsed cycles and a load percentage into counts
 * that keep the relations real hardware has: per-core and tiler activity
 * never exceed GPU_ACTIVE, L2 external beats never exceed L2 lookups.
 */
#include "mali_model_port.h"
#include "mali_model.h"
#include "mali_model_products.h"

#define MM_ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

/* Midgard T76x, T86x, T88x (the T600 has the same job manager and cores) */
#define MIDGARD_V5_INDEX(tiler_active)					\
	[MM_JM_GPU_ACTIVE] = 6, [MM_JM_IRQ_ACTIVE] = 7,		\
	[MM_JM_JS0_ACTIVE] = 10, [MM_JM_JS1_ACTIVE] = 18,		\
	[MM_JM_JS0_JOBS] = 8, [MM_JM_JS1_JOBS] = 16,			\
	[MM_JM_JS2_JOBS] = 24, [MM_JM_JS2_ACTIVE] = 26,		\
	[MM_JM_JS0_TASKS] = 9, [MM_JM_JS1_TASKS] = 17,		\
	[MM_JM_JS2_TASKS] = 25,					\
	[MM_TI_ACTIVE] = (tiler_active), [MM_TI_TRIANGLES] = 4,	\
	[MM_L2_LOOKUP] = 33, [MM_L2_WRITE_LOOKUP] = 39,		\
	[MM_L2_EXT_READ_BEATS] = 31, [MM_L2_EXT_WRITE_BEATS] = 30,	\
	[MM_SC_FRAG_ACTIVE] = 4, [MM_SC_COMPUTE_ACTIVE] = 22,		\
	[MM_SC_FRAG_THREADS] = 12, [MM_SC_COMPUTE_TASKS] = 23,	\
	[MM_SC_FRAG_QUADS_RAST] = 14

/*
 * JSn_WAIT_READ/ISSUE/DEPEND/FINISH of the Midgard v5 job manager (not the
 * T600's nor the T720's, whose tables have none); Bifrost and Valhall-JM
 * add JSn_WAIT_FLUSH in front of them.
 */
#define MIDGARD_JS_WAIT_INDEX						\
	[MM_JM_JS0_WAIT_READ] = 12, [MM_JM_JS0_WAIT_ISSUE] = 13,	\
	[MM_JM_JS0_WAIT_DEPEND] = 14, [MM_JM_JS0_WAIT_FINISH] = 15,	\
	[MM_JM_JS1_WAIT_READ] = 20, [MM_JM_JS1_WAIT_ISSUE] = 21,	\
	[MM_JM_JS1_WAIT_DEPEND] = 22, [MM_JM_JS1_WAIT_FINISH] = 23,	\
	[MM_JM_JS2_WAIT_READ] = 28, [MM_JM_JS2_WAIT_ISSUE] = 29,	\
	[MM_JM_JS2_WAIT_DEPEND] = 30, [MM_JM_JS2_WAIT_FINISH] = 31
#define BIFROST_JS_WAIT_INDEX						\
	[MM_JM_JS0_WAIT_FLUSH] = 11, [MM_JM_JS1_WAIT_FLUSH] = 19,	\
	[MM_JM_JS2_WAIT_FLUSH] = 27,					\
	[MM_JM_JS0_WAIT_READ] = 12, [MM_JM_JS0_WAIT_ISSUE] = 13,	\
	[MM_JM_JS0_WAIT_DEPEND] = 14, [MM_JM_JS0_WAIT_FINISH] = 15,	\
	[MM_JM_JS1_WAIT_READ] = 20, [MM_JM_JS1_WAIT_ISSUE] = 21,	\
	[MM_JM_JS1_WAIT_DEPEND] = 22, [MM_JM_JS1_WAIT_FINISH] = 23,	\
	[MM_JM_JS2_WAIT_READ] = 28, [MM_JM_JS2_WAIT_ISSUE] = 29,	\
	[MM_JM_JS2_WAIT_DEPEND] = 30, [MM_JM_JS2_WAIT_FINISH] = 31

/* T720, v4 layout: its L2 block only has external bus counters */
#define MIDGARD_T72X_INDEX						\
	[MM_JM_GPU_ACTIVE] = 4, [MM_JM_IRQ_ACTIVE] = 5,		\
	[MM_JM_JS0_ACTIVE] = 8, [MM_JM_JS1_ACTIVE] = 11,		\
	[MM_JM_JS0_JOBS] = 6, [MM_JM_JS1_JOBS] = 9,			\
	[MM_JM_JS2_JOBS] = 12, [MM_JM_JS2_ACTIVE] = 14,		\
	[MM_JM_JS0_TASKS] = 7, [MM_JM_JS1_TASKS] = 10,		\
	[MM_JM_JS2_TASKS] = 13,					\
	[MM_TI_ACTIVE] = 22, [MM_TI_TRIANGLES] = 4,			\
	[MM_L2_EXT_READ_BEATS] = 5, [MM_L2_EXT_WRITE_BEATS] = 4,	\
	[MM_SC_FRAG_ACTIVE] = 4, [MM_SC_COMPUTE_ACTIVE] = 17,		\
	[MM_SC_FRAG_THREADS] = 7, [MM_SC_COMPUTE_TASKS] = 18,		\
	[MM_SC_FRAG_QUADS_RAST] = 9

/* Bifrost and Valhall-JM share these indices */
#define BIFROST_INDEX(exec_instr)					\
	[MM_JM_GPU_ACTIVE] = 6, [MM_JM_IRQ_ACTIVE] = 7,		\
	[MM_JM_JS0_ACTIVE] = 10, [MM_JM_JS1_ACTIVE] = 18,		\
	[MM_JM_JS0_JOBS] = 8, [MM_JM_JS1_JOBS] = 16,			\
	[MM_JM_JS2_JOBS] = 24, [MM_JM_JS2_ACTIVE] = 26,		\
	[MM_JM_JS0_TASKS] = 9, [MM_JM_JS1_TASKS] = 17,		\
	[MM_JM_JS2_TASKS] = 25,					\
	[MM_TI_ACTIVE] = 4, [MM_TI_TRIANGLES] = 6,			\
	[MM_L2_LOOKUP] = 25, [MM_L2_READ_LOOKUP] = 26,		\
	[MM_L2_EXT_READ] = 29, [MM_L2_EXT_READ_BEATS] = 32,		\
	[MM_L2_EXT_WRITE] = 42, [MM_L2_EXT_WRITE_BEATS] = 47,		\
	[MM_SC_FRAG_ACTIVE] = 4, [MM_SC_FRAG_QUADS_RAST] = 11,	\
	[MM_SC_COMPUTE_ACTIVE] = 22, [MM_SC_EXEC_CORE_ACTIVE] = 26,	\
	[MM_SC_EXEC_INSTR_COUNT] = (exec_instr)

/* L2_FEATURES: 64 B lines, 4-way (log2 2), 256 KiB (log2 18), bus log2 */
#define L2_FEATURES(bus_log2)	(((bus_log2) << 24) | (18 << 16) | (2 << 8) | 6)

/*
 * The feature registers panfrost and kbase read at probe and hand to
 * userspace (GET_PARAM), per family. Where each value comes from:
 * - CORE_FEATURES 0, TILER_FEATURES 0x809 (512-byte bins, 8 hierarchy
 *   levels), AS_PRESENT 0xff and JS_PRESENT 0x7: public panfrost boot logs
 *   ("features: l2 ... core 0x0 tiler 0x809 mem 0x1 mmu 0x2830 as 0xff js
 *   0x7") of an RK3399 Mali-T860 and an Amlogic Mali-G52.
 * - THREAD_MAX_THREADS: the per-core thread limits Mesa's panfrost driver
 *   uses per architecture (Midgard 256; Bifrost v6 384, v7 768, of which the
 *   G31 512; Valhall 1024); Midgard's is also kbase's documented default
 *   for the register when it reads 0 (THREAD_MT_DEFAULT 256).
 * - THREAD_MAX_WORKGROUP_SIZE and THREAD_MAX_BARRIER_SIZE: Midgard 256
 *   (kbase's documented defaults THREAD_MWS/MBS_DEFAULT); Bifrost 384 (the
 *   value of the emulated-GPU prototype in the project's notes), Valhall
 *   512 (the same, scaled with the thread count; no public measurement).
 * - THREAD_FEATURES: [15:0] registers per core, [23:16] task queue depth,
 *   [29:24] thread group split (kbase's layout for job-manager GPUs). Queue
 *   4 and split 10 are kbase's defaults (THREAD_MTQ/MTGS_DEFAULT); the
 *   register count is what makes Mesa's thread count formula (registers /
 *   registers per thread) give the limits above: Midgard 1024 (kbase's
 *   THREAD_MR_DEFAULT; 256 threads of 4 vec4 registers), Bifrost 0x6000
 *   (768 x 32, 384 x 64), G31 0x4000 (512 x 32), Valhall 0x8000 (1024 x 32).
 * - TEXTURE_FEATURES_0: bit per compressed format, ETC2 (bits 1-4, 17-19)
 *   and ASTC (20-23), what Mesa assumes every Mali has when the kernel does
 *   not say ("factory default for Juno"); _1 and _2: the prototype's values.
 *   Midgard and Bifrost have three of these registers, Valhall four (kbase
 *   BASE_GPU_NUM_TEXTURE_FEATURES_REGISTERS); _3 of Valhall: all of its
 *   low formats (0xffff, the prototype's value of _1; not measured).
 * - JS_FEATURES (kbase's bits: 1 NULL job, 2 SET_VALUE, 3 CACHE_FLUSH,
 *   4 COMPUTE, 5 VERTEX, 6 GEOMETRY, 7 TILER, 8 FUSED, 9 FRAGMENT): slot 0
 *   fragment 0x20e, slot 1 vertex/tiler/compute 0x1fe, slot 2 compute only
 *   0x7e, the slot roles panfrost and kbase assign.
 * - COHERENCY_FEATURES: the register exists from Bifrost on (panfrost's
 *   HW_FEATURE_COHERENCY_REG) and reads 0 before; Bifrost and Valhall
 *   report ACE-Lite (bit 0), except the G71: it reads ACE alone (bit 1),
 *   kbase's "incorrectly documented for tMIx" value, and takes ACE-Lite
 *   only once JM_CONFIG forces the protocols (kbase's and panfrost's G71
 *   quirk; @coherency_forced).
 * - STACK_PRESENT: core stacks exist from Bifrost on; the model gives each
 *   shader core its own (the prototype's STACK_PRESENT = SHADER_PRESENT).
 */
#define MM_TILER_FEATURES	0x809
#define MM_THREAD_FEATURES(regs)	((10 << 24) | (4 << 16) | (regs))
#define MM_TEXTURE_FEATURES_0	0x00fe001e
#define MM_JS_FEATURES		{ 0x20e, 0x1fe, 0x7e }

static const struct mali_model_ids mm_ids_midgard = {
	0, MM_TILER_FEATURES, 256, 256, 256, MM_THREAD_FEATURES(0x400),
	{ MM_TEXTURE_FEATURES_0, 0xffff, 0x9f81ffff, 0 }, MM_JS_FEATURES, 0, false, false,
};

static const struct mali_model_ids mm_ids_bifrost_gen1 = {
	0, MM_TILER_FEATURES, 384, 384, 384, MM_THREAD_FEATURES(0x6000),
	{ MM_TEXTURE_FEATURES_0, 0xffff, 0x9f81ffff, 0 }, MM_JS_FEATURES, 0x1, true, false,
};

static const struct mali_model_ids mm_ids_bifrost_g71 = {
	0, MM_TILER_FEATURES, 384, 384, 384, MM_THREAD_FEATURES(0x6000),
	{ MM_TEXTURE_FEATURES_0, 0xffff, 0x9f81ffff, 0 }, MM_JS_FEATURES, 0x2, true, true,
};

static const struct mali_model_ids mm_ids_bifrost_gen2 = {
	0, MM_TILER_FEATURES, 768, 384, 384, MM_THREAD_FEATURES(0x6000),
	{ MM_TEXTURE_FEATURES_0, 0xffff, 0x9f81ffff, 0 }, MM_JS_FEATURES, 0x1, true, false,
};

static const struct mali_model_ids mm_ids_bifrost_g31 = {
	0, MM_TILER_FEATURES, 512, 384, 384, MM_THREAD_FEATURES(0x4000),
	{ MM_TEXTURE_FEATURES_0, 0xffff, 0x9f81ffff, 0 }, MM_JS_FEATURES, 0x1, true, false,
};

static const struct mali_model_ids mm_ids_valhall_jm = {
	0, MM_TILER_FEATURES, 1024, 512, 512, MM_THREAD_FEATURES(0x8000),
	{ MM_TEXTURE_FEATURES_0, 0xffff, 0x9f81ffff, 0xffff }, MM_JS_FEATURES, 0x1, true, false,
};

/*
 * Columns: name, GPU_ID, SHADER_PRESENT, L2_PRESENT, L2 slices, v4 layout,
 * AS_TRANSCFG, MHz, L2_FEATURES, MMU_FEATURES VA and PA bits, the other
 * feature registers, indices.
 *
 * MMU_FEATURES from public panfrost boot logs: G31 0x2821 and G52 0x2823
 * (33/35 VA bits, 40 PA bits: Rockchip RK356x, MediaTek); 0x2830 (48/40)
 * is what Midgard parts and the other integrations commonly report (an
 * Amlogic G52 also says 0x2830: the sim_va_bits parameter selects that).
 */
static const struct mali_model_product mali_model_product_table[] = {
	/* T600 r0p0 status 1 ("15dev0"): the revision with PRLAM-8186 */
	{ "t600", 0x69560001, 0xf, 0x1, 1, true, false, 533, L2_FEATURES(0), 48, 40,
	  &mm_ids_midgard, { MIDGARD_V5_INDEX(45) } },
	{ "t720", 0x07201000, 0x3, 0x1, 1, true, false, 600, L2_FEATURES(0), 48, 40,
	  &mm_ids_midgard, { MIDGARD_T72X_INDEX } },
	{ "t760", 0x07500010, 0xf, 0x1, 1, false, false, 600, L2_FEATURES(0), 48, 40,
	  &mm_ids_midgard, { MIDGARD_V5_INDEX(45), MIDGARD_JS_WAIT_INDEX } },
	{ "t820", 0x08201010, 0x7, 0x1, 1, false, false, 650, L2_FEATURES(0), 48, 40,
	  &mm_ids_midgard, { MIDGARD_V5_INDEX(22), MIDGARD_JS_WAIT_INDEX } },
	{ "t830", 0x08301000, 0x3, 0x1, 1, false, false, 650, L2_FEATURES(0), 48, 40,
	  &mm_ids_midgard, { MIDGARD_V5_INDEX(22), MIDGARD_JS_WAIT_INDEX } },
	{ "t860", 0x08602000, 0xf, 0x1, 1, false, false, 800, L2_FEATURES(0), 48, 40,
	  &mm_ids_midgard, { MIDGARD_V5_INDEX(45), MIDGARD_JS_WAIT_INDEX } },
	{ "t880", 0x08802000, 0xff, 0x1, 1, false, false, 850, L2_FEATURES(0), 48, 40,
	  &mm_ids_midgard, { MIDGARD_V5_INDEX(45), MIDGARD_JS_WAIT_INDEX } },
	{ "g71", 0x60002000, 0xff, 0x1, 2, false, true, 850, L2_FEATURES(7), 48, 40,
	  &mm_ids_bifrost_g71, { BIFROST_INDEX(28), BIFROST_JS_WAIT_INDEX } },
	{ "g72", 0x62210030, 0x7, 0x1, 1, false, true, 800, L2_FEATURES(7), 48, 40,
	  &mm_ids_bifrost_gen1, { BIFROST_INDEX(28), BIFROST_JS_WAIT_INDEX } },
	{ "g51", 0x70901000, 0x7, 0x1, 1, false, true, 650, L2_FEATURES(7), 48, 40,
	  &mm_ids_bifrost_gen2, { BIFROST_INDEX(28), BIFROST_JS_WAIT_INDEX } },
	{ "g76", 0x72110000, 0xf, 0x1, 2, false, true, 800, L2_FEATURES(7), 48, 40,
	  &mm_ids_bifrost_gen2, { BIFROST_INDEX(28), BIFROST_JS_WAIT_INDEX } },
	{ "g52", 0x72120000, 0x3, 0x1, 1, false, true, 800, L2_FEATURES(7), 35, 40,
	  &mm_ids_bifrost_gen2, { BIFROST_INDEX(28), BIFROST_JS_WAIT_INDEX } },
	{ "g31", 0x70930000, 0x3, 0x1, 1, false, true, 650, L2_FEATURES(7), 33, 40,
	  &mm_ids_bifrost_g31, { BIFROST_INDEX(28), BIFROST_JS_WAIT_INDEX } },
	/* MediaTek MT8192's Mali-G57 MC5 */
	{ "g57", 0x90930000, 0x1f, 0x1, 1, false, true, 950, L2_FEATURES(7), 48, 40,
	  &mm_ids_valhall_jm, { BIFROST_INDEX(0), BIFROST_JS_WAIT_INDEX } },
};

/**
 * mali_model_product_find() - look a modelled product up by name
 * @name: e.g. "g52".
 *
 * Return: the product, or NULL.
 */
const struct mali_model_product *mali_model_product_find(const char *name)
{
	unsigned int i;

	for (i = 0; i < MM_ARRAY_SIZE(mali_model_product_table); i++)
		if (!strcmp(name, mali_model_product_table[i].name))
			return &mali_model_product_table[i];
	return NULL;
}

/* x * pct / 100 without overflow for any realistic x */
static uint64_t pct(uint64_t x, uint32_t percent)
{
	return mali_model_div64(x * percent, 100);
}

static void add(uint64_t *block, const struct mali_model_product *p,
		enum mali_model_role role, uint64_t amount)
{
	uint8_t idx = p->index[role];

	if (idx)
		block[idx] += amount;
}

/**
 * mali_model_workload_step() - add one time step of activity to the counters
 * @in: elapsed cycles, load and power state.
 * @acc: counters, one row per unit (see MM_UNIT_*).
 */
void mali_model_workload_step(const struct mali_model_step *in,
			      struct mali_model_row *acc)
{
	const struct mali_model_product *p = in->prod;
	uint64_t active = pct(in->cycles, in->load_pct);
	uint64_t *jm = acc[MM_UNIT_JM].c;
	uint64_t *ti = acc[MM_UNIT_TILER].c;
	unsigned int i, core, k = 0;

	/* Slots running chains: the job manager is busy all the while */
	add(jm, p, MM_JM_GPU_ACTIVE, active > in->job_cycles ? active : in->job_cycles);
	add(jm, p, MM_JM_JS0_ACTIVE, in->js_cycles[0]);
	add(jm, p, MM_JM_JS1_ACTIVE, in->js_cycles[1]);
	add(jm, p, MM_JM_JS2_ACTIVE, in->js_cycles[2]);
	if (!active)
		return;

	add(jm, p, MM_JM_IRQ_ACTIVE, active / 50);
	add(jm, p, MM_JM_JS0_ACTIVE, pct(active, 60));
	add(jm, p, MM_JM_JS1_ACTIVE, pct(active, 30));
	add(jm, p, MM_JM_JS0_JOBS, active >> 16);
	add(jm, p, MM_JM_JS1_JOBS, active >> 17);

	if (in->tiler_powered) {
		add(ti, p, MM_TI_ACTIVE, pct(active, 45));
		add(ti, p, MM_TI_TRIANGLES, active / 20);
	}

	if (in->l2_powered) {
		uint64_t lookups = mali_model_div64(pct(active, 40), in->nr_l2);
		uint64_t rd_beats = pct(lookups, 25), wr_beats = pct(lookups, 10);

		for (i = 0; i < in->nr_l2; i++) {
			uint64_t *l2 = acc[MM_UNIT_L2(i)].c;

			add(l2, p, MM_L2_LOOKUP, lookups);
			add(l2, p, MM_L2_READ_LOOKUP, pct(lookups, 70));
			add(l2, p, MM_L2_WRITE_LOOKUP, pct(lookups, 30));
			add(l2, p, MM_L2_EXT_READ_BEATS, rd_beats);
			add(l2, p, MM_L2_EXT_READ, rd_beats / 4);
			add(l2, p, MM_L2_EXT_WRITE_BEATS, wr_beats);
			add(l2, p, MM_L2_EXT_WRITE, wr_beats / 4);
		}
	}

	/* Cores share the work unevenly: each one is a little less busy */
	for (core = 0; core < MM_MAX_CORES; core++) {
		uint64_t *sc = acc[MM_UNIT_CORE(in->nr_l2, core)].c;
		uint64_t busy, quads;

		if (!(in->shader_powered & (1ULL << core)))
			continue;
		busy = pct(active, 100 - 4 * (k++ % 8));
		quads = busy / 8;

		add(sc, p, MM_SC_FRAG_ACTIVE, pct(busy, 70));
		add(sc, p, MM_SC_COMPUTE_ACTIVE, pct(busy, 20));
		add(sc, p, MM_SC_EXEC_CORE_ACTIVE, pct(busy, 85));
		add(sc, p, MM_SC_FRAG_QUADS_RAST, quads);
		add(sc, p, MM_SC_FRAG_THREADS, quads * 4);
		add(sc, p, MM_SC_COMPUTE_TASKS, busy >> 12);
		add(sc, p, MM_SC_EXEC_INSTR_COUNT, pct(busy, 150));
	}
}

/* Cycles of @cycles each of the @n cores gets, the first ones a little more */
static uint64_t share(uint64_t cycles, unsigned int n, unsigned int k)
{
	uint64_t each = mali_model_div64(cycles, n);

	return each + (k < cycles - each * n ? 1 : 0);
}

/**
 * mali_model_job_step() - count one job the job manager completed
 * @job: what it was and did.
 * @acc: counters, one row per unit (see MM_UNIT_*).
 *
 * The proportions (Documentation/design.rst, "Job model"): the slot's
 * JSn_JOBS counts the job and JSn_TASKS its tasks (tiles, workgroups or
 * primitives); a fragment job keeps the cores it ran on busy with
 * fragment work for its cycles, split evenly, rasterising 64 quads (256
 * threads) per tile; a compute or vertex job keeps them busy with compute
 * work, one task a workgroup; a tiler job keeps the tiler busy for its
 * cycles, counting its primitives as triangles; an IDVS job does both.
 * Cores run instructions for 85 % of the cycles they are busy.
 */
void mali_model_job_step(const struct mali_model_job *job,
			 struct mali_model_row *acc)
{
	static const enum mali_model_role jobs[3] = {
		MM_JM_JS0_JOBS, MM_JM_JS1_JOBS, MM_JM_JS2_JOBS,
	};
	static const enum mali_model_role tasks[3] = {
		MM_JM_JS0_TASKS, MM_JM_JS1_TASKS, MM_JM_JS2_TASKS,
	};
	/* FLUSH, READ, ISSUE, DEPEND, FINISH */
	static const enum mali_model_role waits[3][5] = {
		{ MM_JM_JS0_WAIT_FLUSH, MM_JM_JS0_WAIT_READ, MM_JM_JS0_WAIT_ISSUE,
		  MM_JM_JS0_WAIT_DEPEND, MM_JM_JS0_WAIT_FINISH },
		{ MM_JM_JS1_WAIT_FLUSH, MM_JM_JS1_WAIT_READ, MM_JM_JS1_WAIT_ISSUE,
		  MM_JM_JS1_WAIT_DEPEND, MM_JM_JS1_WAIT_FINISH },
		{ MM_JM_JS2_WAIT_FLUSH, MM_JM_JS2_WAIT_READ, MM_JM_JS2_WAIT_ISSUE,
		  MM_JM_JS2_WAIT_DEPEND, MM_JM_JS2_WAIT_FINISH },
	};
	const struct mali_model_product *p = job->prod;
	uint64_t *jm = acc[MM_UNIT_JM].c;
	uint64_t *ti = acc[MM_UNIT_TILER].c;
	unsigned int n = 0, k = 0, core;

	if (job->js < 3) {
		uint64_t work = job->cycles - job->read_cycles, rounds, finish;

		add(jm, p, jobs[job->js], 1);
		add(jm, p, tasks[job->js], job->tasks);
		/*
		 * The job's cycles, split: reading its header and descriptors
		 * (WAIT_READ), issuing its tasks while every core has one
		 * (WAIT_ISSUE), and the last round of tasks, all issued
		 * (WAIT_FINISH). The three add up to its JSn_ACTIVE.
		 */
		for (core = 0; job->kind != MM_JOB_TILER && core < MM_MAX_CORES; core++)
			n += !!(job->cores & (1ULL << core));
		rounds = job->tasks ? mali_model_div64(job->tasks + (n ? n : 1) - 1, n ? n : 1) : 1;
		finish = mali_model_div64(work, rounds);
		add(jm, p, waits[job->js][1], job->read_cycles);
		add(jm, p, waits[job->js][2], work - finish);
		add(jm, p, waits[job->js][4], finish);
		n = 0;
	}
	if (job->kind == MM_JOB_TILER || job->kind == MM_JOB_IDVS) {
		add(ti, p, MM_TI_ACTIVE, job->cycles);
		add(ti, p, MM_TI_TRIANGLES, job->tasks);
	}
	if (job->kind != MM_JOB_FRAGMENT && job->kind != MM_JOB_COMPUTE &&
	    job->kind != MM_JOB_IDVS)
		return;
	for (core = 0; core < MM_MAX_CORES; core++)
		n += !!(job->cores & (1ULL << core));
	if (!n)
		return;
	for (core = 0; core < MM_MAX_CORES; core++) {
		uint64_t *sc = acc[MM_UNIT_CORE(job->nr_l2, core)].c;
		uint64_t busy;

		if (!(job->cores & (1ULL << core)))
			continue;
		busy = share(job->cycles, n, k);
		if (job->kind == MM_JOB_FRAGMENT) {
			uint64_t quads = share(job->tasks * 64, n, k);

			add(sc, p, MM_SC_FRAG_ACTIVE, busy);
			add(sc, p, MM_SC_FRAG_QUADS_RAST, quads);
			add(sc, p, MM_SC_FRAG_THREADS, quads * 4);
		} else {
			add(sc, p, MM_SC_COMPUTE_ACTIVE, busy);
			add(sc, p, MM_SC_COMPUTE_TASKS, share(job->tasks, n, k));
		}
		add(sc, p, MM_SC_EXEC_CORE_ACTIVE, pct(busy, 85));
		k++;
	}
}

/**
 * mali_model_products() - the names mali_model_product_find() knows
 *
 * Return: the names, space-separated, in table order.
 */
const char *mali_model_products(void)
{
	return "t600 t720 t760 t820 t830 t860 t880 g71 g72 g51 g76 g52 g31 g57";
}
