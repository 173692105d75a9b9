// SPDX-License-Identifier: GPL-2.0
/*
 * Tests of panfrost's stable performance counter ioctls (PERFCNT_INFO and
 * PERFCNT_SAMPLE) on the first panfrost render node.
 */

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <time.h>
#include <sys/ioctl.h>
#include <sys/mman.h>

#include <drm/panfrost_drm.h>

#include "../../../kselftest_harness.h"
#include "pf_util.h"

static int pf_op(int fd, __u32 op, __u32 counterset)
{
	struct drm_panfrost_perfcnt_sample s = {
		.op = op,
		.counterset = counterset,
	};

	return pf_ioctl(fd, DRM_IOCTL_PANFROST_PERFCNT_SAMPLE, &s);
}

static int pf_dump(int fd, void *buf, __u32 size,
		   struct drm_panfrost_perfcnt_sample *out)
{
	struct drm_panfrost_perfcnt_sample s = {
		.op = DRM_PANFROST_PERFCNT_OP_DUMP,
		.buf_ptr = (uintptr_t)buf,
		.buf_size = size,
	};
	int ret = pf_ioctl(fd, DRM_IOCTL_PANFROST_PERFCNT_SAMPLE, &s);

	if (out)
		*out = s;
	return ret;
}

FIXTURE(perfcnt) {
	int fd;
	__u64 features;
	struct drm_panfrost_perfcnt_info info;
	__u32 *buf;
};

/*
 * Each test checks self->buf itself: older harnesses run the test after a
 * SKIP in FIXTURE_SETUP.
 */
FIXTURE_SETUP(perfcnt)
{
	int ret;

	self->buf = NULL;
	self->fd = pf_open();
	if (self->fd < 0)
		SKIP(return, "no panfrost render node");
	ret = pf_param(self->fd, DRM_PANFROST_PARAM_PERFCNT_FEATURES,
		       &self->features);
	if (ret == -EINVAL)
		SKIP(return, "panfrost without stable counters (GET_PARAM: EINVAL)");
	ASSERT_EQ(0, ret);
	memset(&self->info, 0, sizeof(self->info));
	ASSERT_EQ(0, pf_ioctl(self->fd, DRM_IOCTL_PANFROST_PERFCNT_INFO,
			      &self->info));
	self->buf = calloc(1, self->info.dump_size + 4096);
	ASSERT_NE(NULL, self->buf);
}

FIXTURE_TEARDOWN(perfcnt)
{
	free(self->buf);
	if (self->fd >= 0)
		close(self->fd);
}

TEST_F(perfcnt, feature_bits)
{
	if (!self->buf)
		SKIP(return, "no stable panfrost counters");
	EXPECT_TRUE(self->features & DRM_PANFROST_PERFCNT_FEATURE_SAMPLE);
	EXPECT_TRUE(self->features & DRM_PANFROST_PERFCNT_FEATURE_RESET_RESTORE);
	EXPECT_TRUE(self->features & DRM_PANFROST_PERFCNT_FEATURE_SESSIONS);
	EXPECT_EQ(0, self->features & ~(__u64)7);
}

TEST_F(perfcnt, info_matches_gpu)
{
	struct drm_panfrost_perfcnt_info *i = &self->info;
	__u64 shader, l2, mem;
	unsigned int top = 0;

	if (!self->buf)
		SKIP(return, "no stable panfrost counters");
	ASSERT_EQ(0, pf_param(self->fd, DRM_PANFROST_PARAM_SHADER_PRESENT, &shader));
	ASSERT_EQ(0, pf_param(self->fd, DRM_PANFROST_PARAM_L2_PRESENT, &l2));
	ASSERT_EQ(0, pf_param(self->fd, DRM_PANFROST_PARAM_MEM_FEATURES, &mem));
	while (top < 64 && (shader >> top))
		top++;
	EXPECT_EQ(shader, i->shader_present);
	EXPECT_EQ(256, i->block_size);
	EXPECT_EQ(i->nr_blocks * i->block_size, i->dump_size);
	if (i->flags & DRM_PANFROST_PERFCNT_INFO_V4) {
		EXPECT_EQ(__builtin_popcountll(l2), i->nr_l2);
		EXPECT_EQ(8 * i->nr_l2, i->nr_blocks);
	} else {
		EXPECT_EQ(((mem >> 8) & 0xf) + 1, i->nr_l2);
		EXPECT_EQ(top, i->nr_shader_blocks);
		EXPECT_EQ(2 + i->nr_l2 + top, i->nr_blocks);
	}
	EXPECT_GE(i->nr_counter_sets, 1);
	EXPECT_LE(i->nr_counter_sets, 2);
}

