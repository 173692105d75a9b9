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
	[MM_TI_ACTIVE] = (tiler_active), [MM_TI_TRIANGLES] = 4,	\
	[MM_L2_LOOKUP] = 33, [MM_L2_WRITE_LOOKUP] = 39,		\
	[MM_L2_EXT_READ_BEATS] = 31, [MM_L2_EXT_WRITE_BEATS] = 30,	\
	[MM_SC_FRAG_ACTIVE] = 4, [MM_SC_COMPUTE_ACTIVE] = 22,		\
	[MM_SC_FRAG_THREADS] = 12, [MM_SC_COMPUTE_TASKS] = 23,	\
	[MM_SC_FRAG_QUADS_RAST] = 14

/* T720, v4 layout: its L2 block only has external bus counters */
#define MIDGARD_T72X_INDEX						\
	[MM_JM_GPU_ACTIVE] = 4, [MM_JM_IRQ_ACTIVE] = 5,		\
	[MM_JM_JS0_ACTIVE] = 8, [MM_JM_JS1_ACTIVE] = 11,		\
	[MM_JM_JS0_JOBS] = 6, [MM_JM_JS1_JOBS] = 9,			\
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
 * Columns: name, GPU_ID, SHADER_PRESENT, L2_PRESENT, L2 slices, v4 layout,
 * AS_TRANSCFG, MHz, L2_FEATURES, MMU_FEATURES VA and PA bits, indices.
 *
 * MMU_FEATURES from public panfrost boot logs: G31 0x2821 and G52 0x2823
 * (33/35 VA bits, 40 PA bits: Rockchip RK356x, MediaTek); 0x2830 (48/40)
 * is what Midgard parts and the other integrations commonly report (an
 * Amlogic G52 also says 0x2830: the sim_va_bits parameter selects that).
 */
static const struct mali_model_product mali_model_product_table[] = {
	/* T600 r0p0 status 1 ("15dev0"): the revision with PRLAM-8186 */
	{ "t600", 0x69560001, 0xf, 0x1, 1, true, false, 533, L2_FEATURES(0), 48, 40,
	  { MIDGARD_V5_INDEX(45) } },
	{ "t720", 0x07201000, 0x3, 0x1, 1, true, false, 600, L2_FEATURES(0), 48, 40,
	  { MIDGARD_T72X_INDEX } },
	{ "t760", 0x07500010, 0xf, 0x1, 1, false, false, 600, L2_FEATURES(0), 48, 40,
	  { MIDGARD_V5_INDEX(45) } },
	{ "t820", 0x08201010, 0x7, 0x1, 1, false, false, 650, L2_FEATURES(0), 48, 40,
	  { MIDGARD_V5_INDEX(22) } },
	{ "t830", 0x08301000, 0x3, 0x1, 1, false, false, 650, L2_FEATURES(0), 48, 40,
	  { MIDGARD_V5_INDEX(22) } },
	{ "t860", 0x08602000, 0xf, 0x1, 1, false, false, 800, L2_FEATURES(0), 48, 40,
	  { MIDGARD_V5_INDEX(45) } },
	{ "t880", 0x08802000, 0xff, 0x1, 1, false, false, 850, L2_FEATURES(0), 48, 40,
	  { MIDGARD_V5_INDEX(45) } },
	{ "g71", 0x60002000, 0xff, 0x1, 2, false, true, 850, L2_FEATURES(7), 48, 40,
	  { BIFROST_INDEX(28) } },
	{ "g72", 0x62210030, 0x7, 0x1, 1, false, true, 800, L2_FEATURES(7), 48, 40,
	  { BIFROST_INDEX(28) } },
	{ "g51", 0x70901000, 0x7, 0x1, 1, false, true, 650, L2_FEATURES(7), 48, 40,
	  { BIFROST_INDEX(28) } },
	{ "g76", 0x72110000, 0xf, 0x1, 2, false, true, 800, L2_FEATURES(7), 48, 40,
	  { BIFROST_INDEX(28) } },
	{ "g52", 0x72120000, 0x3, 0x1, 1, false, true, 800, L2_FEATURES(7), 35, 40,
	  { BIFROST_INDEX(28) } },
	{ "g31", 0x70930000, 0x3, 0x1, 1, false, true, 650, L2_FEATURES(7), 33, 40,
	  { BIFROST_INDEX(28) } },
	/* MediaTek MT8192's Mali-G57 MC5 */
	{ "g57", 0x90930000, 0x1f, 0x1, 1, false, true, 950, L2_FEATURES(7), 48, 40,
	  { BIFROST_INDEX(0) } },
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

	if (!active)
		return;

	add(jm, p, MM_JM_GPU_ACTIVE, active);
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

/**
 * mali_model_products() - the names mali_model_product_find() knows
 *
 * Return: the names, space-separated, in table order.
 */
const char *mali_model_products(void)
{
	return "t600 t720 t760 t820 t830 t860 t880 g71 g72 g51 g76 g52 g31 g57";
}
