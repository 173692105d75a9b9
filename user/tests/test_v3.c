// SPDX-License-Identifier: MIT
/*
 * uAPI revision 3 on the library's side (lib/v3.c): which dump slot a
 * session sample's block lands in (v4 and v5 layouts, sparse cores, two L2
 * slices), a sample added to a struct mpc_sample with its 64-bit values
 * whole (values past 32 bits exact, SATURATED only from the header, the
 * derived metrics over them, accumulation and a mix with 32-bit dumps), a
 * sample laid out again as a 32-bit dump for mpc_dev_sample() (values, the
 * enable word, sums past 32 bits clamped and flagged SATURATED there), and
 * malformed samples refused. Expected slots come from the layouts of
 * Documentation/interfaces.rst, not from v3.c.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test.h"
#include "mali_perfcnt_drm.h"

#define NV 64
#define BLK (sizeof(struct drm_mali_perfcnt_block_header) + NV * 8)

/* The database the descriptions point into, loaded once, freed at exit. */
static struct mpc_db *v3_db;

static void v3_db_free(void)
{
	mpc_db_free(v3_db);
}

static struct mpc_db *db(void)
{
	if (!v3_db) {
		v3_db = t_db();
		atexit(v3_db_free);
	}
	return v3_db;
}

static int g52_desc(struct mpc_desc *d)
{
	struct mpc_err err = { 0 };

	return mpc_desc_from_gpu(d, mpc_db_find_gpu(db(), "g52"), 0xb, 2, &err);
}

static void test_v3_slots_v5(void)
{
	struct mpc_desc d;

	CHECK(g52_desc(&d) == 0, "g52 description");
	CHECK(mpc_v3_slot(&d, MALI_PERFCNT_BLOCK_JM, 0) == 0, "jm");
	CHECK(mpc_v3_slot(&d, MALI_PERFCNT_BLOCK_TILER, 0) == 1, "tiler");
	CHECK(mpc_v3_slot(&d, MALI_PERFCNT_BLOCK_MMU_L2, 1) == 3, "l2.1");
	CHECK(mpc_v3_slot(&d, MALI_PERFCNT_BLOCK_MMU_L2, 2) == -1, "l2.2 does not exist");
	CHECK(mpc_v3_slot(&d, MALI_PERFCNT_BLOCK_SHADER, 0) == 4, "shader.0");
	CHECK(mpc_v3_slot(&d, MALI_PERFCNT_BLOCK_SHADER, 3) == 7, "shader.3 after the hole");
	CHECK(mpc_v3_slot(&d, MALI_PERFCNT_BLOCK_SHADER, 4) == -1, "shader.4 past the end");
	CHECK(mpc_v3_slot(&d, MALI_PERFCNT_BLOCK_JM, 1) == -1, "jm.1");
	CHECK(mpc_v3_slot(&d, 9, 0) == -1, "unknown type");
}

static void test_v3_slots_v4(void)
{
	struct mpc_err err = { 0 };
	struct mpc_desc d;

	CHECK(mpc_desc_from_gpu(&d, mpc_db_find_gpu(db(), "t720"), 0x3, 1, &err) == 0,
	      "t720: %s", err.msg);
	CHECK(mpc_v3_slot(&d, MALI_PERFCNT_BLOCK_SHADER, 1) == 1, "shader.1");
	CHECK(mpc_v3_slot(&d, MALI_PERFCNT_BLOCK_TILER, 0) == 4, "tiler");
	CHECK(mpc_v3_slot(&d, MALI_PERFCNT_BLOCK_MMU_L2, 0) == 5, "l2");
	CHECK(mpc_v3_slot(&d, MALI_PERFCNT_BLOCK_JM, 0) == 7, "jm is slot 7");
}

