// SPDX-License-Identifier: GPL-2.0-only
/*
 * Counter sessions (uAPI revision 3: GET_INFO_V3, SESSION_OPEN and the
 * session fd's START, STOP and SAMPLE): the session fd is the ioctl's
 * return value, the extension chain's checks, two, three and eight
 * sessions at once with different masks each reading exactly its own
 * counters (and the same GPU_ACTIVE over the same span), the session
 * limit, v2 ENABLE and sessions excluding each other, the sample header.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <sys/ioctl.h>

#include "mpc_fixture.h"

#define SHDR	sizeof(struct drm_mali_perfcnt_sample_header)
#define BHDR	sizeof(struct drm_mali_perfcnt_block_header)

struct sess_masks {
	uint32_t jm, tiler, shader, l2;
};

static int get_info_v3(int fd, struct drm_mali_perfcnt_get_info_v3 *i,
		       struct drm_mali_perfcnt_block_type_info *bt, uint32_t nr)
{
	memset(i, 0, sizeof(*i));
	i->block_types_ptr = (uintptr_t)bt;
	i->nr_block_types = nr;
	return ioctl(fd, DRM_IOCTL_MALI_PERFCNT_GET_INFO_V3, i) ? -errno : 0;
}

/* Open a session with @m (NULL: every counter) and @user_data; its fd or -errno. */
static int sess_open(int fd, const struct sess_masks *m, uint64_t user_data, uint32_t flags)
{
	struct drm_mali_perfcnt_ext_set_property p[5] = {};
	struct drm_mali_perfcnt_session_open o = { .flags = flags };
	unsigned int n = 0, k;
	int ret;

	if (m) {
		p[n].property = MALI_PERFCNT_PROP_JM_MASK;
		p[n++].value = m->jm;
		p[n].property = MALI_PERFCNT_PROP_TILER_MASK;
		p[n++].value = m->tiler;
		p[n].property = MALI_PERFCNT_PROP_SHADER_MASK;
		p[n++].value = m->shader;
		p[n].property = MALI_PERFCNT_PROP_MMU_L2_MASK;
		p[n++].value = m->l2;
	}
	p[n].property = MALI_PERFCNT_PROP_USER_DATA;
	p[n++].value = user_data;
	for (k = 0; k + 1 < n; k++)
		p[k].base.next_extension = (uintptr_t)&p[k + 1];
	o.extensions = (uintptr_t)&p[0];
	ret = ioctl(fd, DRM_IOCTL_MALI_PERFCNT_SESSION_OPEN, &o);
	return ret < 0 ? -errno : ret;
}

static int sess_sample(int sfd, void *buf, uint32_t size)
{
	struct drm_mali_perfcnt_session_sample s = {
		.buf_ptr = (uintptr_t)buf, .buf_size = size,
	};

	return ioctl(sfd, MALI_PERFCNT_SESSION_IOCTL_SAMPLE, &s) ? -errno : 0;
}

static const struct drm_mali_perfcnt_block_header *
find_block(const void *sample, uint32_t type, uint32_t inst)
{
	const struct drm_mali_perfcnt_sample_header *h = sample;
	const char *p = (const char *)sample + SHDR;
	uint32_t b;

	for (b = 0; b < h->nr_blocks; b++) {
		const struct drm_mali_perfcnt_block_header *bh = (const void *)p;

		if (bh->block_type == type && bh->instance == inst)
			return bh;
		p += BHDR + bh->nr_values * 8;
	}
	return NULL;
}

static uint64_t expand(uint32_t en)
{
	uint64_t m = 0;
	int n;

	for (n = 0; n < 16; n++)
		if (en & (1u << n))
			m |= 0xfULL << (4 * n);
	return m & ~0xfULL;
}

static uint32_t mask_for(const struct sess_masks *m, uint32_t type)
{
	return type == MALI_PERFCNT_BLOCK_JM ? m->jm : type == MALI_PERFCNT_BLOCK_TILER ?
	       m->tiler : type == MALI_PERFCNT_BLOCK_MMU_L2 ? m->l2 : m->shader;
}

