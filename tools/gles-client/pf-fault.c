// SPDX-License-Identifier: MIT
/*
 * pf-fault: submit one hand-written job chain to panfrost and wait for it,
 * for the fault paths a GLES application never takes. MODE:
 *   ok        a NULL job: completes, exception_status DONE (0x1)
 *   config    a job of a type no GPU has: JOB_CONFIG_FAULT (0x40), which
 *             the GPU writes into the job's header ("js fault" in dmesg)
 *   unmapped  the chain's head at an address nothing maps: an MMU fault on
 *             the job's address space, which panfrost disables, killing
 *             the job ("Unhandled Page fault" in dmesg)
 *   long      a fragment job over 4096 x 4096 tiles, seconds of GPU time:
 *             panfrost's 500 ms job timeout, a soft stop, a GPU reset
 *             ("gpu sched timeout" in dmesg); the job never completes
 * Prints one line with what the job's header says afterwards; exit status
 * 0 when the job ended (done, failed or cancelled) within 10 s and its
 * header says what MODE expects, else 1. Static: no library needed.
 *
 * Job descriptor facts (header at +0, payload at +32) as in Mesa's public
 * genxml, see model/mali_hw_regs.h.
 */
#include <drm/drm.h>
#include <drm/panfrost_drm.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#define BO_SIZE		(64 * 1024)
#define HDR_FLAGS	0x10	/* [0] 64-bit, [7:1] type, [31:16] index */
#define HDR_NEXT	0x18
#define TYPE_NULL	1
#define TYPE_FRAGMENT	9
#define TYPE_BAD	0x33
#define EXC_DONE	0x01
#define EXC_CONFIG	0x40

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static void put32(uint8_t *p, uint32_t v)
{
	memcpy(p, &v, 4);
}

/* The first render node panfrost drives, or -1 */
static int open_panfrost(void)
{
	char path[32], name[32];
	int i, fd;

	for (i = 128; i < 192; i++) {
		struct drm_version v = { .name = name, .name_len = sizeof(name) - 1 };

		snprintf(path, sizeof(path), "/dev/dri/renderD%d", i);
		fd = open(path, O_RDWR | O_CLOEXEC);
		if (fd < 0)
			continue;
		memset(name, 0, sizeof(name));
		if (!ioctl(fd, DRM_IOCTL_VERSION, &v) && !strcmp(name, "panfrost"))
			return fd;
		close(fd);
	}
	return -1;
}

int main(int argc, char **argv)
{
	struct drm_panfrost_create_bo cbo = { .size = BO_SIZE };
	struct drm_panfrost_mmap_bo mbo = { 0 };
	struct drm_panfrost_submit sub = { 0 };
	struct drm_panfrost_wait_bo wait = { 0 };
	const char *mode = argc == 2 ? argv[1] : "";
	uint32_t handle, exc, want;
	uint64_t t0, jc;
	uint8_t *bo;
	int fd, ret;

	if (strcmp(mode, "ok") && strcmp(mode, "config") && strcmp(mode, "unmapped") &&
	    strcmp(mode, "long")) {
		fprintf(stderr, "pf-fault: want one MODE: ok, config, unmapped or long\n");
		return 1;
	}
	fd = open_panfrost();
	if (fd < 0) {
		fprintf(stderr, "pf-fault: no /dev/dri/renderD* of panfrost (is panfrost loaded?)\n");
		return 1;
	}
	if (ioctl(fd, DRM_IOCTL_PANFROST_CREATE_BO, &cbo)) {
		fprintf(stderr, "pf-fault: CREATE_BO: %s\n", strerror(errno));
		return 1;
	}
	handle = cbo.handle;
	mbo.handle = handle;
	if (ioctl(fd, DRM_IOCTL_PANFROST_MMAP_BO, &mbo)) {
		fprintf(stderr, "pf-fault: MMAP_BO: %s\n", strerror(errno));
		return 1;
	}
	bo = mmap(NULL, BO_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, (off_t)mbo.offset);
	if (bo == MAP_FAILED) {
		fprintf(stderr, "pf-fault: mmap of the BO: %s\n", strerror(errno));
		return 1;
	}
	memset(bo, 0, BO_SIZE);
	jc = cbo.offset;
	want = EXC_DONE;
	if (!strcmp(mode, "ok")) {
		put32(bo + HDR_FLAGS, 1 | TYPE_NULL << 1 | 1 << 16);
	} else if (!strcmp(mode, "config")) {
		put32(bo + HDR_FLAGS, 1 | TYPE_BAD << 1 | 1 << 16);
		want = EXC_CONFIG;
	} else if (!strcmp(mode, "unmapped")) {
		/* 16 MiB past the only BO of this file's address space */
		put32(bo + HDR_FLAGS, 1 | TYPE_NULL << 1 | 1 << 16);
		jc += 16 << 20;
		want = 0;
	} else {
		/* tiles 0..4095 both ways; the framebuffer descriptor at +4 KiB */
		put32(bo + HDR_FLAGS, 1 | TYPE_FRAGMENT << 1 | 1 << 16);
		put32(bo + 32 + 4, 0xfff | 0xfff << 16);
		put32(bo + 32 + 8, (uint32_t)(cbo.offset + 4096) | 1);
		put32(bo + 32 + 12, (uint32_t)((cbo.offset + 4096) >> 32));
		sub.requirements = PANFROST_JD_REQ_FS;
		want = 0;
	}
	__sync_synchronize();
	sub.jc = jc;
	sub.bo_handles = (uintptr_t)&handle;
	sub.bo_handle_count = 1;
	t0 = now_ns();
	if (ioctl(fd, DRM_IOCTL_PANFROST_SUBMIT, &sub)) {
		fprintf(stderr, "pf-fault: %s: SUBMIT: %s\n", mode, strerror(errno));
		return 1;
	}
	wait.handle = handle;
	wait.timeout_ns = (int64_t)(t0 + 10000000000ULL);
	ret = ioctl(fd, DRM_IOCTL_PANFROST_WAIT_BO, &wait);
	memcpy(&exc, bo, 4);
	printf("pf-fault: %s: job at 0x%llx (%s) %s after %llu ms, exception_status 0x%x (want 0x%x)\n",
	       mode, (unsigned long long)jc, sub.requirements ? "fragment slot" : "slot 1",
	       ret ? "did not end" : "ended", (unsigned long long)((now_ns() - t0) / 1000000),
	       exc, want);
	return ret || exc != want;
}
