// SPDX-License-Identifier: MIT
/* Decoding synthetic v4 and v5 dumps. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "test.h"

static uint32_t val_slot_idx(unsigned slot, unsigned idx, void *ctx)
{
	(void)ctx;
	return slot * 1000 + idx;
}

static const struct mpc_block *find_blk(const struct mpc_sample *s, unsigned kind, unsigned inst)
{
	for (unsigned i = 0; i < s->nblocks; i++)
		if (s->blk[i].kind == kind && s->blk[i].instance == inst)
			return &s->blk[i];
	return NULL;
}

static void test_v5_sparse(void)
{
	struct mpc_db *db = t_db();
	const struct mpc_gpu_def *g52 = mpc_db_find_gpu(db, "g52");
	struct mpc_desc d;
	struct mpc_layout *l = NULL;
	struct mpc_sample *s = NULL;
	struct mpc_err err = { 0 };
	uint32_t *buf = NULL;
	char why[200] = "";
	int r;

	r = mpc_desc_from_gpu(&d, g52, 0xb, 2, &err);
	if (!r)
		r = mpc_layout_new(&d, &l, &err);
	if (!r)
		r = mpc_sample_new(l, &s, &err);
	if (!r) {
		buf = malloc(l->dump_size + 4);
		/* decode from an unaligned address on purpose */
		uint32_t *dump = (uint32_t *)((char *)buf + 1);
		uint32_t tmp[8 * 64];

		t_fill_dump(l, tmp, 0x1122334455ull, 0xffff, val_slot_idx, NULL);
		memcpy(dump, tmp, sizeof(tmp));
		r = mpc_decode(s, dump, l->dump_size, &err);
	}
	if (!r) {
		static const struct { unsigned kind, inst, slot; } want[] = {
			{ MPC_BLK_JM, 0, 0 }, { MPC_BLK_TILER, 0, 1 }, { MPC_BLK_L2, 0, 2 },
			{ MPC_BLK_L2, 1, 3 }, { MPC_BLK_SHADER, 0, 4 }, { MPC_BLK_SHADER, 1, 5 },
			{ MPC_BLK_SHADER, 3, 7 },
		};
		if (d.dump_size != 2048 || d.nr_blocks != 8 || d.nr_shader_blocks != 4)
			snprintf(why, sizeof(why), "geometry: size %u blocks %u shader %u", d.dump_size,
				 d.nr_blocks, d.nr_shader_blocks);
		if (s->nblocks != 7)
			snprintf(why, sizeof(why), "%u present blocks, want 7 (core 2 is a hole)", s->nblocks);
		for (unsigned i = 0; i < 7 && !why[0]; i++) {
			const struct mpc_block *b = find_blk(s, want[i].kind, want[i].inst);

			if (!b || mpc_block_value(s, b, 10) != want[i].slot * 1000 + 10 || b->timestamp != 0x1122334455ull ||
			    b->enable != 0xffff)
				snprintf(why, sizeof(why), "%s.%u: wrong values", mpc_block_name(want[i].kind),
					 want[i].inst);
		}
		if (find_blk(s, MPC_BLK_SHADER, 2))
			snprintf(why, sizeof(why), "absent core 2 decoded");
		/* sum over the shader instances of one named counter */
		const struct mpc_counter_def *c = mpc_gpu_find_counter(g52, "FRAG_ACTIVE");
		uint64_t v;
		unsigned fl = mpc_counter_value(s, c, -1, &v);
		uint64_t want_sum = (4 + 5 + 7) * 1000 + 3ull * (unsigned)c->index;

		if (fl || v != want_sum)
			snprintf(why, sizeof(why), "FRAG_ACTIVE sum %llu flags %u, want %llu",
				 (unsigned long long)v, fl, (unsigned long long)want_sum);
		fl = mpc_counter_value(s, c, 3, &v);
		if (fl || v != 7000u + (unsigned)c->index)
			snprintf(why, sizeof(why), "FRAG_ACTIVE core 3 = %llu", (unsigned long long)v);
		fl = mpc_counter_value(s, c, 2, &v);
		if (!(fl & MPC_VAL_UNKNOWN))
			snprintf(why, sizeof(why), "absent core 2 has a value");
	}
	free(buf);
	mpc_sample_free(s);
	mpc_layout_free(l);
	mpc_db_free(db);
	CHECK(r == 0, "%s", err.msg);
	CHECK(!why[0], "%s", why);
}

