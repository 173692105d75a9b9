// SPDX-License-Identifier: MIT
/* "list": the GPUs, counters and derived metrics the database knows. */
#define _GNU_SOURCE
#include <fnmatch.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "tool.h"

static int list_gpus(struct tool *t)
{
	FILE *f = t->out;

	if (t->fmt == FMT_CSV)
		fputs("key,name,arch,layout,counters_per_block,product_ids,counters\n", f);
	else if (t->fmt == FMT_TEXT)
		fprintf(f, "%-6s %-10s %-9s %-6s %-5s %-28s %s\n", "key", "name", "arch", "layout",
			"block", "product id/mask", "counters");
	else
		fputs("{\"gpus\":[", f);
	for (unsigned i = 0; i < mpc_db_gpu_count(t->db); i++) {
		const struct mpc_gpu_def *g = mpc_db_gpu(t->db, i);
		char ids[128] = "";
		size_t n = 0;
		unsigned known = 0;

		for (unsigned m = 0; m < g->nmatch && n < sizeof(ids) - 16; m++)
			n += (size_t)snprintf(ids + n, sizeof(ids) - n, "%s0x%04x/0x%04x", m ? " " : "",
					      g->match[m].id, g->match[m].mask);
		for (unsigned c = 0; c < g->ncounters; c++)
			known += g->counters[c].index >= 0;
		if (t->fmt == FMT_TEXT) {
			char cnt[32];

			snprintf(cnt, sizeof(cnt), known == g->ncounters ? "%u" : "%u (of %u named)", known,
				 g->ncounters);
			fprintf(f, "%-6s %-10s %-9s v%-5u %-5u %-28s %s\n", g->key, g->name, g->arch,
				g->layout, g->counters_per_block, ids[0] ? ids : "(none: use --gpu)", cnt);
		} else if (t->fmt == FMT_CSV) {
			char b[32];

			csv_field(f, g->key, 0);
			csv_field(f, g->name, 0);
			csv_field(f, g->arch, 0);
			fprintf(f, "v%u,%u,", g->layout, g->counters_per_block);
			csv_field(f, ids, 0);
			snprintf(b, sizeof(b), "%u", known);
			csv_field(f, b, 1);
		} else {
			fputs(i ? ",{\"key\":" : "{\"key\":", f);
			json_str(f, g->key);
			fputs(",\"name\":", f);
			json_str(f, g->name);
			fputs(",\"arch\":", f);
			json_str(f, g->arch);
			fprintf(f, ",\"layout\":\"v%u\",\"counters_per_block\":%u,\"product_ids\":",
				g->layout, g->counters_per_block);
			json_str(f, ids);
			fprintf(f, ",\"counters\":%u}", known);
		}
	}
	if (t->fmt == FMT_JSON)
		fputs("]}\n", f);
	return 0;
}

static int match(const char *pat, const char *a, const char *b)
{
	return !pat || (a && !fnmatch(pat, a, 0)) || (b && !fnmatch(pat, b, 0));
}

