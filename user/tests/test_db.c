// SPDX-License-Identifier: MIT
/* Database sanity: every GPU, GPU_ID recognition, metric resolution. */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "test.h"

static const char *const all_keys[] = {
	"t600", "t620", "t720", "t760", "t820", "t830", "t860", "t880",
	"g31", "g51", "g52", "g71", "g72", "g76", "g57", "g68", "g77", "g78",
	"g310", "g510", "g610", "g710", "g615", "g715", "g620", "g720", "g625", "g725", "g1", "g2",
};

static void test_builtin_loads(void)
{
	struct mpc_db *db = t_db();
	unsigned n = mpc_db_gpu_count(db);

	for (unsigned i = 0; i < sizeof(all_keys) / sizeof(all_keys[0]); i++) {
		if (!mpc_db_find_gpu(db, all_keys[i])) {
			mpc_db_free(db);
			CHECK(0, "GPU %s missing from the database", all_keys[i]);
		}
	}
	mpc_db_free(db);
	CHECK(n == ARRAY_SIZE(all_keys), "expected %zu GPUs, have %u", ARRAY_SIZE(all_keys), n);
}

static void test_gpu_sanity(void)
{
	struct mpc_db *db = t_db();
	char why[1200] = "";

	for (unsigned g = 0; g < mpc_db_gpu_count(db) && !why[0]; g++) {
		const struct mpc_gpu_def *gpu = mpc_db_gpu(db, g);
		int is_g2 = !strcmp(gpu->key, "g2");
		unsigned per_kind[MPC_BLK_KINDS] = { 0 };

		/* 128-counter blocks from the Mali-G715 on (libGPUCounters' layouts) */
		int big = !strcmp(gpu->key, "g1") || is_g2 || !strcmp(gpu->key, "g715") ||
			  !strcmp(gpu->key, "g615") || !strcmp(gpu->key, "g720") ||
			  !strcmp(gpu->key, "g620") || !strcmp(gpu->key, "g725") ||
			  !strcmp(gpu->key, "g625");

		if (gpu->counters_per_block != (big ? 128u : 64u))
			snprintf(why, sizeof(why), "%s: %u counters per block", gpu->key,
				 gpu->counters_per_block);
		if (gpu->layout != (!strcmp(gpu->key, "t600") || !strcmp(gpu->key, "t620") ||
				    !strcmp(gpu->key, "t720") ? 4u : 5u))
			snprintf(why, sizeof(why), "%s: layout v%u", gpu->key, gpu->layout);
		if (!is_g2 && !gpu->nmatch)
			snprintf(why, sizeof(why), "%s: no GPU_ID match", gpu->key);
		for (unsigned i = 0; i < gpu->ncounters; i++) {
			const struct mpc_counter_def *c = &gpu->counters[i];

			per_kind[c->kind]++;
			if (is_g2 ? c->index != -1 : (c->index < 4 || (unsigned)c->index >= gpu->counters_per_block))
				snprintf(why, sizeof(why), "%s: %s index %d", gpu->key, c->name, c->index);
			for (unsigned j = 0; j < i; j++) {
				const struct mpc_counter_def *o = &gpu->counters[j];

				if (!strcmp(o->name, c->name))
					snprintf(why, sizeof(why), "%s: %s twice", gpu->key, c->name);
				if (o->kind == c->kind && c->index >= 0 && o->index == c->index)
					snprintf(why, sizeof(why), "%s: %s and %s share %s[%d]", gpu->key,
						 o->name, c->name, mpc_block_name(c->kind), c->index);
				if (c->lgc && o->lgc && !strcmp(c->lgc, o->lgc))
					snprintf(why, sizeof(why), "%s: lgc %s twice", gpu->key, c->lgc);
			}
		}
		/* the CSF firmware and CSG blocks have no named counters yet */
		for (unsigned k = 0; k <= MPC_BLK_SHADER; k++)
			if (!per_kind[k])
				snprintf(why, sizeof(why), "%s: no %s counters", gpu->key, mpc_block_name(k));
		if (!mpc_gpu_find_counter(gpu, "GPU_ACTIVE"))
			snprintf(why, sizeof(why), "%s: no GPU_ACTIVE", gpu->key);
	}
	mpc_db_free(db);
	CHECK(!why[0], "%s", why);
}