TEST_F(perfcnt, info_pad_must_be_zero)
{
	struct drm_panfrost_perfcnt_info i = { .pad = 1 };

	if (!self->buf)
		SKIP(return, "no stable panfrost counters");
	EXPECT_EQ(-EINVAL, pf_ioctl(self->fd, DRM_IOCTL_PANFROST_PERFCNT_INFO, &i));
}

TEST_F(perfcnt, enable_dump_disable)
{
	struct drm_panfrost_perfcnt_sample s1, s2;
	__u32 n = self->info.dump_size / 4, i, nonzero = 0;

	if (!self->buf)
		SKIP(return, "no stable panfrost counters");
	ASSERT_EQ(0, pf_op(self->fd, DRM_PANFROST_PERFCNT_OP_ENABLE, 0));
	ASSERT_EQ(0, pf_dump(self->fd, self->buf, self->info.dump_size, &s1));
	usleep(50 * 1000);
	memset(self->buf, 0, self->info.dump_size);
	ASSERT_EQ(0, pf_dump(self->fd, self->buf, self->info.dump_size, &s2));
	EXPECT_GT(s2.timestamp_ns, s1.timestamp_ns);
	EXPECT_EQ(0, s2.resets);
	/* Each block's header has the enable mask it counted with */
	for (i = 0; i < n; i++)
		nonzero += self->buf[i] != 0;
	EXPECT_GT(nonzero, 0);
	EXPECT_EQ(0, pf_op(self->fd, DRM_PANFROST_PERFCNT_OP_DISABLE, 0));
	EXPECT_EQ(-EINVAL, pf_dump(self->fd, self->buf, self->info.dump_size, NULL));
}

TEST_F(perfcnt, enable_twice_same_file)
{
	if (!self->buf)
		SKIP(return, "no stable panfrost counters");
	ASSERT_EQ(0, pf_op(self->fd, DRM_PANFROST_PERFCNT_OP_ENABLE, 0));
	EXPECT_EQ(0, pf_op(self->fd, DRM_PANFROST_PERFCNT_OP_ENABLE, 0));
	EXPECT_EQ(0, pf_op(self->fd, DRM_PANFROST_PERFCNT_OP_DISABLE, 0));
}

TEST_F(perfcnt, small_buffer)
{
	if (!self->buf)
		SKIP(return, "no stable panfrost counters");
	ASSERT_EQ(0, pf_op(self->fd, DRM_PANFROST_PERFCNT_OP_ENABLE, 0));
	EXPECT_EQ(-ENOSPC, pf_dump(self->fd, self->buf, self->info.dump_size - 1, NULL));
	EXPECT_EQ(0, pf_dump(self->fd, self->buf, self->info.dump_size + 4096, NULL));
	EXPECT_EQ(0, pf_op(self->fd, DRM_PANFROST_PERFCNT_OP_DISABLE, 0));
}

TEST_F(perfcnt, bad_pointer)
{
	if (!self->buf)
		SKIP(return, "no stable panfrost counters");
	ASSERT_EQ(0, pf_op(self->fd, DRM_PANFROST_PERFCNT_OP_ENABLE, 0));
	EXPECT_EQ(-EFAULT, pf_dump(self->fd, (void *)8, self->info.dump_size, NULL));
	EXPECT_EQ(0, pf_op(self->fd, DRM_PANFROST_PERFCNT_OP_DISABLE, 0));
}

TEST_F(perfcnt, not_owner)
{
	if (!self->buf)
		SKIP(return, "no stable panfrost counters");
	EXPECT_EQ(-EINVAL, pf_dump(self->fd, self->buf, self->info.dump_size, NULL));
	EXPECT_EQ(-EINVAL, pf_op(self->fd, DRM_PANFROST_PERFCNT_OP_DISABLE, 0));
}

