// SPDX-License-Identifier: MIT
/*
 * Backend "panfrost": the perfcnt ioctls of upstream panfrost (behind its
 * unstable_ioctls module parameter). The GPU is described with GET_PARAM;
 * the sample buffer is sized by the kernel's own formula, which differs
 * between the GPUs panfrost treats as v4 (T60x, T62x, T72x) and the others;
 * PERFCNT_DUMP copies that many bytes with no size in the uAPI. Samples are
 * timed with CLOCK_MONOTONIC_RAW around each DUMP. The counters are raw
 * 32-bit hardware values cleared by each sample: callers sample at least
 * every info.max_sample_interval_ns and add them up in 64 bits.
 *
 * A panfrost patched with this project's series (panfrost/) says so in
 * GET_PARAM PERFCNT_FEATURES: it hosts mali_perfcnt's counter core, and
 * the counters are read through its sessions instead (per-block masks,
 * 64-bit sums in the kernel, the kernel's timestamps; CAP_PERFMON unless
 * root set sysctl dev.panfrost.perf_stream_paranoid=0).
 * MPC_PANFROST_UNSTABLE=1 keeps the unstable ioctls.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <xf86drm.h>

#include "backend.h"
#include "mali_perfcnt_drm.h"
#include "mpc_internal.h"
#include "panfrost_uapi.h"

#define UNSTABLE_HINT	"panfrost's perfcnt ioctls are disabled: echo Y > " \
			"/sys/module/panfrost/parameters/unstable_ioctls (root; taints the kernel)"
/* at most 2^32 events per sample: 500 ms is 8 events a cycle at 1 GHz */
#define MAX_INTERVAL_NS	500000000ull

struct pf {
	uint32_t prod_id;
	void *kbuf;		/* what PERFCNT_DUMP writes: at least the kernel's size */
	size_t alloc;
	size_t kernel_size;
	unsigned set;
	uint64_t last_ns;	/* the last sample, or the enable: the next interval's start */
	int first;		/* no sample since the enable */
	int lost;		/* a DUMP timed out since the last sample */
	int sessions;		/* patched panfrost: its counter sessions */
	int sfd;		/* the session, -1 when none is open */
	uint32_t ssize;		/* bytes of a session sample */
	void *sbuf;
	int ring_on;		/* a ring session is the stream (ring) */
	struct mpc_v3_ring ring;
};

static void pf_enumerate(struct mpc_cands *c)
{
	mpc_drm_enumerate(c, &mpc_be_panfrost, MPC_PF_DRIVER_NAME);
}

static int get_param(int fd, uint32_t id, uint64_t *v)
{
	struct mpc_pf_get_param p;

	memset(&p, 0, sizeof(p));
	p.param = id;
	if (drmIoctl(fd, MPC_PF_IOCTL_GET_PARAM, &p))
		return -errno;
	*v = p.value;
	return 0;
}

/* panfrost_model_cmp(): ids with bits 15:12 set compare as id & 0xf00f */
static uint32_t model_id(uint32_t prod)
{
	return (prod & 0xf000) ? (prod & 0xf00f) : prod;
}

/* the GPUs panfrost's feature table marks HW_FEATURE_V4 */
static int kernel_is_v4(uint32_t prod)
{
	return prod == 0x0600 || prod == 0x6956 || prod == 0x0620 || prod == 0x0720;
}

/*
 * A patched panfrost's counter sessions: its feature bit, then PERFCNT_QUERY
 * for the sample size and the description's check. Nothing on a stock
 * panfrost (GET_PARAM PERFCNT_FEATURES is -EINVAL there) or with
 * MPC_PANFROST_UNSTABLE=1.
 */
