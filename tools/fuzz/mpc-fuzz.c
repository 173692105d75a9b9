// SPDX-License-Identifier: GPL-2.0-only
/*
 * mpc-fuzz: a structure-aware fuzzer of the mali_perfcnt uAPI.
 *
 * Several processes make random calls on the render node and the debugfs
 * files of a loaded mali_perfcnt (simulated GPU) until a call budget is
 * spent: GET_INFO, ENABLE and DUMP with a value per field drawn from that
 * field's boundaries (0, 1, max, max-1, powers of two and their
 * neighbours, the valid values +-1) or at random; the DRM core ioctls a
 * client uses (VERSION, GET_CAP, SET_CLIENT_CAP) and unused core and
 * driver ioctl numbers; our ioctls with a mangled size or direction; bad
 * pointers (NULL, kernel addresses, unmapped, misaligned, read-only, a
 * buffer that runs into a PROT_NONE page) for the argument and for the dump
 * buffer; writes of random text to perfcnt_enable, perfcnt_va, sim_workload
 * and sim_fault and reads of every debugfs file; open, dup and close of
 * render node descriptors and fork() of children that inherit them. The
 * main process unbinds and binds the device (sysfs) in the middle.
 *
 * The oracle is the uAPI: every call's errno must be one the uAPI documents
 * for it (mali_perfcnt_drm.h, Documentation/interfaces.rst and design.rst
 * for the driver's calls, the DRM core's rules for its own), a call whose
 * input the uAPI says must be rejected must fail, and the outputs of
 * successful calls are checked (GET_INFO as at the start, the size written
 * back by DUMP, seqno increasing). The kernel log must hold no bug report
 * (-b REGEX), and the device must work at the end.
 *
 * Fields are described from the header (offsetof/sizeof, by name): a
 * structure with bytes no table entry covers stops the run, so a uAPI
 * change cannot go unfuzzed silently.
 *
 *   mpc-fuzz [-s SEED] [-n CALLS] [-p PROCS] [-u UNBINDS] [-r CYCLES] [-k]
 *            [-l LOG] [-b REGEX] [-v] [-B]
 *
 * -s seed (default: from the clock; printed either way), -n total calls
 * (default 1000000), -p fuzzing processes (default 2; forked children come
 * on top), -u unbind/bind cycles (default 3), -k one process more with no
 * capabilities, -r CYCLES replaces the fuzzing with a race: PROCS processes
 * open and close every debugfs file of the device in a loop while main
 * unbinds and binds it CYCLES times with no pause (race_opens()), -l
 * appends the kernel log to LOG, -b is the extended regex of kernel log
 * lines that are bug reports, -v prints every violation (else the first
 * 20), -B first times 2000 calls of each kind alone (the cost per call, to
 * set the weights). The same seed gives each process the same sequence of
 * calls; with -p 1 -u 0 the run is replayed exactly.
 *
 * Output: TAP, "# " diagnostics, and the line "# fuzz: N calls, M
 * processes, errno histogram ..., R reports". Exit status 0 when it passed.
 *
 * The device, its debugfs directory, unbind/bind and the TAP lines are the
 * selftests' (mpc_lib.h); the fuzzed calls are made here, raw, once each.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <poll.h>
#include <regex.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/klog.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <linux/capability.h>

#include <drm.h>
#include "mali_perfcnt_drm.h"
#include "mpc_lib.h"

#define MODNAME		MPC_MODULE_NAME
#define KLOG_SIZE	(8 << 20)
#define MAX_ERRNO	160
#define MAX_SLOTS	8
#define MAX_VIOL_SHOWN	20
#define MAX_VKINDS	32
#define MAX_FORKS	24
#define MAX_CHILDREN	2
#define MAX_SLOW_FAULTS	3
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define BIT(n)		(1ULL << (n))

/* ---- operations and their documented errnos ---------------------------- */

enum op {
	OP_GET_INFO, OP_ENABLE, OP_DUMP, OP_VERSION, OP_GET_CAP,
	OP_SET_CLIENT_CAP, OP_CORE_OTHER, OP_DRV_OTHER, OP_MANGLED,
	OP_STREAM, OP_GET_INFO_V3, OP_SESSION, OP_OPEN, OP_CLOSE, OP_DUP, OP_FORK,
	OP_DBG_ENABLE, OP_DBG_VA, OP_DBG_SIM, OP_DBG_READ, OP_DBG_OPEN, OP_UNBIND,
	OP_BIND, NR_OPS
};

static const char * const op_name[NR_OPS] = {
	"GET_INFO", "ENABLE", "DUMP", "VERSION", "GET_CAP", "SET_CLIENT_CAP",
	"core-other", "driver-other", "mangled", "STREAM_OPEN", "GET_INFO_V3", "SESSION",
	"open", "close", "dup", "fork", "perfcnt_enable", "perfcnt_va", "sim-files",
	"debugfs-read", "debugfs-open", "unbind", "bind",
};

/*
 * The errnos each call may return. ENODEV (the device went away) and, for
 * debugfs files, EIO (a removed debugfs file) and ENOENT are allowed only
 * when the device was unbound since the file was opened (see ok_errno()).
 */
static const int op_errnos[NR_OPS][16] = {
	/* GET_INFO: must-be-zero fields; the DRM core's copy */
	[OP_GET_INFO] = { EINVAL, EFAULT },
	/* ENABLE: the header; -EPERM for a disable of another's (design.rst) */
	[OP_ENABLE] = { EINVAL, EBUSY, EACCES, EALREADY, EPERM, EFAULT, EIO, ENXIO,
			ETIMEDOUT },
	/* DUMP: the header */
	[OP_DUMP] = { EINVAL, EPERM, ENODATA, ENOSPC, EFAULT, ETIMEDOUT, ENXIO, EIO },
	[OP_VERSION] = { EFAULT },
	/* only 4 capabilities on a render-only driver, others -EOPNOTSUPP */
	[OP_GET_CAP] = { EOPNOTSUPP, EFAULT },
	/* not allowed on a render node */
	[OP_SET_CLIENT_CAP] = { EACCES, EFAULT },
	/*
	 * unknown (-EINVAL), not for render nodes (-EACCES), no GEM or
	 * syncobj in this driver (-EOPNOTSUPP), PRIME without the driver's
	 * callbacks (-ENOSYS on 6.1)
	 */
	[OP_CORE_OTHER] = { EINVAL, EACCES, EOPNOTSUPP, ENOSYS, EFAULT },
	[OP_DRV_OTHER] = { EINVAL },
	/* ours with another size or direction: what any of the three may give */
	[OP_MANGLED] = { EINVAL, EFAULT, EBUSY, EACCES, EALREADY, EPERM, EIO,
			 ENXIO, ETIMEDOUT, ENODATA, ENOSPC },
	/* the node disappears while unbound */
	/* STREAM_OPEN (the header), then SAMPLE and a non-blocking read */
	[OP_STREAM] = { EINVAL, EBUSY, EACCES, ENOMEM, EFAULT, EIO, ENXIO, ETIMEDOUT,
			EAGAIN, ENODATA },
	[OP_OPEN] = { ENOENT, ENODEV, ENXIO },
	[OP_CLOSE] = { 0 },
	[OP_DUP] = { 0 },
	[OP_FORK] = { EAGAIN },
	/* Documentation/interfaces.rst */
	[OP_DBG_ENABLE] = { EINVAL, EBUSY, EALREADY, EACCES, EFAULT, EIO, ENXIO,
			    ETIMEDOUT },
	[OP_DBG_VA] = { EINVAL, EBUSY, ENODATA, EFAULT, EIO, ENXIO, ETIMEDOUT, EACCES },
	[OP_DBG_SIM] = { EINVAL, EFAULT, EACCES },
	[OP_DBG_READ] = { ENODATA, EBUSY, EIO, ENXIO, ETIMEDOUT, EACCES },
	/*
	 * -r: an open alone; only perfcnt_stream's can fail (interfaces.rst:
	 * -EBUSY while someone else owns the counters, -ENODATA when debugfs
	 * did not enable them)
	 */
	[OP_DBG_OPEN] = { EBUSY, ENODATA },
	[OP_UNBIND] = { 0 },
	[OP_BIND] = { 0 },
	/* the header: must-be-zero fields, the block type array */
	[OP_GET_INFO_V3] = { EINVAL, EFAULT },
	/*
	 * SESSION_OPEN (with F_START those of START), then START, STOP and
	 * SAMPLE on the session fd, and a non-blocking read() (-EINVAL
	 * without a ring, -ENOSPC, -EAGAIN, -ENODATA, -EFAULT, the error that
	 * stopped the session); an unknown ioctl there is -ENOTTY
	 */
	[OP_SESSION] = { EINVAL, E2BIG, EFAULT, EACCES, EMFILE, ENOMEM, EALREADY,
			 EBUSY, EIO, ENXIO, EAGAIN, ENOSPC, ENODATA, ETIMEDOUT, ENOTTY },
};

static bool documented(enum op op, int err)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(op_errnos[op]) && op_errnos[op][i]; i++)
		if (op_errnos[op][i] == err)
			return true;
	return false;
}

/* ---- shared state ------------------------------------------------------ */

struct shared {
	uint64_t calls;			/* made, by every process */
	uint64_t budget;		/* stop at this many */
	uint32_t gen;			/* odd while unbound; +1 per transition */
	uint32_t procs;			/* processes that fuzzed */
	uint32_t slow_faults;		/* slow sim_fault arms left */
	uint32_t violations;
	uint32_t shown;
	uint32_t forks;			/* fork()s left */
	uint32_t explained;		/* violations retried with drm.debug */
	uint32_t race_done;		/* -r: the workers stop */
	char race_dir[PATH_MAX];	/* -r: dbg_dir; written while gen is odd */
	struct {
		uint64_t key;		/* format string + vkind_extra */
		uint32_t n;
		char first[1024];
	} vk[MAX_VKINDS];		/* violations by kind */
	uint64_t hist[NR_OPS][MAX_ERRNO + 1];	/* [MAX_ERRNO]: other */
	struct drm_mali_perfcnt_get_info info;	/* at the start */
	struct drm_mali_perfcnt_get_info_v3 info3;	/* likewise */
	struct drm_mali_perfcnt_block_type_info types[MALI_PERFCNT_MAX_BLOCK_TYPES];
};

static struct shared *sh;
static bool verbose;
static bool unprivileged;		/* this process dropped its caps */
static int worker_id;
static int bench_op = -1;		/* -B: time each kind of call alone */

/* ---- random numbers ---------------------------------------------------- */

static uint64_t rng;

