// SPDX-License-Identifier: MIT
/*
 * "record": counters and derived metrics over time, into a Perfetto trace
 * (default), Chrome trace events or CSV (the sinks of trace.c).
 *
 * With a kernel stream (mali_perfcnt, kbase) the kernel samples every
 * period: on mali_perfcnt's uAPI revision 3 (and patched panfrost) a ring
 * session whose 64-bit samples are added whole, else the v2 stream's 32-bit
 * dumps; the closing line names which ("kernel stream (v3 session)").
 * Otherwise (--user-loop, stock panfrost) sampling is a user-space loop: a
 * deadline every period on CLOCK_MONOTONIC (clock_nanosleep TIMER_ABSTIME,
 * so lateness never accumulates), one dump at each. The interval of a sample is measured from
 * the dumps' own timestamps (the driver's CLOCK_MONOTONIC_RAW time, or the
 * time taken around the ioctl), never assumed to be the period: a late wakeup
 * makes a longer interval, no counts are lost, and the achieved period and
 * its jitter are reported at the end. A deadline missed by more than a whole
 * period is skipped (no burst of catch-up samples) and counted. A dump that
 * timed out (the counters stay enabled: panfrost's 1 s wait, or mali_perfcnt's
 * reset) is reported and counted and the recording goes on: what the GPU
 * counted up to it is lost, and the next sample says so (after-lost or
 * after-recovery, its interval starting where the counting did); three in a
 * row end the recording.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "mali_perfcnt_drm.h"
#include "perfetto.h"
#include "samp_table.h"
#include "tool.h"

#define REC_DEFAULTS		"GPU_ACTIVE,MpcGPUActiveUtil,MaliGPUIRQUtil,MaliFragQueueUtil," \
				"MaliNonFragQueueUtil,MaliTilerUtil,MaliCoreUtil," \
				"MaliExtBusRdBPS,MaliExtBusWrBPS,MpcIRQUtil,MpcFragQueueUtil," \
				"MpcNonFragQueueUtil,MpcTilerUtil,MpcCoreUtil,MpcExtBusRdBPS," \
				"MpcExtBusWrBPS"

/* -I when neither -I nor -F is given */
#define REC_DEFAULT_INTERVAL_NS	10000000ull

/* the sampling options, and record's own on top */
struct rec_opts {
	struct samp_opts s;
	const char *output;
	int user_loop;			/* sample from the tool even with a kernel stream */
	int jobs;			/* --jobs: the kernel's job events as slices */
};

/* ----------------------------------------------------------------- command */

/* record's own options: 0 taken, 1 error, -1 not one of them */
static int rec_opt(struct tool *t, int c, const char *arg, struct samp_opts *so, void *ctx)
{
	struct rec_opts *o = ctx;
	unsigned long long x;

	switch (c) {
	case 'F':
		if (so->period_given++)
			return !!tool_error(t, "give the period once, with -F or -I");
		if (tool_parse_u64(t, "-F", arg, 1000000000ull / MALI_PERFCNT_STREAM_MIN_PERIOD_NS, &x))
			return 1;
		if (!x)
			return !!tool_error(t, "-F 0: give a rate of at least 1 Hz");
		so->interval_ns = 1000000000ull / x;
		return 0;
	case 'o':
		o->output = arg;
		return 0;
	case OPT_USER_LOOP:
		o->user_loop = 1;
		return 0;
	case OPT_JOBS:
		o->jobs = 1;
		return 0;
	}
	return -1;
}

/* record samples every -I down to the kernel stream's shortest period */
static const struct samp_cmd cmd_record_opts = {
	.name = "record", .mask = SAMP_RECORD, .opt = rec_opt,
	.min_interval_ns = MALI_PERFCNT_STREAM_MIN_PERIOD_NS,
};

/*
 * What record writes: a trace format, or csv through out_sink; perfetto
 * when no --format was given. "json" was record's name for Chrome trace
 * events before it meant the tool's JSON in every command: still taken,
 * with a line saying the new name. NULL after saying why not.
 */
