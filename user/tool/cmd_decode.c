// SPDX-License-Identifier: MIT
/*
 * "decode": offline decoding of the files a device's counters were saved to,
 * one function per kind of input (decode_inputs[]): dumps captured with
 * cat .../perfcnt_dump, and sampling-stream captures (cat .../perfcnt_stream,
 * a STREAM_OPEN fd), whose records carry their own intervals. Every sample
 * goes out one way, through a struct rec_sink: the tool's formats (out_sink)
 * or a trace format (--format perfetto, chrome-trace).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mali_perfcnt_drm.h"
#include "tool.h"

#define MAX_DUMP_FILE (256u << 20)

/* The options of decode. */
struct decode_opts {
	struct offline_desc od;
	const char *events;		/* -e */
	const char *output;		/* -o, for the trace formats */
	double interval_ms;		/* --interval: between raw dumps; NaN if not given */
	double freq_mhz;		/* --freq */
	int sum, raw, per_instance;	/* --sum, --raw, -A */
};

/* One run: what the inputs decode into, and what they have seen so far. */
struct decode {
	struct tool *t;
	const struct decode_opts *o;
	struct view v;
	struct mpc_sample *s;
	const struct rec_sink *sink;
	void *state;
	int began;			/* sink->begin() was called */
	unsigned idx;			/* samples so far, over every input */
	uint64_t first_ns;		/* captures: the start of the first sample */
	uint64_t last_end;		/* captures: the end of the last one */
	uint64_t lost, failed;		/* captures: LOST and ERROR records */
};

/*
 * Begin the output (a trace sink with the first sample: @raw_ns is its
 * start), evaluate the metrics over the sample's interval and write it.
 */
static int decode_emit(struct decode *d, const struct sample_meta *m, uint64_t raw_ns)
{
	struct view *v = &d->v;
	int r;

	if (!d->began++ && (r = d->sink->begin(d->t, v, &d->state, raw_ns, 0)))
		return r;
	if (v->p) {
		mpc_config_init(&v->cfg, v->desc, v->l, v->gpu, m->interval_s);
		if (v->freq_hz > 0)
			v->cfg.v[MPC_CFG_GPU_FREQ_HZ] = v->freq_hz;
		mpc_prog_eval(v->p, d->s, &v->cfg, v->val);
	}
	return d->sink->sample(d->t, v, d->state, d->s, m);
}

/* Decode one dump of @buf into the sample (added to it with --sum). */
static int decode_dump(struct decode *d, const char *buf, struct mpc_err *e)
{
	if (!d->o->sum)
		mpc_sample_reset(d->s);
	return mpc_decode(d->s, buf, mpc_desc_dump_size(d->v.desc), e);
}

/* The end of the last SAMPLE of a capture. */
static uint64_t rec_last_end(const void *buf, size_t len)
{
	const struct drm_mali_perfcnt_record *r;
	uint64_t end = 0;
	size_t off = 0;

	while ((r = capture_next(buf, len, &off)))
		if (r->type == MALI_PERFCNT_RECORD_SAMPLE)
			end = r->end_ns;
	return end;
}

static int is_capture(const struct decode *d, const char *buf, size_t len)
{
	return capture_is_records(buf, len, mpc_desc_dump_size(d->v.desc));
}

/* A stream capture: each SAMPLE has its own interval and flags. */
static int decode_capture(struct decode *d, const char *name, const char *buf, size_t len)
{
	const struct drm_mali_perfcnt_record *rec;
	struct mpc_err e;
	size_t off = 0;
	int r = 0;

	while (!r && (rec = capture_next(buf, len, &off))) {
		struct sample_meta m = {
			.index = d->idx, .has_seqno = 1, .seqno = rec->seqno,
			.timestamp_ns = rec->end_ns, .data_flags = rec->data_flags,
		};

		if (rec->type == MALI_PERFCNT_RECORD_LOST)
			d->lost += rec->lost;
		if (rec->type == MALI_PERFCNT_RECORD_ERROR)
			d->failed++;
		if (rec->type != MALI_PERFCNT_RECORD_SAMPLE)
			continue;
		if (decode_dump(d, (const char *)rec + rec->header_size, &e))
			return tool_error(d->t, "%s, record %u: %s", name, d->idx, e.msg);
		if (!d->idx)
			d->first_ns = rec->start_ns;
		m.time_s = (rec->end_ns - d->first_ns) * 1e-9;
		m.interval_s = (rec->end_ns - rec->start_ns) * 1e-9;
		if (!d->o->sum)
			r = decode_emit(d, &m, d->first_ns);
		d->idx++;
	}
	if (d->idx)
		d->last_end = rec_last_end(buf, len);
	return r;
}

