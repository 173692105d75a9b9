// SPDX-License-Identifier: MIT
/*
 * Device access: find the mali_perfcnt render node (libdrm, then a scan of
 * /dev/dri), load the module with libkmod when allowed, and wrap the ioctls
 * with errors that say how to fix the problem.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <libkmod.h>
#include <xf86drm.h>

#include "mpc_internal.h"
#include "mali_perfcnt_drm.h"

#define DRIVER_NAME "mali_perfcnt"

struct mpc_dev {
	int fd;
	int enabled;
	char path[256];
	char debugfs[256];
	struct mpc_desc desc;
};

static int is_ours(int fd, char *drv, size_t n)
{
	drmVersionPtr v = drmGetVersion(fd);
	int ok = 0;

	if (drv && n)
		drv[0] = 0;
	if (v) {
		if (v->name) {
			ok = !strcmp(v->name, DRIVER_NAME);
			if (drv)
				snprintf(drv, n, "%s", v->name);
		}
		drmFreeVersion(v);
	}
	return ok;
}

struct search {
	char path[256];
	int fd;
	int denied;
	char denied_path[256];
};

static int try_node(struct search *s, const char *path)
{
	int fd = open(path, O_RDWR | O_CLOEXEC);

	if (fd < 0) {
		if ((errno == EACCES || errno == EPERM) && !s->denied) {
			s->denied = 1;
			snprintf(s->denied_path, sizeof(s->denied_path), "%s", path);
		}
		return 0;
	}
	if (!is_ours(fd, NULL, 0)) {
		close(fd);
		return 0;
	}
	s->fd = fd;
	snprintf(s->path, sizeof(s->path), "%s", path);
	return 1;
}

static int cmpstr(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int search(struct search *s)
{
	drmDevicePtr devs[64];
	int n;
	DIR *d;

	s->fd = -1;
	/* 1. libdrm's device list */
	n = drmGetDevices2(0, devs, 64);
	if (n > 0) {
		int found = 0;

		for (int i = 0; i < n && !found; i++)
			if (devs[i]->available_nodes & (1 << DRM_NODE_RENDER))
				found = try_node(s, devs[i]->nodes[DRM_NODE_RENDER]);
		drmFreeDevices(devs, n);
		if (found)
			return 1;
	}
	/*
	 * 2. drmGetDevices2 skips devices it cannot classify (a platform device
	 * without an OF node, as the simulator is on x86): scan the nodes.
	 */
	d = opendir("/dev/dri");
	if (d) {
		struct dirent *e;
		char *names[256];
		unsigned cnt = 0;
		int found = 0;

		while ((e = readdir(d)) && cnt < 256)
			if (!strncmp(e->d_name, "renderD", 7))
				names[cnt++] = strdup(e->d_name);
		closedir(d);
		qsort(names, cnt, sizeof(names[0]), cmpstr);
		for (unsigned i = 0; i < cnt; i++) {
			char p[300];

			if (names[i] && !found) {
				snprintf(p, sizeof(p), "/dev/dri/%s", names[i]);
				found = try_node(s, p);
			}
			free(names[i]);
		}
		if (found)
			return 1;
	}
	return 0;
}

static int module_loaded(void)
{
	return access("/sys/module/" DRIVER_NAME, F_OK) == 0;
}