static int pf_sessions_open(struct mpc_dev *d, struct mpc_err *err)
{
	struct drm_mali_perfcnt_get_info_v3 gi;
	struct pf *pf = d->priv;
	const char *force = getenv("MPC_PANFROST_UNSTABLE");
	uint64_t feat = 0;

	if ((force && !strcmp(force, "1")) ||
	    get_param(d->fd, MPC_PF_PARAM_PERFCNT_FEATURES, &feat) ||
	    !(feat & MPC_PF_PERFCNT_F_SESSIONS))
		return 0;
	memset(&gi, 0, sizeof(gi));
	if (drmIoctl(d->fd, MPC_PF_IOCTL_PERFCNT_QUERY, &gi)) {
		int x = errno;

		return mpc_fail(err, -x, "%s: panfrost says it has counter sessions but PERFCNT_QUERY "
				"failed: %s; run with MPC_PANFROST_UNSTABLE=1 to use the unstable "
				"ioctls", d->path, strerror(x));
	}
	if (gi.gpu_id >> 16 != d->desc.gpu_id >> 16 || gi.shader_present != d->desc.shader_present)
		return mpc_fail(err, -EPROTO, "%s: PERFCNT_QUERY describes GPU_ID 0x%08x, cores 0x%llx; "
				"GET_PARAM 0x%08x, 0x%llx", d->path, gi.gpu_id,
				(unsigned long long)gi.shader_present, d->desc.gpu_id,
				(unsigned long long)d->desc.shader_present);
	pf->sbuf = malloc(gi.sample_size);
	if (!pf->sbuf)
		return mpc_fail(err, -ENOMEM, "out of memory");
	pf->sessions = 1;
	pf->ssize = gi.sample_size;
	if (gi.gpu_freq_hz && !d->desc.gpu_freq_hz)
		d->desc.gpu_freq_hz = gi.gpu_freq_hz;
	d->info.interface = "counter sessions (patched panfrost)";
	/* the kernel samples into a ring session's ring every period, up to 1 s */
	d->info.caps = MPC_BE_BLOCK_MASKS | MPC_BE_SEQNO | MPC_BE_KERNEL_TIMESTAMP |
		       MPC_BE_PERIODIC;
	/* the kernel sums in 64 bits, at least every second */
	d->info.max_sample_interval_ns = 0;
	d->info.dump_alloc = pf->alloc;
	d->info.limits[0] = "CAP_PERFMON, unless root set sysctl dev.panfrost.perf_stream_paranoid=0";
	d->info.limits[1] = "sessions exclude the unstable ioctls' owner (EBUSY either way)";
	d->info.limits[2] = "periodic sampling in the kernel (ring sessions) up to 1 s periods: "
			    "the tool samples longer ones";
	d->info.limits[3] = d->desc.gpu_freq_hz ? NULL :
			    "no GPU clock rate (no devfreq): give --freq MHz";
	d->info.limits[4] = NULL;
	return 0;
}

static int pf_session_open_error(const struct mpc_dev *d, int x, struct mpc_err *err);

static int pf_session_enable(struct mpc_dev *d, const struct mpc_enable *cfg, struct mpc_err *err)
{
	struct drm_mali_perfcnt_ext_set_property p[MPC_V3_OPEN_PROPS];
	struct drm_mali_perfcnt_session_open o;
	struct pf *pf = d->priv;
	int fd;

	if (pf->sfd >= 0 || pf->ring_on)
		return mpc_fail(err, -EALREADY, "the counters of %s are already enabled by this "
				"process", d->path);
	/* panfrost's sessions take no MALI_PERFCNT_PROP_PERIOD_NS */
	mpc_v3_open_args(cfg, 0, &o, p);
	fd = drmIoctl(d->fd, MPC_PF_IOCTL_PERFCNT_SESSION_OPEN, &o);
	if (fd >= 0) {
		pf->sfd = fd;
		return 0;
	}
	return pf_session_open_error(d, errno, err);
}

/* Why a SESSION_OPEN failed with @x, in one line */
static int pf_session_open_error(const struct mpc_dev *d, int x, struct mpc_err *err)
{
	switch (x) {
	case EPERM:
	case EACCES:
		return mpc_fail(err, -x, "panfrost's counter sessions need CAP_PERFMON: run as root, "
				"or as root 'sysctl dev.panfrost.perf_stream_paranoid=0' (or "
				"MPC_PANFROST_UNSTABLE=1 with unstable_ioctls)");
	case EBUSY:
		return mpc_fail(err, -x, "the counters of %s are held through panfrost's unstable "
				"ioctls by another process: wait for it to finish", d->path);
	case EMFILE:
		return mpc_fail(err, -x, "panfrost has no session left on %s (too many open)", d->path);
	default:
		return mpc_fail(err, -x, "opening a counter session on %s failed: %s", d->path,
				strerror(x));
	}
}

