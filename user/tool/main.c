// SPDX-License-Identifier: MIT
/*
 * mali-perfcnt: read, decode and derive the performance counters of Arm Mali
 * GPUs driven by the mali_perfcnt DRM driver. See "mali-perfcnt --help".
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fnmatch.h>
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "mali_perfcnt_drm.h"
#include "tool.h"

int tool_error(struct tool *t, const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	for (char *p = buf; *p; p++)
		if (*p == '\n')
			*p = ' ';
	fflush(t->out);
	fprintf(stderr, "%s: %s\n", t->prog, buf);
	return 1;
}

int tool_err(struct tool *t, const struct mpc_err *e)
{
	return tool_error(t, "%s", e->msg);
}

uint64_t now_raw_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

double now_raw(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* decimal or 0x hex, as in gpu_info: a leading 0 is not octal; 0 or -1 */
static int parse_u64(const char *s, unsigned long long max, unsigned long long *out)
{
	char *end;

	errno = 0;
	if (!s || !*s || *s == '-' || *s == ' ')
		return -1;
	*out = strncasecmp(s, "0x", 2) ? strtoull(s, &end, 10) : strtoull(s + 2, &end, 16);
	if (errno || *end || end == s + 2 * !strncasecmp(s, "0x", 2) || *out > max)
		return -1;
	return 0;
}

int tool_parse_u64(struct tool *t, const char *opt, const char *s, unsigned long long max,
		   unsigned long long *out)
{
	if (!s || !*s || *s == '-' || *s == ' ')
		return tool_error(t, "%s needs a number, got '%s'", opt, s ? s : "");
	if (parse_u64(s, max, out))
		return tool_error(t, "%s: '%s' is not a decimal or 0x hex number in 0..%llu",
				  opt, s, max);
	return 0;
}

/*
 * getopt's '?' (unknown option) or ':' (missing argument) as one line of ours
 * (opterr is 0: getopt prints nothing). @cmd is NULL for the main options.
 */
int tool_bad_option(struct tool *t, const char *cmd, int c, char **argv)
{
	const char *arg = optind > 0 ? argv[optind - 1] : "";
	/* optopt: 0 for an unknown long option, the val (an enum tool_opt) of a known one */
	int is_long = (optopt == 0 || optopt > 255 || c == ':') && !strncmp(arg, "--", 2);
	char opt[64];

	if (is_long)
		snprintf(opt, sizeof(opt), "%.*s", (int)strcspn(arg, "="), arg);
	else
		snprintf(opt, sizeof(opt), "-%c", optopt > ' ' && optopt < 127 ? optopt : '?');
	if (c == ':')
		return tool_error(t, "option '%s' needs an argument; see 'mali-perfcnt %s%s--help'",
				  opt, cmd ? cmd : "", cmd ? " " : "");
	if (is_long && optopt)
		return tool_error(t, "option '%s' takes no argument; see 'mali-perfcnt %s%s--help'",
				  opt, cmd ? cmd : "", cmd ? " " : "");
	return tool_error(t, "unknown option '%s'%s%s%s; see 'mali-perfcnt %s%s--help'", opt,
			  cmd ? " for '" : "", cmd ? cmd : "", cmd ? "'" : "", cmd ? cmd : "",
			  cmd ? " " : "");
}

int tool_parse_double(struct tool *t, const char *opt, const char *s, double *out)
{
	char *end;

	errno = 0;
	*out = s && *s ? strtod(s, &end) : NAN;
	if (!s || !*s || errno || *end || !isfinite(*out) || *out <= 0)
		return tool_error(t, "%s: '%s' is not a positive number", opt, s ? s : "");
	return 0;
}

/* "a, b or c" of the names of a NULL-terminated table */
#define NAME_LIST(buf, tab)								\
	do {										\
		size_t n_ = 0;								\
		for (unsigned i_ = 0; (tab)[i_] && n_ < sizeof(buf); i_++)		\
			n_ += (size_t)snprintf((buf) + n_, sizeof(buf) - n_, "%s%s",	\
					       !i_ ? "" : (tab)[i_ + 1] ? ", " : " or ",	\
					       (tab)[i_]->name);			\
	} while (0)

/* --format: one of the tool's formats (out_formats) or a trace format */
int tool_parse_format(struct tool *t, const char *s)
{
	char names[128] = "", traces[128] = "";

	t->format = s;
	t->trace = trace_format(s);
	if (t->trace)
		return 0;
	for (unsigned i = 0; out_formats[i]; i++)
		if (!strcmp(s, out_formats[i]->name)) {
			t->o.ops = out_formats[i];
			return 0;
		}
	NAME_LIST(names, out_formats);
	NAME_LIST(traces, trace_formats);
	return tool_error(t, "--format '%s' is unknown; use %s (record and decode: also %s)", s,
			  names, traces);
}