int cmd_list(struct tool *t, int argc, char **argv)
{
	static const struct option opts[] = {
		COMMON_LONGOPTS,
		{ "gpu", required_argument, NULL, 5001 },
		{ "gpus", no_argument, NULL, 5002 },
		{ "derived", no_argument, NULL, 5003 },
		{ "counters", no_argument, NULL, 5004 },
		{ "all", no_argument, NULL, 5005 },
		{ "events", required_argument, NULL, 'e' },
		{ NULL, 0, NULL, 0 },
	};
	const char *gpu = NULL, *pat = NULL;
	int gpus = 0, only_derived = 0, only_counters = 0, all = 0, c;
	const struct mpc_gpu_def *g;
	struct mpc_prog *p = NULL;
	struct mpc_err e;
	FILE *f = t->out;

	while ((c = getopt_long(argc, argv, "+:f:he:", opts, NULL)) != -1) {
		int x = tool_common_opt(t, c, optarg);

		if (x > 0)
			return 1;
		if (x == 0)
			continue;
		switch (c) {
		case 'h':
			return help(t, "list", stdout);
		case 5001: gpu = optarg; break;
		case 5002: gpus = 1; break;
		case 5003: only_derived = 1; break;
		case 5004: only_counters = 1; break;
		case 5005: all = 1; break;
		case 'e': pat = optarg; break;
		default:
			return tool_bad_option(t, "list", c, argv);
		}
	}
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
		g = mpc_db_match_gpu_id(t->db, mpc_dev_desc(dev)->gpu_id);
		unsigned id = mpc_dev_desc(dev)->gpu_id;

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

	if (t->fmt == FMT_CSV)
		fputs("type,block,index,name,lgc_name,unit,status,expression\n", f);
	else if (t->fmt == FMT_JSON) {
		fputs("{\"gpu\":", f);
		json_str(f, g->name);
		fputs(",\"key\":", f);
		json_str(f, g->key);
		fputs(",\"counter_set\":0", f);
	}
	if (!only_derived) {
		int first = 1;

		if (t->fmt == FMT_TEXT)
			fprintf(f, "Counters of %s (counter set 0; secondary sets are not described):\n"
				"%-7s %5s  %-34s %-30s %s\n", g->name, "block", "index", "name",
				"libGPUCounters", "unit");
		if (t->fmt == FMT_JSON)
			fputs(",\"counters\":[", f);
		for (unsigned k = 0; k < MPC_BLK_KINDS; k++)
			for (unsigned i = 0; i < g->ncounters; i++) {
				const struct mpc_counter_def *ct = &g->counters[i];
				char idx[16];

				if (ct->kind != k || !match(pat, ct->name, ct->lgc))
					continue;
				snprintf(idx, sizeof(idx), ct->index < 0 ? "-" : "%d", ct->index);
				if (t->fmt == FMT_TEXT) {
					fprintf(f, "%-7s %5s  %-34s %-30s %s\n", mpc_block_name(k), idx,
						ct->name, ct->lgc ? ct->lgc : "", ct->unit ? ct->unit : "");
				} else if (t->fmt == FMT_CSV) {
					csv_field(f, "counter", 0);
					csv_field(f, mpc_block_name(k), 0);
					csv_field(f, idx, 0);
					csv_field(f, ct->name, 0);
					csv_field(f, ct->lgc, 0);
					csv_field(f, ct->unit, 0);
					csv_field(f, ct->index < 0 ? "unknown-index" : "ok", 0);
					csv_field(f, "", 1);
				} else {
					fputs(first ? "{\"block\":" : ",{\"block\":", f);
					first = 0;
					json_str(f, mpc_block_name(k));
					fprintf(f, ",\"index\":%d,\"name\":", ct->index);
					json_str(f, ct->name);
					fputs(",\"lgc\":", f);
					if (ct->lgc)
						json_str(f, ct->lgc);
					else
						fputs("null", f);
					fputs(",\"unit\":", f);
					json_str(f, ct->unit ? ct->unit : "");
					fputc('}', f);
				}
			}
		if (t->fmt == FMT_JSON)
			fputc(']', f);
	}
	if (!only_counters) {
		int first = 1;
		unsigned hidden = 0;

		if (t->fmt == FMT_TEXT)
			fprintf(f, "%sDerived metrics of %s:\n%-34s %-13s %-11s %s\n",
				only_derived ? "" : "\n", g->name, "name", "unit", "status", "formula");
		if (t->fmt == FMT_JSON)
			fputs(",\"metrics\":[", f);
		for (unsigned i = 0; i < mpc_prog_count(p); i++) {
			const struct mpc_metric *m = mpc_prog_metric(p, i);

			if (!match(pat, m->def->name, NULL))
				continue;
			if (!m->available && !all) {
				hidden++;
				continue;
			}
			if (t->fmt == FMT_TEXT) {
				fprintf(f, "%-34s %-13s %-11s %s\n", m->def->name, m->def->unit,
					m->available ? "available" : "unavail.", m->def->expr);
				if (!m->available)
					fprintf(f, "%-34s   (%s)\n", "", m->reason);
			} else if (t->fmt == FMT_CSV) {
				csv_field(f, "metric", 0);
				csv_field(f, "", 0);
				csv_field(f, "", 0);
				csv_field(f, m->def->name, 0);
				csv_field(f, "", 0);
				csv_field(f, m->def->unit, 0);
				csv_field(f, m->available ? "available" : m->reason, 0);
				csv_field(f, m->def->expr, 1);
			} else {
				fputs(first ? "{\"name\":" : ",{\"name\":", f);
				first = 0;
				json_str(f, m->def->name);
				fputs(",\"unit\":", f);
				json_str(f, m->def->unit);
				fprintf(f, ",\"available\":%s,\"reason\":", m->available ? "true" : "false");
				if (m->available)
					fputs("null", f);
				else
					json_str(f, m->reason);
				fputs(",\"set\":", f);
				json_str(f, m->def->set);
				fputs(",\"expression\":", f);
				json_str(f, m->def->expr);
				fputc('}', f);
			}
		}
		if (t->fmt == FMT_JSON)
			fputc(']', f);
		if (t->fmt == FMT_TEXT && hidden)
			fprintf(f, "(%u more unavailable on %s; --all shows them with the reason)\n", hidden,
				g->name);
	}
	if (t->fmt == FMT_JSON)
		fputs("}\n", f);
	mpc_prog_free(p);
	return 0;
}