static const struct rec_sink *rec_sink(struct tool *t)
{
	if (!t->format)
		return trace_format("perfetto");
	if (t->trace)
		return t->trace;
	if (!strcmp(t->format, "csv"))
		return &out_sink;
	if (!strcmp(t->format, "json")) {
		fprintf(stderr, "%s: record --format json is deprecated: it writes Chrome trace "
			"events, now --format chrome-trace (json is the tool's JSON elsewhere)\n",
			t->prog);
		return trace_format("chrome-trace");
	}
	tool_error(t, "--format '%s': record writes perfetto, chrome-trace (Chrome trace "
		   "events) or csv", t->format);
	return NULL;
}

static int parse_rec_opts(struct tool *t, int argc, char **argv, struct rec_opts *ro)
{
	struct samp_opts *o = &ro->s;
	int r = samp_parse(t, argc, argv, &cmd_record_opts, o, ro);

	if (r)
		return r;
	if (o->count && o->duration_ms)
		return tool_error(t, "-n and --duration both bound the recording; give one of them");
	if (!o->interval_ns)
		o->interval_ns = REC_DEFAULT_INTERVAL_NS;
	if (o->interval_ns > 1000000000ull && o->interval_ns % 1000000ull)
		return tool_error(t, "-F/-I: periods above 1 s must be whole milliseconds");
	return 0;
}

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* Sleep until CLOCK_MONOTONIC @deadline or a signal; 1 if woken early. */
static int sleep_abs(uint64_t deadline)
{
	struct timespec ts = { (time_t)(deadline / 1000000000ull),
			       (long)(deadline % 1000000000ull) };

	while (!got_sigint && !got_sigchld) {
		int e = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);

		if (!e)
			return 0;
		if (e != EINTR)
			return -1;
	}
	return 1;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* One recording: where samples go and what is counted for the report. */
struct rec {
	struct tool *t;
	struct view *v;
	struct mpc_dev *dev;
	struct mpc_sample *s;
	const struct rec_sink *sink;
	void *state;
	void *buf;
	uint64_t *iv;			/* each sample's interval, ns */
	unsigned n, cap;
	unsigned skipped;		/* user loop: deadlines missed by a period */
	unsigned failed, failing;	/* user loop: dumps that timed out; in a row */
	uint64_t lost, errors;		/* kernel stream: LOST samples, ERROR records */
	uint64_t ts0;			/* start of the first interval */
};

/* Evaluate the metrics of r->s over [start, end] and hand it to the sink. */
static int rec_emit(struct rec *r, uint64_t start_ns, uint64_t end_ns, uint64_t seqno,
		    unsigned data_flags)
{
	struct view *v = r->v;
	struct sample_meta m = { r->n, (end_ns - r->ts0) * 1e-9, (end_ns - start_ns) * 1e-9,
				 !!(mpc_dev_backend(r->dev)->caps & MPC_BE_SEQNO), seqno, end_ns,
				 data_flags };
	int ret;

	if (v->p) {
		mpc_config_init(&v->cfg, v->desc, v->l, v->gpu, m.interval_s);
		if (v->freq_hz > 0)
			v->cfg.v[MPC_CFG_GPU_FREQ_HZ] = v->freq_hz;
		mpc_prog_eval(v->p, r->s, &v->cfg, v->val);
	}
	ret = r->sink->sample(r->t, v, r->state, r->s, &m);
	if (ret)
		return ret;
	if (r->n == r->cap) {
		unsigned cap = r->cap ? r->cap * 2 : 1024;
		uint64_t *n = realloc(r->iv, cap * sizeof(*n));

		if (!n)
			return tool_error(r->t, "out of memory");
		r->iv = n;
		r->cap = cap;
	}
	r->iv[r->n++] = end_ns - start_ns;
	return 0;
}

static int rec_should_stop(const struct rec_opts *o, const struct rec *r, uint64_t end_mono,
			   int child_done)
{
	return got_sigint || child_done || (o->s.count && r->n >= o->s.count) ||
	       (end_mono && mono_ns() >= end_mono);
}

/* Reap the command if it exited; 1 once it has. */
static int child_exited(pid_t child, int *status, int *done)
{
	if (child > 0 && !*done && waitpid(child, status, WNOHANG) == child)
		*done = 1;
	return *done;
}

/*
 * Where the sample ending at @ts starts: at the backend's interval start
 * when a GPU recovery or the enable moved it past @prev, the previous dump.
 */
static uint64_t interval_start(const struct run *run, uint64_t prev, uint64_t ts)
{
	uint64_t istart = mpc_sample_interval_start_ns(run->s);

	return istart > prev && istart < ts ? istart : prev;
}

