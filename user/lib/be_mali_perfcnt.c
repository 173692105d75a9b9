// SPDX-License-Identifier: MIT
/*
 * Backend "mali_perfcnt": this project's DRM driver. GET_INFO describes the
 * GPU and the dump, ENABLE takes the counters (with block masks), DUMP
 * samples them with a sequence number and a kernel timestamp; the module is
 * loaded with libkmod when no device exists. Errors say how to fix the
 * problem.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>

#include <libkmod.h>
#include <xf86drm.h>

#include "backend.h"
#include "mali_perfcnt_drm.h"

#define DRIVER_NAME "mali_perfcnt"

static void mp_enumerate(struct mpc_cands *c)
{
	mpc_drm_enumerate(c, &mpc_be_mali_perfcnt, DRIVER_NAME);
}

static int module_loaded(void)
{
	return access("/sys/module/" DRIVER_NAME, F_OK) == 0;
}

static int mp_load(unsigned flags, struct mpc_err *err)
{
	struct kmod_ctx *ctx;
	struct kmod_module *mod = NULL;
	int r;

	if (module_loaded())
		return mpc_fail(err, -ENODEV, "the mali_perfcnt module is loaded but no GPU is bound "
				"to it: on a board check the device tree and that panfrost "
				"does not own the GPU; for the simulator reload the module "
				"with sim=<gpu> (e.g. sim=g52)");
	if (flags & MPC_OPEN_NO_LOAD)
		return mpc_fail(err, -ENODEV, "no Mali GPU found: no render node of panfrost or "
				"mali_perfcnt; on a board load panfrost (modprobe panfrost), "
				"else run 'modprobe mali_perfcnt' (sim=g52 for the simulator) "
				"or drop --no-load to let this tool load it");
	ctx = kmod_new(NULL, NULL);
	if (!ctx)
		return mpc_fail(err, -ENOMEM, "libkmod could not start; load the module by hand: "
				"modprobe " DRIVER_NAME);
	r = kmod_module_new_from_name(ctx, DRIVER_NAME, &mod);
	if (r == 0)
		r = kmod_module_probe_insert_module(mod, 0, NULL, NULL, NULL, NULL);
	if (mod)
		kmod_module_unref(mod);
	kmod_unref(ctx);
	if (r == -EPERM || r == -EACCES)
		return mpc_fail(err, r, "no mali_perfcnt GPU found and loading the module needs root "
				"(CAP_SYS_MODULE): run 'sudo modprobe " DRIVER_NAME "' (add sim=g52 "
				"for the simulator), or run this tool as root");
	if (r == -ENOENT || r > 0)
		return mpc_fail(err, -ENOENT, "no mali_perfcnt GPU found and the module is not installed "
				"for this kernel: build it (make in the mali-perfcnt tree) and "
				"'insmod mali_perfcnt.ko'");
	if (r < 0)
		return mpc_fail(err, r, "no mali_perfcnt GPU found and loading the module failed (%s); "
				"see dmesg, or load it by hand: modprobe " DRIVER_NAME, strerror(-r));
	return 0;
}

static int mp_none(unsigned flags, struct mpc_err *err)
{
	(void)flags;
	return mpc_fail(err, -ENODEV, "the mali_perfcnt module was loaded but no GPU is "
			"bound to it: on a board check the device tree; for the "
			"simulator reload it with sim=<gpu>");
}

int mpc_find_debugfs(char *out, size_t len)
{
	static const char *const roots[] = { "/sys/kernel/debug/dri", "/debug/dri" };

	for (unsigned r = 0; r < ARRAY_SIZE(roots); r++) {
		DIR *d = opendir(roots[r]);
		struct dirent *e;
		int found = 0;

		if (!d)
			continue;
		while (!found && (e = readdir(d))) {
			char p[512], name[64] = "";
			FILE *f;

			if (e->d_name[0] == '.')
				continue;
			snprintf(p, sizeof(p), "%s/%s/name", roots[r], e->d_name);
			f = fopen(p, "re");
			if (!f)
				continue;
			if (fgets(name, sizeof(name), f) && !strncmp(name, DRIVER_NAME, strlen(DRIVER_NAME))) {
				snprintf(out, len, "%s/%s", roots[r], e->d_name);
				found = 1;
			}
			fclose(f);
		}
		closedir(d);
		if (found)
			return 0;
	}
	return -ENOENT;
}

static int mp_open(struct mpc_dev *d, const char *path, unsigned flags, struct mpc_err *err)
{
	struct drm_mali_perfcnt_get_info info;
	char ver[32];
	int fd, r;

	(void)flags;
	fd = mpc_drm_open(path, DRIVER_NAME, ver, sizeof(ver), err);
	if (fd < 0)
		return fd;
	memset(&info, 0, sizeof(info));
	if (drmIoctl(fd, DRM_IOCTL_MALI_PERFCNT_GET_INFO, &info)) {
		int e = errno;

		close(fd);
		return mpc_fail(err, -e, "GET_INFO failed on %s: %s; the driver and this tool do not "
				"match (rebuild both from the same tree)", path, strerror(e));
	}
	r = mpc_desc_from_get_info(&d->desc, &info, err);
	if (r) {
		close(fd);
		return r;
	}
	d->fd = fd;
	snprintf(d->driver, sizeof(d->driver), DRIVER_NAME " %s", ver);
	if (mpc_find_debugfs(d->debugfs, sizeof(d->debugfs)))
		d->debugfs[0] = 0;
	{
		char sim[8];

		/* a test fact, in debugfs gpu_info since uAPI revision 2 */
		if (!mpc_dev_gpu_info_key(d, "simulated", sim, sizeof(sim)))
			d->desc.simulated = !strcmp(sim, "1");
	}
	d->info.caps = MPC_BE_BLOCK_MASKS | MPC_BE_SEQNO | MPC_BE_KERNEL_TIMESTAMP |
		       (d->debugfs[0] ? MPC_BE_DEBUGFS : 0) |
		       /* revision 2 has the sampling stream */
		       (info.uapi_version >= 2 ? MPC_BE_PERIODIC : 0);
	d->info.max_sample_interval_ns = 0;
	d->info.dump_alloc = d->desc.dump_size;
	d->info.limits[0] = "no GPU work: the GPU is idle unless panfrost drives it (bring-up, simulator)";
	d->info.limits[1] = info.uapi_version >= 2 ? NULL :
			    "no periodic sampling in the kernel (the tool samples): a driver "
			    "older than uAPI revision 2";
	d->info.limits[2] = NULL;
	return 0;
}

