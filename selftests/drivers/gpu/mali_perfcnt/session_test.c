// SPDX-License-Identifier: GPL-2.0-only
/*
 * Counter sessions (uAPI revision 3: GET_INFO_V3, SESSION_OPEN and the
 * session fd's START, STOP and SAMPLE): the session fd is the ioctl's
 * return value, the extension chain's checks, two, three and eight
 * sessions at once with different masks each reading exactly its own
 * counters (and the same GPU_ACTIVE over the same span), the session
 * limit, v2 ENABLE and sessions excluding each other, the sample header,
 * a GPU fault in a SAMPLE (-ENXIO, the session runs on);
 * periodic sessions' rings (read() at the period, the same sums as a
 * SAMPLE-based session, poll, O_NONBLOCK, a small buffer, overflow with
 * its count, two periods at once, STOP, close, unbind and system sleep
 * with a reader blocked); a session that follows the GPU's runtime power
 * (power_policy follow): PARTIAL across a suspend, OFF while suspended.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
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
 * A GPU fault during a session's SAMPLE is a recovered remote failure:
 * -ENXIO (drm-uapi.rst; -EIO is kept for a GPU that was not recovered),
 * the session runs on, and its next sample covers the fault: it keeps the
 * interval's start (no time is dropped) and is flagged AFTER_RECOVERY.
 */