TEST_F(perfcnt, bad_op_and_counterset)
{
	if (!self->buf)
		SKIP(return, "no stable panfrost counters");
	EXPECT_EQ(-EINVAL, pf_op(self->fd, 0, 0));
	EXPECT_EQ(-EINVAL, pf_op(self->fd, 4, 0));
	EXPECT_EQ(-EINVAL, pf_op(self->fd, DRM_PANFROST_PERFCNT_OP_ENABLE,
				 self->info.nr_counter_sets));
}

TEST_F(perfcnt, one_owner_released_on_close)
{
	int fd2 = pf_open();

	if (!self->buf)
		SKIP(return, "no stable panfrost counters");
	ASSERT_GE(fd2, 0);
	ASSERT_EQ(0, pf_op(self->fd, DRM_PANFROST_PERFCNT_OP_ENABLE, 0));
	EXPECT_EQ(-EBUSY, pf_op(fd2, DRM_PANFROST_PERFCNT_OP_ENABLE, 0));
	EXPECT_EQ(-EINVAL, pf_dump(fd2, self->buf, self->info.dump_size, NULL));
	close(self->fd);
	self->fd = pf_open();
	ASSERT_GE(self->fd, 0);
	EXPECT_EQ(0, pf_op(fd2, DRM_PANFROST_PERFCNT_OP_ENABLE, 0));
	EXPECT_EQ(0, pf_dump(fd2, self->buf, self->info.dump_size, NULL));
	close(fd2);
}

TEST_F(perfcnt, unstable_pair_shares_the_owner)
{
	struct drm_panfrost_perfcnt_enable en = { .enable = 1 };
	char v = 'N';
	FILE *f;
	int ret;

	if (!self->buf)
		SKIP(return, "no stable panfrost counters");
	f = fopen("/sys/module/panfrost/parameters/unstable_ioctls", "r");
	if (f) {
		if (fscanf(f, " %c", &v) != 1)
			v = 'N';
		fclose(f);
	}
	ret = pf_ioctl(self->fd, DRM_IOCTL_PANFROST_PERFCNT_ENABLE, &en);
	if (v != 'Y') {
		/* Gated as before: the stable pair does not open the old one */
		EXPECT_LT(ret, 0);
		EXPECT_NE(-EINVAL, ret);
		return;
	}
	ASSERT_EQ(0, ret);
	EXPECT_EQ(0, pf_dump(self->fd, self->buf, self->info.dump_size, NULL));
	en.enable = 0;
	EXPECT_EQ(0, pf_ioctl(self->fd, DRM_IOCTL_PANFROST_PERFCNT_ENABLE, &en));
}

/*
 * A GPU reset (a job that outlives panfrost's job timeout) while the
 * counters are enabled: the configuration is restored, the dump reports
 * the reset, and the job manager counts again.
 */
TEST_F(perfcnt, reset_restores_counting)
{
	struct drm_panfrost_perfcnt_sample s;

	if (!self->buf)
		SKIP(return, "no stable panfrost counters");
	ASSERT_EQ(0, pf_op(self->fd, DRM_PANFROST_PERFCNT_OP_ENABLE, 0));
	ASSERT_EQ(0, pf_dump(self->fd, self->buf, self->info.dump_size, &s));
	EXPECT_EQ(0, s.resets);
	ASSERT_EQ(0, hang_a_job(self->fd));
	usleep(100 * 1000);
	ASSERT_EQ(0, pf_dump(self->fd, self->buf, self->info.dump_size, &s));
	usleep(100 * 1000);
	memset(self->buf, 0, self->info.dump_size);
	ASSERT_EQ(0, pf_dump(self->fd, self->buf, self->info.dump_size, &s));
	EXPECT_GE(s.resets, 1);
	/* v5: the job manager block first, GPU_ACTIVE its counter 6 */
	if (!(self->info.flags & DRM_PANFROST_PERFCNT_INFO_V4))
		EXPECT_GT(self->buf[6], 0);
	EXPECT_EQ(0, pf_op(self->fd, DRM_PANFROST_PERFCNT_OP_DISABLE, 0));
}

TEST_HARNESS_MAIN