/*
 * uAPI revision 3: ENABLE and DUMP become a session (SESSION_OPEN with the
 * masks as SET_PROPERTY extensions, started at once) and its SAMPLE, whose
 * self-describing sample v3.c lays out as the dump the library decodes.
 * Held in d->priv, which a stream only takes when no session is open.
 */
struct mp_session {
	int fd;
	uint32_t size;
	void *buf;
};

static int mp_uses_v3(const struct mpc_dev *d)
{
	return d->desc.uapi_version >= MALI_PERFCNT_UAPI_VERSION_V3 &&
	       !getenv("MPC_FORCE_UAPI_V2");
}

static int enable_error(const struct mpc_dev *d, const struct mpc_enable *cfg, int x,
			struct mpc_err *err);

static int mp_session_open(struct mpc_dev *d, const struct mpc_enable *cfg, struct mpc_err *err)
{
	struct drm_mali_perfcnt_ext_set_property p[MPC_V3_OPEN_PROPS];
	struct drm_mali_perfcnt_session_open o;
	struct drm_mali_perfcnt_get_info_v3 gi;
	struct mp_session *s;
	int fd;

	if (d->priv)
		return mpc_fail(err, -EALREADY, "the counters of %s are already enabled by this "
				"process", d->path);
	memset(&gi, 0, sizeof(gi));
	if (drmIoctl(d->fd, DRM_IOCTL_MALI_PERFCNT_GET_INFO_V3, &gi)) {
		int x = errno;

		return mpc_fail(err, -x, "GET_INFO_V3 failed on %s: %s", d->path, strerror(x));
	}
	mpc_v3_open_args(cfg, gi.gpu_freq_hz, &o, p);
	fd = drmIoctl(d->fd, DRM_IOCTL_MALI_PERFCNT_SESSION_OPEN, &o);
	if (fd < 0)
		return enable_error(d, cfg, errno, err);
	s = calloc(1, sizeof(*s));
	if (s)
		s->buf = malloc(gi.sample_size);
	if (!s || !s->buf) {
		free(s);
		close(fd);
		return mpc_fail(err, -ENOMEM, "out of memory");
	}
	s->fd = fd;
	s->size = gi.sample_size;
	d->priv = s;
	return 0;
}

