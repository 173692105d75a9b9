// SPDX-License-Identifier: MIT
/*
 * "top": a live full-screen view of the GPU, in the spirit of intel_gpu_top
 * and fdperf: utilisation bars, per-core activity, bandwidth and the derived
 * metrics, refreshed every period. It reads a live device (a DUMP per
 * refresh, on every backend) or replays a capture (`cat perfcnt_stream`, a
 * STREAM_OPEN fd) one sample per refresh, so it can be tested on a host.
 *
 * The screen is drawn with ANSI/VT100 sequences (alternate screen, home,
 * clear to end of line) and the keys are read in non-canonical mode: no
 * curses library, so the tool needs nothing more in a board's rootfs. When
 * standard output is not a terminal it prints each frame one after the other
 * without escape sequences (batch mode, as `top -b`).
 *
 * Keys: 1 utilisation, 2 cores, 3 bandwidth, 4 metrics, p pause, + and -
 * double or halve the refresh period (live), q quit.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "mali_perfcnt_drm.h"
#include "tool.h"

#define MAX_DUMP_FILE (256u << 20)
/* top redraws every -I: at most 10 frames a second, by default one */
#define TOP_MIN_INTERVAL_NS	100000000ull
#define TOP_DEFAULT_INTERVAL_NS	1000000000ull

enum top_view { VIEW_UTIL, VIEW_CORES, VIEW_BW, VIEW_METRICS, VIEW_COUNT };
static const char *const view_names[VIEW_COUNT] = { "utilisation", "cores", "bandwidth",
						     "metrics" };

struct top {
	struct tool *t;
	struct view *v;
	struct mpc_sample *s;
	enum top_view view;
	int tty, paused, batch_frames;
	unsigned rows, cols;
	unsigned frame;
	double interval_s;		/* of the sample shown */
	unsigned data_flags;
	const char *status;		/* "live", "replay 3/10", "end of replay" */
	double bw_max;			/* largest bandwidth seen: the bars' scale */
	struct termios saved;
	int have_saved;
};

static volatile sig_atomic_t top_quit, top_resized;

static void top_signal(int sig)
{
	if (sig == SIGWINCH)
		top_resized = 1;
	else
		top_quit = 1;
}

static void term_size(struct top *tp)
{
	struct winsize ws;

	tp->rows = 40;
	tp->cols = 100;
	if (tp->tty && !ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) && ws.ws_row && ws.ws_col) {
		tp->rows = ws.ws_row;
		tp->cols = ws.ws_col;
	}
	if (tp->cols > 200)
		tp->cols = 200;
}

static void term_enter(struct top *tp)
{
	struct termios raw;

	if (!tp->tty)
		return;
	if (isatty(STDIN_FILENO) && !tcgetattr(STDIN_FILENO, &tp->saved)) {
		raw = tp->saved;
		raw.c_lflag &= ~(tcflag_t)(ICANON | ECHO);
		raw.c_cc[VMIN] = 0;
		raw.c_cc[VTIME] = 0;
		tcsetattr(STDIN_FILENO, TCSANOW, &raw);
		tp->have_saved = 1;
	}
	/* alternate screen, cursor hidden */
	fputs("\033[?1049h\033[?25l", stdout);
	fflush(stdout);
}

static void term_leave(struct top *tp)
{
	if (!tp->tty)
		return;
	fputs("\033[?25h\033[?1049l", stdout);
	fflush(stdout);
	if (tp->have_saved)
		tcsetattr(STDIN_FILENO, TCSANOW, &tp->saved);
}

/* One line of the frame: clipped to the width, cleared to its end. */
__attribute__((format(printf, 2, 3)))
static void line(struct top *tp, const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (strlen(buf) > tp->cols)
		buf[tp->cols] = 0;
	fputs(buf, stdout);
	fputs(tp->tty ? "\033[K\n" : "\n", stdout);
}

