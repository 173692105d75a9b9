// SPDX-License-Identifier: MIT
/*
 * The output formats: one struct out_ops each. Commands say what they print
 * and the ops decide how:
 *
 *  - documents (info, list): properties of the document (member: JSON only;
 *    text and CSV show them in titles), key-value lines (kv, kv_list) and
 *    tables whose columns (struct col) say where each value appears;
 *  - samples (decode, sample, stat): begin, then per sample its header, the
 *    counter section and the metric section of values (struct out_value),
 *    then end.
 *
 * text: aligned and readable; "stat" style is one line per counter/metric
 *       (with a time column in interval mode), "dump" style groups counters by
 *       block and lists the metrics after them.
 * csv:  a header row, then one row per (sample, counter or metric):
 *       sample,time_s,interval_s,type,block,name,lgc_name,value,unit,status,
 *       data_flags (the sample's MPC_DATA_* names joined by '+', or empty);
 *       tables share one header.
 * json: one object per sample or document, on one line (see the man page).
 *
 * A new format is one more ops table in out_formats[].
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

/*
 * The length of the valid UTF-8 sequence at @s, 0 if it is not one (RFC 3629:
 * no overlong forms, surrogates or code points beyond U+10FFFF). A NUL ends
 * a sequence early, so @s needs no length.
 */
