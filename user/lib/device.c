// SPDX-License-Identifier: MIT
/*
 * Device access through the backends (backend.h): find the devices every
 * backend knows, choose one (or the one asked for), and forward the
 * enable/sample/disable calls. Also the DRM helpers the DRM backends share:
 * render nodes found with libdrm (drmGetDevices2, then a scan of /dev/dri)
 * and told apart by their DRM driver name.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <xf86drm.h>

#include "backend.h"

static const struct mpc_backend_ops *const backends[] = {
	&mpc_be_mali_perfcnt,
	&mpc_be_panfrost,
	&mpc_be_kbase,
};

unsigned mpc_backend_count(void)
{
	return ARRAY_SIZE(backends);
}

const char *mpc_backend_name(unsigned i)
{
	return i < ARRAY_SIZE(backends) ? backends[i]->name : NULL;
}

/* ------------------------------------------------------------ DRM helpers */

int mpc_drm_driver(int fd, const char *want, char *name, size_t n, char *version, size_t vn)
{
	drmVersionPtr v = drmGetVersion(fd);
	int ok = 0;

	if (name && n)
		name[0] = 0;
	if (version && vn)
		version[0] = 0;
	if (v) {
		if (v->name) {
			ok = want && !strcmp(v->name, want);
			if (name && n)
				snprintf(name, n, "%s", v->name);
		}
		if (version && vn)
			snprintf(version, vn, "%d.%d.%d", v->version_major, v->version_minor,
				 v->version_patchlevel);
		drmFreeVersion(v);
	}
	return ok;
}

static void add_cand(struct mpc_cands *c, const struct mpc_backend_ops *ops, const char *path)
{
	for (unsigned i = 0; i < c->n; i++)
		if (!strcmp(c->c[i].path, path))
			return;
	if (c->n >= MPC_MAX_CANDS)
		return;
	snprintf(c->c[c->n].path, sizeof(c->c[0].path), "%s", path);
	c->c[c->n].ops = ops;
	c->n++;
}

static void try_drm_node(struct mpc_cands *c, const struct mpc_backend_ops *ops,
			 const char *drm_name, const char *path)
{
	int fd = open(path, O_RDWR | O_CLOEXEC);

	if (fd < 0) {
		if ((errno == EACCES || errno == EPERM) && !c->denied[0])
			snprintf(c->denied, sizeof(c->denied), "%s", path);
		return;
	}
	if (mpc_drm_driver(fd, drm_name, NULL, 0, NULL, 0))
		add_cand(c, ops, path);
	close(fd);
}

