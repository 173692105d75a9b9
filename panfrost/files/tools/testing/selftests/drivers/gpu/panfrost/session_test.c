// SPDX-License-Identifier: GPL-2.0
/*
 * Tests of the mali-perfcnt counter sessions on panfrost's render node
 * (DRM_PANFROST_PERFCNT_FEATURE_SESSIONS): PERFCNT_QUERY, a session's
 * self-describing samples, two sessions at once, the exclusion of the
 * PERFCNT_SAMPLE owner, the debugfs view, a GPU reset in the middle of a
 * session (a job that outlives panfrost's job timeout), the access policy
 * (sysctl dev.panfrost.perf_stream_paranoid, from a child without
 * capabilities), the core's own recovery from a sample that never
 * completes (on the QEMU GPU model, whose test-control window
 * MPC_QEMU_CTL arms the fault), a session across a runtime suspend and
 * resume, and unbinding panfrost with a session open (last: it binds the
 * device again after).
 *
 * The GPU is expected to be busy while they run (on the QEMU GPU model:
 * its synthetic load), so that the job manager counts GPU_ACTIVE cycles.
 * A synthetic load runs no job, so nothing would keep the GPU
 * runtime-active while sessions count (they follow its power): each test
 * holds it awake through its power/control, but
 * session_follows_runtime_power, which lets it suspend under a session.
 * Needs root (CAP_PERFMON, the sysctls, setuid).
 */

#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <grp.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <linux/capability.h>

#include <drm/panfrost_drm.h>
#include <drm/mali_perfcnt_drm.h>

#include "../../../kselftest_harness.h"
#include "pf_util.h"

/*
 * The value of a job manager block that counts the cycles the GPU had
 * work: 6, but 4 on the T72x (GPU_ID product 0x0720), whose job manager
 * block has no message counters in front of it. Set from PERFCNT_QUERY's
 * GPU_ID.
 */
static unsigned int jm_gpu_active = 6;

static int pf_op(int fd, __u32 op)
{
	struct drm_panfrost_perfcnt_sample s = { .op = op };

	return pf_ioctl(fd, DRM_IOCTL_PANFROST_PERFCNT_SAMPLE, &s);
}

/* A session with the given JM and shader masks, started with @start */
static int session_open(int fd, __u64 jm, __u64 shader, __u64 user_data, int start)
{
	struct drm_mali_perfcnt_ext_set_property props[3] = {
		{ .property = MALI_PERFCNT_PROP_JM_MASK, .value = jm },
		{ .property = MALI_PERFCNT_PROP_SHADER_MASK, .value = shader },
		{ .property = MALI_PERFCNT_PROP_USER_DATA, .value = user_data },
	};
	struct drm_mali_perfcnt_session_open o = {
		.extensions = (uintptr_t)&props[0],
		.flags = MALI_PERFCNT_SESSION_F_CLOEXEC |
			 (start ? MALI_PERFCNT_SESSION_F_START : 0),
	};
	int i;

	for (i = 0; i < 3; i++) {
		props[i].base.name = MALI_PERFCNT_EXT_SET_PROPERTY;
		props[i].base.next_extension = i < 2 ? (uintptr_t)&props[i + 1] : 0;
	}
	return pf_ioctl(fd, DRM_IOCTL_PANFROST_PERFCNT_SESSION_OPEN, &o);
}

static int session_sample(int sfd, void *buf, __u32 size)
{
	struct drm_mali_perfcnt_session_sample s = {
		.buf_ptr = (uintptr_t)buf,
		.buf_size = size,
	};

	return pf_ioctl(sfd, MALI_PERFCNT_SESSION_IOCTL_SAMPLE, &s);
}

/* What a walk of one sample found */
struct walk {
	__u32 nr_blocks;
	__u32 by_type[MALI_PERFCNT_MAX_BLOCK_TYPES];
	__u64 jm_mask;
	__u64 shader_mask;
	__u64 gpu_active;
	int bad;		/* a block header out of its bounds */
};

/*
 * Walk the blocks of a sample by their own headers, as a reader that has
 * no product table would; count what a test checks.
 */
static void walk_sample(const void *buf, __u32 size, struct walk *w)
{
	const struct drm_mali_perfcnt_sample_header *h = buf;
	const __u8 *p = (const __u8 *)buf + sizeof(*h);
	const __u8 *end = (const __u8 *)buf + size;
	__u32 i;

	memset(w, 0, sizeof(*w));
	for (i = 0; i < h->nr_blocks; i++) {
		const struct drm_mali_perfcnt_block_header *b = (const void *)p;
		const __u64 *v = (const __u64 *)(b + 1);

		if (p + sizeof(*b) > end || (const __u8 *)(v + b->nr_values) > end ||
		    b->nr_values != 64 || b->block_type == 0 ||
		    b->block_type >= MALI_PERFCNT_MAX_BLOCK_TYPES) {
			w->bad = 1;
			return;
		}
		w->nr_blocks++;
		w->by_type[b->block_type]++;
		if (b->block_type == MALI_PERFCNT_BLOCK_JM) {
			w->jm_mask = b->enable_mask;
			w->gpu_active += v[jm_gpu_active];
		}
		if (b->block_type == MALI_PERFCNT_BLOCK_SHADER)
			w->shader_mask |= b->enable_mask;
		p = (const __u8 *)(v + b->nr_values);
	}
	if (p != end)
		w->bad = 1;
}

FIXTURE(session) {
	int fd;
	struct drm_mali_perfcnt_get_info_v3 info;
	struct drm_mali_perfcnt_block_type_info types[MALI_PERFCNT_MAX_BLOCK_TYPES];
	void *buf;
};