static uint64_t rnd64(void)
{
	/* splitmix64 */
	uint64_t z = (rng += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static uint32_t rnd(uint32_t n)
{
	return n ? rnd64() % n : 0;
}

static bool chance(unsigned int permille)
{
	return rnd(1000) < permille;
}

/*
 * A value of a @bits wide field: a boundary (0, 1, max, max-1, 2^k,
 * 2^k-1, 2^k+1, the valid value +-1) or a random one.
 */
static uint64_t boundary(unsigned int bits, uint64_t valid)
{
	uint64_t max = bits >= 64 ? ~0ULL : BIT(bits) - 1;
	uint64_t p = BIT(rnd(bits));

	switch (rnd(11)) {
	case 0: return 0;
	case 1: return 1;
	case 2: return max;
	case 3: return max - 1;
	case 4: return p;
	case 5: return (p - 1) & max;
	case 6: return (p + 1) & max;
	case 7: return (valid + 1) & max;
	case 8: return (valid - 1) & max;
	case 9: return rnd64() & max;
	default: return rnd64() & 0xff;
	}
}

/* ---- violations and counting ------------------------------------------- */

/* one write a line: lines of several processes do not mix */
#define diag mpc_tap_diag

/* The argument of the call being checked, shown with its violations. */
static const void *cur_arg;
static size_t cur_len;
/* Tells violations of one format apart: op and errno for account() */
static unsigned int vkind_extra;

static void hexdump(char *out, size_t len, const void *s, size_t size)
{
	const unsigned char *p = s;
	size_t i, at = 0;

	for (i = 0; i < size && at + 3 < len; i++)
		at += snprintf(out + at, len - at, "%02x", p[i]);
}

/*
 * A call broke the uAPI's rules: counted by kind (its format string), the
 * first of each kind kept for the summary, the first few shown at once.
 */
static void violation(const char *fmt, ...)
{
	va_list ap;
	char line[900], hex[600] = "";
	unsigned int i;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (cur_len)
		hexdump(hex, sizeof(hex), cur_arg, cur_len);
	__atomic_fetch_add(&sh->violations, 1, __ATOMIC_RELAXED);
	for (i = 0; i < MAX_VKINDS; i++) {
		uint64_t key = (uintptr_t)fmt + ((uint64_t)vkind_extra << 48);
		uint64_t want = 0;

		if (sh->vk[i].key != key &&
		    !__atomic_compare_exchange_n(&sh->vk[i].key, &want, key, false,
						 __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
			if (want != key)
				continue;
		if (__atomic_fetch_add(&sh->vk[i].n, 1, __ATOMIC_RELAXED) == 0)
			snprintf(sh->vk[i].first, sizeof(sh->vk[i].first),
				 "process %d%s, call %" PRIu64 ": %s%s%s", worker_id,
				 unprivileged ? " without capabilities" : "",
				 __atomic_load_n(&sh->calls, __ATOMIC_RELAXED), line,
				 hex[0] ? " arg=" : "", hex);
		break;
	}
	if (verbose || __atomic_fetch_add(&sh->shown, 1, __ATOMIC_RELAXED) <
	    MAX_VIOL_SHOWN)
		diag("VIOLATION (process %d%s, call %" PRIu64 "): %s%s%s", worker_id,
		     unprivileged ? " without capabilities" : "",
		     __atomic_load_n(&sh->calls, __ATOMIC_RELAXED), line,
		     hex[0] ? " arg=" : "", hex);
}

static const char *errname(int e)
{
	const char *n = e ? strerrorname_np(e) : "0";

	return n ? n : "E?";
}

static uint32_t gen_now(void)
{
	return __atomic_load_n(&sh->gen, __ATOMIC_ACQUIRE);
}

/* Whether the device went away (or was away) since @gen. */
static bool gone_since(uint32_t gen)
{
	return (gen & 1) || gen_now() != gen;
}

/*
 * Account a call of @op that returned @err (0 or a positive errno) and
 * check it against the documented set; @since is the generation the file
 * was opened in. Returns @err.
 */
static int account(enum op op, int err, uint32_t since, const char *what)
{
	bool ok;

	__atomic_fetch_add(&sh->calls, 1, __ATOMIC_RELAXED);
	__atomic_fetch_add(&sh->hist[op][err < MAX_ERRNO ? err : MAX_ERRNO], 1,
			   __ATOMIC_RELAXED);
	if (!err)
		return 0;
	ok = documented(op, err);
	if (!ok && gone_since(since) &&
	    (err == ENODEV || err == EIO || err == ENOENT))
		ok = true;
	if (!ok) {
		vkind_extra = op * 256 + err;
		violation("%s: %s is not documented for it (%s)", op_name[op],
			  errname(err), what);
		vkind_extra = 0;
	}
	return err;
}

static bool budget_left(void)
{
	return __atomic_load_n(&sh->calls, __ATOMIC_RELAXED) < sh->budget;
}

/* ---- the uAPI structures, from the header ------------------------------ */

enum kind {
	K_ZERO,		/* in, must be zero */
	K_FLAGS,	/* in, bits of .valid only */
	K_VALUE,	/* in, checked by the ioctl's own rules */
	K_OUT,		/* out only: the input is ignored */
};

struct field {
	const char *name;
	size_t off, size;
	enum kind kind;
	uint64_t valid;		/* K_FLAGS: the mask */
};

#define FLD(st, f, k, v) { #f, offsetof(struct st, f), \
			   sizeof(((struct st *)0)->f), k, v }

static const struct field get_info_fields[] = {
	FLD(drm_mali_perfcnt_get_info, gpu_id, K_OUT, 0),
	FLD(drm_mali_perfcnt_get_info, layout, K_OUT, 0),
	FLD(drm_mali_perfcnt_get_info, shader_present, K_OUT, 0),
	FLD(drm_mali_perfcnt_get_info, l2_present, K_OUT, 0),
	FLD(drm_mali_perfcnt_get_info, nr_l2, K_OUT, 0),
	FLD(drm_mali_perfcnt_get_info, nr_core_groups, K_OUT, 0),
	FLD(drm_mali_perfcnt_get_info, nr_shader_blocks, K_OUT, 0),
	FLD(drm_mali_perfcnt_get_info, nr_blocks, K_OUT, 0),
	FLD(drm_mali_perfcnt_get_info, counters_per_block, K_OUT, 0),
	FLD(drm_mali_perfcnt_get_info, dump_size, K_OUT, 0),
	FLD(drm_mali_perfcnt_get_info, nr_counter_sets, K_OUT, 0),
	FLD(drm_mali_perfcnt_get_info, l2_features, K_OUT, 0),
	FLD(drm_mali_perfcnt_get_info, mem_features, K_OUT, 0),
	FLD(drm_mali_perfcnt_get_info, uapi_version, K_OUT, 0),
	FLD(drm_mali_perfcnt_get_info, caps, K_OUT, 0),
	FLD(drm_mali_perfcnt_get_info, gpu_freq_hz, K_OUT, 0),
	FLD(drm_mali_perfcnt_get_info, product, K_OUT, 0),
	FLD(drm_mali_perfcnt_get_info, flags, K_ZERO, 0),
	FLD(drm_mali_perfcnt_get_info, pad, K_ZERO, 0),
	FLD(drm_mali_perfcnt_get_info, reserved, K_ZERO, 0),
};

static const struct field enable_fields[] = {
	FLD(drm_mali_perfcnt_enable, enable, K_VALUE, 0),
	FLD(drm_mali_perfcnt_enable, counter_set, K_VALUE, 0),
	FLD(drm_mali_perfcnt_enable, jm_mask, K_VALUE, 0),
	FLD(drm_mali_perfcnt_enable, tiler_mask, K_VALUE, 0),
	FLD(drm_mali_perfcnt_enable, shader_mask, K_VALUE, 0),
	FLD(drm_mali_perfcnt_enable, mmu_l2_mask, K_VALUE, 0),
	FLD(drm_mali_perfcnt_enable, flags, K_FLAGS, MALI_PERFCNT_ENABLE_F_MASKS),
	FLD(drm_mali_perfcnt_enable, pad, K_ZERO, 0),
	FLD(drm_mali_perfcnt_enable, reserved, K_ZERO, 0),
};

static const struct field dump_fields[] = {
	FLD(drm_mali_perfcnt_dump, buf_ptr, K_VALUE, 0),
	FLD(drm_mali_perfcnt_dump, buf_size, K_VALUE, 0),
	FLD(drm_mali_perfcnt_dump, flags, K_ZERO, 0),
	FLD(drm_mali_perfcnt_dump, seqno, K_OUT, 0),
	FLD(drm_mali_perfcnt_dump, timestamp_ns, K_OUT, 0),
#if MALI_PERFCNT_UAPI_VERSION >= 2
	/* revision 2: out fields, their input ignored */
	FLD(drm_mali_perfcnt_dump, interval_start_ns, K_OUT, 0),
	FLD(drm_mali_perfcnt_dump, data_flags, K_OUT, 0),
	FLD(drm_mali_perfcnt_dump, pad, K_ZERO, 0),
#else
	FLD(drm_mali_perfcnt_dump, reserved, K_ZERO, 0),
#endif
};

static const struct field get_info_v3_fields[] = {
	FLD(drm_mali_perfcnt_get_info_v3, gpu_id, K_OUT, 0),
	FLD(drm_mali_perfcnt_get_info_v3, uapi_version, K_OUT, 0),
	FLD(drm_mali_perfcnt_get_info_v3, shader_present, K_OUT, 0),
	FLD(drm_mali_perfcnt_get_info_v3, l2_present, K_OUT, 0),
	FLD(drm_mali_perfcnt_get_info_v3, gpu_freq_hz, K_OUT, 0),
	FLD(drm_mali_perfcnt_get_info_v3, block_types_ptr, K_VALUE, 0),
	FLD(drm_mali_perfcnt_get_info_v3, nr_block_types, K_VALUE, 0),
	FLD(drm_mali_perfcnt_get_info_v3, nr_counter_sets, K_OUT, 0),
	FLD(drm_mali_perfcnt_get_info_v3, max_sessions, K_OUT, 0),
	FLD(drm_mali_perfcnt_get_info_v3, sample_size, K_OUT, 0),
	FLD(drm_mali_perfcnt_get_info_v3, caps, K_OUT, 0),
	FLD(drm_mali_perfcnt_get_info_v3, product, K_OUT, 0),
	FLD(drm_mali_perfcnt_get_info_v3, flags, K_ZERO, 0),
	FLD(drm_mali_perfcnt_get_info_v3, pad, K_ZERO, 0),
	FLD(drm_mali_perfcnt_get_info_v3, reserved, K_ZERO, 0),
};

static const struct field session_open_fields[] = {
	FLD(drm_mali_perfcnt_session_open, extensions, K_VALUE, 0),
	FLD(drm_mali_perfcnt_session_open, flags, K_FLAGS,
	    MALI_PERFCNT_SESSION_F_CLOEXEC | MALI_PERFCNT_SESSION_F_START),
	FLD(drm_mali_perfcnt_session_open, counter_set, K_VALUE, 0),
	FLD(drm_mali_perfcnt_session_open, reserved, K_ZERO, 0),
};

static const struct field session_sample_fields[] = {
	FLD(drm_mali_perfcnt_session_sample, buf_ptr, K_VALUE, 0),
	FLD(drm_mali_perfcnt_session_sample, buf_size, K_VALUE, 0),
	FLD(drm_mali_perfcnt_session_sample, flags, K_ZERO, 0),
	FLD(drm_mali_perfcnt_session_sample, pad, K_ZERO, 0),
};

struct ustruct {
	const char *name;
	const struct field *fields;
	size_t nr, size;
};

#define USTRUCT(st, tab) { #st, tab, ARRAY_SIZE(tab), sizeof(struct st) }

enum { U_GET_INFO, U_ENABLE, U_DUMP, U_GET_INFO_V3, U_SESSION_OPEN, U_SESSION_SAMPLE };

static const struct ustruct ustructs[] = {
	[U_GET_INFO] = USTRUCT(drm_mali_perfcnt_get_info, get_info_fields),
	[U_ENABLE] = USTRUCT(drm_mali_perfcnt_enable, enable_fields),
	[U_DUMP] = USTRUCT(drm_mali_perfcnt_dump, dump_fields),
	[U_GET_INFO_V3] = USTRUCT(drm_mali_perfcnt_get_info_v3, get_info_v3_fields),
	[U_SESSION_OPEN] = USTRUCT(drm_mali_perfcnt_session_open, session_open_fields),
	[U_SESSION_SAMPLE] = USTRUCT(drm_mali_perfcnt_session_sample, session_sample_fields),
};

/* Every byte of every structure is described by exactly one field. */
static bool check_tables(void)
{
	bool ok = true;
	size_t i, j;

	for (i = 0; i < ARRAY_SIZE(ustructs); i++) {
		const struct ustruct *u = &ustructs[i];
		size_t at = 0;

		for (j = 0; j < u->nr; j++) {
			if (u->fields[j].off != at) {
				diag("struct %s: bytes %zu..%zu are in no field of the fuzzer's table (before %s): describe the new field",
				     u->name, at, u->fields[j].off - 1, u->fields[j].name);
				ok = false;
			}
			at = u->fields[j].off + u->fields[j].size;
		}
		if (at != u->size) {
			diag("struct %s: bytes %zu..%zu are in no field of the fuzzer's table: describe the new field",
			     u->name, at, u->size - 1);
			ok = false;
		}
	}
	return ok;
}

static uint64_t get_field(const void *s, const struct field *f)
{
	uint64_t v = 0;

	if (f->size == 4) {
		uint32_t x;

		memcpy(&x, (const char *)s + f->off, 4);
		v = x;
	} else if (f->size == 8) {
		memcpy(&v, (const char *)s + f->off, 8);
	}
	return v;
}

static void set_field(void *s, const struct field *f, uint64_t v)
{
	if (f->size == 4) {
		uint32_t x = v;

		memcpy((char *)s + f->off, &x, 4);
	} else if (f->size == 8) {
		memcpy((char *)s + f->off, &v, 8);
	}
}

/* Whether any byte of @f is non-zero. */
static bool field_nonzero(const void *s, const struct field *f)
{
	const unsigned char *p = (const unsigned char *)s + f->off;
	size_t i;

	for (i = 0; i < f->size; i++)
		if (p[i])
			return true;
	return false;
}

/*
 * Mutate one field of @s: a boundary or random value (arrays and wide
 * fields: one 8-byte word or one byte of them).
 */
static void mutate_field(void *s, const struct field *f)
{
	unsigned char *p = (unsigned char *)s + f->off;

	if (f->size == 4 || f->size == 8) {
		set_field(s, f, boundary(f->size * 8, get_field(s, f)));
	} else if (f->size % 8 == 0 && chance(700)) {
		uint64_t v = boundary(64, 0);

		memcpy(p + 8 * rnd(f->size / 8), &v, 8);
	} else {
		p[rnd(f->size)] = rnd(256);
	}
}

/*
 * Mutate 0, 1 or more fields; K_OUT fields get garbage half the time
 * (their input must be ignored). Returns the number of mutated input
 * fields.
 */
static unsigned int mutate(void *s, const struct ustruct *u, unsigned int valid_pm)
{
	unsigned int n = 0, k, i;
	size_t j;

	for (j = 0; j < u->nr; j++)
		if (u->fields[j].kind == K_OUT && chance(500))
			mutate_field(s, &u->fields[j]);
	if (chance(valid_pm))
		return 0;
	k = chance(800) ? 1 : 2 + rnd(3);
	for (i = 0; i < k; i++) {
		const struct field *f = &u->fields[rnd(u->nr)];

		if (f->kind == K_OUT)
			continue;
		mutate_field(s, f);
		n++;
	}
	return n;
}

/* Whether the generic rules reject @s: a must-be-zero field, unknown flags. */
static const char *generic_bad(const void *s, const struct ustruct *u)
{
	size_t j;

	for (j = 0; j < u->nr; j++) {
		const struct field *f = &u->fields[j];

		if (f->kind == K_ZERO && field_nonzero(s, f))
			return f->name;
		if (f->kind == K_FLAGS && (get_field(s, f) & ~f->valid))
			return f->name;
	}
	return NULL;
}

/* ---- memory: good and bad pointers ------------------------------------- */

static char *arena;		/* rw pages, then the guard */
static char *guard;		/* PROT_NONE */
static char *ro_page;		/* PROT_READ */
static char *hole;		/* unmapped */
static size_t page;
static uint32_t dump_size;
static uint32_t sample_size;	/* of a session: GET_INFO_V3 */

static void setup_memory(void)
{
	/* a session read() takes up to three samples */
	size_t big = dump_size > 3 * sample_size ? dump_size : 3 * sample_size;
	size_t rw = ((big + page - 1) / page + 1) * page;
	char *m = mmap(NULL, rw + 3 * page, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (m == MAP_FAILED) {
		perror("mmap");
		exit(2);
	}
	arena = m;
	guard = m + rw;
	ro_page = guard + page;
	hole = ro_page + page;
	mprotect(guard, page, PROT_NONE);
	mprotect(ro_page, page, PROT_READ);
	munmap(hole, page);
}

enum ptr_kind { P_GOOD, P_MISALIGNED, P_AT_GUARD, P_BAD, P_RO };

/*
 * An address for @size bytes: good (aligned, misaligned, ending right at the
 * guard page) or bad (running into the guard, in it, read-only, unmapped,
 * NULL, low, kernel, non-canonical). *@kind says which.
 */
static char *pick_ptr(size_t size, unsigned int bad_pm, enum ptr_kind *kind)
{
	static const uint64_t wild[] = {
		0x1, 0xfff, 0x10000, 0xffff888000000000ULL,
		0xffffffff81000000ULL, 0xffffffffffff0000ULL, ~0ULL,
		0x0000800000000000ULL, 0x8000000000000000ULL,
		0xdead000000000100ULL,
	};

	if (!chance(bad_pm)) {
		switch (rnd(8)) {
		case 0:
			*kind = P_MISALIGNED;
			return arena + 1 + rnd(7);
		case 1:
			*kind = P_AT_GUARD;
			return guard - size;
		default:
			*kind = P_GOOD;
			return arena;
		}
	}
	*kind = P_BAD;
	switch (rnd(6)) {
	case 0:
		return guard - size + 1 + rnd(size > 1 ? size - 1 : 1);
	case 1:
		return guard + rnd(page);
	case 2:
		*kind = P_RO;
		return ro_page;
	case 3:
		return hole + rnd(page);
	case 4:
		return NULL;
	default:
		return (char *)(uintptr_t)wild[rnd(ARRAY_SIZE(wild))];
	}
}

/*
 * An address any access of up to 64 bytes faults at: the guard page, the
 * hole, a kernel or non-canonical one; for a write also the read-only page.
 */
static char *fault_ptr(bool for_write)
{
	static const uint64_t wild[] = {
		0xffff888000000000ULL, 0xffffffff81000000ULL,
		0x0000800000000000ULL, 0xdead000000000100ULL,
	};

	switch (rnd(for_write ? 4 : 3)) {
	case 0:
		return guard + rnd(page - 64);
	case 1:
		return hole + rnd(page - 64);
	case 2:
		return (char *)(uintptr_t)wild[rnd(ARRAY_SIZE(wild))];
	default:
		return ro_page;
	}
}

/* ---- render node descriptors ------------------------------------------- */

struct slot {
	int fd;
	uint32_t gen;		/* generation it was opened in */
};

static struct slot slots[MAX_SLOTS];
static char node[64];
static char dbg_dir[PATH_MAX];
static uint32_t dbg_gen = 1;	/* odd: not found yet */
static uint64_t last_seqno;
static uint32_t seqno_gen = 1;

/* 0 or the errno; SESSION_OPEN's new fd (a positive return) is not an error */
static int xioctl(int fd, unsigned long cmd, void *arg)
{
	return ioctl(fd, cmd, arg) < 0 ? errno : 0;
}

static bool find_node(void)
{
	return !mpc_find_render(node, sizeof(node));
}

static bool find_debugfs(void)
{
	uint32_t gen = gen_now();

	if (mpc_find_debugfs(dbg_dir, sizeof(dbg_dir)))
		return false;
	dbg_gen = gen;
	return true;
}

static struct slot *any_slot(void)
{
	struct slot *s = &slots[rnd(MAX_SLOTS)];

	return s->fd >= 0 ? s : NULL;
}

static void op_open(void)
{
	struct slot *s = &slots[rnd(MAX_SLOTS)];
	uint32_t gen = gen_now();
	int fd, err;

	if (s->fd >= 0)
		return;
	if (!node[0] && !find_node())
		strcpy(node, "/dev/dri/renderD128");
	fd = open(node, O_RDWR | O_CLOEXEC);
	err = fd < 0 ? errno : 0;
	if (err == ENOENT)
		node[0] = '\0';
	account(OP_OPEN, err, gen | 1, node);
	if (fd >= 0) {
		s->fd = fd;
		s->gen = gen;
	}
}

static void op_close(void)
{
	struct slot *s = any_slot();

	if (!s)
		return;
	account(OP_CLOSE, close(s->fd) ? errno : 0, s->gen, "close");
	s->fd = -1;
}

static void op_dup(void)
{
	struct slot *s = any_slot(), *d = &slots[rnd(MAX_SLOTS)];
	int fd;

	if (!s || d->fd >= 0)
		return;
	fd = fcntl(s->fd, F_DUPFD_CLOEXEC, 0);
	account(OP_DUP, fd < 0 ? errno : 0, s->gen, "dup");
	if (fd >= 0)
		*d = (struct slot){ fd, s->gen };
}

/* ---- our ioctls -------------------------------------------------------- */

/* Place the argument; 0 when it could be done, else EFAULT expected. */
static char *place_arg(const void *s, size_t size, enum ptr_kind *kind)
{
	char *p = pick_ptr(size, 20, kind);

	if (*kind == P_GOOD || *kind == P_MISALIGNED || *kind == P_AT_GUARD) {
		memcpy(p, s, size);
	} else if (*kind == P_RO) {
		/* the argument is readable, only the copy back fails */
		mprotect(ro_page, page, PROT_READ | PROT_WRITE);
		memcpy(p, s, size);
		mprotect(ro_page, page, PROT_READ);
	}
	return p;
}

/* The result of an ioctl whose argument is at @p of kind @k. */
static bool arg_fault_expected(enum ptr_kind k, unsigned long cmd)
{
	if (k == P_BAD)
		return true;
	/* read-only: copying the result out fails */
	return k == P_RO && (_IOC_DIR(cmd) & _IOC_READ);
}

/*
 * Call our ioctl @cmd (op @op) with a copy of @s placed by place_arg();
 * *@pp is where it went (the result is read there). Returns the errno, or -1 when there is nothing more to check:
 * the device went away, or the argument's pointer was bad (then EFAULT is
 * checked here).
 */
static int call_placed(struct slot *sl, enum op op, unsigned long cmd, const void *s,
		       size_t size, char **pp)
{
	enum ptr_kind k;
	char *p = place_arg(s, size, &k);
	int err;

	cur_arg = s;
	cur_len = size;
	err = account(op, xioctl(sl->fd, cmd, p), sl->gen, "");
	if (err == ENODEV)
		return -1;
	if (arg_fault_expected(k, cmd)) {
		if (err != EFAULT)
			violation("%s with a bad argument pointer %p: %s, want EFAULT", op_name[op],
				  p, errname(err));
		return -1;
	}
	*pp = p;
	return err;
}

static void op_get_info(struct slot *sl)
{
	const struct ustruct *u = &ustructs[U_GET_INFO];
	struct drm_mali_perfcnt_get_info in, out;
	const char *bad;
	char *p;
	int err;

	memset(&in, 0, sizeof(in));
	mutate(&in, u, 100);
	bad = generic_bad(&in, u);
	err = call_placed(sl, OP_GET_INFO, DRM_IOCTL_MALI_PERFCNT_GET_INFO, &in, sizeof(in), &p);
	if (err < 0)
		return;
	if (bad && !err)
		violation("GET_INFO with non-zero %s succeeded", bad);
	if (bad || err)
		return;
	/* the product name is a string: the bytes after its NUL are not out */
	memcpy(&out, p, sizeof(out));
	if (memcmp(&out, &sh->info, offsetof(typeof(out), product)) ||
	    strnlen(out.product, sizeof(out.product)) == sizeof(out.product) ||
	    strcmp(out.product, sh->info.product))
		violation("GET_INFO: the result differs from the first one");
}

/* What the uAPI says of an ENABLE: NULL when it may succeed, else why not. */
static const char *enable_bad(const struct drm_mali_perfcnt_enable *e)
{
	const char *bad = generic_bad(e, &ustructs[U_ENABLE]);
	bool masks = e->jm_mask | e->tiler_mask | e->shader_mask | e->mmu_l2_mask;

	if (bad)
		return bad;
	if (e->enable > 1)
		return "enable > 1";
	if (!e->enable)
		return e->counter_set || masks || e->flags ?
		       "disable with a set, masks or flags" : NULL;
	if (unprivileged)
		return "no CAP_PERFMON";
	if (e->counter_set >= sh->info.nr_counter_sets)
		return "counter_set out of range";
	if (masks && !(e->flags & MALI_PERFCNT_ENABLE_F_MASKS))
		return "masks without F_MASKS";
	if ((e->jm_mask | e->tiler_mask | e->shader_mask | e->mmu_l2_mask) > 0xffff)
		return "mask bits above 15";
	return NULL;
}

static void op_enable(struct slot *sl)
{
	const struct ustruct *u = &ustructs[U_ENABLE];
	struct drm_mali_perfcnt_enable e;
	const char *bad;
	char *p;
	int err;

	memset(&e, 0, sizeof(e));
	switch (rnd(3)) {
	case 0:
		e.enable = 1;
		break;
	case 1:
		e.enable = 1;
		e.counter_set = rnd(sh->info.nr_counter_sets);
		e.flags = MALI_PERFCNT_ENABLE_F_MASKS;
		e.jm_mask = rnd(0x10000);
		e.tiler_mask = rnd(0x10000);
		e.shader_mask = rnd(0x10000);
		e.mmu_l2_mask = rnd(0x10000);
		break;
	default:
		break;
	}
	mutate(&e, u, 60);
	bad = enable_bad(&e);
	err = call_placed(sl, OP_ENABLE, DRM_IOCTL_MALI_PERFCNT_ENABLE, &e, sizeof(e), &p);
	if (err < 0)
		return;
	if (bad && !err)
		violation("ENABLE succeeded although %s", bad);
	if (!bad && err == EINVAL)
		violation("ENABLE: EINVAL for valid arguments");
	if (!bad && e.enable && (err == EPERM))
		violation("ENABLE: EPERM when enabling (want EBUSY)");
	if (!bad && !e.enable && (err == EBUSY || err == EACCES))
		violation("ENABLE: %s when disabling", errname(err));
}

static void op_dump(struct slot *sl)
{
	const struct ustruct *u = &ustructs[U_DUMP];
	struct drm_mali_perfcnt_dump d, out;
	enum ptr_kind bk;
	const char *bad;
	char *p, *buf;
	uint32_t gen = gen_now();
	int err;

	memset(&d, 0, sizeof(d));
	buf = pick_ptr(dump_size, 150, &bk);
	d.buf_ptr = (uintptr_t)buf;
	d.buf_size = chance(900) ? dump_size : boundary(32, dump_size);
	mutate(&d, u, 80);
	bad = generic_bad(&d, u);
	if (!bad && d.buf_size < dump_size)
		bad = "buf_size too small";
	if (d.buf_ptr != (uintptr_t)buf) {
		/* mutated: bad when NULL or not a user address, else unknown */
		if (!bad && (!d.buf_ptr || d.buf_ptr >= 0x0000800000000000ULL))
			bad = "buf_ptr mutated to NULL or a non-user address";
	} else if (!bad && bk != P_GOOD && bk != P_MISALIGNED && bk != P_AT_GUARD) {
		bad = "bad buffer";
	}
	err = call_placed(sl, OP_DUMP, DRM_IOCTL_MALI_PERFCNT_DUMP, &d, sizeof(d), &p);
	if (err < 0)
		return;
	memcpy(&out, p, sizeof(out));
	if (bad && !err)
		violation("DUMP succeeded although %s", bad);
	if (err == ENOSPC && out.buf_size != dump_size)
		violation("DUMP: ENOSPC wrote back buf_size %u, want %u", out.buf_size,
			  dump_size);
	if (err == ENOSPC && d.buf_size >= dump_size)
		violation("DUMP: ENOSPC for a buffer of %u >= %u bytes", d.buf_size,
			  dump_size);
	if (err == EINVAL && !generic_bad(&d, u))
		violation("DUMP: EINVAL with every must-be-zero field zero");
	if (err)
		return;
	if (out.buf_size != dump_size)
		violation("DUMP: buf_size %u written back, want %u", out.buf_size, dump_size);
	/* seqno: strictly increasing while the device stays */
	if (gen == seqno_gen && !gone_since(gen) && out.seqno <= last_seqno)
		violation("DUMP: seqno %" PRIu64 " after %" PRIu64, out.seqno, last_seqno);
	last_seqno = out.seqno;
	seqno_gen = gen;
}

/* ---- DRM core ioctls and other numbers --------------------------------- */

static void op_version(struct slot *sl)
{
	struct drm_version v;
	enum ptr_kind k[3];
	char *bufs[3];
	size_t lens[3];
	bool bad = false;
	int i, err;

	memset(&v, 0, sizeof(v));
	for (i = 0; i < 3; i++) {
		lens[i] = chance(500) ? 64 : boundary(chance(500) ? 8 : 64, 0);
		bufs[i] = pick_ptr(lens[i] < 64 ? 64 : 64, 100, &k[i]);
		if (lens[i] > 64 && k[i] != P_BAD)
			lens[i] = 64;
		if (k[i] == P_BAD || k[i] == P_RO)
			bad = true;
	}
	v.name = bufs[0];
	v.name_len = lens[0];
	v.date = bufs[1];
	v.date_len = lens[1];
	v.desc = bufs[2];
	v.desc_len = lens[2];
	err = account(OP_VERSION, xioctl(sl->fd, DRM_IOCTL_VERSION, &v), sl->gen,
		      "version");
	if (!err && v.name_len != strlen(MODNAME))
		violation("VERSION: name_len %zu, want %zu", v.name_len, strlen(MODNAME));
	if (err == EFAULT && !bad)
		violation("VERSION: EFAULT with good buffers");
}

static void op_get_cap(struct slot *sl)
{
	static const uint64_t known[] = {
		DRM_CAP_PRIME, DRM_CAP_TIMESTAMP_MONOTONIC, DRM_CAP_SYNCOBJ,
		DRM_CAP_SYNCOBJ_TIMELINE,
	};
	struct drm_get_cap c = { 0 };
	bool is_known = false;
	size_t i;
	int err;

	c.capability = chance(400) ? known[rnd(ARRAY_SIZE(known))] :
		       boundary(chance(700) ? 6 : 64, 0);
	c.value = rnd64();
	for (i = 0; i < ARRAY_SIZE(known); i++)
		is_known |= c.capability == known[i];
	err = account(OP_GET_CAP, xioctl(sl->fd, DRM_IOCTL_GET_CAP, &c), sl->gen,
		      "get_cap");
	if (err == ENODEV)
		return;
	if (is_known != !err)
		violation("GET_CAP %#" PRIx64 ": %s", (uint64_t)c.capability, errname(err));
	if (!err && c.capability == DRM_CAP_TIMESTAMP_MONOTONIC && c.value != 1)
		violation("GET_CAP TIMESTAMP_MONOTONIC: %" PRIu64, (uint64_t)c.value);
}

static void op_set_client_cap(struct slot *sl)
{
	struct drm_set_client_cap c;

	c.capability = boundary(chance(700) ? 4 : 64, 0);
	c.value = boundary(chance(700) ? 2 : 64, 1);
	account(OP_SET_CLIENT_CAP, xioctl(sl->fd, DRM_IOCTL_SET_CLIENT_CAP, &c),
		sl->gen, "set_client_cap");
}

/* Random content without user pointers that could hit our own memory. */
static void fill_small(void *p, size_t n)
{
	unsigned char *b = p;
	size_t i;

	for (i = 0; i < n; i++)
		b[i] = chance(700) ? 0 : rnd(256);
}

static unsigned long random_dir_size(unsigned int nr)
{
	static const unsigned int dirs[] = { _IOC_NONE, _IOC_READ, _IOC_WRITE,
					     _IOC_READ | _IOC_WRITE };
	unsigned int size = chance(500) ? rnd(257) : boundary(8, 0);

	return _IOC(dirs[rnd(4)], DRM_IOCTL_BASE, nr, size);
}

static void op_core_other(struct slot *sl)
{
	static unsigned char buf[512];
	unsigned int nr;
	unsigned long cmd;

	/* not VERSION (user pointers), not ours; 0xa0.. are core again */
	do
		nr = 2 + rnd(DRM_COMMAND_BASE - 2 + 0x60);
	while (nr >= DRM_COMMAND_BASE && nr < DRM_COMMAND_END);
	cmd = random_dir_size(nr);
	fill_small(buf, sizeof(buf));
	/* GET_CAP, GEM_CLOSE, PRIME, SYNCOBJ...: no pointers reach memory */
	account(OP_CORE_OTHER, xioctl(sl->fd, cmd, buf), sl->gen, "core");
}

static void op_drv_other(struct slot *sl)
{
	static unsigned char buf[512];
	/* after ours: GET_INFO ... SESSION_OPEN */
	unsigned int first = DRM_MALI_PERFCNT_SESSION_OPEN + 1;
	unsigned int nr = DRM_COMMAND_BASE + first +
			  rnd(DRM_COMMAND_END - DRM_COMMAND_BASE - first);

	fill_small(buf, sizeof(buf));
	account(OP_DRV_OTHER, xioctl(sl->fd, random_dir_size(nr), buf), sl->gen,
		"driver");
}

/* One of ours with another direction and size; the struct zeroed mostly. */
static void op_mangled(struct slot *sl)
{
	static const unsigned int nrs[] = { DRM_MALI_PERFCNT_GET_INFO,
					    DRM_MALI_PERFCNT_ENABLE,
					    DRM_MALI_PERFCNT_DUMP };
	static unsigned char buf[512];
	unsigned long cmd = random_dir_size(DRM_COMMAND_BASE + nrs[rnd(3)]);

	memset(buf, 0, sizeof(buf));
	if (chance(300))
		fill_small(buf, sizeof(buf));
	/* a buf_ptr here may be written to: make it none or the arena */
	memset(buf, 0, 8);
	if (chance(500))
		memcpy(buf, &arena, sizeof(arena));
	account(OP_MANGLED, xioctl(sl->fd, cmd, buf), sl->gen, "mangled");
}

/* A value for a stream field: 0, the valid @good, a boundary or a random one. */
static uint64_t pick(uint64_t good, uint64_t lo, uint64_t hi)
{
	switch (rnd(6)) {
	case 0:
		return 0;
	case 1:
	case 2:
		return good;
	case 3:
		return lo - 1 + rnd(3);	/* lo - 1, lo, lo + 1 */
	case 4:
		return hi - 1 + rnd(3);
	default:
		return rnd64();
	}
}

/*
 * STREAM_OPEN with boundary values per field; a stream that opens is used
 * (SAMPLE, a non-blocking read of its records) and closed at once, so the
 * counters are free again for the other calls.
 */
static void op_stream(struct slot *sl)
{
	struct drm_mali_perfcnt_stream_open o = { 0 };
	static char rec[64 << 10];
	int err;

	o.ring_records = (uint32_t)pick(4, 2, MALI_PERFCNT_STREAM_MAX_RECORDS);
	o.period_ns = chance(500) ? 0 : pick(MALI_PERFCNT_STREAM_MIN_PERIOD_UNPRIV_NS,
					     MALI_PERFCNT_STREAM_MIN_PERIOD_NS,
					     MALI_PERFCNT_STREAM_MAX_PERIOD_NS);
	o.flags = chance(700) ? MALI_PERFCNT_STREAM_F_NONBLOCK | MALI_PERFCNT_STREAM_F_CLOEXEC :
		  (uint32_t)pick(MALI_PERFCNT_STREAM_F_MASKS | MALI_PERFCNT_STREAM_F_NONBLOCK, 1, 16);
	o.flags |= MALI_PERFCNT_STREAM_F_NONBLOCK;	/* never block the fuzzer */
	if (o.flags & MALI_PERFCNT_STREAM_F_MASKS) {
		o.jm_mask = (uint32_t)pick(0xffff, 1, 0x10000);
		o.shader_mask = (uint32_t)pick(0xffff, 1, 0x10000);
	}
	o.counter_set = chance(900) ? 0 : (uint32_t)pick(1, 1, 2);
	if (chance(50))
		o.pad = (uint32_t)rnd64();
	if (chance(50))
		o.reserved[rnd(2)] = rnd64() | 1;
	if (chance(30))
		o.fd = (int32_t)rnd64() | 1;
	err = xioctl(sl->fd, DRM_IOCTL_MALI_PERFCNT_STREAM_OPEN, &o);
	if (!err) {
		if (o.fd < 0 || o.record_size < sizeof(struct drm_mali_perfcnt_record))
			violation("STREAM_OPEN: fd %d, record_size %u", o.fd, o.record_size);
		if (ioctl(o.fd, MALI_PERFCNT_STREAM_IOCTL_SAMPLE, 0) && errno != ENODATA &&
		    errno != ETIMEDOUT && errno != EIO && errno != ENXIO)
			err = errno;
		if (!err && read(o.fd, rec, chance(100) ? 1 : sizeof(rec)) < 0 &&
		    errno != EAGAIN && errno != ENOSPC)
			err = errno;
		close(o.fd);
	}
	account(OP_STREAM, err, sl->gen, "stream");
}

/* ---- revision 3: GET_INFO_V3 and sessions ------------------------------ */

static void op_get_info_v3(struct slot *sl)
{
	const struct ustruct *u = &ustructs[U_GET_INFO_V3];
	struct drm_mali_perfcnt_get_info_v3 in, out;
	const uint32_t full = sh->info3.nr_block_types;
	uint32_t want;
	enum ptr_kind tk = P_GOOD;
	const char *bad;
	char *p, *types = NULL;
	int err;

	memset(&in, 0, sizeof(in));
	if (chance(700)) {
		/* not in the arena: the argument itself is copied back there */
		static struct drm_mali_perfcnt_block_type_info tbuf[MALI_PERFCNT_MAX_BLOCK_TYPES];

		in.nr_block_types = chance(700) ? full : rnd(MALI_PERFCNT_MAX_BLOCK_TYPES + 2);
		if (chance(100)) {
			types = fault_ptr(true);
			tk = P_BAD;
		} else {
			types = (char *)tbuf;
		}
		in.block_types_ptr = (uintptr_t)types;
	}
	mutate(&in, u, 100);
	bad = generic_bad(&in, u);
	err = call_placed(sl, OP_GET_INFO_V3, DRM_IOCTL_MALI_PERFCNT_GET_INFO_V3, &in, sizeof(in),
			  &p);
	if (err < 0)
		return;
	if (bad && !err)
		violation("GET_INFO_V3 with non-zero %s succeeded", bad);
	if (!bad && err == EINVAL)
		violation("GET_INFO_V3: EINVAL with every must-be-zero field zero");
	/* the array is written only when a pointer and a count were given */
	want = in.nr_block_types < full ? in.nr_block_types : full;
	if (!bad && in.block_types_ptr == (uintptr_t)types && types && want &&
	    (tk == P_BAD) != (err == EFAULT))
		violation("GET_INFO_V3: %s for %s array of %u entries", errname(err),
			  tk == P_BAD ? "an unwritable" : "a writable", want);
	if (bad || err)
		return;
	memcpy(&out, p, sizeof(out));
	if (out.nr_block_types != full || out.sample_size != sample_size ||
	    out.gpu_id != sh->info3.gpu_id || out.max_sessions != sh->info3.max_sessions ||
	    out.nr_counter_sets != sh->info3.nr_counter_sets ||
	    out.shader_present != sh->info3.shader_present ||
	    strnlen(out.product, sizeof(out.product)) == sizeof(out.product) ||
	    strcmp(out.product, sh->info3.product))
		violation("GET_INFO_V3: the result differs from the first one");
	else if (in.block_types_ptr == (uintptr_t)types && types && want &&
		 memcmp(types, sh->types, want * sizeof(sh->types[0])))
		violation("GET_INFO_V3: the block type entries differ from the first ones");
}

/* A SESSION_OPEN extension chain and what the uAPI says of it. */
struct chain {
	struct drm_mali_perfcnt_ext_set_property ext[MALI_PERFCNT_MAX_EXTENSIONS + 2];
	const char *einval;	/* why it is -EINVAL, or NULL */
	bool efault;		/* a link cannot be read */
	bool unsure;		/* a period whose limit is the host's sysctl */
	bool has_user_data;
	uint64_t user_data;
	bool has_period;	/* a PERIOD_NS other than 0 */
	bool has_ring_size;	/* RING_SAMPLES given: with a period, a ring */
};

/* The first link's address, or 0; the links are in @c. */
static uint64_t make_chain(struct chain *c)
{
	unsigned int n, i, given = 0;

	memset(c, 0, sizeof(*c));
	switch (rnd(10)) {
	case 0:
		return 0;
	case 1:
		n = MALI_PERFCNT_MAX_EXTENSIONS + 1;
		break;
	default:
		n = 1 + rnd(6);
		break;
	}
	for (i = 0; i < n; i++) {
		struct drm_mali_perfcnt_ext_set_property *e = &c->ext[i];
		uint32_t prop = chance(900) ? 1 + rnd(MALI_PERFCNT_PROP_RING_SAMPLES) :
				(uint32_t)boundary(32, 0);

		e->base.next_extension = i + 1 < n ? (uintptr_t)&c->ext[i + 1] : 0;
		e->base.name = chance(970) ? MALI_PERFCNT_EXT_SET_PROPERTY :
			       (uint32_t)boundary(32, 1);
		e->base.pad = chance(980) ? 0 : (uint32_t)rnd64() | 1;
		e->property = prop;
		switch (prop) {
		case MALI_PERFCNT_PROP_JM_MASK ... MALI_PERFCNT_PROP_MMU_L2_MASK:
			e->value = chance(900) ? rnd(0x10000) : boundary(64, 0xffff);
			break;
		case MALI_PERFCNT_PROP_PERIOD_NS:
			e->value = chance(300) ? 0 :
				   pick(MALI_PERFCNT_STREAM_MIN_PERIOD_UNPRIV_NS,
					MALI_PERFCNT_STREAM_MIN_PERIOD_NS,
					MALI_PERFCNT_SESSION_WATCHDOG_NS);
			break;
		case MALI_PERFCNT_PROP_RING_SAMPLES:
			e->value = chance(800) ? 2 + rnd(15) :
				   boundary(64, MALI_PERFCNT_SESSION_MAX_RING_SAMPLES);
			break;
		default:
			e->value = rnd64();
			break;
		}
		/*
		 * The kernel stops at the first bad link: judge them in order.
		 * A link sets one of seven properties, once, so no chain gets
		 * to the -E2BIG limit: an eighth link is -EINVAL first.
		 */
		if (c->einval)
			continue;
		if (e->base.name != MALI_PERFCNT_EXT_SET_PROPERTY)
			c->einval = "unknown extension";
		else if (e->base.pad)
			c->einval = "extension pad";
		else if (prop < MALI_PERFCNT_PROP_JM_MASK || prop > MALI_PERFCNT_PROP_RING_SAMPLES)
			c->einval = "unknown property";
		else if (given & BIT(prop))
			c->einval = "property set twice";
		else if (prop <= MALI_PERFCNT_PROP_MMU_L2_MASK && e->value > 0xffff)
			c->einval = "mask above bit 15";
		else if (prop == MALI_PERFCNT_PROP_PERIOD_NS && e->value &&
			 (e->value < MALI_PERFCNT_STREAM_MIN_PERIOD_NS ||
			  e->value > MALI_PERFCNT_SESSION_WATCHDOG_NS))
			c->einval = "period out of range";
		else if (prop == MALI_PERFCNT_PROP_RING_SAMPLES &&
			 (e->value < 2 || e->value > MALI_PERFCNT_SESSION_MAX_RING_SAMPLES))
			c->einval = "ring size out of range";
		else if (prop == MALI_PERFCNT_PROP_PERIOD_NS && e->value && unprivileged)
			c->unsure = true;
		given |= BIT(prop);
		if (prop == MALI_PERFCNT_PROP_PERIOD_NS && e->value)
			c->has_period = true;
		if (prop == MALI_PERFCNT_PROP_RING_SAMPLES)
			c->has_ring_size = true;
		if (prop == MALI_PERFCNT_PROP_USER_DATA) {
			c->has_user_data = true;
			c->user_data = e->value;
		}
	}
	if (chance(20)) {
		/* a loop: the first link again sets its property twice */
		c->ext[n - 1].base.next_extension = (uintptr_t)&c->ext[0];
		if (!c->einval)
			c->einval = "a loop";
	} else if (chance(20) && !c->einval) {
		c->ext[rnd(n)].base.next_extension = (uintptr_t)fault_ptr(false);
		c->efault = true;
	}
	/* checked once the whole chain is read */
	if (!c->einval && !c->efault && c->has_ring_size && !c->has_period)
		c->einval = "RING_SAMPLES without PERIOD_NS";
	return (uintptr_t)&c->ext[0];
}

/*
 * poll() and a non-blocking read() of a session fd into a buffer of a
 * random size (sometimes a bad pointer): a session has a ring exactly
 * when it was opened with a period and RING_SAMPLES (@c, NULL when
 * unknown), read()
 * returns whole samples whose headers are sane, never a part of one.
 */
static void read_session(int sfd, const struct chain *c, uint32_t gen)
{
	struct pollfd pf = { .fd = sfd, .events = POLLIN };
	size_t len = chance(700) ? sample_size * (1 + rnd(3)) :
		     (size_t)boundary(32, sample_size);
	bool ring = c && c->has_period && c->has_ring_size;
	enum ptr_kind bk;
	char *buf;
	ssize_t n;
	int err, pr;

	if (len > 3 * (size_t)sample_size)
		len = 3 * (size_t)sample_size;
	pr = poll(&pf, 1, 0);
	if (pr < 0)
		violation("session poll: %s", errname(errno));
	else if (c && !ring && pf.revents != POLLERR)
		violation("session poll without a ring: revents %#x, want POLLERR", pf.revents);
	buf = pick_ptr(len, 100, &bk);
	n = read(sfd, buf, len);
	err = account(OP_SESSION, n < 0 ? errno : 0, gen, "read");
	if (err == ENODEV)
		return;
	/*
	 * Nothing to copy is 0, but the VFS's access_ok() comes first: an
	 * address no user mapping can have (at or above 2^47) is EFAULT even
	 * for 0 bytes. Below that, access_ok() passes on every kernel here.
	 */
	if (!len && (err || n) &&
	    !(err == EFAULT && bk == P_BAD && (uintptr_t)buf >= (1ULL << 47)))
		violation("session read of 0 bytes at %p: %s, %zd, want 0",
			  (void *)buf, errname(err), n);
	/* the VFS checks the range first: a bad pointer is EFAULT before us */
	if (len && c && !ring && err != EINVAL && !(err == EFAULT && bk == P_BAD))
		violation("session read without a ring: %s, want EINVAL", errname(err));
	if (ring && err == EINVAL)
		violation("session read of a ring session: EINVAL");
	if (!err && len && len < sample_size)
		violation("session read of %zu bytes succeeded, a sample is %u", len, sample_size);
	if (err == ENOSPC && len >= sample_size)
		violation("session read: ENOSPC for %zu bytes, a sample is %u", len, sample_size);
	if (err == EFAULT && bk != P_BAD && bk != P_RO)
		violation("session read: EFAULT for a writable buffer");
	if (err || !n)
		return;
	if (n % sample_size || (size_t)n > len)
		violation("session read returned %zd bytes, not whole %u-byte samples of %zu",
			  n, sample_size, len);
	for (ssize_t off = 0; off + (ssize_t)sample_size <= n; off += sample_size) {
		struct drm_mali_perfcnt_sample_header hdr;

		memcpy(&hdr, buf + off, sizeof(hdr));
		if (hdr.size != sample_size || hdr.clock_id != MALI_PERFCNT_CLOCK_MONOTONIC_RAW ||
		    hdr.end_ns < hdr.start_ns || !hdr.seqno || hdr.reserved ||
		    (!(hdr.flags & MALI_PERFCNT_DATA_OVERFLOW) != !hdr.lost) ||
		    (c && hdr.user_data != (c->has_user_data ? c->user_data : 0)))
			violation("session read: header size %u clock %u interval %" PRIu64 "..%" PRIu64 " seqno %" PRIu64 " flags %#x lost %u",
				  hdr.size, hdr.clock_id, (uint64_t)hdr.start_ns,
				  (uint64_t)hdr.end_ns, (uint64_t)hdr.seqno, hdr.flags, hdr.lost);
	}
}

/*
 * A session's life: START, STOP, SAMPLE (mostly valid arguments), read()
 * and poll() (read_session()) and an unknown ioctl in random order, each against what the uAPI says of it
 * in the state the session is in, then close. @c: the chain it was opened
 * with (its user data), NULL when unknown (a mutated pointer).
 */
static void use_session(int sfd, bool running, const struct chain *c, uint32_t gen)
{
	const struct ustruct *u = &ustructs[U_SESSION_SAMPLE];
	unsigned int i, n = 1 + rnd(6);
	uint64_t last = 0;
	bool drained = false;
	/*
	 * After a SAMPLE's -ENXIO or -ETIMEDOUT the GPU was recovered, but
	 * another process's sample may meanwhile have failed to recover it;
	 * after -EIO the counters were lost and the session is stopped:
	 * unknown until START or STOP says.
	 */
	bool known = true;

	for (i = 0; i < n; i++) {
		struct drm_mali_perfcnt_session_sample smp, out;
		struct drm_mali_perfcnt_sample_header hdr;
		enum ptr_kind bk;
		const char *bad;
		char *buf;
		int err;

		switch (rnd(9)) {
		case 8:
			read_session(sfd, c, gen);
			continue;
		case 0:
		case 1:
			err = account(OP_SESSION, xioctl(sfd, MALI_PERFCNT_SESSION_IOCTL_START,
							 NULL), gen, "START");
			if (known && running && err != EALREADY && err != ENODEV)
				violation("session START when started: %s, want EALREADY",
					  errname(err));
			if (known && !running && err == EALREADY)
				violation("session START when stopped: EALREADY");
			if (!err || err == EALREADY) {
				if (!err)
					drained = false;
				running = true;
				known = true;
			}
			continue;
		case 2:
			err = account(OP_SESSION, xioctl(sfd, MALI_PERFCNT_SESSION_IOCTL_STOP,
							 NULL), gen, "STOP");
			if (known && !running && err != EALREADY && err != ENODEV)
				violation("session STOP when stopped: %s, want EALREADY",
					  errname(err));
			if (known && running && err && err != ENODEV)
				violation("session STOP when started: %s", errname(err));
			if (!err || err == EALREADY) {
				running = false;
				known = true;
			}
			continue;
		case 3:
			err = account(OP_SESSION,
				      xioctl(sfd, _IO(MALI_PERFCNT_SESSION_IOCTL_TYPE, 0x03 + rnd(16)),
					     NULL), gen, "unknown");
			if (err != ENOTTY && err != ENODEV)
				violation("an unknown session ioctl: %s, want ENOTTY",
					  errname(err));
			continue;
		default:
			break;
		}
		memset(&smp, 0, sizeof(smp));
		buf = pick_ptr(sample_size, 100, &bk);
		smp.buf_ptr = (uintptr_t)buf;
		smp.buf_size = chance(900) ? sample_size : boundary(32, sample_size);
		mutate(&smp, u, 80);
		bad = generic_bad(&smp, u);
		if (!bad && smp.buf_size < sample_size)
			bad = "buf_size too small";
		cur_arg = &smp;
		cur_len = sizeof(smp);
		out = smp;
		err = account(OP_SESSION, xioctl(sfd, MALI_PERFCNT_SESSION_IOCTL_SAMPLE, &out),
			      gen, "SAMPLE");
		cur_len = 0;
		if (err == ENODEV)
			return;
		if (bad && !err)
			violation("session SAMPLE succeeded although %s", bad);
		if (err == EINVAL && !generic_bad(&smp, u))
			violation("session SAMPLE: EINVAL with flags and pad zero");
		if (err == ENOSPC && (out.buf_size != sample_size || smp.buf_size >= sample_size))
			violation("session SAMPLE: ENOSPC for %u bytes, wrote back %u (want %u)",
				  smp.buf_size, out.buf_size, sample_size);
		if (!bad && smp.buf_ptr == (uintptr_t)buf && bk != P_BAD && bk != P_RO &&
		    err == EFAULT)
			violation("session SAMPLE: EFAULT for a writable buffer");
		if (!bad && known && running && err == ENODATA)
			violation("session SAMPLE: ENODATA while started");
		if (!bad && known && !running && drained && !err)
			violation("session SAMPLE: a second sample after STOP");
		if (err == EIO || err == ENXIO || err == ETIMEDOUT)
			known = false;
		if (err || smp.buf_ptr != (uintptr_t)buf)
			continue;
		if (!running)
			drained = true;
		/* a read() in between took samples: the seqno still grows */
		memcpy(&hdr, buf, sizeof(hdr));
		if (hdr.clock_id != MALI_PERFCNT_CLOCK_MONOTONIC_RAW || hdr.size > sample_size ||
		    hdr.size < sizeof(hdr) || !hdr.nr_blocks || hdr.end_ns < hdr.start_ns ||
		    hdr.seqno <= last || hdr.reserved ||
		    (!(hdr.flags & MALI_PERFCNT_DATA_OVERFLOW) && hdr.lost) ||
		    (c && hdr.user_data != (c->has_user_data ? c->user_data : 0)))
			violation("session SAMPLE: header clock %u size %u of %u blocks %u interval %" PRIu64 "..%" PRIu64 " seqno %" PRIu64 " after %" PRIu64 " user_data %#" PRIx64 " (want %#" PRIx64 ") reserved %#" PRIx64,
				  hdr.clock_id, hdr.size, sample_size, hdr.nr_blocks,
				  (uint64_t)hdr.start_ns, (uint64_t)hdr.end_ns, (uint64_t)hdr.seqno,
				  last, (uint64_t)hdr.user_data,
				  c && c->has_user_data ? c->user_data : 0, (uint64_t)hdr.reserved);
		last = hdr.seqno;
	}
}

/*
 * SESSION_OPEN with a random extension chain, flags and counter set; a
 * session that opens is used (use_session()) and closed, so that the
 * counters are free again for the other calls.
 */
static void op_session(struct slot *sl)
{
	const struct ustruct *u = &ustructs[U_SESSION_OPEN];
	struct drm_mali_perfcnt_session_open o;
	static struct chain c, none;
	const char *bad;
	int sfd, err;

	memset(&o, 0, sizeof(o));
	o.extensions = make_chain(&c);
	o.flags = MALI_PERFCNT_SESSION_F_CLOEXEC | (chance(400) ? MALI_PERFCNT_SESSION_F_START : 0);
	o.counter_set = chance(800) ? 0 : rnd(sh->info3.nr_counter_sets + 1);
	mutate(&o, u, 850);
	bad = generic_bad(&o, u);
	if (!bad && o.counter_set >= sh->info3.nr_counter_sets)
		bad = "counter_set out of range";
	cur_arg = &o;
	cur_len = sizeof(o);
	sfd = ioctl(sl->fd, DRM_IOCTL_MALI_PERFCNT_SESSION_OPEN, &o);
	err = account(OP_SESSION, sfd < 0 ? errno : 0, sl->gen, "SESSION_OPEN");
	if (err == ENODEV)
		return;
	/* unsure: an earlier link may be -EINVAL by the host's limit */
	if (o.extensions == (uintptr_t)&c.ext[0] && !bad) {
		if (c.einval)
			bad = c.einval;
		else if (c.efault && err != EFAULT && !(c.unsure && err == EINVAL))
			violation("SESSION_OPEN: %s for an unreadable link, want EFAULT",
				  errname(err));
		else if (!c.efault && !c.unsure && err == EINVAL)
			violation("SESSION_OPEN: EINVAL for a valid chain and fields");
	}
	if (bad && !err)
		violation("SESSION_OPEN succeeded although %s", bad);
	if (err == E2BIG)
		violation("SESSION_OPEN: E2BIG, but no chain can reach %u links",
			  MALI_PERFCNT_MAX_EXTENSIONS);
	cur_len = 0;
	if (err)
		return;
	if (sfd <= 2)
		violation("SESSION_OPEN returned fd %d", sfd);
	else if (fcntl(sfd, F_SETFL, O_NONBLOCK))
		violation("session fd: F_SETFL O_NONBLOCK: %s", errname(errno));
	else
		use_session(sfd, o.flags & MALI_PERFCNT_SESSION_F_START,
			    o.extensions == (uintptr_t)&c.ext[0] ? &c : o.extensions ? NULL : &none,
			    sl->gen);
	close(sfd);
}

/* ---- debugfs ----------------------------------------------------------- */

/*
 * Write @len bytes of @text (or from @ptr when not NULL) to debugfs file
 * @file in one open/write/close; the write's errno, or 0.
 */
static int dbg_write(enum op op, const char *file, const char *text, size_t len,
		     const void *ptr)
{
	char path[PATH_MAX + 32];
	uint32_t gen;
	ssize_t n;
	int fd, err;

	if ((dbg_gen & 1 || gone_since(dbg_gen)) && !find_debugfs())
		return -1;
	gen = dbg_gen;
	snprintf(path, sizeof(path), "%s/%s", dbg_dir, file);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0) {
		account(op, errno, gen, path);
		if (errno == ENOENT)
			dbg_gen = 1;
		return errno;
	}
	n = write(fd, ptr ? ptr : text, len);
	err = n < 0 ? errno : 0;
	if (n >= 0 && (size_t)n != len)
		violation("%s: wrote %zd of %zu bytes", file, n, len);
	account(op, err, gen, text);
	close(fd);
	return err;
}

/* The driver's last rejections in the kernel log (drm.debug was on). */
static void show_reasons(void)
{
	static char buf[1 << 16];
	char *line, *save = NULL, *last[3] = { 0 };
	int len = klogctl(3 /* SYSLOG_ACTION_READ_ALL */, buf, sizeof(buf) - 1);
	unsigned int i;

	if (len <= 0)
		return;
	buf[len] = '\0';
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		if (strstr(line, "rejected")) {
			last[0] = last[1];
			last[1] = last[2];
			last[2] = line;
		}
	for (i = 0; i < 3; i++)
		if (last[i])
			diag("  kernel: %s", last[i]);
}

static size_t enable_text(char *t, size_t size)
{
	static const char * const keys[] = { "set", "jm", "tiler", "shader", "l2",
					     "bogus", "" };
	static const char * const seps[] = { " ", "\t", "  ", "\n", ",", "" };
	size_t at = 0;
	unsigned int i, n;

	t[0] = '\0';
	switch (rnd(8)) {
	case 0: return snprintf(t, size, "1\n");
	case 1: return snprintf(t, size, "0\n");
	case 2: return snprintf(t, size, "%s", chance(500) ? "1" : "0");
	case 3: /* too long: 128 bytes or more */
		n = 128 + rnd(size - 129);
		memset(t, chance(500) ? ' ' : '1', n);
		t[n] = '\0';
		return n;
	default:
		break;
	}
	n = rnd(6);
	for (i = 0; i < n && at < size - 48; i++) {
		const char *k = keys[rnd(ARRAY_SIZE(keys))];
		uint64_t v = boundary(chance(500) ? 17 : 64, 0xffff);

		switch (rnd(4)) {
		case 0:
			at += snprintf(t + at, size - at, "%s=%" PRIu64, k, v);
			break;
		case 1:
			at += snprintf(t + at, size - at, "%s=0x%" PRIx64, k, v);
			break;
		case 2:
			at += snprintf(t + at, size - at, "%s=%s", k,
				       chance(500) ? "" : "-1");
			break;
		default:
			at += snprintf(t + at, size - at, "%s", k);
			break;
		}
		at += snprintf(t + at, size - at, "%s", seps[rnd(ARRAY_SIZE(seps))]);
	}
	return at;
}

static void op_dbg_enable(void)
{
	char t[512];
	size_t len = enable_text(t, sizeof(t));
	bool plain = !strcmp(t, "1\n") || !strcmp(t, "0\n") || !strcmp(t, "1") ||
		     !strcmp(t, "0");
	enum ptr_kind k = P_GOOD;
	char *p = NULL;
	int err;

	if (chance(30))
		p = pick_ptr(len, 1000, &k);
	err = dbg_write(OP_DBG_ENABLE, "perfcnt_enable", t, len, p);
	if (err < 0)
		return;
	if (p && len && len < 128 && !err)
		violation("perfcnt_enable: a write from bad pointer %p succeeded", p);
	if (!p && len >= 128 && err != EINVAL && err != EIO && err != ENXIO)
		violation("perfcnt_enable: %zu bytes gave %s, want EINVAL", len,
			  errname(err));
	if (!p && plain && err == EINVAL) {
		violation("perfcnt_enable: \"%s\" gave EINVAL", t);
		/* once more with the driver's reasons in the kernel log */
		if (__atomic_fetch_add(&sh->explained, 1, __ATOMIC_RELAXED) < 2 &&
		    !mpc_write_file("/sys/module/drm/parameters/debug", "0x2")) {
			dbg_write(OP_DBG_ENABLE, "perfcnt_enable", t, len, NULL);
			mpc_write_file("/sys/module/drm/parameters/debug", "0");
			show_reasons();
		}
	}
	if (!p && plain && unprivileged && t[0] == '1' && !err)
		violation("perfcnt_enable: enabled without CAP_PERFMON");
}

static void op_dbg_va(void)
{
	static const uint64_t vas[] = { 0, 0x1000, 0x1001, 0x100000000ULL,
					BIT(48) - 0x1000, BIT(48), ~0ULL, 0x800 };
	char t[64];
	uint64_t va;
	bool unaligned, high;
	int err;

	if (chance(200)) {
		snprintf(t, sizeof(t), "%s", chance(900) ? "unmap" : "unmapx");
		dbg_write(OP_DBG_VA, "perfcnt_va", t, strlen(t), NULL);
		return;
	}
	va = chance(500) ? vas[rnd(ARRAY_SIZE(vas))] : boundary(64, 0x1000);
	if (chance(300))
		va &= ~0xfffULL & (BIT(40) - 1);
	unaligned = va & 0xfff;
	high = va + dump_size > BIT(48) || va + dump_size < va;
	snprintf(t, sizeof(t), chance(500) ? "0x%" PRIx64 "\n" : "%" PRIu64, va);
	err = dbg_write(OP_DBG_VA, "perfcnt_va", t, strlen(t), NULL);
	if (err < 0)
		return;
	if ((unaligned || high) && !err)
		violation("perfcnt_va: %s accepted (unaligned or above 2^48)", t);
}

static void op_dbg_sim(void)
{
	char t[64];
	const char *file = "sim_workload";
	uint32_t left;

	if (chance(500)) {
		unsigned int n = chance(800) ? rnd(101) : boundary(32, 100);

		if (chance(200))
			snprintf(t, sizeof(t), "idle");
		else
			snprintf(t, sizeof(t), "busy=%u", n);
		if (dbg_write(OP_DBG_SIM, file, t, strlen(t), NULL) == 0 && n > 100 &&
		    strcmp(t, "idle"))
			violation("sim_workload: %s accepted", t);
		return;
	}
	file = "sim_fault";
	switch (rnd(6)) {
	case 0:
		snprintf(t, sizeof(t), "delay=%u", rnd(5));
		break;
	case 1:
		snprintf(t, sizeof(t), "delay=%u", chance(500) ? 5001 : (unsigned int)(boundary(32, 5000) | 5001));
		if (dbg_write(OP_DBG_SIM, file, t, strlen(t), NULL) == 0)
			violation("sim_fault: %s accepted (0..5000)", t);
		return;
	case 2:
		snprintf(t, sizeof(t), "gpu_fault");
		break;
	case 3:
		/* a second or more each: a few per run */
		left = __atomic_load_n(&sh->slow_faults, __ATOMIC_RELAXED);
		if (left && __atomic_compare_exchange_n(&sh->slow_faults, &left, left - 1,
							false, __ATOMIC_RELAXED,
							__ATOMIC_RELAXED))
			snprintf(t, sizeof(t), chance(500) ? "drop_irq" : "stuck_clean");
		else
			snprintf(t, sizeof(t), "none");
		break;
	case 4:
		snprintf(t, sizeof(t), "none");
		break;
	default:
		snprintf(t, sizeof(t), "%s", chance(500) ? "drop" : "delay=");
		if (dbg_write(OP_DBG_SIM, file, t, strlen(t), NULL) == 0)
			violation("sim_fault: %s accepted", t);
		return;
	}
	dbg_write(OP_DBG_SIM, file, t, strlen(t), NULL);
}

static void op_dbg_read(void)
{
	static const char * const files[] = {
		"gpu_info", "perfcnt_stats", "perfcnt_enable", "perfcnt_va",
		"perfcnt_dump", "perfcnt_counters", "sim_workload", "sim_fault",
		"sim_reports",
	};
	char path[PATH_MAX + 32], buf[256];
	uint32_t gen;
	ssize_t n;
	int fd;

	if ((dbg_gen & 1 || gone_since(dbg_gen)) && !find_debugfs())
		return;
	gen = dbg_gen;
	snprintf(path, sizeof(path), "%s/%s", dbg_dir, files[rnd(ARRAY_SIZE(files))]);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		account(OP_DBG_READ, errno, gen, path);
		return;
	}
	n = read(fd, chance(50) ? (void *)guard : buf, 1 + rnd(sizeof(buf)));
	if (n < 0 && errno == EFAULT)
		account(OP_DBG_READ, 0, gen, path);	/* the guard page */
	else
		account(OP_DBG_READ, n < 0 ? errno : 0, gen, path);
	close(fd);
}

/* ---- processes --------------------------------------------------------- */

static pid_t children[MAX_CHILDREN];

static void reap(bool wait_all)
{
	int i, st;

	for (i = 0; i < MAX_CHILDREN; i++) {
		if (!children[i])
			continue;
		if (waitpid(children[i], &st, wait_all ? 0 : WNOHANG) <= 0)
			continue;
		if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
			violation("forked child %d ended with status %#x", children[i], st);
		children[i] = 0;
	}
}

static void run(uint64_t iterations);

static void op_fork(void)
{
	uint64_t seed = rnd64();
	int i;
	pid_t pid;

	uint32_t left = __atomic_load_n(&sh->forks, __ATOMIC_RELAXED);

	for (i = 0; i < MAX_CHILDREN && children[i]; i++)
		;
	/* fork() is slow on the debug kernel: a few per run */
	if (i == MAX_CHILDREN || !left ||
	    !__atomic_compare_exchange_n(&sh->forks, &left, left - 1, false,
					 __ATOMIC_RELAXED, __ATOMIC_RELAXED))
		return;
	pid = fork();
	if (pid < 0) {
		account(OP_FORK, errno, 0, "fork");
		return;
	}
	if (!pid) {
		/* the child: the inherited descriptors, a short run */
		memset(children, 0, sizeof(children));
		rng = seed;
		worker_id = __atomic_add_fetch(&sh->procs, 1, __ATOMIC_RELAXED);
		run(200 + rnd(2000));
		_exit(0);
	}
	account(OP_FORK, 0, 0, "fork");
	children[i] = pid;
}

/*
 * Weights, per 1000 calls. On the debug kernel under TCG a call the uAPI
 * checks rejects costs 10-30 us, an argument the DRM core must allocate
 * for (over 128 bytes: GET_INFO, some mangled sizes) about 250 us, a
 * successful ENABLE or DUMP, an open of the render node and a debugfs
 * open+write+close a millisecond or more:
 * most calls are rejected ones, so that a million fit in about two minutes.
 */
static const struct { enum op op; unsigned int w; } weights[] = {
	{ OP_GET_INFO, 60 }, { OP_ENABLE, 245 }, { OP_DUMP, 280 },
	{ OP_VERSION, 40 }, { OP_GET_CAP, 75 }, { OP_SET_CLIENT_CAP, 15 },
	{ OP_CORE_OTHER, 62 }, { OP_DRV_OTHER, 70 }, { OP_MANGLED, 60 },
	{ OP_STREAM, 30 }, { OP_GET_INFO_V3, 15 }, { OP_SESSION, 20 },
	{ OP_OPEN, 6 }, { OP_CLOSE, 5 }, { OP_DUP, 4 }, { OP_FORK, 1 },
	{ OP_DBG_ENABLE, 5 }, { OP_DBG_VA, 2 }, { OP_DBG_SIM, 2 },
	{ OP_DBG_READ, 3 },
};

static void run(uint64_t iterations)
{
	uint64_t it;

	for (it = 0; it < iterations && budget_left(); it++) {
		unsigned int r = rnd(1000), i;
		struct slot *sl;
		enum op op = OP_GET_INFO;

		for (i = 0; i < ARRAY_SIZE(weights); i++) {
			if (r < weights[i].w) {
				op = weights[i].op;
				break;
			}
			r -= weights[i].w;
		}
		if (bench_op >= 0)
			op = bench_op;
		if (it % 64 == 0)
			reap(false);
		cur_len = 0;
		switch (op) {
		case OP_OPEN: op_open(); continue;
		case OP_CLOSE: op_close(); continue;
		case OP_DUP: op_dup(); continue;
		case OP_FORK: op_fork(); continue;
		case OP_DBG_ENABLE: op_dbg_enable(); continue;
		case OP_DBG_VA: op_dbg_va(); continue;
		case OP_DBG_SIM: op_dbg_sim(); continue;
		case OP_DBG_READ: op_dbg_read(); continue;
		default: break;
		}
		sl = any_slot();
		if (!sl) {
			op_open();
			continue;
		}
		switch (op) {
		case OP_GET_INFO: op_get_info(sl); break;
		case OP_ENABLE: op_enable(sl); break;
		case OP_DUMP: op_dump(sl); break;
		case OP_VERSION: op_version(sl); break;
		case OP_GET_CAP: op_get_cap(sl); break;
		case OP_SET_CLIENT_CAP: op_set_client_cap(sl); break;
		case OP_CORE_OTHER: op_core_other(sl); break;
		case OP_DRV_OTHER: op_drv_other(sl); break;
		case OP_MANGLED: op_mangled(sl); break;
		case OP_STREAM: op_stream(sl); break;
		case OP_GET_INFO_V3: op_get_info_v3(sl); break;
		case OP_SESSION: op_session(sl); break;
		default: break;
		}
	}
	reap(true);
}

/*
 * -r: the race of open() against bind. The workers open and close every
 * file of the device's debugfs directory as fast as they can while main
 * unbinds and binds the device with no pause: each bind creates the files
 * again, and an open that finds a file must find it complete. (On 6.1,
 * drm_debugfs_create_files() made the DRM core's files visible before
 * their node was filled in: scripts/debug-kernel/patches/0004-*.)
 */
#define MAX_RACE_FILES	32
static char race_files[MAX_RACE_FILES][64];
static unsigned int nr_race_files;

/* The regular files of dbg_dir, into race_files. */
static bool race_list_files(void)
{
	struct dirent *de;
	DIR *d = opendir(dbg_dir);

	if (!d)
		return false;
	while (nr_race_files < MAX_RACE_FILES && (de = readdir(d))) {
		if (de->d_type != DT_REG || strlen(de->d_name) >= sizeof(race_files[0]))
			continue;
		strcpy(race_files[nr_race_files++], de->d_name);
	}
	closedir(d);
	return nr_race_files > 0;
}

/*
 * The directory of each bind (the DRM minor, and with it dri/N, may change):
 * taken from race_dir once per bind, when gen is even and stays so across
 * the copy; while the device is away the last one (its files are gone:
 * ENOENT).
 */
static void race_opens(void)
{
	char path[PATH_MAX + 80], dir[PATH_MAX];
	uint32_t dir_gen = gen_now();
	unsigned int i;

	strcpy(dir, dbg_dir);
	while (!__atomic_load_n(&sh->race_done, __ATOMIC_ACQUIRE)) {
		for (i = 0; i < nr_race_files; i++) {
			uint32_t gen = gen_now();
			int fd;

			if (gen != dir_gen && !(gen & 1)) {
				char now[PATH_MAX];

				memcpy(now, sh->race_dir, sizeof(now));
				now[sizeof(now) - 1] = '\0';
				if (gen_now() == gen && now[0]) {
					strcpy(dir, now);
					dir_gen = gen;
				}
			}
			snprintf(path, sizeof(path), "%s/%s", dir, race_files[i]);
			fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
			account(OP_DBG_OPEN, fd < 0 ? errno : 0, gen, race_files[i]);
			if (fd >= 0)
				close(fd);
		}
	}
}

static pid_t start_worker(int id, uint64_t seed, bool nocaps)
{
	pid_t pid = fork();
	int i;

	if (pid)
		return pid;
	rng = seed ^ (0x9e3779b97f4a7c15ULL * (id + 1));
	for (i = 0; i < MAX_SLOTS; i++)
		slots[i].fd = -1;
	if (nocaps) {
		if (mpc_drop_caps())
			violation("capset: %s", strerror(errno));
		unprivileged = true;
	}
	worker_id = __atomic_add_fetch(&sh->procs, 1, __ATOMIC_RELAXED);
	if (nr_race_files)
		race_opens();
	else
		run(UINT64_MAX);
	_exit(0);
}

/* ---- main: the device, unbind/bind, the verdict ------------------------ */

/* Unbind, wait @pause_ms, bind. */
static void unbind_bind(unsigned int pause_ms)
{
	int err;

	__atomic_fetch_add(&sh->gen, 1, __ATOMIC_RELEASE);	/* odd */
	err = -mpc_unbind(NULL, NULL);
	account(OP_UNBIND, err, 1, "unbind");
	mpc_sleep_ms(pause_ms);
	err = -mpc_bind(NULL, NULL);
	account(OP_BIND, err, 1, "bind");
	if (nr_race_files && find_debugfs())
		strcpy(sh->race_dir, dbg_dir);
	__atomic_fetch_add(&sh->gen, 1, __ATOMIC_RELEASE);	/* even */
}

static char *klog_buf;
static FILE *log_file;
static regex_t bad_re;
static bool have_bad_re;

/* Read and clear the kernel log; the number of bug reports in it. */
static int harvest(const char *what)
{
	char *line, *save = NULL;
	int len, reports = 0;

	len = klogctl(4 /* SYSLOG_ACTION_READ_CLEAR */, klog_buf, KLOG_SIZE - 1);
	if (len < 0)
		return 0;
	klog_buf[len] = '\0';
	if (log_file) {
		fprintf(log_file, "=== mpc-fuzz %s\n", what);
		fwrite(klog_buf, 1, len, log_file);
		fflush(log_file);
	}
	for (line = strtok_r(klog_buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (!have_bad_re || regexec(&bad_re, line, 0, NULL, 0))
			continue;
		if (reports++ < 40)
			diag("kernel: %s", line);
	}
	return reports;
}

#define tap mpc_tap_result

/* After the run: the device must work, and hold nothing. */
static bool device_works(char *why, size_t len)
{
	char stats[512];
	int fd, err;

	if (!find_node() || !find_debugfs()) {
		snprintf(why, len, "no render node or debugfs directory");
		return false;
	}
	mpc_dbg_write(dbg_dir, "perfcnt_enable", "0\n");
	mpc_set_fault(dbg_dir, "none");
	mpc_set_workload(dbg_dir, "idle");
	fd = open(node, O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		snprintf(why, len, "open %s: %s", node, strerror(errno));
		return false;
	}
	if ((err = mpc_enable_all(fd)) ||
	    (err = mpc_dump(fd, arena, dump_size, NULL, NULL)) ||
	    (err = mpc_dump(fd, arena, dump_size, NULL, NULL)) ||
	    (err = mpc_disable(fd))) {
		snprintf(why, len, "enable, dump, dump, disable: %s", errname(-err));
		close(fd);
		return false;
	}
	close(fd);
	if (mpc_dbg_read(dbg_dir, "perfcnt_stats", stats, sizeof(stats)) < 0)
		stats[0] = '\0';
	if (!strstr(stats, "live_allocs: 0\n")) {
		snprintf(why, len, "perfcnt_stats after closing everything: %s", stats);
		return false;
	}
	return true;
}

static void histogram(char *out, size_t len)
{
	size_t at = 0;
	int op, e;

	for (op = 0; op < NR_OPS && at < len - 64; op++) {
		bool first = true;

		at += snprintf(out + at, len - at, "%s%s{", op ? " " : "", op_name[op]);
		for (e = 0; e <= MAX_ERRNO && at < len - 64; e++) {
			if (!sh->hist[op][e])
				continue;
			at += snprintf(out + at, len - at, "%s%s:%" PRIu64, first ? "" : ",",
				       e == MAX_ERRNO ? "other" : errname(e),
				       sh->hist[op][e]);
			first = false;
		}
		at += snprintf(out + at, len - at, "}");
	}
}

/*
 * Whether every worker has exited (not reaped: main waits for them at the
 * end); prints the progress every 30 s.
 */
static bool workers_done(const pid_t *w, int n)
{
	static struct timespec last;
	struct timespec now;
	siginfo_t si;
	int i;

	clock_gettime(CLOCK_MONOTONIC, &now);
	if (!last.tv_sec)
		last = now;
	if (now.tv_sec - last.tv_sec >= 30) {
		diag("progress: %" PRIu64 " calls", __atomic_load_n(&sh->calls, __ATOMIC_RELAXED));
		last = now;
	}
	for (i = 0; i < n; i++) {
		si.si_pid = 0;
		if (waitid(P_PID, w[i], &si, WEXITED | WNOHANG | WNOWAIT) || !si.si_pid)
			return false;
	}
	return true;
}

/*
 * The verdict both modes end with: the device, the kernel log, and the
 * figures ("# @what: N calls, ...").
 */
static int verdict(const char *what)
{
	char why[600], *hist;
	int reports;
	bool works = device_works(why, sizeof(why));

	tap(works, "fuzz_device_works_after%s%s", works ? "" : " # ", works ? "" : why);
	reports = harvest("after");
	tap(!reports, "fuzz_kernel_log_clean (%d reports)", reports);

	hist = malloc(16384);
	if (hist) {
		histogram(hist, 16384);
		diag("%s: %" PRIu64 " calls, %u processes, errno histogram %s, %d reports",
		     what, sh->calls, sh->procs, hist, reports);
		free(hist);
	}
	mpc_tap_plan(mpc_tap_count());
	return mpc_tap_failures() != 0;
}

/*
 * The render node, GET_INFO (the reference for later calls), the test
 * memory, a clean kernel log; on failure the TAP line @what and the plan.
 */
static bool setup_device(const char *what)
{
	int fd;

	if (!find_node()) {
		tap(false, "%s # no mali_perfcnt render node", what);
		mpc_tap_plan(mpc_tap_count());
		return false;
	}
	fd = open(node, O_RDWR | O_CLOEXEC);
	if (fd < 0 || xioctl(fd, DRM_IOCTL_MALI_PERFCNT_GET_INFO, &sh->info)) {
		tap(false, "%s # open %s / GET_INFO failed: %s", what, node, strerror(errno));
		mpc_tap_plan(mpc_tap_count());
		return false;
	}
	sh->info3.block_types_ptr = (uintptr_t)sh->types;
	sh->info3.nr_block_types = MALI_PERFCNT_MAX_BLOCK_TYPES;
	if (xioctl(fd, DRM_IOCTL_MALI_PERFCNT_GET_INFO_V3, &sh->info3)) {
		tap(false, "%s # GET_INFO_V3 failed: %s", what, strerror(errno));
		mpc_tap_plan(mpc_tap_count());
		return false;
	}
	close(fd);
	dump_size = sh->info.dump_size;
	sample_size = sh->info3.sample_size;
	setup_memory();
	harvest("before");
	return true;
}

/* -r CYCLES: the race of debugfs opens against bind (race_opens()). */
static int race_run(unsigned int cycles, unsigned int procs)
{
	struct timespec t0, t1;
	unsigned int i, done = 0;
	pid_t workers[64];
	int st;

	diag("mpc-fuzz: race of debugfs opens against bind: %u unbind/bind cycles, %u processes opening",
	     cycles, procs);
	if (!setup_device("race_setup"))
		return 1;
	if (!find_debugfs() || !race_list_files()) {
		tap(false, "race_setup # no debugfs files of the device");
		mpc_tap_plan(mpc_tap_count());
		return 1;
	}
	strcpy(sh->race_dir, dbg_dir);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (i = 0; i < procs; i++)
		workers[i] = start_worker(i + 1, 0, false);
	worker_id = 0;
	for (done = 0; done < cycles; done++) {
		unbind_bind(0);
		if (!find_debugfs()) {
			violation("race: no debugfs directory after bind %u", done + 1);
			break;
		}
	}
	__atomic_store_n(&sh->race_done, 1, __ATOMIC_RELEASE);
	for (i = 0; i < procs; i++) {
		if (waitpid(workers[i], &st, 0) < 0)
			continue;
		if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
			violation("worker %u ended with status %#x", i + 1, st);
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	tap(done == cycles && sh->hist[OP_DBG_OPEN][0] > 0,
	    "race_binds (%u of %u unbind/bind cycles in %.0f s; %" PRIu64 " opens of %u files, %" PRIu64 " succeeded)",
	    done, cycles, (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9,
	    sh->calls - 2 * done, nr_race_files, sh->hist[OP_DBG_OPEN][0]);
	for (i = 0; i < MAX_VKINDS && sh->vk[i].key; i++)
		diag("%u violation(s) of this kind, the first: %s", sh->vk[i].n,
		     sh->vk[i].first);
	tap(!sh->violations, "race_errnos_documented (%u violations)", sh->violations);
	return verdict("fuzz-race");
}

int main(int argc, char **argv)
{
	uint64_t seed = 0, calls = 1000000;
	unsigned int procs = 2, unbinds = 3, race = 0, i;
	bool nocaps = false, seed_given = false, bench = false;
	pid_t workers[64];
	int opt, nw = 0, st;
	struct timespec t0, t1;
	double secs;

	while ((opt = getopt(argc, argv, "s:n:p:u:r:kl:b:vB")) != -1) {
		switch (opt) {
		case 's': seed = strtoull(optarg, NULL, 0); seed_given = true; break;
		case 'n': calls = strtoull(optarg, NULL, 0); break;
		case 'p': procs = atoi(optarg); break;
		case 'u': unbinds = atoi(optarg); break;
		case 'r': {
			char *end;
			unsigned long v = strtoul(optarg, &end, 0);

			if (*end || !v || v > 100000 || optarg[0] == '-') {
				fprintf(stderr, "mpc-fuzz: -r %s: want the number of unbind/bind cycles, 1 to 100000\n",
					optarg);
				return 2;
			}
			race = v;
			break;
		}
		case 'k': nocaps = true; break;
		case 'l':
			log_file = fopen(optarg, "a");
			if (!log_file) {
				perror(optarg);
				return 2;
			}
			break;
		case 'b':
			if (regcomp(&bad_re, optarg, REG_EXTENDED | REG_NOSUB)) {
				fprintf(stderr, "mpc-fuzz: bad regex %s\n", optarg);
				return 2;
			}
			have_bad_re = true;
			break;
		case 'v': verbose = true; break;
		case 'B': bench = true; break;
		default:
			fprintf(stderr, "usage: %s [-s SEED] [-n CALLS] [-p PROCS] [-u UNBINDS] [-r CYCLES] [-k] [-l LOG] [-b REGEX] [-v] [-B]\n",
				argv[0]);
			return 2;
		}
	}
	if (procs < 1 || procs + nocaps > ARRAY_SIZE(workers)) {
		fprintf(stderr, "mpc-fuzz: -p 1..%zu\n", ARRAY_SIZE(workers) - 1);
		return 2;
	}
	if (!seed_given) {
		clock_gettime(CLOCK_REALTIME, &t0);
		seed = (uint64_t)t0.tv_sec * 1000000007ULL ^ t0.tv_nsec ^ getpid();
	}
	rng = seed;
	setvbuf(stdout, NULL, _IOLBF, 0);
	page = sysconf(_SC_PAGESIZE);
	klog_buf = malloc(KLOG_SIZE);
	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
		  -1, 0);
	if (!klog_buf || sh == MAP_FAILED) {
		perror("mpc-fuzz");
		return 2;
	}
	memset(sh, 0, sizeof(*sh));
	sh->budget = calls;
	sh->slow_faults = MAX_SLOW_FAULTS;
	sh->forks = MAX_FORKS;
	sh->gen = 0;

	mpc_tap_header();
	if (race)
		return race_run(race, procs);
	diag("mpc-fuzz: seed %#" PRIx64 ", %" PRIu64 " calls, %u processes%s, %u unbinds (replay: mpc-fuzz -s %#" PRIx64 " -n %" PRIu64 " -p %u -u %u%s)",
	     seed, calls, procs, nocaps ? " + 1 without capabilities" : "", unbinds,
	     seed, calls, procs, unbinds, nocaps ? " -k" : "");
	if (!check_tables()) {
		tap(false, "fuzz_tables_cover_uapi # the uAPI has fields the fuzzer does not know");
		mpc_tap_plan(mpc_tap_count());
		return 1;
	}
	if (!setup_device("fuzz_setup"))
		return 1;
	if (bench) {
		/* -B: the cost of each kind of call, alone, one process */
		for (i = 0; i < MAX_SLOTS; i++)
			slots[i].fd = -1;
		for (bench_op = 0; bench_op < OP_UNBIND; bench_op++) {
			uint64_t c0 = sh->calls;

			if (bench_op == OP_FORK)
				continue;
			sh->budget = c0 + 2000;
			clock_gettime(CLOCK_MONOTONIC, &t0);
			run(20000);
			clock_gettime(CLOCK_MONOTONIC, &t1);
			secs = (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;
			diag("bench %s: %" PRIu64 " calls, %.0f us each", op_name[bench_op],
			     sh->calls - c0, secs * 1e6 / (sh->calls - c0 ? sh->calls - c0 : 1));
		}
		bench_op = -1;
		for (i = 0; i < MAX_SLOTS; i++)
			if (slots[i].fd >= 0)
				close(slots[i].fd);
		memset(sh->hist, 0, sizeof(sh->hist));
		sh->calls = 0;
		sh->budget = calls;
	}

	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (i = 0; i < procs; i++)
		workers[nw++] = start_worker(i + 1, seed, false);
	if (nocaps)
		workers[nw++] = start_worker(procs + 1, seed, true);

	/* Unbind and bind at evenly spread points of the budget */
	worker_id = 0;
	for (i = 0; i < unbinds; i++) {
		uint64_t at = calls / (unbinds + 1) * (i + 1) +
			      rnd(calls / (4 * (unbinds + 1)) + 1);

		while (__atomic_load_n(&sh->calls, __ATOMIC_RELAXED) < at &&
		       !workers_done(workers, nw))
			mpc_sleep_ms(20);
		if (!budget_left())
			break;
		unbind_bind(100 + rnd(200));
	}
	while (!workers_done(workers, nw))
		mpc_sleep_ms(20);
	for (i = 0; i < (unsigned int)nw; i++) {
		if (waitpid(workers[i], &st, 0) < 0)
			continue;
		if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
			violation("worker %u ended with status %#x", i + 1, st);
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	secs = (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;

	tap(sh->calls >= calls, "fuzz_calls (%" PRIu64 " of %" PRIu64 " in %.0f s, %.0f/s)",
	    sh->calls, calls, secs, sh->calls / (secs > 0 ? secs : 1));
	for (i = 0; i < MAX_VKINDS && sh->vk[i].key; i++)
		diag("%u violation(s) of this kind, the first: %s", sh->vk[i].n,
		     sh->vk[i].first);
	tap(!sh->violations, "fuzz_errnos_documented (%u violations)", sh->violations);
	return verdict("fuzz");
}