TEST_F(mpc, v3_get_info_describes_blocks)
{
	struct drm_mali_perfcnt_block_type_info bt[MALI_PERFCNT_MAX_BLOCK_TYPES] = {};
	struct drm_mali_perfcnt_get_info_v3 i;
	uint32_t k, blocks = 0, shaders = 0;

	ASSERT_EQ(0, get_info_v3(self->fd, &i, bt, MALI_PERFCNT_MAX_BLOCK_TYPES));
	EXPECT_EQ(MALI_PERFCNT_UAPI_VERSION_V3, i.uapi_version);
	EXPECT_EQ(self->info.gpu_id, i.gpu_id);
	EXPECT_EQ(self->info.shader_present, i.shader_present);
	EXPECT_EQ(4, i.nr_block_types);
	EXPECT_EQ(16, i.max_sessions);
	for (k = 0; k < i.nr_block_types; k++) {
		EXPECT_EQ(64, bt[k].nr_values);
		blocks += bt[k].nr_instances;
		if (bt[k].type == MALI_PERFCNT_BLOCK_SHADER) {
			shaders = bt[k].nr_instances;
			EXPECT_EQ(self->info.shader_present, bt[k].instance_mask);
		}
		if (bt[k].type == MALI_PERFCNT_BLOCK_MMU_L2)
			EXPECT_EQ(self->info.nr_l2, bt[k].nr_instances);
	}
	EXPECT_EQ(__builtin_popcountll(self->info.shader_present), shaders);
	EXPECT_EQ(SHDR + blocks * (BHDR + 64 * 8), i.sample_size);
	/* sizing call: no array, the count comes back */
	ASSERT_EQ(0, get_info_v3(self->fd, &i, NULL, 0));
	EXPECT_EQ(4, i.nr_block_types);
	i.pad = 1;
	EXPECT_EQ(-1, ioctl(self->fd, DRM_IOCTL_MALI_PERFCNT_GET_INFO_V3, &i));
	EXPECT_EQ(EINVAL, errno);
}

TEST_F(mpc, v3_session_open_returns_the_fd_and_checks_its_chain)
{
	struct drm_mali_perfcnt_ext_set_property p[2] = {};
	struct drm_mali_perfcnt_session_open o = {};
	int sfd;

	sfd = ioctl(self->fd, DRM_IOCTL_MALI_PERFCNT_SESSION_OPEN, &o);
	ASSERT_LE(0, sfd);
	EXPECT_NE(self->fd, sfd);
	EXPECT_EQ(0, fcntl(sfd, F_GETFD) & FD_CLOEXEC);
	close(sfd);

	o.flags = MALI_PERFCNT_SESSION_F_CLOEXEC;
	sfd = ioctl(self->fd, DRM_IOCTL_MALI_PERFCNT_SESSION_OPEN, &o);
	ASSERT_LE(0, sfd);
	EXPECT_EQ(FD_CLOEXEC, fcntl(sfd, F_GETFD) & FD_CLOEXEC);
	close(sfd);

	o.flags = 0x80;
	EXPECT_EQ(-1, ioctl(self->fd, DRM_IOCTL_MALI_PERFCNT_SESSION_OPEN, &o));
	EXPECT_EQ(EINVAL, errno);
	o.flags = 0;
	o.reserved[1] = 1;
	EXPECT_EQ(-1, ioctl(self->fd, DRM_IOCTL_MALI_PERFCNT_SESSION_OPEN, &o));
	EXPECT_EQ(EINVAL, errno);
	o.reserved[1] = 0;
	o.counter_set = 2;
	EXPECT_EQ(-1, ioctl(self->fd, DRM_IOCTL_MALI_PERFCNT_SESSION_OPEN, &o));
	EXPECT_EQ(EINVAL, errno);
	o.counter_set = 0;

	o.extensions = (uintptr_t)&p[0];
	p[0].property = MALI_PERFCNT_PROP_SHADER_MASK;
	p[0].value = 0x10000;		/* above bit 15 */
	EXPECT_EQ(-1, ioctl(self->fd, DRM_IOCTL_MALI_PERFCNT_SESSION_OPEN, &o));
	EXPECT_EQ(EINVAL, errno);
	p[0].value = 0xff;
	p[0].base.next_extension = (uintptr_t)&p[1];
	p[1].property = MALI_PERFCNT_PROP_SHADER_MASK;	/* twice */
	EXPECT_EQ(-1, ioctl(self->fd, DRM_IOCTL_MALI_PERFCNT_SESSION_OPEN, &o));
	EXPECT_EQ(EINVAL, errno);
	p[1].property = 99;
	EXPECT_EQ(-1, ioctl(self->fd, DRM_IOCTL_MALI_PERFCNT_SESSION_OPEN, &o));
	EXPECT_EQ(EINVAL, errno);
	p[1].property = MALI_PERFCNT_PROP_PERIOD_NS;
	p[1].value = 2000000000ULL;	/* past the 1 s watchdog */
	EXPECT_EQ(-1, ioctl(self->fd, DRM_IOCTL_MALI_PERFCNT_SESSION_OPEN, &o));
	EXPECT_EQ(EINVAL, errno);
	p[1].base.name = 7;
	EXPECT_EQ(-1, ioctl(self->fd, DRM_IOCTL_MALI_PERFCNT_SESSION_OPEN, &o));
	EXPECT_EQ(EINVAL, errno);
	p[1].base.name = 0;
	/* a loop: p[0] again sets JM_MASK a second time */
	p[1].base.next_extension = (uintptr_t)&p[0];
	p[1].property = MALI_PERFCNT_PROP_USER_DATA;
	p[0].property = MALI_PERFCNT_PROP_JM_MASK;
	EXPECT_EQ(-1, ioctl(self->fd, DRM_IOCTL_MALI_PERFCNT_SESSION_OPEN, &o));
	EXPECT_EQ(EINVAL, errno);
	p[1].base.next_extension = 8;		/* unreadable */
	EXPECT_EQ(-1, ioctl(self->fd, DRM_IOCTL_MALI_PERFCNT_SESSION_OPEN, &o));
	EXPECT_EQ(EFAULT, errno);
}