TEST_F(mpc, v3_session_gpu_fault_is_enxio_and_the_session_runs_on)
{
	struct drm_mali_perfcnt_get_info_v3 i;
	const struct drm_mali_perfcnt_sample_header *h;
	uint64_t t_fail, prev_end;
	void *buf;
	int sfd;

	ASSERT_EQ(0, get_info_v3(self->fd, &i, NULL, 0));
	buf = calloc(1, i.sample_size);
	ASSERT_NE(NULL, buf);
	h = buf;
	sfd = sess_open(self->fd, NULL, 0, 0);
	ASSERT_LE(0, sfd);
	ASSERT_EQ(0, ioctl(sfd, MALI_PERFCNT_SESSION_IOCTL_START));
	ASSERT_EQ(0, sess_sample(sfd, buf, i.sample_size));
	prev_end = h->end_ns;
	ARM_FAULT(self, "gpu_fault\n");
	t_fail = mpc_now_ns();
	EXPECT_EQ(-ENXIO, sess_sample(sfd, buf, i.sample_size));
	ASSERT_EQ(0, sess_sample(sfd, buf, i.sample_size));
	EXPECT_TRUE(h->flags & MALI_PERFCNT_DATA_AFTER_RECOVERY) {
		TH_LOG("flags 0x%x", h->flags);
	}
	EXPECT_LE(prev_end, h->start_ns);
	EXPECT_LT(h->start_ns, t_fail);
	EXPECT_LE(t_fail, h->end_ns);
	ASSERT_EQ(0, sess_sample(sfd, buf, i.sample_size));
	EXPECT_FALSE(h->flags & MALI_PERFCNT_DATA_AFTER_RECOVERY);
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

/* A ring session: every counter, @period_ns, @ring samples (0: 64); its fd or -errno. */
static int ring_open(int fd, uint64_t period_ns, uint64_t ring, uint64_t user_data,
		     uint32_t flags)
{
	struct drm_mali_perfcnt_ext_set_property p[3] = {};
	struct drm_mali_perfcnt_session_open o = { .flags = flags };
	unsigned int n = 0, k;
	int ret;

	p[n].property = MALI_PERFCNT_PROP_PERIOD_NS;
	p[n++].value = period_ns;
	p[n].property = MALI_PERFCNT_PROP_USER_DATA;
	p[n++].value = user_data;
	p[n].property = MALI_PERFCNT_PROP_RING_SAMPLES;
	p[n++].value = ring ?: 64;
	for (k = 0; k + 1 < n; k++)
		p[k].base.next_extension = (uintptr_t)&p[k + 1];
	o.extensions = (uintptr_t)&p[0];
	ret = ioctl(fd, DRM_IOCTL_MALI_PERFCNT_SESSION_OPEN, &o);
	return ret < 0 ? -errno : ret;
}

static uint64_t jm_value(const void *sample, unsigned int c)
{
	const struct drm_mali_perfcnt_block_header *jm =
		find_block(sample, MALI_PERFCNT_BLOCK_JM, 0);

	return jm ? ((const uint64_t *)(jm + 1))[c] : 0;
}

/* Read the ring's samples for @ms into @out (room for @max); how many. */
static unsigned int ring_collect(int sfd, char *out, unsigned int max, uint32_t size,
				 unsigned int ms)
{
	uint64_t end = mpc_now_ns() + ms * 1000000ULL;
	unsigned int n = 0;

	while (n < max && mpc_now_ns() < end) {
		ssize_t r = read(sfd, out + (size_t)n * size, (size_t)(max - n) * size);

		if (r <= 0)
			break;
		n += r / size;
	}
	return n;
}

/*
 * A ring at 10 ms gives samples one period long, numbered from 1, each
 * starting where the last ended; their sums equal those of a SAMPLE-based
 * session over the same span, within the boundary intervals: the SAMPLE
 * session starts before and ends after the ring, so it holds at least
 * every counter of the ring's samples, and GPU_ACTIVE at most the cycles
 * of the two boundary spans more.
 */
TEST_F(mpc, v3_ring_read_gets_samples_at_the_period)
{
	const uint64_t period = 10000000;
	struct drm_mali_perfcnt_get_info_v3 i;
	const struct drm_mali_perfcnt_sample_header *h, *first, *last;
	uint64_t sum[64] = {}, span = 0, end_prev = 0, boundary;
	unsigned int n, k, c;
	char *ring, *whole;
	int a, b;

	ASSERT_EQ(0, get_info_v3(self->fd, &i, NULL, 0));
	ring = calloc(200, i.sample_size);
	whole = calloc(1, i.sample_size);
	ASSERT_NE(NULL, ring);
	ASSERT_NE(NULL, whole);
	ASSERT_EQ(0, mpc_set_workload(self->dbg, "busy=50\n"));
	b = sess_open(self->fd, NULL, 2, MALI_PERFCNT_SESSION_F_START);
	ASSERT_LE(0, b);
	a = ring_open(self->fd, period, 0, 1, MALI_PERFCNT_SESSION_F_START);
	ASSERT_LE(0, a);
	n = ring_collect(a, ring, 100, i.sample_size, 400);
	ASSERT_EQ(0, ioctl(a, MALI_PERFCNT_SESSION_IOCTL_STOP));
	/* the rest of the ring, then STOP's last interval, then nothing */
	for (;;) {
		ssize_t r = read(a, ring + (size_t)n * i.sample_size,
				 (size_t)(200 - n) * i.sample_size);

		if (r < 0) {
			EXPECT_EQ(ENODATA, errno);
			break;
		}
		ASSERT_EQ(0, r % i.sample_size);
		n += r / i.sample_size;
		ASSERT_GT(200, n);
	}
	ASSERT_EQ(0, sess_sample(b, whole, i.sample_size));
	ASSERT_EQ(0, mpc_set_workload(self->dbg, "idle\n"));
	EXPECT_LE(5, n);
	for (k = 0; k < n; k++) {
		h = (const void *)(ring + (size_t)k * i.sample_size);
		EXPECT_EQ(k + 1, h->seqno);
		EXPECT_EQ(1, h->user_data);
		EXPECT_EQ(i.sample_size, h->size);
		EXPECT_EQ(k == 0, !!(h->flags & MALI_PERFCNT_DATA_FIRST));
		EXPECT_FALSE(h->flags & MALI_PERFCNT_DATA_OVERFLOW);
		if (k)
			EXPECT_EQ(end_prev, h->start_ns);
		end_prev = h->end_ns;
		if (k && k + 1 < n)	/* not the first and STOP's */
			span += h->end_ns - h->start_ns;
		for (c = 0; c < 64; c++)
			sum[c] += jm_value(h, c);
	}
	/*
	 * Never shorter than a period on average; longer only by the hub's
	 * lateness (a loaded TCG guest: the rate is the benchmark's figure)
	 */
	if (n > 2) {
		double mean = (double)span / (n - 2);

		EXPECT_LT(0.8 * period, mean) TH_LOG("mean span %.0f ns", mean);
		EXPECT_GT(10.0 * period, mean) TH_LOG("mean span %.0f ns", mean);
	}
	first = (const void *)ring;
	last = (const void *)(ring + (size_t)(n - 1) * i.sample_size);
	h = (const void *)whole;
	ASSERT_LE(h->start_ns, first->start_ns);
	ASSERT_GE(h->end_ns, last->end_ns);
	for (c = 4; c < 64; c++)
		EXPECT_LE(sum[c], jm_value(whole, c)) TH_LOG("jm counter %u", c);
	boundary = (first->start_ns - h->start_ns) + (h->end_ns - last->end_ns);
	if (i.gpu_freq_hz)
		EXPECT_GE((double)boundary * i.gpu_freq_hz / 1e9 + 1000,
			  (double)(jm_value(whole, variant->gpu_active) - sum[variant->gpu_active]));
	EXPECT_LT(0, sum[variant->gpu_active]);
	close(a);
	close(b);
	free(ring);
	free(whole);
}

/*
 * RING_SAMPLES' checks; read() and poll() on a session without a period,
 * a period without a ring (SAMPLE then covers the whole interval),
 * on a stopped one, O_NONBLOCK on an empty ring, a buffer one byte short,
 * a read of 0 bytes; poll() wakes when a sample is queued.
 */
TEST_F(mpc, v3_ring_poll_nonblock_and_small_buffer)
{
	struct drm_mali_perfcnt_ext_set_property p = { .property = MALI_PERFCNT_PROP_RING_SAMPLES,
						       .value = 8 };
	struct drm_mali_perfcnt_session_open o = { .extensions = (uintptr_t)&p };
	struct drm_mali_perfcnt_get_info_v3 i;
	struct pollfd pf;
	uint64_t t0;
	char *buf;
	int sfd;

	ASSERT_EQ(0, get_info_v3(self->fd, &i, NULL, 0));
	buf = calloc(2, i.sample_size);
	ASSERT_NE(NULL, buf);
	/* a ring fills each period: none without one */
	EXPECT_EQ(-1, ioctl(self->fd, DRM_IOCTL_MALI_PERFCNT_SESSION_OPEN, &o));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-EINVAL, ring_open(self->fd, 10000000, 1, 0, 0));
	EXPECT_EQ(-EINVAL, ring_open(self->fd, 10000000,
				     MALI_PERFCNT_SESSION_MAX_RING_SAMPLES + 1, 0, 0));
	sfd = ring_open(self->fd, 10000000, MALI_PERFCNT_SESSION_MAX_RING_SAMPLES, 0, 0);
	ASSERT_LE(0, sfd);
	close(sfd);

	/* no period, no ring */
	sfd = sess_open(self->fd, NULL, 0, MALI_PERFCNT_SESSION_F_START);
	ASSERT_LE(0, sfd);
	EXPECT_EQ(-1, read(sfd, buf, i.sample_size));
	EXPECT_EQ(EINVAL, errno);
	pf = (struct pollfd){ .fd = sfd, .events = POLLIN };
	EXPECT_EQ(1, poll(&pf, 1, 0));
	EXPECT_EQ(POLLERR, pf.revents);
	close(sfd);

	/* a period without RING_SAMPLES: no ring, SAMPLE takes everything */
	p = (struct drm_mali_perfcnt_ext_set_property){ .property = MALI_PERFCNT_PROP_PERIOD_NS,
							.value = 10000000 };
	sfd = ioctl(self->fd, DRM_IOCTL_MALI_PERFCNT_SESSION_OPEN, &o);
	ASSERT_LE(0, sfd);
	ASSERT_EQ(0, ioctl(sfd, MALI_PERFCNT_SESSION_IOCTL_START));
	mpc_sleep_ms(30);
	EXPECT_EQ(-1, read(sfd, buf, i.sample_size));
	EXPECT_EQ(EINVAL, errno);
	ASSERT_EQ(0, sess_sample(sfd, buf, i.sample_size));
	EXPECT_EQ(1, ((const struct drm_mali_perfcnt_sample_header *)buf)->seqno);
	EXPECT_LE(25000000, ((const struct drm_mali_perfcnt_sample_header *)buf)->end_ns -
		  ((const struct drm_mali_perfcnt_sample_header *)buf)->start_ns);
	close(sfd);

	sfd = ring_open(self->fd, 20000000, 0, 0, 0);
	ASSERT_LE(0, sfd);
	ASSERT_EQ(0, fcntl(sfd, F_SETFL, O_NONBLOCK));
	/* stopped, nothing counted: no sample will come */
	EXPECT_EQ(-1, read(sfd, buf, i.sample_size));
	EXPECT_EQ(ENODATA, errno);
	pf = (struct pollfd){ .fd = sfd, .events = POLLIN };
	EXPECT_EQ(0, poll(&pf, 1, 0));
	ASSERT_EQ(0, ioctl(sfd, MALI_PERFCNT_SESSION_IOCTL_START));
	t0 = mpc_now_ns();
	EXPECT_EQ(-1, read(sfd, buf, i.sample_size));
	EXPECT_EQ(EAGAIN, errno);
	EXPECT_EQ(0, read(sfd, buf, 0));
	EXPECT_EQ(-1, read(sfd, buf, i.sample_size - 1));
	EXPECT_EQ(ENOSPC, errno);
	pf = (struct pollfd){ .fd = sfd, .events = POLLIN };
	ASSERT_EQ(1, poll(&pf, 1, 2000));
	EXPECT_TRUE(pf.revents & POLLIN);
	EXPECT_LE(15000000, mpc_now_ns() - t0);	/* not before its period */
	/* still too small with a sample there: nothing consumed */
	EXPECT_EQ(-1, read(sfd, buf, i.sample_size - 1));
	EXPECT_EQ(ENOSPC, errno);
	/* a buffer of 1.5 samples gets one whole sample */
	EXPECT_EQ((ssize_t)i.sample_size, read(sfd, buf, i.sample_size * 3 / 2));
	EXPECT_EQ(1, ((const struct drm_mali_perfcnt_sample_header *)buf)->seqno);
	close(sfd);
	free(buf);
}