/* A session sample of @n blocks: jm with counters 4-7 and tiler with all */
static size_t mk_sample(unsigned char *buf, uint64_t big)
{
	struct drm_mali_perfcnt_sample_header h = { 0 };
	struct drm_mali_perfcnt_block_header b = { 0 };
	unsigned char *p = buf + sizeof(h);
	uint64_t v[NV];

	h.start_ns = 10;
	h.end_ns = 20;
	h.flags = MALI_PERFCNT_DATA_FIRST;
	h.nr_blocks = 2;
	h.size = sizeof(h) + 2 * BLK;
	memcpy(buf, &h, sizeof(h));

	b.block_type = MALI_PERFCNT_BLOCK_JM;
	b.nr_values = NV;
	b.enable_mask = 0xf0;
	memset(v, 0, sizeof(v));
	v[6] = 1234;
	memcpy(p, &b, sizeof(b));
	memcpy(p + sizeof(b), v, sizeof(v));
	p += BLK;

	b.block_type = MALI_PERFCNT_BLOCK_SHADER;
	b.instance = 3;
	b.enable_mask = ~0xfULL;
	for (unsigned c = 0; c < NV; c++)
		v[c] = c < 4 ? 0 : c;
	v[63] = big;
	memcpy(p, &b, sizeof(b));
	memcpy(p + sizeof(b), v, sizeof(v));
	return h.size;
}

static void test_v3_to_dump(void)
{
	unsigned char sample[64 + 2 * BLK];
	struct mpc_err err = { 0 };
	uint32_t dump[8 * 64], flags = 0;
	struct mpc_desc d;
	size_t n;

	CHECK(g52_desc(&d) == 0, "g52 description");
	n = mk_sample(sample, 77);
	CHECK_OK(mpc_v3_to_dump(&d, sample, n, dump, sizeof(dump), &flags, &err), err);
	CHECK(flags == MALI_PERFCNT_DATA_FIRST, "flags 0x%x", flags);
	CHECK(dump[0 * 64 + 6] == 1234, "jm[6] %u", dump[6]);
	CHECK(dump[0 * 64 + 2] == 0x3, "jm enable word 0x%x", dump[2]);
	CHECK(dump[7 * 64 + 2] == 0xffff, "shader.3 enable word 0x%x", dump[7 * 64 + 2]);
	CHECK(dump[7 * 64 + 63] == 77, "shader.3[63] %u", dump[7 * 64 + 63]);
	CHECK(dump[7 * 64 + 10] == 10, "shader.3[10] %u", dump[7 * 64 + 10]);
	CHECK(dump[4 * 64 + 10] == 0, "shader.0 absent from the sample: 0");

	/* a 64-bit sum past 32 bits in a 32-bit dump: clamped, SATURATED */
	n = mk_sample(sample, 0x100000005ULL);
	CHECK_OK(mpc_v3_to_dump(&d, sample, n, dump, sizeof(dump), &flags, &err), err);
	CHECK(dump[7 * 64 + 63] == 0xffffffff, "clamped: 0x%x", dump[7 * 64 + 63]);
	CHECK(flags & MALI_PERFCNT_DATA_SATURATED, "flags 0x%x", flags);
}

/* a G52 (cores 0, 1, 3; two L2 slices) session sample of every block, all counted */
#define G52_BLOCKS 7
#define BIG_ACTIVE (1ULL << 40)			/* jm GPU_ACTIVE (6) */
#define BIG_CORE3 ((1ULL << 32) + 5)		/* shader.3 EXEC_CORE_ACTIVE (26) */
#define CORE01 (1ULL << 39)			/* shaders 0 and 1 EXEC_CORE_ACTIVE */

static size_t mk_g52_sample(unsigned char *buf, uint32_t flags, uint64_t seqno)
{
	static const uint32_t blk[G52_BLOCKS][2] = {
		{ MALI_PERFCNT_BLOCK_JM, 0 }, { MALI_PERFCNT_BLOCK_TILER, 0 },
		{ MALI_PERFCNT_BLOCK_MMU_L2, 0 }, { MALI_PERFCNT_BLOCK_MMU_L2, 1 },
		{ MALI_PERFCNT_BLOCK_SHADER, 0 }, { MALI_PERFCNT_BLOCK_SHADER, 1 },
		{ MALI_PERFCNT_BLOCK_SHADER, 3 },
	};
	struct drm_mali_perfcnt_sample_header h = { 0 };
	unsigned char *p = buf + sizeof(h);

	h.start_ns = 1000 * seqno;
	h.end_ns = 1000 * seqno + 900;
	h.flags = flags;
	h.seqno = seqno;
	h.nr_blocks = G52_BLOCKS;
	h.size = sizeof(h) + G52_BLOCKS * BLK;
	memcpy(buf, &h, sizeof(h));
	for (unsigned b = 0; b < G52_BLOCKS; b++) {
		struct drm_mali_perfcnt_block_header bh = { 0 };
		uint64_t v[NV];

		bh.block_type = blk[b][0];
		bh.instance = blk[b][1];
		bh.nr_values = NV;
		bh.enable_mask = ~0xfULL;
		for (unsigned c = 0; c < NV; c++)
			v[c] = c < 4 ? 0 : 100 * b + c;
		if (b == 0)
			v[6] = BIG_ACTIVE;
		if (b == 4 || b == 5)
			v[26] = CORE01;
		if (b == 6)
			v[26] = BIG_CORE3;
		memcpy(p, &bh, sizeof(bh));
		memcpy(p + sizeof(bh), v, sizeof(v));
		p += BLK;
	}
	return h.size;
}