/*
 * Each test checks self->buf itself: older harnesses run the test after a
 * SKIP in FIXTURE_SETUP.
 */
FIXTURE_SETUP(session)
{
	__u64 features = 0;
	int ret;

	self->buf = NULL;
	self->fd = pf_open();
	if (self->fd < 0)
		SKIP(return, "no panfrost render node");
	ret = pf_param(self->fd, DRM_PANFROST_PARAM_PERFCNT_FEATURES, &features);
	if (ret == -EINVAL || !(features & DRM_PANFROST_PERFCNT_FEATURE_SESSIONS))
		SKIP(return, "panfrost without counter sessions");
	ASSERT_EQ(0, ret);
	memset(&self->info, 0, sizeof(self->info));
	self->info.block_types_ptr = (uintptr_t)self->types;
	self->info.nr_block_types = MALI_PERFCNT_MAX_BLOCK_TYPES;
	ASSERT_EQ(0, pf_ioctl(self->fd, DRM_IOCTL_PANFROST_PERFCNT_QUERY, &self->info));
	ASSERT_GT(self->info.sample_size, sizeof(struct drm_mali_perfcnt_sample_header));
	jm_gpu_active = (self->info.gpu_id >> 16) == 0x0720 ? 4 : 6;
	self->buf = calloc(1, self->info.sample_size);
	ASSERT_NE(NULL, self->buf);
	/* the load stands for jobs: what they would do, keep the GPU awake */
	ASSERT_EQ(0, pf_rpm(self->fd, "control", "on", NULL, 0));
}

FIXTURE_TEARDOWN(session)
{
	free(self->buf);
	if (self->fd >= 0) {
		pf_rpm(self->fd, "control", "auto", NULL, 0);
		close(self->fd);
	}
}

TEST_F(session, query)
{
	struct drm_mali_perfcnt_get_info_v3 bad = { .flags = 1 };
	__u64 shader, prod;
	__u32 i, blocks = 0;
	int seen_shader = 0;

	if (!self->buf)
		SKIP(return, "no counter sessions");
	ASSERT_EQ(0, pf_param(self->fd, DRM_PANFROST_PARAM_SHADER_PRESENT, &shader));
	ASSERT_EQ(0, pf_param(self->fd, DRM_PANFROST_PARAM_GPU_PROD_ID, &prod));
	EXPECT_EQ(prod, self->info.gpu_id >> 16);
	EXPECT_EQ(shader, self->info.shader_present);
	EXPECT_EQ(MALI_PERFCNT_UAPI_VERSION_V3, self->info.uapi_version);
	EXPECT_GE(self->info.max_sessions, 2);
	EXPECT_NE(0, self->info.product[0]);
	ASSERT_GE(self->info.nr_block_types, 4);
	ASSERT_LE(self->info.nr_block_types, MALI_PERFCNT_MAX_BLOCK_TYPES);
	for (i = 0; i < self->info.nr_block_types; i++) {
		EXPECT_EQ(64, self->types[i].nr_values);
		blocks += self->types[i].nr_instances;
		if (self->types[i].type == MALI_PERFCNT_BLOCK_SHADER) {
			seen_shader = 1;
			EXPECT_EQ(shader, self->types[i].instance_mask);
			EXPECT_EQ(__builtin_popcountll(shader), self->types[i].nr_instances);
		}
	}
	EXPECT_TRUE(seen_shader);
	EXPECT_EQ(sizeof(struct drm_mali_perfcnt_sample_header) +
		  blocks * (sizeof(struct drm_mali_perfcnt_block_header) + 64 * 8),
		  self->info.sample_size);
	EXPECT_EQ(-EINVAL, pf_ioctl(self->fd, DRM_IOCTL_PANFROST_PERFCNT_QUERY, &bad));
}