/*
 * A ring of 2 samples nobody reads for 300 ms at 10 ms: two samples, then
 * one that stands for the periods the ring had no room for, with OVERFLOW
 * and their exact count: a session of the same period with a ring large
 * enough, sampled by the same hardware samples, delivered lost + 1
 * samples over that span, which hold the same counts. The seqnos have no
 * gap, and the next sample is plain again.
 */
TEST_F(mpc, v3_ring_overflow_is_flagged_with_its_count)
{
	const uint64_t period = 10000000;
	struct drm_mali_perfcnt_get_info_v3 i;
	const struct drm_mali_perfcnt_sample_header *h, *h2, *r;
	uint64_t active = 0;
	unsigned int n, k, in = 0;
	char *buf, *ref;
	int sfd, big;

	ASSERT_EQ(0, get_info_v3(self->fd, &i, NULL, 0));
	buf = calloc(4, i.sample_size);
	ref = calloc(256, i.sample_size);
	ASSERT_NE(NULL, buf);
	ASSERT_NE(NULL, ref);
	ASSERT_EQ(0, mpc_set_workload(self->dbg, "busy=50\n"));
	big = ring_open(self->fd, period, 256, 1, MALI_PERFCNT_SESSION_F_START);
	ASSERT_LE(0, big);
	sfd = ring_open(self->fd, period, 2, 0, MALI_PERFCNT_SESSION_F_START);
	ASSERT_LE(0, sfd);
	mpc_sleep_ms(300);
	ASSERT_EQ((ssize_t)(2 * i.sample_size), read(sfd, buf, 4 * i.sample_size));
	h = (const void *)buf;
	EXPECT_EQ(1, h->seqno);
	EXPECT_EQ(0, h->lost);
	h2 = (const void *)(buf + i.sample_size);
	EXPECT_EQ(2, h2->seqno);
	EXPECT_EQ(0, h2->lost);
	EXPECT_FALSE(h2->flags & MALI_PERFCNT_DATA_OVERFLOW);
	/* the next period's sample holds all the folded ones */
	ASSERT_EQ((ssize_t)i.sample_size, read(sfd, buf + 2 * i.sample_size, i.sample_size));
	h = (const void *)(buf + 2 * i.sample_size);
	EXPECT_EQ(3, h->seqno);
	EXPECT_TRUE(h->flags & MALI_PERFCNT_DATA_OVERFLOW);
	EXPECT_LE(5, h->lost);
	EXPECT_EQ(h2->end_ns, h->start_ns);
	ASSERT_EQ(0, mpc_set_workload(self->dbg, "idle\n"));
	/* the reference: its samples over exactly that span */
	mpc_sleep_ms(30);
	n = read(big, ref, 256 * (size_t)i.sample_size) / i.sample_size;
	for (k = 0; k < n; k++) {
		r = (const void *)(ref + (size_t)k * i.sample_size);
		EXPECT_FALSE(r->flags & MALI_PERFCNT_DATA_OVERFLOW);
		if (r->end_ns > h->start_ns && r->end_ns <= h->end_ns) {
			in++;
			active += jm_value(r, variant->gpu_active);
		}
	}
	EXPECT_EQ(in, h->lost + 1) TH_LOG("%u reference samples in the span, lost %u", in,
					  h->lost);
	EXPECT_EQ(active, jm_value(h, variant->gpu_active));
	ASSERT_EQ((ssize_t)i.sample_size, read(sfd, buf, i.sample_size));
	h = (const void *)buf;
	EXPECT_EQ(4, h->seqno);
	EXPECT_FALSE(h->flags & MALI_PERFCNT_DATA_OVERFLOW);
	EXPECT_EQ(0, h->lost);
	close(sfd);
	close(big);
	free(buf);
	free(ref);
}

