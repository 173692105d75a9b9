// SPDX-License-Identifier: MIT
/*
 * record --jobs: the GPU jobs the kernel ran, from tracefs, as slices next
 * to the counters.
 *
 * A private tracefs instance (instances/mali-perfcnt-PID, so the system's
 * own tracing is left alone) with trace_clock mono_raw, the clock of the
 * dumps' timestamps, records the dma_fence events dma_fence_init and
 * dma_fence_signaled. A driver's hardware fence is made when it hands a job
 * to the GPU and signalled from its job interrupt: panfrost's timelines are
 * panfrost-js-N, one per job slot. The DRM scheduler's own fences (driver
 * "drm_sched") are left out: they span the time a job waited in the queue;
 * so is the kernel's signalled stub fence (driver "stub").
 * After the recording the instance's buffer is read (its text, microsecond
 * timestamps) and each (context, seqno) with both events becomes a slice on
 * its timeline's track. A slot runs one job at a time, the next one from its
 * _NEXT registers once the current has finished, so a slice starts at its
 * job's submission or at the end of the previous slice of its queue,
 * whichever is later: the slices of a queue do not overlap and their sum is
 * the time the slot was busy.
 *
 * $MPC_TRACEFS names the tracefs mount (default /sys/kernel/tracing, then
 * /sys/kernel/debug/tracing); $MPC_TRACEFS_INSTANCE an existing instance
 * directory to use as it is (the host tests' fake one).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tool.h"

struct jobs {
	char dir[512];
	int own;		/* we made the instance: rmdir it */
};

struct pending {
	unsigned queue;
	unsigned context, seqno;
	uint64_t init_ns;
};

static int write_file(const char *dir, const char *name, const char *val)
{
	char path[640];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = write(fd, val, strlen(val));
	n = n == (ssize_t)strlen(val) ? 0 : n < 0 ? -errno : -EIO;
	close(fd);
	return (int)n;
}

static const char *const job_events[] = {
	"events/dma_fence/dma_fence_init/enable",
	"events/dma_fence/dma_fence_signaled/enable",
};

int jobs_start(struct tool *t, struct jobs **jp)
{
	const char *inst = getenv("MPC_TRACEFS_INSTANCE"), *root = getenv("MPC_TRACEFS");
	struct jobs *j = calloc(1, sizeof(*j));
	int r;

	*jp = NULL;
	if (!j)
		return tool_error(t, "out of memory");
	if (inst && *inst) {
		snprintf(j->dir, sizeof(j->dir), "%s", inst);
	} else {
		char base[256];

		if (!root || !*root)
			root = access("/sys/kernel/tracing/instances", F_OK) == 0 ?
			       "/sys/kernel/tracing" : "/sys/kernel/debug/tracing";
		snprintf(base, sizeof(base), "%s/instances", root);
		if (access(base, F_OK)) {
			free(j);
			return tool_error(t, "--jobs: no tracefs at %s (mount -t tracefs nodev "
					  "/sys/kernel/tracing)", root);
		}
		snprintf(j->dir, sizeof(j->dir), "%s/mali-perfcnt-%d", base, (int)getpid());
		if (mkdir(j->dir, 0700)) {
			r = errno;
			free(j);
			return tool_error(t, "--jobs: cannot make the tracefs instance %s/mali-perfcnt-%d: %s",
					  base, (int)getpid(), strerror(r));
		}
		j->own = 1;
	}
	*jp = j;
	r = write_file(j->dir, "trace_clock", "mono_raw");
	if (r)
		return tool_error(t, "--jobs: trace_clock mono_raw: %s", strerror(-r));
	/* per CPU; ~40 bytes an event: 100k jobs' events */
	write_file(j->dir, "buffer_size_kb", "4096");
	for (unsigned i = 0; i < sizeof(job_events) / sizeof(job_events[0]); i++) {
		r = write_file(j->dir, job_events[i], "1");
		if (r)
			return tool_error(t, "--jobs: cannot enable %s: %s (a kernel without the "
					  "dma_fence events?)", job_events[i], strerror(-r));
	}
	r = write_file(j->dir, "tracing_on", "1");
	if (r)
		return tool_error(t, "--jobs: tracing_on: %s", strerror(-r));
	return 0;
}

static int queue_of(struct job_set *js, const char *name)
{
	for (unsigned i = 0; i < js->nqueue; i++)
		if (!strcmp(js->queue[i], name))
			return (int)i;
	if (js->nqueue == JOBS_MAX_QUEUES)
		return -1;
	snprintf(js->queue[js->nqueue], sizeof(js->queue[0]), "%s", name);
	return (int)js->nqueue++;
}

