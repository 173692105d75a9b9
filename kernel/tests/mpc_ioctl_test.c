// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests of mali_perfcnt's uAPI checks (kernel/core/mpc_ioctl.c): every
 * "must be zero" field, unknown flag, out-of-range value and short buffer is
 * rejected before the counter unit is reached, and valid arguments reach it
 * unchanged. The counter unit is replaced by recording fakes, so no device
 * is needed; the handlers get a zeroed mpc_device with just the features set.
 */
#include <kunit/test.h>
#include <linux/string.h>

#include "../core/mpc_ioctl.c"

/* What the fakes of the counter unit saw. */
static struct {
	unsigned int enables, disables, samples;
	struct mpc_perfcnt_config cfg;
	struct mpc_perfcnt_owner *owner;
	unsigned long ubuf;
	int ret;
} mpc_fake;

int mpc_perfcnt_enable(struct mpc_device *mdev, struct mpc_perfcnt_owner *owner,
		       const struct mpc_perfcnt_config *cfg)
{
	mpc_fake.enables++;
	mpc_fake.owner = owner;
	mpc_fake.cfg = *cfg;
	return mpc_fake.ret;
}

int mpc_perfcnt_disable(struct mpc_device *mdev, struct mpc_perfcnt_owner *owner)
{
	mpc_fake.disables++;
	mpc_fake.owner = owner;
	return mpc_fake.ret;
}

int mpc_perfcnt_sample(struct mpc_device *mdev, struct mpc_perfcnt_owner *owner,
		       void __user *ubuf, void *kbuf, struct mpc_sample_info *info)
{
	mpc_fake.samples++;
	mpc_fake.owner = owner;
	mpc_fake.ubuf = (unsigned long)ubuf;
	if (mpc_fake.ret)
		return mpc_fake.ret;
	info->seqno = 7;
	info->timestamp_ns = 1234;
	info->interval_start_ns = 1000;
	info->data_flags = MALI_PERFCNT_DATA_FIRST | MALI_PERFCNT_DATA_SATURATED;
	return 0;
}

static const struct mpc_product mpc_test_g52 = {
	"Mali-G52", 0x7002, 0xf00f, false, 2
};

static const struct mpc_product mpc_test_t600 = {
	"Mali-T600", 0x6956, 0xffff, true, 1
};

/* A G52 with cores 0, 1, 3 and two L2 slices: dump_size 2048. */
static struct mpc_device *mpc_test_device(struct kunit *test)
{
	struct mpc_device *mdev = kunit_kzalloc(test, sizeof(*mdev), GFP_KERNEL);
	struct mpc_features *f;

	KUNIT_ASSERT_NOT_NULL(test, mdev);
	f = &mdev->features;
	f->gpu_id = 0x72120000;
	f->shader_present = 0xb;
	f->l2_present = 0x1;
	f->l2_features = 0x07120206;
	f->mem_features = 0x101;
	f->product = &mpc_test_g52;
	f->layout = (struct mpc_layout){ false, 2, 1, 4, 8, 2048 };
	mdev->gpu_freq_hz = 800000000;
	memset(&mpc_fake, 0, sizeof(mpc_fake));
	return mdev;
}

/* The counter owner of an open render node, as the host passes it */
static struct mpc_perfcnt_owner *mpc_test_file(struct kunit *test)
{
	struct mpc_perfcnt_owner *file = kunit_kzalloc(test, sizeof(*file), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, file);
	return file;
}

/* GET_INFO */

