// SPDX-License-Identifier: MIT
/*
 * Output of samples in the three formats.
 *
 * text: aligned and readable; "stat" style is one line per counter/metric
 *       (with a time column in interval mode), "dump" style groups counters by
 *       block and lists the metrics after them.
 * csv:  a header row, then one row per (sample, counter or metric):
 *       sample,time_s,interval_s,type,block,name,lgc_name,value,unit,status,data_flags
 *       (data_flags: the sample's MPC_DATA_* names joined by '+', e.g.
 *       "saturated+after-recovery", or empty)
 * json: one object per sample, on one line (see the man page for the schema).
 */
#define _GNU_SOURCE
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tool.h"

const char *fmt_count(unsigned long long v, char *buf, size_t n)
{
	char tmp[32];
	int len = snprintf(tmp, sizeof(tmp), "%llu", v), o = 0;

	for (int i = 0; i < len && (size_t)o + 2 < n; i++) {
		if (i && (len - i) % 3 == 0)
			buf[o++] = ',';
		buf[o++] = tmp[i];
	}
	buf[o] = 0;
	return buf;
}

const char *fmt_value(double v, char *buf, size_t n)
{
	if (isnan(v)) {
		snprintf(buf, n, "<no value>");
	} else if (fabs(v) >= 1000 && fabs(v) < 1e18) {
		/* large values: whole units with thousands separators */
		char t[40];

		fmt_count((unsigned long long)llround(fabs(v)), t, sizeof(t));
		snprintf(buf, n, "%s%s", v < 0 ? "-" : "", t);
	} else if (fabs(v) >= 1e18) {
		snprintf(buf, n, "%.6g", v);
	} else {
		snprintf(buf, n, "%.2f", v);
	}
	return buf;
}

void csv_field(FILE *f, const char *s, int last)
{
	if (!s)
		s = "";
	if (strpbrk(s, ",\"\n\r")) {
		fputc('"', f);
		for (; *s; s++) {
			if (*s == '"')
				fputc('"', f);
			fputc(*s, f);
		}
		fputc('"', f);
	} else {
		fputs(s, f);
	}
	fputc(last ? '\n' : ',', f);
}

void json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; s && *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

void json_num(FILE *f, double v)
{
	if (isnan(v) || isinf(v))
		fputs("null", f);
	else if (v == floor(v) && fabs(v) < 9e15)
		fprintf(f, "%.0f", v);
	else
		fprintf(f, "%.15g", v);
}

static const char *status_of(unsigned fl)
{
	if (fl & MPC_VAL_UNKNOWN)
		return "unavailable";
	if (fl & MPC_VAL_NOT_COLLECTED)
		return "not-collected";
	if (fl & MPC_VAL_SATURATED)
		return "saturated";
	return "ok";
}

/* The sample's data flags as "saturated+after-recovery", "" when none. */
static const char *data_flags_str(unsigned fl, char *buf, size_t n)
{
	static const char *const names[] = { "saturated", "after-recovery", "after-power-loss",
					     "first" };
	size_t o = 0;

	buf[0] = 0;
	for (unsigned i = 0; i < 4; i++)
		if ((fl & (1u << i)) && o < n)
			o += (size_t)snprintf(buf + o, n - o, "%s%s", o ? "+" : "", names[i]);
	return buf;
}

/* text output: one note per flag that makes the values less than complete */
static void data_flags_note(FILE *f, unsigned fl)
{
	if (fl & MPC_DATA_SATURATED)
		fputs(" # note: a counter saturated at 0xffffffff: its values are lower bounds; "
		      "sample more often (-I)\n", f);
	if (fl & MPC_DATA_AFTER_RECOVERY)
		fputs(" # note: the GPU was reset (see dmesg): what it counted before the reset is "
		      "lost, the interval starts at the reset\n", f);
	if (fl & MPC_DATA_AFTER_POWER_LOSS)
		fputs(" # note: the GPU lost power in this interval (suspend): some activity is "
		      "missing\n", f);
}