/* One session sample into pf->sbuf (64-bit values) */
static int pf_session_take(struct mpc_dev *d, struct mpc_dump_info *di, struct mpc_err *err)
{
	struct pf *pf = d->priv;
	struct drm_mali_perfcnt_session_sample r;
	int x;

	memset(&r, 0, sizeof(r));
	r.buf_ptr = (uint64_t)(uintptr_t)pf->sbuf;
	r.buf_size = pf->ssize;
	di->start_ns = mpc_now_raw_ns();
	if (ioctl(pf->sfd, MALI_PERFCNT_SESSION_IOCTL_SAMPLE, &r)) {
		x = errno;
		if (x == ETIMEDOUT || x == ENXIO)
			return mpc_fail(err, -x, "the GPU did not finish a sample (%s); panfrost "
					"restarted the counters, the next sample says so",
					strerror(x));
		if (x == EIO)
			return mpc_fail(err, -x, "the GPU did not finish a sample and panfrost could "
					"not recover it; see dmesg");
		return mpc_fail(err, -x, "taking a sample on %s failed: %s", d->path, strerror(x));
	}
	di->end_ns = mpc_now_raw_ns();
	return 0;
}

static int pf_session_sample(struct mpc_dev *d, void *buf, size_t len, struct mpc_dump_info *di,
			     struct mpc_err *err)
{
	struct pf *pf = d->priv;
	int r = pf_session_take(d, di, err);

	if (r)
		return r;
	return mpc_v3_sample_dump(&d->desc, pf->sbuf, pf->ssize, buf, len, di, err);
}

static int pf_session_sample64(struct mpc_dev *d, const void **sample, size_t *size,
			       struct mpc_dump_info *di, struct mpc_err *err)
{
	struct pf *pf = d->priv;
	int r;

	*sample = NULL;
	if (!pf->sessions)
		return 0;
	r = pf_session_take(d, di, err);
	if (r)
		return r;
	*sample = pf->sbuf;
	*size = pf->ssize;
	return 0;
}