size_t utf8_seq(const char *s)
{
	const unsigned char *u = (const unsigned char *)s;
	unsigned c = u[0], len, cp, min;

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		len = 2, cp = c & 0x1f, min = 0x80;
	else if ((c & 0xf0) == 0xe0)
		len = 3, cp = c & 0x0f, min = 0x800;
	else if (c >= 0xf0 && c <= 0xf4)
		len = 4, cp = c & 0x07, min = 0x10000;
	else
		return 0;
	for (unsigned i = 1; i < len; i++) {
		if ((u[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (u[i] & 0x3f);
	}
	if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return len;
}

#define UTF8_REPLACEMENT "\xef\xbf\xbd"	/* U+FFFD */

/* the character at @s, or U+FFFD for a byte that starts no valid sequence; its length */
static size_t put_utf8(FILE *f, const char *s)
{
	size_t k = utf8_seq(s);

	if (!k) {
		fputs(UTF8_REPLACEMENT, f);
		return 1;
	}
	fwrite(s, 1, k, f);
	return k;
}

void csv_field(FILE *f, const char *s, int last)
{
	int quote;

	if (!s)
		s = "";
	quote = strpbrk(s, ",\"\n\r") != NULL;
	if (quote)
		fputc('"', f);
	while (*s) {
		if (*s == '"')
			fputc('"', f);
		s += put_utf8(f, s);
	}
	if (quote)
		fputc('"', f);
	fputc(last ? '\n' : ',', f);
}

void json_str(FILE *f, const char *s)
{
	fputc('"', f);
	while (s && *s) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20)
			fprintf(f, "\\u%04x", c);
		if (c == '"' || c == '\\' || c < 0x20)
			s++;
		else
			s += put_utf8(f, s);
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

/* ------------------------------------------------------------ common parts */

static const char *const sample_flag_names[SAMPLE_F_COUNT] = {
	"saturated", "after-recovery", "after-power-loss", "first", "after-lost", "overflow",
	"power-partial", "power-off",
};

_Static_assert((unsigned)SAMPLE_F_OVERFLOW == (unsigned)MPC_DATA_OVERFLOW &&
	       (unsigned)SAMPLE_F_POWER_PARTIAL == (unsigned)MPC_DATA_POWER_PARTIAL &&
	       (unsigned)SAMPLE_F_POWER_OFF == (unsigned)MPC_DATA_POWER_OFF,
	       "SAMPLE_F_* are the library's MPC_DATA_*");

/* a block's power state over the sample ("on", "partial", "off"), NULL when not known */
static const char *power_str(const struct mpc_sample *s, unsigned b)
{
	switch (mpc_sample_block_power(s, b)) {
	case MPC_POWER_ON:
		return "on";
	case MPC_POWER_PARTIAL:
		return "partial";
	case MPC_POWER_OFF:
		return "off";
	}
	return NULL;
}

/* "a+b" of the SAMPLE_F_* in @fl, "" when none */
static const char *flags_str(unsigned fl, char *buf, size_t n)
{
	size_t o = 0;

	buf[0] = 0;
	for (unsigned b = 0; b < SAMPLE_F_COUNT && o < n; b++)
		if (fl & (1u << b))
			o += (size_t)snprintf(buf + o, n - o, "%s%s", o ? "+" : "", sample_flag_names[b]);
	return buf;
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

static int has_value(const struct out_value *x)
{
	return x->metric ? !isnan(x->x) : !(x->flags & (MPC_VAL_NOT_COLLECTED | MPC_VAL_UNKNOWN));
}

static const char *value_status(const struct out_value *x)
{
	return x->metric ? (isnan(x->x) ? "no-value" : "ok") : status_of(x->flags);
}

static void block_label(const struct mpc_sample *s, unsigned b, char *buf, size_t n)
{
	unsigned kind = mpc_sample_block_kind(s, b);

	if (kind == MPC_BLK_JM)
		snprintf(buf, n, "jm");
	else
		snprintf(buf, n, "%s.%u", mpc_block_name(kind), mpc_sample_block_instance(s, b));
}

static const char *gpu_name(const struct view *v)
{
	return v->gpu ? v->gpu->name : mpc_desc_product(v->desc);
}

static void nothing_doc(struct out *o, const char *key, const struct cell *c)
{
	(void)o, (void)key, (void)c;
}

static void nothing_section(struct out *o, struct view *v, int metrics)
{
	(void)o, (void)v, (void)metrics;
}

static void nothing_doc_end(struct out *o)
{
	(void)o;
}

static void nothing_end(struct out *o, struct view *v, const char *footer)
{
	(void)o, (void)v, (void)footer;
}

/* ------------------------------------------------------------------- text */

static void text_kv(struct out *o, const char *key, const struct cell *c)
{
	fprintf(o->f, "%-20s %s\n", key, c->text ? c->text : c->v ? c->v : "-");
}

static void text_kv_list(struct out *o, const char *key1, const char *key, const char *const *items,
			 unsigned n)
{
	(void)key;
	for (unsigned i = 0; i < n; i++)
		text_kv(o, key1, &CELL_S(items[i]));
}

/* the text cells of a row (or the titles, @cells NULL) */
static void text_cols(struct out *o, const struct table *tb, const struct cell *cells)
{
	int first = 1;

	for (unsigned i = 0; i < tb->ncols; i++) {
		const struct col *c = &tb->cols[i];
		const char *s;

		if (!c->title)
			continue;
		s = !cells ? c->title : cells[i].text ? cells[i].text : cells[i].v ? cells[i].v : "";
		fputs(c->sep ? c->sep : first ? "" : " ", o->f);
		if (c->width)
			fprintf(o->f, "%*s", c->width, s);
		else
			fputs(s, o->f);
		if (first) {
			o->note_w = c->width < 0 ? -c->width : c->width;
			first = 0;
		}
	}
	fputc('\n', o->f);
}

static void text_table_begin(struct out *o, const struct table *tb, const char *title)
{
	if (title)
		fputs(title, o->f);
	text_cols(o, tb, NULL);
}

static void text_row(struct out *o, const struct table *tb, const struct cell *cells,
		     const char *note)
{
	text_cols(o, tb, cells);
	/* a remark under the row, after the first column */
	if (note)
		fprintf(o->f, "%-*s   (%s)\n", o->note_w, "", note);
}

static void text_table_end(struct out *o, const struct table *tb, const char *footer)
{
	(void)tb;
	if (footer)
		fprintf(o->f, "%s\n", footer);
}

static void text_begin(struct out *o, struct view *v, const char *what)
{
	FILE *f = o->f;
	unsigned cores = mpc_desc_core_count(v->desc), nl2 = mpc_layout_instances(v->l, MPC_BLK_L2);

	if (v->stat_style) {
		fprintf(f, "\n Performance counter stats for %s on %s (%u core%s, %u L2, %s):\n\n",
			what, gpu_name(v), cores, cores == 1 ? "" : "s", nl2, v->source ? v->source : "?");
		if (v->stat_style == 2)
			fprintf(f, "%12s %20s  %-13s %s\n", "# time(s)", "value", "unit", "name");
	} else {
		fprintf(f, "%s: %s, GPU_ID 0x%08x, cores 0x%llx, %u L2, layout v%u, %s\n",
			what, gpu_name(v), mpc_desc_gpu_id(v->desc),
			(unsigned long long)mpc_desc_shader_present(v->desc), nl2, mpc_desc_layout(v->desc),
			v->source ? v->source : "?");
	}
}

/* text output: one note per flag that makes the values less than complete */
static void data_flags_note(FILE *f, unsigned fl)
{
	if (fl & SAMPLE_F_SATURATED)
		fputs(" # note: a counter saturated at 0xffffffff: its values are lower bounds; "
		      "sample more often (-I)\n", f);
	if (fl & SAMPLE_F_AFTER_RECOVERY)
		fputs(" # note: the GPU was reset (see dmesg): what it counted before the reset is "
		      "lost, the interval starts at the reset\n", f);
	if (fl & SAMPLE_F_AFTER_POWER_LOSS)
		fputs(" # note: the GPU lost power in this interval (suspend): some activity is "
		      "missing\n", f);
	if (fl & SAMPLE_F_AFTER_LOST)
		fputs(" # note: a sample before this one failed: what the GPU counted between "
		      "the sample before it and this interval's start is lost\n", f);
	if (fl & SAMPLE_F_OVERFLOW)
		fputs(" # note: the kernel's ring was full: this interval also holds the periods "
		      "it had no room for (nothing is lost; sample less often, -I)\n", f);
	if (fl & SAMPLE_F_POWER_PARTIAL)
		fputs(" # note: a block was powered for only part of this interval: its counts are "
		      "of that part (-A names it)\n", f);
	if (fl & SAMPLE_F_POWER_OFF)
		fputs(" # note: a block was powered off for all of this interval: it counted "
		      "nothing (-A names it)\n", f);
}

static void text_sample_begin(struct out *o, struct view *v, const struct mpc_sample *s,
			      const struct sample_meta *m)
{
	FILE *f = o->f;
	char fl[128];

	if (v->stat_style) {
		data_flags_note(f, m->data_flags);
		return;
	}
	fprintf(f, "\n sample %u", m->index);
	if (m->has_seqno)
		fprintf(f, " (seqno %llu, timestamp %llu ns)", m->seqno, m->timestamp_ns);
	if (!isnan(m->interval_s))
		fprintf(f, ", interval %.6f s", m->interval_s);
	if (m->data_flags)
		fprintf(f, " [%s]", flags_str(m->data_flags, fl, sizeof(fl)));
	fputs("\n", f);
	if (v->per_instance)
		for (unsigned b = 0; b < mpc_sample_nblocks(s); b++) {
			const char *pw = power_str(s, b);
			char lbl[24];

			block_label(s, b, lbl, sizeof(lbl));
			fprintf(f, "  block %-10s timestamp 0x%016llx enable 0x%08x%s%s\n", lbl,
				(unsigned long long)mpc_sample_block_timestamp(s, b),
				mpc_sample_block_enable(s, b), pw ? " power " : "", pw ? pw : "");
		}
	fprintf(f, " %-9s %-34s %20s  %-13s %s\n", "block", "counter", "value", "unit",
		"libGPUCounters");
}

static void text_section(struct out *o, struct view *v, int metrics)
{
	if (metrics && !v->stat_style && v->nmet)
		fprintf(o->f, " %-9s %-34s %20s  %s\n", "", "derived metric", "value", "unit");
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

static void text_value(struct out *o, struct view *v, const struct sample_meta *m,
		       const struct out_value *x)
{
	const char *sat = x->flags & MPC_VAL_SATURATED ? " (saturated)" : "";
	int show_blk = x->inst >= 0 || v->per_instance;
	char b1[48], b2[96];

	if (x->metric) {
		text_line(o->f, v, m, "", fmt_value(x->x, b1, sizeof(b1)), x->unit, x->name, "");
		return;
	}
	if (!has_value(x))
		snprintf(b1, sizeof(b1), "<%s>", status_of(x->flags));
	else
		fmt_count(x->count, b1, sizeof(b1));
	if (v->stat_style)
		snprintf(b2, sizeof(b2), "%s%s%s%s", x->lgc ? x->lgc : "",
			 show_blk ? (x->lgc ? ", " : "") : "", show_blk ? x->block : "", sat);
	else
		snprintf(b2, sizeof(b2), "%s%s", x->lgc ? x->lgc : "", sat);
	text_line(o->f, v, m, x->block, b1, x->unit, x->name, b2);
}

static void text_sample_end(struct out *o, struct view *v, const struct sample_meta *m)
{
	(void)m;
	if (v->stat_style == 2 && v->nctr + v->nmet > 1)
		fputc('\n', o->f);
}

static void text_end(struct out *o, struct view *v, const char *footer)
{
	(void)v;
	if (footer)
		fprintf(o->f, "\n%s\n", footer);
}

static const struct out_ops text_ops = {
	.name = "text",
	.member = nothing_doc,
	.kv = text_kv,
	.kv_list = text_kv_list,
	.table_begin = text_table_begin,
	.row = text_row,
	.table_end = text_table_end,
	.doc_end = nothing_doc_end,
	.begin = text_begin,
	.sample_begin = text_sample_begin,
	.section = text_section,
	.value = text_value,
	.sample_end = text_sample_end,
	.end = text_end,
};

/* -------------------------------------------------------------------- CSV */

static void csv_kv(struct out *o, const char *key, const struct cell *c)
{
	if (!o->header)
		fputs("key,value\n", o->f);
	o->header = 1;
	csv_field(o->f, key, 0);
	csv_field(o->f, c->v, 1);
}

/* the items of a list joined by "; " (empty: none) */
static void join(char *buf, size_t n, const char *const *items, unsigned k)
{
	size_t o = 0;

	buf[0] = 0;
	for (unsigned i = 0; i < k && o < n; i++)
		o += (size_t)snprintf(buf + o, n - o, "%s%s", i ? "; " : "", items[i]);
}

static void csv_kv_list(struct out *o, const char *key1, const char *key, const char *const *items,
			unsigned n)
{
	char buf[1024];

	(void)key1;
	join(buf, sizeof(buf), items, n);
	csv_kv(o, key, &CELL_S(buf[0] ? buf : NULL));
}

static void csv_table_begin(struct out *o, const struct table *tb, const char *title)
{
	int first = 1;

	(void)title;
	if (o->header)
		return;	/* the tables of a document share the columns */
	o->header = 1;
	for (unsigned i = 0; i < tb->ncols; i++)
		if (tb->cols[i].csv) {
			fprintf(o->f, "%s%s", first ? "" : ",", tb->cols[i].csv);
			first = 0;
		}
	fputc('\n', o->f);
}

static void csv_row(struct out *o, const struct table *tb, const struct cell *cells,
		    const char *note)
{
	int last = -1;

	(void)note;
	for (unsigned i = 0; i < tb->ncols; i++)
		if (tb->cols[i].csv)
			last = (int)i;
	for (unsigned i = 0; i < tb->ncols; i++)
		if (tb->cols[i].csv)
			csv_field(o->f, cells[i].v, (int)i == last);
}

static void csv_table_end(struct out *o, const struct table *tb, const char *footer)
{
	(void)o, (void)tb, (void)footer;
}

static void csv_begin(struct out *o, struct view *v, const char *what)
{
	(void)what;
	(void)v;
	fputs("sample,time_s,interval_s,type,block,name,lgc_name,value,unit,status,data_flags\n",
	      o->f);
}

static void csv_sample_begin(struct out *o, struct view *v, const struct mpc_sample *s,
			     const struct sample_meta *m)
{
	(void)o, (void)v, (void)s, (void)m;
}

static void csv_value(struct out *o, struct view *v __attribute__((unused)), const struct sample_meta *m,
		      const struct out_value *x)
{
	FILE *f = o->f;
	char a[32], b[32], val[48], fl[128];

	fprintf(f, "%u,", m->index);
	snprintf(a, sizeof(a), "%.6f", m->time_s);
	snprintf(b, sizeof(b), "%.9f", m->interval_s);
	csv_field(f, isnan(m->time_s) ? "" : a, 0);
	csv_field(f, isnan(m->interval_s) ? "" : b, 0);
	csv_field(f, x->metric ? "metric" : "counter", 0);
	csv_field(f, x->metric ? "" : x->block, 0);
	csv_field(f, x->name, 0);
	csv_field(f, x->metric ? "" : x->lgc, 0);
	val[0] = 0;
	if (has_value(x) && x->metric)
		snprintf(val, sizeof(val), "%.10g", x->x);
	else if (has_value(x))
		snprintf(val, sizeof(val), "%llu", x->count);
	csv_field(f, val, 0);
	csv_field(f, x->unit, 0);
	csv_field(f, value_status(x), 0);
	csv_field(f, flags_str(m->data_flags, fl, sizeof(fl)), 1);
}

static void csv_sample_end(struct out *o, struct view *v, const struct sample_meta *m)
{
	(void)o, (void)v, (void)m;
}

static const struct out_ops csv_ops = {
	.name = "csv",
	.member = nothing_doc,
	.kv = csv_kv,
	.kv_list = csv_kv_list,
	.table_begin = csv_table_begin,
	.row = csv_row,
	.table_end = csv_table_end,
	.doc_end = nothing_doc_end,
	.begin = csv_begin,
	.sample_begin = csv_sample_begin,
	.section = nothing_section,
	.value = csv_value,
	.sample_end = csv_sample_end,
	.end = nothing_end,
};

/* ------------------------------------------------------------------- JSON */

/* the separator before the next member or element: "{" opens the document */
static void json_next(struct out *o)
{
	if (!o->depth) {
		fputc('{', o->f);
		o->depth = 1;
		o->n = 0;
	}
	if (o->n++)
		fputc(',', o->f);
}

static void json_cell(FILE *f, const struct cell *c)
{
	const char *s = c->json ? c->json : c->v;

	if (!s)
		fputs("null", f);
	else if (c->type == CELL_STR)
		json_str(f, s);
	else
		fputs(s, f);
}

static void json_member(struct out *o, const char *key, const struct cell *c)
{
	json_next(o);
	json_str(o->f, key);
	fputc(':', o->f);
	json_cell(o->f, c);
}

static void json_kv_list(struct out *o, const char *key1, const char *key, const char *const *items,
			 unsigned n)
{
	char buf[1024];

	(void)key1;
	join(buf, sizeof(buf), items, n);
	json_member(o, key, &CELL_S(buf[0] ? buf : NULL));
}

static void json_table_begin(struct out *o, const struct table *tb, const char *title)
{
	(void)title;
	json_next(o);
	json_str(o->f, tb->json);
	fputs(":[", o->f);
	o->n = 0;	/* the rows */
}

static void json_row(struct out *o, const struct table *tb, const struct cell *cells,
		     const char *note)
{
	int first = 1;

	(void)note;
	fputs(o->n++ ? ",{" : "{", o->f);
	for (unsigned i = 0; i < tb->ncols; i++) {
		if (!tb->cols[i].json)
			continue;
		fputs(first ? "" : ",", o->f);
		first = 0;
		json_str(o->f, tb->cols[i].json);
		fputc(':', o->f);
		json_cell(o->f, &cells[i]);
	}
	fputc('}', o->f);
}

static void json_table_end(struct out *o, const struct table *tb, const char *footer)
{
	(void)tb, (void)footer;
	fputc(']', o->f);
	o->n = 1;	/* the document has members */
}

static void json_doc_end(struct out *o)
{
	if (!o->depth)
		fputc('{', o->f);
	fputs("}\n", o->f);
	o->depth = 0;
	o->n = 0;
}

static void json_begin(struct out *o, struct view *v, const char *what)
{
	(void)o, (void)v, (void)what;
}

static void json_sample_begin(struct out *o, struct view *v, const struct mpc_sample *s,
			      const struct sample_meta *m)
{
	FILE *f = o->f;

	fprintf(f, "{\"sample\":%u,\"time_s\":", m->index);
	json_num(f, m->time_s);
	fputs(",\"interval_s\":", f);
	json_num(f, m->interval_s);
	if (m->has_seqno)
		fprintf(f, ",\"seqno\":%llu,\"timestamp_ns\":%llu", m->seqno, m->timestamp_ns);
	{
		char fl[128];

		/* always there, "" when none: one schema for every backend */
		fputs(",\"data_flags\":", f);
		json_str(f, flags_str(m->data_flags, fl, sizeof(fl)));
	}
	fputs(",\"gpu\":", f);
	json_str(f, gpu_name(v));
	fprintf(f, ",\"gpu_id\":\"0x%08x\",\"counter_set\":%u", mpc_desc_gpu_id(v->desc),
		v->counter_set);
	if (!v->stat_style) {
		fputs(",\"blocks\":[", f);
		for (unsigned b = 0; b < mpc_sample_nblocks(s); b++) {
			char lbl[24];

			block_label(s, b, lbl, sizeof(lbl));
			fprintf(f, "%s{\"block\":", b ? "," : "");
			json_str(f, lbl);
			fprintf(f, ",\"timestamp\":%llu,\"enable\":\"0x%08x\"",
				(unsigned long long)mpc_sample_block_timestamp(s, b),
				mpc_sample_block_enable(s, b));
			/* only when the backend tells */
			if (power_str(s, b))
				fprintf(f, ",\"power\":\"%s\"", power_str(s, b));
			fputc('}', f);
		}
		fputc(']', f);
	}
}

static void json_section(struct out *o, struct view *v, int metrics)
{
	(void)v;
	fputs(metrics ? "],\"metrics\":[" : ",\"counters\":[", o->f);
	o->n = 0;
}

static void json_value(struct out *o, struct view *v, const struct sample_meta *m,
		       const struct out_value *x)
{
	FILE *f = o->f;

	(void)v, (void)m;
	fputs(o->n++ ? "," : "", f);
	fputs("{\"name\":", f);
	json_str(f, x->name);
	if (!x->metric) {
		fputs(",\"lgc\":", f);
		if (x->lgc)
			json_str(f, x->lgc);
		else
			fputs("null", f);
		fputs(",\"block\":", f);
		json_str(f, x->block);
		fprintf(f, ",\"index\":%d", x->index);
	}
	fputs(",\"value\":", f);
	if (!has_value(x))
		fputs("null", f);
	else if (x->metric)
		json_num(f, x->x);
	else
		fprintf(f, "%llu", x->count);
	fputs(",\"unit\":", f);
	json_str(f, x->unit ? x->unit : "");
	fputs(",\"status\":", f);
	json_str(f, value_status(x));
	fputc('}', f);
}

static void json_sample_end(struct out *o, struct view *v, const struct sample_meta *m)
{
	(void)v, (void)m;
	fputs("]}\n", o->f);
}

static const struct out_ops json_ops = {
	.name = "json",
	.member = json_member,
	.kv = json_member,
	.kv_list = json_kv_list,
	.table_begin = json_table_begin,
	.row = json_row,
	.table_end = json_table_end,
	.doc_end = json_doc_end,
	.begin = json_begin,
	.sample_begin = json_sample_begin,
	.section = json_section,
	.value = json_value,
	.sample_end = json_sample_end,
	.end = nothing_end,
};

/* --format names, the default first; a new format is one more ops table here */
const struct out_ops *const out_formats[] = { &text_ops, &csv_ops, &json_ops, NULL };

/* ------------------------------------------------------------- the calls */

void out_member(struct tool *t, const char *key, struct cell c)
{
	t->o.ops->member(&t->o, key, &c);
}

void out_kv(struct tool *t, const char *key, struct cell c)
{
	t->o.ops->kv(&t->o, key, &c);
}

void out_kv_list(struct tool *t, const char *key1, const char *key, const char *const *items,
		 unsigned n)
{
	t->o.ops->kv_list(&t->o, key1, key, items, n);
}

void out_table_begin(struct tool *t, const struct table *tb, const char *title)
{
	t->o.ops->table_begin(&t->o, tb, title);
}

void out_row(struct tool *t, const struct table *tb, const struct cell *cells, const char *note)
{
	t->o.ops->row(&t->o, tb, cells, note);
}

void out_table_end(struct tool *t, const struct table *tb, const char *footer)
{
	t->o.ops->table_end(&t->o, tb, footer);
}

void out_doc_end(struct tool *t)
{
	t->o.ops->doc_end(&t->o);
}

void out_begin(struct tool *t, struct view *v, const char *what)
{
	v->printed = 0;
	t->o.ops->begin(&t->o, v, what);
}

void out_sample(struct tool *t, struct view *v, const struct mpc_sample *s,
		const struct sample_meta *m)
{
	const struct out_ops *ops = t->o.ops;
	struct out *o = &t->o;

	if (v->p) {
		mpc_config_init(&v->cfg, v->desc, v->l, v->gpu, m->interval_s);
		if (v->freq_hz > 0)
			v->cfg.v[MPC_CFG_GPU_FREQ_HZ] = v->freq_hz;
		mpc_prog_eval(v->p, s, &v->cfg, v->val);
	}
	ops->sample_begin(o, v, s, m);
	ops->section(o, v, 0);
	for (unsigned i = 0; i < v->nctr; i++) {
		const struct mpc_counter_def *c = v->ctr[i];
		struct out_value x = { .block = mpc_block_name(c->kind), .inst = -1, .name = c->name,
				       .lgc = c->lgc, .unit = c->unit, .index = c->index };
		uint64_t v64;

		if (!v->per_instance) {
			x.flags = mpc_counter_value(s, c, -1, &v64);
			x.count = v64;
			ops->value(o, v, m, &x);
			continue;
		}
		for (unsigned b = 0; b < mpc_sample_nblocks(s); b++) {
			char lbl[24];

			if (mpc_sample_block_kind(s, b) != c->kind)
				continue;
			block_label(s, b, lbl, sizeof(lbl));
			x.block = lbl;
			x.inst = (int)mpc_sample_block_instance(s, b);
			x.flags = mpc_counter_value(s, c, x.inst, &v64);
			x.count = v64;
			ops->value(o, v, m, &x);
		}
	}
	ops->section(o, v, 1);
	for (unsigned i = 0; i < v->nmet; i++) {
		const struct mpc_metric *mt = mpc_prog_metric(v->p, v->met[i]);
		double val = v->val[v->met[i]];
		/* an overflow to infinity is no value either, in every format */
		struct out_value x = { .metric = 1, .name = mt->def->name, .unit = mt->def->unit,
				       .x = isfinite(val) ? val : NAN };

		ops->value(o, v, m, &x);
	}
	ops->sample_end(o, v, m);
	v->printed++;
	fflush(o->f);
}

void out_end(struct tool *t, struct view *v, const char *footer)
{
	t->o.ops->end(&t->o, v, footer);
}