#define REC_MAX_FAILING	3

/* The tool's loop: a DUMP at every absolute deadline, with the sample's flags. */
static int loop_user(struct rec *r, const struct rec_opts *o, uint64_t start, uint64_t end_mono,
		     pid_t child, int *status, int *child_done, unsigned long long prev_ts,
		     struct run *run)
{
	unsigned long long seq, ts;
	struct mpc_err e;
	uint64_t k = 0;
	int ret = 0;

	for (;;) {
		uint64_t deadline, now;
		int woke;

		k++;
		deadline = start + k * o->s.interval_ns;
		if (end_mono && deadline > end_mono)
			deadline = end_mono;
		now = mono_ns();
		if (now > deadline + o->s.interval_ns) {
			/* late by more than a period: to the next deadline, no burst */
			uint64_t behind = (now - deadline) / o->s.interval_ns;

			r->skipped += (unsigned)behind;
			k += behind;
			deadline = start + k * o->s.interval_ns;
		}
		got_sigchld = 0;
		woke = sleep_abs(deadline);
		if (woke < 0)
			return tool_error(r->t, "clock_nanosleep failed: %s", strerror(errno));
		child_exited(child, status, child_done);
		/* a SIGCHLD of something else: back to sleep */
		if (woke && !got_sigint && !*child_done) {
			k--;
			continue;
		}
		ret = run_grab_err(run, &seq, &ts, &e);
		if ((ret == -ETIMEDOUT || ret == -ENXIO) && ++r->failing < REC_MAX_FAILING) {
			r->failed++;
			tool_error(r->t, "record: a sample failed, recording goes on: %s", e.msg);
			continue;
		}
		if (ret)
			return tool_err(r->t, &e);
		r->failing = 0;
		ret = rec_emit(r, interval_start(run, prev_ts, ts), ts, seq,
			       mpc_sample_data_flags(run->s));
		if (ret)
			return ret;
		prev_ts = ts;
		run->fresh = 1;
		if (rec_should_stop(o, r, end_mono, *child_done))
			return 0;
	}
}

/*
 * The kernel's sampling stream: records as they come, a SAMPLE's counters
 * added whole (a v3 session's 64-bit values). A v3 session reports in-band:
 * a sample that stands for periods its ring had no room for says how many
 * (lost, flagged overflow), and a failed sample is the next one's
 * after-recovery; the v2 stream has LOST and ERROR records.
 */
static int loop_stream(struct rec *r, const struct rec_opts *o, uint64_t end_mono, pid_t child,
		       int *status, int *child_done, int v3)
{
	struct mpc_record rec;
	struct mpc_err e;
	int ret;

	for (;;) {
		got_sigchld = 0;
		mpc_sample_reset(r->s);
		ret = mpc_dev_stream_next_add(r->dev, r->s, &rec, &e);
		child_exited(child, status, child_done);
		if (ret == -EINTR) {
			if (rec_should_stop(o, r, end_mono, *child_done))
				return 0;
			continue;
		}
		if (ret)
			return tool_err(r->t, &e);
		switch (rec.type) {
		case MPC_REC_SAMPLE:
			if (v3) {
				r->lost += rec.lost;
				if (rec.data_flags & MPC_DATA_AFTER_RECOVERY)
					r->errors++;
			}
			if (!r->n)
				r->ts0 = rec.start_ns;
			ret = rec_emit(r, rec.start_ns, rec.end_ns, rec.seqno, rec.data_flags);
			if (ret)
				return ret;
			break;
		case MPC_REC_LOST:
			r->lost += rec.lost;
			break;
		case MPC_REC_ERROR:
			r->errors++;
			break;
		default:
			break;		/* a record type of a newer driver */
		}
		if (rec_should_stop(o, r, end_mono, *child_done))
			return 0;
	}
}