static void test_v4_core_groups(void)
{
	struct mpc_desc d = { 0 };
	struct mpc_layout *l = NULL;
	struct mpc_sample *s = NULL;
	struct mpc_err err = { 0 };
	char why[200] = "";
	int r;

	/* two core groups, cores 0-3 and 4-5 (6, 7 absent) */
	d.layout = MPC_LAYOUT_V4;
	d.gpu_id = 0x06200000;
	d.shader_present = 0x3f;
	d.l2_present = 0x11;
	r = mpc_desc_finish(&d, &err);
	if (!r)
		r = t_decode_new(&d, 42, 0xffff, val_slot_idx, NULL, &l, &s, &err);
	if (!r) {
		static const struct { unsigned kind, inst, slot; } want[] = {
			{ MPC_BLK_SHADER, 0, 0 }, { MPC_BLK_SHADER, 3, 3 }, { MPC_BLK_TILER, 0, 4 },
			{ MPC_BLK_L2, 0, 5 }, { MPC_BLK_JM, 0, 7 }, { MPC_BLK_SHADER, 4, 8 },
			{ MPC_BLK_SHADER, 5, 9 }, { MPC_BLK_TILER, 1, 12 }, { MPC_BLK_L2, 1, 13 },
		};
		if (d.dump_size != 4096 || d.nr_core_groups != 2 || d.nr_blocks != 16)
			snprintf(why, sizeof(why), "geometry: size %u groups %u", d.dump_size,
				 d.nr_core_groups);
		/* 6 cores + 2 tilers + 2 MMU/L2 + 1 JM; reserved and absent ignored */
		if (s->nblocks != 11 || l->ninst[MPC_BLK_JM] != 1 || l->ninst[MPC_BLK_L2] != 2)
			snprintf(why, sizeof(why), "%u present blocks (want 11), jm %u", s->nblocks,
				 l->ninst[MPC_BLK_JM]);
		for (unsigned i = 0; i < sizeof(want) / sizeof(want[0]) && !why[0]; i++) {
			const struct mpc_block *b = find_blk(s, want[i].kind, want[i].inst);

			if (!b || mpc_block_value(s, b, 20) != want[i].slot * 1000 + 20)
				snprintf(why, sizeof(why), "%s.%u: want slot %u", mpc_block_name(want[i].kind),
					 want[i].inst, want[i].slot);
		}
		if (find_blk(s, MPC_BLK_SHADER, 6) || find_blk(s, MPC_BLK_SHADER, 7))
			snprintf(why, sizeof(why), "absent cores decoded");
	}
	mpc_sample_free(s);
	mpc_layout_free(l);
	CHECK(r == 0, "%s", err.msg);
	CHECK(!why[0], "%s", why);
}

static void test_v4_t720_names(void)
{
	struct mpc_db *db = t_db();
	const struct mpc_gpu_def *g = mpc_db_find_gpu(db, "t720");
	struct mpc_desc d;
	struct mpc_layout *l = NULL;
	struct mpc_sample *s = NULL;
	struct mpc_err err = { 0 };
	uint64_t v = 0;
	unsigned fl = 99;
	int r = mpc_desc_from_gpu(&d, g, 0x3, 1, &err);

	if (!r)
		r = t_decode_new(&d, 1, 0xffff, val_slot_idx, NULL, &l, &s, &err);
	if (!r)
		fl = mpc_counter_value(s, mpc_gpu_find_counter(g, "GPU_ACTIVE"), -1, &v);
	mpc_sample_free(s);
	mpc_layout_free(l);
	mpc_db_free(db);
	CHECK(r == 0, "%s", err.msg);
	/* T720 GPU_ACTIVE is jm[4]; jm is slot 7 of group 0 */
	CHECK(fl == 0 && v == 7004, "T720 GPU_ACTIVE = %llu (flags %u), want 7004",
	      (unsigned long long)v, fl);
}

static uint32_t val_big(unsigned slot, unsigned idx, void *ctx)
{
	(void)slot;
	(void)ctx;
	return idx == 6 ? 0xF0000000u : idx == 7 ? 0xFFFFFFFFu : 1;
}