TEST_F(mpc, v3_session_limit_and_v2_exclusion)
{
	int sfd[17], k;

	for (k = 0; k < 16; k++) {
		sfd[k] = sess_open(self->fd, NULL, k, 0);
		ASSERT_LE(0, sfd[k]);
	}
	EXPECT_EQ(-EMFILE, sess_open(self->fd, NULL, 16, 0));
	close(sfd[15]);
	sfd[15] = sess_open(self->fd, NULL, 15, 0);
	ASSERT_LE(0, sfd[15]);

	/* a running session owns the counters: v2 ENABLE is refused */
	ASSERT_EQ(0, ioctl(sfd[0], MALI_PERFCNT_SESSION_IOCTL_START));
	EXPECT_EQ(-1, ioctl(sfd[0], MALI_PERFCNT_SESSION_IOCTL_START));
	EXPECT_EQ(EALREADY, errno);
	EXPECT_EQ(-EBUSY, mpc_enable_all(self->fd));
	ASSERT_EQ(0, ioctl(sfd[0], MALI_PERFCNT_SESSION_IOCTL_STOP));
	EXPECT_EQ(-1, ioctl(sfd[0], MALI_PERFCNT_SESSION_IOCTL_STOP));
	EXPECT_EQ(EALREADY, errno);
	/* and the other way round */
	ASSERT_EQ(0, mpc_enable_all(self->fd));
	EXPECT_EQ(-1, ioctl(sfd[1], MALI_PERFCNT_SESSION_IOCTL_START));
	EXPECT_EQ(EBUSY, errno);
	ASSERT_EQ(0, mpc_disable(self->fd));
	EXPECT_EQ(0, ioctl(sfd[1], MALI_PERFCNT_SESSION_IOCTL_START));
	for (k = 0; k < 16; k++)
		close(sfd[k]);
	/* all closed: the counters are free again */
	EXPECT_EQ(0, mpc_enable_all(self->fd));
}

TEST_F(mpc, v3_sample_header_and_stopped_session)
{
	struct drm_mali_perfcnt_get_info_v3 i;
	const struct drm_mali_perfcnt_sample_header *h;
	uint64_t t0, t1;
	void *buf;
	int sfd;

	ASSERT_EQ(0, get_info_v3(self->fd, &i, NULL, 0));
	buf = calloc(1, i.sample_size);
	ASSERT_NE(NULL, buf);
	h = buf;
	sfd = sess_open(self->fd, NULL, 0x1234567890ULL, 0);
	ASSERT_LE(0, sfd);
	EXPECT_EQ(-ENODATA, sess_sample(sfd, buf, i.sample_size));
	/* unknown numbers of the session's type, and the stream's, are ENOTTY */
	EXPECT_EQ(-1, ioctl(sfd, _IO(MALI_PERFCNT_SESSION_IOCTL_TYPE, 0x0f)));
	EXPECT_EQ(ENOTTY, errno);
	EXPECT_EQ(-1, ioctl(sfd, MALI_PERFCNT_STREAM_IOCTL_ENABLE));
	EXPECT_EQ(ENOTTY, errno);
	t0 = mpc_now_ns();
	ASSERT_EQ(0, ioctl(sfd, MALI_PERFCNT_SESSION_IOCTL_START));
	mpc_sleep_ms(20);
	EXPECT_EQ(-ENOSPC, sess_sample(sfd, buf, i.sample_size - 1));
	ASSERT_EQ(0, sess_sample(sfd, buf, i.sample_size));
	t1 = mpc_now_ns();
	EXPECT_EQ(0x1234567890ULL, h->user_data);
	EXPECT_EQ(1, h->seqno);
	EXPECT_EQ(MALI_PERFCNT_CLOCK_MONOTONIC_RAW, h->clock_id);
	EXPECT_TRUE(h->flags & MALI_PERFCNT_DATA_FIRST);
	EXPECT_EQ(i.sample_size, h->size);
	EXPECT_LE(t0, h->start_ns);
	EXPECT_LT(h->start_ns, h->end_ns);
	EXPECT_GE(t1, h->end_ns);
	if (i.gpu_freq_hz)
		EXPECT_LT(0, h->gpu_cycles);
	/* the next one starts where it ended */
	t0 = h->end_ns;
	ASSERT_EQ(0, sess_sample(sfd, buf, i.sample_size));
	EXPECT_EQ(2, h->seqno);
	EXPECT_EQ(t0, h->start_ns);
	EXPECT_FALSE(h->flags & MALI_PERFCNT_DATA_FIRST);
	/* STOP keeps the last interval for one SAMPLE */
	t0 = h->end_ns;
	ASSERT_EQ(0, ioctl(sfd, MALI_PERFCNT_SESSION_IOCTL_STOP));
	ASSERT_EQ(0, sess_sample(sfd, buf, i.sample_size));
	EXPECT_EQ(3, h->seqno);
	EXPECT_EQ(t0, h->start_ns);
	EXPECT_EQ(-ENODATA, sess_sample(sfd, buf, i.sample_size));
	close(sfd);
	free(buf);
}