/* the sample's block index of kind @kind instance @inst, or -1 */
static int blk_of(const struct mpc_sample *s, unsigned kind, unsigned inst)
{
	for (unsigned b = 0; b < mpc_sample_nblocks(s); b++)
		if (mpc_sample_block_kind(s, b) == kind && mpc_sample_block_instance(s, b) == inst)
			return (int)b;
	return -1;
}

static void test_v3_add_session(void)
{
	unsigned char sample[64 + G52_BLOCKS * BLK];
	const struct mpc_gpu_def *g = mpc_db_find_gpu(db(), "g52");
	struct mpc_dump_info di = { .start_ns = 7, .end_ns = 8 };
	struct mpc_err err = { 0 };
	struct mpc_layout *l = NULL;
	struct mpc_sample *s = NULL;
	struct mpc_desc d;
	uint64_t v;
	unsigned fl;
	size_t n;
	int jm, sh3;

	CHECK(g52_desc(&d) == 0, "g52 description");
	CHECK_OK(mpc_layout_new(&d, &l, &err), err);
	if (mpc_sample_new(l, &s, &err)) {
		mpc_layout_free(l);
		CHECK(0, "mpc_sample_new: %s", err.msg);
	}
	jm = blk_of(s, MPC_BLK_JM, 0);
	sh3 = blk_of(s, MPC_BLK_SHADER, 3);
	n = mk_g52_sample(sample, MALI_PERFCNT_DATA_FIRST, 1);
	if (mpc_sample_add_session(s, sample, n, &di, &err))
		goto fail_err;
	/* exactly the 64-bit values, nothing saturated */
	fl = mpc_sample_block_value(s, (unsigned)jm, 6, &v);
	if (fl != MPC_VAL_OK || v != BIG_ACTIVE)
		goto fail_jm;
	fl = mpc_sample_block_value(s, (unsigned)sh3, 26, &v);
	if (fl != MPC_VAL_OK || v != BIG_CORE3)
		goto fail_sh3;
	fl = mpc_sample_counter(s, g, "GPU_ACTIVE", -1, &v);
	if (fl != MPC_VAL_OK || v != BIG_ACTIVE)
		goto fail_jm;
	fl = mpc_sample_counter(s, g, "EXEC_CORE_ACTIVE", -1, &v);
	if (fl != MPC_VAL_OK || v != 2 * CORE01 + BIG_CORE3) {
		t_fail(__FILE__, __LINE__, "EXEC_CORE_ACTIVE of all cores %llu flags %u, want %llu",
		       (unsigned long long)v, fl, (unsigned long long)(2 * CORE01 + BIG_CORE3));
		goto out;
	}
	fl = mpc_sample_block_value(s, (unsigned)sh3, 10, &v);
	if (fl != MPC_VAL_OK || v != 610) {
		t_fail(__FILE__, __LINE__, "shader.3[10] %llu flags %u", (unsigned long long)v, fl);
		goto out;
	}
	if (mpc_sample_data_flags(s) != MPC_DATA_FIRST || di.flags != MPC_DATA_FIRST ||
	    di.seqno != 1 || di.timestamp_ns != 1900 || di.interval_start_ns != 1000 ||
	    di.start_ns != 7 || di.end_ns != 8 || mpc_sample_seqno(s) != 1 ||
	    mpc_sample_interval_start_ns(s) != 1000 || mpc_sample_timestamp_ns(s) != 1900) {
		t_fail(__FILE__, __LINE__, "flags 0x%x (di 0x%x), seqno %llu, times %llu..%llu",
		       mpc_sample_data_flags(s), di.flags, (unsigned long long)di.seqno,
		       (unsigned long long)di.interval_start_ns,
		       (unsigned long long)di.timestamp_ns);
		goto out;
	}

	/* the derived metrics over the 64-bit sums */
	{
		struct mpc_prog *p = NULL;
		struct mpc_config c;
		double out[512];
		int ut, at;

		if (mpc_prog_new(db(), g, l, &p, &err))
			goto fail_err;
		mpc_config_init(&c, &d, l, g, 2.0);
		c.v[MPC_CFG_GPU_FREQ_HZ] = 1e9;
		ut = mpc_prog_find(p, "MaliCoreUtil");
		at = mpc_prog_find(p, "MpcGPUActiveTime");
		if (ut < 0 || at < 0 || mpc_prog_count(p) > 512) {
			mpc_prog_free(p);
			t_fail(__FILE__, __LINE__, "metrics %d %d of %u", ut, at, mpc_prog_count(p));
			goto out;
		}
		mpc_prog_eval(p, s, &c, out);
		if (!t_close(out[at], (double)BIG_ACTIVE / 1e9) ||
		    !t_close(out[ut], (double)(2 * CORE01 + BIG_CORE3) / 3 / (double)BIG_ACTIVE * 100)) {
			t_fail(__FILE__, __LINE__, "MpcGPUActiveTime %.17g s, MaliCoreUtil %.17g %%",
			       out[at], out[ut]);
			mpc_prog_free(p);
			goto out;
		}
		mpc_prog_eval_instance(p, s, &c, MPC_BLK_SHADER, 3, out);
		if (!t_close(out[ut], (double)BIG_CORE3 / 3 / (double)BIG_ACTIVE * 100)) {
			t_fail(__FILE__, __LINE__, "MaliCoreUtil of core 3 %.17g %%", out[ut]);
			mpc_prog_free(p);
			goto out;
		}
		mpc_prog_free(p);
	}

	/* a second sample adds, in 64 bits; the kernel's SATURATED is kept */
	n = mk_g52_sample(sample, MALI_PERFCNT_DATA_SATURATED, 2);
	if (mpc_sample_add_session(s, sample, n, NULL, &err))
		goto fail_err;
	fl = mpc_sample_counter(s, g, "GPU_ACTIVE", -1, &v);
	if (fl != MPC_VAL_OK || v != 2 * BIG_ACTIVE)
		goto fail_jm;
	if (mpc_sample_data_flags(s) != (MPC_DATA_FIRST | MPC_DATA_SATURATED) ||
	    mpc_sample_ndumps(s) != 2 || mpc_sample_seqno(s) != 2 ||
	    mpc_sample_interval_start_ns(s) != 1000) {
		t_fail(__FILE__, __LINE__, "after two: flags 0x%x, %u dumps, seqno %llu",
		       mpc_sample_data_flags(s), mpc_sample_ndumps(s),
		       (unsigned long long)mpc_sample_seqno(s));
		goto out;
	}

	/* a reset forgets; one sample with SATURATED in its header reports it */
	mpc_sample_reset(s);
	n = mk_g52_sample(sample, MALI_PERFCNT_DATA_SATURATED, 3);
	if (mpc_sample_add_session(s, sample, n, &di, &err))
		goto fail_err;
	fl = mpc_sample_block_value(s, (unsigned)sh3, 26, &v);
	if (fl != MPC_VAL_OK || v != BIG_CORE3)
		goto fail_sh3;
	if (mpc_sample_data_flags(s) != MPC_DATA_SATURATED || di.flags != MPC_DATA_SATURATED) {
		t_fail(__FILE__, __LINE__, "SATURATED in the header: flags 0x%x (di 0x%x)",
		       mpc_sample_data_flags(s), di.flags);
		goto out;
	}

	/* a 32-bit dump after it adds to the 64-bit sums, and a session sample after that */
	{
		uint32_t dump[8 * 64];

		memset(dump, 0, sizeof(dump));
		for (unsigned b = 0; b < 8; b++)
			dump[b * 64 + 2] = 0xffff;
		dump[0 * 64 + 6] = 3;
		dump[7 * 64 + 26] = 4;
		if (mpc_sample_add(s, dump, sizeof(dump), NULL, &err))
			goto fail_err;
		if (mpc_sample_add_session(s, sample, n, NULL, &err))
			goto fail_err;
	}
	fl = mpc_sample_counter(s, g, "GPU_ACTIVE", -1, &v);
	if (fl != MPC_VAL_OK || v != 2 * BIG_ACTIVE + 3)
		goto fail_jm;
	fl = mpc_sample_block_value(s, (unsigned)sh3, 26, &v);
	if (fl != MPC_VAL_OK || v != 2 * BIG_CORE3 + 4)
		goto fail_sh3;

	/* a malformed sample changes nothing */
	((struct drm_mali_perfcnt_block_header *)(sample + 64 + 6 * BLK))->instance = 2;
	if (mpc_sample_add_session(s, sample, n, NULL, &err) != -EPROTO || !t_one_line(err.msg)) {
		t_fail(__FILE__, __LINE__, "shader.2 (a hole) accepted, or: %s", err.msg);
		goto out;
	}
	((struct drm_mali_perfcnt_block_header *)(sample + 64 + 6 * BLK))->instance = 1;
	if (mpc_sample_add_session(s, sample, n, NULL, &err) != -EPROTO) {
		t_fail(__FILE__, __LINE__, "shader.1 twice accepted");
		goto out;
	}
	fl = mpc_sample_counter(s, g, "GPU_ACTIVE", -1, &v);
	if (fl != MPC_VAL_OK || v != 2 * BIG_ACTIVE + 3 || mpc_sample_ndumps(s) != 3)
		goto fail_jm;

	/* masks: jm counts 4-7 only, shader.3 all, the others are not in the sample */
	{
		unsigned char small[64 + 2 * BLK];
		size_t m = mk_sample(small, 77);
		int sh0 = blk_of(s, MPC_BLK_SHADER, 0);

		mpc_sample_reset(s);
		if (mpc_sample_add_session(s, small, m, NULL, &err))
			goto fail_err;
		fl = mpc_sample_block_value(s, (unsigned)jm, 6, &v);
		if (fl != MPC_VAL_OK || v != 1234)
			goto fail_jm;
		if (mpc_sample_block_value(s, (unsigned)jm, 8, &v) != MPC_VAL_NOT_COLLECTED ||
		    mpc_sample_block_value(s, (unsigned)sh0, 10, &v) != MPC_VAL_NOT_COLLECTED ||
		    mpc_sample_block_enable(s, (unsigned)jm) != 0x3 ||
		    mpc_sample_block_value(s, (unsigned)sh3, 63, &v) != MPC_VAL_OK || v != 77) {
			t_fail(__FILE__, __LINE__, "masks: jm enable 0x%x, shader.3[63] %llu",
			       mpc_sample_block_enable(s, (unsigned)jm), (unsigned long long)v);
			goto out;
		}
	}
	goto out;

fail_err:
	t_fail(__FILE__, __LINE__, "%s", err.msg);
	goto out;
fail_jm:
	t_fail(__FILE__, __LINE__, "GPU_ACTIVE %llu (0x%llx) flags %u", (unsigned long long)v,
	       (unsigned long long)v, fl);
	goto out;
fail_sh3:
	t_fail(__FILE__, __LINE__, "shader.3 EXEC_CORE_ACTIVE %llu (0x%llx) flags %u",
	       (unsigned long long)v, (unsigned long long)v, fl);
out:
	mpc_sample_free(s);
	mpc_layout_free(l);
}