static void block_label(const struct mpc_block *b, char *buf, size_t n)
{
	if (b->kind == MPC_BLK_JM)
		snprintf(buf, n, "jm");
	else
		snprintf(buf, n, "%s.%u", mpc_block_name(b->kind), b->instance);
}

void out_begin(struct tool *t, struct view *v, const char *what)
{
	FILE *f = t->out;

	v->printed = 0;
	if (t->fmt == FMT_CSV) {
		fputs("sample,time_s,interval_s,type,block,name,lgc_name,value,unit,status,data_flags\n",
		      f);
		return;
	}
	if (t->fmt != FMT_TEXT)
		return;
	if (v->stat_style) {
		fprintf(f, "\n Performance counter stats for %s on %s (%u core%s, %u L2, %s):\n\n",
			what, v->gpu ? v->gpu->name : v->desc.product, __builtin_popcountll(v->desc.shader_present),
			__builtin_popcountll(v->desc.shader_present) == 1 ? "" : "s",
			v->l->ninst[MPC_BLK_L2], v->source ? v->source : "?");
		if (v->stat_style == 2)
			fprintf(f, "%12s %20s  %-13s %s\n", "# time(s)", "value", "unit", "name");
	} else {
		fprintf(f, "%s: %s, GPU_ID 0x%08x, cores 0x%llx, %u L2, layout v%u, %s\n",
			what, v->gpu ? v->gpu->name : v->desc.product, v->desc.gpu_id,
			(unsigned long long)v->desc.shader_present, v->l->ninst[MPC_BLK_L2],
			v->desc.layout, v->source ? v->source : "?");
	}
}

static void text_line(FILE *f, struct view *v, const struct sample_meta *m, const char *blk,
		      const char *value, const char *unit, const char *name, const char *comment)
{
	if (v->stat_style == 2)
		fprintf(f, "%12.3f ", isnan(m->time_s) ? 0.0 : m->time_s);
	if (v->stat_style)
		fprintf(f, "%20s  %-13s %-28s%s%s\n", value, unit ? unit : "", name,
			comment && *comment ? " # " : "", comment ? comment : "");
	else
		fprintf(f, "  %-9s %-34s %20s  %-13s %s\n", blk, name, value, unit ? unit : "",
			comment ? comment : "");
}

/* One counter line/row/object for instance @inst (-1: summed). */
static void emit_counter(struct tool *t, struct view *v, const struct mpc_sample *s,
			 const struct sample_meta *m, const struct mpc_counter_def *c, int inst,
			 const char *blk, int *first)
{
	FILE *f = t->out;
	unsigned long long val;
	uint64_t v64;
	unsigned fl = mpc_counter_value(s, c, inst, &v64);
	const char *st = status_of(fl);
	char b1[48], b2[96];

	val = v64;
	if (t->fmt == FMT_TEXT) {
		if (fl & (MPC_VAL_NOT_COLLECTED | MPC_VAL_UNKNOWN))
			snprintf(b1, sizeof(b1), "<%s>", st);
		else
			fmt_count(val, b1, sizeof(b1));
		if (v->stat_style)
			snprintf(b2, sizeof(b2), "%s%s%s%s", c->lgc ? c->lgc : "",
				 inst >= 0 || v->per_instance ? (c->lgc ? ", " : "") : "",
				 inst >= 0 || v->per_instance ? blk : "",
				 fl & MPC_VAL_SATURATED ? " (saturated)" : "");
		else
			snprintf(b2, sizeof(b2), "%s%s", c->lgc ? c->lgc : "",
				 fl & MPC_VAL_SATURATED ? " (saturated)" : "");
		text_line(f, v, m, blk, b1, c->unit, c->name, b2);
	} else if (t->fmt == FMT_CSV) {
		char a[32], b[32];

		fprintf(f, "%u,", m->index);
		snprintf(a, sizeof(a), "%.6f", m->time_s);
		snprintf(b, sizeof(b), "%.9f", m->interval_s);
		csv_field(f, isnan(m->time_s) ? "" : a, 0);
		csv_field(f, isnan(m->interval_s) ? "" : b, 0);
		csv_field(f, "counter", 0);
		csv_field(f, blk, 0);
		csv_field(f, c->name, 0);
		csv_field(f, c->lgc, 0);
		if (fl & (MPC_VAL_NOT_COLLECTED | MPC_VAL_UNKNOWN))
			b1[0] = 0;
		else
			snprintf(b1, sizeof(b1), "%llu", val);
		csv_field(f, b1, 0);
		csv_field(f, c->unit, 0);
		csv_field(f, st, 0);
		csv_field(f, data_flags_str(m->data_flags, b2, sizeof(b2)), 1);
	} else {
		fputs(*first ? "" : ",", f);
		*first = 0;
		fputs("{\"name\":", f);
		json_str(f, c->name);
		fputs(",\"lgc\":", f);
		if (c->lgc)
			json_str(f, c->lgc);
		else
			fputs("null", f);
		fputs(",\"block\":", f);
		json_str(f, blk);
		fprintf(f, ",\"index\":%d,\"value\":", c->index);
		if (fl & (MPC_VAL_NOT_COLLECTED | MPC_VAL_UNKNOWN))
			fputs("null", f);
		else
			fprintf(f, "%llu", val);
		fputs(",\"unit\":", f);
		json_str(f, c->unit ? c->unit : "");
		fputs(",\"status\":", f);
		json_str(f, st);
		fputc('}', f);
	}
}