static void bar(char *out, size_t n, double frac, unsigned width)
{
	unsigned full;

	if (!(frac >= 0))
		frac = 0;
	if (frac > 1)
		frac = 1;
	if (width + 3 > n)
		width = (unsigned)n - 3;
	full = (unsigned)lround(frac * width);
	out[0] = '[';
	for (unsigned i = 0; i < width; i++)
		out[1 + i] = i < full ? '#' : '.';
	out[1 + width] = ']';
	out[2 + width] = 0;
}

static const struct mpc_metric *metric_at(const struct top *tp, unsigned i, double *val)
{
	const struct mpc_metric *m = mpc_prog_metric(tp->v->p, tp->v->met[i]);

	*val = tp->v->val[tp->v->met[i]];
	return m;
}

static unsigned bar_width(const struct top *tp)
{
	return tp->cols > 60 ? tp->cols - 48 : 12;
}

/*
 * 1: every utilisation metric (percent, name ending in Util) with a bar, the
 * GPU's own active utilisation first.
 */
static void draw_util(struct top *tp, unsigned *left)
{
	char b[256];

	for (unsigned k = 0; k < 2 * tp->v->nmet && *left; k++) {
		unsigned i = k % tp->v->nmet;
		double x;
		const struct mpc_metric *m = metric_at(tp, i, &x);
		size_t len = strlen(m->def->name);

		if (strcmp(m->def->unit, "percent") || len < 4 ||
		    strcmp(m->def->name + len - 4, "Util"))
			continue;
		/* pass 0: GPU active; pass 1: the others */
		if ((k < tp->v->nmet) != !!strstr(m->def->name, "GPUActive"))
			continue;
		bar(b, sizeof(b), x / 100, bar_width(tp));
		if (isnan(x))
			line(tp, " %-24s %s %8s", m->def->name, b, "-");
		else
			line(tp, " %-24s %s %7.1f %%", m->def->name, b, x);
		(*left)--;
	}
}

/* 2: each shader core's active cycles against the GPU's. */
static void draw_cores(struct top *tp, unsigned *left)
{
	static const char *const core_names[] = { "MaliCoreActiveCy", "MaliFragActiveCy",
						  "MaliCompActiveCy" };
	const struct mpc_counter_def *gpu = NULL, *core = NULL;
	uint64_t ga = 0;
	char b[256];

	if (tp->v->gpu) {
		gpu = mpc_gpu_find_counter(tp->v->gpu, "MaliGPUActiveCy");
		for (unsigned i = 0; i < 3 && !core; i++)
			core = mpc_gpu_find_counter(tp->v->gpu, core_names[i]);
	}
	if (!gpu || !core) {
		line(tp, " (no per-core activity counter for this GPU in the database)");
		(*left)--;
		return;
	}
	mpc_counter_value(tp->s, gpu, -1, &ga);
	line(tp, " %s per core / GPU_ACTIVE", core->name);
	(*left)--;
	for (unsigned bi = 0; bi < mpc_sample_nblocks(tp->s) && *left; bi++) {
		uint64_t x = 0;
		unsigned fl;

		if (mpc_sample_block_kind(tp->s, bi) != MPC_BLK_SHADER)
			continue;
		fl = mpc_counter_value(tp->s, core, (int)mpc_sample_block_instance(tp->s, bi), &x);
		bar(b, sizeof(b), ga ? (double)x / (double)ga : 0, bar_width(tp));
		if (fl & (MPC_VAL_NOT_COLLECTED | MPC_VAL_UNKNOWN) || !ga)
			line(tp, " core %-19u %s %8s", mpc_sample_block_instance(tp->s, bi), b,
			     "-");
		else
			line(tp, " core %-19u %s %7.1f %%", mpc_sample_block_instance(tp->s, bi), b,
			     100.0 * (double)x / (double)ga);
		(*left)--;
	}
}