static int pf_open(struct mpc_dev *d, const char *path, unsigned flags, struct mpc_err *err)
{
	static const struct { uint32_t id; const char *name; int optional; } params[] = {
		{ MPC_PF_PARAM_GPU_PROD_ID, "GPU_PROD_ID", 0 },
		{ MPC_PF_PARAM_GPU_REVISION, "GPU_REVISION", 0 },
		{ MPC_PF_PARAM_SHADER_PRESENT, "SHADER_PRESENT", 0 },
		{ MPC_PF_PARAM_L2_PRESENT, "L2_PRESENT", 0 },
		{ MPC_PF_PARAM_MEM_FEATURES, "MEM_FEATURES", 0 },
		{ MPC_PF_PARAM_NR_CORE_GROUPS, "NR_CORE_GROUPS", 0 },
		{ MPC_PF_PARAM_L2_FEATURES, "L2_FEATURES", 1 },
		{ MPC_PF_PARAM_MMU_FEATURES, "MMU_FEATURES", 1 },
		{ MPC_PF_PARAM_COHERENCY_FEATURES, "COHERENCY_FEATURES", 1 },
	};
	uint64_t v[ARRAY_SIZE(params)] = { 0 };
	struct mpc_desc *desc = &d->desc;
	size_t v4size, v5size;
	char ver[32];
	struct pf *pf;
	int fd, r;

	(void)flags;
	fd = mpc_drm_open(path, MPC_PF_DRIVER_NAME, ver, sizeof(ver), err);
	if (fd < 0)
		return fd;
	for (unsigned i = 0; i < ARRAY_SIZE(params); i++) {
		r = get_param(fd, params[i].id, &v[i]);
		if (r && !params[i].optional) {
			close(fd);
			return mpc_fail(err, r, "panfrost GET_PARAM %s failed on %s: %s; this kernel's "
					"panfrost is too old or not the upstream driver", params[i].name,
					path, strerror(-r));
		}
	}
	memset(desc, 0, sizeof(*desc));
	desc->enabled = -1;
	desc->counter_set = -1;
	desc->simulated = -1;
	/* the driver reports T60x's GPU_ID 0x6956 as 0x0600; the database knows the register */
	desc->gpu_id = (uint32_t)((v[0] == 0x0600 ? 0x6956 : v[0] & 0xffff) << 16) |
		       (uint32_t)(v[1] & 0xffff);
	desc->shader_present = v[2];
	desc->l2_present = v[3];
	desc->mem_features = (uint32_t)v[4];
	desc->l2_features = (uint32_t)v[6];
	desc->layout = kernel_is_v4((uint32_t)v[0]) ? MPC_LAYOUT_V4 : MPC_LAYOUT_V5;
	desc->counters_per_block = 64;
	desc->nr_counter_sets = model_id((uint32_t)v[0]) >= 0x1000 ? 2 : 1;
	desc->gpu_freq_hz = mpc_devfreq_hz("drm", path);
	if (desc->layout == MPC_LAYOUT_V4 && v[5] != (uint64_t)mpc_popcount64(v[3])) {
		close(fd);
		return mpc_fail(err, -EPROTO, "%s: NR_CORE_GROUPS %llu but L2_PRESENT 0x%llx; panfrost "
				"and this tool disagree on the v4 layout", path,
				(unsigned long long)v[5], (unsigned long long)v[3]);
	}
	mpc_desc_name_gpu(desc);
	{
		struct mpc_err e;

		r = mpc_desc_finish(desc, &e);
		if (r) {
			close(fd);
			return mpc_fail(err, r, "%s (panfrost, GPU_ID 0x%08x): %s", path,
					desc->gpu_id, e.msg);
		}
	}
	/* the kernel's own sizes (panfrost_perfcnt_init) */
	v4size = (size_t)mpc_popcount64(desc->l2_present) * 8 * 64 * 4;
	v5size = ((((size_t)desc->mem_features >> 8) & 0xf) + 1 + mpc_fls64(desc->shader_present) +
		  2) * 64 * 4;
	pf = calloc(1, sizeof(*pf));
	if (!pf) {
		close(fd);
		return mpc_fail(err, -ENOMEM, "out of memory");
	}
	pf->prod_id = (uint32_t)v[0];
	pf->kernel_size = desc->layout == MPC_LAYOUT_V4 ? v4size : v5size;
	pf->alloc = v4size > v5size ? v4size : v5size;
	if (pf->alloc < desc->dump_size)
		pf->alloc = desc->dump_size;
	pf->kbuf = calloc(1, pf->alloc);
	if (!pf->kbuf) {
		free(pf);
		close(fd);
		return mpc_fail(err, -ENOMEM, "out of memory");
	}
	d->priv = pf;
	d->fd = fd;
	pf->sfd = -1;
	snprintf(d->driver, sizeof(d->driver), MPC_PF_DRIVER_NAME " %s", ver);
	r = pf_sessions_open(d, err);
	if (r) {
		free(pf->kbuf);
		free(pf);
		d->priv = NULL;
		close(fd);
		d->fd = -1;
		return r;
	}
	if (pf->sessions)
		return 0;
	d->info.interface = "unstable perfcnt ioctls";
	d->info.caps = 0;
	d->info.max_sample_interval_ns = MAX_INTERVAL_NS;
	d->info.dump_alloc = pf->alloc;
	d->info.limits[0] = "all counters of a set: no per-block masks";
	d->info.limits[1] = "one owner per open file: another process gets EBUSY";
	d->info.limits[2] = "no periodic sampling in the kernel: the tool samples at least every "
			    "500 ms and adds the 32-bit counters up in 64 bits";
	d->info.limits[3] = "ENABLE by the owner again ignores a new counter set";
	d->info.limits[4] = "sample times are taken in userspace around each DUMP";
	d->info.limits[5] = desc->gpu_freq_hz ? NULL : "no GPU clock rate (no devfreq): give --freq MHz";
	d->info.limits[6] = NULL;
	return 0;
}