/*
 * Two ring sessions at 7 ms and 25 ms at once, read until the slower has
 * 8 samples: each gets contiguous samples of its own, none shorter than
 * its own period on average (longer ones are the hub's lateness, which the
 * benchmark measures), and the slower never more samples than the faster.
 */
TEST_F(mpc, v3_ring_two_sessions_two_periods)
{
	const uint64_t per[2] = { 7000000, 25000000 };
	struct drm_mali_perfcnt_get_info_v3 i;
	unsigned int n[2] = {}, k, j;
	char *buf[2];
	int sfd[2];

	ASSERT_EQ(0, get_info_v3(self->fd, &i, NULL, 0));
	for (k = 0; k < 2; k++) {
		buf[k] = calloc(256, i.sample_size);
		ASSERT_NE(NULL, buf[k]);
		sfd[k] = ring_open(self->fd, per[k], 256, k, MALI_PERFCNT_SESSION_F_START);
		ASSERT_LE(0, sfd[k]);
	}
	while (n[1] < 8) {
		ssize_t r = read(sfd[1], buf[1] + (size_t)n[1] * i.sample_size,
				 (size_t)(256 - n[1]) * i.sample_size);

		ASSERT_LT(0, r);
		n[1] += r / i.sample_size;
	}
	/* the faster one's samples up to the slower one's last */
	while (n[0] < 256) {
		const struct drm_mali_perfcnt_sample_header *h0, *h1;
		ssize_t r = read(sfd[0], buf[0] + (size_t)n[0] * i.sample_size, i.sample_size);

		ASSERT_EQ((ssize_t)i.sample_size, r);
		n[0]++;
		h0 = (const void *)(buf[0] + (size_t)(n[0] - 1) * i.sample_size);
		h1 = (const void *)(buf[1] + (size_t)(n[1] - 1) * i.sample_size);
		if (h0->end_ns >= h1->end_ns)
			break;
	}
	EXPECT_LE(n[1], n[0]);
	for (k = 0; k < 2; k++) {
		uint64_t span = 0;

		for (j = 1; j < n[k]; j++) {
			const struct drm_mali_perfcnt_sample_header *h =
				(const void *)(buf[k] + (size_t)j * i.sample_size);
			const struct drm_mali_perfcnt_sample_header *p =
				(const void *)(buf[k] + (size_t)(j - 1) * i.sample_size);

			EXPECT_EQ(p->end_ns, h->start_ns);
			EXPECT_EQ(k, h->user_data);
			EXPECT_EQ(0, h->lost);
			span += h->end_ns - h->start_ns;
		}
		if (n[k] > 2) {
			double mean = (double)span / (n[k] - 1);

			EXPECT_LT(0.8 * per[k], mean) TH_LOG("session %u mean %.0f", k, mean);
		}
		close(sfd[k]);
		free(buf[k]);
	}
}