static void mp_session_close(struct mpc_dev *d)
{
	struct mp_session *s = d->priv;

	close(s->fd);
	free(s->buf);
	free(s);
	d->priv = NULL;
}

static int busy_error(const struct mpc_dev *d, struct mpc_err *err)
{
	char who[128];

	mpc_dev_owner(d, who, sizeof(who));
	if (!strcmp(who, "debugfs"))
		return mpc_fail(err, -EBUSY, "the counters of %s are held through debugfs; release "
				"them with 'echo 0 > %s/perfcnt_enable'", d->path, d->debugfs);
	if (!strncmp(who, "pid ", 4))
		return mpc_fail(err, -EBUSY, "the counters of %s are in use by %s; wait for it to "
				"finish or stop it", d->path, who);
	return mpc_fail(err, -EBUSY, "the counters of %s are in use by another process; mount "
			"debugfs and read dri/*/gpu_info (owner:) to see which", d->path);
}

/* Why ENABLE (or STREAM_OPEN) failed with @x, in one line with what to do. */
static int enable_error(const struct mpc_dev *d, const struct mpc_enable *cfg, int x,
			struct mpc_err *err)
{
	switch (x) {
	case EACCES:
	case EPERM:
		return mpc_fail(err, -EACCES, "enabling the counters of %s was refused: they reveal "
				"the GPU activity of every process, so this needs "
				"CAP_PERFMON (run as root, or 'setcap cap_perfmon+ep' on "
				"the tool), or, as root, 'sysctl dev.mali_perfcnt.perf_stream_paranoid=0'",
				d->path);
	case EBUSY:
		return busy_error(d, err);
	case EALREADY:
		return mpc_fail(err, -EALREADY, "the counters of %s are already enabled by this "
				"process", d->path);
	case EINVAL:
		if (cfg && cfg->counter_set && d->desc.nr_counter_sets < 2)
			return mpc_fail(err, -EINVAL, "counter set %u does not exist on %s (it has only "
					"set 0); drop --set", cfg->counter_set, d->desc.product);
		return mpc_fail(err, -EINVAL, "the driver rejected the counter configuration "
				"(EINVAL): masks must fit the block size, set 0 or 1");
	default:
		return mpc_fail(err, -x, "enabling the counters of %s failed: %s", d->path,
				strerror(x));
	}
}

static int mp_enable(struct mpc_dev *d, const struct mpc_enable *cfg, struct mpc_err *err)
{
	struct drm_mali_perfcnt_enable e;

	if (mp_uses_v3(d))
		return mp_session_open(d, cfg, err);
	memset(&e, 0, sizeof(e));
	e.enable = 1;
	if (cfg) {
		e.counter_set = cfg->counter_set;
		if (cfg->use_masks) {
			e.flags = MALI_PERFCNT_ENABLE_F_MASKS;
			e.jm_mask = cfg->jm;
			e.tiler_mask = cfg->tiler;
			e.shader_mask = cfg->shader;
			e.mmu_l2_mask = cfg->l2;
		}
	}
	if (drmIoctl(d->fd, DRM_IOCTL_MALI_PERFCNT_ENABLE, &e))
		return enable_error(d, cfg, errno, err);
	return 0;
}