static void test_accumulate_64bit_and_saturation(void)
{
	struct mpc_db *db = t_db();
	const struct mpc_gpu_def *g = mpc_db_find_gpu(db, "g52");
	struct mpc_desc d;
	struct mpc_layout *l = NULL;
	struct mpc_sample *s = NULL;
	struct mpc_err err = { 0 };
	uint32_t buf[4 * 64];
	uint64_t v6 = 0, v7 = 0, v8 = 0;
	unsigned f6 = 99, f7 = 0, f8 = 99;
	int r = mpc_desc_from_gpu(&d, g, 0x1, 1, &err);

	if (!r)
		r = mpc_layout_new(&d, &l, &err);
	if (!r)
		r = mpc_sample_new(l, &s, &err);
	for (int i = 0; i < 3 && !r; i++) {
		t_fill_dump(l, buf, (uint64_t)i, 0xffff, val_big, NULL);
		r = mpc_decode(s, buf, sizeof(buf), &err);
	}
	if (!r) {
		f6 = mpc_counter_value(s, mpc_gpu_find_counter(g, "GPU_ACTIVE"), -1, &v6);
		f7 = mpc_counter_value(s, mpc_gpu_find_counter(g, "IRQ_ACTIVE"), -1, &v7);
		f8 = mpc_counter_value(s, mpc_gpu_find_counter(g, "JS0_JOBS"), -1, &v8);
	}
	unsigned n = s ? s->nsamples : 0;

	mpc_sample_free(s);
	mpc_layout_free(l);
	mpc_db_free(db);
	CHECK(r == 0, "%s", err.msg);
	CHECK(n == 3, "nsamples %u", n);
	CHECK(f6 == 0 && v6 == 3ull * 0xF0000000u, "GPU_ACTIVE = 0x%llx (flags %u), want 0x%llx",
	      (unsigned long long)v6, f6, 3ull * 0xF0000000u);
	CHECK((f7 & MPC_VAL_SATURATED) && v7 == 3ull * 0xFFFFFFFFu, "IRQ_ACTIVE saturation flag %u",
	      f7);
	CHECK(f8 == 0 && v8 == 3, "JS0_JOBS = %llu flags %u", (unsigned long long)v8, f8);
}

static void test_enable_mask(void)
{
	struct mpc_db *db = t_db();
	const struct mpc_gpu_def *g = mpc_db_find_gpu(db, "g52");
	struct mpc_desc d;
	struct mpc_layout *l = NULL;
	struct mpc_sample *s = NULL;
	struct mpc_err err = { 0 };
	uint32_t buf[4 * 64];
	uint64_t a = 0, b = 0;
	unsigned fa = 99, fb = 0, fc = 0;
	int r = mpc_desc_from_gpu(&d, g, 0x1, 1, &err);

	if (!r)
		r = mpc_layout_new(&d, &l, &err);
	if (!r)
		r = mpc_sample_new(l, &s, &err);
	if (!r) {
		/* GPU_ACTIVE (6) is in group 1, JS0_JOBS (8) in group 2 */
		t_fill_dump(l, buf, 1, 0x0002, val_slot_idx, NULL);
		r = mpc_decode(s, buf, sizeof(buf), &err);
	}
	if (!r) {
		fa = mpc_counter_value(s, mpc_gpu_find_counter(g, "GPU_ACTIVE"), -1, &a);
		fb = mpc_counter_value(s, mpc_gpu_find_counter(g, "JS0_JOBS"), -1, &b);
		/* a second sample with all enabled: the accumulated mask stays partial */
		t_fill_dump(l, buf, 2, 0xffff, val_slot_idx, NULL);
		r = mpc_decode(s, buf, sizeof(buf), &err);
		fc = mpc_counter_value(s, mpc_gpu_find_counter(g, "JS0_JOBS"), -1, &b);
	}
	mpc_sample_free(s);
	mpc_layout_free(l);
	mpc_db_free(db);
	CHECK(r == 0, "%s", err.msg);
	CHECK(fa == 0 && a == 6, "GPU_ACTIVE flags %u value %llu", fa, (unsigned long long)a);
	CHECK(fb & MPC_VAL_NOT_COLLECTED, "JS0_JOBS should be not collected");
	CHECK(fc & MPC_VAL_NOT_COLLECTED, "JS0_JOBS after a partial sample should stay not collected");
}

/* panfrost writes all-ones to the PRFCNT_*_EN registers: bits 16-31 of a 64-counter block */
static void test_enable_high_bits(void)
{
	struct mpc_db *db = t_db();
	const struct mpc_gpu_def *g = mpc_db_find_gpu(db, "g52");
	struct mpc_desc d;
	struct mpc_layout *l = NULL;
	struct mpc_sample *s = NULL;
	struct mpc_err err = { 0 };
	uint64_t a = 0;
	unsigned fa = 99, en = 0;
	int r = mpc_desc_from_gpu(&d, g, 0x1, 1, &err);

	if (!r)
		r = t_decode_new(&d, 1, 0xffffffff, val_slot_idx, NULL, &l, &s, &err);
	if (!r) {
		fa = mpc_counter_value(s, mpc_gpu_find_counter(g, "GPU_ACTIVE"), -1, &a);
		en = s->blk[0].enable;
	}
	mpc_sample_free(s);
	mpc_layout_free(l);
	mpc_db_free(db);
	CHECK(r == 0, "an all-ones enable word was rejected: %s", err.msg);
	CHECK(fa == 0 && a == 6, "GPU_ACTIVE flags %u value %llu", fa, (unsigned long long)a);
	CHECK(en == 0xffff, "enable 0x%08x, want the 16 groups that exist (0xffff)", en);
}