/* DUMP by a file that does not own the counters: -ENOSYS when the ioctls are off, else -EINVAL */
static int pf_usable(struct mpc_dev *d, struct mpc_err *err)
{
	struct mpc_pf_perfcnt_dump q = { 0 };
	struct pf *pf = d->priv;

	if (d->enabled || pf->sessions)
		return 0;
	if (drmIoctl(d->fd, MPC_PF_IOCTL_PERFCNT_DUMP, &q) && errno == ENOSYS)
		return mpc_fail(err, -ENOSYS, UNSTABLE_HINT);
	return 0;
}

static int pf_enable(struct mpc_dev *d, const struct mpc_enable *cfg, struct mpc_err *err)
{
	struct pf *pf = d->priv;
	struct mpc_pf_perfcnt_enable e = { 1, cfg ? cfg->counter_set : 0 };

	if (pf->sessions)
		return pf_session_enable(d, cfg, err);
	if (d->enabled && e.counterset != pf->set)
		return mpc_fail(err, -EALREADY, "the counters of %s are enabled with set %u; panfrost "
				"ignores a new set until they are disabled", d->path, pf->set);
	if (drmIoctl(d->fd, MPC_PF_IOCTL_PERFCNT_ENABLE, &e)) {
		int x = errno;

		switch (x) {
		case ENOSYS:
			return mpc_fail(err, -x, UNSTABLE_HINT);
		case EBUSY:
			return mpc_fail(err, -x, "the counters of %s are in use by another process "
					"(panfrost allows one owner, an open file); wait for it to "
					"finish or stop it", d->path);
		case EINVAL:
			if (e.counterset)
				return mpc_fail(err, -x, "panfrost refused counter set %u on %s (EINVAL): "
						"it takes set 1 only on %s; drop --set", e.counterset,
						d->desc.product, d->desc.nr_counter_sets > 1 ?
						"the GPUs it counts as Bifrost or later" :
						"Bifrost and later GPUs");
			return mpc_fail(err, -x, "panfrost refused to enable the counters of %s "
					"(EINVAL); see dmesg", d->path);
		case ETIMEDOUT:
			return mpc_fail(err, -x, "the GPU did not finish cleaning its caches within "
					"panfrost's 1 s timeout while enabling the counters; see "
					"dmesg, then try again");
		default:
			return mpc_fail(err, -x, "enabling the counters of %s failed: %s", d->path,
					strerror(x));
		}
	}
	pf->set = e.counterset;
	if (!d->enabled) {
		/* panfrost clears the counters in ENABLE: they count from about here */
		pf->last_ns = mpc_now_raw_ns();
		pf->first = 1;
		pf->lost = 0;
	}
	return 0;
}

static int pf_disable(struct mpc_dev *d, struct mpc_err *err)
{
	struct mpc_pf_perfcnt_enable e = { 0, 0 };
	struct pf *pf = d->priv;

	if (pf->sessions) {
		if (pf->sfd >= 0)
			close(pf->sfd);
		pf->sfd = -1;
		return 0;
	}
	if (drmIoctl(d->fd, MPC_PF_IOCTL_PERFCNT_ENABLE, &e)) {
		int x = errno;

		if (x == ENOSYS)
			return mpc_fail(err, -x, UNSTABLE_HINT);
		return mpc_fail(err, -x, "disabling the counters of %s failed: %s", d->path,
				strerror(x));
	}
	return 0;
}

static int pf_sample(struct mpc_dev *d, void *buf, size_t len, struct mpc_dump_info *di,
		     struct mpc_err *err)
{
	struct pf *pf = d->priv;
	struct mpc_pf_perfcnt_dump q = { (uint64_t)(uintptr_t)pf->kbuf };
	uint32_t *w = buf;
	sigset_t all, old;
	int r, x;

