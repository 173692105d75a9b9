// SPDX-License-Identifier: GPL-2.0-only
/*
 * stream_bench: figures for `make bench`, printed, never asserted. Run as
 * root in a VM with mali_perfcnt loaded on its simulator (sim=...), the
 * counters free.
 *
 *   stream at HZ: records delivered, lost, achieved period mean and p99
 *   deviation from the records' own timestamps, CPU time per sample of the
 *   whole system (kernel sampling + this reader), over SECONDS seconds;
 *   then the cost of one sample three ways: the DUMP ioctl, `cat
 *   perfcnt_dump` (open, read, close), a stream record (SAMPLE + read).
 *
 * Usage: stream_bench [SECONDS]   (default 10)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "mpc_lib.h"

static void die(const char *what, int err)
{
	fprintf(stderr, "stream_bench: %s: %s\n", what, strerror(err < 0 ? -err : err));
	exit(1);
}

/* Busy jiffies of the whole system (user, nice, system, irq, softirq). */
static unsigned long long busy_ticks(void)
{
	unsigned long long u, n, s, idle, io, irq, sirq;
	FILE *f = fopen("/proc/stat", "r");

	if (!f || fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu", &u, &n, &s, &idle, &io,
			 &irq, &sirq) != 7)
		die("/proc/stat", EIO);
	fclose(f);
	return u + n + s + irq + sirq;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static void bench_stream(int fd, uint64_t period_ns, unsigned int seconds)
{
	struct drm_mali_perfcnt_stream_open o = {
		.period_ns = period_ns, .ring_records = MALI_PERFCNT_STREAM_MAX_RECORDS,
	};
	uint64_t t_end, *iv, lost = 0, samples = 0, sum = 0, cap = 1 << 20;
	unsigned long long t0, t1;
	size_t len;
	char *buf;
	long hz = sysconf(_SC_CLK_TCK);

	if (ioctl(fd, DRM_IOCTL_MALI_PERFCNT_STREAM_OPEN, &o))
		die("STREAM_OPEN", errno);
	len = 256 * (size_t)o.record_size;
	buf = malloc(len);
	iv = malloc(cap * sizeof(*iv));
	if (!buf || !iv)
		die("malloc", ENOMEM);
	t0 = busy_ticks();
	t_end = mpc_now_ns() + (uint64_t)seconds * 1000000000ull;
	while (mpc_now_ns() < t_end) {
		ssize_t n = read(o.fd, buf, len);

		if (n < 0)
			die("read", errno);
		for (ssize_t off = 0; off < n;) {
			struct drm_mali_perfcnt_record *r = (void *)(buf + off);

			if (r->type == MALI_PERFCNT_RECORD_LOST)
				lost += r->lost;
			if (r->type == MALI_PERFCNT_RECORD_SAMPLE &&
			    !(r->data_flags & MALI_PERFCNT_DATA_FIRST) && samples < cap) {
				iv[samples++] = r->end_ns - r->start_ns;
				sum += r->end_ns - r->start_ns;
			}
			off += r->size;
		}
	}
	t1 = busy_ticks();
	close(o.fd);
	if (!samples)
		die("no sample", EIO);
	for (uint64_t i = 0; i < samples; i++)
		iv[i] = iv[i] > period_ns ? iv[i] - period_ns : period_ns - iv[i];
	qsort(iv, samples, sizeof(*iv), cmp_u64);
	printf("stream at %llu Hz for %u s: %llu records, %llu lost; period %.1f us asked, "
	       "%.1f us mean, p99 deviation %.1f us; CPU %.1f us/sample (kernel + reader)\n",
	       (unsigned long long)(1000000000ull / period_ns), seconds,
	       (unsigned long long)samples, (unsigned long long)lost, period_ns / 1e3,
	       (double)sum / samples / 1e3, iv[(samples - 1) * 99 / 100] / 1e3,
	       (double)(t1 - t0) / hz * 1e6 / samples);
	free(iv);
	free(buf);
}

#define N_COST 2000

int main(int argc, char **argv)
{
	unsigned int seconds = argc > 1 ? (unsigned int)atoi(argv[1]) : 10;
	struct drm_mali_perfcnt_get_info info;
	struct drm_mali_perfcnt_stream_open o = { .ring_records = 2 };
	double ns[3], best;
	char dbg[256], path[300], *buf;
	uint64_t t0;
	int fd, ret, i;

	fd = mpc_open_render();
	if (fd < 0)
		die("render node", fd);
	ret = mpc_get_info(fd, &info);
	if (ret)
		die("GET_INFO", ret);
	if (mpc_find_debugfs(dbg, sizeof(dbg)))
		die("debugfs", ENOENT);
	mpc_set_workload(dbg, "busy=50\n");
	buf = malloc(info.dump_size + 4096);
	if (!buf)
		die("malloc", ENOMEM);
	printf("GPU %s, dump %u bytes\n", info.product, info.dump_size);
	bench_stream(fd, 100000, seconds);
	bench_stream(fd, 1000000, seconds);

	/* one sample, three ways */
	ret = mpc_enable_all(fd);
	if (ret)
		die("ENABLE", ret);
	t0 = mpc_now_ns();
	for (i = 0; i < N_COST; i++)
		if ((ret = mpc_dump(fd, buf, info.dump_size, NULL, NULL)))
			die("DUMP", ret);
	ns[0] = (double)(mpc_now_ns() - t0) / N_COST;
	mpc_disable(fd);

	if ((ret = mpc_dbg_write(dbg, "perfcnt_enable", "1\n")))
		die("perfcnt_enable", ret);
	snprintf(path, sizeof(path), "%s/perfcnt_dump", dbg);
	t0 = mpc_now_ns();
	for (i = 0; i < N_COST; i++) {
		int dfd = open(path, O_RDONLY);

		if (dfd < 0 || read(dfd, buf, info.dump_size) != (ssize_t)info.dump_size)
			die("perfcnt_dump", errno);
		close(dfd);
	}
	ns[1] = (double)(mpc_now_ns() - t0) / N_COST;
	mpc_dbg_write(dbg, "perfcnt_enable", "0\n");

	if (ioctl(fd, DRM_IOCTL_MALI_PERFCNT_STREAM_OPEN, &o))
		die("STREAM_OPEN", errno);
	t0 = mpc_now_ns();
	for (i = 0; i < N_COST; i++)
		if (ioctl(o.fd, MALI_PERFCNT_STREAM_IOCTL_SAMPLE, 0) ||
		    read(o.fd, buf, info.dump_size + 4096) != (ssize_t)o.record_size)
			die("stream SAMPLE", errno);
	ns[2] = (double)(mpc_now_ns() - t0) / N_COST;
	close(o.fd);
	mpc_set_workload(dbg, "idle\n");

	best = ns[0] < ns[1] ? ns[0] : ns[1];
	best = best < ns[2] ? best : ns[2];
	printf("one sample: DUMP ioctl %.1f us (%.2fx), cat perfcnt_dump %.1f us (%.2fx), "
	       "stream record %.1f us (%.2fx)\n", ns[0] / 1e3, ns[0] / best, ns[1] / 1e3,
	       ns[1] / best, ns[2] / 1e3, ns[2] / best);
	free(buf);
	close(fd);
	return 0;
}
