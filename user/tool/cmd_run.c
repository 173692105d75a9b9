// SPDX-License-Identifier: MIT
/* "sample" and "stat": live counters through the DRM device. */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "samp_table.h"
#include "tool.h"

volatile sig_atomic_t got_sigint, got_sigchld;

static void on_signal(int sig)
{
	if (sig == SIGINT || sig == SIGTERM)
		got_sigint = 1;
	else if (sig == SIGCHLD)
		got_sigchld = 1;
}

/*
 * SIGCHLD and SIGTERM set the flags (no SA_RESTART: a blocking read or
 * sleep ends); SIGINT too without a command, with one Ctrl-C goes to it.
 */
void run_signals(int have_cmd)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGCHLD, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	if (!have_cmd)
		sigaction(SIGINT, &sa, NULL);
	else
		signal(SIGINT, SIG_IGN);	/* Ctrl-C goes to the command */
}

pid_t run_spawn(struct tool *t, char **cmd)
{
	pid_t child = fork();

	if (child < 0) {
		tool_error(t, "cannot start '%s': %s", cmd[0], strerror(errno));
		return -1;
	}
	if (child == 0) {
		signal(SIGINT, SIG_DFL);
		execvp(cmd[0], cmd);
		fprintf(stderr, "%s: cannot run '%s': %s; check the command name and PATH\n",
			t->prog, cmd[0], strerror(errno));
		_exit(127);
	}
	return child;
}

int run_reap(pid_t child, int *status, int *done, int r)
{
	if (child <= 0)
		return r;
	if (!*done) {
		while (waitpid(child, status, 0) < 0 && errno == EINTR)
			;
		*done = 1;
	}
	/* like perf stat: the command's exit status */
	if (!r && WIFEXITED(*status))
		return WEXITSTATUS(*status);
	if (!r && WIFSIGNALED(*status))
		return 128 + WTERMSIG(*status);
	return r;
}

static const struct samp_cmd cmd_sample_opts = {
	.name = "sample", .mask = SAMP_SAMPLE,
	.refusal = "'sample' takes one dump (see 'mali-perfcnt sample --help')",
};

/* stat prints a sample every -I: at most 100 a second */
#define STAT_MIN_INTERVAL_NS	10000000ull

static const struct samp_cmd cmd_stat_opts = {
	.name = "stat", .mask = SAMP_STAT,
	.refusal = "'stat' counts over -I, --duration or a command",
	.min_interval_ns = STAT_MIN_INTERVAL_NS,
};

static int parse_stat_opts(struct tool *t, int argc, char **argv, struct samp_opts *o)
{
	int r = samp_parse(t, argc, argv, &cmd_stat_opts, o, NULL);

	if (r)
		return r;
	if (o->count && !o->interval_ns)
		return tool_error(t, "-n counts intervals; give -I MS too");
	if (o->interval_ns && o->duration_ms) {
		if (o->count)
			return tool_error(t, "-n and --duration both bound -I; give one of them");
		/* --duration with -I: as many whole intervals as cover it */
		o->count = (o->duration_ms * 1000000ull + o->interval_ns - 1) / o->interval_ns;
	}
	return 0;
}

int run_open_view(struct tool *t, struct mpc_dev **dev, struct view *v, const struct samp_opts *o,
		  const char *defaults)
{
	struct mpc_err e;

	if (tool_load_db(t))
		return 1;
	if (tool_open(t, 0, dev, &e))
		return tool_err(t, &e);
	if (mpc_desc_dup(mpc_dev_desc(*dev), &v->desc, &e))
		return tool_err(t, &e);
	v->counter_set = (unsigned)o->set;
	v->per_instance = o->per_instance;
	v->source = mpc_dev_path(*dev);
	v->freq_hz = o->freq_mhz * 1e6;
	if (o->set && mpc_desc_nr_counter_sets(v->desc) < 2)
		return tool_error(t, "--set %llu: %s has only counter set 0", o->set,
				  mpc_desc_product(v->desc));
	if (view_init(t, v, NULL, o->raw) || view_select(t, v, o->events, defaults))
		return 1;
	return 0;
}

/*
 * --masks jm=0x..,tiler=0x..,shader=0x..,l2=0x..: the ENABLE block masks (bit
 * n enables counters 4n..4n+3); keys left out stay 0xffff (every counter).
 */