static void mpc_test_get_info(struct kunit *test)
{
	struct mpc_device *mdev = mpc_test_device(test);
	struct drm_mali_perfcnt_get_info args = {};

	KUNIT_ASSERT_EQ(test, mpc_ioctl_get_info(mdev, NULL, &args), 0);
	KUNIT_EXPECT_EQ(test, args.gpu_id, 0x72120000);
	KUNIT_EXPECT_EQ(test, args.layout, MALI_PERFCNT_LAYOUT_V5);
	KUNIT_EXPECT_EQ(test, args.shader_present, 0xb);
	KUNIT_EXPECT_EQ(test, args.l2_present, 0x1);
	KUNIT_EXPECT_EQ(test, args.nr_l2, 2);
	KUNIT_EXPECT_EQ(test, args.nr_core_groups, 1);
	KUNIT_EXPECT_EQ(test, args.nr_shader_blocks, 4);
	KUNIT_EXPECT_EQ(test, args.nr_blocks, 8);
	KUNIT_EXPECT_EQ(test, args.counters_per_block, 64);
	KUNIT_EXPECT_EQ(test, args.dump_size, 2048);
	KUNIT_EXPECT_EQ(test, args.nr_counter_sets, 2);
	KUNIT_EXPECT_EQ(test, args.l2_features, 0x07120206);
	KUNIT_EXPECT_EQ(test, args.mem_features, 0x101);
	KUNIT_EXPECT_EQ(test, args.uapi_version, MALI_PERFCNT_UAPI_VERSION);
	/* Not reported since revision 2: debugfs gpu_info says "simulated:" */
	KUNIT_EXPECT_EQ(test, args.caps, MALI_PERFCNT_CAP_SET_SECONDARY);
	KUNIT_EXPECT_EQ(test, args.gpu_freq_hz, 800000000);
	KUNIT_EXPECT_STREQ(test, args.product, "Mali-G52");
}

static void mpc_test_get_info_v4_caps(struct kunit *test)
{
	struct mpc_device *mdev = mpc_test_device(test);
	struct drm_mali_perfcnt_get_info args = {};

	mdev->features.product = &mpc_test_t600;
	mdev->features.hw_issue_8186 = true;
	mdev->features.layout.v4 = true;
	KUNIT_ASSERT_EQ(test, mpc_ioctl_get_info(mdev, NULL, &args), 0);
	KUNIT_EXPECT_EQ(test, args.layout, MALI_PERFCNT_LAYOUT_V4);
	KUNIT_EXPECT_EQ(test, args.nr_counter_sets, 1);
	/* Not reported since revision 2: debugfs gpu_info says "hw_issue_8186:" */
	KUNIT_EXPECT_EQ(test, args.caps, 0);
	KUNIT_EXPECT_STREQ(test, args.product, "Mali-T600");
}

static void mpc_test_get_info_rejects(struct kunit *test)
{
	struct mpc_device *mdev = mpc_test_device(test);
	struct drm_mali_perfcnt_get_info args;
	unsigned int i;

	memset(&args, 0, sizeof(args));
	args.flags = 1;
	KUNIT_EXPECT_EQ(test, mpc_ioctl_get_info(mdev, NULL, &args), -EINVAL);
	KUNIT_EXPECT_EQ(test, args.gpu_id, 0);

	memset(&args, 0, sizeof(args));
	args.flags = 0x80000000;
	KUNIT_EXPECT_EQ(test, mpc_ioctl_get_info(mdev, NULL, &args), -EINVAL);

	memset(&args, 0, sizeof(args));
	args.pad = 1;
	KUNIT_EXPECT_EQ(test, mpc_ioctl_get_info(mdev, NULL, &args), -EINVAL);

	for (i = 0; i < ARRAY_SIZE(args.reserved); i++) {
		memset(&args, 0, sizeof(args));
		args.reserved[i] = 1ULL << 63;
		KUNIT_EXPECT_EQ_MSG(test, mpc_ioctl_get_info(mdev, NULL, &args),
				    -EINVAL, "reserved[%u]", i);
	}
}

/* ENABLE */

struct mpc_enable_case {
	const char *what;
	struct drm_mali_perfcnt_enable args;
	int ret;		/* -EINVAL: rejected before the counter unit */
};