static void test_g1_128(void)
{
	struct mpc_db *db = t_db();
	const struct mpc_gpu_def *g = mpc_db_find_gpu(db, "g1");
	struct mpc_desc d;
	struct mpc_layout *l = NULL;
	struct mpc_sample *s = NULL;
	struct mpc_err err = { 0 };
	const struct mpc_counter_def *c = NULL;
	uint64_t v = 0;
	unsigned fl = 99;
	int r = mpc_desc_from_gpu(&d, g, 0xf, 2, &err);

	for (unsigned i = 0; i < g->ncounters; i++)
		if (g->counters[i].shift && g->counters[i].kind == MPC_BLK_SHADER)
			c = &g->counters[i];
	if (!r)
		r = t_decode_new(&d, 1, 0xffffffff, val_slot_idx, NULL, &l, &s, &err);
	if (!r && c)
		fl = mpc_counter_value(s, c, -1, &v);
	unsigned size = d.dump_size;
	uint64_t want = c ? ((uint64_t)(4 + 5 + 6 + 7) * 1000 + 4u * (unsigned)c->index) << c->shift : 0;

	mpc_sample_free(s);
	mpc_layout_free(l);
	mpc_db_free(db);
	CHECK(r == 0, "%s", err.msg);
	CHECK(size == 8 * 128 * 4, "G1 dump size %u", size);
	CHECK(c != NULL, "no shifted shader counter in the G1 data");
	CHECK(fl == 0 && v == want, "%s = %llu, want %llu", c->name, (unsigned long long)v,
	      (unsigned long long)want);
}

/* kbase CSF: a firmware and two CSG blocks after the shaders, and what a 1.0 program sees */
static void test_csf_fw_csg(void)
{
	struct mpc_db *db = t_db();
	const struct mpc_gpu_def *g = mpc_db_find_gpu(db, "g720");
	struct mpc_desc d;
	struct mpc_layout *l = NULL;
	struct mpc_sample *s = NULL;
	struct mpc_err err = { 0 };
	unsigned kind = 99, inst = 99, k1 = 99, i1 = 99, nb = 0, fwb = 99;
	int r = mpc_desc_from_gpu(&d, g, 0x5, 1, &err), s1 = 99, s0 = 99;
	uint64_t v = 0;

	if (!r) {
		d.nr_fw = 1;
		d.nr_csg = 2;
		d.nr_blocks = 0;
		d.dump_size = 0;
		r = mpc_desc_finish(&d, &err);
	}
	if (!r)
		r = t_decode_new(&d, 1, 0xffffffff, val_slot_idx, NULL, &l, &s, &err);
	if (!r) {
		/* slots: jm, tiler, l2, shader 0..2 (1 absent), fw, csg 0, csg 1 */
		s0 = mpc_layout_slot(l, 7, &kind, &inst);
		s1 = mpc_layout_slot_1(l, 7, &k1, &i1);
		nb = mpc_sample_nblocks(s);
		for (unsigned b = 0; b < nb; b++)
			if (mpc_sample_block_kind(s, b) == MPC_BLK_FW)
				fwb = b;
		mpc_sample_block_value(s, fwb, 100, &v);
	}
	CHECK(r == 0, "%s", err.msg);
	CHECK(d.nr_blocks == 9 && d.dump_size == 9 * 128 * 4 &&
	      mpc_desc_nr_csf_blocks(&d, MPC_BLK_FW) == 1 &&
	      mpc_desc_nr_csf_blocks(&d, MPC_BLK_CSG) == 2 &&
	      mpc_desc_nr_csf_blocks(&d, MPC_BLK_SHADER) == 0, "geometry: %u blocks, %u bytes",
	      d.nr_blocks, d.dump_size);
	CHECK(mpc_layout_instances(l, MPC_BLK_FW) == 1 && mpc_layout_instances(l, MPC_BLK_CSG) == 2 &&
	      s0 == 1 && kind == MPC_BLK_CSG && inst == 0, "slot 7: %d %u.%u", s0, kind, inst);
	/* the LIBMALIPERFCNT_1 answers: a reserved slot, 4 for the block's kind */
	CHECK(s1 == 0 && k1 == MPC_BLK_JM && i1 == 0, "slot 7 for 1.0: %d %u.%u", s1, k1, i1);
	CHECK(nb == 8 && fwb == 5 && mpc_sample_block_kind(s, 7) == MPC_BLK_CSG &&
	      mpc_sample_block_instance(s, 7) == 1 && mpc_sample_block_kind_1(s, 7) == 4 &&
	      mpc_sample_block_kind_1(s, 3) == MPC_BLK_SHADER && mpc_sample_block_kind_1(s, 99) == 4 &&
	      mpc_sample_block_kind(s, 99) == MPC_BLK_NONE, "kinds of %u blocks, fw at %u", nb, fwb);
	CHECK(v == 6 * 1000 + 100, "fw[100] = %llu", (unsigned long long)v);
	CHECK(!strcmp(mpc_block_name(MPC_BLK_FW), "fw") && !strcmp(mpc_block_name(MPC_BLK_CSG), "csg") &&
	      mpc_block_from_name("csg") == MPC_BLK_CSG && !strcmp(mpc_block_name(MPC_BLK_NONE), "?"),
	      "block names");
	mpc_sample_free(s);
	mpc_layout_free(l);
	mpc_db_free(db);
}

