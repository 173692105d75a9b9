// SPDX-License-Identifier: MIT
/* "list": the GPUs, counters and derived metrics the database knows. */
#define _GNU_SOURCE
#include <fnmatch.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "tool.h"

static int match(const char *pat, const char *a, const char *b)
{
	return !pat || (a && !fnmatch(pat, a, 0)) || (b && !fnmatch(pat, b, 0));
}

static const struct col gpu_cols[] = {
	{ "key", "key", "key", -6 },
	{ "name", "name", "name", -10 },
	{ "arch", "arch", "arch", -9 },
	{ "layout", "layout", "layout", -6 },
	{ "counters_per_block", "counters_per_block", "block", -5 },
	{ "product_ids", "product_ids", "product id/mask", -28 },
	{ "counters", "counters", "counters", 0 },
};
static const struct table gpu_table = { "gpus", gpu_cols, 7 };

static int list_gpus(struct tool *t)
{
	out_table_begin(t, &gpu_table, NULL);
	for (unsigned i = 0; i < mpc_db_gpu_count(t->db); i++) {
		const struct mpc_gpu_def *g = mpc_db_gpu(t->db, i);
		char ids[128] = "", lay[16], cpb[16], known_s[16], cnt[32];
		size_t n = 0;
		unsigned known = 0;

		for (unsigned m = 0; m < g->nmatch && n < sizeof(ids) - 16; m++)
			n += (size_t)snprintf(ids + n, sizeof(ids) - n, "%s0x%04x/0x%04x", m ? " " : "",
					      g->match[m].id, g->match[m].mask);
		for (unsigned c = 0; c < g->ncounters; c++)
			known += g->counters[c].index >= 0;
		snprintf(lay, sizeof(lay), "v%u", g->layout);
		snprintf(cpb, sizeof(cpb), "%u", g->counters_per_block);
		snprintf(known_s, sizeof(known_s), "%u", known);
		snprintf(cnt, sizeof(cnt), known == g->ncounters ? "%u" : "%u (of %u named)", known,
			 g->ncounters);

		const struct cell row[] = {
			CELL_S(g->key), CELL_S(g->name), CELL_S(g->arch), CELL_S(lay), CELL_N(cpb),
			{ .v = ids, .text = ids[0] ? NULL : "(none: use --gpu)" },
			{ .v = known_s, .text = cnt, .type = CELL_NUM },
		};

		out_row(t, &gpu_table, row, NULL);
	}
	out_table_end(t, &gpu_table, NULL);
	out_doc_end(t);
	return 0;
}

/*
 * Counters and metrics are two tables of one document; in CSV they share
 * the columns type,block,index,name,lgc_name,unit,status,expression.
 */
static const struct col counter_cols[] = {
	{ NULL, "type", NULL, 0 },
	{ "block", "block", "block", -7 },
	{ "index", "index", "index", 5 },
	{ "name", "name", "name", -34, "  " },
	{ "lgc", "lgc_name", "libGPUCounters", -30 },
	{ "unit", "unit", "unit", 0 },
	{ NULL, "status", NULL, 0 },
	{ NULL, "expression", NULL, 0 },
};
static const struct table counter_table = { "counters", counter_cols, 8 };

static const struct col metric_cols[] = {
	{ NULL, "type", NULL, 0 },
	{ NULL, "block", NULL, 0 },
	{ NULL, "index", NULL, 0 },
	{ "name", "name", "name", -34 },
	{ NULL, "lgc_name", NULL, 0 },
	{ "unit", "unit", "unit", -13 },
	{ NULL, "status", "status", -11 },
	{ "available", NULL, NULL, 0 },
	{ "reason", NULL, NULL, 0 },
	{ "set", NULL, NULL, 0 },
	{ "expression", "expression", "formula", 0 },
};
static const struct table metric_table = { "metrics", metric_cols, 11 };

/*
 * @raw: instances per kind of the device's blocks the database names no
 * counter of (kbase's CSF firmware and CSG blocks): one row each, read by
 * index as fw[N] / csg[N].
 */
static void list_counters(struct tool *t, const struct mpc_gpu_def *g, const char *pat,
			  const unsigned *raw)
{
	char title[160];

	snprintf(title, sizeof(title), "Counters of %s (counter set 0; secondary sets are not "
		 "described):\n", g->name);
	out_table_begin(t, &counter_table, title);
	for (unsigned k = 0; k < MPC_BLK_KINDS; k++)
		for (unsigned i = 0; i < g->ncounters; i++) {
			const struct mpc_counter_def *ct = &g->counters[i];
			char idx[16], jidx[16];

			if (ct->kind != k || !match(pat, ct->name, ct->lgc))
				continue;
			snprintf(idx, sizeof(idx), ct->index < 0 ? "-" : "%d", ct->index);
			snprintf(jidx, sizeof(jidx), "%d", ct->index);

			const struct cell row[] = {
				CELL_S("counter"), CELL_S(mpc_block_name(k)),
				{ .v = idx, .json = jidx, .type = CELL_NUM },
				CELL_S(ct->name), CELL_S(ct->lgc), CELL_S(ct->unit ? ct->unit : ""),
				CELL_S(ct->index < 0 ? "unknown-index" : "ok"), CELL_S(""),
			};

			out_row(t, &counter_table, row, NULL);
		}
	for (unsigned k = 0; raw && k < MPC_BLK_KINDS; k++) {
		char name[48], range[16];

		snprintf(name, sizeof(name), "%s[N]", mpc_block_name(k));
		if (!raw[k] || !match(pat, name, NULL))
			continue;
		snprintf(range, sizeof(range), "4-%u", g->counters_per_block - 1);
		const struct cell row[] = {
			CELL_S("counter"), CELL_S(mpc_block_name(k)), CELL_S(range), CELL_S(name),
			CELL_S(""), CELL_S(""), CELL_S("by-index"), CELL_S(""),
		};

		out_row(t, &counter_table, row, NULL);
	}
	out_table_end(t, &counter_table, NULL);
}

