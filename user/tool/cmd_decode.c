// SPDX-License-Identifier: MIT
/*
 * "decode": offline decoding of dumps captured with cat .../perfcnt_dump, and
 * of sampling-stream captures (cat .../perfcnt_stream, a STREAM_OPEN fd),
 * whose records carry their own intervals; --format perfetto writes either
 * as a Perfetto trace.
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

/* Evaluate the metrics over the sample's interval and print or trace it. */
static int decode_emit(struct tool *t, struct view *v, const struct mpc_sample *s,
		       const struct sample_meta *m, const struct rec_sink *sink, void *state)
{
	if (!sink) {
		out_sample(t, v, s, m);
		return 0;
	}
	if (v->p) {
		mpc_config_init(&v->cfg, v->desc, v->l, v->gpu, m->interval_s);
		if (v->freq_hz > 0)
			v->cfg.v[MPC_CFG_GPU_FREQ_HZ] = v->freq_hz;
		mpc_prog_eval(v->p, s, &v->cfg, v->val);
	}
	return sink->sample(t, v, state, s, m);
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

/*
 * Describe the device a capture came from: its saved gpu_info text, --gpu
 * with --cores/--l2, or else the local device's GET_INFO.
 */
int offline_describe(struct tool *t, const struct offline_desc *od, struct view *v, char *src,
		     size_t srclen)
{
	struct mpc_dev *dev = NULL;
	struct mpc_err e;
	int r = 0;

	if (od->gpu_info) {
		if (od->have_cores || od->have_l2)
			return tool_error(t, "--cores/--l2 and --gpu-info both describe the device; give one");
		if (mpc_desc_load_gpu_info(od->gpu_info, &v->desc, &e))
			return tool_err(t, &e);
		if (mpc_desc_counter_set(v->desc) > 0)
			v->counter_set = (unsigned)mpc_desc_counter_set(v->desc);
		snprintf(src, srclen, "%s", od->gpu_info);
	} else if (od->gpu) {
		const struct mpc_gpu_def *g = mpc_db_find_gpu(t->db, od->gpu);

		if (!g)
			return tool_error(t, "GPU '%s' is not in the database; 'mali-perfcnt list --gpus' "
					  "shows the known ones", od->gpu);
		if (!od->have_cores)
			return tool_error(t, "--gpu needs --cores MASK (SHADER_PRESENT, e.g. 0xb) and "
					  "--l2 N (L2 slices, or core groups on v4)");
		if (mpc_desc_new_from_gpu(g, od->cores, (unsigned)od->l2, &v->desc, &e))
			return tool_err(t, &e);
		snprintf(src, srclen, "--gpu %s", g->key);
	} else {
		if (od->have_cores || od->have_l2)
			return tool_error(t, "--cores/--l2 need --gpu NAME");
		if (tool_open(t, 0, &dev, &e))
			return tool_error(t, "no device description: give --gpu-info FILE (the gpu_info "
					  "saved with the dump) or --gpu/--cores/--l2 (%s)", e.msg);
		snprintf(src, srclen, "%s", mpc_dev_path(dev));
		r = mpc_desc_dup(mpc_dev_desc(dev), &v->desc, &e) ? tool_err(t, &e) : 0;
		mpc_dev_close(dev);
	}
	return r;
}

/* --gpu-info, --gpu, --cores, --l2: 0 handled, -1 not one of them, 1 error */
int offline_opt(struct tool *t, int c, const char *arg, struct offline_desc *od)
{
	switch (c) {
	case OPT_GPU_INFO:
		od->gpu_info = arg;
		return 0;
	case OPT_GPU:
		od->gpu = arg;
		return 0;
	case OPT_CORES:
		if (tool_parse_u64(t, "--cores", arg, ~0ull, &od->cores))
			return 1;
		od->have_cores = 1;
		return 0;
	case OPT_L2:
		if (tool_parse_u64(t, "--l2", arg, 16, &od->l2))
			return 1;
		if (!od->l2)
			return tool_error(t, "--l2 0: a GPU has 1..16 L2 slices (1..8 core "
					  "groups on v4); leave --l2 out for 1");
		od->have_l2 = 1;
		return 0;
	default:
		return -1;
	}
}

int cmd_decode(struct tool *t, int argc, char **argv)
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
	const struct rec_sink *sink = NULL;
	const char *output = NULL;
	void *sink_state = NULL;
	FILE *trace = NULL;
	uint64_t first_ns = 0, last_end = 0, lost = 0, failed = 0;
	int began = 0;
	struct offline_desc od = { 0 };
	const char *events = NULL;
	double interval_ms = NAN, freq_mhz = 0;
	int sum = 0, raw = 0, per_inst = 0, c, r = 0;
	struct view v = { 0 };
	struct mpc_sample *s = NULL;
	struct mpc_err e;
	char src[300];

	while ((c = getopt_long(argc, argv, "+:f:he:Ao:", opts, NULL)) != -1) {
		int x;

		/* a trace is one more output of decode */
		if (c == 'f' && !strcmp(optarg, "perfetto")) {
			sink = trace_sink_perfetto();
			continue;
		}
		if (c == 'o') {
			output = optarg;
			continue;
		}
		x = tool_common_opt(t, c, optarg);
		if (x < 0)
			x = offline_opt(t, c, optarg, &od);

		if (x > 0)
			return 1;
		if (x == 0)
			continue;
		switch (c) {
		case 'h':
			return help(t, "decode", stdout);
		case OPT_INTERVAL:
			if (tool_parse_double(t, "--interval", optarg, &interval_ms))
				return 1;
			break;
		case OPT_FREQ:
			if (tool_parse_double(t, "--freq", optarg, &freq_mhz))
				return 1;
			break;
		case OPT_SUM:
			sum = 1;
			break;
		case OPT_RAW:
			raw = 1;
			break;
		case 'e':
			events = optarg;
			break;
		case 'A':
			per_inst = 1;
			break;
		default:
			return tool_bad_option(t, "decode", c, argv);
		}
	}
	if (optind >= argc)
		return tool_error(t, "no dump file given; usage: mali-perfcnt decode [--gpu-info FILE | "
				  "--gpu NAME --cores MASK --l2 N] DUMP...");
	if (output && !sink)
		return tool_error(t, "-o is for --format perfetto; other formats go to standard output");
	if (sink && sum)
		return tool_error(t, "--sum gives one total, not a timeline; drop it for --format perfetto");
	if (tool_load_db(t))
		return 1;
	if (offline_describe(t, &od, &v, src, sizeof(src)))
		return 1;
	v.per_instance = per_inst;
	v.source = src;
	v.freq_hz = freq_mhz * 1e6;
	if (view_init(t, &v, od.gpu, raw) || view_select(t, &v, events, "all")) {
		view_free(&v);
		return 1;
	}
	if (mpc_sample_new(v.l, &s, &e)) {
		view_free(&v);
		return tool_err(t, &e);
	}
	if (sink) {
		if (!output)
			output = "mali-perfcnt.pftrace";
		trace = strcmp(output, "-") ? fopen(output, "w") : stdout;
		if (!trace) {
			r = tool_error(t, "cannot write '%s': %s", output, strerror(errno));
			goto out;
		}
		t->out = t->o.f = trace;
	} else {
		out_begin(t, &v, "decode");
	}
	unsigned idx = 0;

	for (int a = optind; a < argc && !r; a++) {
		const struct drm_mali_perfcnt_record *rec;
		size_t len, off = 0;
		char *buf;

		if (mpc_read_file(argv[a], MAX_DUMP_FILE, &buf, &len, &e)) {
			r = tool_err(t, &e);
			break;
		}
		if (capture_is_records(buf, len, mpc_desc_dump_size(v.desc))) {
			/* a stream capture: each SAMPLE has its own interval and flags */
			while (!r && (rec = capture_next(buf, len, &off))) {
				struct sample_meta m = { idx, NAN, NAN, 1, rec->seqno, rec->end_ns,
							 rec->data_flags };

				if (rec->type == MALI_PERFCNT_RECORD_LOST)
					lost += rec->lost;
				if (rec->type == MALI_PERFCNT_RECORD_ERROR)
					failed++;
				if (rec->type != MALI_PERFCNT_RECORD_SAMPLE)
					continue;
				if (!sum)
					mpc_sample_reset(s);
				if (mpc_decode(s, (const char *)rec + rec->header_size,
					       mpc_desc_dump_size(v.desc), &e)) {
					r = tool_error(t, "%s, record %u: %s", argv[a], idx, e.msg);
					break;
				}
				if (!idx)
					first_ns = rec->start_ns;
				m.time_s = (rec->end_ns - first_ns) * 1e-9;
				m.interval_s = (rec->end_ns - rec->start_ns) * 1e-9;
				if (sink && !began++)
					r = sink->begin(t, &v, &sink_state, first_ns, 0);
				if (!r && !sum)
					r = decode_emit(t, &v, s, &m, sink, sink_state);
				idx++;
			}
			if (idx)
				last_end = rec_last_end(buf, len);
			free(buf);
			continue;
		}
		if (!len || len % mpc_desc_dump_size(v.desc)) {
			r = tool_error(t, "%s is %zu bytes, not a whole number of %u-byte dumps of this "
				       "GPU (%s), nor a perfcnt_stream capture; check the description "
				       "against the board the dump came from", argv[a], len,
				       mpc_desc_dump_size(v.desc), src);
			free(buf);
			break;
		}
		if (sink && isnan(interval_ms)) {
			r = tool_error(t, "%s holds raw dumps, which carry no time: give --interval MS "
				       "(the time between them) for a trace", argv[a]);
			free(buf);
			break;
		}
		for (off = 0; off < len && !r; off += mpc_desc_dump_size(v.desc)) {
			if (!sum)
				mpc_sample_reset(s);
			if (mpc_decode(s, buf + off, mpc_desc_dump_size(v.desc), &e)) {
				r = tool_error(t, "%s, dump %zu: %s", argv[a],
					       off / mpc_desc_dump_size(v.desc), e.msg);
				break;
			}
			if (!sum) {
				struct sample_meta m = { idx, NAN, interval_ms / 1000.0, 0, 0, 0 };

				if (!isnan(interval_ms)) {
					m.time_s = (idx + 1) * interval_ms / 1000.0;
					m.timestamp_ns = (unsigned long long)llround(m.time_s * 1e9);
				}
				if (sink && !began++)
					r = sink->begin(t, &v, &sink_state, 0, 0);
				if (!r)
					r = decode_emit(t, &v, s, &m, sink, sink_state);
			}
			idx++;
		}
		free(buf);
	}
	if (!r && sum) {
		struct sample_meta m = { 0, NAN, NAN, 0, 0, 0 };

		/* a capture knows its span; raw dumps only with --interval */
		if (last_end)
			m.interval_s = m.time_s = (last_end - first_ns) * 1e-9;
		else if (!isnan(interval_ms))
			m.interval_s = m.time_s = idx * interval_ms / 1000.0;
		out_sample(t, &v, s, &m);
	}
	if (lost || failed)
		fprintf(stderr, "%s: decode: the capture says %llu sample%s were lost (the reader "
			"fell behind) and %llu failed\n", t->prog, (unsigned long long)lost,
			lost == 1 ? "" : "s", (unsigned long long)failed);
	if (sink) {
		if (began && sink->end(t, &v, sink_state) && !r)
			r = 1;
		if (trace != stdout && fclose(trace) && !r)
			r = tool_error(t, "writing '%s' failed: %s", output, strerror(errno));
		t->out = t->o.f = stdout;
		if (!r)
			fprintf(stderr, "%s: decode: %u samples to %s (perfetto)\n", t->prog, idx,
				output);
	} else if (!r) {
		out_end(t, &v, NULL);
	}
out:
	mpc_sample_free(s);
	view_free(&v);
	return r;
}