static void test_gpu_info_example(void)
{
	static const char txt[] =
		"product: Mali-G52\ngpu_id: 0x72120000\nproduct_id: 0x7212\nversion: r0p0 status 0\n"
		"shader_present: 0x000000000000000b\nl2_present: 0x0000000000000001\nnr_l2: 2\n"
		"l2_features: 0x07120206\nmem_features: 0x00000101\nlayout: v5\nnr_core_groups: 1\n"
		"nr_shader_blocks: 4\nnr_blocks: 8\ncounters_per_block: 64\ndump_size: 2048\n"
		"counter_sets: 2\ngpu_freq_hz: 800000000\nsimulated: 1\nhw_issue_8186: 0\nenabled: 1\n"
		"counter_set: 0\nmasks: jm=0xffff tiler=0xffff shader=0xffff l2=0xffff\n"
		"owner: pid 1234 (mali-perfcnt)\nsome_future_key: whatever\n";
	struct mpc_desc d;
	struct mpc_err err = { 0 };
	int r = mpc_desc_parse_gpu_info(&d, txt, strlen(txt), "gpu_info", &err);

	CHECK(r == 0, "%s", err.msg);
	CHECK(d.gpu_id == 0x72120000 && d.shader_present == 0xb && d.nr_l2 == 2 &&
	      d.dump_size == 2048 && d.layout == 5 && d.gpu_freq_hz == 800000000 &&
	      d.counter_set == 0 && d.enabled == 1 && !strcmp(d.product, "Mali-G52") &&
	      !strcmp(d.owner, "pid 1234 (mali-perfcnt)") && mpc_desc_bus_bytes(&d) == 16,
	      "fields parsed wrongly");
}

/* a description edited after mpc_desc_finish() cannot make the layout overrun */
static void test_layout_refuses_edited_desc(void)
{
	struct mpc_db *db = t_db();
	struct mpc_desc d, e;
	struct mpc_layout *l = NULL;
	struct mpc_err err = { 0 };
	int r;

	r = mpc_desc_from_gpu(&d, mpc_db_find_gpu(db, "g52"), 0xb, 2, &err);
	mpc_db_free(db);
	CHECK(r == 0, "%s", err.msg);
	e = d;
	e.nr_l2 = 16;			/* more slots than nr_blocks */
	CHECK(mpc_layout_new(&e, &l, &err) == -EINVAL && !l && strstr(err.msg, "mpc_desc_finish"),
	      "nr_l2 16 with 8 blocks accepted: %s", err.msg);
	e = d;
	e.nr_shader_blocks = 70;	/* consistent counts, but past 64 cores */
	e.nr_blocks = 2 + e.nr_l2 + 70;
	e.dump_size = e.nr_blocks * e.counters_per_block * 4;
	CHECK(mpc_layout_new(&e, &l, &err) == -EINVAL && !l, "70 shader blocks accepted");
	CHECK(mpc_layout_new(&d, &l, &err) == 0 && l, "the finished description: %s", err.msg);
	mpc_layout_free(l);
}

/*
 * The opaque objects through the public accessors only: every accessor
 * agrees with the object it reads, a dup outlives its source, timing
 * accumulates over mpc_sample_add() and a reset forgets it.
 */