struct ring_reader {
	int fd;
	size_t len;
	ssize_t ret;
	int err;
	uint64_t done_ns;
	char *buf;
};

static void *ring_reader_fn(void *arg)
{
	struct ring_reader *r = arg;

	r->ret = read(r->fd, r->buf, r->len);
	r->err = errno;
	r->done_ns = mpc_now_ns();
	return NULL;
}

/*
 * A reader blocked for a sample 1 s away: STOP wakes it with the last
 * interval (which ends at the STOP, not at a period), then read() says
 * ENODATA; close() of the fd by another
 * thread does not free the session under a blocked reader, which gets the
 * next period's sample.
 */
TEST_F(mpc, v3_ring_stop_and_close_with_a_reader_blocked)
{
	struct drm_mali_perfcnt_get_info_v3 i;
	struct ring_reader r = {};
	const struct drm_mali_perfcnt_sample_header *h;
	pthread_t thr;
	uint64_t t0;

	ASSERT_EQ(0, get_info_v3(self->fd, &i, NULL, 0));
	r.len = 2 * i.sample_size;
	r.buf = calloc(2, i.sample_size);
	ASSERT_NE(NULL, r.buf);
	h = (const void *)r.buf;
	r.fd = ring_open(self->fd, 1000000000, 0, 0, MALI_PERFCNT_SESSION_F_START);
	ASSERT_LE(0, r.fd);
	ASSERT_EQ(0, pthread_create(&thr, NULL, ring_reader_fn, &r));
	mpc_sleep_ms(100);
	ASSERT_EQ(0, ioctl(r.fd, MALI_PERFCNT_SESSION_IOCTL_STOP));
	t0 = mpc_now_ns();
	pthread_join(thr, NULL);
	EXPECT_EQ((ssize_t)i.sample_size, r.ret) TH_LOG("read: %s", strerror(r.err));
	EXPECT_GE(t0, h->end_ns);
	EXPECT_GT(1000000000, h->end_ns - h->start_ns);
	EXPECT_EQ(1, h->seqno);
	EXPECT_TRUE(h->flags & MALI_PERFCNT_DATA_FIRST);
	EXPECT_EQ(-1, read(r.fd, r.buf, r.len));
	EXPECT_EQ(ENODATA, errno);

	/* close() in another thread: the reader's file lives on */
	ASSERT_EQ(0, ioctl(r.fd, MALI_PERFCNT_SESSION_IOCTL_START));
	ASSERT_EQ(0, pthread_create(&thr, NULL, ring_reader_fn, &r));
	mpc_sleep_ms(100);
	close(r.fd);
	pthread_join(thr, NULL);
	EXPECT_EQ((ssize_t)i.sample_size, r.ret) TH_LOG("read: %s", strerror(r.err));
	EXPECT_EQ(2, h->seqno);
	EXPECT_TRUE(h->flags & MALI_PERFCNT_DATA_FIRST);
	/* the session ended with its file: the counters are free */
	EXPECT_EQ(0, mpc_enable_all(self->fd));
	free(r.buf);
}

