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
 * mali_perfcnt nodes: uapi (the revision GET_INFO reports, default 2) and,
 * for those of the v5 layout, the v2 stream (STREAM_OPEN: one record a
 * read(), every period_ns, its dump as a DUMP's) and from uapi=3 on
 * GET_INFO_V3 and sessions (SESSION_OPEN, logged "session period P ring
 * R"; the session's SAMPLE, and with a ring read(): one sample of 64-bit
 * values a read() at each period's end, each counter val + slot or hz *
 * seconds, never saturating); overflow (N: the N-th ring sample comes two
 * periods late, as the kernel's when the ring was full: it covers three,
 * MALI_PERFCNT_DATA_OVERFLOW and lost 2); fault (N: the N-th sample of
 * the node, a DUMP or a session's SAMPLE, fails with fault_err, default
 * ENXIO, as the kernel's when a GPU fault ended it: the counters were
 * recovered and the next sample has MALI_PERFCNT_DATA_AFTER_RECOVERY;
 * logged "sample faulted"); poff and ppart (masks of shader core bits: in
 * every session sample those cores' blocks have power_state OFF, their
 * values 0, or PARTIAL; the other blocks ON; a v2 dump, which has no power
 * states, is as without them).
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
	uint64_t uapi, overflow, fault, fault_err, poff, ppart;
	uint64_t mp_samples;	/* mali_perfcnt DUMPs and session SAMPLEs */
	int recovered;		/* the next sample is AFTER_RECOVERY */
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

/* a v2 stream's or a v3 session's fd (on /dev/null) */
struct sess {
	struct node *n;
	int v3;
	uint64_t period_ns, ring;
	uint32_t masks[4];
	uint64_t start_ns, seqno;
};
static struct sess *sessions[MAXFD];

static int (*real_open)(const char *, int, ...);
static int (*real_close)(int);
static int (*real_ioctl)(int, unsigned long, ...);
static ssize_t (*real_read)(int, void *, size_t);
static DIR *(*real_opendir)(const char *);

static void init_real(void)
{
	if (real_open)
		return;
	real_open = (int (*)(const char *, int, ...))dlsym(RTLD_NEXT, "open");
	real_close = (int (*)(int))dlsym(RTLD_NEXT, "close");
	real_ioctl = (int (*)(int, unsigned long, ...))dlsym(RTLD_NEXT, "ioctl");
	real_read = (ssize_t (*)(int, void *, size_t))dlsym(RTLD_NEXT, "read");
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
			K("uapi", uapi); K("overflow", overflow);
			K("fault", fault); K("fault_err", fault_err);
			K("poff", poff); K("ppart", ppart);
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
	if (fd >= 0 && fd < MAXFD && sessions[fd]) {
		if (!sessions[fd]->v3 && sessions[fd]->n->owner_fd == fd)
			sessions[fd]->n->owner_fd = -1;
		free(sessions[fd]);
		sessions[fd] = NULL;
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
	/* a revision-2 driver unless uapi=: the library falls back to ENABLE and DUMP */
	g->uapi_version = n->uapi ? (uint32_t)n->uapi : 2;
	g->caps = 0;	/* revision 2: "simulated" is in debugfs, not in caps */
	g->gpu_freq_hz = 800000000;
	snprintf(g->product, sizeof(g->product), "Mali-Fake");
}

/* v3: blocks of a sample (jm, tiler, the L2 slices, the present cores) and its size */
static unsigned v3_nblocks(const struct node *n)
{
	return 2 + (unsigned)((n->mem >> 8) & 0xf) + 1 + popc(n->shader);
}

static uint32_t v3_size(const struct node *n)
{
	return (uint32_t)(sizeof(struct drm_mali_perfcnt_sample_header) +
			  v3_nblocks(n) * (sizeof(struct drm_mali_perfcnt_block_header) + 64 * 8));
}

/* a session sample of [start, end] into @buf: val + slot, or hz * seconds in 64 bits */
static void v3_encode(const struct sess *s, void *buf, uint64_t start, uint64_t end,
		      uint32_t flags, uint32_t lost)
{
	const struct node *n = s->n;
	struct drm_mali_perfcnt_sample_header *h = buf;
	unsigned char *p = (unsigned char *)buf + sizeof(*h);
	unsigned nl2 = (unsigned)((n->mem >> 8) & 0xf) + 1, slot = 0;

	memset(buf, 0, v3_size(n));
	h->start_ns = start;
	h->end_ns = end;
	h->clock_id = MALI_PERFCNT_CLOCK_MONOTONIC_RAW;
	h->flags = flags;
	h->seqno = s->seqno;
	h->nr_blocks = v3_nblocks(n);
	h->size = v3_size(n);
	h->lost = lost;
	for (unsigned type = MALI_PERFCNT_BLOCK_JM; type <= MALI_PERFCNT_BLOCK_SHADER; type++) {
		unsigned ninst = type == MALI_PERFCNT_BLOCK_MMU_L2 ? nl2 :
				 type == MALI_PERFCNT_BLOCK_SHADER ? 64 : 1;
		/* the masks' order: jm, tiler, shader, l2 */
		uint32_t m = s->masks[type == MALI_PERFCNT_BLOCK_JM ? 0 :
				      type == MALI_PERFCNT_BLOCK_TILER ? 1 :
				      type == MALI_PERFCNT_BLOCK_SHADER ? 2 : 3];

		for (unsigned i = 0; i < ninst; i++, slot++) {
			struct drm_mali_perfcnt_block_header bh = { 0 };
			uint64_t v[64] = { 0 };

			if (type == MALI_PERFCNT_BLOCK_SHADER && !((n->shader >> i) & 1))
				continue;	/* a hole: its slot is skipped */
			bh.block_type = type;
			bh.instance = i;
			bh.nr_values = 64;
			bh.power_state = MALI_PERFCNT_POWER_ON;
			if (type == MALI_PERFCNT_BLOCK_SHADER && ((n->poff >> i) & 1))
				bh.power_state = MALI_PERFCNT_POWER_OFF;
			else if (type == MALI_PERFCNT_BLOCK_SHADER && ((n->ppart >> i) & 1))
				bh.power_state = MALI_PERFCNT_POWER_PARTIAL;
			for (unsigned g = 0; g < 16; g++)
				if ((m >> g) & 1)
					bh.enable_mask |= 0xfull << (4 * g);
			for (unsigned c = 4; c < 64; c++) {
				if (!((bh.enable_mask >> c) & 1) ||
				    bh.power_state == MALI_PERFCNT_POWER_OFF)
					continue;
				v[c] = n->hz ? (uint64_t)((double)n->hz * (double)(end - start) * 1e-9) :
				       n->val + slot;
			}
			memcpy(p, &bh, sizeof(bh));
			memcpy(p + sizeof(bh), v, sizeof(v));
			p += sizeof(bh) + sizeof(v);
		}
	}
}

static struct sess *sess_new(int fd, struct node *n, int v3)
{
	struct sess *s;

	if (fd < 0 || fd >= MAXFD || !(s = calloc(1, sizeof(*s))))
		return NULL;
	s->n = n;
	s->v3 = v3;
	s->start_ns = now_ns();
	for (int i = 0; i < 4; i++)
		s->masks[i] = 0xffff;
	sessions[fd] = s;
	return s;
}

/* SESSION_OPEN: its properties, checked as the kernel does; the fd */
static int v3_session_open(struct node *n, struct drm_mali_perfcnt_session_open *o)
{
	uint64_t prop[8] = { 0 }, given = 0;
	struct sess *s;
	int sfd;

	if (n->uapi < 3 || n->v4)
		return fail(EINVAL);
	if (o->reserved[0] || o->reserved[1] ||
	    (o->flags & ~(MALI_PERFCNT_SESSION_F_CLOEXEC | MALI_PERFCNT_SESSION_F_START)))
		return fail(EINVAL);
	for (uint64_t x = o->extensions, k = 0; x; k++) {
		const struct drm_mali_perfcnt_ext_set_property *e = (const void *)(uintptr_t)x;

		if (k >= MALI_PERFCNT_MAX_EXTENSIONS)
			return fail(E2BIG);
		if (e->base.name != MALI_PERFCNT_EXT_SET_PROPERTY || !e->property ||
		    e->property > MALI_PERFCNT_PROP_RING_SAMPLES || ((given >> e->property) & 1))
			return fail(EINVAL);
		given |= 1ull << e->property;
		prop[e->property] = e->value;
		x = e->base.next_extension;
	}
	if ((given >> MALI_PERFCNT_PROP_PERIOD_NS & 1) &&
	    (prop[MALI_PERFCNT_PROP_PERIOD_NS] < MALI_PERFCNT_STREAM_MIN_PERIOD_NS ||
	     prop[MALI_PERFCNT_PROP_PERIOD_NS] > MALI_PERFCNT_SESSION_WATCHDOG_NS))
		return fail(EINVAL);
	if ((given >> MALI_PERFCNT_PROP_RING_SAMPLES & 1) &&
	    (!(given >> MALI_PERFCNT_PROP_PERIOD_NS & 1) ||
	     prop[MALI_PERFCNT_PROP_RING_SAMPLES] < 2 ||
	     prop[MALI_PERFCNT_PROP_RING_SAMPLES] > MALI_PERFCNT_SESSION_MAX_RING_SAMPLES))
		return fail(EINVAL);
	if (n->owner_other)
		return fail(EBUSY);
	sfd = real_open("/dev/null", O_RDONLY | O_CLOEXEC);
	s = sess_new(sfd, n, 1);
	if (!s) {
		if (sfd >= 0)
			real_close(sfd);
		return fail(ENOMEM);
	}
	for (unsigned i = 0; i < 4; i++)
		if ((given >> (MALI_PERFCNT_PROP_JM_MASK + i)) & 1)
			s->masks[i] = (uint32_t)prop[MALI_PERFCNT_PROP_JM_MASK + i];
	s->period_ns = prop[MALI_PERFCNT_PROP_PERIOD_NS];
	s->ring = prop[MALI_PERFCNT_PROP_RING_SAMPLES];
	logf_("session period %llu ring %llu\n", (unsigned long long)s->period_ns,
	      (unsigned long long)s->ring);
	return sfd;
}

/* sleep until CLOCK_MONOTONIC_RAW @t; -1 with EINTR when a signal came */
static int sleep_until(uint64_t t)
{
	uint64_t now = now_ns();
	struct timespec ts;

	if (now >= t)
		return 0;
	ts.tv_sec = (time_t)((t - now) / 1000000000ull);
	ts.tv_nsec = (long)((t - now) % 1000000000ull);
	return nanosleep(&ts, NULL) ? fail(EINTR) : 0;
}

/* one v2 record or one ring sample a read(), at the end of its period */
static ssize_t sess_read(struct sess *s, void *buf, size_t len)
{
	struct node *n = s->n;
	uint64_t periods = 1, end;
	uint32_t flags = s->seqno ? 0 : MALI_PERFCNT_DATA_FIRST;

	if (!len)
		return 0;
	if (s->v3) {
		if (!s->ring)
			return fail(EINVAL);
		if (len < v3_size(n))
			return fail(ENOSPC);
		if (n->overflow && s->seqno + 1 == n->overflow)
			periods = 3;
	} else if (len < sizeof(struct drm_mali_perfcnt_record) + kernel_size(n)) {
		return fail(ENOSPC);
	}
	end = s->start_ns + periods * s->period_ns;
	if (sleep_until(end))
		return -1;
	s->seqno++;
	if (s->v3) {
		if (periods > 1)
			flags |= MALI_PERFCNT_DATA_OVERFLOW;
		v3_encode(s, buf, s->start_ns, end, flags, (uint32_t)(periods - 1));
		s->start_ns = end;
		return v3_size(n);
	} else {
		struct drm_mali_perfcnt_record *r = buf;
		uint32_t *w = (uint32_t *)(r + 1);

		memset(r, 0, sizeof(*r));
		n->last_ns = s->start_ns;
		fill(n, w, kernel_size(n), s->masks[0]);
		for (size_t i = 0; i < kernel_size(n) / 4; i++)
			if (i % 64 >= 4 && w[i] == 0xffffffffu)
				flags |= MALI_PERFCNT_DATA_SATURATED;
		r->type = MALI_PERFCNT_RECORD_SAMPLE;
		r->header_size = sizeof(*r);
		r->size = (uint32_t)(sizeof(*r) + kernel_size(n));
		r->seqno = s->seqno;
		r->start_ns = s->start_ns;
		r->end_ns = end;
		r->data_flags = flags;
		s->start_ns = end;
		return r->size;
	}
}

ssize_t read(int fd, void *buf, size_t len)
{
	init_real();
	if (fd >= 0 && fd < MAXFD && sessions[fd])
		return sess_read(sessions[fd], buf, len);
	return real_read(fd, buf, len);
}

/* The node's next sample is the one @fault names: it fails, recovered */
static int mp_faults(struct node *n)
{
	if (++n->mp_samples != n->fault || !n->fault)
		return 0;
	logf_("sample faulted\n");
	n->recovered = 1;
	if (!n->fault_err)
		n->fault_err = ENXIO;
	return 1;
}

/* the session's SAMPLE: everything since the last one */
static int v3_session_ioctl(struct sess *s, unsigned long req, void *arg)
{
	struct drm_mali_perfcnt_session_sample *r = arg;
	void *tmp;
	uint64_t t;

	if (req != MALI_PERFCNT_SESSION_IOCTL_SAMPLE || !s->v3)
		return fail(ENOTTY);
	if (r->flags || r->pad)
		return fail(EINVAL);
	if (r->buf_size < v3_size(s->n)) {
		r->buf_size = v3_size(s->n);
		return fail(ENOSPC);
	}
	if (mp_faults(s->n)) {
		s->start_ns = now_ns();
		return fail((int)s->n->fault_err);
	}
	tmp = malloc(v3_size(s->n));
	if (!tmp)
		return fail(ENOMEM);
	t = now_ns();
	s->seqno++;
	v3_encode(s, tmp, s->start_ns, t, (s->seqno == 1 ? MALI_PERFCNT_DATA_FIRST : 0) |
		  (s->n->recovered ? MALI_PERFCNT_DATA_AFTER_RECOVERY : 0), 0);
	s->n->recovered = 0;
	s->start_ns = t;
	memcpy((void *)(uintptr_t)r->buf_ptr, tmp, v3_size(s->n));
	free(tmp);
	r->buf_size = v3_size(s->n);
	logf_("session sample\n");
	return 0;
}

static int mp_ioctl(int fd, struct node *n, unsigned long req, void *arg)
{
	if (req == DRM_IOCTL_MALI_PERFCNT_GET_INFO_V3 && n->uapi >= 3) {
		struct drm_mali_perfcnt_get_info_v3 *g = arg;
		struct drm_mali_perfcnt_get_info g2;

		memset(&g2, 0, sizeof(g2));
		mp_geometry(n, &g2);
		memset(g, 0, sizeof(*g));
		g->gpu_id = g2.gpu_id;
		g->uapi_version = g2.uapi_version;
		g->shader_present = n->shader;
		g->l2_present = n->l2;
		g->gpu_freq_hz = g2.gpu_freq_hz;
		g->nr_counter_sets = g2.nr_counter_sets;
		g->max_sessions = 8;
		g->sample_size = v3_size(n);
		snprintf(g->product, sizeof(g->product), "%s", g2.product);
		return 0;
	}
	if (req == DRM_IOCTL_MALI_PERFCNT_SESSION_OPEN)
		return v3_session_open(n, arg);
	if (req == DRM_IOCTL_MALI_PERFCNT_STREAM_OPEN && !n->v4) {
		struct drm_mali_perfcnt_stream_open *o = arg;
		struct sess *s;
		int sfd;

		if (o->period_ns < MALI_PERFCNT_STREAM_MIN_PERIOD_NS ||
		    o->period_ns > MALI_PERFCNT_STREAM_MAX_PERIOD_NS || o->ring_records < 2)
			return fail(EINVAL);
		if (n->owner_other || n->owner_fd >= 0)
			return fail(EBUSY);
		sfd = real_open("/dev/null", O_RDONLY | O_CLOEXEC);
		s = sess_new(sfd, n, 0);
		if (!s) {
			if (sfd >= 0)
				real_close(sfd);
			return fail(ENOMEM);
		}
		if (o->flags & MALI_PERFCNT_STREAM_F_MASKS)
			for (int i = 0; i < 4; i++)
				s->masks[i] = (&o->jm_mask)[i];
		s->period_ns = o->period_ns;
		n->owner_fd = sfd;
		o->fd = sfd;
		o->record_size = (uint32_t)(sizeof(struct drm_mali_perfcnt_record) + kernel_size(n));
		logf_("stream period %llu ring %u\n", (unsigned long long)o->period_ns,
		      o->ring_records);
		return 0;
	}
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
		if (mp_faults(n)) {
			/* restarted at the recovery: the next interval starts now */
			n->last_ns = now_ns();
			return fail((int)n->fault_err);
		}
		tmp = malloc(g.dump_size);
		if (!tmp)
			return fail(ENOMEM);
		d->interval_start_ns = n->last_ns;
		fill(n, tmp, g.dump_size, n->masks[0]);
		d->timestamp_ns = n->last_ns;
		d->data_flags = (n->dumped ? 0 : MALI_PERFCNT_DATA_FIRST) |
				(n->recovered ? MALI_PERFCNT_DATA_AFTER_RECOVERY : 0);
		n->dumped = 1;
		n->recovered = 0;
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
	if (fd >= 0 && fd < MAXFD && sessions[fd])
		return v3_session_ioctl(sessions[fd], req, arg);
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