TEST_F(session, open_start_sample_stop)
{
	struct drm_mali_perfcnt_sample_header h1, h2, h3;
	struct drm_mali_perfcnt_session_sample small = { 0 };
	struct walk w;
	__u32 i, blocks = 0;
	int sfd;

	if (!self->buf)
		SKIP(return, "no counter sessions");
	sfd = session_open(self->fd, 0xffff, 0xffff, 0x1234, 0);
	ASSERT_GE(sfd, 0);
	/* Opened stopped: nothing to sample */
	EXPECT_EQ(-ENODATA, session_sample(sfd, self->buf, self->info.sample_size));
	ASSERT_EQ(0, pf_ioctl(sfd, MALI_PERFCNT_SESSION_IOCTL_START, NULL));
	EXPECT_EQ(-EALREADY, pf_ioctl(sfd, MALI_PERFCNT_SESSION_IOCTL_START, NULL));
	usleep(100 * 1000);
	ASSERT_EQ(0, session_sample(sfd, self->buf, self->info.sample_size));
	memcpy(&h1, self->buf, sizeof(h1));

	for (i = 0; i < self->info.nr_block_types; i++)
		blocks += self->types[i].nr_instances;
	EXPECT_EQ(self->info.sample_size, h1.size);
	EXPECT_EQ(blocks, h1.nr_blocks);
	EXPECT_EQ(MALI_PERFCNT_CLOCK_MONOTONIC_RAW, h1.clock_id);
	EXPECT_EQ(0x1234, h1.user_data);
	EXPECT_EQ(1, h1.seqno);
	EXPECT_TRUE(h1.flags & MALI_PERFCNT_DATA_FIRST);
	EXPECT_FALSE(h1.flags & MALI_PERFCNT_DATA_AFTER_RECOVERY);
	EXPECT_GT(h1.end_ns, h1.start_ns);
	/* 100 ms asked: at least that, and not ten times more */
	EXPECT_GE(h1.end_ns - h1.start_ns, 90 * 1000 * 1000ULL);
	EXPECT_LT(h1.end_ns - h1.start_ns, 1000 * 1000 * 1000ULL);
	if (self->info.gpu_freq_hz)
		EXPECT_GT(h1.gpu_cycles, 0);
	walk_sample(self->buf, h1.size, &w);
	ASSERT_FALSE(w.bad);
	EXPECT_EQ(h1.nr_blocks, w.nr_blocks);
	EXPECT_EQ(1, w.by_type[MALI_PERFCNT_BLOCK_JM]);
	EXPECT_EQ(1, w.by_type[MALI_PERFCNT_BLOCK_TILER]);
	EXPECT_EQ(__builtin_popcountll(self->info.shader_present),
		  w.by_type[MALI_PERFCNT_BLOCK_SHADER]);
	EXPECT_GT(w.gpu_active, 0);

	usleep(50 * 1000);
	ASSERT_EQ(0, session_sample(sfd, self->buf, self->info.sample_size));
	memcpy(&h2, self->buf, sizeof(h2));
	EXPECT_EQ(2, h2.seqno);
	EXPECT_FALSE(h2.flags & MALI_PERFCNT_DATA_FIRST);
	EXPECT_GE(h2.start_ns, h1.end_ns);
	walk_sample(self->buf, h2.size, &w);
	EXPECT_FALSE(w.bad);
	EXPECT_GT(w.gpu_active, 0);

	/* Too small a buffer: -ENOSPC and the size needed */
	small.buf_ptr = (uintptr_t)self->buf;
	small.buf_size = self->info.sample_size - 1;
	EXPECT_EQ(-ENOSPC, pf_ioctl(sfd, MALI_PERFCNT_SESSION_IOCTL_SAMPLE, &small));
	EXPECT_EQ(self->info.sample_size, small.buf_size);

	/* Stopped: what was counted up to STOP, once */
	ASSERT_EQ(0, pf_ioctl(sfd, MALI_PERFCNT_SESSION_IOCTL_STOP, NULL));
	EXPECT_EQ(-EALREADY, pf_ioctl(sfd, MALI_PERFCNT_SESSION_IOCTL_STOP, NULL));
	EXPECT_EQ(0, session_sample(sfd, self->buf, self->info.sample_size));
	memcpy(&h3, self->buf, sizeof(h3));
	EXPECT_EQ(3, h3.seqno);
	EXPECT_EQ(-ENODATA, session_sample(sfd, self->buf, self->info.sample_size));
	close(sfd);
}

TEST_F(session, two_sessions)
{
	struct drm_mali_perfcnt_sample_header ha, hb;
	void *buf2 = calloc(1, self->info.sample_size);
	struct walk wa, wb;
	int a, b, r;

	if (!self->buf)
		SKIP(return, "no counter sessions");
	ASSERT_NE(NULL, buf2);
	a = session_open(self->fd, 0xffff, 0xffff, 1, 1);
	ASSERT_GE(a, 0);
	/* Only the job manager's group 1 (GPU_ACTIVE), no shader counters */
	b = session_open(self->fd, 0x2, 0, 2, 1);
	ASSERT_GE(b, 0);
	for (r = 0; r < 3; r++) {
		usleep(50 * 1000);
		ASSERT_EQ(0, session_sample(a, self->buf, self->info.sample_size));
		ASSERT_EQ(0, session_sample(b, buf2, self->info.sample_size));
		memcpy(&ha, self->buf, sizeof(ha));
		memcpy(&hb, buf2, sizeof(hb));
		EXPECT_EQ(r + 1, ha.seqno);
		EXPECT_EQ(r + 1, hb.seqno);
		EXPECT_EQ(1, ha.user_data);
		EXPECT_EQ(2, hb.user_data);
		walk_sample(self->buf, ha.size, &wa);
		walk_sample(buf2, hb.size, &wb);
		ASSERT_FALSE(wa.bad);
		ASSERT_FALSE(wb.bad);
		/* Each session reads its own masks, not the hardware's union */
		EXPECT_NE(0, wa.shader_mask);
		EXPECT_EQ(0, wb.shader_mask);
		EXPECT_EQ(0xf0ULL, wb.jm_mask);
		EXPECT_GT(wa.gpu_active, 0);
		EXPECT_GT(wb.gpu_active, 0);
	}
	/* b's interval covers a's last one: a stop of a does not end b's */
	close(a);
	usleep(50 * 1000);
	ASSERT_EQ(0, session_sample(b, buf2, self->info.sample_size));
	walk_sample(buf2, ((struct drm_mali_perfcnt_sample_header *)buf2)->size, &wb);
	EXPECT_FALSE(wb.bad);
	EXPECT_GT(wb.gpu_active, 0);
	close(b);
	free(buf2);
}

TEST_F(session, excludes_perfcnt_sample_owner)
{
	int fd2 = pf_open(), sfd;

	if (!self->buf)
		SKIP(return, "no counter sessions");
	ASSERT_GE(fd2, 0);
	sfd = session_open(self->fd, 0xffff, 0xffff, 0, 1);
	ASSERT_GE(sfd, 0);
	EXPECT_EQ(-EBUSY, pf_op(fd2, DRM_PANFROST_PERFCNT_OP_ENABLE));
	close(sfd);

	ASSERT_EQ(0, pf_op(fd2, DRM_PANFROST_PERFCNT_OP_ENABLE));
	sfd = session_open(self->fd, 0xffff, 0xffff, 0, 0);
	ASSERT_GE(sfd, 0);
	EXPECT_EQ(-EBUSY, pf_ioctl(sfd, MALI_PERFCNT_SESSION_IOCTL_START, NULL));
	EXPECT_EQ(0, pf_op(fd2, DRM_PANFROST_PERFCNT_OP_DISABLE));
	EXPECT_EQ(0, pf_ioctl(sfd, MALI_PERFCNT_SESSION_IOCTL_START, NULL));
	close(sfd);
	close(fd2);
}