static void test_public_accessors(void)
{
	static const char txt[] =
		"product: Mali-G52\ngpu_id: 0x72120000\nshader_present: 0xb\nl2_present: 0x1\n"
		"nr_l2: 2\nl2_features: 0x07120206\nmem_features: 0x00000101\nlayout: v5\n"
		"counter_sets: 2\ngpu_freq_hz: 800000000\nsimulated: 1\nenabled: 1\n"
		"counter_set: 1\nowner: pid 7 (x)\n";
	struct mpc_db *db = t_db();
	const struct mpc_gpu_def *g = mpc_db_find_gpu(db, "g52");
	struct mpc_desc *d = NULL, *dup = NULL, *bad = (struct mpc_desc *)1;
	struct mpc_layout *l = NULL;
	struct mpc_sample *s = NULL;
	struct mpc_err err = { 0 };
	uint32_t buf[8 * 64];
	struct mpc_dump_info d1 = { 11, 2000, 1900, 2100, 1000, MPC_DATA_FIRST };
	struct mpc_dump_info d2 = { 12, 3000, 2900, 3100, 2000, MPC_DATA_SATURATED };
	uint64_t v = 1, gv = 0;
	unsigned kind = 0, inst = 0, jm = ~0u, f_bad, f_unk, f_ok, f_name, f_off;
	int r, slot_past;

	r = mpc_desc_new_from_gpu_info(txt, strlen(txt), "t", &d, &err);
	CHECK(r == 0 && d, "%s", err.msg);
	r = mpc_desc_dup(d, &dup, &err);
	mpc_desc_free(d);
	CHECK(r == 0, "%s", err.msg);
	CHECK(mpc_desc_gpu_id(dup) == 0x72120000 && !strcmp(mpc_desc_product(dup), "Mali-G52") &&
	      mpc_desc_layout(dup) == MPC_LAYOUT_V5 && mpc_desc_shader_present(dup) == 0xb &&
	      mpc_desc_core_count(dup) == 3 && mpc_desc_l2_present(dup) == 1 &&
	      mpc_desc_nr_l2(dup) == 2 && mpc_desc_nr_core_groups(dup) == 1 &&
	      mpc_desc_nr_shader_blocks(dup) == 4 && mpc_desc_nr_blocks(dup) == 8 &&
	      mpc_desc_counters_per_block(dup) == 64 && mpc_desc_dump_size(dup) == 2048 &&
	      mpc_desc_nr_counter_sets(dup) == 2 && mpc_desc_l2_features(dup) == 0x07120206 &&
	      mpc_desc_mem_features(dup) == 0x101 && mpc_desc_bus_bytes(dup) == 16 &&
	      mpc_desc_gpu_freq_hz(dup) == 800000000 && mpc_desc_uapi_version(dup) == 0 &&
	      mpc_desc_caps(dup) == 0 && mpc_desc_simulated(dup) == 1 &&
	      mpc_desc_enabled(dup) == 1 && mpc_desc_counter_set(dup) == 1 &&
	      !strcmp(mpc_desc_owner(dup), "pid 7 (x)"), "a description accessor is wrong");
	/* a failing constructor leaves NULL and says why */
	r = mpc_desc_new_from_gpu(g, 0, 1, &bad, &err);
	CHECK(r == -EINVAL && !bad && strstr(err.msg, "--cores"), "core mask 0 accepted: %s", err.msg);
	r = mpc_layout_new(dup, &l, &err);
	if (!r)
		r = mpc_sample_new(l, &s, &err);
	mpc_desc_free(dup);
	if (!r) {
		t_fill_dump(l, buf, 5, 0xffff, val_slot_idx, NULL);
		r = mpc_sample_add(s, buf, sizeof(buf), &d1, &err);
	}
	if (!r) {
		buf[0 * 64 + 2] = 0xfffd;	/* jm: group 1 (counters 4..7) off */
		r = mpc_sample_add(s, buf, sizeof(buf), &d2, &err);
	}
	if (r) {
		mpc_sample_free(s);
		mpc_layout_free(l);
		mpc_db_free(db);
		CHECK(0, "%s", err.msg);
	}
	for (unsigned b = 0; b < mpc_sample_nblocks(s); b++)
		if (mpc_sample_block_kind(s, b) == MPC_BLK_JM)
			jm = b;
	slot_past = mpc_layout_slot(l, mpc_layout_nslots(l), &kind, &inst);
	f_bad = mpc_sample_block_value(s, mpc_sample_nblocks(s), 10, &v);
	f_unk = mpc_sample_block_value(s, 0, 64, &v);
	f_off = mpc_sample_block_value(s, jm, 6, &v);
	f_ok = mpc_sample_block_value(s, jm, 10, &v);
	f_name = mpc_sample_counter(s, g, "no such counter", -1, &gv);
	CHECK(mpc_layout_dump_size(l) == 2048 && mpc_layout_counters_per_block(l) == 64 &&
	      mpc_layout_nslots(l) == 8 && mpc_layout_instances(l, MPC_BLK_SHADER) == 3 &&
	      mpc_layout_instances(l, MPC_BLK_L2) == 2 && mpc_layout_instances(l, 99) == 0 &&
	      mpc_layout_slot(l, 6, &kind, &inst) == 0 && slot_past == -EINVAL &&
	      mpc_layout_slot(l, 7, &kind, &inst) == 1 && kind == MPC_BLK_SHADER && inst == 3 &&
	      mpc_sample_layout(s) == l && mpc_sample_nblocks(s) == 7,
	      "a layout accessor is wrong");
	CHECK(jm == 0 && mpc_sample_block_instance(s, jm) == 0 &&
	      mpc_sample_block_timestamp(s, jm) == 5 && mpc_sample_block_enable(s, jm) == 0xfffd &&
	      mpc_sample_block_kind(s, 99) == MPC_BLK_NONE, "a block accessor is wrong");
	CHECK(f_bad == MPC_VAL_UNKNOWN && f_unk == MPC_VAL_UNKNOWN && f_name == MPC_VAL_UNKNOWN &&
	      f_off == MPC_VAL_NOT_COLLECTED && f_ok == MPC_VAL_OK && v == 2 * 10,
	      "block values: flags %u %u %u %u %u, value %llu", f_bad, f_unk, f_name, f_off, f_ok,
	      (unsigned long long)v);
	f_name = mpc_sample_counter(s, g, "JS0_JOBS", -1, &gv);
	CHECK(f_name == MPC_VAL_OK && gv == 2 * 8, "JS0_JOBS by name: flags %u value %llu", f_name,
	      (unsigned long long)gv);
	CHECK(mpc_sample_ndumps(s) == 2 && mpc_sample_seqno(s) == 12 &&
	      mpc_sample_timestamp_ns(s) == 3000 && mpc_sample_interval_start_ns(s) == 1000 &&
	      mpc_sample_data_flags(s) == (MPC_DATA_FIRST | MPC_DATA_SATURATED),
	      "timing: %u dumps seqno %llu ts %llu start %llu flags 0x%x", mpc_sample_ndumps(s),
	      (unsigned long long)mpc_sample_seqno(s),
	      (unsigned long long)mpc_sample_timestamp_ns(s),
	      (unsigned long long)mpc_sample_interval_start_ns(s), mpc_sample_data_flags(s));
	mpc_sample_reset(s);
	f_ok = mpc_sample_block_value(s, jm, 10, &v);
	CHECK(mpc_sample_ndumps(s) == 0 && mpc_sample_seqno(s) == 0 &&
	      mpc_sample_timestamp_ns(s) == 0 && mpc_sample_interval_start_ns(s) == 0 &&
	      mpc_sample_data_flags(s) == 0 && f_ok == MPC_VAL_NOT_COLLECTED && v == 0,
	      "a reset sample keeps its timing or values");
	/* without timing, mpc_decode() leaves the timing alone */
	r = mpc_decode(s, buf, sizeof(buf), &err);
	CHECK(r == 0 && mpc_sample_ndumps(s) == 1 && mpc_sample_seqno(s) == 0, "%s", err.msg);
	mpc_sample_free(s);
	mpc_layout_free(l);
	mpc_db_free(db);
}