int run_parse_masks(struct tool *t, const char *spec, unsigned cpb, struct mpc_enable *en)
{
	char *copy = strdup(spec), *save = NULL;
	unsigned long long max = cpb == 128 ? 0xffffffffull : 0xffffull;
	int r = 0;

	en->use_masks = 1;
	en->jm = en->tiler = en->shader = en->l2 = (uint32_t)max;
	for (char *p = strtok_r(copy, ", ", &save); p && !r; p = strtok_r(NULL, ", ", &save)) {
		char *eq = strchr(p, '=');
		unsigned long long v;
		uint32_t *dst;

		if (!eq) {
			r = tool_error(t, "--masks: '%s' is not KEY=MASK (keys jm, tiler, shader, l2)", p);
			break;
		}
		*eq = 0;
		dst = !strcmp(p, "jm") ? &en->jm : !strcmp(p, "tiler") ? &en->tiler :
		      !strcmp(p, "shader") ? &en->shader : !strcmp(p, "l2") ? &en->l2 : NULL;
		if (!dst) {
			r = tool_error(t, "--masks: unknown block '%s'; use jm, tiler, shader or l2", p);
			break;
		}
		if (tool_parse_u64(t, "--masks", eq + 1, ~0ull, &v)) {
			r = 1;
			break;
		}
		if (v > max)
			r = tool_error(t, "--masks: %s=0x%llx has bits beyond the %u groups of a "
				       "%u-counter block (at most 0x%llx)", p, v, cpb / 4, cpb, max);
		*dst = (uint32_t)v;
	}
	free(copy);
	return r;
}

static void sleep_until(double when)
{
	struct timespec ts;
	double now = now_raw();

	while (!got_sigint && !got_sigchld && now < when) {
		double d = when - now;

		ts.tv_sec = (time_t)d;
		ts.tv_nsec = (long)((d - (double)ts.tv_sec) * 1e9);
		nanosleep(&ts, NULL);
		now = now_raw();
	}
}

void run_init(struct run *r, struct tool *t, struct mpc_dev *dev, void *buf,
		     struct mpc_sample *s)
{
	r->t = t;
	r->dev = dev;
	r->buf = buf;
	r->s = s;
	r->fresh = 1;
	r->max_ns = mpc_dev_backend(dev)->max_sample_interval_ns;
	r->last_ns = 0;
}

int run_grab_err(struct run *r, unsigned long long *seq, unsigned long long *ts,
		 struct mpc_err *e)
{
	struct mpc_dump_info di;

	/* a failed sample leaves the reset sample empty, still fresh */
	if (r->fresh)
		mpc_sample_reset(r->s);
	/* a counter session's 64-bit sums are kept whole */
	if (mpc_dev_sample_add(r->dev, r->s, &di, e))
		return e->code ? e->code : -EINVAL;
	r->fresh = 0;
	r->last_ns = di.timestamp_ns;
	if (seq)
		*seq = di.seqno;
	if (ts)
		*ts = di.timestamp_ns;
	return 0;
}

int run_grab(struct run *r, unsigned long long *seq, unsigned long long *ts)
{
	struct mpc_err e;

	return run_grab_err(r, seq, ts, &e) ? tool_err(r->t, &e) : 0;
}

/*
 * The span (s) the sample ending at @ts covers: from the backend's interval
 * start (which a GPU recovery moves), else from @prev, the previous dump.
 */
static double span_s(const struct run *r, unsigned long long prev, unsigned long long ts)
{
	uint64_t istart = mpc_sample_interval_start_ns(r->s);

	if (istart && istart < ts)
		return (double)(ts - istart) * 1e-9;
	return (double)(ts - prev) * 1e-9;
}

/* sleep until @when (CLOCK_MONOTONIC_RAW seconds), sampling in between if needed */
static int wait_until(struct run *r, double when)
{
	while (!got_sigint && !got_sigchld && now_raw() < when) {
		double next = when;

		if (r->max_ns && r->last_ns)
			next = fmin(when, (double)(r->last_ns + r->max_ns) * 1e-9);
		sleep_until(next);
		if (r->max_ns && !got_sigint && !got_sigchld && now_raw() < when &&
		    now_raw_ns() >= r->last_ns + r->max_ns && run_grab(r, NULL, NULL))
			return 1;
	}
	return 0;
}

