/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the panfrost counter tests share: ioctls retried on EINTR, the
 * first panfrost render node, GET_PARAM, and a job that outlives panfrost's
 * job timeout (a GPU reset).
 */
#ifndef PF_UTIL_H
#define PF_UTIL_H

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <drm/panfrost_drm.h>

static inline int pf_ioctl(int fd, unsigned long req, void *arg)
{
	int ret;

	do {
		ret = ioctl(fd, req, arg);
	} while (ret == -1 && (errno == EINTR || errno == EAGAIN));
	return ret == -1 ? -errno : ret;
}

/* The first render node whose driver is panfrost, or -1 */
static inline int pf_open(void)
{
	char path[64], name[32];
	struct drm_version v;
	int i, fd;

	for (i = 128; i < 192; i++) {
		snprintf(path, sizeof(path), "/dev/dri/renderD%d", i);
		fd = open(path, O_RDWR | O_CLOEXEC);
		if (fd < 0)
			continue;
		memset(&v, 0, sizeof(v));
		memset(name, 0, sizeof(name));
		v.name = name;
		v.name_len = sizeof(name) - 1;
		if (!pf_ioctl(fd, DRM_IOCTL_VERSION, &v) &&
		    !strcmp(name, "panfrost"))
			return fd;
		close(fd);
	}
	return -1;
}

static inline int pf_param(int fd, __u32 param, __u64 *value)
{
	struct drm_panfrost_get_param p = { .param = param };
	int ret = pf_ioctl(fd, DRM_IOCTL_PANFROST_GET_PARAM, &p);

	*value = p.value;
	return ret;
}

/*
 * The runtime PM file @what ("control", "runtime_status") of the GPU whose
 * node @fd is: @write written, or else read into @val (one line, without
 * its newline). 0 or -errno.
 */
static inline int pf_rpm(int fd, const char *what, const char *write, char *val, size_t len)
{
	char path[96];
	struct stat st;
	ssize_t n;
	int f, ret = 0;

	if (fstat(fd, &st))
		return -errno;
	snprintf(path, sizeof(path), "/sys/dev/char/%u:%u/device/power/%s",
		 major(st.st_rdev), minor(st.st_rdev), what);
	f = open(path, write ? O_WRONLY : O_RDONLY);
	if (f < 0)
		return -errno;
	if (write) {
		if (pwrite(f, write, strlen(write), 0) != (ssize_t)strlen(write))
			ret = -errno ?: -EIO;
	} else {
		n = read(f, val, len - 1);
		if (n < 0) {
			ret = -errno;
		} else {
			val[n] = '\0';
			val[strcspn(val, "\n")] = '\0';
		}
	}
	close(f);
	return ret;
}

/* Is the GPU of @fd in runtime PM state @status ("active", "suspended")? */
static inline int pf_rpm_is(int fd, const char *status)
{
	char val[32] = "";

	return !pf_rpm(fd, "runtime_status", NULL, val, sizeof(val)) && !strcmp(val, status);
}

/*
 * A fragment job over 4096 x 4096 tiles on a one-BO context: seconds of
 * GPU time on the model, so panfrost's 500 ms job timeout resets the GPU.
 * Returns 0 once the job ended (cancelled), or -errno.
 */
static inline int hang_a_job(int fd)
{
	struct drm_panfrost_create_bo cbo = { .size = 64 * 1024 };
	struct drm_panfrost_mmap_bo mbo = { 0 };
	struct drm_panfrost_submit sub = { 0 };
	struct drm_panfrost_wait_bo wait = { 0 };
	struct drm_gem_close gc = { 0 };
	struct timespec ts;
	__u32 v, *bo;
	int ret;

	ret = pf_ioctl(fd, DRM_IOCTL_PANFROST_CREATE_BO, &cbo);
	if (ret)
		return ret;
	mbo.handle = cbo.handle;
	ret = pf_ioctl(fd, DRM_IOCTL_PANFROST_MMAP_BO, &mbo);
	if (ret)
		return ret;
	bo = mmap(NULL, cbo.size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, (off_t)mbo.offset);
	if (bo == MAP_FAILED)
		return -errno;
	memset(bo, 0, cbo.size);
	/* Job header: 64-bit descriptor, type FRAGMENT (9), index 1 */
	bo[0x10 / 4] = 1 | 9 << 1 | 1 << 16;
	/* Payload: tiles 0..4095 both ways, framebuffer descriptor at +4 KiB */
	bo[(32 + 4) / 4] = 0xfff | 0xfff << 16;
	v = (__u32)(cbo.offset + 4096) | 1;
	bo[(32 + 8) / 4] = v;
	bo[(32 + 12) / 4] = (__u32)((cbo.offset + 4096) >> 32);
	__sync_synchronize();
	sub.jc = cbo.offset;
	sub.bo_handles = (uintptr_t)&cbo.handle;
	sub.bo_handle_count = 1;
	sub.requirements = PANFROST_JD_REQ_FS;
	ret = pf_ioctl(fd, DRM_IOCTL_PANFROST_SUBMIT, &sub);
	if (!ret) {
		clock_gettime(CLOCK_MONOTONIC, &ts);
		wait.handle = cbo.handle;
		wait.timeout_ns = (__s64)ts.tv_sec * 1000000000LL + ts.tv_nsec +
				  10000000000LL;
		ret = pf_ioctl(fd, DRM_IOCTL_PANFROST_WAIT_BO, &wait);
	}
	munmap(bo, cbo.size);
	gc.handle = cbo.handle;
	pf_ioctl(fd, DRM_IOCTL_GEM_CLOSE, &gc);
	return ret;
}

#endif /* PF_UTIL_H */
