// SPDX-License-Identifier: GPL-2.0-only
/*
 * The simulated Mali GPU: its products and its workload model.
 *
 * GPU_ID values are those of shipping parts. Counter indices are each
 * product's real ones (from the public counter layouts), so that a decoder
 * that names counters by index decodes the simulator correctly.
 *
 * The workload model turns elapsed cycles and a load percentage into counts
 * that keep the relations real hardware has: per-core and tiler activity
 * never exceed GPU_ACTIVE, L2 external beats never exceed L2 lookups.
 */
#include <linux/bitops.h>
#include <linux/kernel.h>
#include <linux/math64.h>
#include <linux/string.h>

#include "mpc_sim.h"

/* Midgard T76x, T86x, T88x (the T600 has the same job manager and cores) */
#define MIDGARD_V5_INDEX(tiler_active)					\
	[SIM_JM_GPU_ACTIVE] = 6, [SIM_JM_IRQ_ACTIVE] = 7,		\
	[SIM_JM_JS0_ACTIVE] = 10, [SIM_JM_JS1_ACTIVE] = 18,		\
	[SIM_JM_JS0_JOBS] = 8, [SIM_JM_JS1_JOBS] = 16,			\
	[SIM_TI_ACTIVE] = (tiler_active), [SIM_TI_TRIANGLES] = 4,	\
	[SIM_L2_LOOKUP] = 33, [SIM_L2_WRITE_LOOKUP] = 39,		\
	[SIM_L2_EXT_READ_BEATS] = 31, [SIM_L2_EXT_WRITE_BEATS] = 30,	\
	[SIM_SC_FRAG_ACTIVE] = 4, [SIM_SC_COMPUTE_ACTIVE] = 22,		\
	[SIM_SC_FRAG_THREADS] = 12, [SIM_SC_COMPUTE_TASKS] = 23,	\
	[SIM_SC_FRAG_QUADS_RAST] = 14

/* T720, v4 layout: its L2 block only has external bus counters */
#define MIDGARD_T72X_INDEX						\
	[SIM_JM_GPU_ACTIVE] = 4, [SIM_JM_IRQ_ACTIVE] = 5,		\
	[SIM_JM_JS0_ACTIVE] = 8, [SIM_JM_JS1_ACTIVE] = 11,		\
	[SIM_JM_JS0_JOBS] = 6, [SIM_JM_JS1_JOBS] = 9,			\
	[SIM_TI_ACTIVE] = 22, [SIM_TI_TRIANGLES] = 4,			\
	[SIM_L2_EXT_READ_BEATS] = 5, [SIM_L2_EXT_WRITE_BEATS] = 4,	\
	[SIM_SC_FRAG_ACTIVE] = 4, [SIM_SC_COMPUTE_ACTIVE] = 17,		\
	[SIM_SC_FRAG_THREADS] = 7, [SIM_SC_COMPUTE_TASKS] = 18,		\
	[SIM_SC_FRAG_QUADS_RAST] = 9

/* Bifrost and Valhall-JM share these indices */
#define BIFROST_INDEX(exec_instr)					\
	[SIM_JM_GPU_ACTIVE] = 6, [SIM_JM_IRQ_ACTIVE] = 7,		\
	[SIM_JM_JS0_ACTIVE] = 10, [SIM_JM_JS1_ACTIVE] = 18,		\
	[SIM_JM_JS0_JOBS] = 8, [SIM_JM_JS1_JOBS] = 16,			\
	[SIM_TI_ACTIVE] = 4, [SIM_TI_TRIANGLES] = 6,			\
	[SIM_L2_LOOKUP] = 25, [SIM_L2_READ_LOOKUP] = 26,		\
	[SIM_L2_EXT_READ] = 29, [SIM_L2_EXT_READ_BEATS] = 32,		\
	[SIM_L2_EXT_WRITE] = 42, [SIM_L2_EXT_WRITE_BEATS] = 47,		\
	[SIM_SC_FRAG_ACTIVE] = 4, [SIM_SC_FRAG_QUADS_RAST] = 11,	\
	[SIM_SC_COMPUTE_ACTIVE] = 22, [SIM_SC_EXEC_CORE_ACTIVE] = 26,	\
	[SIM_SC_EXEC_INSTR_COUNT] = (exec_instr)

/* L2_FEATURES: 64 B lines, 4-way (log2 2), 256 KiB (log2 18), bus log2 */
#define L2_FEATURES(bus_log2)	(((bus_log2) << 24) | (18 << 16) | (2 << 8) | 6)