/* Period statistics from the samples' intervals, to stderr. */
static void report(const struct rec *r, const char *out, const char *fmt, const char *how,
		   int stream, uint64_t period_ns)
{
	double mean = 0, p99 = 0;
	uint64_t *dev;
	unsigned n = r->n;

	if (!n) {
		fprintf(stderr, "%s: record: no sample written to %s\n", r->t->prog, out);
		return;
	}
	dev = malloc(n * sizeof(*dev));
	for (unsigned i = 0; i < n; i++) {
		mean += (double)r->iv[i];
		if (dev)
			dev[i] = r->iv[i] > period_ns ? r->iv[i] - period_ns : period_ns - r->iv[i];
	}
	mean /= n;
	if (dev) {
		qsort(dev, n, sizeof(*dev), cmp_u64);
		p99 = (double)dev[(unsigned)((n - 1) * 0.99)];
	}
	free(dev);
	fprintf(stderr, "%s: record: %u samples to %s (%s, %s); period %.3f ms asked, %.3f ms "
		"mean, p99 deviation %.3f ms; ", r->t->prog, n, out, fmt, how,
		(double)period_ns / 1e6, mean / 1e6, p99 / 1e6);
	if (stream)
		fprintf(stderr, "%llu sample%s lost, %llu failed\n", (unsigned long long)r->lost,
			r->lost == 1 ? "" : "s", (unsigned long long)r->errors);
	else {
		fprintf(stderr, "%u deadline%s missed by more than a period", r->skipped,
			r->skipped == 1 ? "" : "s");
		if (r->failed)
			fprintf(stderr, ", %u sample%s failed (what the GPU counted up to each "
				"is lost)", r->failed, r->failed == 1 ? "" : "s");
		fputc('\n', stderr);
	}
}

/* --jobs: per queue, the jobs and their summed time, to stderr */
static void report_jobs(const struct rec *r, const struct job_set *js)
{
	fprintf(stderr, "%s: record: jobs:", r->t->prog);
	if (!js->nqueue)
		fputs(" none", stderr);
	for (unsigned q = 0; q < js->nqueue; q++) {
		uint64_t sum = 0;
		unsigned n = 0;

		for (unsigned i = 0; i < js->n; i++)
			if (js->s[i].queue == q) {
				sum += js->s[i].end_ns - js->s[i].begin_ns;
				n++;
			}
		fprintf(stderr, "%s %s %u in %.3f ms", q ? ";" : "", js->queue[q], n,
			(double)sum / 1e6);
	}
	fprintf(stderr, "; %u unfinished, %llu events lost\n", js->unfinished, js->lost);
}