static int cmpstr(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void mpc_drm_enumerate(struct mpc_cands *c, const struct mpc_backend_ops *ops,
		       const char *drm_name)
{
	drmDevicePtr devs[64];
	char *names[256];
	unsigned cnt = 0;
	struct dirent *e;
	DIR *d;
	int n;

	/* 1. libdrm's device list */
	n = drmGetDevices2(0, devs, 64);
	if (n > 0) {
		for (int i = 0; i < n; i++)
			if (devs[i]->available_nodes & (1 << DRM_NODE_RENDER))
				try_drm_node(c, ops, drm_name, devs[i]->nodes[DRM_NODE_RENDER]);
		drmFreeDevices(devs, n);
	}
	/*
	 * 2. drmGetDevices2 skips devices it cannot classify (a platform device
	 * without an OF node, as the simulator is on x86): scan the nodes.
	 */
	d = opendir("/dev/dri");
	if (!d)
		return;
	while ((e = readdir(d)) && cnt < 256)
		if (!strncmp(e->d_name, "renderD", 7))
			names[cnt++] = strdup(e->d_name);
	closedir(d);
	qsort(names, cnt, sizeof(names[0]), cmpstr);
	for (unsigned i = 0; i < cnt; i++) {
		char p[300];

		if (names[i]) {
			snprintf(p, sizeof(p), "/dev/dri/%s", names[i]);
			try_drm_node(c, ops, drm_name, p);
		}
		free(names[i]);
	}
}

int mpc_drm_open(const char *path, const char *want, char *version, size_t vn,
		 struct mpc_err *err)
{
	char drv[64];
	int fd = open(path, O_RDWR | O_CLOEXEC);

	if (fd < 0) {
		int e = errno;

		if (e == EACCES || e == EPERM)
			return mpc_fail(err, -e, "cannot open %s: %s; add your user to the group "
					"owning it (usually 'render') or run as root", path,
					strerror(e));
		return mpc_fail(err, -e, "cannot open %s: %s; give a /dev/dri/renderD* node of "
				"a Mali GPU, or omit --device", path, strerror(e));
	}
	if (!mpc_drm_driver(fd, want, drv, sizeof(drv), version, vn)) {
		close(fd);
		if (!drv[0])
			return mpc_fail(err, -ENODEV, "%s is not a DRM device; give a render node "
					"(/dev/dri/renderD*) or omit --device", path);
		return mpc_fail(err, -ENODEV, "%s is driven by '%s', not %s", path, drv, want);
	}
	return fd;
}

/* ------------------------------------------------------------- selection */

static const struct mpc_backend_ops *find_backend(const char *name)
{
	for (unsigned i = 0; i < ARRAY_SIZE(backends); i++)
		if (!strcmp(backends[i]->name, name))
			return backends[i];
	return NULL;
}

static int open_with(const struct mpc_backend_ops *ops, const char *path, unsigned flags,
		     struct mpc_dev **out, struct mpc_err *err)
{
	struct mpc_dev *d = calloc(1, sizeof(*d));
	int r;

	*out = NULL;
	if (!d)
		return mpc_fail(err, -ENOMEM, "out of memory");
	d->fd = -1;
	d->ops = ops;
	snprintf(d->path, sizeof(d->path), "%s", path);
	d->info.name = ops->name;
	d->info.driver = ops->driver;
	r = ops->open(d, path, flags, err);
	if (r) {
		free(d);
		return r;
	}
	*out = d;
	return 0;
}

static int cmpcand(const void *a, const void *b)
{
	return strcmp(((const char *)a), ((const char *)b));
}

static int names_list(char *buf, size_t n, const struct mpc_backend_ops *only)
{
	size_t k = 0;

	buf[0] = 0;
	for (unsigned i = 0; i < ARRAY_SIZE(backends) && k < n; i++)
		if (!only || only == backends[i])
			k += (size_t)snprintf(buf + k, n - k, "%s%s", k ? " or " : "",
					      backends[i]->driver);
	return 0;
}

static int search(const struct mpc_backend_ops *only, unsigned flags, struct mpc_dev **out,
		  struct mpc_err *err, int *found_any, char *denied, size_t dn)
{
	struct mpc_cands *c = calloc(1, sizeof(*c));
	struct mpc_dev *first = NULL;
	struct mpc_err first_err = { 0, "" };
	int r = -ENODEV;

	if (!c)
		return mpc_fail(err, -ENOMEM, "out of memory");
	for (unsigned i = 0; i < ARRAY_SIZE(backends); i++)
		if (!only || only == backends[i])
			backends[i]->enumerate(c);
	/* path order across backends: the first node of either kind wins */
	qsort(c->c, c->n, sizeof(c->c[0]), cmpcand);
	*found_any = c->n > 0;
	if (denied && dn)
		snprintf(denied, dn, "%s", c->denied);
	for (unsigned i = 0; i < c->n; i++) {
		struct mpc_dev *d;
		struct mpc_err e;

		if (open_with(c->c[i].ops, c->c[i].path, flags, &d, &e)) {
			if (!first && !first_err.msg[0])
				first_err = e;
			continue;
		}
		if (!d->ops->usable || !d->ops->usable(d, &e)) {
			mpc_dev_close(first);
			*out = d;
			free(c);
			return 0;
		}
		if (!first)
			first = d;	/* kept: if nothing better, ENABLE will say why */
		else
			mpc_dev_close(d);
	}
	free(c);
	if (first) {
		*out = first;
		return 0;
	}
	if (first_err.msg[0]) {
		if (err)
			*err = first_err;
		return first_err.code;
	}
	return r;
}

int mpc_dev_open_backend(const char *backend, const char *path, unsigned flags,
			 struct mpc_dev **out, struct mpc_err *err)
{
	const struct mpc_backend_ops *only = NULL;
	char denied[256] = "", names[128];
	int any = 0, r;

	*out = NULL;
	if (backend) {
		only = find_backend(backend);
		if (!only) {
			char all[128];
			size_t k = 0;

			for (unsigned i = 0; i < ARRAY_SIZE(backends); i++)
				k += (size_t)snprintf(all + k, sizeof(all) - k, "%s%s", i ? ", " : "",
						      backends[i]->name);
			return mpc_fail(err, -EINVAL, "unknown backend '%s'; use one of %s", backend, all);
		}
	}
	if (path) {
		struct mpc_err e = { 0, "" };
		char drv[64] = "";

		for (unsigned i = 0; i < ARRAY_SIZE(backends); i++) {
			if (only && only != backends[i])
				continue;
			r = open_with(backends[i], path, flags, out, &e);
			if (r != -ENODEV)
				return r ? mpc_fail(err, r, "%s", e.msg) : 0;
		}
		/* the one backend asked for says best what it expected */
		if (only && e.msg[0])
			return mpc_fail(err, -ENODEV, "%s", e.msg);
		/* no backend drives it: say what it is */
		{
			int fd = open(path, O_RDWR | O_CLOEXEC);

			if (fd >= 0) {
				mpc_drm_driver(fd, NULL, drv, sizeof(drv), NULL, 0);
				close(fd);
			}
		}
		names_list(names, sizeof(names), only);
		if (!drv[0])
			return mpc_fail(err, -ENODEV, "%s is not a DRM device; give the render node "
					"(/dev/dri/renderD*) of %s, or omit --device", path, names);
		return mpc_fail(err, -ENODEV, "%s is driven by '%s', not %s; give the render node of "
				"%s, or omit --device", path, drv, names, names);
	}
	r = search(only, flags, out, err, &any, denied, sizeof(denied));
	if (!r || any)
		return r;
	if (denied[0])
		return mpc_fail(err, -EACCES, "cannot open %s (permission denied), so cannot look "
				"for the Mali GPU; add your user to the 'render' group or run "
				"as root", denied);
	/* nothing at all: a backend may make a device appear (our module) */
	for (unsigned i = 0; i < ARRAY_SIZE(backends); i++) {
		const struct mpc_backend_ops *b = backends[i];

		if ((only && only != b) || !b->load)
			continue;
		r = b->load(flags, err);
		if (r)
			return r;
		/* the node appears asynchronously (devtmpfs/udev) */
		for (int k = 0; k < 40; k++) {
			struct timespec ts = { 0, 50 * 1000 * 1000 };

			r = search(b, flags, out, err, &any, NULL, 0);
			if (!r || any)
				return r;
			nanosleep(&ts, NULL);
		}
		return b->none ? b->none(flags, err) : mpc_fail(err, -ENODEV, "no %s device", b->name);
	}
	names_list(names, sizeof(names), only);
	if (only && only->none)
		return only->none(flags, err);
	return mpc_fail(err, -ENODEV, "no GPU of %s found", names);
}

int mpc_dev_open(const char *path, unsigned flags, struct mpc_dev **out, struct mpc_err *err)
{
	return mpc_dev_open_backend(NULL, path, flags, out, err);
}

void mpc_dev_close(struct mpc_dev *d)
{
	if (!d)
		return;
	if (d->enabled)
		mpc_dev_disable(d, NULL);
	mpc_dev_stream_stop(d, NULL);
	d->ops->close(d);
	free(d->dump);
	free(d->power);
	free(d);
}

const char *mpc_dev_path(const struct mpc_dev *d)
{
	return d->path;
}

int mpc_dev_fd(const struct mpc_dev *d)
{
	return d->fd;
}

const struct mpc_desc *mpc_dev_desc(const struct mpc_dev *d)
{
	return &d->desc;
}

const struct mpc_backend_info *mpc_dev_backend(const struct mpc_dev *d)
{
	return &d->info;
}

const char *mpc_dev_driver(const struct mpc_dev *d)
{
	return d->driver;
}

const char *mpc_dev_debugfs(const struct mpc_dev *d)
{
	return d->debugfs[0] ? d->debugfs : NULL;
}

/* The value of the "@key:" line of debugfs gpu_info; 0, or -1 (out = ""). */
int mpc_dev_gpu_info_key(const struct mpc_dev *d, const char *key, char *out, size_t n)
{
	char p[300], line[100];
	size_t kl = strlen(key);
	int r = -1;
	FILE *f;

	out[0] = 0;
	if (!d->debugfs[0])
		return -1;
	snprintf(p, sizeof(p), "%s/gpu_info", d->debugfs);
	f = fopen(p, "re");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, key, kl) && line[kl] == ':') {
			char *v = line + kl + 1;

			while (*v == ' ')
				v++;
			v[strcspn(v, "\n")] = 0;
			snprintf(out, n, "%s", v);
			r = 0;
			break;
		}
	fclose(f);
	return r;
}