/*
 * The decoder's vector paths against its portable loops, sample for sample:
 * dumps of small words (the 32-bit sums cannot wrap), of words near 2^32
 * (they can: the exact sums), with 0xffffffff at one index (walking over
 * every index, header-adjacent lanes included), with a mask's bits beyond
 * the groups set, with a group disabled, fresh and accumulated.
 */
struct vcase {
	unsigned kind;		/* 0 small, 1 large, 2 small with one saturated word */
	unsigned slot, idx;	/* the saturated word */
	uint64_t rng;
};

static uint32_t val_vcase(unsigned slot, unsigned idx, void *ctx)
{
	struct vcase *c = ctx;

	c->rng = c->rng * 6364136223846793005ull + 1442695040888963407ull;
	if (c->kind == 2 && slot == c->slot && idx == c->idx)
		return 0xffffffffu;
	if (c->kind == 1)
		return 0xf0000000u | (uint32_t)(c->rng >> 36);
	return (uint32_t)(c->rng >> 44);
}

static int same_sample(const struct mpc_sample *a, const struct mpc_sample *b, char *why, size_t wl)
{
	unsigned cpb = a->layout->counters_per_block;

	if (a->nsamples != b->nsamples || a->nblocks != b->nblocks)
		return snprintf(why, wl, "%u/%u dumps", a->nsamples, b->nsamples);
	for (unsigned k = 0; k < MPC_BLK_KINDS; k++) {
		if (a->kind_enable[k] != b->kind_enable[k] ||
		    memcmp(a->kind_saturated[k], b->kind_saturated[k], sizeof(a->kind_saturated[k])))
			return snprintf(why, wl, "kind %u: mask 0x%x/0x%x or saturation", k,
					a->kind_enable[k], b->kind_enable[k]);
		for (unsigned j = 0; j < cpb; j++)
			if (a->kind_sum[k * cpb + j] != b->kind_sum[k * cpb + j])
				return snprintf(why, wl, "kind %u counter %u: sum 0x%llx, want 0x%llx", k, j,
						(unsigned long long)a->kind_sum[k * cpb + j],
						(unsigned long long)b->kind_sum[k * cpb + j]);
	}
	for (unsigned i = 0; i < a->nblocks; i++) {
		const struct mpc_block *x = &a->blk[i], *y = &b->blk[i];

		if (x->timestamp != y->timestamp || x->enable != y->enable ||
		    memcmp(x->saturated, y->saturated, sizeof(x->saturated)))
			return snprintf(why, wl, "block %u: timestamp, mask 0x%x/0x%x or saturation "
					"0x%llx/0x%llx", i, x->enable, y->enable,
					(unsigned long long)x->saturated[0],
					(unsigned long long)y->saturated[0]);
		for (unsigned j = 0; j < cpb; j++)
			if (mpc_block_value(a, x, j) != mpc_block_value(b, y, j))
				return snprintf(why, wl, "block %u counter %u", i, j);
	}
	return 0;
}

