// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests of mali_perfcnt's pure logic (kernel/core/mpc_layout.c): dump
 * layout and size for the v4 and v5 layouts, block slots and the enable
 * masks. GPU_ID recognition is tested in mpc_gpu_test.c, the debugfs
 * enable text in mpc_debugfs_test.c.
 *
 * Expected values come from the hardware's documented layouts and the
 * uAPI/interfaces documentation, never from the code under test. The file
 * includes mpc_layout.c, as the other test files include theirs.
 */
#include <kunit/test.h>
#include <linux/bitops.h>
#include <linux/string.h>

#include "../core/mpc_layout.c"

/* Dump layout and size */

struct mpc_layout_case {
	const char *what;
	bool v4;
	u64 shader_present;
	u64 l2_present;
	u32 mem_features;
	int ret;
	u32 nr_l2, nr_core_groups, nr_shader_blocks, nr_blocks, dump_size;
};

static const struct mpc_layout_case mpc_layout_cases[] = {
	/* v5: jm, tiler, one block per L2 slice, one per core bit position */
	{ "v5 g52 0xb 2 slices", false, 0xb, 0x1, 0x101, 0, 2, 1, 4, 8, 2048 },
	{ "v5 t860 0xf", false, 0xf, 0x1, 0x0, 0, 1, 1, 4, 7, 1792 },
	{ "v5 one core", false, 0x1, 0x1, 0x0, 0, 1, 1, 1, 4, 1024 },
	{ "v5 core 63 only", false, BIT_ULL(63), 0x1, 0x0, 0, 1, 1, 64, 67, 17152 },
	{ "v5 16 slices", false, 0xff, 0x1, 0xf00, 0, 16, 1, 8, 26, 6656 },
	{ "v5 slices field only", false, 0x3, 0x1, 0xfffff0ff, 0, 1, 1, 2, 5, 1280 },
	/* v4: 8 blocks per core group, one core group per L2 */
	{ "v4 t720 0x3", true, 0x3, 0x1, 0x0, 0, 1, 1, 4, 8, 2048 },
	{ "v4 two groups", true, 0xff, 0x3, 0x0, 0, 2, 2, 8, 16, 4096 },
	{ "v4 second group sparse", true, 0x1f, 0x3, 0x0, 0, 2, 2, 8, 16, 4096 },
	{ "v4 core past its group", true, 0x10, 0x1, 0x0, -EINVAL },
	{ "no shader cores", false, 0x0, 0x1, 0x0, -EINVAL },
	{ "no L2", false, 0x1, 0x0, 0x0, -EINVAL },
	{ "v4 no L2", true, 0x1, 0x0, 0x0, -EINVAL },
};

static void mpc_test_layout_compute(struct kunit *test)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(mpc_layout_cases); i++) {
		const struct mpc_layout_case *c = &mpc_layout_cases[i];
		struct mpc_layout l;
		int ret;

		memset(&l, 0xa5, sizeof(l));
		ret = mpc_layout_compute(&l, c->v4, c->shader_present, c->l2_present,
					 c->mem_features);
		KUNIT_EXPECT_EQ_MSG(test, ret, c->ret, "%s", c->what);
		if (ret || c->ret) {
			/* A rejected GPU leaves no stale layout behind */
			KUNIT_EXPECT_EQ_MSG(test, l.dump_size, 0, "%s", c->what);
			KUNIT_EXPECT_EQ_MSG(test, l.nr_blocks, 0, "%s", c->what);
			continue;
		}
		KUNIT_EXPECT_EQ_MSG(test, l.v4, c->v4, "%s", c->what);
		KUNIT_EXPECT_EQ_MSG(test, l.nr_l2, c->nr_l2, "%s", c->what);
		KUNIT_EXPECT_EQ_MSG(test, l.nr_core_groups, c->nr_core_groups, "%s", c->what);
		KUNIT_EXPECT_EQ_MSG(test, l.nr_shader_blocks, c->nr_shader_blocks, "%s",
				    c->what);
		KUNIT_EXPECT_EQ_MSG(test, l.nr_blocks, c->nr_blocks, "%s", c->what);
		KUNIT_EXPECT_EQ_MSG(test, l.dump_size, c->dump_size, "%s", c->what);
		/* uAPI: dump_size = nr_blocks * counters_per_block * 4 */
		KUNIT_EXPECT_EQ_MSG(test, l.dump_size, l.nr_blocks * 64 * 4, "%s", c->what);
	}
}

struct mpc_slot {
	int off;		/* byte offset, or -ENOENT / -EINVAL */
	const char *kind;
	unsigned int instance;
};

static void mpc_check_slots(struct kunit *test, bool v4, u64 shader_present,
			    u64 l2_present, u32 mem_features,
			    const struct mpc_slot *want, unsigned int n)
{
	struct mpc_layout l;
	unsigned int slot;

	KUNIT_ASSERT_EQ(test, mpc_layout_compute(&l, v4, shader_present, l2_present,
						 mem_features), 0);
	KUNIT_ASSERT_EQ(test, l.nr_blocks + 1, n);
	for (slot = 0; slot < n; slot++) {
		const char *kind = NULL;
		unsigned int instance = ~0U;
		int off = mpc_layout_block_offset(&l, shader_present, slot, &kind,
						  &instance);

		KUNIT_EXPECT_EQ_MSG(test, off, want[slot].off, "slot %u", slot);
		if (off < 0 || want[slot].off < 0)
			continue;
		KUNIT_EXPECT_STREQ_MSG(test, kind, want[slot].kind, "slot %u", slot);
		KUNIT_EXPECT_EQ_MSG(test, instance, want[slot].instance, "slot %u", slot);
	}
}

