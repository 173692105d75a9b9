// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests of mali_perfcnt's counter sessions (kernel/core/mpc_session.c):
 * the union of masks, every session taking exactly its own counters out
 * of the sums of the union's hardware samples (two, three and eight
 * sessions with different masks; sessions that start and are sampled at
 * different intervals), 64-bit sums past 2^32, SATURATED only for one
 * hardware interval at 0xffffffff, the per-block power state, the
 * sample encoder's layout, and the ring's one-pass encoder giving the
 * same bytes.
 *
 * Expected values come from the uAPI header's description of a sample
 * (&struct drm_mali_perfcnt_sample_header and what follows) and from the
 * documented meaning of the enable registers (bit n: counters 4n..4n+3),
 * never from the code under test. The file includes mpc_session.c, as the
 * other test files include theirs.
 */
#include <kunit/test.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "../core/mpc_session.c"

/* A G52-like v5 GPU: jm, tiler, 2 L2 slices, cores 0, 1 and 3 (a hole at 2) */
#define T_SP	0xbULL
#define T_SLOTS	8

static void t_layout(struct kunit *test, struct mpc_layout *l)
{
	KUNIT_ASSERT_EQ(test, mpc_layout_compute(l, false, T_SP, 0x1, 0x101), 0);
	KUNIT_ASSERT_EQ(test, l->nr_blocks, T_SLOTS);
}

/* A hardware dump whose every counter is distinct: slot, counter, interval */
static __le32 *t_dump(struct kunit *test, u32 interval)
{
	__le32 *d = kunit_kcalloc(test, T_SLOTS * 64, sizeof(*d), GFP_KERNEL);
	u32 s, c;

	KUNIT_ASSERT_NOT_NULL(test, d);
	for (s = 0; s < T_SLOTS; s++)
		for (c = 0; c < 64; c++)
			d[s * 64 + c] = cpu_to_le32(1000000 * interval + 1000 * s + c + 1);
	return d;
}

static u32 t_mask_of(const struct mpc_perfcnt_config *cfg, u32 slot)
{
	/* slot 0 jm, 1 tiler, 2-3 L2, 4-7 shader cores 0-3 */
	return slot == 0 ? cfg->jm : slot == 1 ? cfg->tiler : slot < 4 ? cfg->mmu_l2 :
	       cfg->shader;
}

static void t_total(struct kunit *test, struct mpc_session_total *t, const struct mpc_layout *l)
{
	memset(t, 0, sizeof(*t));
	KUNIT_ASSERT_EQ(test, mpc_session_total_alloc(t, l), 0);
}

/* A session that starts now (at 100 ns): its sums begin at @t's state */
static void t_acc(struct kunit *test, struct mpc_session_acc *acc, const struct mpc_layout *l,
		  const struct mpc_perfcnt_config *cfg, const struct mpc_session_total *t)
{
	memset(acc, 0, sizeof(*acc));
	KUNIT_ASSERT_EQ(test, mpc_session_acc_init(acc, l, cfg), 0);
	mpc_session_acc_restart(acc, 100, MALI_PERFCNT_DATA_FIRST);
	mpc_session_mark(acc, t);
}

static const struct mpc_perfcnt_config t_all = { 0, 0xffff, 0xffff, 0xffff, 0xffff };

/* sum over intervals k in [@from, @to] of t_dump(k)'s counter @c of slot @s */
static u64 t_want(u32 from, u32 to, u32 s, u32 c)
{
	u64 sum = 0;
	u32 k;

	for (k = from; k <= to; k++)
		sum += 1000000ULL * k + 1000 * s + c + 1;
	return sum;
}