int cmd_record(struct tool *t, int argc, char **argv)
{
	struct rec_opts o = { 0 };
	struct mpc_dev *dev = NULL;
	struct view v = { 0 };
	struct mpc_enable en = { 0 };
	struct mpc_err e;
	struct rec r = { .t = t, .v = &v };
	pid_t child = -1;
	int status = 0, ret, child_done = 0, began = 0, enabled = 0, stream = 0, v3 = 0;
	char how[64] = "tool loop";
	uint64_t start, end_mono = 0;
	unsigned long long prev_ts = 0;
	struct run run;
	struct jobs *jobs = NULL;
	struct job_set js = { 0 };
	FILE *out = NULL;
	char **cmd;

	ret = parse_rec_opts(t, argc, argv, &o);
	if (ret)
		return ret < 0 ? 0 : ret;
	if (optind < argc && !strcmp(argv[optind], "--"))
		optind++;
	cmd = optind < argc ? argv + optind : NULL;
	if (cmd && (o.s.duration_ms || o.s.count))
		return tool_error(t, "give a command or -n/--duration, not both");
	r.sink = rec_sink(t);
	if (!r.sink)
		return 1;
	if (!o.output)
		o.output = r.sink->output;
	if (o.jobs && !r.sink->jobs)
		return tool_error(t, "--jobs writes slices into a trace: --format perfetto or "
				  "chrome-trace");

	ret = run_open_view(t, &dev, &v, &o.s, REC_DEFAULTS);
	r.dev = dev;
	if (!ret && mpc_sample_new(v.l, &r.s, &e))
		ret = tool_err(t, &e);
	if (!ret && !(r.buf = calloc(1, mpc_desc_dump_size(v.desc))))
		ret = tool_error(t, "out of memory");
	en.counter_set = (unsigned)o.s.set;
	if (!ret && o.s.masks)
		ret = run_parse_masks(t, o.s.masks, mpc_desc_counters_per_block(v.desc), &en);
	if (ret)
		goto out;
	/* a kernel stream that takes the period: else the tool's loop */
	stream = (mpc_dev_backend(dev)->caps & MPC_BE_PERIODIC) && !o.user_loop &&
		 o.s.interval_ns <= MALI_PERFCNT_STREAM_MAX_PERIOD_NS &&
		 mpc_dev_stream_kind(dev, o.s.interval_ns);
	if (!stream && mpc_dev_backend(dev)->max_sample_interval_ns &&
	    o.s.interval_ns > mpc_dev_backend(dev)->max_sample_interval_ns) {
		ret = tool_error(t, "the %s backend's 32-bit counters can wrap in %.0f ms; record "
				 "with a shorter period (-I)", mpc_dev_backend(dev)->name,
				 (double)mpc_dev_backend(dev)->max_sample_interval_ns / 1e6);
		goto out;
	}
	/* no SA_RESTART: a signal ends a blocking read of the stream */
	run_signals(!!cmd);

	if (stream) {
		const char *kind = mpc_dev_stream_kind(dev, o.s.interval_ns);

		v3 = kind && !strcmp(kind, "v3 session");
		if (kind)
			snprintf(how, sizeof(how), "kernel stream (%s)", kind);
		else
			snprintf(how, sizeof(how), "kernel stream");
		/* about a second of records, within the driver's limits */
		uint64_t ring = 1000000000ull / o.s.interval_ns;

		ring = ring < 64 ? 64 : ring > MALI_PERFCNT_STREAM_MAX_RECORDS ?
		       MALI_PERFCNT_STREAM_MAX_RECORDS : ring;
		if (mpc_dev_stream_start(dev, &en, o.s.interval_ns, (unsigned)ring, &e)) {
			ret = tool_err(t, &e);
			goto out;
		}
	} else {
		if (mpc_dev_enable(dev, &en, &e)) {
			ret = tool_err(t, &e);
			goto out;
		}
		enabled = 1;
		run_init(&run, t, dev, r.buf, r.s);
		/* a first dump starts the first interval at a known time */
		ret = run_grab(&run, NULL, &prev_ts);
		if (ret)
			goto out;
		run.fresh = 1;
		r.ts0 = prev_ts;
	}
	/* only once the counters run: a refused recording leaves the file be */
	if (!strcmp(o.output, "-")) {
		out = stdout;
	} else if (!(out = fopen(o.output, "w"))) {
		ret = tool_error(t, "cannot write '%s': %s", o.output, strerror(errno));
		goto out;
	}
	t->out = t->o.f = out;
	/* the jobs from before the first sample's interval on */
	if (o.jobs && jobs_start(t, &jobs)) {
		ret = 1;
		goto out;
	}
	start = mono_ns();
	ret = r.sink->begin(t, &v, &r.state, stream ? now_raw_ns() : prev_ts, o.s.interval_ns);
	began = 1;
	if (ret)
		goto out;
	if (o.s.duration_ms)
		end_mono = start + o.s.duration_ms * 1000000ull;
	if (cmd && (child = run_spawn(t, cmd)) < 0) {
		ret = 1;
		goto out;
	}
	if (stream)
		ret = loop_stream(&r, &o, end_mono, child, &status, &child_done, v3);
	else
		ret = loop_user(&r, &o, start, end_mono, child, &status, &child_done, prev_ts, &run);
out:
	if (jobs && began && !ret) {
		ret = jobs_stop(t, jobs, &js);
		if (!ret)
			ret = r.sink->jobs(t, r.state, &js);
	}
	if (began && r.sink->end(t, &v, r.state) && !ret)
		ret = 1;
	if (stream && mpc_dev_stream_stop(dev, &e) && !ret)
		ret = tool_err(t, &e);
	if (enabled && mpc_dev_disable(dev, &e) && !ret)
		ret = tool_err(t, &e);
	if (out && out != stdout && fclose(out) && !ret)
		ret = tool_error(t, "writing '%s' failed: %s", o.output, strerror(errno));
	t->out = t->o.f = stdout;
	if (began && !ret)
		report(&r, o.output, r.sink->name ? r.sink->name : t->o.ops->name, how, stream,
		       o.s.interval_ns);
	if (began && !ret && jobs)
		report_jobs(&r, &js);
	ret = run_reap(child, &status, &child_done, ret);
	jobs_free(jobs);
	job_set_free(&js);
	free(r.iv);
	free(r.buf);
	mpc_sample_free(r.s);
	view_free(&v);
	mpc_dev_close(dev);
	return ret;
}