int tool_refuse_trace(struct tool *t, const char *cmd)
{
	char names[128] = "";

	if (!t->trace)
		return 0;
	NAME_LIST(names, out_formats);
	return tool_error(t, "--format %s is a trace; '%s' writes %s (traces: record, decode)",
			  t->trace->name, cmd, names);
}

int tool_next_opt(struct tool *t, const char *cmd, unsigned flags, int argc, char **argv,
		  const char *shorts, const struct option *lo, int *ret)
{
	char all[64];
	int c, x;

	snprintf(all, sizeof(all), "+:f:h%s", shorts);
	while ((c = getopt_long(argc, argv, all, lo, NULL)) != -1) {
		x = tool_common_opt(t, c, optarg);
		if (x == 0)
			continue;
		if (x > 0)
			*ret = 1;
		else if (c == 'h')
			*ret = help(t, cmd, stdout);
		else if (c == '?' || c == ':')
			*ret = tool_bad_option(t, cmd, c, argv);
		else
			return c;
		return TOOL_OPTS_EXIT;
	}
	if (!(flags & TOOL_OPTS_TRACES) && tool_refuse_trace(t, cmd)) {
		*ret = 1;
		return TOOL_OPTS_EXIT;
	}
	return TOOL_OPTS_END;
}

int tool_parse_interval(struct tool *t, const char *cmd, const char *arg, uint64_t min_ns,
			unsigned long long *ns)
{
	double ms;

	if (tool_parse_double(t, "-I", arg, &ms))
		return 1;
	if (!(ms * 1e6 >= (double)min_ns) || ms * 1e6 > (double)TOOL_MAX_INTERVAL_NS)
		return tool_error(t, "-I %s: '%s' samples every %.10g to %.10g ms", arg, cmd,
				  (double)min_ns / 1e6, (double)TOOL_MAX_INTERVAL_NS / 1e6);
	*ns = (unsigned long long)llround(ms * 1e6);
	return 0;
}

/* Options every command takes; returns 0 if handled, -1 if not ours, 1 on error. */
int tool_common_opt(struct tool *t, int c, const char *arg)
{
	switch (c) {
	case OPT_DEVICE:
		t->device = arg;
		return 0;
	case OPT_NO_LOAD:
		t->no_load = 1;
		return 0;
	case OPT_BACKEND:
		t->backend = arg;
		return 0;
	case 'f':
		return tool_parse_format(t, arg) ? 1 : 0;
	case OPT_LAYOUT:
		if (t->nlayouts >= MAX_FILES)
			return tool_error(t, "at most %d --layout files", MAX_FILES);
		t->layouts[t->nlayouts++] = arg;
		return 0;
	case OPT_METRICS:
		if (t->nmetric_files >= MAX_FILES)
			return tool_error(t, "at most %d --metrics files", MAX_FILES);
		t->metric_files[t->nmetric_files++] = arg;
		return 0;
	}
	return -1;
}

/* the device of --device/--backend, or the first usable one */
int tool_open(struct tool *t, unsigned flags, struct mpc_dev **dev, struct mpc_err *e)
{
	return mpc_dev_open_backend(t->backend, t->device, flags | (t->no_load ? MPC_OPEN_NO_LOAD : 0),
				    dev, e);
}

static int gpu_known(struct tool *t, const char *name, size_t len)
{
	for (unsigned i = 0; i < mpc_db_gpu_count(t->db); i++) {
		const struct mpc_gpu_def *g = mpc_db_gpu(t->db, i);

		if ((strlen(g->key) == len && !strncasecmp(g->key, name, len)) ||
		    (g->arch && strlen(g->arch) == len && !strncasecmp(g->arch, name, len)))
			return 1;
	}
	return 0;
}

/*
 * The GPU list of every "metric NAME UNIT GPUS = EXPR" line of a --metrics
 * file names known GPU keys or architectures (or is "*"): a metric for a
 * misspelt GPU would silently apply to none. (The library accepts any name:
 * a program may load a subset of the GPUs.)
 */