/* @acc holds exactly its counters of intervals @from..@to, a hole at slot 6 */
static void t_expect(struct kunit *test, const struct mpc_session_acc *acc, u32 from, u32 to,
		     const char *who)
{
	u32 s, c;

	for (s = 0; s < T_SLOTS; s++) {
		for (c = 0; c < 64; c++) {
			bool sel = c >= 4 && (t_mask_of(&acc->cfg, s) & BIT(c / 4));
			u64 want = sel && s != 6 ? t_want(from, to, s, c) : 0;

			KUNIT_EXPECT_EQ_MSG(test, acc->values[s * 64 + c], want,
					    "%s slot %u counter %u", who, s, c);
		}
	}
	KUNIT_EXPECT_EQ_MSG(test, acc->nr_intervals, to - from + 1, "%s", who);
}

/* Each of @n sessions takes exactly its selected counters of 3 intervals */
static void t_sessions(struct kunit *test, const struct mpc_perfcnt_config *cfgs, unsigned int n)
{
	const struct mpc_perfcnt_config *p[8];
	struct mpc_session_total t;
	struct mpc_session_acc *acc;
	struct mpc_perfcnt_config u;
	struct mpc_layout l;
	unsigned int i, k;

	t_layout(test, &l);
	t_total(test, &t, &l);
	acc = kunit_kcalloc(test, n, sizeof(*acc), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, acc);
	for (i = 0; i < n; i++) {
		p[i] = &cfgs[i];
		t_acc(test, &acc[i], &l, &cfgs[i], &t);
	}
	mpc_session_union(p, n, &u);
	for (i = 0; i < n; i++)
		KUNIT_EXPECT_TRUE(test, mpc_session_covers(&u, &cfgs[i]));
	for (k = 1; k <= 3; k++)
		mpc_session_total_add(&t, &l, T_SP, &u, t_dump(test, k), NULL, 0, 100 + k);
	for (i = 0; i < n; i++) {
		mpc_session_take(&acc[i], &t, &l, T_SP);
		t_expect(test, &acc[i], 1, 3, "session");
		KUNIT_EXPECT_EQ(test, acc[i].flags, MALI_PERFCNT_DATA_FIRST);
		KUNIT_EXPECT_EQ(test, acc[i].end_ns, 103);
		mpc_session_acc_free(&acc[i]);
	}
	mpc_session_total_free(&t);
}

static void mpc_test_union(struct kunit *test)
{
	const struct mpc_perfcnt_config a = { 1, 0x0001, 0x0010, 0x0100, 0x1000 };
	const struct mpc_perfcnt_config b = { 1, 0x0002, 0x0010, 0x8000, 0x0000 };
	const struct mpc_perfcnt_config *p[] = { &a, &b };
	struct mpc_perfcnt_config u;

	mpc_session_union(p, 2, &u);
	KUNIT_EXPECT_EQ(test, u.set, 1);
	KUNIT_EXPECT_EQ(test, u.jm, 0x0003);
	KUNIT_EXPECT_EQ(test, u.tiler, 0x0010);
	KUNIT_EXPECT_EQ(test, u.shader, 0x8100);
	KUNIT_EXPECT_EQ(test, u.mmu_l2, 0x1000);
	mpc_session_union(p, 0, &u);
	KUNIT_EXPECT_EQ(test, u.jm | u.tiler | u.shader | u.mmu_l2, 0);
}

static void mpc_test_covers(struct kunit *test)
{
	const struct mpc_perfcnt_config hw = { 0, 0x00ff, 0x00ff, 0x00ff, 0x00ff };
	struct mpc_perfcnt_config c = { 0, 0x000f, 0, 0x00f0, 0x0001 };

	KUNIT_EXPECT_TRUE(test, mpc_session_covers(&hw, &c));
	c.tiler = 0x0100;
	KUNIT_EXPECT_FALSE(test, mpc_session_covers(&hw, &c));
	c.tiler = 0;
	c.set = 1;
	KUNIT_EXPECT_FALSE(test, mpc_session_covers(&hw, &c));
}