static void emit_counters(struct tool *t, struct view *v, const struct mpc_sample *s,
			  const struct sample_meta *m)
{
	int first = 1;

	if (t->fmt == FMT_JSON)
		fputs(",\"counters\":[", t->out);
	for (unsigned i = 0; i < v->nctr; i++) {
		const struct mpc_counter_def *c = v->ctr[i];

		if (!v->per_instance) {
			emit_counter(t, v, s, m, c, -1, mpc_block_name(c->kind), &first);
			continue;
		}
		for (unsigned b = 0; b < s->nblocks; b++) {
			char lbl[24];

			if (s->blk[b].kind != c->kind)
				continue;
			block_label(&s->blk[b], lbl, sizeof(lbl));
			emit_counter(t, v, s, m, c, s->blk[b].instance, lbl, &first);
		}
	}
	if (t->fmt == FMT_JSON)
		fputc(']', t->out);
}

static void emit_metrics(struct tool *t, struct view *v, const struct sample_meta *m)
{
	FILE *f = t->out;
	int first = 1;

	if (t->fmt == FMT_JSON)
		fputs(",\"metrics\":[", f);
	if (t->fmt == FMT_TEXT && !v->stat_style && v->nmet)
		fprintf(f, " %-9s %-34s %20s  %s\n", "", "derived metric", "value", "unit");
	for (unsigned i = 0; i < v->nmet; i++) {
		const struct mpc_metric *mt = mpc_prog_metric(v->p, v->met[i]);
		double x = v->val[v->met[i]];
		const char *st = isnan(x) ? "no-value" : "ok";
		char b1[48];

		if (t->fmt == FMT_TEXT) {
			text_line(f, v, m, "", fmt_value(x, b1, sizeof(b1)), mt->def->unit, mt->def->name,
				  "");
		} else if (t->fmt == FMT_CSV) {
			char a[32], b[32], fl[64];

			fprintf(f, "%u,", m->index);
			snprintf(a, sizeof(a), "%.6f", m->time_s);
			snprintf(b, sizeof(b), "%.9f", m->interval_s);
			csv_field(f, isnan(m->time_s) ? "" : a, 0);
			csv_field(f, isnan(m->interval_s) ? "" : b, 0);
			csv_field(f, "metric", 0);
			csv_field(f, "", 0);
			csv_field(f, mt->def->name, 0);
			csv_field(f, "", 0);
			if (isnan(x))
				b1[0] = 0;
			else
				snprintf(b1, sizeof(b1), "%.10g", x);
			csv_field(f, b1, 0);
			csv_field(f, mt->def->unit, 0);
			csv_field(f, st, 0);
			csv_field(f, data_flags_str(m->data_flags, fl, sizeof(fl)), 1);
		} else {
			fputs(first ? "" : ",", f);
			first = 0;
			fputs("{\"name\":", f);
			json_str(f, mt->def->name);
			fputs(",\"value\":", f);
			json_num(f, x);
			fputs(",\"unit\":", f);
			json_str(f, mt->def->unit);
			fputs(",\"status\":", f);
			json_str(f, st);
			fputc('}', f);
		}
	}
	if (t->fmt == FMT_JSON)
		fputc(']', f);
}