	if (pf->sessions)
		return pf_session_sample(d, buf, len, di, err);
	(void)len;
	/*
	 * panfrost's DUMP samples, which clears the counters, then waits
	 * interruptibly for the copy: a signal in that wait (SIGCHLD when a
	 * command ends, say) fails it, and any retry samples again, so the
	 * first sample's counts are gone. Nothing interrupts the wait while
	 * every signal is blocked; they are delivered right after.
	 */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	di->start_ns = mpc_now_raw_ns();
	r = drmIoctl(d->fd, MPC_PF_IOCTL_PERFCNT_DUMP, &q);
	di->end_ns = mpc_now_raw_ns();
	x = errno;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (r) {
		switch (x) {
		case ENOSYS:
			return mpc_fail(err, -x, UNSTABLE_HINT);
		case ETIMEDOUT:
			/*
			 * panfrost issued PERFCNT_SAMPLE, which latched and
			 * cleared the counters, and gave up waiting for the
			 * copy: the next sample counts from about here.
			 */
			pf->last_ns = di->start_ns;
			pf->lost = 1;
			return mpc_fail(err, -x, "the GPU did not finish the sample within panfrost's "
					"1 s timeout; the counters stay enabled, try again (dmesg "
					"may say more)");
		case EINVAL:
			return mpc_fail(err, -x, "panfrost says this file does not own the counters of "
					"%s (EINVAL): were they disabled? run the command again",
					d->path);
		case EINTR:
		case ERESTART:
			return mpc_fail(err, -EINTR, "interrupted while waiting for a sample; run "
					"the command again");
		default:
			return mpc_fail(err, -x, "taking a sample on %s failed: %s", d->path,
					strerror(x));
		}
	}
	/* the GPU latches the counters when the driver asks, right after entry */
	di->timestamp_ns = di->start_ns;
	di->interval_start_ns = pf->last_ns;
	pf->last_ns = di->timestamp_ns;
	di->flags = (pf->first ? MPC_DATA_FIRST : 0) | (pf->lost ? MPC_DATA_AFTER_LOST : 0);
	pf->first = 0;
	pf->lost = 0;
	memcpy(buf, pf->kbuf, d->desc.dump_size);
	/*
	 * panfrost writes 0xffffffff to every PRFCNT_*_EN register and the
	 * headers echo it: bits beyond a 64-counter block's 16 groups select
	 * nothing.
	 */
	for (uint32_t b = 0; b < d->desc.nr_blocks; b++)
		w[b * 64 + 2] &= 0xffff;
	if (mpc_dump_saturated(buf, d->desc.nr_blocks, d->desc.counters_per_block))
		di->flags |= MPC_DATA_SATURATED;
	return 0;
}

/*
 * The sampling stream of a patched panfrost: a ring session (the core's
 * MALI_PERFCNT_PROP_PERIOD_NS and MALI_PERFCNT_PROP_RING_SAMPLES, periods
 * up to 1 s), read() whole 64-bit samples at a time.
 */
static int pf_stream_v3(const struct mpc_dev *d, uint64_t period_ns)
{
	const struct pf *pf = d->priv;

	return pf->sessions && period_ns && period_ns <= MALI_PERFCNT_SESSION_WATCHDOG_NS;
}

static const char *pf_stream_kind(const struct mpc_dev *d, uint64_t period_ns)
{
	const struct pf *pf = d->priv;

	return pf->ring_on || pf_stream_v3(d, period_ns) ? "v3 session" : NULL;
}

static int pf_stream_start(struct mpc_dev *d, const struct mpc_enable *cfg, uint64_t period_ns,
			   unsigned ring, struct mpc_err *err)
{
	struct drm_mali_perfcnt_ext_set_property p[MPC_V3_RING_PROPS];
	struct drm_mali_perfcnt_session_open o;
	struct pf *pf = d->priv;
	int fd, x;

	if (pf->sfd >= 0 || pf->ring_on)
		return mpc_fail(err, -EBUSY, "the counters of %s are enabled by this process: "
				"disable them before streaming", d->path);
	if (!pf_stream_v3(d, period_ns))
		return mpc_fail(err, -EINVAL, "panfrost's ring sessions sample every 0.1 ms to 1 s, "
				"not every %.10g ms: sample from the tool (--user-loop) or give a "
				"shorter period", period_ns / 1e6);
	if (ring > MALI_PERFCNT_SESSION_MAX_RING_SAMPLES)
		ring = MALI_PERFCNT_SESSION_MAX_RING_SAMPLES;
	if (ring < 2)
		ring = 2;
	mpc_v3_ring_args(cfg, period_ns, ring, &o, p);
	fd = drmIoctl(d->fd, MPC_PF_IOCTL_PERFCNT_SESSION_OPEN, &o);
	if (fd < 0) {
		x = errno;
		if (x == EINVAL)
			return mpc_fail(err, -x, "panfrost refused the ring session (period %llu ns, "
					"ring %u): periods are %.10g ms (unprivileged: sysctl "
					"dev.panfrost.session_min_period_unpriv_us) to %.10g s; or this "
					"panfrost has no rings: record --user-loop",
					(unsigned long long)period_ns, ring,
					MALI_PERFCNT_STREAM_MIN_PERIOD_NS / 1e6,
					MALI_PERFCNT_SESSION_WATCHDOG_NS / 1e9);
		return pf_session_open_error(d, x, err);
	}
	if (mpc_v3_ring_init(&pf->ring, fd, pf->ssize))
		return mpc_fail(err, -ENOMEM, "out of memory");
	pf->ring_on = 1;
	return 0;
}