static int mp_disable(struct mpc_dev *d, struct mpc_err *err)
{
	struct drm_mali_perfcnt_enable e;

	if (mp_uses_v3(d)) {
		if (!d->priv)
			return mpc_fail(err, -EALREADY, "the counters of %s are not enabled", d->path);
		mp_session_close(d);
		return 0;
	}
	memset(&e, 0, sizeof(e));
	if (drmIoctl(d->fd, DRM_IOCTL_MALI_PERFCNT_ENABLE, &e)) {
		int x = errno;

		return mpc_fail(err, -x, "disabling the counters of %s failed: %s", d->path, strerror(x));
	}
	return 0;
}

static int mp_session_sample(struct mpc_dev *d, void *buf, size_t len, struct mpc_dump_info *di,
			     struct mpc_err *err);

/* Why a DUMP or a session's SAMPLE failed with @x, in one line. */
static int mp_sample_error(const struct mpc_dev *d, int x, uint32_t need, size_t len,
			   struct mpc_err *err)
{
	switch (x) {
	case ETIMEDOUT:
		return mpc_fail(err, -x, "the GPU did not finish the sample in time; the counters "
				"stay enabled, try again (dmesg may say more)");
	case ENXIO:
		return mpc_fail(err, -x, "the GPU faulted while writing the sample; see dmesg; the "
				"counters stay enabled");
	case EIO:
		if (d->desc.uapi_version < MALI_PERFCNT_UAPI_VERSION_V3)
			return mpc_fail(err, -x, "the GPU faulted while writing the sample; see "
					"dmesg; the counters stay enabled");
		return mpc_fail(err, -x, "the GPU faulted and could not be recovered; the "
				"counters of %s are disabled; see dmesg, then unbind the driver or "
				"reboot", d->path);
	case EPERM:
		return busy_error(d, err);
	case ENODATA:
		return mpc_fail(err, -x, "the counters are not enabled on %s (were they released "
				"by a GPU reset?); run the command again", d->path);
	case ENOSPC:
		return mpc_fail(err, -x, "the dump needs %u bytes but the buffer has %zu; the "
				"driver and GET_INFO disagree", need, len);
	default:
		return mpc_fail(err, -x, "taking a sample on %s failed: %s", d->path, strerror(x));
	}
}

static int mp_sample(struct mpc_dev *d, void *buf, size_t len, struct mpc_dump_info *di,
		     struct mpc_err *err)
{
	struct drm_mali_perfcnt_dump r;

	if (mp_uses_v3(d))
		return mp_session_sample(d, buf, len, di, err);
	memset(&r, 0, sizeof(r));
	r.buf_ptr = (uint64_t)(uintptr_t)buf;
	r.buf_size = (uint32_t)len;
	di->start_ns = mpc_now_raw_ns();
	if (drmIoctl(d->fd, DRM_IOCTL_MALI_PERFCNT_DUMP, &r))
		return mp_sample_error(d, errno, r.buf_size, len, err);
	di->end_ns = mpc_now_raw_ns();
	di->seqno = r.seqno;
	di->timestamp_ns = r.timestamp_ns;
	/* revision 1 left these words reserved (0): not a span nor flags */
	if (d->desc.uapi_version < 2) {
		r.interval_start_ns = 0;
		r.data_flags = 0;
	}
	di->interval_start_ns = r.interval_start_ns;
	di->flags = mpc_data_flags_from_uapi(r.data_flags);
	return 0;
}

/* One session sample into the session's buffer (64-bit values) */
static int mp_session_take(struct mpc_dev *d, struct mpc_dump_info *di, struct mpc_err *err)
{
	struct mp_session *s = d->priv;
	struct drm_mali_perfcnt_session_sample r;

	if (!s)
		return mpc_fail(err, -ENODATA, "the counters are not enabled on %s", d->path);
	memset(&r, 0, sizeof(r));
	r.buf_ptr = (uint64_t)(uintptr_t)s->buf;
	r.buf_size = s->size;
	di->start_ns = mpc_now_raw_ns();
	if (ioctl(s->fd, MALI_PERFCNT_SESSION_IOCTL_SAMPLE, &r))
		return mp_sample_error(d, errno, r.buf_size, s->size, err);
	di->end_ns = mpc_now_raw_ns();
	return 0;
}