/* The debugfs directory of panfrost's DRM minor that has the core's files */
static int debugfs_dir(char *dir, size_t size)
{
	const char *root = "/sys/kernel/debug/dri";
	struct dirent *e;
	char path[PATH_MAX], name[64];
	int found = 0;
	DIR *d = opendir(root);
	FILE *f;

	if (!d)
		return -errno;
	while (!found && (e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s/name", root, e->d_name);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (fscanf(f, "%63s", name) == 1 && !strcmp(name, "panfrost")) {
			snprintf(path, sizeof(path), "%s/%s/perfcnt_counters", root, e->d_name);
			if (!access(path, F_OK)) {
				snprintf(dir, size, "%s/%s", root, e->d_name);
				found = 1;
			}
		}
		fclose(f);
	}
	closedir(d);
	return found ? 0 : -ENOENT;
}

/* Read all of @dir/@file into @buf (NUL-terminated); bytes read or -errno */
static ssize_t read_file(const char *dir, const char *file, char *buf, size_t size)
{
	char path[PATH_MAX];
	ssize_t n, total = 0;
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -errno;
	while ((size_t)total < size - 1 &&
	       (n = read(fd, buf + total, size - 1 - total)) > 0)
		total += n;
	if (n < 0)
		total = -errno;
	close(fd);
	if (total >= 0)
		buf[total] = 0;
	return total;
}

static int write_file(const char *dir, const char *file, const char *text)
{
	char path[PATH_MAX];
	int fd, ret = 0;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	fd = open(path, O_WRONLY);
	if (fd < 0)
		return -errno;
	if (write(fd, text, strlen(text)) < 0)
		ret = -errno;
	close(fd);
	return ret;
}

TEST_F(session, debugfs)
{
	static const char * const text[] = {
		"gpu_info", "perfcnt_stats", "perfcnt_enable", "perfcnt_va",
	};
	size_t size = 1 << 20;
	char dir[PATH_MAX], *buf = malloc(size);
	unsigned int i;
	ssize_t n;
	int sfd;

	if (!self->buf)
		SKIP(return, "no counter sessions");
	ASSERT_NE(NULL, buf);
	if (access("/sys/kernel/debug/dri", F_OK))
		SKIP(free(buf); return, "no debugfs at /sys/kernel/debug");
	ASSERT_EQ(0, debugfs_dir(dir, sizeof(dir)));

	for (i = 0; i < ARRAY_SIZE(text); i++) {
		n = read_file(dir, text[i], buf, size);
		EXPECT_GT(n, 0) TH_LOG("%s/%s: %zd", dir, text[i], n);
	}
	n = read_file(dir, "gpu_info", buf, size);
	ASSERT_GT(n, 0);
	EXPECT_NE(NULL, strstr(buf, self->info.product)) TH_LOG("gpu_info: %s", buf);

	/* Counters need an owner: debugfs's own, through perfcnt_enable */
	EXPECT_LT(read_file(dir, "perfcnt_counters", buf, size), 0);
	ASSERT_EQ(0, write_file(dir, "perfcnt_enable", "1"));
	/* The debugfs owner and the sessions exclude each other */
	sfd = session_open(self->fd, 0xffff, 0xffff, 0, 0);
	ASSERT_GE(sfd, 0);
	EXPECT_EQ(-EBUSY, pf_ioctl(sfd, MALI_PERFCNT_SESSION_IOCTL_START, NULL));
	usleep(50 * 1000);
	n = read_file(dir, "perfcnt_counters", buf, size);
	EXPECT_GT(n, 0);
	EXPECT_EQ(0, strncmp(buf, "seqno ", 6)) TH_LOG("perfcnt_counters: %.200s", buf);
	EXPECT_NE(NULL, strstr(buf, "\njm ")) TH_LOG("perfcnt_counters: %.200s", buf);
	EXPECT_NE(NULL, strstr(buf, "\nshader.")) TH_LOG("perfcnt_counters: %.200s", buf);
	n = read_file(dir, "perfcnt_dump", buf, size);
	EXPECT_GT(n, 0);
	EXPECT_EQ(0, n % 256);
	n = read_file(dir, "perfcnt_enable", buf, size);
	EXPECT_GT(n, 0);
	EXPECT_EQ(0, write_file(dir, "perfcnt_enable", "0"));
	EXPECT_EQ(0, pf_ioctl(sfd, MALI_PERFCNT_SESSION_IOCTL_START, NULL));
	close(sfd);
	free(buf);
}