/* "  12.345678: " before @ev: the timestamp in ns, 0 if none */
static uint64_t line_ts(const char *line, const char *ev)
{
	const char *p = ev;
	unsigned long long s, us;
	char frac[16];
	int n;

	while (p > line && p[-1] == ' ')
		p--;
	if (p == line || p[-1] != ':')
		return 0;
	p--;
	while (p > line && p[-1] != ' ')
		p--;
	if (sscanf(p, "%llu.%15[0-9]%n", &s, frac, &n) != 2 || p[n] != ':')
		return 0;
	/* microseconds (nanoseconds if the kernel ever prints 9 digits) */
	us = strtoull(frac, NULL, 10);
	if (strlen(frac) == 9)
		return s * 1000000000ull + us;
	return s * 1000000000ull + us * 1000ull;
}

static int add_slice(struct job_set *js, unsigned q, unsigned seqno, uint64_t b, uint64_t e)
{
	if (js->n == js->cap) {
		unsigned cap = js->cap ? 2 * js->cap : 256;
		struct job_slice *n = realloc(js->s, cap * sizeof(*n));

		if (!n)
			return -1;
		js->s = n;
		js->cap = cap;
	}
	js->s[js->n++] = (struct job_slice){ q, seqno, b, e };
	return 0;
}

int jobs_parse(FILE *f, struct job_set *js)
{
	struct pending *pend = NULL;
	unsigned npend = 0, cappend = 0;
	uint64_t last_end[JOBS_MAX_QUEUES] = { 0 };
	char line[1024];
	int ret = 0;

	memset(js, 0, sizeof(*js));
	while (fgets(line, sizeof(line), f)) {
		unsigned long long inb, wr;
		char drv[64], tl[64];
		unsigned ctx, seq;
		const char *ev;
		int init;
		uint64_t ts;

		if (sscanf(line, "# entries-in-buffer/entries-written: %llu/%llu", &inb, &wr) == 2) {
			js->lost = wr > inb ? wr - inb : 0;
			continue;
		}
		if (line[0] == '#')
			continue;
		if ((ev = strstr(line, " dma_fence_init: ")))
			init = 1;
		else if ((ev = strstr(line, " dma_fence_signaled: ")))
			init = 0;
		else
			continue;
		ts = line_ts(line, ev + 1);
		if (!ts || sscanf(strchr(ev + 1, ':') + 1,
				  " driver=%63s timeline=%63s context=%u seqno=%u",
				  drv, tl, &ctx, &seq) != 4)
			continue;
		/* the scheduler's fences, and the signalled stub fence: no job's */
		if (!strcmp(drv, "drm_sched") || !strcmp(drv, "stub"))
			continue;
		if (init) {
			int q = queue_of(js, tl);

			if (q < 0)
				continue;
			if (npend == cappend) {
				unsigned cap = cappend ? 2 * cappend : 64;
				struct pending *n = realloc(pend, cap * sizeof(*n));

				if (!n) {
					ret = -1;
					break;
				}
				pend = n;
				cappend = cap;
			}
			pend[npend++] = (struct pending){ (unsigned)q, ctx, seq, ts };
			continue;
		}
		for (unsigned i = 0; i < npend; i++) {
			struct pending p = pend[i];
			uint64_t b;

			if (p.context != ctx || p.seqno != seq)
				continue;
			pend[i] = pend[--npend];
			b = p.init_ns > last_end[p.queue] ? p.init_ns : last_end[p.queue];
			if (ts < b)
				b = ts;
			last_end[p.queue] = ts;
			if (add_slice(js, p.queue, seq, b, ts))
				ret = -1;
			break;
		}
	}
	js->unfinished = npend;
	free(pend);
	return ret;
}

int jobs_stop(struct tool *t, struct jobs *j, struct job_set *js)
{
	char path[640];
	FILE *f;
	int r;

	memset(js, 0, sizeof(*js));
	write_file(j->dir, "tracing_on", "0");
	snprintf(path, sizeof(path), "%s/trace", j->dir);
	f = fopen(path, "r");
	if (!f)
		return tool_error(t, "--jobs: cannot read %s: %s", path, strerror(errno));
	r = jobs_parse(f, js);
	fclose(f);
	if (r)
		return tool_error(t, "out of memory");
	return 0;
}

void jobs_free(struct jobs *j)
{
	if (!j)
		return;
	if (j->own) {
		for (unsigned i = 0; i < sizeof(job_events) / sizeof(job_events[0]); i++)
			write_file(j->dir, job_events[i], "0");
		rmdir(j->dir);
	}
	free(j);
}

void job_set_free(struct job_set *js)
{
	free(js->s);
	memset(js, 0, sizeof(*js));
}