/* SESSION_OPEN's properties: the masks, and a period for a clock past 2^30 Hz */
static void test_v3_open_args(void)
{
	struct drm_mali_perfcnt_ext_set_property p[MPC_V3_OPEN_PROPS];
	const struct mpc_enable en = { 1, 1, 0x1, 0x2, 0x4, 0x8 };
	const struct drm_mali_perfcnt_ext_set_property *q;
	struct drm_mali_perfcnt_session_open o;
	unsigned n;

	mpc_v3_open_args(NULL, 800000000, &o, p);
	CHECK(!o.extensions && o.counter_set == 0, "800 MHz, no masks: no property");
	mpc_v3_open_args(NULL, 5000000000ULL, &o, p);
	q = (const void *)(uintptr_t)o.extensions;
	CHECK(q && q->property == MALI_PERFCNT_PROP_PERIOD_NS && !q->base.next_extension &&
	      q->base.name == MALI_PERFCNT_EXT_SET_PROPERTY,
	      "5 GHz: one period property");
	/* 2^30 cycles at 5 GHz: 214.7 ms, a quarter of what a counter holds */
	CHECK(q->value == 214748364, "5 GHz: period %llu ns", (unsigned long long)q->value);
	mpc_v3_open_args(&en, 5000000000ULL, &o, p);
	CHECK(o.counter_set == 1, "counter set %u", o.counter_set);
	n = 0;
	for (q = (const void *)(uintptr_t)o.extensions; q;
	     q = (const void *)(uintptr_t)q->base.next_extension, n++)
		CHECK(n < 5 && q->property == n + 1 && q->value == (n < 4 ? 1u << n : 214748364),
		      "property %u: %u = %llu", n, q->property, (unsigned long long)q->value);
	CHECK(n == 5, "%u properties", n);
}