static int is_dumps(const struct decode *d, const char *buf, size_t len)
{
	(void)buf;
	return len && !(len % mpc_desc_dump_size(d->v.desc));
}

/* Raw dumps back to back: no time of their own but --interval's. */
static int decode_dumps(struct decode *d, const char *name, const char *buf, size_t len)
{
	uint32_t size = mpc_desc_dump_size(d->v.desc);
	double interval_ms = d->o->interval_ms;
	struct mpc_err e;
	int r = 0;

	if (d->sink->name && isnan(interval_ms))
		return tool_error(d->t, "%s holds raw dumps, which carry no time: give --interval MS "
				  "(the time between them) for a trace", name);
	for (size_t off = 0; off < len && !r; off += size) {
		struct sample_meta m = {
			.index = d->idx, .time_s = NAN, .interval_s = interval_ms / 1000.0,
		};

		if (decode_dump(d, buf + off, &e))
			return tool_error(d->t, "%s, dump %zu: %s", name, off / size, e.msg);
		if (!d->o->sum) {
			if (!isnan(interval_ms)) {
				m.time_s = (d->idx + 1) * interval_ms / 1000.0;
				m.timestamp_ns = (unsigned long long)llround(m.time_s * 1e9);
			}
			r = decode_emit(d, &m, 0);
		}
		d->idx++;
	}
	return r;
}

/* The kinds of input decode takes, the first that matches a file decodes it. */
static const struct decode_input {
	int (*match)(const struct decode *d, const char *buf, size_t len);
	int (*decode)(struct decode *d, const char *name, const char *buf, size_t len);
} decode_inputs[] = {
	{ is_capture, decode_capture },
	{ is_dumps, decode_dumps },
};

static int decode_file(struct decode *d, const char *name, const char *src)
{
	struct mpc_err e;
	size_t len;
	char *buf;
	int r;

	if (mpc_read_file(name, MAX_DUMP_FILE, &buf, &len, &e))
		return tool_err(d->t, &e);
	for (unsigned i = 0; i < sizeof(decode_inputs) / sizeof(decode_inputs[0]); i++)
		if (decode_inputs[i].match(d, buf, len)) {
			r = decode_inputs[i].decode(d, name, buf, len);
			free(buf);
			return r;
		}
	r = tool_error(d->t, "%s is %zu bytes, not a whole number of %u-byte dumps of this GPU "
		       "(%s), nor a perfcnt_stream capture; check the description against the "
		       "board the dump came from", name, len, mpc_desc_dump_size(d->v.desc), src);
	free(buf);
	return r;
}

/* --sum: the one sample of every input; a capture knows its span, raw dumps --interval's */
static int decode_sum(struct decode *d)
{
	struct sample_meta m = { .time_s = NAN, .interval_s = NAN };

	if (d->last_end)
		m.interval_s = m.time_s = (d->last_end - d->first_ns) * 1e-9;
	else if (!isnan(d->o->interval_ms))
		m.interval_s = m.time_s = d->idx * d->o->interval_ms / 1000.0;
	return d->sink->sample(d->t, &d->v, d->state, d->s, &m);
}