/*
 * @n sessions with masks @m at once, started one after another on an idle
 * GPU, then a load, then idle again, then each sampled: every session
 * reads zero outside its masks, and all of them the same GPU_ACTIVE.
 */
static void n_sessions(struct __test_metadata *_metadata, FIXTURE_DATA(mpc) *self,
		       const FIXTURE_VARIANT(mpc) *variant, const struct sess_masks *m,
		       unsigned int n)
{
	uint64_t active[8] = {};
	struct drm_mali_perfcnt_get_info_v3 i;
	unsigned int k, b, c;
	void *buf[8];
	int sfd[8];

	ASSERT_EQ(0, get_info_v3(self->fd, &i, NULL, 0));
	ASSERT_EQ(0, mpc_set_workload(self->dbg, "idle\n"));
	for (k = 0; k < n; k++) {
		/* every session counts the GPU_ACTIVE group */
		ASSERT_TRUE(m[k].jm & (1u << (variant->gpu_active / 4)));
		buf[k] = calloc(1, i.sample_size);
		ASSERT_NE(NULL, buf[k]);
		sfd[k] = sess_open(self->fd, &m[k], k, MALI_PERFCNT_SESSION_F_START);
		ASSERT_LE(0, sfd[k]) {
			TH_LOG("session %u: %s", k, strerror(-sfd[k]));
		}
	}
	ASSERT_EQ(0, mpc_set_workload(self->dbg, "busy=50\n"));
	mpc_sleep_ms(300);
	ASSERT_EQ(0, mpc_set_workload(self->dbg, "idle\n"));
	mpc_sleep_ms(50);
	for (k = 0; k < n; k++)
		ASSERT_EQ(0, sess_sample(sfd[k], buf[k], i.sample_size));

	for (k = 0; k < n; k++) {
		const struct drm_mali_perfcnt_sample_header *h = buf[k];
		const char *p = (const char *)buf[k] + SHDR;
		const struct drm_mali_perfcnt_block_header *jm;

		EXPECT_EQ(k, h->user_data);
		EXPECT_FALSE(h->flags & MALI_PERFCNT_DATA_SATURATED);
		for (b = 0; b < h->nr_blocks; b++) {
			const struct drm_mali_perfcnt_block_header *bh = (const void *)p;
			const uint64_t *v = (const void *)(bh + 1);
			uint64_t want = expand(mask_for(&m[k], bh->block_type));

			EXPECT_EQ(want, bh->enable_mask) {
				TH_LOG("session %u block %u", k, b);
			}
			EXPECT_EQ(MALI_PERFCNT_POWER_ON, bh->power_state);
			for (c = 0; c < bh->nr_values; c++)
				if (!(want & (1ULL << c)) && v[c]) {
					TH_LOG("session %u type %u inst %u value %u: %llu, not selected",
					       k, bh->block_type, bh->instance, c,
					       (unsigned long long)v[c]);
					EXPECT_EQ(0, v[c]);
				}
			p += BHDR + bh->nr_values * 8;
		}
		jm = find_block(buf[k], MALI_PERFCNT_BLOCK_JM, 0);
		ASSERT_NE(NULL, jm);
		active[k] = ((const uint64_t *)(jm + 1))[variant->gpu_active];
		EXPECT_LT(0, active[k]);
	}
	for (k = 1; k < n; k++) {
		double d = (double)active[k] - (double)active[0];

		EXPECT_GE(active[0] * 0.005, d < 0 ? -d : d) {
			TH_LOG("GPU_ACTIVE session %u %llu, session 0 %llu", k,
			       (unsigned long long)active[k], (unsigned long long)active[0]);
		}
	}
	for (k = 0; k < n; k++) {
		close(sfd[k]);
		free(buf[k]);
	}
}