static const struct mpc_enable_case mpc_enable_cases[] = {
	{ "enable 2", { .enable = 2 }, -EINVAL },
	{ "enable ~0", { .enable = ~0U }, -EINVAL },
	{ "unknown flag", { .enable = 1, .flags = 0x2 }, -EINVAL },
	{ "top flag", { .enable = 1, .flags = 0x80000000 }, -EINVAL },
	{ "pad", { .enable = 1, .pad = 1 }, -EINVAL },
	{ "reserved[0]", { .enable = 1, .reserved = { 1 } }, -EINVAL },
	{ "reserved[1]", { .enable = 1, .reserved = { 0, 1ULL << 40 } }, -EINVAL },
	{ "masks without F_MASKS", { .enable = 1, .shader_mask = 0xf }, -EINVAL },
	{ "jm mask without F_MASKS", { .enable = 1, .jm_mask = 1 }, -EINVAL },
	{ "disable with a set", { .enable = 0, .counter_set = 1 }, -EINVAL },
	{ "disable with masks", { .enable = 0, .tiler_mask = 1 }, -EINVAL },
	{ "disable with F_MASKS", { .enable = 0, .flags = MALI_PERFCNT_ENABLE_F_MASKS },
	  -EINVAL },
	{ "disable with pad", { .enable = 0, .pad = 2 }, -EINVAL },
	{ "enable", { .enable = 1 }, 0 },
	{ "enable set 1", { .enable = 1, .counter_set = 1 }, 0 },
	{ "enable F_MASKS", { .enable = 1, .flags = MALI_PERFCNT_ENABLE_F_MASKS,
	  .jm_mask = 1, .tiler_mask = 2, .shader_mask = 3, .mmu_l2_mask = 4 }, 0 },
	{ "enable F_MASKS all zero", { .enable = 1,
	  .flags = MALI_PERFCNT_ENABLE_F_MASKS }, 0 },
	{ "disable", { .enable = 0 }, 0 },
};

static void mpc_test_enable(struct kunit *test)
{
	struct mpc_device *mdev = mpc_test_device(test);
	struct mpc_perfcnt_owner *file = mpc_test_file(test);
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(mpc_enable_cases); i++) {
		const struct mpc_enable_case *c = &mpc_enable_cases[i];
		struct drm_mali_perfcnt_enable args = c->args;
		bool masks = args.flags & MALI_PERFCNT_ENABLE_F_MASKS;
		int ret;

		memset(&mpc_fake, 0, sizeof(mpc_fake));
		ret = mpc_ioctl_enable(mdev, file, &args);
		KUNIT_EXPECT_EQ_MSG(test, ret, c->ret, "%s", c->what);
		if (c->ret) {
			KUNIT_EXPECT_EQ_MSG(test, mpc_fake.enables + mpc_fake.disables, 0,
					    "%s reached the counter unit", c->what);
			continue;
		}
		if (!c->args.enable) {
			KUNIT_EXPECT_EQ_MSG(test, mpc_fake.disables, 1, "%s", c->what);
			KUNIT_EXPECT_EQ_MSG(test, mpc_fake.enables, 0, "%s", c->what);
			KUNIT_EXPECT_PTR_EQ_MSG(test, mpc_fake.owner, file, "%s",
						c->what);
			continue;
		}
		KUNIT_EXPECT_EQ_MSG(test, mpc_fake.enables, 1, "%s", c->what);
		KUNIT_EXPECT_EQ_MSG(test, mpc_fake.disables, 0, "%s", c->what);
		KUNIT_EXPECT_PTR_EQ_MSG(test, mpc_fake.owner, file, "%s", c->what);
		KUNIT_EXPECT_EQ_MSG(test, mpc_fake.cfg.set, c->args.counter_set, "%s", c->what);
		/* Without F_MASKS every counter of every block is enabled */
		KUNIT_EXPECT_EQ_MSG(test, mpc_fake.cfg.jm,
				    masks ? c->args.jm_mask : 0xffff, "%s", c->what);
		KUNIT_EXPECT_EQ_MSG(test, mpc_fake.cfg.tiler,
				    masks ? c->args.tiler_mask : 0xffff, "%s", c->what);
		KUNIT_EXPECT_EQ_MSG(test, mpc_fake.cfg.shader,
				    masks ? c->args.shader_mask : 0xffff, "%s", c->what);
		KUNIT_EXPECT_EQ_MSG(test, mpc_fake.cfg.mmu_l2,
				    masks ? c->args.mmu_l2_mask : 0xffff, "%s", c->what);
	}
}