/* Who holds the counters, from the owner: line of debugfs gpu_info. */
void mpc_dev_owner(const struct mpc_dev *d, char *out, size_t n)
{
	mpc_dev_gpu_info_key(d, "owner", out, n);
}

int mpc_dev_usable(struct mpc_dev *d, struct mpc_err *err)
{
	return d->ops->usable ? d->ops->usable(d, err) : 0;
}

int mpc_dev_enable(struct mpc_dev *d, const struct mpc_enable *cfg, struct mpc_err *err)
{
	int r;

	if (cfg && cfg->use_masks && !(d->info.caps & MPC_BE_BLOCK_MASKS))
		return mpc_fail(err, -EOPNOTSUPP, "%s enables every counter of the set: it has no "
				"per-block masks; drop --masks (or bind mali_perfcnt)", d->info.name);
	r = d->ops->enable(d, cfg, err);
	if (!r)
		d->enabled = 1;
	return r;
}

int mpc_dev_disable(struct mpc_dev *d, struct mpc_err *err)
{
	d->enabled = 0;
	return d->ops->disable(d, err);
}

int mpc_dev_sample(struct mpc_dev *d, void *buf, size_t len, struct mpc_dump_info *di,
		   struct mpc_err *err)
{
	struct mpc_dump_info tmp;