static void test_vector_paths(void)
{
	static const struct { const char *gpu; uint64_t cores; unsigned l2; } cfg[] = {
		{ "g78", 0xffff, 4 }, { "g52", 0xb, 2 }, { "t720", 0x3, 1 }, { "t760", 0xff, 2 },
		{ "g1", 0xff, 2 },
	};
	struct mpc_db *db = t_db();
	char why[400] = "";
	unsigned ncmp = 0;
	int r = 0;

	for (unsigned ci = 0; ci < ARRAY_SIZE(cfg) && !r && !why[0]; ci++) {
		const struct mpc_gpu_def *g = mpc_db_find_gpu(db, cfg[ci].gpu);
		struct mpc_err err = { 0 };
		struct mpc_desc d;
		struct mpc_layout *l = NULL;
		struct mpc_sample *s[3] = { NULL, NULL, NULL };
		uint32_t *buf = NULL;
		unsigned cpb = 0;

		r = !g || mpc_desc_from_gpu(&d, g, cfg[ci].cores, cfg[ci].l2, &err) ||
		    mpc_layout_new(&d, &l, &err);
		for (unsigned v = 0; v < 3 && !r; v++)
			r = mpc_sample_new(l, &s[v], &err);
		if (!r) {
			cpb = l->counters_per_block;
			buf = malloc(l->dump_size);
			r = !buf;
		}
		for (unsigned t = 0; t < 2 * cpb && !r && !why[0]; t++) {
			uint32_t full = cpb == 128 ? 0xffffffffu : 0xffffu;
			/* every 8th dump accumulates; some have a group off or extra mask bits */
			uint32_t en = t % 11 == 5 ? full & ~0x8u : t % 7 == 3 ? 0xffffffffu : full;
			struct vcase vc = { t % 3, (t / 3) % l->nslots, 4 + t % (cpb - 4), t + 1 };

			for (unsigned v = 0; v < 3 && !r; v++) {
				struct vcase c = vc;

				t_fill_dump(l, buf, 0xabcd00000000ull + t, en, val_vcase, &c);
				if (t % 8)
					mpc_sample_reset(s[v]);
				mpc_decode_vec_max = (int)v;
				r = mpc_decode(s[v], buf, l->dump_size, &err);
			}
			mpc_decode_vec_max = 2;
			for (unsigned v = 1; v < 3 && !r && !why[0]; v++)
				if (same_sample(s[v], s[0], why, sizeof(why)) > 0)
					snprintf(why + strlen(why), sizeof(why) - strlen(why),
						 " (%s, dump %u, vectors %u)", cfg[ci].gpu, t, v);
			ncmp++;
		}
		if (r)
			snprintf(why, sizeof(why), "%s: %s", cfg[ci].gpu, err.msg);
		for (unsigned v = 0; v < 3; v++)
			mpc_sample_free(s[v]);
		mpc_layout_free(l);
		free(buf);
	}
	mpc_db_free(db);
	CHECK(!why[0], "%s", why);
	CHECK(ncmp > 600, "%u dumps compared", ncmp);
}

TESTS(tests_decode) = {
	{ "decode: v5 dump, sparse core mask 0xb, 2 L2 slices, unaligned buffer", test_v5_sparse },
	{ "decode: v4 dump, two core groups, absent cores and reserved blocks", test_v4_core_groups },
	{ "decode: v4 T720 named counter", test_v4_t720_names },
	{ "decode: 64-bit accumulation past 2^32 and saturation flag",
	  test_accumulate_64bit_and_saturation },
	{ "decode: counters outside the enable mask are not collected", test_enable_mask },
	{ "decode: enable bits beyond the block's groups are ignored", test_enable_high_bits },
	{ "decode: Mali G1 128-counter blocks and shift", test_g1_128 },
	{ "decode: CSF firmware and CSG blocks; the 1.0 answers of their kinds", test_csf_fw_csg },
	{ "decode: gpu_info text of interfaces.rst", test_gpu_info_example },
	{ "decode: a description edited after finishing is refused", test_layout_refuses_edited_desc },
	{ "decode: the opaque objects through their public accessors", test_public_accessors },
	{ "decode: the vector paths give the portable loops' samples", test_vector_paths },
	END_TESTS
};