/* 3: the bandwidth metrics (bytes/second), scaled to the largest seen. */
static void draw_bw(struct top *tp, unsigned *left)
{
	char b[256];

	for (unsigned i = 0; i < tp->v->nmet; i++) {
		double x;
		const struct mpc_metric *m = metric_at(tp, i, &x);

		if (!strcmp(m->def->unit, "bytes/second") && x > tp->bw_max)
			tp->bw_max = x;
	}
	for (unsigned i = 0; i < tp->v->nmet && *left; i++) {
		double x;
		const struct mpc_metric *m = metric_at(tp, i, &x);

		if (strcmp(m->def->unit, "bytes/second"))
			continue;
		bar(b, sizeof(b), tp->bw_max > 0 ? x / tp->bw_max : 0, bar_width(tp));
		if (isnan(x))
			line(tp, " %-24s %s %10s", m->def->name, b, "-");
		else
			line(tp, " %-24s %s %7.1f MB/s", m->def->name, b, x / 1e6);
		(*left)--;
	}
}

/* 4: every derived metric with a value. */
static void draw_metrics(struct top *tp, unsigned *left)
{
	for (unsigned i = 0; i < tp->v->nmet && *left; i++) {
		double x;
		const struct mpc_metric *m = metric_at(tp, i, &x);
		char val[48];

		if (!m->available || isnan(x))
			continue;
		line(tp, " %-32s %16s %s", m->def->name, fmt_value(x, val, sizeof(val)),
		     m->def->unit);
		(*left)--;
	}
}

static void draw(struct top *tp)
{
	static const char *const flag_names[] = { "saturated", "after recovery",
						  "after power loss", "first" };
	unsigned left;
	char flags[96] = "";

	if (top_resized) {
		top_resized = 0;
		term_size(tp);
	}
	for (unsigned i = 0; i < 4; i++)
		if (tp->data_flags & (1u << i))
			snprintf(flags + strlen(flags), sizeof(flags) - strlen(flags), "%s%s",
				 flags[0] ? ", " : "  [", flag_names[i]);
	if (flags[0])
		strncat(flags, "]", sizeof(flags) - strlen(flags) - 1);
	if (tp->tty)
		fputs("\033[H", stdout);
	else
		fputs("\n", stdout);
	line(tp, "mali-perfcnt top - %s, %d cores, %u L2 - %s", tp->v->gpu ? tp->v->gpu->name :
	     mpc_desc_product(tp->v->desc), mpc_desc_core_count(tp->v->desc),
	     mpc_layout_instances(tp->v->l, MPC_BLK_L2), tp->v->source ? tp->v->source : "?");
	line(tp, "frame %u, interval %.3f s, %s%s%s", tp->frame, tp->interval_s, tp->status,
	     tp->paused ? " (paused)" : "", flags);
	line(tp, "view: %s    keys: 1 util  2 cores  3 bandwidth  4 metrics  p pause  +/- period"
	     "  q quit", view_names[tp->view]);
	line(tp, "%s", "");
	left = tp->rows > 6 ? tp->rows - 5 : 1;
	switch (tp->view) {
	case VIEW_UTIL:
		draw_util(tp, &left);
		break;
	case VIEW_CORES:
		draw_cores(tp, &left);
		break;
	case VIEW_BW:
		draw_bw(tp, &left);
		break;
	default:
		draw_metrics(tp, &left);
		break;
	}
	if (tp->tty)
		fputs("\033[J", stdout);	/* clear what the last frame left below */
	fflush(stdout);
}

/* Wait up to @ms for a key; apply it. 1 when the frame must be redrawn. */
static int keys(struct top *tp, double *period_s, int live, int ms)
{
	struct pollfd p = { .fd = STDIN_FILENO, .events = POLLIN };
	char c;

	if (!tp->have_saved) {
		if (ms > 0)
			poll(NULL, 0, ms);
		return 0;
	}
	if (poll(&p, 1, ms) <= 0 || read(STDIN_FILENO, &c, 1) != 1)
		return 0;
	switch (c) {
	case 'q':
	case 'Q':
		top_quit = 1;
		return 0;
	case '1':
	case '2':
	case '3':
	case '4':
		tp->view = (enum top_view)(c - '1');
		return 1;
	case 'p':
	case ' ':
		tp->paused = !tp->paused;
		return 1;
	case '+':
		if (live && *period_s < 60)
			*period_s *= 2;
		return 1;
	case '-':
		if (live && *period_s > 0.1)
			*period_s /= 2;
		return 1;
	default:
		return 0;
	}
}