static int mp_session_sample(struct mpc_dev *d, void *buf, size_t len, struct mpc_dump_info *di,
			     struct mpc_err *err)
{
	struct mp_session *s = d->priv;
	int r = mp_session_take(d, di, err);

	if (r)
		return r;
	return mpc_v3_sample_dump(&d->desc, s->buf, s->size, buf, len, di, err);
}

static int mp_session_sample64(struct mpc_dev *d, const void **sample, size_t *size,
			       struct mpc_dump_info *di, struct mpc_err *err)
{
	struct mp_session *s = d->priv;
	int r;

	*sample = NULL;
	if (!mp_uses_v3(d))
		return 0;
	r = mp_session_take(d, di, err);
	if (r)
		return r;
	*sample = s->buf;
	*size = s->size;
	return 0;
}


/*
 * The sampling stream: on revision 3 a ring session (the kernel samples
 * every period into the session's ring, read() hands out whole 64-bit
 * samples, a full ring is reported in-band: MALI_PERFCNT_DATA_OVERFLOW and
 * the header's lost), else, and for periods past a session's 1 s, the v2
 * stream's fd and the records read but not handed out.
 */
struct mp_stream {
	int v3;
	struct mpc_v3_ring ring;
	int fd;
	uint32_t record_size;
	size_t len, off, cap;
	unsigned char *buf;
};

/* a stream of @period_ns is a ring session */
static int mp_stream_v3(const struct mpc_dev *d, uint64_t period_ns)
{
	return mp_uses_v3(d) && period_ns && period_ns <= MALI_PERFCNT_SESSION_WATCHDOG_NS;
}

static const char *mp_stream_kind(const struct mpc_dev *d, uint64_t period_ns)
{
	const struct mp_stream *s = d->streaming ? d->priv : NULL;

	if (s ? s->v3 : mp_stream_v3(d, period_ns))
		return "v3 session";
	return "v2 stream";
}

static int mp_ring_start(struct mpc_dev *d, struct mp_stream *s, const struct mpc_enable *cfg,
			 uint64_t period_ns, unsigned ring, struct mpc_err *err)
{
	struct drm_mali_perfcnt_ext_set_property p[MPC_V3_RING_PROPS];
	struct drm_mali_perfcnt_session_open o;
	struct drm_mali_perfcnt_get_info_v3 gi;
	int fd, x;

	memset(&gi, 0, sizeof(gi));
	if (drmIoctl(d->fd, DRM_IOCTL_MALI_PERFCNT_GET_INFO_V3, &gi)) {
		x = errno;
		return mpc_fail(err, -x, "GET_INFO_V3 failed on %s: %s; run with "
				"MPC_FORCE_UAPI_V2=1 to use the v2 stream", d->path, strerror(x));
	}
	if (ring > MALI_PERFCNT_SESSION_MAX_RING_SAMPLES)
		ring = MALI_PERFCNT_SESSION_MAX_RING_SAMPLES;
	if (ring < 2)
		ring = 2;
	mpc_v3_ring_args(cfg, period_ns, ring, &o, p);
	fd = drmIoctl(d->fd, DRM_IOCTL_MALI_PERFCNT_SESSION_OPEN, &o);
	if (fd < 0) {
		x = errno;
		if (x == EINVAL && !(cfg && cfg->counter_set && d->desc.nr_counter_sets < 2))
			return mpc_fail(err, -x, "the driver refused the ring session (period %llu ns, "
					"ring %u): periods are %.10g ms (unprivileged: sysctl "
					"dev.mali_perfcnt.session_min_period_unpriv_us) to %.10g s, "
					"rings 2 to %u samples", (unsigned long long)period_ns, ring,
					MALI_PERFCNT_STREAM_MIN_PERIOD_NS / 1e6,
					MALI_PERFCNT_SESSION_WATCHDOG_NS / 1e9,
					MALI_PERFCNT_SESSION_MAX_RING_SAMPLES);
		return enable_error(d, cfg, x, err);
	}
	if (mpc_v3_ring_init(&s->ring, fd, gi.sample_size))
		return mpc_fail(err, -ENOMEM, "out of memory");
	s->v3 = 1;
	return 0;
}