	if (!di)
		di = &tmp;
	memset(di, 0, sizeof(*di));
	if (len < d->desc.dump_size)
		return mpc_fail(err, -ENOSPC, "a sample of %s is %u bytes, the buffer has %zu",
				d->path, d->desc.dump_size, len);
	return d->ops->sample(d, buf, len, di, err);
}

int mpc_dev_sample_add(struct mpc_dev *d, struct mpc_sample *s, struct mpc_dump_info *di,
		       struct mpc_err *err)
{
	struct mpc_dump_info tmp;
	const void *sample = NULL;
	size_t size = 0;
	int r;

	if (!di)
		di = &tmp;
	memset(di, 0, sizeof(*di));
	if (s->layout->dump_size != d->desc.dump_size ||
	    s->layout->counters_per_block != d->desc.counters_per_block)
		return mpc_fail(err, -EINVAL, "the sample is of another GPU's layout (%u-byte dumps, "
				"%s has %u): make it from mpc_dev_desc()", s->layout->dump_size,
				d->path, d->desc.dump_size);
	if (d->ops->session_sample) {
		r = d->ops->session_sample(d, &sample, &size, di, err);
		if (r)
			return r;
		if (sample)
			return mpc_sample_add_session(s, sample, size, di, err);
	}
	if (!d->dump && !(d->dump = malloc(d->desc.dump_size)))
		return mpc_fail(err, -ENOMEM, "out of memory");
	d->power_valid = 0;
	r = d->ops->sample(d, d->dump, d->desc.dump_size, di, err);
	if (r)
		return r;
	return mpc_sample_add_power(s, d->dump, d->desc.dump_size, di,
				    d->power_valid ? d->power : NULL, err);
}

int mpc_dev_stream_start(struct mpc_dev *d, const struct mpc_enable *cfg, uint64_t period_ns,
			 unsigned ring, struct mpc_err *err)
{
	int r;

	if (!(d->info.caps & MPC_BE_PERIODIC) || !d->ops->stream_start)
		return mpc_fail(err, -EOPNOTSUPP, "%s cannot sample periodically in the kernel; "
				"sample from the tool instead", d->info.name);
	if (cfg && cfg->use_masks && !(d->info.caps & MPC_BE_BLOCK_MASKS))
		return mpc_fail(err, -EOPNOTSUPP, "%s has no per-block masks; drop --masks",
				d->info.name);
	r = d->ops->stream_start(d, cfg, period_ns, ring, err);
	if (!r)
		d->streaming = 1;
	return r;
}

int mpc_dev_stream_next(struct mpc_dev *d, void *buf, size_t len, struct mpc_record *rec,
			struct mpc_err *err)
{
	if (!d->streaming)
		return mpc_fail(err, -EINVAL, "no stream was started on %s", d->path);
	if (len < d->desc.dump_size)
		return mpc_fail(err, -ENOSPC, "a sample of %s is %u bytes, the buffer has %zu",
				d->path, d->desc.dump_size, len);
	return d->ops->stream_next(d, buf, len, rec, err);
}

