// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests of the debugfs enable text parser in kernel/core/mpc_debugfs.c.
 *
 * Expected values come from Documentation/interfaces.rst, never from the
 * code under test. The file includes mpc_debugfs.c; what that file calls
 * outside it and no test reaches is stubbed below (the counter unit's
 * enable, disable and sample are the recording fakes of
 * mpc_ioctl_test.c).
 */
#include <kunit/test.h>
#include <linux/string.h>

#include "../core/mpc_debugfs.c"

/* Stubs: never called by these tests */
void mpc_track_alloc(struct mpc_device *mdev, size_t bytes)
{
}

void mpc_track_free(struct mpc_device *mdev, size_t bytes)
{
}

int mpc_perfcnt_set_gpu_va(struct mpc_device *mdev, u64 va)
{
	return -ENODEV;
}

int mpc_perfcnt_unmap(struct mpc_device *mdev)
{
	return -ENODEV;
}

void mpc_perfcnt_status(struct mpc_device *mdev, struct mpc_perfcnt_status *st)
{
	memset(st, 0, sizeof(*st));
}

void mpc_perfcnt_stats(struct mpc_device *mdev, struct mpc_stats *stats)
{
	memset(stats, 0, sizeof(*stats));
}

int mpc_perfcnt_transfer(struct mpc_device *mdev, struct mpc_perfcnt_owner *from,
			 struct mpc_perfcnt_owner *to)
{
	return -ENODATA;
}

const struct file_operations mpc_stream_debugfs_fops = {};

/* The debugfs enable text */

struct mpc_text_case {
	const char *text;
	int ret;
	bool enable;
	u32 set, jm, tiler, shader, l2;
	u32 period_us;
};

#define ALL 0xffff

static const struct mpc_text_case mpc_text_cases[] = {
	{ "1", 0, true, 0, ALL, ALL, ALL, ALL },
	{ "1\n", 0, true, 0, ALL, ALL, ALL, ALL },
	{ "0", 0, false },
	{ "0\n", 0, false },
	{ "set=1 jm=0x1 tiler=0x2 shader=0x3 l2=0x4", 0, true, 1, 1, 2, 3, 4 },
	{ "l2=4 shader=3 tiler=2 jm=1 set=1\n", 0, true, 1, 1, 2, 3, 4 },
	{ "shader=0xf0", 0, true, 0, ALL, ALL, 0xf0, ALL },
	{ "set=0 jm=0 tiler=0 shader=0 l2=0", 0, true, 0, 0, 0, 0, 0 },
	{ "jm=017\ttiler=10  l2=0xF", 0, true, 0, 15, 10, ALL, 15 },
	/* set and mask ranges are the counter unit's to check, not the parser's */
	{ "set=1", 0, true, 1, ALL, ALL, ALL, ALL },
	{ "set=2", 0, true, 2, ALL, ALL, ALL, ALL },
	{ "jm=0x10000", 0, true, 0, 0x10000, ALL, ALL, ALL },
	{ "l2=65536", 0, true, 0, ALL, ALL, ALL, 65536 },
	{ "", -EINVAL },
	{ "\n", -EINVAL },
	{ "2", -EINVAL },
	{ "on", -EINVAL },
	{ "foo=1", -EINVAL },
	{ "jm", -EINVAL },
	{ "jm=", -EINVAL },
	{ "jm=zz", -EINVAL },
	{ "jm=-1", -EINVAL },
	{ "set=4294967296", -EINVAL },
	{ "1\n\n", -EINVAL },
	{ "period_us=1000", 0, true, 0, ALL, ALL, ALL, ALL, 1000 },
	{ "set=1 period_us=100\n", 0, true, 1, ALL, ALL, ALL, ALL, 100 },
	{ "period_us=10000000", 0, true, 0, ALL, ALL, ALL, ALL, 10000000 },
	{ "period_us=99", -EINVAL },
	{ "period_us=10000001", -EINVAL },
	{ "period_us=", -EINVAL },
};

static void mpc_test_enable_text(struct kunit *test)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(mpc_text_cases); i++) {
		const struct mpc_text_case *c = &mpc_text_cases[i];
		struct mpc_perfcnt_config cfg;
		bool enable = !c->enable;
		u32 period_us;
		int ret;

		memset(&cfg, 0xa5, sizeof(cfg));
		ret = mpc_parse_enable_text(c->text, &cfg, &period_us, &enable);
		KUNIT_EXPECT_EQ_MSG(test, ret, c->ret, "case %u \"%s\"", i, c->text);
		if (ret || c->ret)
			continue;
		KUNIT_EXPECT_EQ_MSG(test, enable, c->enable, "case %u", i);
		if (!c->enable)
			continue;
		KUNIT_EXPECT_EQ_MSG(test, cfg.set, c->set, "case %u", i);
		KUNIT_EXPECT_EQ_MSG(test, cfg.jm, c->jm, "case %u", i);
		KUNIT_EXPECT_EQ_MSG(test, cfg.tiler, c->tiler, "case %u", i);
		KUNIT_EXPECT_EQ_MSG(test, cfg.shader, c->shader, "case %u", i);
		KUNIT_EXPECT_EQ_MSG(test, cfg.mmu_l2, c->l2, "case %u", i);
		KUNIT_EXPECT_EQ_MSG(test, period_us, c->period_us, "case %u", i);
	}
}

/* The text is limited to 127 characters, plus one trailing newline. */
static void mpc_test_enable_text_length(struct kunit *test)
{
	struct mpc_perfcnt_config cfg;
	char text[130];
	u32 period_us;
	bool enable;
	size_t len;

	/* "jm=0x000...01" of exactly 127 characters */
	memset(text, '0', sizeof(text));
	memcpy(text, "jm=0x", 5);
	text[126] = '1';
	text[127] = '\0';
	len = strlen(text);
	KUNIT_ASSERT_EQ(test, len, 127);
	KUNIT_EXPECT_EQ(test, mpc_parse_enable_text(text, &cfg, &period_us, &enable), 0);
	KUNIT_EXPECT_EQ(test, cfg.jm, 1);
	KUNIT_EXPECT_TRUE(test, enable);

	text[127] = '\n';
	text[128] = '\0';
	KUNIT_EXPECT_EQ(test, mpc_parse_enable_text(text, &cfg, &period_us, &enable), 0);

	text[127] = '0';
	KUNIT_EXPECT_EQ(test, mpc_parse_enable_text(text, &cfg, &period_us, &enable), -EINVAL);
}

static struct kunit_case mpc_enable_text_cases[] = {
	KUNIT_CASE(mpc_test_enable_text),
	KUNIT_CASE(mpc_test_enable_text_length),
	{}
};

static struct kunit_suite mpc_enable_text_suite = {
	.name = "mali_perfcnt_enable_text",
	.test_cases = mpc_enable_text_cases,
};

kunit_test_suite(mpc_enable_text_suite);