static void test_gpu_id_recognition(void)
{
	static const struct { uint32_t id; const char *key; } cases[] = {
		{ 0x69560000, "t600" }, { 0x69561010, "t600" }, { 0x06200000, "t620" },
		{ 0x07200000, "t720" }, { 0x07201010, "t720" }, { 0x07500000, "t760" },
		{ 0x07502020, "t760" }, { 0x08200000, "t820" }, { 0x08300000, "t830" },
		{ 0x08600000, "t860" }, { 0x08602000, "t860" }, { 0x08800000, "t880" },
		{ 0x60000000, "g71" }, { 0x60001000, "g71" }, { 0x62210000, "g72" },
		{ 0x70000000, "g51" }, { 0x70100000, "g51" }, { 0x72110000, "g76" },
		{ 0x72120000, "g52" }, { 0x70930000, "g31" }, { 0x90000000, "g77" },
		{ 0x90910000, "g57" }, { 0x90930000, "g57" }, { 0x90920000, "g78" },
		{ 0x90940000, "g68" }, { 0x90950000, "g78" }, { 0x90951010, "g78" }, { 0xe0000000, "g1" }, { 0xe0010000, "g1" },
		{ 0xe0030000, "g1" }, { 0xa0020000, "g710" }, { 0xa8220011, "g710" },
		{ 0xa0030000, "g510" }, { 0xa0040000, "g310" }, { 0xa0070000, "g610" },
		{ 0xb0020000, "g715" }, { 0xb0030000, "g615" }, { 0xc0000000, "g720" },
		{ 0xc0010000, "g620" }, { 0xd0000000, "g725" }, { 0xd0010000, "g625" },
		{ 0xa0050000, NULL }, { 0x12340000, NULL }, { 0x00000000, NULL },
		{ 0x07400000, NULL }, { 0x60060000, NULL }, { 0xa0060000, NULL },
	};
	struct mpc_db *db = t_db();
	char why[1200] = "";

	for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct mpc_gpu_def *g = mpc_db_match_gpu_id(db, cases[i].id);
		const char *got = g ? g->key : NULL;

		if ((got == NULL) != (cases[i].key == NULL) || (got && strcmp(got, cases[i].key)))
			snprintf(why, sizeof(why), "GPU_ID 0x%08x: got %s, want %s", cases[i].id,
				 got ? got : "none", cases[i].key ? cases[i].key : "none");
	}
	mpc_db_free(db);
	CHECK(!why[0], "%s", why);
}

static void test_find_gpu_names(void)
{
	struct mpc_db *db = t_db();
	const struct mpc_gpu_def *a = mpc_db_find_gpu(db, "g52"), *b = mpc_db_find_gpu(db, "Mali-G52"),
		*c = mpc_db_find_gpu(db, "G52"), *d = mpc_db_find_gpu(db, "mali g1"),
		*e = mpc_db_find_gpu(db, "g999");

	mpc_db_free(db);
	CHECK(a && a == b && a == c, "g52 lookups disagree");
	CHECK(d != NULL, "'mali g1' not found");
	CHECK(e == NULL, "g999 found");
}

/* Every metric resolves (or is reported unavailable with a reason) on every
 * GPU; the JM GPUs get their libGPUCounters metrics. */
static void test_metrics_resolve_everywhere(void)
{
	struct mpc_db *db = t_db();
	char why[1200] = "";

	for (unsigned g = 0; g < mpc_db_gpu_count(db) && !why[0]; g++) {
		const struct mpc_gpu_def *gpu = mpc_db_gpu(db, g);
		struct mpc_prog *p;
		struct mpc_err err;
		unsigned avail = 0;

		if (mpc_prog_new(db, gpu, NULL, &p, &err)) {
			snprintf(why, sizeof(why), "%s: %s", gpu->key, err.msg);
			break;
		}
		for (unsigned i = 0; i < mpc_prog_count(p); i++) {
			const struct mpc_metric *m = mpc_prog_metric(p, i);

			avail += m->available;
			if (!m->available && (!m->reason || !*m->reason))
				snprintf(why, sizeof(why), "%s: %s unavailable without reason", gpu->key,
					 m->def->name);
		}
		if (mpc_prog_find(p, "MpcGPUActiveUtil") < 0 ||
		    !mpc_prog_metric(p, (unsigned)mpc_prog_find(p, "MpcGPUActiveUtil"))->available) {
			if (strcmp(gpu->key, "g2"))
				snprintf(why, sizeof(why), "%s: MpcGPUActiveUtil not available", gpu->key);
		}
		if (gpu->key[0] == 'g' && strcmp(gpu->key, "g2") && avail < 60)
			snprintf(why, sizeof(why), "%s: only %u metrics available", gpu->key, avail);
		if (gpu->key[0] == 't' && avail < 8)
			snprintf(why, sizeof(why), "%s: only %u metrics available", gpu->key, avail);
		mpc_prog_free(p);
	}
	mpc_db_free(db);
	CHECK(!why[0], "%s", why);
}