static int metric_gpus_known(struct tool *t, const char *path, const char *buf, size_t len)
{
	unsigned line = 0;

	for (size_t pos = 0; pos < len; line++) {
		const char *nl = memchr(buf + pos, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - buf - pos) : len - pos;
		char l[1024], *tok[4], *save = NULL;
		unsigned k = 0;

		snprintf(l, sizeof(l), "%.*s", (int)(n < sizeof(l) ? n : sizeof(l) - 1), buf + pos);
		pos += n + 1;
		for (char *s = strtok_r(l, " \t\r", &save); s && k < 4; s = strtok_r(NULL, " \t\r", &save))
			tok[k++] = s;
		if (k < 4 || strcmp(tok[0], "metric") || !strcmp(tok[3], "*"))
			continue;
		for (const char *g = tok[3]; *g;) {
			size_t gl = strcspn(g, ",");

			if (!gpu_known(t, g, gl))
				return tool_error(t, "--metrics %s:%u: metric %s: GPU '%.*s' is not in the "
						  "database; use keys or architectures from 'mali-perfcnt "
						  "list --gpus', or '*'", path, line + 1, tok[1], (int)gl, g);
			g += gl + (g[gl] == ',');
		}
	}
	return 0;
}

int tool_load_db(struct tool *t)
{
	struct mpc_err e;

	if (t->db)
		return 0;
	if (mpc_db_new_builtin(&t->db, &e))
		return tool_error(t, "the built-in counter database is broken: %s", e.msg);
	for (unsigned i = 0; i < t->nlayouts; i++)
		if (mpc_db_add_file(t->db, t->layouts[i], &e))
			return tool_error(t, "--layout %s", e.msg);
	for (unsigned i = 0; i < t->nmetric_files; i++) {
		const char *path = t->metric_files[i];
		char *buf;
		size_t len;
		int r;

		if (mpc_read_file(path, 1 << 20, &buf, &len, &e))
			return tool_error(t, "--metrics %s", e.msg);
		r = metric_gpus_known(t, path, buf, len);
		if (!r && mpc_db_add_text(t->db, path, buf, len, &e))
			r = tool_error(t, "--metrics %s", e.msg);
		free(buf);
		if (r)
			return r;
	}
	return 0;
}

/* ------------------------------------------------------------------ views */

static struct mpc_counter_def *raw_defs;
static char (*raw_names)[24];

static void make_raw_defs(unsigned cpb)
{
	unsigned n = MPC_BLK_KINDS * cpb;

	raw_defs = calloc(n, sizeof(*raw_defs));
	raw_names = calloc(n, sizeof(*raw_names));
	if (!raw_defs || !raw_names) {
		fprintf(stderr, "mali-perfcnt: out of memory\n");
		exit(1);
	}
	for (unsigned k = 0; k < MPC_BLK_KINDS; k++)
		for (unsigned i = 0; i < cpb; i++) {
			struct mpc_counter_def *c = &raw_defs[k * cpb + i];

			snprintf(raw_names[k * cpb + i], sizeof(raw_names[0]), "%s[%u]",
				 mpc_block_name(k), i);
			c->name = raw_names[k * cpb + i];
			c->kind = (uint8_t)k;
			c->index = (int16_t)i;
		}
}

int view_init(struct tool *t, struct view *v, const char *gpu_name, int raw)
{
	uint32_t gpu_id = mpc_desc_gpu_id(v->desc);
	struct mpc_err e;

	if (tool_load_db(t))
		return 1;
	if (gpu_name) {
		v->gpu = mpc_db_find_gpu(t->db, gpu_name);
		if (!v->gpu)
			return tool_error(t, "GPU '%s' is not in the database; 'mali-perfcnt list --gpus' "
					  "shows the known ones", gpu_name);
	} else {
		v->gpu = mpc_db_match_gpu_id(t->db, gpu_id);
	}
	if (!v->gpu && !raw && t->nlayouts)
		return tool_error(t, "GPU_ID 0x%08x (product 0x%04x) matches no GPU of the database "
				  "or of the --layout files; name the GPU with --gpu, add a 'match "
				  "0x%04x' line to its layout, or use --raw to see counters by index",
				  gpu_id, gpu_id >> 16, gpu_id >> 16);
	if (!v->gpu && !raw)
		return tool_error(t, "GPU_ID 0x%08x (product 0x%04x) is not in the counter database; "
				  "name it with --gpu and give its layout with --layout FILE, or "
				  "use --raw to see counters by index", gpu_id, gpu_id >> 16);
	if (v->gpu && v->gpu->counters_per_block != mpc_desc_counters_per_block(v->desc))
		return tool_error(t, "the dump has %u counters per block but %s has %u; wrong GPU?",
				  mpc_desc_counters_per_block(v->desc), v->gpu->name,
				  v->gpu->counters_per_block);
	if (v->counter_set != 0 && !raw) {
		fprintf(stderr, "%s: note: the database describes counter set 0 only; set %u "
			"counters are shown by index\n", t->prog, v->counter_set);
		raw = 1;
	}
	v->raw = raw;
	if (mpc_layout_new(v->desc, &v->l, &e))
		return tool_err(t, &e);
	if (!raw && mpc_prog_new(t->db, v->gpu, v->l, &v->p, &e))
		return tool_err(t, &e);
	if (raw)
		make_raw_defs(mpc_desc_counters_per_block(v->desc));
	v->val = calloc((v->p ? mpc_prog_count(v->p) : 0) + 1, sizeof(double));
	v->ctr = calloc((v->gpu ? v->gpu->ncounters : 0) + MPC_BLK_KINDS * MPC_MAX_COUNTERS + 1,
			sizeof(*v->ctr));
	v->met = calloc((v->p ? mpc_prog_count(v->p) : 0) + 1, sizeof(*v->met));
	if (!v->val || !v->ctr || !v->met)
		return tool_error(t, "out of memory");
	return 0;
}