static void eval(struct top *tp, double interval_s)
{
	struct view *v = tp->v;

	tp->interval_s = interval_s;
	mpc_config_init(&v->cfg, v->desc, v->l, v->gpu, interval_s);
	if (v->freq_hz > 0)
		v->cfg.v[MPC_CFG_GPU_FREQ_HZ] = v->freq_hz;
	mpc_prog_eval(v->p, tp->s, &v->cfg, v->val);
}

/* Sleep @s seconds in key-sized steps; stop early on q. */
static void wait_keys(struct top *tp, double *period_s, int live, double s)
{
	double end = now_raw() + s;

	while (!top_quit) {
		double left = end - now_raw();

		if (left <= 0)
			break;
		if (keys(tp, period_s, live, (int)ceil(fmin(left, 0.05) * 1000)))
			draw(tp);
	}
}

static int top_replay(struct top *tp, const char *file, double period_s)
{
	const struct drm_mali_perfcnt_record *rec;
	struct mpc_err e;
	unsigned total = 0, k = 0;
	size_t len, off = 0;
	char *buf, status[64];
	int r = 0;

	if (mpc_read_file(file, MAX_DUMP_FILE, &buf, &len, &e))
		return tool_err(tp->t, &e);
	if (!capture_is_records(buf, len, mpc_desc_dump_size(tp->v->desc))) {
		free(buf);
		return tool_error(tp->t, "%s is not a capture of the sampling stream for this GPU "
				  "(cat .../perfcnt_stream, or record's stream); check the description",
				  file);
	}
	while ((rec = capture_next(buf, len, &off)))
		total += rec->type == MALI_PERFCNT_RECORD_SAMPLE;
	off = 0;
	tp->status = status;
	while (!top_quit && (rec = capture_next(buf, len, &off))) {
		if (rec->type != MALI_PERFCNT_RECORD_SAMPLE)
			continue;
		mpc_sample_reset(tp->s);
		if (mpc_decode(tp->s, (const char *)rec + rec->header_size,
			       mpc_desc_dump_size(tp->v->desc), &e)) {
			r = tool_error(tp->t, "%s, sample %u: %s", file, k, e.msg);
			break;
		}
		eval(tp, (double)(rec->end_ns - rec->start_ns) * 1e-9);
		tp->data_flags = rec->data_flags;
		snprintf(status, sizeof(status), "replay %u/%u of %s", ++k, total, file);
		tp->frame++;
		draw(tp);
		if (tp->batch_frames && tp->frame >= (unsigned)tp->batch_frames)
			break;
		do
			wait_keys(tp, &period_s, 0, period_s);
		while (tp->paused && !top_quit);
	}
	if (!r && !top_quit && !tp->batch_frames && tp->tty) {
		snprintf(status, sizeof(status), "end of replay of %s (%u samples)", file, total);
		draw(tp);
		while (!top_quit)
			if (keys(tp, &period_s, 0, 200))
				draw(tp);
	}
	free(buf);
	return r;
}

static int top_live(struct top *tp, struct mpc_dev *dev, double period_s)
{
	size_t size = mpc_desc_dump_size(mpc_dev_desc(dev));
	unsigned long long ts, prev;
	struct mpc_enable en = { 0 };
	struct mpc_err e;
	struct run run;
	void *buf = calloc(1, size);
	int r;

	if (!buf)
		return tool_error(tp->t, "out of memory");
	if (mpc_dev_enable(dev, &en, &e)) {
		free(buf);
		return tool_err(tp->t, &e);
	}
	run_init(&run, tp->t, dev, buf, tp->s);
	r = run_grab(&run, NULL, &prev);
	run.fresh = 1;
	tp->status = "live";
	while (!r && !top_quit) {
		wait_keys(tp, &period_s, 1, period_s);
		if (top_quit)
			break;
		r = run_grab(&run, NULL, &ts);
		if (r)
			break;
		run.fresh = 1;
		if (tp->paused) {
			prev = ts;
			continue;
		}
		eval(tp, (double)(ts - prev) * 1e-9);
		prev = ts;
		tp->frame++;
		draw(tp);
		if (tp->batch_frames && tp->frame >= (unsigned)tp->batch_frames)
			break;
	}
	if (mpc_dev_disable(dev, &e) && !r)
		r = tool_err(tp->t, &e);
	free(buf);
	return r;
}