/*
 * Unbind with a reader blocked for a sample 1 s away: it wakes at once
 * with ENODEV (the loss; no hardware sample was taken since START, so
 * there is no last interval to return first), and every read after it
 * gets ENODEV; poll() says HUP; the close afterwards is safe and a new
 * bind works.
 */
TEST_F(mpc, v3_ring_unbind_with_a_reader_blocked)
{
	static const char drv[] = "/sys/bus/platform/drivers/mali_perfcnt";
	const char *dev = mpc_device_name();
	struct drm_mali_perfcnt_get_info_v3 i;
	struct ring_reader r = {};
	struct pollfd pf;
	pthread_t thr;
	uint64_t t0;

	SKIP_ON_HW("unbinds the simulated device");
	ASSERT_EQ(0, get_info_v3(self->fd, &i, NULL, 0));
	r.len = 2 * i.sample_size;
	r.buf = calloc(2, i.sample_size);
	ASSERT_NE(NULL, r.buf);
	r.fd = ring_open(self->fd, 1000000000, 0, 0, MALI_PERFCNT_SESSION_F_START);
	ASSERT_LE(0, r.fd);
	ASSERT_EQ(0, pthread_create(&thr, NULL, ring_reader_fn, &r));
	mpc_sleep_ms(100);
	t0 = mpc_now_ns();
	ASSERT_EQ(0, mpc_dbg_write(drv, "unbind", dev));
	pthread_join(thr, NULL);
	EXPECT_GT(900000000, r.done_ns - t0);	/* the unbind's wake, not a period's */
	EXPECT_EQ(-1, r.ret);
	EXPECT_EQ(ENODEV, r.err);
	EXPECT_EQ(-1, read(r.fd, r.buf, r.len));
	EXPECT_EQ(ENODEV, errno);
	pf = (struct pollfd){ .fd = r.fd, .events = POLLIN };
	EXPECT_EQ(1, poll(&pf, 1, 0));
	EXPECT_TRUE(pf.revents & POLLHUP);
	EXPECT_EQ(-1, ioctl(r.fd, MALI_PERFCNT_SESSION_IOCTL_START));
	EXPECT_EQ(ENODEV, errno);
	close(r.fd);
	close(self->fd);
	self->fd = -1;
	free(r.buf);
	ASSERT_EQ(0, mpc_dbg_write(drv, "bind", dev));
	self->fd = mpc_open_render();
	ASSERT_LE(0, self->fd);
	ASSERT_EQ(0, mpc_enable_all(self->fd));
}

struct ring_loop {
	int fd;
	uint32_t size;
	volatile int stop;
	unsigned int n, power_loss, gaps;
	int err;
	uint64_t end_prev;
};

static void *ring_loop_fn(void *arg)
{
	struct ring_loop *l = arg;
	char *buf = malloc(l->size);

	while (buf && !l->stop) {
		const struct drm_mali_perfcnt_sample_header *h = (const void *)buf;
		ssize_t r = read(l->fd, buf, l->size);

		if (r != (ssize_t)l->size) {
			l->err = r < 0 ? errno : EIO;
			break;
		}
		if (l->n && h->start_ns != l->end_prev)
			l->gaps++;
		l->end_prev = h->end_ns;
		l->power_loss += !!(h->flags & MALI_PERFCNT_DATA_AFTER_POWER_LOSS);
		l->n++;
	}
	free(buf);
	return NULL;
}

/*
 * System sleep (pm_test "platform": the simulator's power domain goes off)
 * with a reader blocked on a 10 ms ring: it is frozen and thawed, no
 * error, the samples go on without a gap, one of them AFTER_POWER_LOSS.
 */