static void mpc_test_value_mask(struct kunit *test)
{
	const struct mpc_perfcnt_config c = { 0, 0x0001, 0x0002, 0x8000, 0xffff };

	/* bit 0 selects counters 0-3, which are header words: nothing */
	KUNIT_EXPECT_EQ(test, mpc_session_value_mask(&c, MALI_PERFCNT_BLOCK_JM), 0ULL);
	KUNIT_EXPECT_EQ(test, mpc_session_value_mask(&c, MALI_PERFCNT_BLOCK_TILER), 0xf0ULL);
	KUNIT_EXPECT_EQ(test, mpc_session_value_mask(&c, MALI_PERFCNT_BLOCK_SHADER),
			0xf000000000000000ULL);
	KUNIT_EXPECT_EQ(test, mpc_session_value_mask(&c, MALI_PERFCNT_BLOCK_MMU_L2),
			0xfffffffffffffff0ULL);
}

static void mpc_test_slots(struct kunit *test)
{
	static const u32 type[T_SLOTS] = {
		MALI_PERFCNT_BLOCK_JM, MALI_PERFCNT_BLOCK_TILER, MALI_PERFCNT_BLOCK_MMU_L2,
		MALI_PERFCNT_BLOCK_MMU_L2, MALI_PERFCNT_BLOCK_SHADER, MALI_PERFCNT_BLOCK_SHADER,
		0, MALI_PERFCNT_BLOCK_SHADER,
	};
	static const u32 inst[T_SLOTS] = { 0, 0, 0, 1, 0, 1, 0, 3 };
	struct mpc_layout l;
	u32 s, t, i;

	t_layout(test, &l);
	for (s = 0; s < T_SLOTS; s++) {
		int ret = mpc_session_slot(&l, T_SP, s, &t, &i);

		if (!type[s]) {
			KUNIT_EXPECT_EQ_MSG(test, ret, -ENOENT, "slot %u", s);
			continue;
		}
		KUNIT_EXPECT_EQ_MSG(test, ret, 0, "slot %u", s);
		KUNIT_EXPECT_EQ_MSG(test, t, type[s], "slot %u", s);
		KUNIT_EXPECT_EQ_MSG(test, i, inst[s], "slot %u", s);
	}
	KUNIT_EXPECT_EQ(test, mpc_session_slot(&l, T_SP, T_SLOTS, &t, &i), -EINVAL);
	KUNIT_EXPECT_EQ(test, mpc_session_nr_present(&l, T_SP), 7);
	/* 64-byte header, 7 blocks of a 24-byte header and 64 u64 values */
	KUNIT_EXPECT_EQ(test, mpc_session_sample_size(&l, T_SP), 64 + 7 * (24 + 512));
}

static void mpc_test_two_sessions(struct kunit *test)
{
	const struct mpc_perfcnt_config c[] = {
		{ 0, 0x0002, 0x0000, 0x0004, 0x0000 },
		{ 0, 0x0000, 0x0006, 0x0008, 0x0010 },
	};

	t_sessions(test, c, ARRAY_SIZE(c));
}

static void mpc_test_three_sessions(struct kunit *test)
{
	const struct mpc_perfcnt_config c[] = {
		{ 0, 0xffff, 0xffff, 0xffff, 0xffff },
		{ 0, 0x0000, 0x0000, 0x0002, 0x0000 },
		{ 0, 0x00f0, 0x0f00, 0x0000, 0xf000 },
	};

	t_sessions(test, c, ARRAY_SIZE(c));
}

static void mpc_test_eight_sessions(struct kunit *test)
{
	struct mpc_perfcnt_config c[8];
	unsigned int i;

	for (i = 0; i < 8; i++) {
		c[i].set = 0;
		c[i].jm = BIT(i + 1);
		c[i].tiler = BIT(15 - i);
		c[i].shader = 0x3 << (2 * i);
		c[i].mmu_l2 = i & 1 ? 0xaaaa : 0x5554;
	}
	t_sessions(test, c, ARRAY_SIZE(c));
}

/*
 * Sessions that start, are sampled and start again at different intervals
 * of one series of hardware samples each take their own intervals only:
 * A runs from interval 1 and is sampled after 2 and 5, B starts after 2,
 * C runs 1-3 and starts again after 4 with nothing counted in between.
 */