int cmd_top(struct tool *t, int argc, char **argv)
{
	static const struct option opts[] = {
		COMMON_LONGOPTS,
		{ "interval", required_argument, NULL, 'I' },
		{ "count", required_argument, NULL, 'n' },
		{ "replay", required_argument, NULL, OPT_REPLAY },
		OFFLINE_LONGOPTS,
		{ "freq", required_argument, NULL, OPT_FREQ },
		{ "view", required_argument, NULL, OPT_VIEW },
		{ NULL, 0, NULL, 0 },
	};
	struct offline_desc od = { 0 };
	const char *replay = NULL;
	unsigned long long count = 0, interval_ns = TOP_DEFAULT_INTERVAL_NS;
	double freq_mhz = 0;
	struct view v = { 0 };
	struct mpc_dev *dev = NULL;
	struct top tp = { .t = t, .v = &v };
	struct sigaction sa;
	struct mpc_err e;
	char src[300];
	int c, r;

	r = 0;
	while ((c = tool_next_opt(t, "top", 0, argc, argv, "I:n:", opts, &r)) > 0) {
		int x = offline_opt(t, c, optarg, &od);

		if (x > 0)
			return 1;
		if (x == 0)
			continue;
		switch (c) {
		case 'I':
			if (tool_parse_interval(t, "top", optarg, TOP_MIN_INTERVAL_NS, &interval_ns))
				return 1;
			break;
		case 'n':
			if (tool_parse_u64(t, "-n", optarg, 1000000, &count))
				return 1;
			if (!count)
				return tool_error(t, "-n 0: show at least one frame");
			break;
		case OPT_REPLAY:
			replay = optarg;
			break;
		case OPT_FREQ:
			if (tool_parse_double(t, "--freq", optarg, &freq_mhz))
				return 1;
			break;
		case OPT_VIEW: {
			unsigned i;

			for (i = 0; i < VIEW_COUNT && strcmp(optarg, view_names[i]); i++)
				;
			if (i == VIEW_COUNT)
				return tool_error(t, "--view %s: use utilisation, cores, bandwidth or "
						  "metrics", optarg);
			tp.view = (enum top_view)i;
			break;
		}
		default:
			return tool_bad_option(t, "top", c, argv);
		}
	}
	if (c == TOOL_OPTS_EXIT)
		return r;
	if (optind < argc)
		return tool_error(t, "'top' takes no arguments (got '%s')", argv[optind]);
	if (!replay && (od.gpu_info || od.gpu || od.have_cores || od.have_l2))
		return tool_error(t, "--gpu-info/--gpu/--cores/--l2 describe a --replay capture");
	if (tool_load_db(t))
		return 1;
	if (replay) {
		r = offline_describe(t, &od, &v, src, sizeof(src));
		v.source = src;
	} else {
		r = tool_open(t, 0, &dev, &e) ? tool_err(t, &e) : 0;
		if (!r) {
			r = mpc_desc_dup(mpc_dev_desc(dev), &v.desc, &e) ? tool_err(t, &e) : 0;
			v.source = mpc_dev_path(dev);
		}
	}
	v.freq_hz = freq_mhz * 1e6;
	if (!r && (view_init(t, &v, od.gpu, 0) || view_select(t, &v, "all", NULL)))
		r = 1;
	if (!r && mpc_sample_new(v.l, &tp.s, &e))
		r = tool_err(t, &e);
	if (r)
		goto out;

	tp.tty = isatty(STDOUT_FILENO);
	tp.batch_frames = (int)count;
	term_size(&tp);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = top_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGWINCH, &sa, NULL);
	term_enter(&tp);
	if (replay)
		r = top_replay(&tp, replay, (double)interval_ns / 1e9);
	else
		r = top_live(&tp, dev, (double)interval_ns / 1e9);
	term_leave(&tp);
out:
	mpc_sample_free(tp.s);
	view_free(&v);
	mpc_dev_close(dev);
	return r;
}