int cmd_sample(struct tool *t, int argc, char **argv)
{
	struct samp_opts o = { .delay_ms = 100 };
	struct mpc_dev *dev = NULL;
	struct view v = { 0 };
	struct mpc_sample *s = NULL;
	struct mpc_enable en = { 0 };
	struct mpc_err e;
	void *buf = NULL;
	int r;

	r = samp_parse(t, argc, argv, &cmd_sample_opts, &o, NULL);
	if (r)
		return r < 0 ? 0 : r;
	if (optind < argc)
		return tool_error(t, "'sample' takes no arguments (got '%s'); see 'mali-perfcnt stat' "
				  "to measure a command", argv[optind]);
	r = run_open_view(t, &dev, &v, &o, "all");
	if (!r && mpc_sample_new(v.l, &s, &e))
		r = tool_err(t, &e);
	if (!r && !(buf = calloc(1, mpc_desc_dump_size(v.desc))))
		r = tool_error(t, "out of memory");
	if (!r) {
		unsigned long long seq = 0, ts = 0, ts0 = 0;
		uint64_t caps = mpc_dev_backend(dev)->caps;
		struct run run;
		double t0;

		run_init(&run, t, dev, buf, s);
		en.counter_set = (unsigned)o.set;
		if (o.masks && run_parse_masks(t, o.masks, mpc_desc_counters_per_block(v.desc), &en)) {
			r = 1;
			goto out_sample;
		}
		t0 = now_raw();
		if (mpc_dev_enable(dev, &en, &e)) {
			r = tool_err(t, &e);
		} else {
			/*
			 * Without a driver timestamp, a first dump right after
			 * ENABLE starts the interval at a known time.
			 */
			if (!(caps & MPC_BE_KERNEL_TIMESTAMP)) {
				r = run_grab(&run, NULL, &ts0);
				t0 = (double)ts0 * 1e-9;
				run.fresh = 1;
			}
			if (!r)
				r = wait_until(&run, now_raw() + (double)o.delay_ms / 1000.0);
			if (!r)
				r = run_grab(&run, &seq, &ts);
			if (mpc_dev_disable(dev, &e) && !r)
				r = tool_err(t, &e);
		}
		if (!r) {
			struct sample_meta m = { 0, NAN, ts * 1e-9 - t0, !!(caps & MPC_BE_SEQNO), seq, ts,
						 mpc_sample_data_flags(s) };
			uint64_t istart = mpc_sample_interval_start_ns(s);

			/* the counters ran from just before ENABLE (the driver knows better) */
			if (istart && istart < ts)
				m.interval_s = (double)(ts - istart) * 1e-9;
			if (!(m.interval_s > 0))
				m.interval_s = NAN;
			out_begin(t, &v, "sample");
			out_sample(t, &v, s, &m);
			out_end(t, &v, NULL);
		}
	}
out_sample:
	free(buf);
	mpc_sample_free(s);
	view_free(&v);
	mpc_dev_close(dev);
	return r;
}

#define STAT_DEFAULTS \
	"GPU_ACTIVE,MpcGPUActiveUtil,MpcGPUActiveTime,MaliGPUIRQUtil,MaliFragQueueUtil," \
	"MaliNonFragQueueUtil,MaliTilerUtil,MaliCoreUtil,MaliExtBusRdBPS,MaliExtBusWrBPS," \
	"MpcIRQUtil,MpcFragQueueUtil,MpcNonFragQueueUtil,MpcTilerUtil,MpcCoreUtil," \
	"MpcExtBusRdBPS,MpcExtBusWrBPS"