static int pf_ring_next(struct mpc_dev *d, const void **sample, size_t *size,
			struct mpc_record *rec, struct mpc_err *err)
{
	struct pf *pf = d->priv;
	int r = mpc_v3_ring_next(&pf->ring, sample, size, err);

	switch (r) {
	case 0:
		mpc_v3_ring_record(*sample, rec);
		return 0;
	case -EPROTO:
	case -EINTR:
		return r;
	case -ENODEV:
		return mpc_fail(err, r, "the ring session of %s ended: the device went away",
				d->path);
	case -EIO:
		return mpc_fail(err, r, "the ring session of %s ended: the GPU could not be "
				"recovered after a failed sample (see dmesg)", d->path);
	case -ENODATA:
		return mpc_fail(err, r, "the ring session of %s was stopped and is drained; run "
				"the command again", d->path);
	default:
		return mpc_fail(err, r, "reading the ring session of %s failed: %s", d->path,
				strerror(-r));
	}
}

static int pf_stream_next(struct mpc_dev *d, void *buf, size_t len, struct mpc_record *rec,
			  struct mpc_err *err)
{
	const void *sample;
	uint32_t flags;
	size_t size;
	int r = pf_ring_next(d, &sample, &size, rec, err);

	if (r)
		return r;
	/* a dump's 32-bit words: a sum past them clamped, SATURATED */
	r = mpc_v3_to_dump(&d->desc, sample, size, buf, len, &flags, err);
	if (!r)
		rec->data_flags = mpc_v3_data_flags(sample, size, flags);
	return r;
}

static int pf_stream_next64(struct mpc_dev *d, void *buf, size_t len, const void **sample,
			    size_t *size, struct mpc_record *rec, struct mpc_err *err)
{
	(void)buf;
	(void)len;
	return pf_ring_next(d, sample, size, rec, err);
}

static int pf_stream_stop(struct mpc_dev *d, struct mpc_err *err)
{
	struct pf *pf = d->priv;

	(void)err;
	if (pf->ring_on)
		mpc_v3_ring_fini(&pf->ring);
	pf->ring_on = 0;
	return 0;
}

static void pf_close(struct mpc_dev *d)
{
	struct pf *pf = d->priv;

	if (d->fd >= 0)
		close(d->fd);
	d->fd = -1;
	if (pf) {
		if (pf->sfd >= 0)
			close(pf->sfd);
		free(pf->kbuf);
		free(pf->sbuf);
	}
	free(pf);
	d->priv = NULL;
}

static int pf_none(unsigned flags, struct mpc_err *err)
{
	(void)flags;
	return mpc_fail(err, -ENODEV, "no panfrost GPU found: no render node is driven by panfrost; "
			"load it (modprobe panfrost) on a board with a Mali GPU, or omit --backend");
}

const struct mpc_backend_ops mpc_be_panfrost = {
	.name = "panfrost",
	.driver = MPC_PF_DRIVER_NAME,
	.enumerate = pf_enumerate,
	.open = pf_open,
	.usable = pf_usable,
	.enable = pf_enable,
	.sample = pf_sample,
	.session_sample = pf_session_sample64,
	.disable = pf_disable,
	.stream_start = pf_stream_start,
	.stream_next = pf_stream_next,
	.stream_next64 = pf_stream_next64,
	.stream_kind = pf_stream_kind,
	.stream_stop = pf_stream_stop,
	.close = pf_close,
	.none = pf_none,
};
