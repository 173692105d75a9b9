/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * mali_model internals shared by its register file (mali_model.c) and its
 * product table and workload model (mali_model_products.c).
 */
#ifndef MALI_MODEL_PRODUCTS_H
#define MALI_MODEL_PRODUCTS_H

#include "mali_model_port.h"

/* Counter roles the workload model drives, per block type. */
enum mali_model_role {
	/* Job manager */
	MM_JM_GPU_ACTIVE,
	MM_JM_IRQ_ACTIVE,
	MM_JM_JS0_ACTIVE,
	MM_JM_JS1_ACTIVE,
	MM_JM_JS0_JOBS,
	MM_JM_JS1_JOBS,
	MM_JM_JS2_ACTIVE,
	MM_JM_JS2_JOBS,
	MM_JM_JS0_TASKS,
	MM_JM_JS1_TASKS,
	MM_JM_JS2_TASKS,
	/* JSn_WAIT_FLUSH/READ/ISSUE/DEPEND/FINISH, slot by slot */
	MM_JM_JS0_WAIT_FLUSH,
	MM_JM_JS0_WAIT_READ,
	MM_JM_JS0_WAIT_ISSUE,
	MM_JM_JS0_WAIT_DEPEND,
	MM_JM_JS0_WAIT_FINISH,
	MM_JM_JS1_WAIT_FLUSH,
	MM_JM_JS1_WAIT_READ,
	MM_JM_JS1_WAIT_ISSUE,
	MM_JM_JS1_WAIT_DEPEND,
	MM_JM_JS1_WAIT_FINISH,
	MM_JM_JS2_WAIT_FLUSH,
	MM_JM_JS2_WAIT_READ,
	MM_JM_JS2_WAIT_ISSUE,
	MM_JM_JS2_WAIT_DEPEND,
	MM_JM_JS2_WAIT_FINISH,
	/* Tiler */
	MM_TI_ACTIVE,
	MM_TI_TRIANGLES,
	/* L2 / memory system, per slice */
	MM_L2_LOOKUP,
	MM_L2_READ_LOOKUP,
	MM_L2_WRITE_LOOKUP,
	MM_L2_EXT_READ,
	MM_L2_EXT_READ_BEATS,
	MM_L2_EXT_WRITE,
	MM_L2_EXT_WRITE_BEATS,
	/* Shader core, per core */
	MM_SC_FRAG_ACTIVE,
	MM_SC_COMPUTE_ACTIVE,
	MM_SC_EXEC_CORE_ACTIVE,
	MM_SC_FRAG_QUADS_RAST,
	MM_SC_FRAG_THREADS,
	MM_SC_COMPUTE_TASKS,
	MM_SC_EXEC_INSTR_COUNT,
	MM_NR_ROLES,
};

/**
 * struct mali_model_ids - read-only feature registers of a GPU family
 * @core_features: CORE_FEATURES.
 * @tiler_features: TILER_FEATURES.
 * @thread_max_threads: THREAD_MAX_THREADS.
 * @thread_max_workgroup: THREAD_MAX_WORKGROUP_SIZE.
 * @thread_max_barrier: THREAD_MAX_BARRIER_SIZE.
 * @thread_features: THREAD_FEATURES.
 * @texture_features: TEXTURE_FEATURES_0..3 (0 where the family has fewer).
 * @js_features: JS_FEATURES of job slots 0..2 (JS_PRESENT is 0x7).
 * @coherency_features: COHERENCY_FEATURES.
 * @core_stacks: STACK_PRESENT has one core stack per shader core (Bifrost
 *	on); 0 before.
 * @coherency_forced: @coherency_features misreports what the GPU offers;
 *	the protocols honoured are JM_CONFIG's FORCE_COHERENCY_FEATURES
 *	once that is non-zero (the G71).
 */
struct mali_model_ids {
	uint32_t core_features;
	uint32_t tiler_features;
	uint32_t thread_max_threads;
	uint32_t thread_max_workgroup;
	uint32_t thread_max_barrier;
	uint32_t thread_features;
	uint32_t texture_features[4];
	uint32_t js_features[3];
	uint32_t coherency_features;
	bool core_stacks;
	bool coherency_forced;
};

