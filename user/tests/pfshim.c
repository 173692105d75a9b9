// SPDX-License-Identifier: MIT
/*
 * An LD_PRELOAD shim that fakes Mali render nodes for the host tests: no
 * GPU, no kernel module. It answers for /dev/dri only while MPC_SHIM_NODES
 * is set, and passes everything else through.
 *
 *   MPC_SHIM_NODES  "NODE:DRIVER[:k=v,...];..." e.g.
 *                   "renderD128:panfrost:prod=0x7212,shader=0x5,mem=0x100"
 *                   DRIVER panfrost or mali_perfcnt (a fake of each uAPI) or
 *                   any other name (a DRM node of another driver)
 *   MPC_SHIM_DIR    a scratch directory; the shim lists the nodes there and
 *                   serves opendir("/dev/dri") from it
 *   MPC_SHIM_LOG    optional file: one line per ENABLE/DUMP the fake served
 *
 * Keys: prod rev (GPU_PROD_ID, GPU_REVISION), shader l2 mem l2f mmu coh
 * (the registers), groups (NR_CORE_GROUPS, default hweight(l2)), v4 (0/1,
 * default: T60x/T62x/T72x as panfrost decides), sets (highest counter set
 * ENABLE takes; default 1 on Bifrost+, else 0), unstable (0: the perfcnt
 * ioctls are -ENOSYS), owner (1: another file holds the counters), enable_err
 * and dump_err (an errno for every ENABLE/DUMP), val (each counter reads
 * val + slot) or hz (each counter reads hz * seconds since the last sample,
 * saturating at 0xffffffff like a 32-bit hardware counter), intr (N: the
 * N-th panfrost DUMP after the ENABLE is hit by a signal in its wait, as
 * panfrost's is by SIGCHLD when a command ends, unless the caller blocks
 * SIGCHLD: the sample is taken, which clears the counters, and the DUMP
 * fails with EINTR, logged "dump interrupted"), timeout (N: the N-th DUMP
 * after the ENABLE samples, which clears the counters, and fails with
 * ETIMEDOUT, as panfrost's does when the copy is not done within 1 s; logged
 * "dump timed out"), and with timeouts (K) the K DUMPs from the N-th on.
 *
 * Like panfrost, a DUMP copies the kernel's whole buffer (v4:
 * hweight(l2) * 8 blocks, else MEM_FEATURES L2 slices + fls(shader) + 2
 * blocks) to buf_ptr, with no size check: a short buffer is overrun.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <signal.h>
#include <time.h>
#include <unistd.h>

#include <drm.h>

#include "../../uapi/drm/mali_perfcnt_drm.h"

#define MAXN 8
#define MAXFD 256

struct node {
	char name[32];
	char driver[32];
	uint64_t prod, rev, shader, l2, mem, l2f, mmu, coh, groups, v4, sets;
	uint64_t unstable, owner_other, enable_err, dump_err, val, hz, intr, timeout, timeouts;
	uint64_t pf_dumps;	/* panfrost DUMPs since the ENABLE */
	int owner_fd;		/* -1: free */
	unsigned set;
	uint32_t masks[4];
	uint64_t last_ns, seqno;
	int dumped;		/* a DUMP since the ENABLE (DATA_FIRST) */
};

static struct node nodes[MAXN];
static unsigned nnodes;
static char conf_copy[2048];
static struct node *fds[MAXFD];

static int (*real_open)(const char *, int, ...);
static int (*real_close)(int);
static int (*real_ioctl)(int, unsigned long, ...);
static DIR *(*real_opendir)(const char *);