/* Mali-G52, cores 0, 1 and 3, two L2 slices: the documented example. */
static void mpc_test_slots_v5_sparse(struct kunit *test)
{
	static const struct mpc_slot want[] = {
		{ 0, "jm", 0 }, { 256, "tiler", 0 }, { 512, "l2", 0 },
		{ 768, "l2", 1 }, { 1024, "shader", 0 }, { 1280, "shader", 1 },
		{ -ENOENT }, { 1792, "shader", 3 }, { -EINVAL },
	};

	mpc_check_slots(test, false, 0xb, 0x1, 0x101, want, ARRAY_SIZE(want));
}

/* Mali-T720 with two cores: slots 2 and 3 are absent cores. */
static void mpc_test_slots_v4_one_group(struct kunit *test)
{
	static const struct mpc_slot want[] = {
		{ 0, "shader", 0 }, { 256, "shader", 1 }, { -ENOENT }, { -ENOENT },
		{ 1024, "tiler", 0 }, { 1280, "l2", 0 }, { -ENOENT },
		{ 1792, "jm", 0 }, { -EINVAL },
	};

	mpc_check_slots(test, true, 0x3, 0x1, 0, want, ARRAY_SIZE(want));
}

/* Two core groups: the job manager block exists in group 0 only. */
static void mpc_test_slots_v4_two_groups(struct kunit *test)
{
	static const struct mpc_slot want[] = {
		{ 0, "shader", 0 }, { 256, "shader", 1 }, { 512, "shader", 2 },
		{ 768, "shader", 3 }, { 1024, "tiler", 0 }, { 1280, "l2", 0 },
		{ -ENOENT }, { 1792, "jm", 0 },
		{ 2048, "shader", 4 }, { -ENOENT }, { 2560, "shader", 6 },
		{ -ENOENT }, { 3072, "tiler", 1 }, { 3328, "l2", 1 }, { -ENOENT },
		{ -ENOENT }, { -EINVAL },
	};

	mpc_check_slots(test, true, 0x5f, 0x3, 0, want, ARRAY_SIZE(want));
}

/* Whatever the masks, each present core appears exactly once. */
static void mpc_test_slots_cover_cores(struct kunit *test)
{
	static const u64 masks[] = { 0x1, 0xb, 0xf0, 0x8000000000000001ULL, ~0ULL };
	unsigned int i, slot;

	for (i = 0; i < ARRAY_SIZE(masks); i++) {
		u64 seen = 0;
		struct mpc_layout l;

		KUNIT_ASSERT_EQ(test, mpc_layout_compute(&l, false, masks[i], 1, 0x300), 0);
		for (slot = 0; slot < l.nr_blocks; slot++) {
			const char *kind;
			unsigned int inst;

			if (mpc_layout_block_offset(&l, masks[i], slot, &kind, &inst) < 0)
				continue;
			if (strcmp(kind, "shader"))
				continue;
			KUNIT_EXPECT_FALSE(test, seen & BIT_ULL(inst));
			seen |= BIT_ULL(inst);
		}
		KUNIT_EXPECT_EQ_MSG(test, seen, masks[i], "mask 0x%llx", masks[i]);
	}
}

static struct kunit_case mpc_layout_test_cases[] = {
	KUNIT_CASE(mpc_test_layout_compute),
	KUNIT_CASE(mpc_test_slots_v5_sparse),
	KUNIT_CASE(mpc_test_slots_v4_one_group),
	KUNIT_CASE(mpc_test_slots_v4_two_groups),
	KUNIT_CASE(mpc_test_slots_cover_cores),
	{}
};

static struct kunit_suite mpc_layout_suite = {
	.name = "mali_perfcnt_layout",
	.test_cases = mpc_layout_test_cases,
};

/* Enable masks */

static void mpc_test_check_masks(struct kunit *test)
{
	struct mpc_perfcnt_config cfg = {
		.jm = 0xffff, .tiler = 0xffff, .shader = 0xffff, .mmu_l2 = 0xffff,
	};

	KUNIT_EXPECT_EQ(test, mpc_check_masks(&cfg), 0);
	cfg.jm = 0;
	KUNIT_EXPECT_EQ(test, mpc_check_masks(&cfg), 0);
	cfg.tiler = 0x10000;
	KUNIT_EXPECT_EQ(test, mpc_check_masks(&cfg), -EINVAL);
	cfg.tiler = 0;
	cfg.shader = 0x80000000;
	KUNIT_EXPECT_EQ(test, mpc_check_masks(&cfg), -EINVAL);
	cfg.shader = 0;
	cfg.mmu_l2 = 0x1ffff;
	KUNIT_EXPECT_EQ(test, mpc_check_masks(&cfg), -EINVAL);
	cfg.mmu_l2 = 0;
	cfg.jm = 0x20000;
	KUNIT_EXPECT_EQ(test, mpc_check_masks(&cfg), -EINVAL);
}

static struct kunit_case mpc_masks_cases[] = {
	KUNIT_CASE(mpc_test_check_masks),
	{}
};

static struct kunit_suite mpc_masks_suite = {
	.name = "mali_perfcnt_masks",
	.test_cases = mpc_masks_cases,
};

kunit_test_suites(&mpc_layout_suite, &mpc_masks_suite);