static void test_g2_reference_set(void)
{
	struct mpc_db *db = t_db();
	const struct mpc_gpu_def *g2 = mpc_db_find_gpu(db, "g2");
	unsigned n = 0, cfg = 0;
	struct mpc_prog *p;
	struct mpc_err err;
	int r;

	for (unsigned i = 0; i < mpc_db_metric_count(db); i++) {
		const struct mpc_metric_def *m = mpc_db_metric(db, i);

		if (!strcmp(m->set, "mali-g2")) {
			n++;
			cfg += strstr(m->expr, "MALI_CONFIG_") != NULL;
		}
	}
	CHECK(g2 && n == 160, "G2 reference: %u derived expressions, want 160", n);
	CHECK(cfg >= 10, "only %u G2 expressions use MALI_CONFIG constants", cfg);
	/* without a layout, metrics needing counters are unavailable, not 0 */
	r = mpc_prog_new(db, g2, NULL, &p, &err);
	CHECK(r == 0, "%s", err.msg);
	int i = mpc_prog_find(p, "MaliGPUIRQUtil");
	int ok = i >= 0 && !mpc_prog_metric(p, (unsigned)i)->available &&
		 strstr(mpc_prog_metric(p, (unsigned)i)->reason, "--layout");
	int k = mpc_prog_find(p, "MaliConfigCoreCount");
	int ok2 = k >= 0 && mpc_prog_metric(p, (unsigned)k)->available;

	mpc_prog_free(p);
	mpc_db_free(db);
	CHECK(ok, "MaliGPUIRQUtil should be unavailable and point at --layout");
	CHECK(ok2, "MaliConfigCoreCount should be available without a layout");
}

static void test_unavailable_not_zero(void)
{
	static const char extra[] =
		"mali-perfcnt-db 1\nmetrics test\n"
		"metric TestMissing percent t760 = GPU_ACTIVE / NO_SUCH_COUNTER\n"
		"metric TestUsesMissing percent t760 = TestMissing * 2\n"
		"metric TestLoopA cycles t760 = TestLoopB + 1\n"
		"metric TestLoopB cycles t760 = TestLoopA + 1\n"
		"metric TestFine cycles t760 = GPU_ACTIVE + 1\n";
	struct mpc_db *db = t_db();
	struct mpc_err err;
	struct mpc_prog *p = NULL;
	int r = mpc_db_add_text(db, "extra", extra, strlen(extra), &err);
	char why[1200] = "";

	if (!r)
		r = mpc_prog_new(db, mpc_db_find_gpu(db, "t760"), NULL, &p, &err);
	if (!r) {
		const char *names[] = { "TestMissing", "TestUsesMissing", "TestLoopA", "TestLoopB" };
		const char *want[] = { "NO_SUCH_COUNTER", "TestMissing", "circle", "circle" };

		for (unsigned i = 0; i < 4; i++) {
			int k = mpc_prog_find(p, names[i]);
			const struct mpc_metric *m = k >= 0 ? mpc_prog_metric(p, (unsigned)k) : NULL;

			if (!m || m->available || !strstr(m->reason, want[i]))
				snprintf(why, sizeof(why), "%s: %s", names[i],
					 m ? (m->reason ? m->reason : "available") : "missing");
		}
		int k = mpc_prog_find(p, "TestFine");

		if (k < 0 || !mpc_prog_metric(p, (unsigned)k)->available)
			snprintf(why, sizeof(why), "TestFine not available");
	}
	mpc_prog_free(p);
	mpc_db_free(db);
	CHECK(r == 0, "%s", err.msg);
	CHECK(!why[0], "%s", why);
}