void view_free(struct view *v)
{
	mpc_desc_free(v->desc);
	mpc_prog_free(v->p);
	mpc_layout_free(v->l);
	free(v->val);
	free(v->ctr);
	free(v->met);
}

static int is_glob(const char *s)
{
	return strpbrk(s, "*?[") != NULL;
}

static void add_ctr(struct view *v, const struct mpc_counter_def *c)
{
	for (unsigned i = 0; i < v->nctr; i++)
		if (v->ctr[i] == c)
			return;
	v->ctr[v->nctr++] = c;
}

static void add_met(struct view *v, unsigned m)
{
	for (unsigned i = 0; i < v->nmet; i++)
		if (v->met[i] == m)
			return;
	v->met[v->nmet++] = m;
}

static const struct mpc_counter_def *ctr_at(struct view *v, unsigned kind, unsigned idx)
{
	if (v->gpu)
		for (unsigned i = 0; i < v->gpu->ncounters; i++)
			if (v->gpu->counters[i].kind == kind && v->gpu->counters[i].index == (int)idx)
				return &v->gpu->counters[i];
	if (!raw_defs)
		make_raw_defs(mpc_desc_counters_per_block(v->desc));
	return &raw_defs[kind * mpc_desc_counters_per_block(v->desc) + idx];
}

/* does @g come from one of the --layout files? */
static int from_layout(const struct tool *t, const struct mpc_gpu_def *g)
{
	for (unsigned i = 0; g->origin && i < t->nlayouts; i++)
		if (!strcmp(g->origin, t->layouts[i]))
			return 1;
	return 0;
}

static int select_one(struct tool *t, struct view *v, const char *p, int quiet)
{
	unsigned n0 = v->nctr + v->nmet;
	unsigned cpb = mpc_desc_counters_per_block(v->desc);
	const char *colon = strchr(p, ':');

	if (!strcmp(p, "all") || !strcmp(p, "counters")) {
		if (v->raw) {
			for (unsigned k = 0; k < MPC_BLK_KINDS; k++)
				for (unsigned i = 4; i < cpb; i++)
					add_ctr(v, &raw_defs[k * cpb + i]);
		} else {
			for (unsigned i = 0; i < v->gpu->ncounters; i++)
				if (v->gpu->counters[i].index >= 0)
					add_ctr(v, &v->gpu->counters[i]);
		}
		if (!strcmp(p, "counters"))
			return 0;
	}
	if (!strcmp(p, "all") || !strcmp(p, "metrics") || !strcmp(p, "derived")) {
		for (unsigned i = 0; v->p && i < mpc_prog_count(v->p); i++)
			if (mpc_prog_metric(v->p, i)->available)
				add_met(v, i);
		return 0;
	}
	if (colon) {
		char blk[16];
		unsigned long long idx;
		int kind;

		snprintf(blk, sizeof(blk), "%.*s", (int)(colon - p), p);
		kind = mpc_block_from_name(blk);
		if (kind < 0 || parse_u64(colon + 1, cpb - 1, &idx) || idx < 4)
			return quiet ? 0 : tool_error(t, "'%s': use BLOCK:INDEX with BLOCK jm, tiler, l2 or "
						      "shader and INDEX 4..%u", p, cpb - 1);
		add_ctr(v, ctr_at(v, (unsigned)kind, (unsigned)idx));
		return 0;
	}
	if (v->raw) {
		for (unsigned k = 0; k < MPC_BLK_KINDS; k++)
			for (unsigned i = 4; i < cpb; i++)
				if (!fnmatch(p, raw_defs[k * cpb + i].name, 0))
					add_ctr(v, &raw_defs[k * cpb + i]);
	} else if (is_glob(p)) {
		for (unsigned i = 0; i < v->gpu->ncounters; i++) {
			const struct mpc_counter_def *c = &v->gpu->counters[i];

			if (c->index >= 0 && (!fnmatch(p, c->name, 0) ||
					      (c->lgc && !fnmatch(p, c->lgc, 0)) ||
					      (c->alias && !fnmatch(p, c->alias, 0))))
				add_ctr(v, c);
		}
		for (unsigned i = 0; i < mpc_prog_count(v->p); i++) {
			const struct mpc_metric *m = mpc_prog_metric(v->p, i);

			if (m->available && !fnmatch(p, m->def->name, 0))
				add_met(v, i);
		}
	} else {
		const struct mpc_counter_def *c = mpc_gpu_find_counter(v->gpu, p);
		int mi = mpc_prog_find(v->p, p);

		if (c && c->index < 0 && from_layout(t, v->gpu))
			return quiet ? 0 : tool_error(t, "%s has no index on %s: the layout %s does not "
						      "place it; add it there", p, v->gpu->name,
						      v->gpu->origin);
		if (c && c->index < 0)
			return quiet ? 0 : tool_error(t, "%s has no known index on %s; give its layout with "
						      "--layout FILE", p, v->gpu->name);
		if (c) {
			add_ctr(v, c);
			return 0;
		}
		if (mi >= 0) {
			const struct mpc_metric *m = mpc_prog_metric(v->p, (unsigned)mi);

			if (!m->available)
				return quiet ? 0 : tool_error(t, "%s is unavailable on %s: %s", p,
							      v->gpu->name, m->reason);
			add_met(v, (unsigned)mi);
			return 0;
		}
	}
	if (v->nctr + v->nmet == n0 && !quiet)
		return tool_error(t, "no counter or metric matches '%s' on %s; 'mali-perfcnt list%s%s' "
				  "shows what there is", p, v->gpu ? v->gpu->name : "this GPU",
				  v->gpu ? " --gpu " : "", v->gpu ? v->gpu->key : "");
	return 0;
}