static void mpc_test_staggered(struct kunit *test)
{
	const struct mpc_perfcnt_config ca = { 0, 0x0006, 0, 0x0030, 0 };
	const struct mpc_perfcnt_config cb = { 0, 0, 0x0f00, 0, 0xffff };
	const struct mpc_perfcnt_config cc = { 0, 0xfff0, 0x000e, 0xc000, 0x0100 };
	struct mpc_session_acc a, b, c;
	struct mpc_session_total t;
	struct mpc_layout l;
	u32 k;

	t_layout(test, &l);
	t_total(test, &t, &l);
	t_acc(test, &a, &l, &ca, &t);
	t_acc(test, &c, &l, &cc, &t);
	for (k = 1; k <= 5; k++) {
		mpc_session_total_add(&t, &l, T_SP, &t_all, t_dump(test, k), NULL, 0, 100 + k);
		if (k == 2) {
			mpc_session_take(&a, &t, &l, T_SP);
			t_expect(test, &a, 1, 2, "A, first sample");
			KUNIT_EXPECT_EQ(test, a.end_ns, 102);
			mpc_session_acc_restart(&a, a.end_ns, 0);
			mpc_session_mark(&a, &t);
			t_acc(test, &b, &l, &cb, &t);
		}
		if (k == 3) {
			mpc_session_take(&c, &t, &l, T_SP);
			t_expect(test, &c, 1, 3, "C, stopped");
		}
		if (k == 4) {
			/* its stopped interval is kept until it starts again */
			t_expect(test, &c, 1, 3, "C, still stopped");
			mpc_session_acc_restart(&c, 104, MALI_PERFCNT_DATA_FIRST);
			mpc_session_mark(&c, &t);
		}
	}
	mpc_session_take(&a, &t, &l, T_SP);
	t_expect(test, &a, 3, 5, "A, second sample");
	KUNIT_EXPECT_EQ(test, a.start_ns, 102);
	KUNIT_EXPECT_EQ(test, a.flags, 0);
	mpc_session_take(&b, &t, &l, T_SP);
	t_expect(test, &b, 3, 5, "B");
	KUNIT_EXPECT_EQ(test, b.flags, MALI_PERFCNT_DATA_FIRST);
	mpc_session_take(&c, &t, &l, T_SP);
	t_expect(test, &c, 5, 5, "C, started again");
	KUNIT_EXPECT_EQ(test, c.end_ns, 105);
	mpc_session_acc_free(&a);
	mpc_session_acc_free(&b);
	mpc_session_acc_free(&c);
	mpc_session_total_free(&t);
}

static void mpc_test_saturated(struct kunit *test)
{
	const struct mpc_perfcnt_config c = { 0, 0x0002, 0, 0, 0 };
	const struct mpc_perfcnt_config hw = { 0, 0x0002, 0x0004, 0, 0 };
	struct mpc_session_total t;
	struct mpc_session_acc acc;
	struct mpc_layout l;
	__le32 *d;

	t_layout(test, &l);
	t_total(test, &t, &l);
	t_acc(test, &acc, &l, &c, &t);
	d = t_dump(test, 1);
	/* a counter of another session at the top does not concern this one */
	d[1 * 64 + 8] = cpu_to_le32(U32_MAX);
	mpc_session_total_add(&t, &l, T_SP, &hw, d, NULL, MALI_PERFCNT_DATA_SATURATED, 101);
	mpc_session_take(&acc, &t, &l, T_SP);
	KUNIT_EXPECT_FALSE(test, acc.flags & MALI_PERFCNT_DATA_SATURATED);
	/* one of its own does */
	d[0 * 64 + 5] = cpu_to_le32(U32_MAX);
	mpc_session_total_add(&t, &l, T_SP, &hw, d, NULL, 0, 102);
	mpc_session_take(&acc, &t, &l, T_SP);
	KUNIT_EXPECT_TRUE(test, acc.flags & MALI_PERFCNT_DATA_SATURATED);
	/* and only in the interval it happened in */
	mpc_session_acc_restart(&acc, 102, 0);
	mpc_session_mark(&acc, &t);
	mpc_session_take(&acc, &t, &l, T_SP);
	KUNIT_EXPECT_EQ(test, acc.flags, 0);
	mpc_session_total_add(&t, &l, T_SP, &hw, t_dump(test, 3), NULL, 0, 103);
	mpc_session_take(&acc, &t, &l, T_SP);
	KUNIT_EXPECT_EQ(test, acc.flags, 0);
	mpc_session_acc_free(&acc);
	mpc_session_total_free(&t);
}