int mpc_dev_stream_next_add(struct mpc_dev *d, struct mpc_sample *s, struct mpc_record *rec,
			    struct mpc_err *err)
{
	const void *sample = NULL;
	struct mpc_dump_info di;
	size_t size = 0;
	int r;

	if (!d->streaming)
		return mpc_fail(err, -EINVAL, "no stream was started on %s: call "
				"mpc_dev_stream_start() first", d->path);
	if (s->layout->dump_size != d->desc.dump_size ||
	    s->layout->counters_per_block != d->desc.counters_per_block)
		return mpc_fail(err, -EINVAL, "the sample is of another GPU's layout (%u-byte dumps, "
				"%s has %u): make it from mpc_dev_desc()", s->layout->dump_size,
				d->path, d->desc.dump_size);
	if (!d->dump && !(d->dump = malloc(d->desc.dump_size)))
		return mpc_fail(err, -ENOMEM, "out of memory");
	d->power_valid = 0;
	if (d->ops->stream_next64)
		r = d->ops->stream_next64(d, d->dump, d->desc.dump_size, &sample, &size, rec, err);
	else
		r = d->ops->stream_next(d, d->dump, d->desc.dump_size, rec, err);
	if (r || rec->type != MPC_REC_SAMPLE)
		return r;
	memset(&di, 0, sizeof(di));
	di.seqno = rec->seqno;
	di.timestamp_ns = rec->end_ns;
	di.start_ns = rec->start_ns;
	di.end_ns = rec->end_ns;
	di.interval_start_ns = rec->start_ns;
	di.flags = rec->data_flags;
	if (sample)
		return mpc_sample_add_session(s, sample, size, NULL, err);
	return mpc_sample_add_power(s, d->dump, d->desc.dump_size, &di,
				    d->power_valid ? d->power : NULL, err);
}

const char *mpc_dev_stream_kind(const struct mpc_dev *d, uint64_t period_ns)
{
	if (!(d->info.caps & MPC_BE_PERIODIC) || !d->ops->stream_start)
		return NULL;
	if (d->ops->stream_kind)
		return d->ops->stream_kind(d, period_ns);
	return d->info.interface ? d->info.interface : d->info.name;
}

int mpc_dev_stream_stop(struct mpc_dev *d, struct mpc_err *err)
{
	if (!d->streaming)
		return 0;
	d->streaming = 0;
	return d->ops->stream_stop(d, err);
}

int mpc_dev_dump(struct mpc_dev *d, void *buf, size_t len, uint64_t *seqno,
		 uint64_t *timestamp_ns, struct mpc_err *err)
{
	struct mpc_dump_info di;
	int r = mpc_dev_sample(d, buf, len, &di, err);

	if (r)
		return r;
	if (seqno)
		*seqno = di.seqno;
	if (timestamp_ns)
		*timestamp_ns = di.timestamp_ns;
	return 0;
}

uint64_t mpc_devfreq_hz(const char *class, const char *path)
{
	const char *base = strrchr(path, '/');
	char dir[300];
	uint64_t hz = 0;
	struct dirent *e;
	DIR *d;

	snprintf(dir, sizeof(dir), "/sys/class/%s/%s/device/devfreq", class,
		 base ? base + 1 : path);
	d = opendir(dir);
	if (!d)
		return 0;
	while (!hz && (e = readdir(d))) {
		char p[600];
		unsigned long long v;
		FILE *f;

		if (e->d_name[0] == '.')
			continue;
		snprintf(p, sizeof(p), "%s/%s/cur_freq", dir, e->d_name);
		f = fopen(p, "re");
		if (f) {
			if (fscanf(f, "%llu", &v) == 1)
				hz = v;
			fclose(f);
		}
	}
	closedir(d);
	return hz;
}

void mpc_desc_name_gpu(struct mpc_desc *d)
{
	struct mpc_db *db;
	const struct mpc_gpu_def *g = NULL;

	if (!mpc_db_new_builtin(&db, NULL)) {
		g = mpc_db_match_gpu_id(db, d->gpu_id);
		if (g)
			snprintf(d->product, sizeof(d->product), "%s", g->name);
		mpc_db_free(db);
	}
	if (!g)
		snprintf(d->product, sizeof(d->product), "Mali (id 0x%04x)", d->gpu_id >> 16);
}
