// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests of GPU recognition in kernel/core/mpc_product.c: the product
 * table, the PRLAM-8186 check and the TRANSCFG check, all from GPU_ID alone.
 *
 * Expected values come from the GPU_ID encodings documented for each
 * product, never from the code under test. The file includes
 * mpc_product.c so that its static table can be checked too.
 */
#include <kunit/test.h>
#include <linux/bitops.h>
#include <linux/string.h>

#include "../core/mpc_product.c"

/* GPU_ID recognition */

struct mpc_id_case {
	u32 gpu_id;
	const char *name;
	bool v4;
	u8 nr_sets;
};

static const struct mpc_id_case mpc_id_cases[] = {
	/* Midgard: the whole product id must match */
	{ 0x69560001, "Mali-T600", true, 1 },
	{ 0x06201000, "Mali-T620", true, 1 },
	{ 0x07201000, "Mali-T720", true, 1 },
	{ 0x07500010, "Mali-T760", false, 1 },
	{ 0x08201010, "Mali-T820", false, 1 },
	{ 0x08301000, "Mali-T830", false, 1 },
	{ 0x08602000, "Mali-T860", false, 1 },
	{ 0x08802000, "Mali-T880", false, 1 },
	/* Bifrost: arch major and product major, minor/rev ignored */
	{ 0x60000000, "Mali-G71", false, 2 },
	{ 0x62210030, "Mali-G72", false, 2 },
	{ 0x70901000, "Mali-G51", false, 2 },
	{ 0x72110000, "Mali-G76", false, 2 },
	{ 0x72120000, "Mali-G52", false, 2 },
	{ 0x7ff2ffff, "Mali-G52", false, 2 },
	{ 0x70930000, "Mali-G31", false, 2 },
	/* Valhall-JM, including MediaTek's own G57 product major */
	{ 0x90000000, "Mali-G77", false, 2 },
	{ 0x90010000, "Mali-G57", false, 2 },
	{ 0x90930000, "Mali-G57", false, 2 },
	{ 0x90020000, "Mali-G78", false, 2 },
	{ 0x90040000, "Mali-G68", false, 2 },
	/* Unknown ids still get raw counters */
	{ 0x09990000, "Mali-unknown-midgard", false, 1 },
	{ 0x700f0000, "Mali-unknown", false, 2 },
	{ 0xa0070000, "Mali-unknown", false, 2 },
	/* A Midgard-style id must not match a Bifrost entry by its mask */
	{ 0x07020000, "Mali-unknown-midgard", false, 1 },
};

/*
 * Table-driven cases loop inside one KUnit case: 6.1 keeps only 512 bytes of
 * log per case, too little for the per-parameter lines of a long table.
 */
static void mpc_test_product_lookup(struct kunit *test)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(mpc_id_cases); i++) {
		const struct mpc_id_case *c = &mpc_id_cases[i];
		const struct mpc_product *p = mpc_product_lookup(c->gpu_id);

		KUNIT_ASSERT_NOT_NULL(test, p);
		KUNIT_EXPECT_STREQ_MSG(test, p->name, c->name, "GPU_ID 0x%08x", c->gpu_id);
		KUNIT_EXPECT_EQ_MSG(test, p->v4_layout, c->v4, "GPU_ID 0x%08x", c->gpu_id);
		KUNIT_EXPECT_EQ_MSG(test, p->nr_sets, c->nr_sets, "GPU_ID 0x%08x",
				    c->gpu_id);
	}
}

/* Every entry is found by its own id, and no id matches two entries. */
static void mpc_test_product_table(struct kunit *test)
{
	unsigned int i, j;

	for (i = 0; i < ARRAY_SIZE(mpc_products); i++) {
		const struct mpc_product *p = &mpc_products[i];

		KUNIT_EXPECT_PTR_EQ_MSG(test, mpc_product_lookup((u32)p->id << 16), p,
					"%s (0x%04x)", p->name, p->id);
		KUNIT_EXPECT_EQ_MSG(test, p->id & p->mask, p->id, "%s", p->name);
		KUNIT_EXPECT_EQ_MSG(test, p->v4_layout ? 1 : 0,
				    p->id == GPU_PROD_T600 || p->id == 0x0620 ||
				    p->id == 0x0720 ? 1 : 0, "%s", p->name);
		for (j = i + 1; j < ARRAY_SIZE(mpc_products); j++) {
			const struct mpc_product *q = &mpc_products[j];

			KUNIT_EXPECT_FALSE_MSG(test, (q->id & p->mask) == p->id ||
					       (p->id & q->mask) == q->id,
					       "%s and %s overlap", p->name, q->name);
		}
	}
}

static void mpc_test_hw_issue_8186(struct kunit *test)
{
	/* Only T600 r0p0 with version status 1 ("15dev0") */
	KUNIT_EXPECT_TRUE(test, mpc_has_hw_issue_8186(0x69560001));
	KUNIT_EXPECT_FALSE(test, mpc_has_hw_issue_8186(0x69560000));
	KUNIT_EXPECT_FALSE(test, mpc_has_hw_issue_8186(0x69560002));
	KUNIT_EXPECT_FALSE(test, mpc_has_hw_issue_8186(0x69560011));
	KUNIT_EXPECT_FALSE(test, mpc_has_hw_issue_8186(0x69561001));
	KUNIT_EXPECT_FALSE(test, mpc_has_hw_issue_8186(0x07200001));
	KUNIT_EXPECT_FALSE(test, mpc_has_hw_issue_8186(0x72120001));
}

/* From the architecture in GPU_ID, whatever the number of counter sets */
static void mpc_test_has_transcfg(struct kunit *test)
{
	KUNIT_EXPECT_FALSE(test, mpc_gpu_has_transcfg(0x69560001));	/* T600 */
	KUNIT_EXPECT_FALSE(test, mpc_gpu_has_transcfg(0x07201000));	/* T720 */
	KUNIT_EXPECT_FALSE(test, mpc_gpu_has_transcfg(0x08602000));	/* T860 */
	KUNIT_EXPECT_TRUE(test, mpc_gpu_has_transcfg(0x60002000));	/* G71 */
	KUNIT_EXPECT_TRUE(test, mpc_gpu_has_transcfg(0x72120000));	/* G52 */
	KUNIT_EXPECT_TRUE(test, mpc_gpu_has_transcfg(0x90930000));	/* G57 */
}

static struct kunit_case mpc_gpu_id_cases[] = {
	KUNIT_CASE(mpc_test_product_lookup),
	KUNIT_CASE(mpc_test_product_table),
	KUNIT_CASE(mpc_test_hw_issue_8186),
	KUNIT_CASE(mpc_test_has_transcfg),
	{}
};

static struct kunit_suite mpc_gpu_id_suite = {
	.name = "mali_perfcnt_gpu_id",
	.test_cases = mpc_gpu_id_cases,
};

kunit_test_suite(mpc_gpu_id_suite);