static void mpc_test_beyond_2_32(struct kunit *test)
{
	const struct mpc_perfcnt_config c = { 0, 0x0002, 0, 0, 0 };
	struct mpc_session_total t;
	struct mpc_session_acc acc;
	struct mpc_layout l;
	__le32 *d;
	int k;

	t_layout(test, &l);
	t_total(test, &t, &l);
	t_acc(test, &acc, &l, &c, &t);
	d = t_dump(test, 1);
	d[4] = cpu_to_le32(0xfffffffe);	/* one below saturation, every interval */
	for (k = 0; k < 5; k++)
		mpc_session_total_add(&t, &l, T_SP, &c, d, NULL, 0, 101 + k);
	mpc_session_take(&acc, &t, &l, T_SP);
	KUNIT_EXPECT_EQ(test, acc.values[4], 5ULL * 0xfffffffe);
	KUNIT_EXPECT_GT(test, acc.values[4], (u64)U32_MAX);
	KUNIT_EXPECT_FALSE(test, acc.flags & MALI_PERFCNT_DATA_SATURATED);
	mpc_session_acc_free(&acc);
	mpc_session_total_free(&t);
}

static void mpc_test_power_state(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, mpc_session_power_state(MPC_PWR_SEEN_ON), MALI_PERFCNT_POWER_ON);
	KUNIT_EXPECT_EQ(test, mpc_session_power_state(MPC_PWR_SEEN_OFF), MALI_PERFCNT_POWER_OFF);
	KUNIT_EXPECT_EQ(test, mpc_session_power_state(0), MALI_PERFCNT_POWER_OFF);
	KUNIT_EXPECT_EQ(test, mpc_session_power_state(MPC_PWR_SEEN_ON | MPC_PWR_SEEN_OFF),
			MALI_PERFCNT_POWER_PARTIAL);
	KUNIT_EXPECT_EQ(test, mpc_session_power_state(MPC_PWR_SEEN_PARTIAL),
			MALI_PERFCNT_POWER_PARTIAL);
}

static void mpc_test_power_blocks(struct kunit *test)
{
	u8 on[T_SLOTS], off[T_SLOTS];
	struct mpc_session_total t;
	struct mpc_session_acc acc;
	struct mpc_layout l;
	__le32 *d;

	t_layout(test, &l);
	t_total(test, &t, &l);
	t_acc(test, &acc, &l, &t_all, &t);
	d = t_dump(test, 1);
	memset(on, MALI_PERFCNT_POWER_ON, sizeof(on));
	memset(off, MALI_PERFCNT_POWER_ON, sizeof(off));
	off[4] = MALI_PERFCNT_POWER_OFF;	/* core 0 off for the 2nd interval */
	off[5] = MALI_PERFCNT_POWER_OFF;
	mpc_session_total_add(&t, &l, T_SP, &t_all, d, on, 0, 101);
	mpc_session_total_add(&t, &l, T_SP, &t_all, d, off, 0, 102);
	mpc_session_take(&acc, &t, &l, T_SP);
	KUNIT_EXPECT_EQ(test, mpc_session_power_state(acc.power[0]), MALI_PERFCNT_POWER_ON);
	KUNIT_EXPECT_EQ(test, mpc_session_power_state(acc.power[4]), MALI_PERFCNT_POWER_PARTIAL);
	/* an off block adds nothing: core 0 counted the first interval only */
	KUNIT_EXPECT_EQ(test, acc.values[4 * 64 + 10], 1000000ULL + 4000 + 11);
	KUNIT_EXPECT_EQ(test, acc.values[0 * 64 + 10], 2 * (1000000ULL + 11));
	mpc_session_acc_restart(&acc, 102, 0);
	mpc_session_mark(&acc, &t);
	mpc_session_total_add(&t, &l, T_SP, &t_all, d, off, 0, 103);
	mpc_session_take(&acc, &t, &l, T_SP);
	KUNIT_EXPECT_EQ(test, mpc_session_power_state(acc.power[5]), MALI_PERFCNT_POWER_OFF);
	KUNIT_EXPECT_EQ(test, mpc_session_power_state(acc.power[0]), MALI_PERFCNT_POWER_ON);
	KUNIT_EXPECT_EQ(test, acc.values[5 * 64 + 10], 0ULL);
	mpc_session_acc_free(&acc);
	mpc_session_total_free(&t);
}