static void test_layout_overlay(void)
{
	struct mpc_db *db = t_db();
	struct mpc_err err;
	const struct mpc_gpu_def *g2;
	const struct mpc_counter_def *c;
	int r = mpc_db_add_file(db, t_data("g2-test-layout.txt"), &err);
	unsigned known = 0;

	if (r) {
		mpc_db_free(db);
		CHECK(0, "%s", err.msg);
	}
	g2 = mpc_db_find_gpu(db, "g2");
	for (unsigned i = 0; i < g2->ncounters; i++)
		known += g2->counters[i].index >= 0;
	c = mpc_gpu_find_counter(g2, "MaliGPUActiveCy");
	int ok = c && !strcmp(c->name, "GPU_ACTIVE") && c->index >= 4 && c->unit &&
		 !strcmp(c->unit, "cycles");
	unsigned total = g2->ncounters;

	/* a partial layout for a shipped GPU: unlisted counters become unknown */
	static const char part[] = "mali-perfcnt-db 1\ngpu g52 Mali-G52\nblock jm\n6 GPU_ACTIVE\n"
				   "block shader\n9 FRAG_ACTIVE\n";
	r = mpc_db_add_text(db, "part", part, strlen(part), &err);
	const struct mpc_gpu_def *g52 = mpc_db_find_gpu(db, "g52");
	const struct mpc_counter_def *a = mpc_gpu_find_counter(g52, "MaliGPUActiveCy");
	const struct mpc_counter_def *b = mpc_gpu_find_counter(g52, "IRQ_ACTIVE");
	int ok2 = !r && a && a->index == 6 && a->lgc && b && b->index == -1 && g52->nmatch == 1;

	mpc_db_free(db);
	CHECK(ok, "G2 layout did not provide GPU_ACTIVE with its libGPUCounters name and unit");
	CHECK(known == total, "G2 layout placed %u of %u counters", known, total);
	CHECK(ok2, "partial G52 layout not merged as expected");
}

/* the counter of @gpu at @block[@idx], or NULL */
static const struct mpc_counter_def *at(const struct mpc_gpu_def *gpu, unsigned kind, int idx)
{
	for (unsigned i = 0; i < gpu->ncounters; i++)
		if (gpu->counters[i].kind == kind && gpu->counters[i].index == idx)
			return &gpu->counters[i];
	return NULL;
}

static int is(const struct mpc_counter_def *c, const char *name)
{
	return c && !strcmp(c->name, name);
}

/* Issue 26 items 1, 2 and 4: the Midgard entries against Arm's lists. */
static void test_midgard_entries(void)
{
	static const char *const t7t8[] = { "t760", "t820", "t830", "t860", "t880" };
	struct mpc_db *db = t_db();
	char why[1200] = "";

	for (unsigned i = 0; i < 5 && !why[0]; i++) {
		const struct mpc_gpu_def *g = mpc_db_find_gpu(db, t7t8[i]);
		const struct mpc_counter_def *fpk = mpc_gpu_find_counter(g, "FRAG_CYCLES_FPKQ_ACTIVE");

		if (at(g, MPC_BLK_SHADER, 8))
			snprintf(why, sizeof(why), "%s: shader 8 is %s, Arm lists nothing there",
				 g->key, at(g, MPC_BLK_SHADER, 8)->name);
		else if (!is(at(g, MPC_BLK_SHADER, 11), "FRAG_FPK_ACTIVE") || fpk != at(g, MPC_BLK_SHADER, 11))
			snprintf(why, sizeof(why), "%s: FRAG_FPK_ACTIVE (alias FRAG_CYCLES_FPKQ_ACTIVE) "
				 "not at shader 11", g->key);
	}
	for (unsigned i = 0; i < 2 && !why[0]; i++) {
		const struct mpc_gpu_def *g = mpc_db_find_gpu(db, i ? "t620" : "t600");

		if (!is(at(g, MPC_BLK_L2, 60), "L2_EXT_R_W_HAZARD") ||
		    !is(at(g, MPC_BLK_L2, 55), "L2_EXT_R_BUF_FULL") ||
		    !is(at(g, MPC_BLK_SHADER, 49), "LSC_READ_MISSES") ||
		    !is(at(g, MPC_BLK_SHADER, 51), "LSC_WRITE_MISSES") ||
		    !is(at(g, MPC_BLK_SHADER, 53), "LSC_ATOMIC_MISSES") ||
		    mpc_gpu_find_counter(g, "LSC_READ_OP") || mpc_gpu_find_counter(g, "FRAG_CYCLES_FPKQ_ACTIVE"))
			snprintf(why, sizeof(why), "%s: L2 55/60 or shader 49/51/53 differ from the T6xx list",
				 g->key);
		else if (!i && !is(at(g, MPC_BLK_SHADER, 8), "FRAG_CYCLES_PLR"))
			snprintf(why, sizeof(why), "t600: shader 8 is not FRAG_CYCLES_PLR");
	}
	/* a raw value never carries a multiplier: no Midgard counter in pixels or bytes */
	for (unsigned g = 0; g < mpc_db_gpu_count(db) && !why[0]; g++) {
		const struct mpc_gpu_def *gpu = mpc_db_gpu(db, g);

		if (strcmp(gpu->arch, "midgard"))
			continue;
		for (unsigned i = 0; i < gpu->ncounters; i++) {
			const char *u = gpu->counters[i].unit;

			if (u && (!strcmp(u, "pixels") || !strcmp(u, "bytes")))
				snprintf(why, sizeof(why), "%s: %s in %s, which needs a multiplier",
					 gpu->key, gpu->counters[i].name, u);
		}
	}
	mpc_db_free(db);
	CHECK(!why[0], "%s", why);
}