static void init_real(void)
{
	if (real_open)
		return;
	real_open = (int (*)(const char *, int, ...))dlsym(RTLD_NEXT, "open");
	real_close = (int (*)(int))dlsym(RTLD_NEXT, "close");
	real_ioctl = (int (*)(int, unsigned long, ...))dlsym(RTLD_NEXT, "ioctl");
	real_opendir = (DIR *(*)(const char *))dlsym(RTLD_NEXT, "opendir");
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static unsigned popc(uint64_t v)
{
	return (unsigned)__builtin_popcountll(v);
}

static unsigned fls64(uint64_t v)
{
	return v ? 64u - (unsigned)__builtin_clzll(v) : 0;
}

static int bifrost(const struct node *n)
{
	uint64_t id = (n->prod & 0xf000) ? (n->prod & 0xf00f) : n->prod;

	return id >= 0x1000;
}

/* (re)read MPC_SHIM_NODES when it changed; 0 when the shim is off */
static int load(void)
{
	const char *c = getenv("MPC_SHIM_NODES");
	char buf[2048], *save = NULL;

	init_real();
	if (!c || !*c)
		return 0;
	if (!strcmp(c, conf_copy))
		return 1;
	snprintf(conf_copy, sizeof(conf_copy), "%s", c);
	snprintf(buf, sizeof(buf), "%s", c);
	nnodes = 0;
	memset(fds, 0, sizeof(fds));
	for (char *spec = strtok_r(buf, ";", &save); spec && nnodes < MAXN;
	     spec = strtok_r(NULL, ";", &save)) {
		struct node *n = &nodes[nnodes++];
		char *name = spec, *drv = strchr(spec, ':'), *kv = NULL, *s2 = NULL;

		memset(n, 0, sizeof(*n));
		n->owner_fd = -1;
		n->prod = 0x7212;
		n->shader = 0x1;
		n->l2 = 0x1;
		n->mmu = 0x2830;
		n->unstable = 1;
		n->val = 1000;
		n->groups = ~0ull;
		n->v4 = ~0ull;
		n->sets = ~0ull;
		if (drv) {
			*drv++ = 0;
			kv = strchr(drv, ':');
			if (kv)
				*kv++ = 0;
		}
		snprintf(n->name, sizeof(n->name), "%s", name);
		snprintf(n->driver, sizeof(n->driver), "%s", drv ? drv : "panfrost");
		for (char *p = kv ? strtok_r(kv, ",", &s2) : NULL; p; p = strtok_r(NULL, ",", &s2)) {
			char *eq = strchr(p, '=');
			uint64_t v;

			if (!eq)
				continue;
			*eq = 0;
			v = strtoull(eq + 1, NULL, 0);
#define K(key, field) if (!strcmp(p, key)) n->field = v
			K("prod", prod); K("rev", rev); K("shader", shader); K("l2", l2);
			K("mem", mem); K("l2f", l2f); K("mmu", mmu); K("coh", coh);
			K("groups", groups); K("v4", v4); K("sets", sets); K("unstable", unstable);
			K("owner", owner_other); K("enable_err", enable_err); K("dump_err", dump_err);
			K("val", val); K("hz", hz); K("intr", intr);
			K("timeout", timeout); K("timeouts", timeouts);
#undef K
		}
		if (n->groups == ~0ull)
			n->groups = popc(n->l2);
		if (n->v4 == ~0ull)
			n->v4 = n->prod == 0x600 || n->prod == 0x620 || n->prod == 0x720;
		if (n->sets == ~0ull)
			n->sets = bifrost(n);
	}
	return 1;
}

static void logf_(const char *fmt, ...)
{
	const char *p = getenv("MPC_SHIM_LOG");
	va_list ap;
	FILE *f;

	if (!p || !(f = fopen(p, "a")))
		return;
	va_start(ap, fmt);
	vfprintf(f, fmt, ap);
	va_end(ap);
	fclose(f);
}

static struct node *node_of_path(const char *path)
{
	if (strncmp(path, "/dev/dri/", 9))
		return NULL;
	for (unsigned i = 0; i < nnodes; i++)
		if (!strcmp(path + 9, nodes[i].name))
			return &nodes[i];
	return NULL;
}

static int fake_open(const char *path, int flags, mode_t mode, int *handled)
{
	struct node *n;
	int fd;

	*handled = 0;
	if (!load() || strncmp(path, "/dev/dri/", 9))
		return -1;
	*handled = 1;
	n = node_of_path(path);
	if (!n) {
		errno = ENOENT;
		return -1;
	}
	fd = real_open("/dev/null", flags & ~(O_CREAT | O_EXCL), mode);
	if (fd >= 0 && fd < MAXFD)
		fds[fd] = n;
	return fd;
}

int open(const char *path, int flags, ...)
{
	mode_t mode = 0;
	int handled, fd;

	if (flags & O_CREAT) {
		va_list ap;

		va_start(ap, flags);
		mode = (mode_t)va_arg(ap, int);
		va_end(ap);
	}
	fd = fake_open(path, flags, mode, &handled);
	if (handled)
		return fd;
	return real_open(path, flags, mode);
}

int open64(const char *path, int flags, ...)
{
	mode_t mode = 0;
	int handled, fd;

	if (flags & O_CREAT) {
		va_list ap;

		va_start(ap, flags);
		mode = (mode_t)va_arg(ap, int);
		va_end(ap);
	}
	fd = fake_open(path, flags, mode, &handled);
	if (handled)
		return fd;
	return real_open(path, flags, mode);
}

int close(int fd)
{
	init_real();
	if (fd >= 0 && fd < MAXFD && fds[fd]) {
		if (fds[fd]->owner_fd == fd)
			fds[fd]->owner_fd = -1;	/* panfrost_postclose releases */
		fds[fd] = NULL;
	}
	return real_close(fd);
}

DIR *opendir(const char *name)
{
	const char *dir = getenv("MPC_SHIM_DIR");
	char p[512];

	if (!load() || strcmp(name, "/dev/dri") || !dir)
		return real_opendir(name);
	mkdir(dir, 0700);
	for (unsigned i = 0; i < nnodes; i++) {
		int fd;

		snprintf(p, sizeof(p), "%s/%s", dir, nodes[i].name);
		fd = real_open(p, O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
		if (fd >= 0)
			real_close(fd);
	}
	return real_opendir(dir);
}

int drmGetDevices2(uint32_t flags, void *devices[], int max);

/* libdrm's bus scan would look at the real devices: none while faking */
int drmGetDevices2(uint32_t flags, void *devices[], int max)
{
	int (*real)(uint32_t, void *[], int);

	(void)flags;
	if (load())
		return 0;
	real = (int (*)(uint32_t, void *[], int))dlsym(RTLD_NEXT, "drmGetDevices2");
	return real ? real(flags, devices, max) : -ENODEV;
}

static void copy_str(char *dst, size_t *len, const char *src)
{
	size_t l = strlen(src);

	if (dst && *len)
		memcpy(dst, src, *len < l ? *len : l);
	*len = l;
}

static int fail(int e)
{
	errno = e;
	return -1;
}

/* the kernel's buffer: what a dump writes */
static size_t kernel_size(const struct node *n)
{
	if (n->v4)
		return (size_t)popc(n->l2) * 8 * 256;
	return (((n->mem >> 8) & 0xf) + 1 + fls64(n->shader) + 2) * 256;
}

/* is block @b of the dump an absent shader core (an untouched hole)? */
static int hole(const struct node *n, unsigned b)
{
	if (n->v4) {
		unsigned g = b / 8, j = b % 8;

		if (j < 4)
			return !((n->shader >> (4 * g + j)) & 1);
		return j == 6;
	}
	if (b < 2 + ((n->mem >> 8) & 0xf) + 1)
		return 0;
	return !((n->shader >> (b - 3 - ((n->mem >> 8) & 0xf))) & 1);
}

static void fill(struct node *n, uint32_t *w, size_t size, uint32_t enable)
{
	uint64_t t = now_ns(), dt = n->last_ns ? t - n->last_ns : 0;
	uint64_t ticks = t / 1000 * 24 / 1000;	/* a 24 MHz GPU timestamp */

	memset(w, 0, size);
	for (unsigned b = 0; b < size / 256; b++) {
		uint32_t *blk = w + b * 64;

		if (hole(n, b))
			continue;
		blk[0] = (uint32_t)ticks;
		blk[1] = (uint32_t)(ticks >> 32);
		blk[2] = enable;
		for (unsigned i = 4; i < 64; i++) {
			if (n->hz) {
				double v = (double)n->hz * (double)dt * 1e-9;

				blk[i] = v >= 4294967295.0 ? 0xffffffffu : (uint32_t)v;
			} else {
				blk[i] = (uint32_t)(n->val + b);
			}
		}
	}
	n->last_ns = t;
}

static int pf_ioctl(int fd, struct node *n, unsigned long req, void *arg)
{
	switch (req) {
	case 0xC0106444: {	/* GET_PARAM */
		struct { uint32_t param, pad; uint64_t value; } *p = arg;

		if (p->pad)
			return fail(EINVAL);
		switch (p->param) {
		case 0: p->value = n->prod; break;
		case 1: p->value = n->rev; break;
		case 2: p->value = n->shader; break;
		case 3: p->value = 1; break;
		case 4: p->value = n->l2; break;
		case 8: p->value = n->l2f; break;
		case 11: p->value = n->mem; break;
		case 12: p->value = n->mmu; break;
		case 17: p->value = n->coh; break;
		case 38: p->value = n->groups; break;
		default: return fail(EINVAL);
		}
		return 0;
	}
	case 0x40086446: {	/* PERFCNT_ENABLE */
		struct { uint32_t enable, counterset; } *e = arg;

		if (!n->unstable)
			return fail(ENOSYS);
		logf_("enable %u %u\n", e->enable, e->counterset);
		if (e->enable > 1)
			return fail(EINVAL);
		if (n->owner_other || (n->owner_fd >= 0 && n->owner_fd != fd))
			return e->enable ? fail(EBUSY) : fail(EINVAL);
		if (!e->enable) {
			if (n->owner_fd != fd)
				return fail(EINVAL);
			n->owner_fd = -1;
			return 0;
		}
		if (n->enable_err)
			return fail((int)n->enable_err);
		if (e->counterset > n->sets)
			return fail(EINVAL);
		if (n->owner_fd == fd)
			return 0;	/* again: the new set is ignored */
		n->owner_fd = fd;
		n->set = e->counterset;
		n->last_ns = now_ns();
		n->pf_dumps = 0;
		return 0;
	}
	case 0x40086447: {	/* PERFCNT_DUMP */
		struct { uint64_t buf_ptr; } *d = arg;
		size_t size = kernel_size(n);
		uint32_t *tmp;

		if (!n->unstable)
			return fail(ENOSYS);
		if (n->owner_fd != fd)
			return fail(EINVAL);
		if (n->dump_err)
			return fail((int)n->dump_err);
		tmp = malloc(size);
		if (!tmp)
			return fail(ENOMEM);
		fill(n, tmp, size, 0xffffffffu);
		if (++n->pf_dumps >= n->timeout && n->timeout &&
		    n->pf_dumps < n->timeout + (n->timeouts ? n->timeouts : 1)) {
			free(tmp);
			logf_("dump timed out\n");
			return fail(ETIMEDOUT);
		}
		if (n->pf_dumps == n->intr) {
			sigset_t cur;

			pthread_sigmask(SIG_BLOCK, NULL, &cur);
			if (!sigismember(&cur, SIGCHLD)) {
				/* sampled (and cleared), then the wait was interrupted */
				free(tmp);
				logf_("dump interrupted\n");
				return fail(EINTR);
			}
		}
		/* copy_to_user of the whole buffer: no size in the uAPI */
		memcpy((void *)(uintptr_t)d->buf_ptr, tmp, size);
		free(tmp);
		logf_("dump %zu\n", size);
		return 0;
	}
	}
	return fail(EINVAL);
}

static void mp_geometry(const struct node *n, struct drm_mali_perfcnt_get_info *g)
{
	g->gpu_id = (uint32_t)(n->prod << 16 | n->rev);
	g->layout = n->v4 ? 4 : 5;
	g->shader_present = n->shader;
	g->l2_present = n->l2;
	g->counters_per_block = 64;
	if (n->v4) {
		g->nr_core_groups = popc(n->l2);
		g->nr_l2 = g->nr_core_groups;
		g->nr_shader_blocks = 4 * g->nr_core_groups;
		g->nr_blocks = 8 * g->nr_core_groups;
	} else {
		g->nr_core_groups = 1;
		g->nr_l2 = (uint32_t)((n->mem >> 8) & 0xf) + 1;
		g->nr_shader_blocks = fls64(n->shader);
		g->nr_blocks = 2 + g->nr_l2 + g->nr_shader_blocks;
	}
	g->dump_size = g->nr_blocks * 256;
	g->nr_counter_sets = bifrost(n) ? 2 : 1;
	g->mem_features = (uint32_t)n->mem;
	g->l2_features = (uint32_t)n->l2f;
	/* a revision-2 driver: the library falls back to ENABLE and DUMP */
	g->uapi_version = 2;
	g->caps = 0;	/* revision 2: "simulated" is in debugfs, not in caps */
	g->gpu_freq_hz = 800000000;
	snprintf(g->product, sizeof(g->product), "Mali-Fake");
}

static int mp_ioctl(int fd, struct node *n, unsigned long req, void *arg)
{
	if (req == DRM_IOCTL_MALI_PERFCNT_GET_INFO) {
		struct drm_mali_perfcnt_get_info *g = arg;

		memset(g, 0, sizeof(*g));
		mp_geometry(n, g);
		return 0;
	}
	if (req == DRM_IOCTL_MALI_PERFCNT_ENABLE) {
		struct drm_mali_perfcnt_enable *e = arg;

		logf_("enable %u %u\n", e->enable, e->counter_set);
		if (n->owner_other || (n->owner_fd >= 0 && n->owner_fd != fd))
			return fail(EBUSY);
		if (!e->enable) {
			if (n->owner_fd != fd)
				return fail(EALREADY);
			n->owner_fd = -1;
			return 0;
		}
		if (n->owner_fd == fd)
			return fail(EALREADY);
		n->owner_fd = fd;
		n->last_ns = now_ns();
		n->dumped = 0;
		for (int i = 0; i < 4; i++)
			n->masks[i] = (e->flags & MALI_PERFCNT_ENABLE_F_MASKS) ?
				      (&e->jm_mask)[i] : 0xffff;
		return 0;
	}
	if (req == DRM_IOCTL_MALI_PERFCNT_DUMP) {
		struct drm_mali_perfcnt_dump *d = arg;
		struct drm_mali_perfcnt_get_info g;
		uint32_t *tmp;

		memset(&g, 0, sizeof(g));
		mp_geometry(n, &g);
		if (n->owner_fd != fd)
			return fail(n->owner_fd < 0 ? ENODATA : EPERM);
		if (d->interval_start_ns || d->data_flags || d->pad)
			return fail(EINVAL);
		if (d->buf_size < g.dump_size) {
			d->buf_size = g.dump_size;
			return fail(ENOSPC);
		}
		tmp = malloc(g.dump_size);
		if (!tmp)
			return fail(ENOMEM);
		d->interval_start_ns = n->last_ns;
		fill(n, tmp, g.dump_size, n->masks[0]);
		d->timestamp_ns = n->last_ns;
		d->data_flags = n->dumped ? 0 : MALI_PERFCNT_DATA_FIRST;
		n->dumped = 1;
		for (uint32_t i = 0; i < g.dump_size / 4; i++)
			if (i % 64 >= 4 && tmp[i] == 0xffffffffu)
				d->data_flags |= MALI_PERFCNT_DATA_SATURATED;
		memcpy((void *)(uintptr_t)d->buf_ptr, tmp, g.dump_size);
		free(tmp);
		d->buf_size = g.dump_size;
		d->seqno = ++n->seqno;
		logf_("dump %u\n", g.dump_size);
		return 0;
	}
	return fail(EINVAL);
}

int ioctl(int fd, unsigned long req, ...)
{
	struct node *n;
	va_list ap;
	void *arg;

	va_start(ap, req);
	arg = va_arg(ap, void *);
	va_end(ap);
	init_real();
	n = fd >= 0 && fd < MAXFD ? fds[fd] : NULL;
	if (!n)
		return real_ioctl(fd, req, arg);
	if (req == DRM_IOCTL_VERSION) {
		struct drm_version *v = arg;
		int pf = !strcmp(n->driver, "panfrost");

		v->version_major = pf ? 1 : 1;
		v->version_minor = pf ? 2 : 0;
		v->version_patchlevel = 0;
		copy_str(v->name, &v->name_len, n->driver);
		copy_str(v->date, &v->date_len, "20180908");
		copy_str(v->desc, &v->desc_len, "fake");
		return 0;
	}
	if (!strcmp(n->driver, "panfrost"))
		return pf_ioctl(fd, n, req, arg);
	if (!strcmp(n->driver, "mali_perfcnt"))
		return mp_ioctl(fd, n, req, arg);
	return fail(EINVAL);
}
