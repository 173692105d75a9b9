/* SPDX-License-Identifier: MIT */
/*
 * The backend layer of libmaliperfcnt: one struct of operations per kernel
 * interface that can sample the counters (mali_perfcnt, upstream panfrost;
 * later Arm kbase's /dev/mali0 or panthor). Nothing here assumes a DRM
 * device: a backend lists the paths it would drive and opens them itself.
 * Not installed.
 */
#ifndef MPC_BACKEND_H
#define MPC_BACKEND_H

#include <time.h>

#include "mpc_internal.h"

#define MPC_MAX_CANDS 64

/* struct mpc_cands - device paths found by the backends' enumerate(). */
struct mpc_cands {
	unsigned n;
	struct {
		char path[256];
		const struct mpc_backend_ops *ops;
	} c[MPC_MAX_CANDS];
	char denied[256];		/* first node we could not open (EACCES) */
};

struct mpc_dev {
	const struct mpc_backend_ops *ops;
	void *priv;			/* the backend's state */
	int fd;				/* -1 if the backend has no single fd */
	int enabled;
	int streaming;			/* a stream_start()ed stream is open */
	char path[256];
	char driver[64];		/* kernel driver and version, "" if unknown */
	char debugfs[256];		/* "" if none */
	struct mpc_desc desc;
	struct mpc_backend_info info;
	void *dump;			/* mpc_dev_sample_add()'s dump buffer, or NULL */
	/*
	 * the power states (enum mpc_power_state, per dump slot: desc.nr_blocks)
	 * of the dump the backend's sample() or stream_next() just wrote, for
	 * mpc_dev_sample_add() and mpc_dev_stream_next_add(); valid when the
	 * backend set power_valid (cleared before each call). The backend
	 * allocates it, mpc_dev_close() frees it.
	 */
	uint8_t *power;
	int power_valid;
};

struct mpc_backend_ops {
	const char *name;		/* --backend NAME */
	const char *driver;		/* the kernel driver it talks to */
	/* append the paths of the devices this backend would drive */
	void (*enumerate)(struct mpc_cands *c);
	/*
	 * Open @path and fill d->desc, d->info, d->driver (and d->fd if it
	 * has one). -ENODEV when @path is not one of this backend's devices;
	 * then @err names what it is.
	 */
	int (*open)(struct mpc_dev *d, const char *path, unsigned flags, struct mpc_err *err);
	/*
	 * Optional: 0 when the counters could be enabled as far as can be
	 * told without taking them, else the error ENABLE would give.
	 */
	int (*usable)(struct mpc_dev *d, struct mpc_err *err);
	int (*enable)(struct mpc_dev *d, const struct mpc_enable *cfg, struct mpc_err *err);
	/* one sample into @buf (d->desc.dump_size bytes) */
	int (*sample)(struct mpc_dev *d, void *buf, size_t len, struct mpc_dump_info *di,
		      struct mpc_err *err);
	/*
	 * optional: one uAPI revision 3 session sample, 64-bit values, in a
	 * buffer of the backend's (*@sample, *@size bytes, valid until the next
	 * call), its di->start_ns and end_ns set; *@sample NULL when this
	 * device's counters are not read through a session (then sample())
	 */
	int (*session_sample)(struct mpc_dev *d, const void **sample, size_t *size,
			      struct mpc_dump_info *di, struct mpc_err *err);
	int (*disable)(struct mpc_dev *d, struct mpc_err *err);
	/* optional, with MPC_BE_PERIODIC: kernel-timed sampling */
	int (*stream_start)(struct mpc_dev *d, const struct mpc_enable *cfg, uint64_t period_ns,
			    unsigned ring, struct mpc_err *err);
	int (*stream_next)(struct mpc_dev *d, void *buf, size_t len, struct mpc_record *rec,
			   struct mpc_err *err);
	/*
	 * optional: the next SAMPLE record as a uAPI revision 3 session sample
	 * (*@sample, *@size bytes, the backend's, valid until the next call),
	 * or, *@sample NULL, any record as stream_next() gives it into @buf
	 */
	int (*stream_next64)(struct mpc_dev *d, void *buf, size_t len, const void **sample,
			     size_t *size, struct mpc_record *rec, struct mpc_err *err);
	/* optional: mpc_dev_stream_kind() */
	const char *(*stream_kind)(const struct mpc_dev *d, uint64_t period_ns);
	int (*stream_stop)(struct mpc_dev *d, struct mpc_err *err);
	void (*close)(struct mpc_dev *d);
	/* optional: nothing found; make a device appear (load a module) */
	int (*load)(unsigned flags, struct mpc_err *err);
	/* optional: the message when no device of this backend exists */
	int (*none)(unsigned flags, struct mpc_err *err);
};

extern const struct mpc_backend_ops mpc_be_mali_perfcnt;
extern const struct mpc_backend_ops mpc_be_panfrost;
extern const struct mpc_backend_ops mpc_be_kbase;

/* DRM helpers shared by the DRM backends (device.c) */
/* add every render node whose DRM driver is @drm_name to @c */
void mpc_drm_enumerate(struct mpc_cands *c, const struct mpc_backend_ops *ops,
		       const char *drm_name);
/* the DRM driver name and version of @fd ("" if not DRM); 1 if it is @want */
int mpc_drm_driver(int fd, const char *want, char *name, size_t n, char *version, size_t vn);
/* the value of the "@key:" line of @d's debugfs gpu_info: 0, or -1 with @out "" */
int mpc_dev_gpu_info_key(const struct mpc_dev *d, const char *key, char *out, size_t n);
/* open @path for a DRM backend, with the usual messages; fd or negative errno */
int mpc_drm_open(const char *path, const char *want, char *version, size_t vn,
		 struct mpc_err *err);

/*
 * devfreq's current rate of the device behind /dev/<node> (@path), found
 * under /sys/class/@class (drm, misc), when the platform has an OPP table;
 * else 0
 */
uint64_t mpc_devfreq_hz(const char *class, const char *path);
/* @d's product name from the database by its GPU_ID, else "Mali (id 0x....)" */
void mpc_desc_name_gpu(struct mpc_desc *d);

static inline uint64_t mpc_now_raw_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

#endif