TEST_F(session, reset_mid_session)
{
	struct drm_mali_perfcnt_sample_header h;
	struct walk w;
	int sfd, i, recovered = 0;

	if (!self->buf)
		SKIP(return, "no counter sessions");
	sfd = session_open(self->fd, 0xffff, 0xffff, 0, 1);
	ASSERT_GE(sfd, 0);
	usleep(50 * 1000);
	ASSERT_EQ(0, session_sample(sfd, self->buf, self->info.sample_size));
	memcpy(&h, self->buf, sizeof(h));
	EXPECT_FALSE(h.flags & MALI_PERFCNT_DATA_AFTER_RECOVERY);

	ASSERT_EQ(0, hang_a_job(self->fd));
	/*
	 * The reset's notification reaches the core from a work item: the
	 * first samples after it carry AFTER_RECOVERY (the flag belongs to
	 * the interval the reset fell in).
	 */
	for (i = 0; i < 20 && !recovered; i++) {
		usleep(50 * 1000);
		ASSERT_EQ(0, session_sample(sfd, self->buf, self->info.sample_size));
		memcpy(&h, self->buf, sizeof(h));
		recovered = !!(h.flags & MALI_PERFCNT_DATA_AFTER_RECOVERY);
	}
	EXPECT_TRUE(recovered);

	/* Counting resumed: the next interval is a clean one that counts */
	usleep(100 * 1000);
	ASSERT_EQ(0, session_sample(sfd, self->buf, self->info.sample_size));
	memcpy(&h, self->buf, sizeof(h));
	EXPECT_FALSE(h.flags & MALI_PERFCNT_DATA_AFTER_RECOVERY);
	walk_sample(self->buf, h.size, &w);
	EXPECT_FALSE(w.bad);
	EXPECT_GT(w.gpu_active, 0);
	close(sfd);
}

/* A file of one integer, e.g. a sysctl: 0 or -errno */
static int int_read(const char *path, int *val)
{
	FILE *f = fopen(path, "r");
	int ret = 0;

	if (!f)
		return -errno;
	if (fscanf(f, "%d", val) != 1)
		ret = -EINVAL;
	fclose(f);
	return ret;
}

static int int_write(const char *path, int val)
{
	char text[16];
	int fd, ret = 0;

	snprintf(text, sizeof(text), "%d\n", val);
	fd = open(path, O_WRONLY);
	if (fd < 0)
		return -errno;
	if (write(fd, text, strlen(text)) < 0)
		ret = -errno;
	close(fd);
	return ret;
}

#define PARANOID	"/proc/sys/dev/panfrost/perf_stream_paranoid"
#define MIN_UNPRIV	"/proc/sys/dev/panfrost/session_min_period_unpriv_us"
#define NOBODY		65534

/* A stopped session on @fd, all blocks, with @period_ns when not 0 */
static int session_open_period(int fd, __u64 period_ns)
{
	struct drm_mali_perfcnt_ext_set_property prop = {
		.base.name = MALI_PERFCNT_EXT_SET_PROPERTY,
		.property = MALI_PERFCNT_PROP_PERIOD_NS,
		.value = period_ns,
	};
	struct drm_mali_perfcnt_session_open o = {
		.extensions = period_ns ? (uintptr_t)&prop : 0,
		.flags = MALI_PERFCNT_SESSION_F_CLOEXEC,
	};

	return pf_ioctl(fd, DRM_IOCTL_PANFROST_PERFCNT_SESSION_OPEN, &o);
}

/*
 * Drop every capability of this process (setresuid() from root to another
 * user already clears them, unless securebits keep them), then check that
 * none is left: 0 or -errno.
 */
static int drop_caps(void)
{
	struct __user_cap_header_struct hdr = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct data[2];

	memset(data, 0, sizeof(data));
	if (syscall(SYS_capset, &hdr, data) || syscall(SYS_capget, &hdr, data)) {
		fprintf(stderr, "# capset/capget: %s\n", strerror(errno));
		return -errno;
	}
	if (data[0].effective | data[1].effective | data[0].permitted | data[1].permitted) {
		fprintf(stderr, "# capabilities left: effective %08x%08x permitted %08x%08x\n",
			data[1].effective, data[0].effective, data[1].permitted, data[0].permitted);
		return -EPERM;
	}
	return 0;
}

/*
 * SESSION_OPEN on @fd (opened by this privileged process) from a child that
 * became user and group nobody and dropped every capability: 0 when it got
 * a session, -errno when not, or 1000 + the step that failed (201 the
 * setresuid(), 202 the drop).
 */
static int unpriv_open(int fd, __u64 period_ns)
{
	int status, ret;
	pid_t pid;

	pid = fork();
	if (pid < 0)
		return 1000;
	if (!pid) {
		if (setgroups(0, NULL) || setresgid(NOBODY, NOBODY, NOBODY) ||
		    setresuid(NOBODY, NOBODY, NOBODY)) {
			fprintf(stderr, "# becoming user nobody: %s\n", strerror(errno));
			_exit(201);
		}
		if (drop_caps())
			_exit(202);
		ret = session_open_period(fd, period_ns);
		_exit(ret >= 0 ? 0 : -ret < 200 ? -ret : 203);
	}
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return 1000;
	ret = WEXITSTATUS(status);
	return ret >= 200 ? 1000 + ret : -ret;
}

/*
 * Who may open a session: sysctl dev.panfrost.perf_stream_paranoid, 1 by
 * default (CAP_PERFMON only), 0 (any user of the render node, with periods
 * of at least dev.panfrost.session_min_period_unpriv_us). CAP_PERFMON is
 * always enough. The sysctls are restored after.
 */