static uint32_t tiler_prims(unsigned slot, unsigned idx, void *ctx)
{
	const struct mpc_layout *l = ctx;

	if (l->slot[slot].kind != MPC_BLK_TILER)
		return 7;
	return idx == 13 ? 600 : idx == 14 ? 300 : idx == 15 ? 100 : 1;	/* visible, culled, clipped */
}

/* Issue 26 item 3, and the pixel metrics that carry Mesa's multipliers. */
static void test_midgard_metric_values(void)
{
	struct mpc_db *db = t_db();
	const struct mpc_gpu_def *g = mpc_db_find_gpu(db, "t760");
	struct mpc_desc d;
	struct mpc_layout *l = NULL;
	struct mpc_sample *s = NULL;
	struct mpc_prog *p = NULL;
	struct mpc_config c;
	struct mpc_err err;
	uint32_t *dump = NULL;
	double out[256], vis = 0, pix = 0;
	int r, iv, ip;

	r = mpc_desc_from_gpu(&d, g, 0xf, 1, &err);
	if (!r)
		r = mpc_layout_new(&d, &l, &err);
	if (!r)
		r = mpc_sample_new(l, &s, &err);
	if (!r)
		r = mpc_prog_new(db, g, l, &p, &err);
	if (!r && (!(dump = calloc(1, l->dump_size)) || mpc_prog_count(p) > 256))
		r = mpc_fail(&err, -ENOMEM, "setup");
	if (!r) {
		t_fill_dump(l, dump, 1, 0xffff, tiler_prims, l);
		r = mpc_decode(s, dump, l->dump_size, &err);
	}
	if (!r) {
		mpc_config_init(&c, &d, l, g, 0.1);
		mpc_prog_eval(p, s, &c, out);
		iv = mpc_prog_find(p, "MpcPrimVisibleRate");
		ip = mpc_prog_find(p, "MpcFragPix");
		vis = iv >= 0 ? out[iv] : NAN;
		pix = ip >= 0 ? out[ip] : NAN;
	}
	free(dump);
	mpc_prog_free(p);
	mpc_sample_free(s);
	mpc_layout_free(l);
	mpc_db_free(db);
	CHECK(r == 0, "%s", err.msg);
	/* 600 / (600 + 300 + 100), as HWCPipe 2's MaliGeomVisibleRate */
	CHECK(t_close(vis, 60.0), "MpcPrimVisibleRate %g, want 60", vis);
	/* FRAG_PTILES: 7 per core, 4 cores, 1024 pixels each (Mesa's T76x multiplier) */
	CHECK(t_close(pix, 4 * 7 * 1024.0), "MpcFragPix %g, want %g", pix, 4 * 7 * 1024.0);
}

struct fill_ctx {
	const struct mpc_layout *l;
	int jm_active;		/* GPU_ACTIVE's index in the jm block */
};