static int decode_parse(struct tool *t, int argc, char **argv, struct decode_opts *o)
{
	static const struct option opts[] = {
		COMMON_LONGOPTS,
		OFFLINE_LONGOPTS,
		{ "interval", required_argument, NULL, OPT_INTERVAL },
		{ "freq", required_argument, NULL, OPT_FREQ },
		{ "sum", no_argument, NULL, OPT_SUM },
		{ "raw", no_argument, NULL, OPT_RAW },
		{ "events", required_argument, NULL, 'e' },
		{ "per-instance", no_argument, NULL, 'A' },
		{ "output", required_argument, NULL, 'o' },
		{ NULL, 0, NULL, 0 },
	};
	int c, r = 0;

	while ((c = tool_next_opt(t, "decode", TOOL_OPTS_TRACES, argc, argv, "e:Ao:", opts,
				  &r)) > 0) {
		int x = offline_opt(t, c, optarg, &o->od);

		if (x > 0)
			return 1;
		if (x == 0)
			continue;
		switch (c) {
		case OPT_INTERVAL:
			if (tool_parse_double(t, "--interval", optarg, &o->interval_ms))
				return 1;
			break;
		case OPT_FREQ:
			if (tool_parse_double(t, "--freq", optarg, &o->freq_mhz))
				return 1;
			break;
		case OPT_SUM:
			o->sum = 1;
			break;
		case OPT_RAW:
			o->raw = 1;
			break;
		case 'e':
			o->events = optarg;
			break;
		case 'A':
			o->per_instance = 1;
			break;
		case 'o':
			o->output = optarg;
			break;
		default:
			return tool_bad_option(t, "decode", c, argv);
		}
	}
	if (c == TOOL_OPTS_EXIT)
		return r ? r : -1;
	if (optind >= argc)
		return tool_error(t, "no dump file given; usage: mali-perfcnt decode [--gpu-info FILE | "
				  "--gpu NAME --cores MASK --l2 N] DUMP...");
	if (o->output && !t->trace)
		return tool_error(t, "-o is for --format perfetto or chrome-trace; other formats go "
				  "to standard output");
	if (t->trace && o->sum)
		return tool_error(t, "--sum gives one total, not a timeline; drop it for --format %s",
				  t->trace->name);
	return 0;
}

int cmd_decode(struct tool *t, int argc, char **argv)
{
	struct decode_opts o = { .interval_ms = NAN };
	struct decode d = { .t = t, .o = &o };
	const char *output;
	FILE *f = stdout;
	struct mpc_err e;
	char src[300];
	int r;

	r = decode_parse(t, argc, argv, &o);
	if (r)
		return r < 0 ? 0 : r;
	d.sink = t->trace ? t->trace : &out_sink;
	output = o.output ? o.output : d.sink->output;
	if (tool_load_db(t))
		return 1;
	if (offline_describe(t, &o.od, &d.v, src, sizeof(src)))
		return 1;
	d.v.per_instance = o.per_instance;
	d.v.source = src;
	d.v.freq_hz = o.freq_mhz * 1e6;
	if (view_init(t, &d.v, o.od.gpu, o.raw) || view_select(t, &d.v, o.events, "all")) {
		view_free(&d.v);
		return 1;
	}
	if (mpc_sample_new(d.v.l, &d.s, &e)) {
		view_free(&d.v);
		return tool_err(t, &e);
	}
	if (strcmp(output, "-") && !(f = fopen(output, "w"))) {
		r = tool_error(t, "cannot write '%s': %s", output, strerror(errno));
		goto out;
	}
	t->out = t->o.f = f;
	/* a trace begins with its first sample's time; the tool's formats now */
	if (!d.sink->timed && (r = d.sink->begin(t, &d.v, &d.state, 0, 0)) == 0)
		d.began = 1;
	for (int a = optind; a < argc && !r; a++)
		r = decode_file(&d, argv[a], src);
	if (!r && o.sum)
		r = decode_sum(&d);
	if (d.lost || d.failed)
		fprintf(stderr, "%s: decode: the capture says %llu sample%s were lost (the reader "
			"fell behind) and %llu failed\n", t->prog, (unsigned long long)d.lost,
			d.lost == 1 ? "" : "s", (unsigned long long)d.failed);
	if (d.began && d.sink->end(t, &d.v, d.state) && !r)
		r = 1;
	if (f != stdout && fclose(f) && !r)
		r = tool_error(t, "writing '%s' failed: %s", output, strerror(errno));
	t->out = t->o.f = stdout;
	if (!r && d.sink->name)
		fprintf(stderr, "%s: decode: %u samples to %s (%s)\n", t->prog, d.idx, output,
			d.sink->name);
out:
	mpc_sample_free(d.s);
	view_free(&d.v);
	return r;
}