/**
 * struct mali_model_product - a GPU the model can be
 * @name: e.g. "g52".
 * @gpu_id: GPU_ID of a real part of this model.
 * @shader_present: default SHADER_PRESENT.
 * @l2_present: L2_PRESENT (v4: one bit per core group).
 * @l2_slices: default L2 slices (v5).
 * @v4: dumps in the v4 core-group layout.
 * @has_transcfg: Bifrost and later: AS_TRANSCFG selects the table format.
 * @mhz: default modelled clock.
 * @l2_features: L2_FEATURES.
 * @va_bits: default MMU_FEATURES VA width.
 * @pa_bits: default MMU_FEATURES PA width.
 * @ids: the other feature registers.
 * @index: counter index in its block of each &enum mali_model_role, 0 when
 *	the product has no such counter (index 0 is a header word).
 */
struct mali_model_product {
	const char *name;
	uint32_t gpu_id;
	uint64_t shader_present;
	uint64_t l2_present;
	uint32_t l2_slices;
	bool v4;
	bool has_transcfg;
	uint32_t mhz;
	uint32_t l2_features;
	uint8_t va_bits;
	uint8_t pa_bits;
	const struct mali_model_ids *ids;
	uint8_t index[MM_NR_ROLES];
};

/* Units the model keeps counters for: JM, tiler, L2 slices, shader cores. */
#define MM_UNIT_JM		0
#define MM_UNIT_TILER		1
#define MM_UNIT_L2(i)		(2 + (i))
#define MM_MAX_L2		16
#define MM_MAX_CORES		64
#define MM_UNIT_CORE(nr_l2, c)	(2 + (nr_l2) + (c))
#define MM_MAX_UNITS		(2 + MM_MAX_L2 + MM_MAX_CORES)

/**
 * struct mali_model_step - what the workload model needs for one time step
 * @prod: product.
 * @cycles: GPU clock cycles elapsed.
 * @load_pct: share of cycles the GPU is busy, 0..100.
 * @nr_l2: L2 slices.
 * @shader_powered: shader cores that are powered (and present).
 * @tiler_powered: the tiler is powered.
 * @l2_powered: the L2 is powered.
 * @job_cycles: of @cycles, those in which a job slot ran a chain: GPU_ACTIVE
 *	counts at least these.
 * @js_cycles: of @cycles, those in which each job slot ran a chain.
 */
struct mali_model_step {
	const struct mali_model_product *prod;
	uint64_t cycles;
	uint32_t load_pct;
	uint32_t nr_l2;
	uint64_t shader_powered;
	bool tiler_powered;
	bool l2_powered;
	uint64_t job_cycles;
	uint64_t js_cycles[3];
};

/* What the job manager ran: one job, for the counters it drives */
enum mali_model_job_kind {
	MM_JOB_OTHER,		/* null, write value, cache flush */
	MM_JOB_COMPUTE,		/* compute, vertex, geometry */
	MM_JOB_TILER,
	MM_JOB_IDVS,		/* vertex shading and tiling in one job */
	MM_JOB_FRAGMENT,
};

/**
 * struct mali_model_job - one completed job, for mali_model_job_step()
 * @prod: product.
 * @nr_l2: L2 slices.
 * @js: the slot that ran it.
 * @kind: what it was.
 * @cycles: cycles it took.
 * @tasks: its units of work: tiles (fragment), workgroups (compute),
 *	primitives (tiler, IDVS).
 * @threads: invocations (compute, vertex) or pixels (fragment).
 * @cores: the shader cores it ran on (affinity and powered).
 */
struct mali_model_job {
	const struct mali_model_product *prod;
	uint32_t nr_l2;
	unsigned int js;
	enum mali_model_job_kind kind;
	uint64_t cycles;
	uint64_t tasks;
	uint64_t threads;
	uint64_t cores;
	uint64_t read_cycles;
};

/**
 * struct mali_model_row - the 64-bit counters of one unit, by counter index
 * @c: counters; the header indices 0-3 are never used.
 */
struct mali_model_row {
	uint64_t c[64];
};

const struct mali_model_product *mali_model_product_find(const char *name);
void mali_model_workload_step(const struct mali_model_step *in,
			      struct mali_model_row *acc);
void mali_model_job_step(const struct mali_model_job *job,
			 struct mali_model_row *acc);

#endif /* MALI_MODEL_PRODUCTS_H */