static void mpc_test_encode(struct kunit *test)
{
	const struct mpc_perfcnt_config c = { 0, 0x0002, 0, 0xffff, 0 };
	const struct mpc_session_encode_args ea = { .user_data = 0xabcd, .seqno = 7,
						    .gpu_freq_hz = 500000000 };
	const struct drm_mali_perfcnt_sample_header *h;
	const struct drm_mali_perfcnt_block_header *b;
	struct mpc_session_total t;
	struct mpc_session_acc acc;
	struct mpc_layout l;
	u32 size;
	u8 *buf;
	__le32 *d;

	KUNIT_EXPECT_EQ(test, sizeof(*h), 64);
	KUNIT_EXPECT_EQ(test, sizeof(*b), 24);
	t_layout(test, &l);
	t_total(test, &t, &l);
	t_acc(test, &acc, &l, &c, &t);
	d = t_dump(test, 1);
	mpc_session_total_add(&t, &l, T_SP, &t_all, d, NULL, MALI_PERFCNT_DATA_AFTER_POWER_LOSS,
			      100 + 2000);
	mpc_session_take(&acc, &t, &l, T_SP);
	size = mpc_session_sample_size(&l, T_SP);
	buf = kunit_kzalloc(test, size, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	KUNIT_EXPECT_EQ(test, mpc_session_encode(&acc, &l, T_SP, &ea, buf, size - 1), -ENOSPC);
	KUNIT_ASSERT_EQ(test, mpc_session_encode(&acc, &l, T_SP, &ea, buf, size), (int)size);
	h = (void *)buf;
	KUNIT_EXPECT_EQ(test, h->start_ns, 100);
	KUNIT_EXPECT_EQ(test, h->end_ns, 2100);
	KUNIT_EXPECT_EQ(test, h->clock_id, MALI_PERFCNT_CLOCK_MONOTONIC_RAW);
	KUNIT_EXPECT_EQ(test, h->flags,
			MALI_PERFCNT_DATA_FIRST | MALI_PERFCNT_DATA_AFTER_POWER_LOSS);
	KUNIT_EXPECT_EQ(test, h->gpu_cycles, 1000);	/* 2 us at 500 MHz */
	KUNIT_EXPECT_EQ(test, h->user_data, 0xabcd);
	KUNIT_EXPECT_EQ(test, h->seqno, 7);
	KUNIT_EXPECT_EQ(test, h->nr_blocks, 7);
	KUNIT_EXPECT_EQ(test, h->size, size);
	/* first block: jm, instance 0, counters 4-7 only */
	b = (void *)(buf + 64);
	KUNIT_EXPECT_EQ(test, b->block_type, MALI_PERFCNT_BLOCK_JM);
	KUNIT_EXPECT_EQ(test, b->instance, 0);
	KUNIT_EXPECT_EQ(test, b->power_state, MALI_PERFCNT_POWER_ON);
	KUNIT_EXPECT_EQ(test, b->nr_values, 64);
	KUNIT_EXPECT_EQ(test, b->enable_mask, 0xf0ULL);
	KUNIT_EXPECT_EQ(test, ((const u64 *)(b + 1))[5], 1000000ULL + 5 + 1);
	KUNIT_EXPECT_EQ(test, ((const u64 *)(b + 1))[8], 0ULL);
	/* the last block: shader core 3 (slot 7, after the hole at core 2) */
	b = (void *)(buf + 64 + 6 * (24 + 512));
	KUNIT_EXPECT_EQ(test, b->block_type, MALI_PERFCNT_BLOCK_SHADER);
	KUNIT_EXPECT_EQ(test, b->instance, 3);
	KUNIT_EXPECT_EQ(test, ((const u64 *)(b + 1))[63], 1000000ULL + 7000 + 63 + 1);
	KUNIT_EXPECT_EQ(test, ((const u64 *)(b + 1))[3], 0ULL);	/* a header word */
	mpc_session_acc_free(&acc);
	mpc_session_total_free(&t);
}

static void mpc_test_restart(struct kunit *test)
{
	struct mpc_session_total t;
	struct mpc_session_acc acc;
	struct mpc_layout l;
	u32 i;

	t_layout(test, &l);
	t_total(test, &t, &l);
	t_acc(test, &acc, &l, &t_all, &t);
	mpc_session_total_add(&t, &l, T_SP, &t_all, t_dump(test, 1), NULL,
			      MALI_PERFCNT_DATA_AFTER_RECOVERY, 150);
	mpc_session_take(&acc, &t, &l, T_SP);
	KUNIT_EXPECT_TRUE(test, acc.flags & MALI_PERFCNT_DATA_AFTER_RECOVERY);
	mpc_session_acc_restart(&acc, 150, 0);
	for (i = 0; i < T_SLOTS * 64; i++)
		KUNIT_EXPECT_EQ_MSG(test, acc.values[i], 0ULL, "value %u", i);
	KUNIT_EXPECT_EQ(test, acc.start_ns, 150);
	KUNIT_EXPECT_EQ(test, acc.nr_intervals, 0);
	KUNIT_EXPECT_EQ(test, acc.flags, 0);
	/* taken again with no new interval: still nothing, no old flag */
	mpc_session_mark(&acc, &t);
	mpc_session_take(&acc, &t, &l, T_SP);
	for (i = 0; i < T_SLOTS * 64; i++)
		KUNIT_EXPECT_EQ_MSG(test, acc.values[i], 0ULL, "value %u", i);
	KUNIT_EXPECT_EQ(test, acc.flags, 0);
	KUNIT_EXPECT_EQ(test, acc.end_ns, 150);
	mpc_session_acc_free(&acc);
	mpc_session_total_free(&t);
}

/*
 * A ring session's one-pass mpc_session_emit() writes the very bytes of
 * take + encode, and starts the next interval as restart + mark do: three
 * periods (a saturated counter of its own, a power loss, a period folded
 * by a full ring) give the same samples both ways, and the folded count
 * sets OVERFLOW and lost.
 */
static void mpc_test_emit(struct kunit *test)
{
	const struct mpc_perfcnt_config c = { 0, 0x0003, 0x8001, 0x00f0, 0x0101 };
	struct mpc_session_encode_args ea = { .user_data = 5, .gpu_freq_hz = 1000000000 };
	const struct drm_mali_perfcnt_sample_header *h;
	struct mpc_session_acc a, b;
	struct mpc_session_total t;
	struct mpc_layout l;
	u8 *ba, *bb;
	u32 size, k, base;
	__le32 *d;

	t_layout(test, &l);
	t_total(test, &t, &l);
	t_acc(test, &a, &l, &c, &t);
	t_acc(test, &b, &l, &c, &t);
	size = mpc_session_sample_size(&l, T_SP);
	ba = kunit_kzalloc(test, size, GFP_KERNEL);
	bb = kunit_kzalloc(test, size, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ba);
	KUNIT_ASSERT_NOT_NULL(test, bb);
	for (k = 1; k <= 3; k++) {
		d = t_dump(test, k);
		if (k == 1)
			d[0 * 64 + 6] = cpu_to_le32(U32_MAX);
		mpc_session_total_add(&t, &l, T_SP, &t_all, d, NULL,
				      k == 2 ? MALI_PERFCNT_DATA_AFTER_POWER_LOSS : 0,
				      100 + 1000 * k);
		ea.seqno = k;
		ea.lost = k == 3 ? 2 : 0;
		mpc_session_take(&a, &t, &l, T_SP);
		KUNIT_ASSERT_EQ(test, mpc_session_encode(&a, &l, T_SP, &ea, ba, size), (int)size);
		mpc_session_acc_restart(&a, a.end_ns, 0);
		mpc_session_mark(&a, &t);
		base = b.base_intervals;
		KUNIT_EXPECT_EQ(test, mpc_session_emit(&b, &t, &l, T_SP, &ea, bb, size - 1),
				-ENOSPC);
		KUNIT_EXPECT_EQ(test, b.base_intervals, base);	/* nothing changed */
		KUNIT_ASSERT_EQ(test, mpc_session_emit(&b, &t, &l, T_SP, &ea, bb, size),
				(int)size);
		KUNIT_EXPECT_EQ_MSG(test, memcmp(ba, bb, size), 0, "period %u", k);
		h = (void *)bb;
		KUNIT_EXPECT_EQ(test, h->start_ns, 100 + 1000 * (k - 1));
		KUNIT_EXPECT_EQ(test, h->end_ns, 100 + 1000 * k);
		KUNIT_EXPECT_EQ(test, h->seqno, k);
		KUNIT_EXPECT_EQ(test, !!(h->flags & MALI_PERFCNT_DATA_FIRST), k == 1);
		KUNIT_EXPECT_EQ(test, !!(h->flags & MALI_PERFCNT_DATA_SATURATED), k == 1);
		KUNIT_EXPECT_EQ(test, !!(h->flags & MALI_PERFCNT_DATA_AFTER_POWER_LOSS), k == 2);
		KUNIT_EXPECT_EQ(test, !!(h->flags & MALI_PERFCNT_DATA_OVERFLOW), k == 3);
		KUNIT_EXPECT_EQ(test, h->lost, k == 3 ? 2 : 0);
		/* jm counter 5: this period's value only */
		KUNIT_EXPECT_EQ(test, ((const u64 *)(bb + 64 + 24))[5], t_want(k, k, 0, 5));
	}
	/* an empty period: zero values, the interval is a point */
	KUNIT_ASSERT_EQ(test, mpc_session_emit(&b, &t, &l, T_SP, &ea, bb, size), (int)size);
	h = (void *)bb;
	KUNIT_EXPECT_EQ(test, h->start_ns, h->end_ns);
	KUNIT_EXPECT_EQ(test, ((const u64 *)(bb + 64 + 24))[5], 0ULL);
	KUNIT_EXPECT_EQ(test, h->flags & ~MALI_PERFCNT_DATA_OVERFLOW, 0);
	mpc_session_acc_free(&a);
	mpc_session_acc_free(&b);
	mpc_session_total_free(&t);
}

static struct kunit_case mpc_session_cases[] = {
	KUNIT_CASE(mpc_test_union),
	KUNIT_CASE(mpc_test_covers),
	KUNIT_CASE(mpc_test_value_mask),
	KUNIT_CASE(mpc_test_slots),
	KUNIT_CASE(mpc_test_two_sessions),
	KUNIT_CASE(mpc_test_three_sessions),
	KUNIT_CASE(mpc_test_eight_sessions),
	KUNIT_CASE(mpc_test_staggered),
	KUNIT_CASE(mpc_test_saturated),
	KUNIT_CASE(mpc_test_beyond_2_32),
	KUNIT_CASE(mpc_test_power_state),
	KUNIT_CASE(mpc_test_power_blocks),
	KUNIT_CASE(mpc_test_encode),
	KUNIT_CASE(mpc_test_restart),
	KUNIT_CASE(mpc_test_emit),
	{}
};

static struct kunit_suite mpc_session_suite = {
	.name = "mali_perfcnt_session",
	.test_cases = mpc_session_cases,
};

kunit_test_suites(&mpc_session_suite);