static void list_metrics(struct tool *t, const struct mpc_gpu_def *g, struct mpc_prog *p,
			 const char *pat, int all, int after_counters)
{
	char title[160], footer[160];
	unsigned hidden = 0;

	snprintf(title, sizeof(title), "%sDerived metrics of %s:\n", after_counters ? "\n" : "",
		 g->name);
	out_table_begin(t, &metric_table, title);
	for (unsigned i = 0; i < mpc_prog_count(p); i++) {
		const struct mpc_metric *m = mpc_prog_metric(p, i);

		if (!match(pat, m->def->name, NULL))
			continue;
		if (!m->available && !all) {
			hidden++;
			continue;
		}

		const struct cell row[] = {
			CELL_S("metric"), CELL_S(""), CELL_S(""), CELL_S(m->def->name), CELL_S(""),
			CELL_S(m->def->unit),
			{ .v = m->available ? "available" : m->reason,
			  .text = m->available ? "available" : "unavail." },
			{ .v = m->available ? "true" : "false", .type = CELL_LIT },
			CELL_S(m->available ? NULL : m->reason), CELL_S(m->def->set),
			CELL_S(m->def->expr),
		};

		out_row(t, &metric_table, row, m->available ? NULL : m->reason);
	}
	snprintf(footer, sizeof(footer), "(%u more unavailable on %s; --all shows them with the "
		 "reason)", hidden, g->name);
	out_table_end(t, &metric_table, hidden ? footer : NULL);
}

int cmd_list(struct tool *t, int argc, char **argv)
{
	static const struct option opts[] = {
		COMMON_LONGOPTS,
		{ "gpu", required_argument, NULL, OPT_GPU },
		{ "gpus", no_argument, NULL, OPT_GPUS },
		{ "derived", no_argument, NULL, OPT_DERIVED },
		{ "counters", no_argument, NULL, OPT_COUNTERS },
		{ "all", no_argument, NULL, OPT_ALL },
		{ "events", required_argument, NULL, 'e' },
		{ NULL, 0, NULL, 0 },
	};
	const char *gpu = NULL, *pat = NULL;
	int gpus = 0, only_derived = 0, only_counters = 0, all = 0, c, r = 0;
	const struct mpc_gpu_def *g;
	struct mpc_prog *p = NULL;
	struct mpc_err e;
	unsigned raw[MPC_BLK_KINDS] = { 0 };

	while ((c = tool_next_opt(t, "list", 0, argc, argv, "e:", opts, &r)) > 0) {
		switch (c) {
		case OPT_GPU: gpu = optarg; break;
		case OPT_GPUS: gpus = 1; break;
		case OPT_DERIVED: only_derived = 1; break;
		case OPT_COUNTERS: only_counters = 1; break;
		case OPT_ALL: all = 1; break;
		case 'e': pat = optarg; break;
		default:
			return tool_bad_option(t, "list", c, argv);
		}
	}
	if (c == TOOL_OPTS_EXIT)
		return r;
	if (optind < argc)
		return tool_error(t, "'list' takes no arguments (got '%s'); name the GPU with --gpu",
				  argv[optind]);
	if (tool_load_db(t))
		return 1;
	if (gpus)
		return list_gpus(t);
	if (gpu) {
		g = mpc_db_find_gpu(t->db, gpu);
		if (!g)
			return tool_error(t, "GPU '%s' is not in the database; 'mali-perfcnt list --gpus' "
					  "shows the known ones", gpu);
	} else {
		struct mpc_dev *dev;

		if (tool_open(t, MPC_OPEN_NO_LOAD, &dev, &e))
			return tool_error(t, "no GPU to list for: name one with --gpu (see 'list --gpus'); "
					  "%s", e.msg);
		g = mpc_db_match_gpu_id(t->db, mpc_desc_gpu_id(mpc_dev_desc(dev)));
		unsigned id = mpc_desc_gpu_id(mpc_dev_desc(dev));

		raw[MPC_BLK_FW] = mpc_desc_nr_csf_blocks(mpc_dev_desc(dev), MPC_BLK_FW);
		raw[MPC_BLK_CSG] = mpc_desc_nr_csf_blocks(mpc_dev_desc(dev), MPC_BLK_CSG);
		mpc_dev_close(dev);
		if (!g && t->nlayouts)
			return tool_error(t, "the device's GPU_ID 0x%08x matches no GPU of the database or "
					  "of the --layout files; name the GPU with --gpu", id);
		if (!g)
			return tool_error(t, "the device's GPU_ID 0x%08x is not in the database; use --gpu "
					  "with a --layout file", id);
	}
	if (mpc_prog_new(t->db, g, NULL, &p, &e))
		return tool_err(t, &e);
	out_member(t, "gpu", CELL_S(g->name));
	out_member(t, "key", CELL_S(g->key));
	out_member(t, "counter_set", CELL_N("0"));
	if (!only_derived)
		list_counters(t, g, pat, raw);
	if (!only_counters)
		list_metrics(t, g, p, pat, all, !only_derived);
	out_doc_end(t);
	mpc_prog_free(p);
	return 0;
}