static int mp_stream_start(struct mpc_dev *d, const struct mpc_enable *cfg, uint64_t period_ns,
			   unsigned ring, struct mpc_err *err)
{
	struct drm_mali_perfcnt_stream_open o;
	struct mp_stream *s;

	if (d->priv)
		return mpc_fail(err, -EBUSY, "the counters of %s are enabled by this process: "
				"disable them before streaming", d->path);
	s = calloc(1, sizeof(*s));
	if (!s)
		return mpc_fail(err, -ENOMEM, "out of memory");
	if (mp_stream_v3(d, period_ns)) {
		int r = mp_ring_start(d, s, cfg, period_ns, ring, err);

		if (r) {
			free(s);
			return r;
		}
		d->priv = s;
		return 0;
	}
	memset(&o, 0, sizeof(o));
	o.period_ns = period_ns;
	o.ring_records = ring;
	o.flags = MALI_PERFCNT_STREAM_F_CLOEXEC;
	if (cfg) {
		o.counter_set = cfg->counter_set;
		if (cfg->use_masks) {
			o.flags |= MALI_PERFCNT_STREAM_F_MASKS;
			o.jm_mask = cfg->jm;
			o.tiler_mask = cfg->tiler;
			o.shader_mask = cfg->shader;
			o.mmu_l2_mask = cfg->l2;
		}
	}
	if (drmIoctl(d->fd, DRM_IOCTL_MALI_PERFCNT_STREAM_OPEN, &o)) {
		int x = errno;

		free(s);
		if (x == EINVAL && !(cfg && cfg->counter_set && d->desc.nr_counter_sets < 2))
			return mpc_fail(err, -x, "the driver refused the stream (period %llu ns, ring "
					"%u): periods are %.10g ms (%.10g ms unprivileged) to %.10g s, "
					"rings 2 to %u records", (unsigned long long)period_ns, ring,
					MALI_PERFCNT_STREAM_MIN_PERIOD_NS / 1e6,
					MALI_PERFCNT_STREAM_MIN_PERIOD_UNPRIV_NS / 1e6,
					MALI_PERFCNT_STREAM_MAX_PERIOD_NS / 1e9,
					MALI_PERFCNT_STREAM_MAX_RECORDS);
		return enable_error(d, cfg, x, err);
	}
	s->fd = o.fd;
	s->record_size = o.record_size;
	s->cap = (size_t)o.record_size * 16;
	s->buf = malloc(s->cap);
	if (!s->buf) {
		close(s->fd);
		free(s);
		return mpc_fail(err, -ENOMEM, "out of memory");
	}
	d->priv = s;
	return 0;
}

/* Why reading the stream (@v3: the ring session) failed with @x */
static int mp_read_error(const struct mpc_dev *d, int x, int v3, struct mpc_err *err)
{
	switch (v3 || x == EINTR || x == ENODEV ? x : 0) {
	case EINTR:
		return -EINTR;
	case ENODEV:
		return mpc_fail(err, -x, "the sampling stream of %s ended: the device went away "
				"or the GPU could not be recovered (see dmesg)", d->path);
	case EIO:
		return mpc_fail(err, -x, "the sampling stream of %s ended: the GPU could not be "
				"recovered after a failed sample (see dmesg); run the command again",
				d->path);
	case ENODATA:
		return mpc_fail(err, -x, "the ring session of %s was stopped and is drained "
				"(were the counters released by a GPU reset?); run the command "
				"again", d->path);
	default:
		return mpc_fail(err, -x, "reading the sampling stream of %s failed: %s", d->path,
				strerror(x));
	}
}

