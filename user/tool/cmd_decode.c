// SPDX-License-Identifier: MIT
/* "decode": offline decoding of dumps captured with cat .../perfcnt_dump. */
#define _GNU_SOURCE
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tool.h"

#define MAX_DUMP_FILE (256u << 20)

int cmd_decode(struct tool *t, int argc, char **argv)
{
	static const struct option opts[] = {
		COMMON_LONGOPTS,
		{ "gpu-info", required_argument, NULL, 3001 },
		{ "gpu", required_argument, NULL, 3002 },
		{ "cores", required_argument, NULL, 3003 },
		{ "l2", required_argument, NULL, 3004 },
		{ "interval", required_argument, NULL, 3005 },
		{ "freq", required_argument, NULL, 3006 },
		{ "sum", no_argument, NULL, 3007 },
		{ "raw", no_argument, NULL, 3008 },
		{ "events", required_argument, NULL, 'e' },
		{ "per-instance", no_argument, NULL, 'A' },
		{ NULL, 0, NULL, 0 },
	};
	const char *gpu_info = NULL, *gpu = NULL, *events = NULL;
	unsigned long long cores = 0, l2 = 0;
	double interval_ms = NAN, freq_mhz = 0;
	int sum = 0, raw = 0, per_inst = 0, have_cores = 0, have_l2 = 0, c, r = 0;
	struct view v = { 0 };
	struct mpc_sample *s = NULL;
	struct mpc_dev *dev = NULL;
	struct mpc_err e;
	char src[300];

	while ((c = getopt_long(argc, argv, "+:f:he:A", opts, NULL)) != -1) {
		int x = tool_common_opt(t, c, optarg);

		if (x > 0)
			return 1;
		if (x == 0)
			continue;
		switch (c) {
		case 'h':
			return help(t, "decode", stdout);
		case 3001:
			gpu_info = optarg;
			break;
		case 3002:
			gpu = optarg;
			break;
		case 3003:
			if (tool_parse_u64(t, "--cores", optarg, ~0ull, &cores))
				return 1;
			have_cores = 1;
			break;
		case 3004:
			if (tool_parse_u64(t, "--l2", optarg, 16, &l2))
				return 1;
			if (!l2)
				return tool_error(t, "--l2 0: a GPU has 1..16 L2 slices (1..8 core "
						  "groups on v4); leave --l2 out for 1");
			have_l2 = 1;
			break;
		case 3005:
			if (tool_parse_double(t, "--interval", optarg, &interval_ms))
				return 1;
			break;
		case 3006:
			if (tool_parse_double(t, "--freq", optarg, &freq_mhz))
				return 1;
			break;
		case 3007:
			sum = 1;
			break;
		case 3008:
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
	if (tool_load_db(t))
		return 1;
	if (gpu_info) {
		if (have_cores || have_l2)
			return tool_error(t, "--cores/--l2 and --gpu-info both describe the device; give one");
		if (mpc_desc_load_gpu_info(&v.desc, gpu_info, &e))
			return tool_err(t, &e);
		if (v.desc.counter_set > 0)
			v.counter_set = (unsigned)v.desc.counter_set;
		snprintf(src, sizeof(src), "%s", gpu_info);
	} else if (gpu) {
		const struct mpc_gpu_def *g = mpc_db_find_gpu(t->db, gpu);

		if (!g)
			return tool_error(t, "GPU '%s' is not in the database; 'mali-perfcnt list --gpus' "
					  "shows the known ones", gpu);
		if (!have_cores)
			return tool_error(t, "--gpu needs --cores MASK (SHADER_PRESENT, e.g. 0xb) and "
					  "--l2 N (L2 slices, or core groups on v4)");
		if (mpc_desc_from_gpu(&v.desc, g, cores, (unsigned)l2, &e))
			return tool_err(t, &e);
		snprintf(src, sizeof(src), "--gpu %s", g->key);
	} else {
		if (have_cores || have_l2)
			return tool_error(t, "--cores/--l2 need --gpu NAME");
		if (tool_open(t, 0, &dev, &e))
			return tool_error(t, "no device description: give --gpu-info FILE (the gpu_info "
					  "saved with the dump) or --gpu/--cores/--l2 (%s)", e.msg);
		v.desc = *mpc_dev_desc(dev);
		snprintf(src, sizeof(src), "%s", mpc_dev_path(dev));
		mpc_dev_close(dev);
	}
	v.per_instance = per_inst;
	v.source = src;
	v.freq_hz = freq_mhz * 1e6;
	if (view_init(t, &v, gpu, raw) || view_select(t, &v, events, "all")) {
		view_free(&v);
		return 1;
	}
	if (mpc_sample_new(v.l, &s, &e)) {
		view_free(&v);
		return tool_err(t, &e);
	}
	out_begin(t, &v, "decode");
	unsigned idx = 0;

	for (int a = optind; a < argc && !r; a++) {
		char *buf;
		size_t len;

		if (mpc_read_file(argv[a], MAX_DUMP_FILE, &buf, &len, &e)) {
			r = tool_err(t, &e);
			break;
		}
		if (!len || len % v.desc.dump_size) {
			r = tool_error(t, "%s is %zu bytes, not a whole number of %u-byte dumps of this "
				       "GPU (%s); check the description against the board the dump "
				       "came from", argv[a], len, v.desc.dump_size, src);
			free(buf);
			break;
		}
		for (size_t off = 0; off < len && !r; off += v.desc.dump_size) {
			if (!sum)
				mpc_sample_reset(s);
			if (mpc_decode(s, buf + off, v.desc.dump_size, &e)) {
				r = tool_error(t, "%s, dump %zu: %s", argv[a], off / v.desc.dump_size, e.msg);
				break;
			}
			if (!sum) {
				struct sample_meta m = { idx, NAN, interval_ms / 1000.0, 0, 0, 0 };

				if (!isnan(interval_ms))
					m.time_s = (idx + 1) * interval_ms / 1000.0;
				out_sample(t, &v, s, &m);
			}
			idx++;
		}
		free(buf);
	}
	if (!r && sum) {
		struct sample_meta m = { 0, NAN, NAN, 0, 0, 0 };

		if (!isnan(interval_ms))
			m.interval_s = m.time_s = idx * interval_ms / 1000.0;
		out_sample(t, &v, s, &m);
	}
	if (!r)
		out_end(t, &v, NULL);
	mpc_sample_free(s);
	view_free(&v);
	return r;
}
