/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The simulated Mali GPU: internal interfaces between its register file
 * (mpc_sim.c) and its product table and workload model (mpc_sim_model.c).
 */
#ifndef MPC_SIM_H
#define MPC_SIM_H

#include <linux/types.h>

/* Counter roles the workload model drives, per block type. */
enum mpc_sim_role {
	/* Job manager */
	SIM_JM_GPU_ACTIVE,
	SIM_JM_IRQ_ACTIVE,
	SIM_JM_JS0_ACTIVE,
	SIM_JM_JS1_ACTIVE,
	SIM_JM_JS0_JOBS,
	SIM_JM_JS1_JOBS,
	/* Tiler */
	SIM_TI_ACTIVE,
	SIM_TI_TRIANGLES,
	/* L2 / memory system, per slice */
	SIM_L2_LOOKUP,
	SIM_L2_READ_LOOKUP,
	SIM_L2_WRITE_LOOKUP,
	SIM_L2_EXT_READ,
	SIM_L2_EXT_READ_BEATS,
	SIM_L2_EXT_WRITE,
	SIM_L2_EXT_WRITE_BEATS,
	/* Shader core, per core */
	SIM_SC_FRAG_ACTIVE,
	SIM_SC_COMPUTE_ACTIVE,
	SIM_SC_EXEC_CORE_ACTIVE,
	SIM_SC_FRAG_QUADS_RAST,
	SIM_SC_FRAG_THREADS,
	SIM_SC_COMPUTE_TASKS,
	SIM_SC_EXEC_INSTR_COUNT,
	SIM_NR_ROLES,
};

/**
 * struct mpc_sim_product - a GPU the simulator can be
 * @name: module parameter value, e.g. "g52".
 * @gpu_id: GPU_ID of a real part of this model.
 * @shader_present: default SHADER_PRESENT.
 * @l2_present: L2_PRESENT (v4: one bit per core group).
 * @l2_slices: default L2 slices (v5).
 * @v4: dumps in the v4 core-group layout.
 * @has_transcfg: Bifrost and later: AS_TRANSCFG selects the table format.
 * @mhz: default modelled clock.
 * @l2_features: L2_FEATURES.
 * @index: counter index in its block of each &enum mpc_sim_role, 0 when the
 *	product has no such counter (index 0 is a header word).
 */
struct mpc_sim_product {
	const char *name;
	u32 gpu_id;
	u64 shader_present;
	u64 l2_present;
	u32 l2_slices;
	bool v4;
	bool has_transcfg;
	u32 mhz;
	u32 l2_features;
	u8 index[SIM_NR_ROLES];
};

/* Units the model keeps counters for: JM, tiler, L2 slices, shader cores. */
#define SIM_UNIT_JM		0
#define SIM_UNIT_TILER		1
#define SIM_UNIT_L2(i)		(2 + (i))
#define SIM_MAX_L2		16
#define SIM_UNIT_CORE(nr_l2, c)	(2 + (nr_l2) + (c))

/**
 * struct mpc_sim_model_input - what the model needs for one time step
 * @prod: product.
 * @cycles: GPU clock cycles elapsed.
 * @load_pct: share of cycles the GPU is busy, 0..100.
 * @nr_l2: L2 slices.
 * @shader_powered: shader cores that are powered (and present).
 * @tiler_powered: the tiler is powered.
 * @l2_powered: the L2 is powered.
 */
struct mpc_sim_model_input {
	const struct mpc_sim_product *prod;
	u64 cycles;
	u32 load_pct;
	u32 nr_l2;
	u64 shader_powered;
	bool tiler_powered;
	bool l2_powered;
};

/**
 * struct mpc_sim_row - the 64-bit counters of one unit, by counter index
 * @c: counters; the header indices 0-3 are never used.
 */
struct mpc_sim_row {
	u64 c[64];
};

const struct mpc_sim_product *mpc_sim_product_find(const char *name);
void mpc_sim_model_step(const struct mpc_sim_model_input *in,
			struct mpc_sim_row *acc);

#endif /* MPC_SIM_H */