/* Errors of the counter unit reach the caller unchanged. */
static void mpc_test_enable_passes_errors(struct kunit *test)
{
	static const int errs[] = { -EBUSY, -EALREADY, -EACCES, -EINVAL, -ENOMEM,
				    -ENODEV };
	struct mpc_device *mdev = mpc_test_device(test);
	struct mpc_perfcnt_owner *file = mpc_test_file(test);
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(errs); i++) {
		struct drm_mali_perfcnt_enable on = { .enable = 1 }, off = {};

		mpc_fake.ret = errs[i];
		KUNIT_EXPECT_EQ(test, mpc_ioctl_enable(mdev, file, &on), errs[i]);
		KUNIT_EXPECT_EQ(test, mpc_ioctl_enable(mdev, file, &off), errs[i]);
	}
}

/* DUMP */

static void mpc_test_dump(struct kunit *test)
{
	struct mpc_device *mdev = mpc_test_device(test);
	struct mpc_perfcnt_owner *file = mpc_test_file(test);
	struct drm_mali_perfcnt_dump args = {
		.buf_ptr = 0x10000, .buf_size = 4096,
	};

	KUNIT_ASSERT_EQ(test, mpc_ioctl_dump(mdev, file, &args), 0);
	KUNIT_EXPECT_EQ(test, mpc_fake.samples, 1);
	KUNIT_EXPECT_PTR_EQ(test, mpc_fake.owner, file);
	KUNIT_EXPECT_EQ(test, mpc_fake.ubuf, 0x10000);
	/* The dump size, not the buffer size, is written back */
	KUNIT_EXPECT_EQ(test, args.buf_size, 2048);
	KUNIT_EXPECT_EQ(test, args.seqno, 7);
	KUNIT_EXPECT_EQ(test, args.timestamp_ns, 1234);
	KUNIT_EXPECT_EQ(test, args.interval_start_ns, 1000);
	KUNIT_EXPECT_EQ(test, args.data_flags,
			MALI_PERFCNT_DATA_FIRST | MALI_PERFCNT_DATA_SATURATED);
	KUNIT_EXPECT_EQ(test, args.pad, 0);

	/* The out fields' input is ignored: the same struct serves again */

	/* Exactly the dump size is enough */
	KUNIT_EXPECT_EQ(test, mpc_ioctl_dump(mdev, file, &args), 0);
	KUNIT_EXPECT_EQ(test, mpc_fake.samples, 2);
}

static void mpc_test_dump_short_buffer(struct kunit *test)
{
	struct mpc_device *mdev = mpc_test_device(test);
	struct drm_mali_perfcnt_dump args = { .buf_ptr = 0x10000, .buf_size = 2047 };

	KUNIT_EXPECT_EQ(test, mpc_ioctl_dump(mdev, NULL, &args), -ENOSPC);
	/* The caller learns the size it needs */
	KUNIT_EXPECT_EQ(test, args.buf_size, 2048);

	args.buf_size = 0;
	args.buf_ptr = 0;
	KUNIT_EXPECT_EQ(test, mpc_ioctl_dump(mdev, NULL, &args), -ENOSPC);
	KUNIT_EXPECT_EQ(test, args.buf_size, 2048);
	KUNIT_EXPECT_EQ(test, mpc_fake.samples, 0);
}

static void mpc_test_dump_rejects(struct kunit *test)
{
	struct mpc_device *mdev = mpc_test_device(test);
	struct drm_mali_perfcnt_dump args;

	memset(&args, 0, sizeof(args));
	args.buf_ptr = 0x10000;
	args.buf_size = 2048;
	args.flags = 1;
	KUNIT_EXPECT_EQ(test, mpc_ioctl_dump(mdev, NULL, &args), -EINVAL);

	memset(&args, 0, sizeof(args));
	args.buf_ptr = 0x10000;
	args.buf_size = 2048;
	args.pad = 0x80000000;
	KUNIT_EXPECT_EQ(test, mpc_ioctl_dump(mdev, NULL, &args), -EINVAL);

	memset(&args, 0, sizeof(args));
	args.buf_size = 2048;
	KUNIT_EXPECT_EQ(test, mpc_ioctl_dump(mdev, NULL, &args), -EFAULT);
	KUNIT_EXPECT_EQ(test, mpc_fake.samples, 0);
}

/*
 * A failed sample leaves buf_size as the caller gave it and writes no out
 * field (drm_ioctl() copies the struct back on errors too).
 */