int cmd_stat(struct tool *t, int argc, char **argv)
{
	struct samp_opts o = { 0 };
	struct mpc_dev *dev = NULL;
	struct view v = { 0 };
	struct mpc_sample *s = NULL;
	struct mpc_enable en = { 0 };
	struct mpc_err e;
	void *buf = NULL;
	pid_t child = -1;
	int status = 0, r, child_done = 0;
	char what[256];
	char **cmd;

	r = parse_stat_opts(t, argc, argv, &o);
	if (r)
		return r < 0 ? 0 : r;
	if (optind < argc && !strcmp(argv[optind], "--"))
		optind++;
	cmd = optind < argc ? argv + optind : NULL;
	if (cmd && o.duration_ms)
		return tool_error(t, "give either a command or --duration, not both");
	r = run_open_view(t, &dev, &v, &o, STAT_DEFAULTS);
	if (!r && mpc_sample_new(v.l, &s, &e))
		r = tool_err(t, &e);
	if (!r && !(buf = calloc(1, mpc_desc_dump_size(v.desc))))
		r = tool_error(t, "out of memory");
	if (r)
		goto out;
	v.stat_style = o.interval_ns ? 2 : 1;
	if (cmd) {
		size_t n = 0;

		n += (size_t)snprintf(what + n, sizeof(what) - n, "'");
		for (char **a = cmd; *a && n < sizeof(what) - 2; a++)
			n += (size_t)snprintf(what + n, sizeof(what) - n, "%s%s", a == cmd ? "" : " ", *a);
		if (n < sizeof(what) - 1)
			snprintf(what + n, sizeof(what) - n, "'");
	} else if (o.duration_ms) {
		snprintf(what, sizeof(what), "%llu ms", o.duration_ms);
	} else if (o.count) {
		snprintf(what, sizeof(what), "%llu x %.10g ms", o.count, (double)o.interval_ns / 1e6);
	} else {
		snprintf(what, sizeof(what), "the system (until Ctrl-C)");
	}

	run_signals(!!cmd);

	en.counter_set = (unsigned)o.set;
	if (o.masks && run_parse_masks(t, o.masks, mpc_desc_counters_per_block(v.desc), &en)) {
		r = 1;
		goto out;
	}
	if (mpc_dev_enable(dev, &en, &e)) {
		r = tool_err(t, &e);
		goto out;
	}
	unsigned long long seq0, ts0, seq, ts, prev_ts;
	int has_seq = !!(mpc_dev_backend(dev)->caps & MPC_BE_SEQNO);
	struct run run;
	double start;

	run_init(&run, t, dev, buf, s);
	/* a first dump starts every interval at a known CLOCK_MONOTONIC_RAW time */
	r = run_grab(&run, &seq0, &ts0);
	if (r)
		goto disable;
	run.fresh = 1;
	prev_ts = ts0;
	start = now_raw();
	if (cmd && (child = run_spawn(t, cmd)) < 0) {
		r = 1;
		goto disable;
	}
	out_begin(t, &v, what);
	if (o.interval_ns) {
		for (unsigned long long k = 1;; k++) {
			double when = start + (double)k * (double)o.interval_ns / 1e9;

			/* SIGCHLD only cuts the sleep short: sleep on until the end */
			do {
				got_sigchld = 0;
				r = wait_until(&run, when);
				if (child > 0 && !child_done && waitpid(child, &status, WNOHANG) == child)
					child_done = 1;
			} while (!r && !got_sigint && !child_done && now_raw() < when);
			if (!r)
				r = run_grab(&run, &seq, &ts);
			if (r)
				break;
			struct sample_meta m = { (unsigned)(k - 1), (ts - ts0) * 1e-9,
						 span_s(&run, prev_ts, ts), has_seq, seq, ts,
						 mpc_sample_data_flags(s) };

			prev_ts = ts;
			out_sample(t, &v, s, &m);
			run.fresh = 1;
			if ((o.count && k >= o.count) || got_sigint || child_done)
				break;
		}
	} else {
		double end = o.duration_ms ? start + (double)o.duration_ms / 1000.0 : INFINITY;

		while (!got_sigint) {
			if (child > 0 && waitpid(child, &status, WNOHANG) == child) {
				child_done = 1;
				break;
			}
			if (now_raw() >= end)
				break;
			r = wait_until(&run, fmin(end, now_raw() + 0.05));
			if (r)
				break;
			got_sigchld = 0;
		}
		if (!r)
			r = run_grab(&run, &seq, &ts);
		if (!r) {
			struct sample_meta m = { 0, (ts - ts0) * 1e-9, span_s(&run, ts0, ts), has_seq, seq,
						 ts, mpc_sample_data_flags(s) };

			out_sample(t, &v, s, &m);
		}
	}
	if (!r) {
		char foot[96];

		snprintf(foot, sizeof(foot), "%14.6f seconds time elapsed", now_raw() - start);
		out_end(t, &v, foot);
	}
disable:
	if (mpc_dev_disable(dev, &e) && !r)
		r = tool_err(t, &e);
	r = run_reap(child, &status, &child_done, r);
out:
	free(buf);
	mpc_sample_free(s);
	view_free(&v);
	mpc_dev_close(dev);
	return r;
}