TEST_F(mpc, v3_ring_system_sleep_with_a_reader)
{
	struct drm_mali_perfcnt_get_info_v3 i;
	struct ring_loop l = {};
	char states[128] = "";
	const char *state;
	pthread_t thr;
	unsigned int before;

	SKIP_ON_HW("the simulator's power domain cuts the GPU's power");
	state = mpc_sleep_state(states, sizeof(states));
	if (!state)
		SKIP(return, "no suspend state or no pm_test (CONFIG_PM_DEBUG): '%s'", states);
	ASSERT_EQ(0, get_info_v3(self->fd, &i, NULL, 0));
	l.size = i.sample_size;
	l.fd = ring_open(self->fd, 10000000, 0, 0, MALI_PERFCNT_SESSION_F_START);
	ASSERT_LE(0, l.fd);
	ASSERT_EQ(0, pthread_create(&thr, NULL, ring_loop_fn, &l));
	mpc_sleep_ms(100);
	before = l.n;
	ASSERT_EQ(0, mpc_system_sleep(state));
	mpc_sleep_ms(200);
	l.stop = 1;
	ASSERT_EQ(0, ioctl(l.fd, MALI_PERFCNT_SESSION_IOCTL_STOP));	/* ends the last read */
	pthread_join(thr, NULL);
	EXPECT_EQ(0, l.err) TH_LOG("read: %s", strerror(l.err));
	EXPECT_LT(before + 5, l.n);
	EXPECT_EQ(0, l.gaps);
	EXPECT_EQ(1, l.power_loss);
	close(l.fd);
}

/* The driven device's runtime PM file @what ("runtime_status", "control") */
static int rpm_file(const char *what, char *val, size_t len, const char *write)
{
	char path[PATH_MAX];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/sys/bus/platform/devices/%s/power/%s",
		 mpc_device_name(), what);
	if (write)
		return mpc_write_file(path, write);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -errno;
	n = read(fd, val, len - 1);
	close(fd);
	if (n < 0)
		return -errno;
	val[n] = '\0';
	val[strcspn(val, "\n")] = '\0';
	return 0;
}

static bool rpm_is(const char *status)
{
	char val[32] = "";

	return !rpm_file("runtime_status", val, sizeof(val), NULL) && !strcmp(val, status);
}

/* The JM block's GPU_ACTIVE and whether every block is in power state @pwr with 0s */
static uint64_t sample_active(const void *buf, unsigned int gpu_active, uint32_t *pwr,
			      bool *all_zero)
{
	const struct drm_mali_perfcnt_sample_header *h = buf;
	const char *p = (const char *)buf + SHDR;
	const struct drm_mali_perfcnt_block_header *jm;
	uint32_t b, c;

	*pwr = ~0u;
	*all_zero = true;
	for (b = 0; b < h->nr_blocks; b++) {
		const struct drm_mali_perfcnt_block_header *bh = (const void *)p;
		const uint64_t *v = (const void *)(bh + 1);

		/* the GPU is powered as a whole: one state for every block */
		if (*pwr == ~0u)
			*pwr = bh->power_state;
		else if (*pwr != bh->power_state)
			*pwr = ~1u;
		for (c = 0; c < bh->nr_values; c++)
			if (v[c])
				*all_zero = false;
		p += BHDR + bh->nr_values * 8;
	}
	jm = find_block(buf, MALI_PERFCNT_BLOCK_JM, 0);
	return jm ? ((const uint64_t *)(jm + 1))[gpu_active] : ~0ULL;
}

/*
 * power_policy "follow": a session holds no power. With nothing keeping
 * the GPU awake it runtime-suspends while the session counts; the sample
 * across the suspend holds what the GPU counted up to it (PARTIAL), the
 * next reads zeros (OFF) without waking the GPU, and after a resume the
 * counters count again (PARTIAL, then ON). The default policy keeps it
 * awake.
 */
