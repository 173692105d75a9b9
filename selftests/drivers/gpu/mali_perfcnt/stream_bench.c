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
 *   perfcnt_dump` (open, read, close), a stream record (SAMPLE + read);
 *   then a session's SAMPLE (uAPI revision 3) with one session started and
 *   with eight, each sampled in turn (every hardware sample is shared out
 *   to all eight), as ratios to the DUMP and to one session; then periodic
 *   sessions delivering through their rings at 1 kHz and 10 kHz, one and
 *   eight at once, read in batches every 20 ms: CPU time of the whole
 *   system per period (one hardware sample, a ring sample for each
 *   session) as a ratio to a DUMP's CPU time in a loop of the same run,
 *   achieved against asked rate, samples lost (periods folded by a full
 *   ring) and bytes per sample against a v2 stream record's.
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
#include <time.h>
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

/*
 * ns per session SAMPLE with @n sessions started (every counter each),
 * sampling them in turn into @buf.
 */
static double bench_sessions(int fd, unsigned int n, void *buf, uint32_t size)
{
	struct drm_mali_perfcnt_session_open o = {};
	struct drm_mali_perfcnt_session_sample q = { .buf_ptr = (uintptr_t)buf, .buf_size = size };
	int sfd[8];
	uint64_t t0;
	double ns;
	unsigned int i;

	for (i = 0; i < n; i++) {
		sfd[i] = ioctl(fd, DRM_IOCTL_MALI_PERFCNT_SESSION_OPEN, &o);
		if (sfd[i] < 0)
			die("SESSION_OPEN", errno);
		if (ioctl(sfd[i], MALI_PERFCNT_SESSION_IOCTL_START, 0))
			die("session START", errno);
	}
	t0 = mpc_now_ns();
	for (i = 0; i < N_COST; i++)
		if (ioctl(sfd[i % n], MALI_PERFCNT_SESSION_IOCTL_SAMPLE, &q))
			die("session SAMPLE", errno);
	ns = (double)(mpc_now_ns() - t0) / N_COST;
	for (i = 0; i < n; i++)
		close(sfd[i]);
	return ns;
}

/* CPU ns of the whole system per DUMP, DUMPs in a loop for @seconds. */
static double dump_cpu_ns(int fd, void *buf, uint32_t size, unsigned int seconds)
{
	long hz = sysconf(_SC_CLK_TCK);
	unsigned long long t0, t1;
	uint64_t end, n = 0;
	int ret;

	ret = mpc_enable_all(fd);
	if (ret)
		die("ENABLE", ret);
	t0 = busy_ticks();
	end = mpc_now_ns() + (uint64_t)seconds * 1000000000ull;
	while (mpc_now_ns() < end) {
		ret = mpc_dump(fd, buf, size, NULL, NULL);
		if (ret)
			die("DUMP", ret);
		n++;
	}
	t1 = busy_ticks();
	mpc_disable(fd);
	return (double)(t1 - t0) / hz * 1e9 / n;
}

struct ring_fig {
	double cpu_ns;		/* whole system, per period */
	double rate;		/* samples a second, per session */
	uint64_t samples, lost;
};

/*
 * @n sessions (every counter) at @period_ns delivering through their
 * rings for @seconds, read without blocking every 20 ms.
 */
static struct ring_fig bench_ring(int fd, uint64_t period_ns, unsigned int n,
				  unsigned int seconds, uint32_t size)
{
	struct drm_mali_perfcnt_ext_set_property p[2] = {
		{ .property = MALI_PERFCNT_PROP_PERIOD_NS, .value = period_ns },
		{ .property = MALI_PERFCNT_PROP_RING_SAMPLES,
		  .value = MALI_PERFCNT_SESSION_MAX_RING_SAMPLES },
	};
	struct drm_mali_perfcnt_session_open o = {
		.extensions = (uintptr_t)&p[0], .flags = MALI_PERFCNT_SESSION_F_START,
	};
	size_t len = (size_t)MALI_PERFCNT_SESSION_MAX_RING_SAMPLES * size;
	const struct timespec nap = { .tv_nsec = 20000000 };
	long hz = sysconf(_SC_CLK_TCK);
	struct ring_fig f = {};
	unsigned long long t0, t1;
	uint64_t start, end, now;
	unsigned int i;
	int sfd[8];
	char *buf = malloc(len);

	if (!buf)
		die("malloc", ENOMEM);
	p[0].base.next_extension = (uintptr_t)&p[1];
	t0 = busy_ticks();
	start = mpc_now_ns();
	for (i = 0; i < n; i++) {
		sfd[i] = ioctl(fd, DRM_IOCTL_MALI_PERFCNT_SESSION_OPEN, &o);
		if (sfd[i] < 0)
			die("SESSION_OPEN (ring)", errno);
		if (fcntl(sfd[i], F_SETFL, O_NONBLOCK))
			die("O_NONBLOCK", errno);
	}
	end = start + (uint64_t)seconds * 1000000000ull;
	do {
		nanosleep(&nap, NULL);
		now = mpc_now_ns();
		for (i = 0; i < n; i++) {
			ssize_t r;

			while ((r = read(sfd[i], buf, len)) > 0) {
				for (ssize_t off = 0; off < r; off += size) {
					const struct drm_mali_perfcnt_sample_header *h =
						(const void *)(buf + off);

					f.lost += h->lost;
					f.samples++;
				}
			}
			if (errno != EAGAIN)
				die("ring read", errno);
		}
	} while (now < end);
	t1 = busy_ticks();
	for (i = 0; i < n; i++)
		close(sfd[i]);
	free(buf);
	/* every period of every session is a sample or counted lost */
	f.cpu_ns = (double)(t1 - t0) / hz * 1e9 / ((double)(f.samples + f.lost) / n);
	f.rate = (double)f.samples / n / ((now - start) / 1e9);
	return f;
}

int main(int argc, char **argv)
{
	unsigned int seconds = argc > 1 ? (unsigned int)atoi(argv[1]) : 10;
	struct drm_mali_perfcnt_get_info info;
	struct drm_mali_perfcnt_stream_open o = { .ring_records = 2 };
	struct drm_mali_perfcnt_get_info_v3 v3 = {};
	double ns[3], best, s1, s8, dump_cpu;
	struct ring_fig rf[4];
	char dbg[256], path[300], *buf;
	uint64_t t0;
	int fd, ret, i;

	fd = mpc_open_render();
	if (fd < 0)
		die("render node", fd);
	ret = mpc_get_info(fd, &info);
	if (ret)
		die("GET_INFO", ret);
	if (ioctl(fd, DRM_IOCTL_MALI_PERFCNT_GET_INFO_V3, &v3))
		die("GET_INFO_V3", errno);
	if (mpc_find_debugfs(dbg, sizeof(dbg)))
		die("debugfs", ENOENT);
	mpc_set_workload(dbg, "busy=50\n");
	buf = malloc((info.dump_size > v3.sample_size ? info.dump_size : v3.sample_size) + 4096);
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
	s1 = bench_sessions(fd, 1, buf, v3.sample_size);
	s8 = bench_sessions(fd, 8, buf, v3.sample_size);
	mpc_set_workload(dbg, "idle\n");

	best = ns[0] < ns[1] ? ns[0] : ns[1];
	best = best < ns[2] ? best : ns[2];
	printf("one sample: DUMP ioctl %.1f us (%.2fx), cat perfcnt_dump %.1f us (%.2fx), "
	       "stream record %.1f us (%.2fx)\n", ns[0] / 1e3, ns[0] / best, ns[1] / 1e3,
	       ns[1] / best, ns[2] / 1e3, ns[2] / best);
	printf("session SAMPLE (%u bytes): 1 session %.1f us (%.2fx a DUMP), 8 sessions %.1f us "
	       "(%.2fx one)\n", v3.sample_size, s1 / 1e3, s1 / ns[0], s8 / 1e3, s8 / s1);

	/* session rings: CPU per period against a DUMP's in this run */
	mpc_set_workload(dbg, "busy=50\n");
	dump_cpu = dump_cpu_ns(fd, buf, info.dump_size, seconds);
	printf("DUMP in a loop: CPU %.1f us/sample (whole system)\n", dump_cpu / 1e3);
	for (i = 0; i < 4; i++) {
		uint64_t period = i < 2 ? 1000000 : 100000;
		unsigned int n = i & 1 ? 8 : 1;

		rf[i] = bench_ring(fd, period, n, seconds, v3.sample_size);
		printf("session ring at %llu Hz, %u session%s for %u s: CPU %.1f us/period "
		       "(%.2fx a DUMP), %.0f samples/s achieved of %llu asked, %llu samples, "
		       "%llu lost\n", (unsigned long long)(1000000000ull / period), n,
		       n > 1 ? "s" : "", seconds, rf[i].cpu_ns / 1e3, rf[i].cpu_ns / dump_cpu,
		       rf[i].rate,
		       (unsigned long long)(1000000000ull / period),
		       (unsigned long long)rf[i].samples, (unsigned long long)rf[i].lost);
		if (n > 1)
			printf("  8 sessions cost %.2fx one at %llu Hz\n",
			       rf[i].cpu_ns / rf[i - 1].cpu_ns,
			       (unsigned long long)(1000000000ull / period));
	}
	mpc_set_workload(dbg, "idle\n");
	printf("bytes per sample: session %u (64-bit values, block headers), v2 stream record "
	       "%u (%.2fx)\n", v3.sample_size, o.record_size,
	       (double)v3.sample_size / o.record_size);
	free(buf);
	close(fd);
	return 0;
}