TEST_F(session, unprivileged_policy)
{
	int paranoid = -1, min_us = -1, v;
	int sfd;

	if (!self->buf)
		SKIP(return, "no counter sessions");
	ASSERT_EQ(0, int_read(PARANOID, &paranoid))
		TH_LOG("no sysctl dev.panfrost.perf_stream_paranoid (%s)", PARANOID);
	ASSERT_EQ(0, int_read(MIN_UNPRIV, &min_us))
		TH_LOG("no sysctl dev.panfrost.session_min_period_unpriv_us (%s)", MIN_UNPRIV);
	EXPECT_EQ(1, paranoid) TH_LOG("perf_stream_paranoid is 1 by default");
	EXPECT_EQ(1000, min_us) TH_LOG("session_min_period_unpriv_us is 1000 by default");
	if (paranoid != 1)
		ASSERT_EQ(0, int_write(PARANOID, 1));

	/* 1: CAP_PERFMON only */
	EXPECT_EQ(-EACCES, unpriv_open(self->fd, 0));
	sfd = session_open_period(self->fd, 0);
	EXPECT_GE(sfd, 0);
	if (sfd >= 0)
		close(sfd);
	/* Values out of range are refused, the policy unchanged */
	EXPECT_EQ(-EINVAL, int_write(PARANOID, 2));
	EXPECT_EQ(-EINVAL, int_write(PARANOID, -1));
	EXPECT_EQ(-EINVAL, int_write(MIN_UNPRIV, 99));
	EXPECT_EQ(-EINVAL, int_write(MIN_UNPRIV, 1000001));
	EXPECT_EQ(0, int_read(PARANOID, &v));
	EXPECT_EQ(1, v);

	/* 0: any user, periods of at least the unprivileged minimum */
	EXPECT_EQ(0, int_write(PARANOID, 0));
	EXPECT_EQ(0, unpriv_open(self->fd, 0));
	EXPECT_EQ(-EINVAL, unpriv_open(self->fd, 1000 * 1000ULL - 1));
	EXPECT_EQ(0, unpriv_open(self->fd, 1000 * 1000ULL));
	/* root raises the minimum: the unprivileged follow, not CAP_PERFMON */
	EXPECT_EQ(0, int_write(MIN_UNPRIV, 2000));
	EXPECT_EQ(-EINVAL, unpriv_open(self->fd, 1500 * 1000ULL));
	EXPECT_EQ(0, unpriv_open(self->fd, 2000 * 1000ULL));
	sfd = session_open_period(self->fd, MALI_PERFCNT_STREAM_MIN_PERIOD_NS);
	EXPECT_GE(sfd, 0);
	if (sfd >= 0)
		close(sfd);

	/* Back to 1: refused again */
	EXPECT_EQ(0, int_write(PARANOID, 1));
	EXPECT_EQ(-EACCES, unpriv_open(self->fd, 0));

	EXPECT_EQ(0, int_write(MIN_UNPRIV, min_us > 0 ? min_us : 1000));
	EXPECT_EQ(0, int_write(PARANOID, paranoid >= 0 ? paranoid : 1));
}

/*
 * The QEMU GPU model's test-control window (its second MMIO region, at the
 * physical address MPC_QEMU_CTL, e.g. 0x090c8000 on -M virt): one text
 * command, e.g. "fault drop_irq", and its result text. 0, -EINVAL when the
 * model refused it, or -errno.
 */
#define CTL_SIZE	0x1000
#define CTL_ID		0x000
#define CTL_EXEC	0x008
#define CTL_CMD		0x100
#define CTL_RESULT	0x200
#define CTL_TEXT	0x100
#define CTL_MAGIC	0x4d504354

/* The window's registers: never merged or elided by the compiler */
static uint32_t ctl_rd(uint32_t *w, size_t off)
{
	return __atomic_load_n(&w[off / 4], __ATOMIC_SEQ_CST);
}

static void ctl_wr(uint32_t *w, size_t off, uint32_t val)
{
	__atomic_store_n(&w[off / 4], val, __ATOMIC_SEQ_CST);
}