/* The next sample of a ring session, its record in @rec */
static int mp_ring_next(struct mpc_dev *d, const void **sample, size_t *size,
			struct mpc_record *rec, struct mpc_err *err)
{
	struct mp_stream *s = d->priv;
	int r = mpc_v3_ring_next(&s->ring, sample, size, err);

	if (r == -EPROTO)
		return r;
	if (r)
		return mp_read_error(d, -r, 1, err);
	mpc_v3_ring_record(*sample, rec);
	return 0;
}

static int mp_stream_next(struct mpc_dev *d, void *buf, size_t len, struct mpc_record *rec,
			  struct mpc_err *err)
{
	struct mp_stream *s = d->priv;
	const struct drm_mali_perfcnt_record *r;

	if (s->v3) {
		const void *sample;
		uint32_t flags;
		size_t size;
		int x = mp_ring_next(d, &sample, &size, rec, err);

		if (x)
			return x;
		/* a dump's 32-bit words: a sum past them clamped, SATURATED */
		x = mpc_v3_to_dump(&d->desc, sample, size, buf, len, &flags, err);
		if (!x)
			rec->data_flags = mpc_v3_data_flags(sample, size, flags);
		return x;
	}
	if (s->off >= s->len) {
		ssize_t n = read(s->fd, s->buf, s->cap);

		if (n < 0)
			return mp_read_error(d, errno, 0, err);
		s->len = (size_t)n;
		s->off = 0;
	}
	r = (const void *)(s->buf + s->off);
	if (s->len - s->off < sizeof(*r) || r->size < sizeof(*r) || r->size > s->len - s->off ||
	    r->header_size < sizeof(*r) || (r->type == MALI_PERFCNT_RECORD_SAMPLE &&
					      r->size - r->header_size < d->desc.dump_size))
		return mpc_fail(err, -EPROTO, "a malformed record in the sampling stream of %s; the "
				"driver and this tool do not match", d->path);
	memset(rec, 0, sizeof(*rec));
	rec->type = r->type;
	rec->data_flags = mpc_data_flags_from_uapi(r->data_flags);
	rec->error = r->error;
	rec->seqno = r->seqno;
	rec->start_ns = r->start_ns;
	rec->end_ns = r->end_ns;
	rec->lost = r->lost;
	if (r->type == MALI_PERFCNT_RECORD_SAMPLE)
		memcpy(buf, (const unsigned char *)r + r->header_size,
		       len < d->desc.dump_size ? len : d->desc.dump_size);
	s->off += r->size;
	return 0;
}

static int mp_stream_next64(struct mpc_dev *d, void *buf, size_t len, const void **sample,
			    size_t *size, struct mpc_record *rec, struct mpc_err *err)
{
	struct mp_stream *s = d->priv;

	*sample = NULL;
	if (!s->v3)
		return mp_stream_next(d, buf, len, rec, err);
	return mp_ring_next(d, sample, size, rec, err);
}

static int mp_stream_stop(struct mpc_dev *d, struct mpc_err *err)
{
	struct mp_stream *s = d->priv;

	(void)err;
	if (!s)
		return 0;
	if (s->v3)
		mpc_v3_ring_fini(&s->ring);
	else
		close(s->fd);
	free(s->buf);
	free(s);
	d->priv = NULL;
	return 0;
}

static void mp_close(struct mpc_dev *d)
{
	if (d->priv && !d->streaming && mp_uses_v3(d))
		mp_session_close(d);
	if (d->fd >= 0)
		close(d->fd);
	d->fd = -1;
}

const struct mpc_backend_ops mpc_be_mali_perfcnt = {
	.name = "mali_perfcnt",
	.driver = DRIVER_NAME,
	.enumerate = mp_enumerate,
	.open = mp_open,
	.enable = mp_enable,
	.sample = mp_sample,
	.session_sample = mp_session_sample64,
	.disable = mp_disable,
	.stream_start = mp_stream_start,
	.stream_next = mp_stream_next,
	.stream_next64 = mp_stream_next64,
	.stream_kind = mp_stream_kind,
	.stream_stop = mp_stream_stop,
	.close = mp_close,
	.load = mp_load,
	.none = mp_none,
};