static void test_v3_malformed(void)
{
	unsigned char sample[64 + 2 * BLK];
	struct drm_mali_perfcnt_sample_header *h = (void *)sample;
	struct mpc_err err = { 0 };
	uint32_t dump[8 * 64], flags;
	struct mpc_desc d;
	size_t n;

	CHECK(g52_desc(&d) == 0, "g52 description");
	n = mk_sample(sample, 1);
	CHECK(mpc_v3_to_dump(&d, sample, 32, dump, sizeof(dump), &flags, &err) == -EPROTO,
	      "short header");
	CHECK(mpc_v3_to_dump(&d, sample, n - 8, dump, sizeof(dump), &flags, &err) == -EPROTO,
	      "size past the buffer");
	h->nr_blocks = 3;
	CHECK(mpc_v3_to_dump(&d, sample, n, dump, sizeof(dump), &flags, &err) == -EPROTO,
	      "a block past the end");
	n = mk_sample(sample, 1);
	((struct drm_mali_perfcnt_block_header *)(sample + 64 + BLK))->instance = 2;
	CHECK(mpc_v3_to_dump(&d, sample, n, dump, sizeof(dump), &flags, &err) == -EPROTO,
	      "shader.2 is a hole of this GPU");
	CHECK(t_one_line(err.msg), "one-line message: %s", err.msg);
	n = mk_sample(sample, 1);
	CHECK(mpc_v3_to_dump(&d, sample, n, dump, sizeof(dump) - 4, &flags, &err) == -EINVAL,
	      "small dump buffer");
}