TEST_F(mpc, v3_session_follows_runtime_power)
{
	struct drm_mali_perfcnt_get_info_v3 i;
	uint64_t a, min_on;
	bool zero;
	uint32_t pwr;
	void *buf;
	int sfd, k;

	ASSERT_EQ(0, get_info_v3(self->fd, &i, NULL, 0));
	ASSERT_NE(0, i.gpu_freq_hz);
	buf = calloc(1, i.sample_size);
	ASSERT_NE(NULL, buf);
	ASSERT_EQ(0, rpm_file("control", NULL, 0, "auto"));
	/*
	 * Idle, the GPU suspends unless its usage count was left up by a
	 * driver bound before: panfrost's remove takes a reference it never
	 * drops (the panfrost series fixes it), and the count is the device's.
	 */
	for (k = 0; k < 100 && !rpm_is("suspended"); k++)
		mpc_sleep_ms(10);
	if (!rpm_is("suspended"))
		SKIP(goto out, "%s", "the GPU does not runtime-suspend even idle: a "
		     "runtime PM reference is held outside this driver (an unbind of "
		     "panfrost leaves one)");
	ASSERT_EQ(0, mpc_set_workload(self->dbg, "busy=50\n"));

	/* always_on: the session keeps the GPU active past the autosuspend */
	ASSERT_EQ(0, mpc_dbg_write(self->dbg, "power_policy", "always_on"));
	sfd = sess_open(self->fd, NULL, 0, MALI_PERFCNT_SESSION_F_START);
	ASSERT_LE(0, sfd);
	mpc_sleep_ms(400);
	EXPECT_TRUE(rpm_is("active"));
	close(sfd);

	EXPECT_EQ(-EINVAL, mpc_dbg_write(self->dbg, "power_policy", "sometimes"));
	ASSERT_EQ(0, mpc_dbg_write(self->dbg, "power_policy", "follow"));
	sfd = sess_open(self->fd, NULL, 0, MALI_PERFCNT_SESSION_F_START);
	ASSERT_LE(0, sfd);
	ASSERT_EQ(0, sess_sample(sfd, buf, i.sample_size));
	sample_active(buf, variant->gpu_active, &pwr, &zero);
	EXPECT_EQ(MALI_PERFCNT_POWER_ON, pwr);
	/* the autosuspend delay (100 ms) passes with the GPU counting */
	for (k = 0; k < 300 && !rpm_is("suspended"); k++)
		mpc_sleep_ms(10);
	ASSERT_TRUE(rpm_is("suspended")) {
		char st[32] = "", ctl[32] = "", kids[32] = "", dly[32] = "";

		rpm_file("runtime_status", st, sizeof(st), NULL);
		rpm_file("control", ctl, sizeof(ctl), NULL);
		rpm_file("runtime_active_kids", kids, sizeof(kids), NULL);
		rpm_file("autosuspend_delay_ms", dly, sizeof(dly), NULL);
		TH_LOG("after 3 s: runtime_status %s, control %s, active kids %s, autosuspend %s ms",
		       st, ctl, kids, dly);
	}
	mpc_sleep_ms(100);
	ASSERT_EQ(0, sess_sample(sfd, buf, i.sample_size));
	a = sample_active(buf, variant->gpu_active, &pwr, &zero);
	EXPECT_EQ(MALI_PERFCNT_POWER_PARTIAL, pwr);
	/* busy=50 for at least half the 100 ms delay: taken before the power-down */
	min_on = i.gpu_freq_hz / 2 / 20 / 2;
	EXPECT_LE(min_on, a) TH_LOG("GPU_ACTIVE %llu before the suspend, want >= %llu",
				    (unsigned long long)a, (unsigned long long)min_on);
	/* the sample read nothing of the GPU: it is still suspended */
	EXPECT_TRUE(rpm_is("suspended"));
	mpc_sleep_ms(100);
	ASSERT_EQ(0, sess_sample(sfd, buf, i.sample_size));
	sample_active(buf, variant->gpu_active, &pwr, &zero);
	EXPECT_EQ(MALI_PERFCNT_POWER_OFF, pwr);
	EXPECT_TRUE(zero);
	EXPECT_TRUE(rpm_is("suspended"));

	/* something else keeps the GPU awake: the counters count again */
	ASSERT_EQ(0, rpm_file("control", NULL, 0, "on"));
	EXPECT_TRUE(rpm_is("active"));
	mpc_sleep_ms(200);
	ASSERT_EQ(0, sess_sample(sfd, buf, i.sample_size));
	a = sample_active(buf, variant->gpu_active, &pwr, &zero);
	EXPECT_EQ(MALI_PERFCNT_POWER_PARTIAL, pwr);
	EXPECT_LE(i.gpu_freq_hz / 2 / 5 / 2, a);
	mpc_sleep_ms(200);
	ASSERT_EQ(0, sess_sample(sfd, buf, i.sample_size));
	a = sample_active(buf, variant->gpu_active, &pwr, &zero);
	EXPECT_EQ(MALI_PERFCNT_POWER_ON, pwr);
	EXPECT_LE(i.gpu_freq_hz / 2 / 5 / 2, a);
	EXPECT_EQ(0, rpm_file("control", NULL, 0, "auto"));
	close(sfd);
	EXPECT_EQ(0, mpc_dbg_write(self->dbg, "power_policy", "always_on"));
out:
	free(buf);
}

TEST_HARNESS_MAIN
