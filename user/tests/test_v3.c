// SPDX-License-Identifier: MIT
/*
 * uAPI revision 3 on the library's side (lib/v3.c): which dump slot a
 * session sample's block lands in (v4 and v5 layouts, sparse cores, two L2
 * slices), a sample laid out again as a dump the decoder reads (values,
 * the enable word, sums past 32 bits clamped and flagged SATURATED), and
 * malformed samples refused. Expected slots come from the layouts of
 * Documentation/interfaces.rst, not from v3.c.
 */
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

	/* a 64-bit sum past 32 bits: clamped, SATURATED */
	n = mk_sample(sample, 0x100000005ULL);
	CHECK_OK(mpc_v3_to_dump(&d, sample, n, dump, sizeof(dump), &flags, &err), err);
	CHECK(dump[7 * 64 + 63] == 0xffffffff, "clamped: 0x%x", dump[7 * 64 + 63]);
	CHECK(flags & MALI_PERFCNT_DATA_SATURATED, "flags 0x%x", flags);
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

const struct test tests_v3[] = {
	{ "v3_slots_v5", test_v3_slots_v5 },
	{ "v3_slots_v4", test_v3_slots_v4 },
	{ "v3_to_dump", test_v3_to_dump },
	{ "v3_malformed", test_v3_malformed },
	{ NULL, NULL },
};
