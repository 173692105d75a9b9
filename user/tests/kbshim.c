// SPDX-License-Identifier: MIT
/*
 * An LD_PRELOAD shim that fakes Arm kbase's /dev/mali<N> for the host
 * tests: kbase's counter uAPI as this project reads the public facts
 * (lib/kbase_uapi.h), several versions, and the errors kbase gives for wrong
 * use. It answers only while MPC_KBSHIM is set and passes everything else
 * through (so it stacks with pfshim.so).
 *
 *   MPC_KBSHIM      "NODE:VERSION[:k=v,...];..." e.g. "mali0:jm11.38:shader=0x5"
 *                   VERSION jmMAJ.MIN, csfMAJ.MIN or ukMAJ.MIN (pre-r21)
 *   MPC_KBSHIM_DIR  a scratch directory served for opendir("/dev")
 *   MPC_SHIM_LOG    optional file: one line per setup/sample served
 *
 * Keys: prod rev shader mem (GPU_ID and the registers), cpb (values a block:
 * 64 or 128), set (the build's default counter set), val (every value of
 * counter i of a block is val + 1000 * type + 100 * core-or-slice + i per
 * sample), sat (1: values exceed 2^32), hz (0, else every value is hz *
 * seconds since the last sample), fw (1: CSF firmware and CSG blocks),
 * stuck (1: samples never arrive), bad (1: a block's values_offset points
 * past the buffer), err (1: kinstr samples carry the ERROR flag), poff,
 * ppart and pnone (masks of physical shader cores: in every kinstr sample
 * those cores' blocks have block_state OFF, ON|OFF or neither, the other
 * blocks ON).
 * Faults for the backend's error paths: fail (an ioctl request number),
 * errno and nth (its nth call, default the first, fails with errno,
 * default EIO; nth=0: every call), lie (one wrong answer, enum shim_lie).
 *
 * Interfaces by version: kinstr_prfcnt from JM 11.34 / CSF 1.10, the legacy
 * reader before JM 11.40 / CSF 1.21, neither on UK kernels (whose only
 * answer is their version check). Only the version checks, SET_FLAGS,
 * GET_GPUPROPS and kinstr_prfcnt's ENUM_INFO and SETUP work without a
 * context (SET_FLAGS): anything else is EPERM before one, and ENOTTY after
 * when unknown (the legacy reader's setup from 11.40 on included). Unknown
 * reader ioctls and bad requests: EINVAL. A period under 100 us is raised.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "../lib/kbase_uapi.h"

#define MAXN 4
#define MAXFD 256
#define SLOTS MPC_KB_PRFCNT_SLOTS

struct node {
	char name[32];
	int csf, uk;
	unsigned major, minor;
	uint64_t prod, rev, shader, mem, cpb, set, val, sat, hz, fw, stuck, bad, err;
	uint64_t poff, ppart, pnone;
	uint64_t failreq, ferr, nth, lie;
	uint64_t calls;			/* calls of failreq so far */
};

/* lie=N: the one wrong answer of a faulty (or newer, or misread) kbase */
enum shim_lie {
	LIE_ENUM_ITEM_SIZE = 1,		/* ENUM_INFO: 16-byte items */
	LIE_ENUM_VALUES,		/* blocks of 96 values */
	LIE_ENUM_NO_SHADER,		/* no shader core block */
	LIE_PROPS_NO_GPU_ID,		/* GET_GPUPROPS without RAW_GPU_ID */
	LIE_PROPS_EMPTY,		/* GET_GPUPROPS: 0 bytes */
	LIE_PROPS_MORE,			/* more bytes than the size asked for */
	LIE_SETUP_MD_SIZE,		/* 16-byte metadata items */
	LIE_HWVER,			/* GET_HWVER 4 */
	LIE_BUFFER_SIZE,		/* GET_BUFFER_SIZE one block too many */
	LIE_BUFFER_IDX,			/* GET_BUFFER: an index past the buffers */
	LIE_NO_SAMPLE_ITEM,		/* a kinstr sample without its SAMPLE item */
	LIE_SAMPLE_OFFSET,		/* GET_SAMPLE: an offset at the buffer's end */
	LIE_POLLERR,			/* poll(): POLLERR */
	LIE_POLL_FAILS,			/* poll(): -1, ENOMEM */
	LIE_MMAP_FAILS,			/* mmap() of a reader: ENOMEM */
	LIE_NO_SHADER_PRESENT,		/* SHADER_PRESENT 0 */
};

enum { F_DEV = 1, F_KINSTR, F_VINSTR };

/* struct file - what an fd of the shim is */
struct file {
	int kind;
	struct node *n;
	int ctx;			/* F_DEV: SET_FLAGS done */
	/* readers */
	unsigned char *ring;
	size_t ring_size, slot_size;
	unsigned nslots;
	uint64_t write, fetch, put;	/* sample counts: written, handed out, put back */
	int fetched;			/* a sample is out (kinstr) */
	int started, periodic;
	uint64_t period_ns, next_ns, last_ns, seq;
	uint64_t en[MPC_KB_BLOCK_TYPES][2];
	int req[MPC_KB_BLOCK_TYPES];
	uint32_t bm[4];			/* vinstr masks fe, shader, tiler, l2 */
	int overflow;
};