TEST_F(mpc, v3_two_sessions_each_get_their_counters)
{
	const struct sess_masks m[] = {
		{ .jm = 0xffff, .tiler = 0x0000, .shader = 0x00f0, .l2 = 0x0000 },
		{ .jm = 0x00ff, .tiler = 0xffff, .shader = 0x0000, .l2 = 0xf00f },
	};

	n_sessions(_metadata, self, variant, m, 2);
}

TEST_F(mpc, v3_three_sessions_each_get_their_counters)
{
	const struct sess_masks m[] = {
		{ .jm = 0x0003, .tiler = 0x0001, .shader = 0x0001, .l2 = 0x0001 },
		{ .jm = 0xffff, .tiler = 0xffff, .shader = 0xffff, .l2 = 0xffff },
		{ .jm = 0x0f0f, .tiler = 0x00f0, .shader = 0xaaaa, .l2 = 0x5555 },
	};

	n_sessions(_metadata, self, variant, m, 3);
}

TEST_F(mpc, v3_eight_sessions_each_get_their_counters)
{
	struct sess_masks m[8];
	unsigned int k;

	for (k = 0; k < 8; k++) {
		m[k].jm = (1u << (variant->gpu_active / 4)) | (1u << (k + 2));
		m[k].tiler = 1u << (15 - k);
		m[k].shader = 0x3u << (2 * k);
		m[k].l2 = k & 1 ? 0xaaaa : 0x5555;
	}
	n_sessions(_metadata, self, variant, m, 8);
}

TEST_F(mpc, v3_a_session_is_not_disturbed_by_another)
{
	struct drm_mali_perfcnt_get_info_v3 i;
	const struct sess_masks a = { .jm = 1u << (variant->gpu_active / 4) };
	const struct sess_masks b = { .jm = 0xffff, .tiler = 0xffff, .shader = 0xffff,
				      .l2 = 0xffff };
	const struct drm_mali_perfcnt_sample_header *h;
	uint64_t whole, start;
	void *buf;
	int s1, s2, k;

	ASSERT_EQ(0, get_info_v3(self->fd, &i, NULL, 0));
	buf = calloc(1, i.sample_size);
	ASSERT_NE(NULL, buf);
	h = buf;
	ASSERT_EQ(0, mpc_set_workload(self->dbg, "busy=50\n"));
	s1 = sess_open(self->fd, &a, 1, MALI_PERFCNT_SESSION_F_START);
	ASSERT_LE(0, s1);
	/* another session starts (widening the union), samples and stops */
	for (k = 0; k < 3; k++) {
		s2 = sess_open(self->fd, &b, 2, MALI_PERFCNT_SESSION_F_START);
		ASSERT_LE(0, s2);
		mpc_sleep_ms(50);
		ASSERT_EQ(0, sess_sample(s2, buf, i.sample_size));
		close(s2);
	}
	mpc_sleep_ms(50);
	ASSERT_EQ(0, sess_sample(s1, buf, i.sample_size));
	whole = ((const uint64_t *)(find_block(buf, MALI_PERFCNT_BLOCK_JM, 0) + 1))
		[variant->gpu_active];
	start = h->start_ns;
	/* busy=50 over the whole span, to within the reprogramming gaps */
	if (i.gpu_freq_hz) {
		double cycles = (double)(h->end_ns - start) * i.gpu_freq_hz / 1e9;

		if (whole / cycles <= 0.30 || whole / cycles >= 0.60)
			TH_LOG("GPU_ACTIVE %llu over %.0f cycles: %.3f, want 0.30..0.60",
			       (unsigned long long)whole, cycles, whole / cycles);
		EXPECT_LT(0.30, whole / cycles);
		EXPECT_GT(0.60, whole / cycles);
	}
	EXPECT_EQ(1, h->seqno);
	ASSERT_EQ(0, mpc_set_workload(self->dbg, "idle\n"));
	close(s1);
	free(buf);
}

TEST_HARNESS_MAIN