static uint32_t fill_active(unsigned slot, unsigned idx, void *ctx)
{
	const struct fill_ctx *f = ctx;

	if (f->l->slot[slot].kind == MPC_BLK_JM && (int)idx == f->jm_active)
		return 4000000;
	return 1000 + idx;
}

/* every GPU (CSF ones with 64- and 128-counter blocks too) decodes a dump of
 * its own layout and derives values from it */
static void test_every_gpu_decodes_and_derives(void)
{
	struct mpc_db *db = t_db();
	char why[300] = "";

	for (unsigned gi = 0; gi < mpc_db_gpu_count(db) && !why[0]; gi++) {
		const struct mpc_gpu_def *g = mpc_db_gpu(db, gi);
		const struct mpc_counter_def *ga = mpc_gpu_find_counter(g, "GPU_ACTIVE");
		struct mpc_desc d;
		struct mpc_layout *l = NULL;
		struct mpc_sample *s = NULL;
		struct mpc_prog *p = NULL;
		struct mpc_config c;
		struct mpc_err err;
		uint32_t *dump = NULL;
		double *out = NULL;
		unsigned finite = 0;
		int k, r;

		if (!strcmp(g->key, "g2"))
			continue;	/* no public indices */
		r = mpc_desc_from_gpu(&d, g, 0x3, 1, &err);
		if (!r)
			r = mpc_layout_new(&d, &l, &err);
		if (!r)
			r = mpc_sample_new(l, &s, &err);
		if (!r)
			r = mpc_prog_new(db, g, l, &p, &err);
		if (!r) {
			struct fill_ctx f = { l, ga ? ga->index : -1 };

			dump = malloc(l->dump_size);
			out = calloc(mpc_prog_count(p) + 1, sizeof(double));
			if (!dump || !out)
				r = mpc_fail(&err, -ENOMEM, "out of memory");
			else
				t_fill_dump(l, dump, 1, g->counters_per_block == 128 ? 0xffffffffu : 0xffff,
					    fill_active, &f);
		}
		if (!r)
			r = mpc_decode(s, dump, l->dump_size, &err);
		if (!r) {
			d.gpu_freq_hz = 1000000000;
			mpc_config_init(&c, &d, l, g, 0.01);
			mpc_prog_eval(p, s, &c, out);
			for (unsigned i = 0; i < mpc_prog_count(p); i++)
				finite += isfinite(out[i]) != 0;
			k = mpc_prog_find(p, "MpcGPUActiveTime");
			if (k < 0 || !t_close(out[k], 0.004))
				snprintf(why, sizeof(why), "%s: MpcGPUActiveTime %g, want 0.004", g->key,
					 k < 0 ? NAN : out[k]);
			else if (finite < (g->key[0] == 't' ? 8u : 60u))
				snprintf(why, sizeof(why), "%s: only %u metrics with a value", g->key, finite);
		} else {
			snprintf(why, sizeof(why), "%s: %.200s", g->key, err.msg);
		}
		free(dump);
		free(out);
		mpc_prog_free(p);
		mpc_sample_free(s);
		mpc_layout_free(l);
	}
	mpc_db_free(db);
	CHECK(!why[0], "%s", why);
}

TESTS(tests_db) = {
	{ "db: builtin database loads with all 30 GPUs", test_builtin_loads },
	{ "db: per-GPU sanity (indices in range, no duplicates, all blocks)", test_gpu_sanity },
	{ "db: GPU_ID recognition", test_gpu_id_recognition },
	{ "db: GPU lookup by key and name", test_find_gpu_names },
	{ "db: metrics resolve on every GPU", test_metrics_resolve_everywhere },
	{ "db: 160 G2 expressions, unavailable without a layout", test_g2_reference_set },
	{ "db: missing counters and cycles make metrics unavailable", test_unavailable_not_zero },
	{ "db: user layout files overlay shipped GPUs", test_layout_overlay },
	{ "db: Midgard entries follow Arm's lists (FPK, T6xx, raw units)", test_midgard_entries },
	{ "db: Midgard visible-primitive rate and pixel metrics", test_midgard_metric_values },
	{ "db: every GPU (CSF too) decodes its own dump and derives", test_every_gpu_decodes_and_derives },
	END_TESTS
};