static void mpc_test_dump_error(struct kunit *test)
{
	static const int errs[] = {
		-ETIMEDOUT, -ENXIO, -EIO, -EFAULT, -EINTR, -ENODATA, -EPERM
	};
	struct mpc_device *mdev = mpc_test_device(test);
	struct mpc_perfcnt_owner *file = mpc_test_file(test);
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(errs); i++) {
		struct drm_mali_perfcnt_dump args = { .buf_ptr = 0x10000, .buf_size = 4096 };

		mpc_fake.ret = errs[i];
		KUNIT_EXPECT_EQ(test, mpc_ioctl_dump(mdev, file, &args), errs[i]);
		KUNIT_EXPECT_EQ(test, args.buf_size, 4096);
		KUNIT_EXPECT_EQ(test, args.seqno, 0);
		KUNIT_EXPECT_EQ(test, args.timestamp_ns, 0);
		KUNIT_EXPECT_EQ(test, args.interval_start_ns, 0);
		KUNIT_EXPECT_EQ(test, args.data_flags, 0);
	}
}

/*
 * A buf_ptr with bits above the kernel's pointer width is rejected, not
 * truncated to another address (32-bit kernels); 64-bit kernels take it.
 */
static void mpc_test_dump_pointer_width(struct kunit *test)
{
	struct mpc_device *mdev = mpc_test_device(test);
	struct mpc_perfcnt_owner *file = mpc_test_file(test);
	struct drm_mali_perfcnt_dump args = {
		.buf_ptr = (1ULL << 32) | 0x10000, .buf_size = 4096,
	};
	bool fits = sizeof(void __user *) == sizeof(u64);

	KUNIT_EXPECT_EQ(test, mpc_user_ptr_fits(0x10000), true);
	KUNIT_EXPECT_EQ(test, mpc_user_ptr_fits(0xfffff000), true);
	KUNIT_EXPECT_EQ(test, mpc_user_ptr_fits(1ULL << 32), fits);
	KUNIT_EXPECT_EQ(test, mpc_user_ptr_fits(~0ULL), fits);
	KUNIT_EXPECT_EQ(test, mpc_ioctl_dump(mdev, file, &args), fits ? 0 : -EFAULT);
	KUNIT_EXPECT_EQ(test, mpc_fake.samples, fits ? 1 : 0);
	if (fits)
		KUNIT_EXPECT_EQ(test, mpc_fake.ubuf, (unsigned long)args.buf_ptr);
}

/*
 * The counter unit refuses an unplugged device (mpc_perfcnt_sample()): its
 * -ENODEV reaches the caller, buf_size as the caller gave it.
 */
static void mpc_test_dump_unplugged(struct kunit *test)
{
	struct mpc_device *mdev = mpc_test_device(test);
	struct mpc_perfcnt_owner *file = mpc_test_file(test);
	struct drm_mali_perfcnt_dump args = { .buf_ptr = 0x10000, .buf_size = 4096 };

	mpc_fake.ret = -ENODEV;
	KUNIT_EXPECT_EQ(test, mpc_ioctl_dump(mdev, file, &args), -ENODEV);
	KUNIT_EXPECT_EQ(test, args.buf_size, 4096);
}

static struct kunit_case mpc_uapi_cases[] = {
	KUNIT_CASE(mpc_test_get_info),
	KUNIT_CASE(mpc_test_get_info_v4_caps),
	KUNIT_CASE(mpc_test_get_info_rejects),
	KUNIT_CASE(mpc_test_enable),
	KUNIT_CASE(mpc_test_enable_passes_errors),
	KUNIT_CASE(mpc_test_dump),
	KUNIT_CASE(mpc_test_dump_short_buffer),
	KUNIT_CASE(mpc_test_dump_rejects),
	KUNIT_CASE(mpc_test_dump_error),
	KUNIT_CASE(mpc_test_dump_pointer_width),
	KUNIT_CASE(mpc_test_dump_unplugged),
	{}
};

static struct kunit_suite mpc_uapi_suite = {
	.name = "mali_perfcnt_uapi",
	.test_cases = mpc_uapi_cases,
};

kunit_test_suite(mpc_uapi_suite);

MODULE_DESCRIPTION("KUnit tests of mali_perfcnt's pure logic and uAPI checks");
MODULE_LICENSE("GPL");