static const struct mpc_sim_product mpc_sim_products[] = {
	/* T600 r0p0 status 1 ("15dev0"): the revision with PRLAM-8186 */
	{ "t600", 0x69560001, 0xf, 0x1, 1, true, false, 533, L2_FEATURES(0),
	  { MIDGARD_V5_INDEX(45) } },
	{ "t720", 0x07201000, 0x3, 0x1, 1, true, false, 600, L2_FEATURES(0),
	  { MIDGARD_T72X_INDEX } },
	{ "t760", 0x07500010, 0xf, 0x1, 1, false, false, 600, L2_FEATURES(0),
	  { MIDGARD_V5_INDEX(45) } },
	{ "t820", 0x08201010, 0x7, 0x1, 1, false, false, 650, L2_FEATURES(0),
	  { MIDGARD_V5_INDEX(22) } },
	{ "t830", 0x08301000, 0x3, 0x1, 1, false, false, 650, L2_FEATURES(0),
	  { MIDGARD_V5_INDEX(22) } },
	{ "t860", 0x08602000, 0xf, 0x1, 1, false, false, 800, L2_FEATURES(0),
	  { MIDGARD_V5_INDEX(45) } },
	{ "t880", 0x08802000, 0xff, 0x1, 1, false, false, 850, L2_FEATURES(0),
	  { MIDGARD_V5_INDEX(45) } },
	{ "g71", 0x60002000, 0xff, 0x1, 2, false, true, 850, L2_FEATURES(7),
	  { BIFROST_INDEX(28) } },
	{ "g72", 0x62210030, 0x7, 0x1, 1, false, true, 800, L2_FEATURES(7),
	  { BIFROST_INDEX(28) } },
	{ "g51", 0x70901000, 0x7, 0x1, 1, false, true, 650, L2_FEATURES(7),
	  { BIFROST_INDEX(28) } },
	{ "g76", 0x72110000, 0xf, 0x1, 2, false, true, 800, L2_FEATURES(7),
	  { BIFROST_INDEX(28) } },
	{ "g52", 0x72120000, 0x3, 0x1, 1, false, true, 800, L2_FEATURES(7),
	  { BIFROST_INDEX(28) } },
	{ "g31", 0x70930000, 0x3, 0x1, 1, false, true, 650, L2_FEATURES(7),
	  { BIFROST_INDEX(28) } },
	/* MediaTek MT8192's Mali-G57 MC5 */
	{ "g57", 0x90930000, 0x1f, 0x1, 1, false, true, 950, L2_FEATURES(7),
	  { BIFROST_INDEX(0) } },
};

/**
 * mpc_sim_product_find() - look a simulated product up by name
 * @name: e.g. "g52".
 *
 * Return: the product, or NULL.
 */
const struct mpc_sim_product *mpc_sim_product_find(const char *name)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(mpc_sim_products); i++)
		if (sysfs_streq(name, mpc_sim_products[i].name))
			return &mpc_sim_products[i];
	return NULL;
}

/* x * pct / 100 without overflow for any realistic x */
static u64 pct(u64 x, u32 percent)
{
	return div_u64(x * percent, 100);
}

static void add(u64 *block, const struct mpc_sim_product *p,
		enum mpc_sim_role role, u64 amount)
{
	u8 idx = p->index[role];

	if (idx)
		block[idx] += amount;
}

/**
 * mpc_sim_model_step() - add one time step of activity to the counters
 * @in: elapsed cycles, load and power state.
 * @acc: counters, one row per unit (see SIM_UNIT_*).
 */
void mpc_sim_model_step(const struct mpc_sim_model_input *in,
			struct mpc_sim_row *acc)
{
	const struct mpc_sim_product *p = in->prod;
	u64 active = pct(in->cycles, in->load_pct);
	u64 *jm = acc[SIM_UNIT_JM].c;
	u64 *ti = acc[SIM_UNIT_TILER].c;
	unsigned int i, core, k = 0;

	if (!active)
		return;

	add(jm, p, SIM_JM_GPU_ACTIVE, active);
	add(jm, p, SIM_JM_IRQ_ACTIVE, active / 50);
	add(jm, p, SIM_JM_JS0_ACTIVE, pct(active, 60));
	add(jm, p, SIM_JM_JS1_ACTIVE, pct(active, 30));
	add(jm, p, SIM_JM_JS0_JOBS, active >> 16);
	add(jm, p, SIM_JM_JS1_JOBS, active >> 17);

	if (in->tiler_powered) {
		add(ti, p, SIM_TI_ACTIVE, pct(active, 45));
		add(ti, p, SIM_TI_TRIANGLES, active / 20);
	}

	if (in->l2_powered) {
		u64 lookups = div_u64(pct(active, 40), in->nr_l2);
		u64 rd_beats = pct(lookups, 25), wr_beats = pct(lookups, 10);

		for (i = 0; i < in->nr_l2; i++) {
			u64 *l2 = acc[SIM_UNIT_L2(i)].c;

			add(l2, p, SIM_L2_LOOKUP, lookups);
			add(l2, p, SIM_L2_READ_LOOKUP, pct(lookups, 70));
			add(l2, p, SIM_L2_WRITE_LOOKUP, pct(lookups, 30));
			add(l2, p, SIM_L2_EXT_READ_BEATS, rd_beats);
			add(l2, p, SIM_L2_EXT_READ, rd_beats / 4);
			add(l2, p, SIM_L2_EXT_WRITE_BEATS, wr_beats);
			add(l2, p, SIM_L2_EXT_WRITE, wr_beats / 4);
		}
	}

	/* Cores share the work unevenly: each one is a little less busy */
	for (core = 0; core < 64; core++) {
		u64 *sc = acc[SIM_UNIT_CORE(in->nr_l2, core)].c;
		u64 busy, quads;

		if (!(in->shader_powered & BIT_ULL(core)))
			continue;
		busy = pct(active, 100 - 4 * (k++ % 8));
		quads = busy / 8;

		add(sc, p, SIM_SC_FRAG_ACTIVE, pct(busy, 70));
		add(sc, p, SIM_SC_COMPUTE_ACTIVE, pct(busy, 20));
		add(sc, p, SIM_SC_EXEC_CORE_ACTIVE, pct(busy, 85));
		add(sc, p, SIM_SC_FRAG_QUADS_RAST, quads);
		add(sc, p, SIM_SC_FRAG_THREADS, quads * 4);
		add(sc, p, SIM_SC_COMPUTE_TASKS, busy >> 12);
		add(sc, p, SIM_SC_EXEC_INSTR_COUNT, pct(busy, 150));
	}
}