void out_sample(struct tool *t, struct view *v, const struct mpc_sample *s,
		const struct sample_meta *m)
{
	FILE *f = t->out;
	char lbl_flags[64];

	if (v->p) {
		mpc_config_init(&v->cfg, &v->desc, v->l, v->gpu, m->interval_s);
		if (v->freq_hz > 0)
			v->cfg.v[MPC_CFG_GPU_FREQ_HZ] = v->freq_hz;
		mpc_prog_eval(v->p, s, &v->cfg, v->val);
	}
	if (t->fmt == FMT_JSON) {
		fprintf(f, "{\"sample\":%u,\"time_s\":", m->index);
		json_num(f, m->time_s);
		fputs(",\"interval_s\":", f);
		json_num(f, m->interval_s);
		if (m->has_seqno)
			fprintf(f, ",\"seqno\":%llu,\"timestamp_ns\":%llu", m->seqno, m->timestamp_ns);
		fputs(",\"data_flags\":", f);
		json_str(f, data_flags_str(m->data_flags, lbl_flags, sizeof(lbl_flags)));
		fputs(",\"gpu\":", f);
		json_str(f, v->gpu ? v->gpu->name : v->desc.product);
		fprintf(f, ",\"gpu_id\":\"0x%08x\",\"counter_set\":%u", v->desc.gpu_id, v->counter_set);
		if (!v->stat_style) {
			fputs(",\"blocks\":[", f);
			for (unsigned b = 0; b < s->nblocks; b++) {
				char lbl[24];

				block_label(&s->blk[b], lbl, sizeof(lbl));
				fprintf(f, "%s{\"block\":", b ? "," : "");
				json_str(f, lbl);
				fprintf(f, ",\"timestamp\":%llu,\"enable\":\"0x%08x\"}",
					(unsigned long long)s->blk[b].timestamp, s->blk[b].enable);
			}
			fputc(']', f);
		}
		emit_counters(t, v, s, m);
		emit_metrics(t, v, m);
		fputs("}\n", f);
	} else if (t->fmt == FMT_CSV) {
		emit_counters(t, v, s, m);
		emit_metrics(t, v, m);
	} else {
		if (!v->stat_style) {
			fprintf(f, "\n sample %u", m->index);
			if (m->has_seqno)
				fprintf(f, " (seqno %llu, timestamp %llu ns)", m->seqno, m->timestamp_ns);
			if (!isnan(m->interval_s))
				fprintf(f, ", interval %.6f s", m->interval_s);
			fputs("\n", f);
			data_flags_note(f, m->data_flags);
			if (v->per_instance)
				for (unsigned b = 0; b < s->nblocks; b++) {
					char lbl[24];

					block_label(&s->blk[b], lbl, sizeof(lbl));
					fprintf(f, "  block %-10s timestamp 0x%016llx enable 0x%08x\n", lbl,
						(unsigned long long)s->blk[b].timestamp, s->blk[b].enable);
				}
			fprintf(f, " %-9s %-34s %20s  %-13s %s\n", "block", "counter", "value", "unit",
				"libGPUCounters");
		}
		if (v->stat_style)
			data_flags_note(f, m->data_flags);
		emit_counters(t, v, s, m);
		emit_metrics(t, v, m);
		if (v->stat_style == 2 && v->nctr + v->nmet > 1)
			fputc('\n', f);
	}
	v->printed++;
	fflush(f);
}

void out_end(struct tool *t, struct view *v, const char *footer)
{
	(void)v;
	if (t->fmt == FMT_TEXT && footer)
		fprintf(t->out, "\n%s\n", footer);
}