/* block @b (mk_g52_sample()'s order) of @sample gets power_state @ps */
static void set_power(unsigned char *sample, unsigned b, uint32_t ps)
{
	memcpy(sample + 64 + b * BLK + offsetof(struct drm_mali_perfcnt_block_header, power_state),
	       &ps, sizeof(ps));
}

/* mpc_sample_block_power() of every block of @s, "k.i=S " each (S: the value) */
static const char *powers(const struct mpc_sample *s, char *buf, size_t n)
{
	size_t o = 0;

	buf[0] = 0;
	for (unsigned b = 0; b < mpc_sample_nblocks(s) && o < n; b++)
		o += (size_t)snprintf(buf + o, n - o, "%s%s.%u=%d", b ? " " : "",
				      mpc_block_name(mpc_sample_block_kind(s, b)),
				      mpc_sample_block_instance(s, b), mpc_sample_block_power(s, b));
	return buf;
}

#define POWER_FLAGS (MPC_DATA_POWER_PARTIAL | MPC_DATA_POWER_OFF)

/*
 * Blocks' power states: a session sample's power_state per block (ON 1,
 * PARTIAL 2, OFF 3, a newer value UNKNOWN 0) and the sample's
 * POWER_PARTIAL / POWER_OFF flags; a second sample joins them (ON then OFF
 * is PARTIAL), a block it leaves out is UNKNOWN; a raw dump (mpc_decode(),
 * no states) makes every block UNKNOWN until a reset; a dump with states
 * per slot (mpc_sample_add_power(), kbase's path); the flags of a ring
 * record and a 32-bit dump of the sample; bad arguments.
 */