static int qemu_ctl(const char *addr, const char *cmd, char *res, size_t len)
{
	uint32_t *w;
	unsigned long long pa;
	size_t i, n = strlen(cmd);
	char *end;
	void *map;
	int fd, ret = 0;

	pa = strtoull(addr, &end, 0);
	if (*end || pa % CTL_SIZE || n >= CTL_TEXT)
		return -EINVAL;
	fd = open("/dev/mem", O_RDWR | O_SYNC | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	map = mmap(NULL, CTL_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, (off_t)pa);
	close(fd);
	if (map == MAP_FAILED)
		return -errno;
	w = map;
	if (ctl_rd(w, CTL_ID) != CTL_MAGIC) {
		munmap(map, CTL_SIZE);
		return -ENODEV;
	}
	/* Little-endian words, NUL-terminated */
	for (i = 0; i <= n; i += 4) {
		uint32_t word = 0;
		size_t k;

		for (k = 0; k < 4 && i + k < n; k++)
			word |= (uint32_t)(unsigned char)cmd[i + k] << (8 * k);
		ctl_wr(w, CTL_CMD + i, word);
	}
	ctl_wr(w, CTL_EXEC, 1);
	if (ctl_rd(w, CTL_EXEC) != 0)
		ret = -EINVAL;
	for (i = 0; i + 1 < len && i < CTL_TEXT; i++) {
		res[i] = (char)(ctl_rd(w, CTL_RESULT + (i & ~3UL)) >> (8 * (i & 3)));
		if (!res[i])
			break;
	}
	if (len)
		res[i < len ? i : len - 1] = 0;
	munmap(map, CTL_SIZE);
	return ret;
}

/* "NAME: N" of debugfs perfcnt_stats, or -1 */
static long long stat_of(const char *dir, const char *name)
{
	size_t size = 1 << 16;
	char key[64], *buf = malloc(size), *p;
	long long v = -1;

	if (!buf)
		return -1;
	snprintf(key, sizeof(key), "%s: ", name);
	if (read_file(dir, "perfcnt_stats", buf, size) > 0) {
		for (p = buf; p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
			if (!strncmp(p, key, strlen(key))) {
				v = strtoll(p + strlen(key), NULL, 10);
				break;
			}
	}
	free(buf);
	return v;
}

/*
 * The core's own recovery: the GPU never signals a sample's completion
 * (the QEMU model's fault drop_irq, armed for the next PERFCNT_SAMPLE), the
 * core times out, resets the GPU through panfrost's reset work, and the
 * session runs on: a sample carries AFTER_RECOVERY, then the counters count
 * again in clean intervals. Needs the model's test-control window.
 */
TEST_F(session, sample_timeout_recovery)
{
	struct drm_mali_perfcnt_sample_header h;
	long long timeouts = -1, resets = -1;
	const char *ctl = getenv("MPC_QEMU_CTL");
	char dir[PATH_MAX], res[CTL_TEXT];
	int sfd, i, ret, recovered = 0;
	struct walk w;

	if (!self->buf)
		SKIP(return, "no counter sessions");
	if (!ctl || !*ctl)
		SKIP(return, "no QEMU GPU model test-control window (MPC_QEMU_CTL unset)");
	if (!debugfs_dir(dir, sizeof(dir))) {
		timeouts = stat_of(dir, "timeouts");
		resets = stat_of(dir, "resets");
	}
	sfd = session_open(self->fd, 0xffff, 0xffff, 0, 1);
	ASSERT_GE(sfd, 0);
	usleep(50 * 1000);
	ASSERT_EQ(0, session_sample(sfd, self->buf, self->info.sample_size));
	memcpy(&h, self->buf, sizeof(h));
	EXPECT_FALSE(h.flags & MALI_PERFCNT_DATA_AFTER_RECOVERY);

	ASSERT_EQ(0, qemu_ctl(ctl, "fault drop_irq", res, sizeof(res))) TH_LOG("%s", res);
	/*
	 * The next hardware sample, this one's (-ETIMEDOUT after the core's
	 * one-second timeout) or the session watchdog's, never completes.
	 */
	ret = session_sample(sfd, self->buf, self->info.sample_size);
	EXPECT_TRUE(ret == -ETIMEDOUT || ret == 0) TH_LOG("SAMPLE: %d", ret);
	if (!ret) {
		memcpy(&h, self->buf, sizeof(h));
		recovered = !!(h.flags & MALI_PERFCNT_DATA_AFTER_RECOVERY);
	}
	ASSERT_EQ(0, qemu_ctl(ctl, "fault", res, sizeof(res)));
	EXPECT_STREQ("none", res) TH_LOG("the armed fault was not taken by a sample");
	for (i = 0; i < 20 && !recovered; i++) {
		usleep(50 * 1000);
		ASSERT_EQ(0, session_sample(sfd, self->buf, self->info.sample_size));
		memcpy(&h, self->buf, sizeof(h));
		recovered = !!(h.flags & MALI_PERFCNT_DATA_AFTER_RECOVERY);
	}
	EXPECT_TRUE(recovered);
	if (timeouts >= 0 && resets >= 0) {
		EXPECT_EQ(timeouts + 1, stat_of(dir, "timeouts"));
		EXPECT_EQ(resets + 1, stat_of(dir, "resets"));
	}

	/* Counting resumed: clean intervals that count */
	for (i = 0; i < 2; i++) {
		usleep(100 * 1000);
		ASSERT_EQ(0, session_sample(sfd, self->buf, self->info.sample_size));
		memcpy(&h, self->buf, sizeof(h));
		EXPECT_FALSE(h.flags & MALI_PERFCNT_DATA_AFTER_RECOVERY);
		EXPECT_GE(h.end_ns - h.start_ns, 90 * 1000 * 1000ULL);
		walk_sample(self->buf, h.size, &w);
		EXPECT_FALSE(w.bad);
		EXPECT_GT(w.gpu_active, 0);
	}
	close(sfd);
}

/* The platform device panfrost drives, from the render node's sysfs */
static int pf_device(char *name, size_t size)
{
	char path[PATH_MAX], link[PATH_MAX], *base;
	struct dirent *e;
	ssize_t n;
	DIR *d = opendir("/sys/bus/platform/drivers/panfrost");

	if (!d)
		return -errno;
	while ((e = readdir(d))) {
		snprintf(path, sizeof(path), "/sys/bus/platform/drivers/panfrost/%s", e->d_name);
		n = readlink(path, link, sizeof(link) - 1);
		if (n <= 0 || !strstr(e->d_name, "gpu"))
			continue;
		link[n] = 0;
		base = strrchr(link, '/');
		snprintf(name, size, "%s", base ? base + 1 : link);
		closedir(d);
		return 0;
	}
	closedir(d);
	return -ENOENT;
}

static int sysfs_write(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY), ret = 0;

	if (fd < 0)
		return -errno;
	if (write(fd, text, strlen(text)) < 0)
		ret = -errno;
	close(fd);
	return ret;
}

/* The one power state of every block of a sample (~0u: they differ) */
static __u32 sample_power(const void *buf, int *all_zero)
{
	const struct drm_mali_perfcnt_sample_header *h = buf;
	const __u8 *p = (const __u8 *)buf + sizeof(*h);
	__u32 i, c, pwr = ~1u;

	*all_zero = 1;
	for (i = 0; i < h->nr_blocks; i++) {
		const struct drm_mali_perfcnt_block_header *b = (const void *)p;
		const __u64 *v = (const __u64 *)(b + 1);

		if (pwr == ~1u)
			pwr = b->power_state;
		else if (pwr != b->power_state)
			pwr = ~0u;
		for (c = 0; c < b->nr_values; c++)
			if (v[c])
				*all_zero = 0;
		p = (const __u8 *)(v + b->nr_values);
	}
	return pwr;
}

/*
 * A session holds no power: with no job and nothing else keeping it
 * awake, the GPU runtime-suspends (panfrost's 50 ms autosuspend) under a
 * counting session. The sample across the suspend holds what the GPU
 * counted up to it (PARTIAL), the next reads zeros (OFF) without waking
 * the GPU, and once something wakes it the counters count again from its
 * resume (PARTIAL, then ON).
 */
TEST_F(session, session_follows_runtime_power)
{
	struct walk w;
	int sfd, i, zero;

	if (!self->buf)
		SKIP(return, "no counter sessions");
	/*
	 * Idle, the GPU suspends unless a driver bound before left its usage
	 * count up (a panfrost without this series' first patch does, once
	 * per unbind).
	 */
	ASSERT_EQ(0, pf_rpm(self->fd, "control", "auto", NULL, 0));
	for (i = 0; i < 100 && !pf_rpm_is(self->fd, "suspended"); i++)
		usleep(10 * 1000);
	if (!pf_rpm_is(self->fd, "suspended"))
		SKIP(return, "idle, the GPU does not suspend: a PM reference is held elsewhere");
	sfd = session_open(self->fd, 0xffff, 0xffff, 0, 1);
	ASSERT_GE(sfd, 0);
	usleep(20 * 1000);
	ASSERT_EQ(0, session_sample(sfd, self->buf, self->info.sample_size));
	EXPECT_EQ(MALI_PERFCNT_POWER_ON, sample_power(self->buf, &zero));

	for (i = 0; i < 300 && !pf_rpm_is(self->fd, "suspended"); i++)
		usleep(10 * 1000);
	ASSERT_TRUE(pf_rpm_is(self->fd, "suspended"));
	usleep(100 * 1000);
	ASSERT_EQ(0, session_sample(sfd, self->buf, self->info.sample_size));
	EXPECT_EQ(MALI_PERFCNT_POWER_PARTIAL, sample_power(self->buf, &zero));
	walk_sample(self->buf, self->info.sample_size, &w);
	/* counted up to the suspend: its last sample was taken before it */
	EXPECT_GT(w.gpu_active, 0);
	EXPECT_TRUE(pf_rpm_is(self->fd, "suspended"));
	usleep(100 * 1000);
	ASSERT_EQ(0, session_sample(sfd, self->buf, self->info.sample_size));
	EXPECT_EQ(MALI_PERFCNT_POWER_OFF, sample_power(self->buf, &zero));
	EXPECT_TRUE(zero);
	/* the sample read nothing of the GPU, so did not wake it */
	EXPECT_TRUE(pf_rpm_is(self->fd, "suspended"));

	ASSERT_EQ(0, pf_rpm(self->fd, "control", "on", NULL, 0));
	EXPECT_TRUE(pf_rpm_is(self->fd, "active"));
	usleep(100 * 1000);
	ASSERT_EQ(0, session_sample(sfd, self->buf, self->info.sample_size));
	EXPECT_EQ(MALI_PERFCNT_POWER_PARTIAL, sample_power(self->buf, &zero));
	walk_sample(self->buf, self->info.sample_size, &w);
	EXPECT_GT(w.gpu_active, 0);
	usleep(100 * 1000);
	ASSERT_EQ(0, session_sample(sfd, self->buf, self->info.sample_size));
	EXPECT_EQ(MALI_PERFCNT_POWER_ON, sample_power(self->buf, &zero));
	walk_sample(self->buf, self->info.sample_size, &w);
	EXPECT_GT(w.gpu_active, 0);
	close(sfd);
}

/*
 * Last: unbinds panfrost with sessions open, then binds it again. The
 * render node's files are closed first: panfrost's own file release is
 * not safe after an unbind (its device state is device-managed).
 */
TEST_F(session, unbind_with_sessions_open)
{
	char dev[PATH_MAX];
	int sfd, stopped, fd2, i;

	if (!self->buf)
		SKIP(return, "no counter sessions");
	ASSERT_EQ(0, pf_device(dev, sizeof(dev)));
	sfd = session_open(self->fd, 0xffff, 0xffff, 0, 1);
	ASSERT_GE(sfd, 0);
	stopped = session_open(self->fd, 0xffff, 0xffff, 0, 0);
	ASSERT_GE(stopped, 0);
	close(self->fd);
	self->fd = -1;
	usleep(50 * 1000);
	ASSERT_EQ(0, session_sample(sfd, self->buf, self->info.sample_size));

	ASSERT_EQ(0, sysfs_write("/sys/bus/platform/drivers/panfrost/unbind", dev));
	/* The device is gone: its sessions say so, and nothing oopses */
	EXPECT_EQ(-ENODEV, pf_ioctl(stopped, MALI_PERFCNT_SESSION_IOCTL_START, NULL));
	for (i = 0; i < 3; i++)
		EXPECT_LT(session_sample(sfd, self->buf, self->info.sample_size), 0);
	EXPECT_EQ(-1, pf_open());
	close(sfd);
	close(stopped);

	/* Bound again, it counts again */
	ASSERT_EQ(0, sysfs_write("/sys/bus/platform/drivers/panfrost/bind", dev));
	for (i = 0, fd2 = -1; i < 50 && fd2 < 0; i++) {
		fd2 = pf_open();
		if (fd2 < 0)
			usleep(100 * 1000);
	}
	ASSERT_GE(fd2, 0);
	sfd = session_open(fd2, 0xffff, 0xffff, 0, 1);
	ASSERT_GE(sfd, 0);
	usleep(50 * 1000);
	EXPECT_EQ(0, session_sample(sfd, self->buf, self->info.sample_size));
	close(sfd);
	close(fd2);
}

TEST_HARNESS_MAIN