static int load_module(struct mpc_err *err)
{
	struct kmod_ctx *ctx = kmod_new(NULL, NULL);
	struct kmod_module *mod = NULL;
	int r;

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

int mpc_dev_open(const char *path, unsigned flags, struct mpc_dev **out, struct mpc_err *err)
{
	struct drm_mali_perfcnt_get_info info;
	struct search s = { .fd = -1 };
	struct mpc_dev *d;
	int r;

	*out = NULL;
	if (path) {
		char drv[64];

		s.fd = open(path, O_RDWR | O_CLOEXEC);
		if (s.fd < 0) {
			int e = errno;

			if (e == EACCES || e == EPERM)
				return mpc_fail(err, -e, "cannot open %s: %s; add your user to the group "
						"owning it (usually 'render') or run as root", path,
						strerror(e));
			return mpc_fail(err, -e, "cannot open %s: %s; give a /dev/dri/renderD* node of "
					"the mali_perfcnt driver, or omit --device", path, strerror(e));
		}
		if (!is_ours(s.fd, drv, sizeof(drv))) {
			close(s.fd);
			if (!drv[0])
				return mpc_fail(err, -ENODEV, "%s is not a DRM device; give the mali_perfcnt "
						"render node (/dev/dri/renderD*) or omit --device", path);
			return mpc_fail(err, -ENODEV, "%s is driven by '%s', not mali_perfcnt; give the "
					"mali_perfcnt render node or omit --device", path, drv);
		}
		snprintf(s.path, sizeof(s.path), "%s", path);
	} else if (!search(&s)) {
		if (s.denied)
			return mpc_fail(err, -EACCES, "cannot open %s (permission denied), so cannot look "
					"for the mali_perfcnt GPU; add your user to the 'render' "
					"group or run as root", s.denied_path);
		if (module_loaded())
			return mpc_fail(err, -ENODEV, "the mali_perfcnt module is loaded but no GPU is bound "
					"to it: on a board check the device tree and that panfrost "
					"does not own the GPU; for the simulator reload the module "
					"with sim=<gpu> (e.g. sim=g52)");
		if (flags & MPC_OPEN_NO_LOAD)
			return mpc_fail(err, -ENODEV, "no mali_perfcnt GPU found: the module is not loaded; "
					"run 'modprobe mali_perfcnt' (sim=g52 for the simulator) "
					"or drop --no-load to let this tool load it");
		r = load_module(err);
		if (r)
			return r;
		/* the node appears asynchronously (devtmpfs/udev) */
		for (int i = 0; i < 40 && !search(&s); i++) {
			struct timespec ts = { 0, 50 * 1000 * 1000 };

			nanosleep(&ts, NULL);
		}
		if (s.fd < 0)
			return mpc_fail(err, -ENODEV, "the mali_perfcnt module was loaded but no GPU is "
					"bound to it: on a board check the device tree; for the "
					"simulator reload it with sim=<gpu>");
	}
	memset(&info, 0, sizeof(info));
	if (drmIoctl(s.fd, DRM_IOCTL_MALI_PERFCNT_GET_INFO, &info)) {
		int e = errno;

		close(s.fd);
		return mpc_fail(err, -e, "GET_INFO failed on %s: %s; the driver and this tool do not "
				"match (rebuild both from the same tree)", s.path, strerror(e));
	}
	d = calloc(1, sizeof(*d));
	if (!d) {
		close(s.fd);
		return mpc_fail(err, -ENOMEM, "out of memory");
	}
	d->fd = s.fd;
	snprintf(d->path, sizeof(d->path), "%s", s.path);
	r = mpc_desc_from_get_info(&d->desc, &info, err);
	if (r) {
		close(d->fd);
		free(d);
		return r;
	}
	if (mpc_find_debugfs(d->debugfs, sizeof(d->debugfs)))
		d->debugfs[0] = 0;
	*out = d;
	return 0;
}

void mpc_dev_close(struct mpc_dev *d)
{
	if (!d)
		return;
	if (d->enabled)
		mpc_dev_disable(d, NULL);
	close(d->fd);
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

const char *mpc_dev_debugfs(const struct mpc_dev *d)
{
	return d->debugfs[0] ? d->debugfs : NULL;
}

/* Who holds the counters, from the owner: line of debugfs gpu_info. */
void mpc_dev_owner(const struct mpc_dev *d, char *out, size_t n)
{
	char p[300], line[100];
	FILE *f;

	out[0] = 0;
	if (!d->debugfs[0])
		return;
	snprintf(p, sizeof(p), "%s/gpu_info", d->debugfs);
	f = fopen(p, "re");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "owner:", 6)) {
			char *v = line + 6;

			while (*v == ' ')
				v++;
			v[strcspn(v, "\n")] = 0;
			snprintf(out, n, "%s", v);
			break;
		}
	fclose(f);
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

int mpc_dev_enable(struct mpc_dev *d, const struct mpc_enable *cfg, struct mpc_err *err)
{
	struct drm_mali_perfcnt_enable e;

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
	if (drmIoctl(d->fd, DRM_IOCTL_MALI_PERFCNT_ENABLE, &e)) {
		int x = errno;

		switch (x) {
		case EACCES:
		case EPERM:
			return mpc_fail(err, -EACCES, "enabling the counters of %s was refused: they reveal "
					"the GPU activity of every process, so this needs "
					"CAP_PERFMON (run as root, or 'setcap cap_perfmon+ep' on "
					"the tool), or the module loaded with unprivileged=1", d->path);
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
	d->enabled = 1;
	return 0;
}

int mpc_dev_disable(struct mpc_dev *d, struct mpc_err *err)
{
	struct drm_mali_perfcnt_enable e;

	memset(&e, 0, sizeof(e));
	d->enabled = 0;
	if (drmIoctl(d->fd, DRM_IOCTL_MALI_PERFCNT_ENABLE, &e)) {
		int x = errno;

		return mpc_fail(err, -x, "disabling the counters of %s failed: %s", d->path, strerror(x));
	}
	return 0;
}

int mpc_dev_dump(struct mpc_dev *d, void *buf, size_t len, uint64_t *seqno,
		 uint64_t *timestamp_ns, struct mpc_err *err)
{
	struct drm_mali_perfcnt_dump r;

	memset(&r, 0, sizeof(r));
	r.buf_ptr = (uint64_t)(uintptr_t)buf;
	r.buf_size = (uint32_t)len;
	if (drmIoctl(d->fd, DRM_IOCTL_MALI_PERFCNT_DUMP, &r)) {
		int x = errno;

		switch (x) {
		case ETIMEDOUT:
			return mpc_fail(err, -x, "the GPU did not finish the sample in time; the counters "
					"stay enabled, try again (dmesg may say more)");
		case EIO:
			return mpc_fail(err, -x, "the GPU faulted while writing the sample; see dmesg; the "
					"counters stay enabled");
		case EPERM:
			return busy_error(d, err);
		case ENODATA:
			return mpc_fail(err, -x, "the counters are not enabled on %s (were they released "
					"by a GPU reset?); run the command again", d->path);
		case ENOSPC:
			return mpc_fail(err, -x, "the dump needs %u bytes but the buffer has %zu; the "
					"driver and GET_INFO disagree", r.buf_size, len);
		default:
			return mpc_fail(err, -x, "taking a sample on %s failed: %s", d->path, strerror(x));
		}
	}
	if (seqno)
		*seqno = r.seqno;
	if (timestamp_ns)
		*timestamp_ns = r.timestamp_ns;
	return 0;
}