int view_select(struct tool *t, struct view *v, const char *patterns, const char *defaults)
{
	const char *src = patterns ? patterns : defaults;
	char *copy = strdup(src), *save = NULL;
	int r = 0;

	for (char *p = strtok_r(copy, ",", &save); p && !r; p = strtok_r(NULL, ",", &save)) {
		while (*p == ' ')
			p++;
		if (*p)
			r = select_one(t, v, p, patterns == NULL);
	}
	free(copy);
	if (!r && !v->nctr && !v->nmet)
		r = tool_error(t, "nothing selected to show; check -e");
	return r;
}

/* ------------------------------------------------------------------- main */

static const struct {
	const char *name;
	int (*fn)(struct tool *, int, char **);
} cmds[] = {
	{ "info", cmd_info }, { "list", cmd_list }, { "sample", cmd_sample },
	{ "stat", cmd_stat }, { "record", cmd_record }, { "top", cmd_top }, { "decode", cmd_decode },
};

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		COMMON_LONGOPTS,
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	struct tool t = { .prog = "mali-perfcnt", .out = stdout,
			  .o = { .ops = out_formats[0], .f = stdout } };
	int c, r = 0;

	opterr = 0;	/* our own one-line errors (tool_bad_option) */
	/* a trace --format is the command's to refuse */
	while ((c = tool_next_opt(&t, NULL, TOOL_OPTS_TRACES, argc, argv, "V", opts, &r)) > 0) {
		if (c == 'V') {
			printf("mali-perfcnt %s (uAPI %d)\n", MPC_VERSION, MALI_PERFCNT_UAPI_VERSION);
			return 0;
		}
		return tool_bad_option(&t, NULL, c, argv);
	}
	if (c == TOOL_OPTS_EXIT)
		return r;
	if (optind >= argc) {
		help(&t, NULL, stderr);
		return tool_error(&t, "no command given; use info, list, sample, stat, record, top or decode");
	}
	if (!strcmp(argv[optind], "help"))
		return help(&t, optind + 1 < argc ? argv[optind + 1] : NULL, stdout);
	for (unsigned i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		if (!strcmp(argv[optind], cmds[i].name)) {
			int n = argc - optind;
			char **v = argv + optind;

			optind = 0;	/* restart getopt for the command's own options */
			t.cmd = cmds[i].name;
			r = cmds[i].fn(&t, n, v);
			fflush(t.out);
			if (ferror(t.out))
				r = tool_error(&t, "writing the output failed");
			mpc_db_free(t.db);
			return r;
		}
	return tool_error(&t, "unknown command '%s'; use info, list, sample, stat, record, top or decode",
			  argv[optind]);
}