static void test_v3_block_power(void)
{
	unsigned char sample[64 + G52_BLOCKS * BLK];
	uint8_t slot_power[8];
	struct mpc_dump_info di = { 0 };
	struct mpc_err err = { 0 };
	struct mpc_record rec;
	struct mpc_layout *l = NULL;
	struct mpc_sample *s = NULL;
	struct mpc_desc d;
	uint32_t *dump = NULL;
	char got[256];
	size_t n;

	CHECK(g52_desc(&d) == 0, "g52 description");
	CHECK_OK(mpc_layout_new(&d, &l, &err), err);
	if (mpc_sample_new(l, &s, &err)) {
		mpc_layout_free(l);
		CHECK(0, "mpc_sample_new: %s", err.msg);
	}
	dump = calloc(1, d.dump_size);
#define T(cond, ...) do { if (!(cond)) { t_fail(__FILE__, __LINE__, __VA_ARGS__); goto out; } \
			  } while (0)
	T(dump, "out of memory");
	T(mpc_sample_block_power(NULL, 0) == -EINVAL, "a NULL sample: %d",
	  mpc_sample_block_power(NULL, 0));
	T(mpc_sample_block_power(s, mpc_sample_nblocks(s)) == -ERANGE &&
	  mpc_sample_block_power(s, ~0u) == -ERANGE, "a block past the last: %d",
	  mpc_sample_block_power(s, mpc_sample_nblocks(s)));
	T(!strcmp(powers(s, got, sizeof(got)), "jm.0=0 tiler.0=0 l2.0=0 l2.1=0 shader.0=0 "
		  "shader.1=0 shader.3=0"), "no dump yet: %s", got);

	/* jm ON, tiler PARTIAL, shader.0 OFF, shader.3 a value no revision has */
	n = mk_g52_sample(sample, MALI_PERFCNT_DATA_FIRST, 1);
	set_power(sample, 1, MALI_PERFCNT_POWER_PARTIAL);
	set_power(sample, 4, MALI_PERFCNT_POWER_OFF);
	set_power(sample, 6, 7);
	T(mpc_sample_add_session(s, sample, n, &di, &err) == 0, "%s", err.msg);
	T(!strcmp(powers(s, got, sizeof(got)), "jm.0=1 tiler.0=2 l2.0=1 l2.1=1 shader.0=3 "
		  "shader.1=1 shader.3=0"), "one sample: %s", got);
	T(di.flags == (MPC_DATA_FIRST | POWER_FLAGS) && mpc_sample_data_flags(s) == di.flags,
	  "flags 0x%x, sample's 0x%x", di.flags, mpc_sample_data_flags(s));
	mpc_v3_ring_record(sample, &rec);
	T(rec.data_flags == (MPC_DATA_FIRST | POWER_FLAGS), "ring record flags 0x%x",
	  rec.data_flags);
	memset(&di, 0, sizeof(di));
	T(mpc_v3_sample_dump(&d, sample, n, dump, d.dump_size, &di, &err) == 0, "%s", err.msg);
	/* (its values past 32 bits clamped: SATURATED too) */
	T(di.flags == (MPC_DATA_FIRST | MPC_DATA_SATURATED | POWER_FLAGS),
	  "32-bit dump's flags 0x%x", di.flags);

	/* then jm OFF, shader.0 still OFF, l2.1 left out; only OFF blocks this time */
	n = mk_g52_sample(sample, 0, 2);
	set_power(sample, 0, MALI_PERFCNT_POWER_OFF);
	set_power(sample, 4, MALI_PERFCNT_POWER_OFF);
	{
		struct drm_mali_perfcnt_sample_header h;

		/* l2.1 (block 3) replaced by shader.3's, the last one dropped */
		memmove(sample + 64 + 3 * BLK, sample + 64 + 4 * BLK, 3 * BLK);
		memcpy(&h, sample, sizeof(h));
		h.nr_blocks--;
		h.size -= (uint32_t)BLK;
		n = h.size;
		memcpy(sample, &h, sizeof(h));
	}
	memset(&di, 0, sizeof(di));
	T(mpc_sample_add_session(s, sample, n, &di, &err) == 0, "%s", err.msg);
	T(di.flags == MPC_DATA_POWER_OFF, "second sample's flags 0x%x", di.flags);
	T(mpc_sample_data_flags(s) == (MPC_DATA_FIRST | POWER_FLAGS), "joined flags 0x%x",
	  mpc_sample_data_flags(s));
	T(!strcmp(powers(s, got, sizeof(got)), "jm.0=2 tiler.0=2 l2.0=1 l2.1=0 shader.0=3 "
		  "shader.1=1 shader.3=0"), "two samples: %s", got);

	/* a raw dump says nothing: every block UNKNOWN, until a reset */
	T(mpc_v3_to_dump(&d, sample, n, dump, d.dump_size, &(uint32_t){ 0 }, &err) == 0, "%s",
	  err.msg);
	T(mpc_decode(s, dump, d.dump_size, &err) == 0, "%s", err.msg);
	T(mpc_sample_block_power(s, 0) == MPC_POWER_UNKNOWN &&
	  mpc_sample_block_power(s, 4) == MPC_POWER_UNKNOWN, "after a raw dump: %s",
	  powers(s, got, sizeof(got)));
	n = mk_g52_sample(sample, 0, 3);
	T(mpc_sample_add_session(s, sample, n, NULL, &err) == 0, "%s", err.msg);
	T(mpc_sample_block_power(s, 0) == MPC_POWER_UNKNOWN, "a session sample after a raw dump");
	mpc_sample_reset(s);
	T(mpc_sample_add_session(s, sample, n, NULL, &err) == 0, "%s", err.msg);
	T(!strcmp(powers(s, got, sizeof(got)), "jm.0=1 tiler.0=1 l2.0=1 l2.1=1 shader.0=1 "
		  "shader.1=1 shader.3=1"), "after a reset: %s", got);
	T(!(mpc_sample_data_flags(s) & POWER_FLAGS), "flags 0x%x", mpc_sample_data_flags(s));

	/* a 32-bit dump with states per slot: jm, tiler, l2.0-1, shader slots 0-3 */
	mpc_sample_reset(s);
	memset(slot_power, MPC_POWER_ON, sizeof(slot_power));
	slot_power[6] = MPC_POWER_OFF;		/* the hole of core 2: ignored */
	slot_power[7] = MPC_POWER_PARTIAL;	/* shader.3 */
	T(mpc_sample_add_power(s, dump, d.dump_size, NULL, slot_power, &err) == 0, "%s", err.msg);
	T(!strcmp(powers(s, got, sizeof(got)), "jm.0=1 tiler.0=1 l2.0=1 l2.1=1 shader.0=1 "
		  "shader.1=1 shader.3=2"), "a dump's slot states: %s", got);
	slot_power[2] = MPC_POWER_OFF;		/* l2.0 */
	slot_power[7] = MPC_POWER_ON;
	T(mpc_sample_add_power(s, dump, d.dump_size, NULL, slot_power, &err) == 0, "%s", err.msg);
	T(!strcmp(powers(s, got, sizeof(got)), "jm.0=1 tiler.0=1 l2.0=2 l2.1=1 shader.0=1 "
		  "shader.1=1 shader.3=2"), "two dumps' slot states: %s", got);
	T(mpc_sample_add_power(s, dump, d.dump_size, NULL, NULL, &err) == 0, "%s", err.msg);
	T(mpc_sample_block_power(s, 0) == MPC_POWER_UNKNOWN, "then a dump without states");
	/* joining: the same is that one, ON and OFF PARTIAL, UNKNOWN stays */
	T(mpc_power_join(MPC_POWER_OFF, MPC_POWER_OFF) == MPC_POWER_OFF &&
	  mpc_power_join(MPC_POWER_ON, MPC_POWER_OFF) == MPC_POWER_PARTIAL &&
	  mpc_power_join(MPC_POWER_PARTIAL, MPC_POWER_ON) == MPC_POWER_PARTIAL &&
	  mpc_power_join(MPC_POWER_ON, MPC_POWER_UNKNOWN) == MPC_POWER_UNKNOWN &&
	  mpc_power_join(MPC_POWER_UNKNOWN, MPC_POWER_OFF) == MPC_POWER_UNKNOWN, "mpc_power_join");
#undef T
out:
	free(dump);
	mpc_sample_free(s);
	mpc_layout_free(l);
}

const struct test tests_v3[] = {
	{ "v3_slots_v5", test_v3_slots_v5 },
	{ "v3_slots_v4", test_v3_slots_v4 },
	{ "v3_to_dump", test_v3_to_dump },
	{ "v3_add_session", test_v3_add_session },
	{ "v3_open_args", test_v3_open_args },
	{ "v3_malformed", test_v3_malformed },
	{ "v3_block_power", test_v3_block_power },
	{ NULL, NULL },
};