static struct node nodes[MAXN];
static unsigned nnodes;
static char conf_copy[1024];
static struct file *files[MAXFD];

static int (*real_open)(const char *, int, ...);
static int (*real_close)(int);
static int (*real_ioctl)(int, unsigned long, ...);
static DIR *(*real_opendir)(const char *);
static void *(*real_mmap)(void *, size_t, int, int, int, off_t);
static int (*real_munmap)(void *, size_t);
static int (*real_poll)(struct pollfd *, nfds_t, int);

static void init_real(void)
{
	if (real_open)
		return;
	real_open = (int (*)(const char *, int, ...))dlsym(RTLD_NEXT, "open");
	real_close = (int (*)(int))dlsym(RTLD_NEXT, "close");
	real_ioctl = (int (*)(int, unsigned long, ...))dlsym(RTLD_NEXT, "ioctl");
	real_opendir = (DIR *(*)(const char *))dlsym(RTLD_NEXT, "opendir");
	real_mmap = (void *(*)(void *, size_t, int, int, int, off_t))dlsym(RTLD_NEXT, "mmap");
	real_munmap = (int (*)(void *, size_t))dlsym(RTLD_NEXT, "munmap");
	real_poll = (int (*)(struct pollfd *, nfds_t, int))dlsym(RTLD_NEXT, "poll");
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static unsigned fls64(uint64_t v)
{
	return v ? 64u - (unsigned)__builtin_clzll(v) : 0;
}

static int load(void)
{
	const char *c = getenv("MPC_KBSHIM");
	char buf[1024], *save = NULL;

	init_real();
	if (!c || !*c)
		return 0;
	if (!strcmp(c, conf_copy))
		return 1;
	snprintf(conf_copy, sizeof(conf_copy), "%s", c);
	snprintf(buf, sizeof(buf), "%s", c);
	nnodes = 0;
	for (char *spec = strtok_r(buf, ";", &save); spec && nnodes < MAXN;
	     spec = strtok_r(NULL, ";", &save)) {
		struct node *n = &nodes[nnodes++];
		char *ver = strchr(spec, ':'), *kv = NULL, *s2 = NULL;

		memset(n, 0, sizeof(*n));
		n->prod = 0x7212;
		n->shader = 0x1;
		n->val = 1000;
		n->cpb = 64;
		n->major = 11;
		n->minor = 38;
		if (ver) {
			*ver++ = 0;
			kv = strchr(ver, ':');
			if (kv)
				*kv++ = 0;
			n->csf = !strncmp(ver, "csf", 3);
			n->uk = !strncmp(ver, "uk", 2);
			sscanf(ver + (n->csf ? 3 : 2), "%u.%u", &n->major, &n->minor);
		}
		n->fw = n->csf;
		n->nth = 1;
		n->ferr = EIO;
		snprintf(n->name, sizeof(n->name), "%s", spec);
		for (char *p = kv ? strtok_r(kv, ",", &s2) : NULL; p; p = strtok_r(NULL, ",", &s2)) {
			char *eq = strchr(p, '=');
			uint64_t v;

			if (!eq)
				continue;
			*eq = 0;
			v = strtoull(eq + 1, NULL, 0);
#define K(key, field) if (!strcmp(p, key)) n->field = v
			K("prod", prod); K("rev", rev); K("shader", shader); K("mem", mem);
			K("cpb", cpb); K("set", set); K("val", val); K("sat", sat); K("hz", hz);
			K("fw", fw); K("stuck", stuck); K("bad", bad); K("err", err);
			K("poff", poff); K("ppart", ppart); K("pnone", pnone);
			K("fail", failreq); K("errno", ferr); K("nth", nth); K("lie", lie);
#undef K
		}
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

static int fail(int e)
{
	errno = e;
	return -1;
}

static int has_kinstr(const struct node *n)
{
	return !n->uk && (n->csf ? n->minor >= 10 || n->major > 1 : n->minor >= 34 || n->major > 11);
}

static int has_vinstr(const struct node *n)
{
	return !n->uk && (n->csf ? n->major == 1 && n->minor < 21 : n->major == 11 && n->minor < 40);
}

static unsigned slices(const struct node *n)
{
	return (unsigned)((n->mem >> 8) & 0xf) + 1;
}

static unsigned ncores(const struct node *n)
{
	return (unsigned)__builtin_popcountll(n->shader);
}

static unsigned instances(const struct node *n, unsigned t)
{
	switch (t) {
	case MPC_KB_BLOCK_FE: case MPC_KB_BLOCK_TILER: return 1;
	case MPC_KB_BLOCK_MEMORY: return slices(n);
	case MPC_KB_BLOCK_SHADER: return ncores(n);
	case MPC_KB_BLOCK_FW: return n->fw ? 1 : 0;
	case MPC_KB_BLOCK_CSG: return n->fw ? 4 : 0;
	default: return 0;
	}
}

/* the value of counter @i of block @t instance @phys in a sample covering @dt ns */
static uint64_t value(const struct node *n, unsigned t, unsigned phys, unsigned i, uint64_t dt)
{
	if (n->hz)
		return (uint64_t)((double)n->hz * (double)dt * 1e-9);
	return (n->sat ? 0x100000000ull : 0) + n->val + 1000ull * t + 100ull * phys + i;
}

static struct file *new_file(int fd, int kind, struct node *n)
{
	struct file *f;

	if (fd < 0 || fd >= MAXFD)
		return NULL;
	f = calloc(1, sizeof(*f));
	if (!f)
		return NULL;
	f->kind = kind;
	f->n = n;
	files[fd] = f;
	return f;
}

int open(const char *path, int flags, ...);
int open64(const char *path, int flags, ...);

static int fake_open(const char *path, int flags, int *handled)
{
	int fd;

	*handled = 0;
	if (!load() || strncmp(path, "/dev/mali", 9))
		return -1;
	*handled = 1;
	for (unsigned i = 0; i < nnodes; i++)
		if (!strcmp(path + 5, nodes[i].name)) {
			fd = real_open("/dev/null", flags & ~(O_CREAT | O_EXCL));
			if (fd >= 0 && !new_file(fd, F_DEV, &nodes[i])) {
				real_close(fd);
				return fail(EMFILE);
			}
			return fd;
		}
	return fail(ENOENT);
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
	fd = fake_open(path, flags, &handled);
	if (handled)
		return fd;
	init_real();
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
	fd = fake_open(path, flags, &handled);
	if (handled)
		return fd;
	init_real();
	return real_open(path, flags, mode);
}

/* stat() of a fake node: a character device */
int stat(const char *path, struct stat *st);
int stat(const char *path, struct stat *st)
{
	int (*real)(const char *, struct stat *) =
		(int (*)(const char *, struct stat *))dlsym(RTLD_NEXT, "stat");

	if (load() && !strncmp(path, "/dev/mali", 9)) {
		for (unsigned i = 0; i < nnodes; i++)
			if (!strcmp(path + 5, nodes[i].name)) {
				memset(st, 0, sizeof(*st));
				st->st_mode = S_IFCHR | 0666;
				return 0;
			}
		return fail(ENOENT);
	}
	return real ? real(path, st) : fail(ENOSYS);
}

int close(int fd)
{
	init_real();
	if (fd >= 0 && fd < MAXFD && files[fd]) {
		struct file *f = files[fd];

		if (f->ring)
			real_munmap(f->ring, f->ring_size);
		free(f);
		files[fd] = NULL;
	}
	return real_close(fd);
}

DIR *opendir(const char *name)
{
	const char *dir = getenv("MPC_KBSHIM_DIR");
	char p[512];

	init_real();
	if (!load() || strcmp(name, "/dev") || !dir)
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

void *mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off);
void *mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
	struct file *f;

	init_real();
	f = fd >= 0 && fd < MAXFD ? files[fd] : NULL;
	if (!f)
		return real_mmap(addr, len, prot, flags, fd, off);
	if (f->n->lie == LIE_MMAP_FAILS) {
		errno = ENOMEM;
		return MAP_FAILED;
	}
	/* the reader's buffer is read-only for the client; one mapping */
	if (f->kind == F_DEV || !f->ring || off || len != f->ring_size || (prot & PROT_WRITE)) {
		errno = EINVAL;
		return MAP_FAILED;
	}
	return f->ring;
}

int munmap(void *addr, size_t len);
int munmap(void *addr, size_t len)
{
	init_real();
	for (unsigned i = 0; i < MAXFD; i++)
		if (files[i] && files[i]->ring == addr)
			return 0;	/* freed with the reader */
	return real_munmap(addr, len);
}

static int new_reader(struct node *n, int kind, size_t ring_size, struct file **out)
{
	int fd = real_open("/dev/null", O_RDONLY | O_CLOEXEC);
	struct file *f;

	if (fd < 0)
		return -1;
	f = new_file(fd, kind, n);
	if (!f) {
		real_close(fd);
		return fail(ENOMEM);
	}
	f->ring_size = ring_size;
	f->ring = real_mmap(NULL, ring_size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
			    -1, 0);
	if (f->ring == MAP_FAILED) {
		f->ring = NULL;
		close(fd);
		return fail(ENOMEM);
	}
	*out = f;
	return fd;
}

/* ------------------------------------------------------------ kinstr */

static unsigned md_count(const struct file *f)
{
	unsigned c = 3;		/* SAMPLE, CLOCK, NONE */

	for (unsigned t = 0; t < MPC_KB_BLOCK_TYPES; t++)
		if (f->req[t])
			c += instances(f->n, t);
	return c;
}

static size_t values_bytes(const struct file *f)
{
	size_t b = 0;

	for (unsigned t = 0; t < MPC_KB_BLOCK_TYPES; t++)
		if (f->req[t])
			b += (size_t)instances(f->n, t) * f->n->cpb * 8;
	return b;
}

/* write one sample into the next slot (kbase: the one reserved for STOP may be used) */
static void kinstr_write(struct file *f, uint64_t user, uint64_t t_end)
{
	struct node *n = f->n;
	unsigned slot = (unsigned)(f->write % f->nslots);
	unsigned char *s = f->ring + slot * f->slot_size;
	struct mpc_kb_metadata *m = (void *)s;
	size_t voff = (size_t)md_count(f) * sizeof(*m);
	uint64_t dt = t_end - f->last_ns;
	unsigned k = 0;

	memset(s, 0, f->slot_size);
	m[k].hdr.item_type = MPC_KB_META_SAMPLE;
	m[k].u.sample.timestamp_start = f->last_ns;
	m[k].u.sample.timestamp_end = t_end;
	m[k].u.sample.seq = ++f->seq;
	m[k].u.sample.user_data = user;
	m[k].u.sample.flags = (f->overflow ? MPC_KB_SAMPLE_FLAG_OVERFLOW : 0) |
			      (n->err ? MPC_KB_SAMPLE_FLAG_ERROR : 0);
	f->overflow = 0;
	k++;
	m[k].hdr.item_type = MPC_KB_META_CLOCK;
	m[k].u.clock.num_domains = 1;
	m[k].u.clock.cycles[0] = dt * 800 / 1000;	/* an 800 MHz GPU */
	k++;
	for (unsigned t = 0; t < MPC_KB_BLOCK_TYPES; t++) {
		unsigned inst = f->req[t] ? instances(n, t) : 0, core = 0;

		for (unsigned i = 0; i < inst; i++) {
			uint64_t *v = (uint64_t *)(void *)(s + voff);
			unsigned phys = i;

			if (t == MPC_KB_BLOCK_SHADER) {
				while (!((n->shader >> core) & 1))
					core++;
				phys = core++;
			}
			m[k].hdr.item_type = MPC_KB_META_BLOCK;
			m[k].u.block.block_type = (uint8_t)t;
			m[k].u.block.block_idx = (uint8_t)i;	/* dense */
			m[k].u.block.set = (uint8_t)n->set;
			m[k].u.block.block_state = MPC_KB_STATE_ON | MPC_KB_STATE_AVAILABLE |
						   MPC_KB_STATE_NORMAL;
			if (t == MPC_KB_BLOCK_SHADER) {
				uint32_t *st = &m[k].u.block.block_state;

				if ((n->poff >> phys) & 1)
					*st = (*st & ~(uint32_t)MPC_KB_STATE_ON) | MPC_KB_STATE_OFF;
				else if ((n->ppart >> phys) & 1)
					*st |= MPC_KB_STATE_OFF;
				else if ((n->pnone >> phys) & 1)
					*st &= ~(uint32_t)MPC_KB_STATE_ON;
			}
			m[k].u.block.values_offset = (uint32_t)(slot * f->slot_size + voff);
			if (n->bad)
				m[k].u.block.values_offset = (uint32_t)f->ring_size;
			for (unsigned c = 4; c < n->cpb; c++)
				if ((f->en[t][c / 64] >> (c % 64)) & 1)
					v[c] = value(n, t, phys, c, dt);
			v[2] = f->en[t][0];
			voff += n->cpb * 8;
			k++;
		}
	}
	f->write++;
	f->last_ns = t_end;
	logf_("kinstr sample %llu\n", (unsigned long long)f->seq);
}

/* periodic sessions: the samples due by now */
static void kinstr_catch_up(struct file *f)
{
	uint64_t t = now_ns();

	if (!f->started || !f->periodic || f->n->stuck)
		return;
	while (f->next_ns <= t) {
		if (f->write - f->put >= f->nslots - 1) {
			f->overflow = 1;
			f->seq++;		/* a sample lost */
			f->last_ns = f->next_ns;
		} else {
			kinstr_write(f, 0, f->next_ns);
		}
		f->next_ns += f->period_ns;
	}
}

static int kinstr_setup(struct node *n, const struct mpc_kb_request_item *req, unsigned cnt)
{
	struct file tmp, *f;
	int have_mode = 0, set = -1, fd;
	unsigned i;

	memset(&tmp, 0, sizeof(tmp));
	for (i = 0; i < cnt; i++) {
		const struct mpc_kb_request_item *r = &req[i];

		if (r->hdr.item_type == MPC_KB_ITEM_NONE)
			break;
		if (r->hdr.item_version != MPC_KB_PRFCNT_API_VERSION)
			return fail(EINVAL);
		switch (r->hdr.item_type) {
		case MPC_KB_REQ_MODE:
			if (r->u.mode.mode == MPC_KB_MODE_PERIODIC) {
				tmp.periodic = 1;
				tmp.period_ns = r->u.mode.period_ns < MPC_KB_PRFCNT_MIN_PERIOD_NS ?
						MPC_KB_PRFCNT_MIN_PERIOD_NS : r->u.mode.period_ns;
			} else if (r->u.mode.mode != MPC_KB_MODE_MANUAL) {
				return fail(EINVAL);
			}
			have_mode = 1;
			break;
		case MPC_KB_REQ_ENABLE: {
			unsigned t = r->u.enable.block_type;

			if (t >= MPC_KB_BLOCK_TYPES || !instances(n, t))
				return fail(EINVAL);
			if (set >= 0 && set != r->u.enable.set)
				return fail(EINVAL);
			set = r->u.enable.set;
			tmp.req[t] = 1;
			tmp.en[t][0] = r->u.enable.enable_mask[0] | 0xf;
			tmp.en[t][1] = n->cpb == 128 ? r->u.enable.enable_mask[1] : 0;
			break;
		}
		case MPC_KB_REQ_SCOPE:
			if (r->u.scope.scope != 0)
				return fail(EINVAL);
			break;
		default:
			return fail(EINVAL);
		}
	}
	/* the list ends with NONE; a mode and a set are needed, the build's set */
	if (i == cnt || !have_mode || set < 0 || (unsigned)set != n->set)
		return fail(EINVAL);
	tmp.nslots = SLOTS;
	tmp.n = n;
	tmp.slot_size = md_count(&tmp) * sizeof(struct mpc_kb_metadata) + values_bytes(&tmp);
	fd = new_reader(n, F_KINSTR, tmp.slot_size * SLOTS, &f);
	if (fd < 0)
		return -1;
	memcpy(f->en, tmp.en, sizeof(f->en));
	memcpy(f->req, tmp.req, sizeof(f->req));
	f->periodic = tmp.periodic;
	f->period_ns = tmp.period_ns;
	f->slot_size = tmp.slot_size;
	f->nslots = SLOTS;
	logf_("kinstr setup %s %llu\n", f->periodic ? "periodic" : "manual",
	      (unsigned long long)f->period_ns);
	return fd;
}

static int kinstr_ioctl(struct file *f, unsigned long req, void *arg)
{
	switch (req) {
	case MPC_KB_PRFCNT_CMD: {
		struct mpc_kb_control_cmd *c = arg;

		switch (c->cmd) {
		case MPC_KB_CMD_START:
			if (f->started)
				return 0;
			if (f->write - f->put >= f->nslots)
				return fail(EBUSY);
			f->started = 1;
			f->last_ns = now_ns();
			f->next_ns = f->last_ns + f->period_ns;
			logf_("kinstr start\n");
			return 0;
		case MPC_KB_CMD_STOP:
			if (!f->started)
				return fail(EINVAL);
			kinstr_catch_up(f);
			if (f->write - f->put < f->nslots && !f->n->stuck)
				kinstr_write(f, c->user_data, now_ns());
			f->started = 0;
			logf_("kinstr stop\n");
			return 0;
		case MPC_KB_CMD_SAMPLE_SYNC:
			if (!f->started || f->periodic)
				return fail(EINVAL);
			if (f->write - f->put >= f->nslots - 1)
				return fail(EBUSY);
			if (!f->n->stuck)
				kinstr_write(f, c->user_data, now_ns());
			return 0;
		case MPC_KB_CMD_DISCARD:
			f->fetch = f->put = f->write;
			f->fetched = 0;
			return 0;
		default:
			return fail(EINVAL);	/* SAMPLE_ASYNC (4) included */
		}
	}
	case MPC_KB_PRFCNT_GET_SAMPLE: {
		struct mpc_kb_sample_access *a = arg;

		kinstr_catch_up(f);
		if (f->fetched)
			return fail(EBUSY);
		if (f->fetch == f->write)
			return fail(EINVAL);
		a->sample_offset_bytes = (f->fetch % f->nslots) * f->slot_size;
		a->sequence = ((struct mpc_kb_metadata *)(void *)(f->ring +
							 a->sample_offset_bytes))->u.sample.seq;
		if (f->n->lie == LIE_NO_SAMPLE_ITEM)
			((struct mpc_kb_metadata *)(void *)(f->ring + a->sample_offset_bytes))->hdr.item_type =
				MPC_KB_META_CLOCK;
		if (f->n->lie == LIE_SAMPLE_OFFSET)
			a->sample_offset_bytes = f->ring_size - 16;
		f->fetch++;
		f->fetched = 1;
		return 0;
	}
	case MPC_KB_PRFCNT_PUT_SAMPLE: {
		struct mpc_kb_sample_access *a = arg;
		uint64_t off = (f->put % f->nslots) * f->slot_size;

		if (!f->fetched || a->sample_offset_bytes != off ||
		    a->sequence != ((struct mpc_kb_metadata *)(void *)(f->ring + off))->u.sample.seq)
			return fail(EINVAL);
		f->put++;
		f->fetched = 0;
		return 0;
	}
	}
	return fail(EINVAL);
}

/* ------------------------------------------------------------ vinstr */

static size_t vinstr_size(const struct node *n)
{
	return (2 + slices(n) + fls64(n->shader)) * 64 * 4;
}

static void vinstr_write(struct file *f, uint64_t t_end)
{
	struct node *n = f->n;
	unsigned slot = (unsigned)(f->write % f->nslots);
	uint32_t *w = (uint32_t *)(void *)(f->ring + slot * f->slot_size);
	uint64_t dt = t_end - f->last_ns;
	unsigned nb = (unsigned)(f->slot_size / 256);

	memset(w, 0, f->slot_size);
	for (unsigned b = 0; b < nb; b++) {
		uint32_t *blk = w + b * 64, bm;
		unsigned t, phys;

		if (b == 0) {
			t = MPC_KB_BLOCK_FE, phys = 0, bm = f->bm[0];
		} else if (b == 1) {
			t = MPC_KB_BLOCK_TILER, phys = 0, bm = f->bm[2];
		} else if (b < 2 + slices(n)) {
			t = MPC_KB_BLOCK_MEMORY, phys = b - 2, bm = f->bm[3];
		} else {
			t = MPC_KB_BLOCK_SHADER, phys = b - 2 - slices(n), bm = f->bm[1];
			if (!((n->shader >> phys) & 1))
				continue;	/* a hole */
		}
		blk[0] = (uint32_t)t_end;
		blk[1] = (uint32_t)(t_end >> 32);
		blk[2] = bm;
		for (unsigned c = 4; c < 64; c++) {
			uint64_t v;

			if (!((bm >> (c / 4)) & 1))
				continue;
			v = value(n, t, phys, c, dt);
			/* per-client deltas narrowed with saturation */
			blk[c] = v > 0xffffffffull ? 0xffffffffu : (uint32_t)v;
		}
	}
	f->write++;
	f->last_ns = t_end;
	logf_("vinstr dump %llu\n", (unsigned long long)f->write);
}

static void vinstr_catch_up(struct file *f)
{
	uint64_t t = now_ns();

	if (!f->period_ns || f->n->stuck)
		return;
	while (f->next_ns <= t) {
		if (f->write - f->put < f->nslots)
			vinstr_write(f, f->next_ns);
		else
			f->last_ns = f->next_ns;
		f->next_ns += f->period_ns;
	}
}

static int vinstr_ioctl(struct file *f, unsigned long req, void *arg)
{
	switch (req) {
	case MPC_KB_READER_GET_HWVER:
		*(uint32_t *)arg = f->n->lie == LIE_HWVER ? 4 : 5;
		return 0;
	case MPC_KB_READER_GET_BUFFER_SIZE:
		*(uint32_t *)arg = (uint32_t)f->slot_size + (f->n->lie == LIE_BUFFER_SIZE ? 256 : 0);
		return 0;
	case MPC_KB_READER_GET_API_VERSION:
		*(uint32_t *)arg = 1;
		return 0;
	case MPC_KB_READER_GET_API_VERSION_FEATURES: {
		struct mpc_kb_reader_api_version *v = arg;

		v->version = 1;
		v->features = MPC_KB_READER_FEATURE_CYCLES_TOP;
		return 0;
	}
	case MPC_KB_READER_DUMP:
		if (f->write - f->put >= f->nslots)
			return fail(EBUSY);
		if (!f->n->stuck)
			vinstr_write(f, now_ns());
		return 0;
	case MPC_KB_READER_CLEAR:
		f->last_ns = now_ns();
		return 0;
	case MPC_KB_READER_SET_INTERVAL: {
		uint32_t iv = *(uint32_t *)arg;

		f->period_ns = iv && iv < MPC_KB_PRFCNT_MIN_PERIOD_NS ? MPC_KB_PRFCNT_MIN_PERIOD_NS : iv;
		f->next_ns = now_ns() + f->period_ns;
		logf_("vinstr interval %llu\n", (unsigned long long)f->period_ns);
		return 0;
	}
	case MPC_KB_READER_GET_BUFFER:
	case MPC_KB_READER_GET_BUFFER_CYCLES: {
		struct mpc_kb_reader_metadata_cycles *m = arg;
		uint32_t *w;

		vinstr_catch_up(f);
		if (f->fetch == f->write)
			return fail(EAGAIN);
		if (f->fetched)
			return fail(EBUSY);
		w = (uint32_t *)(void *)(f->ring + (f->fetch % f->nslots) * f->slot_size);
		m->timestamp = (uint64_t)w[0] | (uint64_t)w[1] << 32;
		m->event_id = 0;
		m->buffer_idx = (uint32_t)(f->fetch % f->nslots);
		if (f->n->lie == LIE_BUFFER_IDX)
			m->buffer_idx = f->nslots + 3;
		if (req == MPC_KB_READER_GET_BUFFER_CYCLES) {
			m->top_cycles = 0;
			m->shader_cycles = 0;
		}
		f->fetch++;
		f->fetched = 1;
		return 0;
	}
	case MPC_KB_READER_PUT_BUFFER:
	case MPC_KB_READER_PUT_BUFFER_CYCLES: {
		struct mpc_kb_reader_metadata_cycles *m = arg;

		if (!f->fetched || m->buffer_idx != f->put % f->nslots)
			return fail(EINVAL);
		f->put++;
		f->fetched = 0;
		return 0;
	}
	case 0x4004BE40: case 0x4004BE41:	/* ENABLE/DISABLE_EVENT: no-ops */
		return 0;
	}
	return fail(EINVAL);
}

/* ------------------------------------------------------------ device */

static void put_prop(unsigned char **p, unsigned id, unsigned szlog, uint64_t v)
{
	uint32_t key = id << 2 | szlog;

	memcpy(*p, &key, 4);
	*p += 4;
	memcpy(*p, &v, 1u << szlog);
	*p += 1u << szlog;
}

static int dev_ioctl(struct file *f, unsigned long req, void *arg)
{
	struct node *n = f->n;

	if (n->uk) {
		if (req == MPC_KB_IOCTL_UK_VERSION_CHECK) {
			struct mpc_kb_uk_version_check *v = arg;

			v->header = 0;
			v->major = (uint16_t)n->major;
			v->minor = (uint16_t)n->minor;
			return 0;
		}
		return fail(ENOTTY);
	}
	switch (req) {
	case MPC_KB_IOCTL_VERSION_CHECK_JM:
	case MPC_KB_IOCTL_VERSION_CHECK_CSF: {
		struct mpc_kb_version_check *v = arg;

		if ((req == MPC_KB_IOCTL_VERSION_CHECK_CSF) != n->csf)
			return fail(EPERM);	/* the other numbering's reserved slot */
		if (v->major == n->major)
			v->minor = (uint16_t)(v->minor < n->minor ? v->minor : n->minor);
		else
			v->minor = (uint16_t)n->minor;
		v->major = (uint16_t)n->major;
		return 0;
	}
	case MPC_KB_IOCTL_SET_FLAGS: {
		struct mpc_kb_set_flags *s = arg;

		if (s->create_flags & ~0x3u)
			return fail(EINVAL);
		if (f->ctx)
			return fail(EINVAL);
		f->ctx = 1;
		return 0;
	}
	case MPC_KB_IOCTL_GET_GPUPROPS: {
		struct mpc_kb_get_gpuprops *g = arg;
		unsigned char buf[128], *p = buf;

		if (g->flags)
			return fail(EINVAL);
		if (n->lie != LIE_PROPS_NO_GPU_ID)
			put_prop(&p, MPC_KB_PROP_RAW_GPU_ID, 3, n->prod << 16 | n->rev);
		put_prop(&p, MPC_KB_PROP_RAW_SHADER_PRESENT, 3,
			 n->lie == LIE_NO_SHADER_PRESENT ? 0 : n->shader);
		put_prop(&p, MPC_KB_PROP_RAW_L2_PRESENT, 3, 1);
		put_prop(&p, MPC_KB_PROP_RAW_MEM_FEATURES, 2, n->mem);
		put_prop(&p, MPC_KB_PROP_L2_NUM_L2_SLICES, 2, slices(n));
		put_prop(&p, 99, 1, 0xabcd);	/* one the client does not know */
		if (n->lie == LIE_PROPS_EMPTY)
			return 0;
		if (!g->size)
			return (int)(p - buf);
		if (g->size < (uint32_t)(p - buf))
			return fail(EINVAL);
		memcpy((void *)(uintptr_t)g->buffer, buf, (size_t)(p - buf));
		return (int)(p - buf) + (n->lie == LIE_PROPS_MORE ? 8 : 0);
	}
	case MPC_KB_IOCTL_PRFCNT_ENUM_INFO: {
		struct mpc_kb_prfcnt_enum_info *e = arg;
		struct mpc_kb_enum_item items[16];
		unsigned k = 0;

		if (!has_kinstr(n))
			break;
		memset(items, 0, sizeof(items));
		for (unsigned t = 0; t < MPC_KB_BLOCK_TYPES; t++) {
			if (!instances(n, t) ||
			    (n->lie == LIE_ENUM_NO_SHADER && t == MPC_KB_BLOCK_SHADER))
				continue;
			items[k].hdr.item_type = MPC_KB_ENUM_BLOCK;
			items[k].u.block.block_type = (uint8_t)t;
			items[k].u.block.set = (uint8_t)n->set;
			items[k].u.block.num_instances = (uint16_t)instances(n, t);
			items[k].u.block.num_values = (uint16_t)(n->lie == LIE_ENUM_VALUES ? 96 : n->cpb);
			items[k].u.block.counter_mask[0] = ~0ull;
			items[k].u.block.counter_mask[1] = n->cpb == 128 ? ~0ull : 0;
			k++;
		}
		for (unsigned r = 0; r < 3; r++) {
			items[k].hdr.item_type = MPC_KB_ENUM_REQUEST;
			items[k].u.request.request_item_type = (uint16_t)r;
			items[k].u.request.versions_mask = 1;
			k++;
		}
		items[k].hdr.item_type = MPC_KB_ENUM_SAMPLE_INFO;
		items[k].u.sample_info.num_clock_domains = 1;
		k++;
		k++;	/* the NONE sentinel */
		if (!e->info_list_ptr) {
			e->info_item_size = n->lie == LIE_ENUM_ITEM_SIZE ? 16 : sizeof(items[0]);
			e->info_item_count = k;
			return 0;
		}
		if (e->info_item_size != sizeof(items[0]) || e->info_item_count != k)
			return fail(EINVAL);
		memcpy((void *)(uintptr_t)e->info_list_ptr, items, k * sizeof(items[0]));
		return 0;
	}
	case MPC_KB_IOCTL_PRFCNT_SETUP: {
		union mpc_kb_prfcnt_setup *s = arg;
		struct file *r;
		int fd;

		if (!has_kinstr(n))
			break;
		if (s->in.request_item_size != sizeof(struct mpc_kb_request_item) ||
		    !s->in.request_item_count || s->in.request_item_count > 64)
			return fail(EINVAL);
		fd = kinstr_setup(n, (const void *)(uintptr_t)s->in.requests_ptr,
				  s->in.request_item_count);
		if (fd < 0)
			return -1;
		r = files[fd];
		s->out.prfcnt_metadata_item_size = n->lie == LIE_SETUP_MD_SIZE ? 16 :
						   sizeof(struct mpc_kb_metadata);
		s->out.prfcnt_mmap_size_bytes = (uint32_t)r->ring_size;
		return fd;
	}
	}
	/* the rest need a context */
	if (!f->ctx)
		return fail(EPERM);
	switch (req) {
	case MPC_KB_IOCTL_HWCNT_READER_SETUP: {
		struct mpc_kb_hwcnt_reader_setup *s = arg;
		struct file *r;
		unsigned c;
		int fd;

		if (!has_vinstr(n))
			return fail(ENOTTY);
		c = s->buffer_count;
		if (!c || c > MPC_KB_READER_MAX_BUFFERS || (c & (c - 1)))
			return fail(EINVAL);
		if (n->cpb == 128)
			return fail(EINVAL);	/* the reader has 64-value blocks */
		fd = new_reader(n, F_VINSTR, vinstr_size(n) * c, &r);
		if (fd < 0)
			return -1;
		r->nslots = c;
		r->slot_size = vinstr_size(n);
		r->bm[0] = s->fe_bm;
		r->bm[1] = s->shader_bm;
		r->bm[2] = s->tiler_bm;
		r->bm[3] = s->mmu_l2_bm;
		r->last_ns = now_ns();
		logf_("vinstr setup %u\n", c);
		return fd;
	}
	case MPC_KB_IOCTL_HWCNT_SET:
		return fail(ENOTTY);	/* not a NO_MALI build */
	}
	return fail(ENOTTY);
}

int ioctl(int fd, unsigned long req, ...);
int ioctl(int fd, unsigned long req, ...)
{
	struct file *f;
	va_list ap;
	void *arg;

	va_start(ap, req);
	arg = va_arg(ap, void *);
	va_end(ap);
	init_real();
	f = fd >= 0 && fd < MAXFD ? files[fd] : NULL;
	if (!f)
		return real_ioctl(fd, req, arg);
	if (f->n->failreq && req == f->n->failreq && (!f->n->nth || ++f->n->calls == f->n->nth)) {
		logf_("fail 0x%lx\n", req);
		return fail((int)f->n->ferr);
	}
	switch (f->kind) {
	case F_DEV:
		return dev_ioctl(f, req, arg);
	case F_KINSTR:
		return kinstr_ioctl(f, req, arg);
	default:
		return vinstr_ioctl(f, req, arg);
	}
}

static int readable(struct file *f)
{
	if (f->kind == F_KINSTR)
		kinstr_catch_up(f);
	else if (f->kind == F_VINSTR)
		vinstr_catch_up(f);
	return f->kind != F_DEV && f->fetch != f->write;
}

static uint64_t next_due(const struct file *f)
{
	if (f->n->stuck || !f->period_ns || (f->kind == F_KINSTR && (!f->started || !f->periodic)))
		return 0;
	return f->next_ns;
}

int poll(struct pollfd *p, nfds_t n, int timeout);
int poll(struct pollfd *p, nfds_t n, int timeout)
{
	struct file *f;
	uint64_t until;

	init_real();
	f = n == 1 && p[0].fd >= 0 && p[0].fd < MAXFD ? files[p[0].fd] : NULL;
	if (!f)
		return real_poll(p, n, timeout);
	if (f->n->lie == LIE_POLLERR) {
		p[0].revents = POLLERR;
		return 1;
	}
	if (f->n->lie == LIE_POLL_FAILS)
		return fail(ENOMEM);
	until = timeout < 0 ? UINT64_MAX : now_ns() + (uint64_t)timeout * 1000000ull;
	for (;;) {
		uint64_t due, t;
		struct timespec ts;

		if (readable(f)) {
			p[0].revents = POLLIN;
			return 1;
		}
		t = now_ns();
		due = next_due(f);
		if (t >= until) {
			p[0].revents = 0;
			return 0;
		}
		if (!due || due > until)
			due = until;
		if (due == UINT64_MAX)
			due = t + 1000000000ull;	/* nothing will come: still wait */
		if (due > t) {
			ts.tv_sec = (time_t)((due - t) / 1000000000ull);
			ts.tv_nsec = (long)((due - t) % 1000000000ull);
			if (nanosleep(&ts, NULL) < 0 && errno == EINTR)
				return -1;
		}
	}
}
