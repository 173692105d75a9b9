// SPDX-License-Identifier: MIT
/*
 * The trace formats (record; decode): a Perfetto trace and Chrome trace
 * events, each a struct rec_sink written to a file (-o), and the tool's own
 * formats (text, csv, json) behind the same interface (out_sink), so that a
 * command writes samples one way whatever the format.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "mali_perfcnt_drm.h"
#include "perfetto.h"
#include "tool.h"

/* ---------------------------------------------------------------- perfetto */

static enum pf_unit unit_of(const char *u)
{
	static const struct { const char *name; enum pf_unit unit; } map[] = {
		{ "bytes", PF_UNIT_BYTE }, { "percent", PF_UNIT_PERCENT },
		{ "pixels", PF_UNIT_PIXEL }, { "primitives", PF_UNIT_PRIMITIVE },
		{ "instructions", PF_UNIT_INSTRUCTION }, { "seconds", PF_UNIT_SECOND },
		{ "fragments", PF_UNIT_FRAGMENT }, { "vertices", PF_UNIT_VERTEX },
		{ "Hz", PF_UNIT_HERTZ }, { "ns", PF_UNIT_NANOSECOND },
	};

	for (unsigned i = 0; u && i < sizeof(map) / sizeof(map[0]); i++)
		if (!strcmp(u, map[i].name))
			return map[i].unit;
	return PF_UNIT_NONE;
}

static enum pf_group group_of_block(unsigned kind)
{
	switch (kind) {
	case MPC_BLK_TILER:
		return PF_GROUP_PRIMITIVES;
	case MPC_BLK_SHADER:
		return PF_GROUP_FRAGMENTS;
	case MPC_BLK_L2:
		return PF_GROUP_MEMORY;
	default:
		return PF_GROUP_SYSTEM;
	}
}

struct pf_state {
	struct pf_trace *tr;
	/* a sample's values in declaration order: counters, then metrics */
	int64_t *iv;
	double *dv;
};

static int pf_begin(struct tool *t, struct view *v, void **state, uint64_t raw_ns,
		    uint64_t period_ns)
{
	struct pf_state *st = calloc(1, sizeof(*st));
	struct timespec bt;
	uint64_t boot_ns;
	int r = 0;

	if (!st || !(st->iv = calloc(v->nctr + 1, sizeof(*st->iv))) ||
	    !(st->dv = calloc(v->nmet + 1, sizeof(*st->dv)))) {
		if (st)
			free(st->iv);
		free(st);
		return tool_error(t, "out of memory");
	}
	*state = st;
	/* a sequence id of our own: stable per process, never 0 */
	st->tr = pf_trace_new(t->out, 0x4d500000u | ((uint32_t)getpid() & 0xffff));
	if (!st->tr)
		return tool_error(t, "out of memory");
	for (unsigned i = 0; i < v->nctr && !r; i++) {
		const struct mpc_counter_def *c = v->ctr[i];
		struct pf_counter_spec sp = {
			.id = i + 1, .name = c->name, .group = group_of_block(c->kind),
			.select_by_default = 1,
		};
		char desc[160];

		snprintf(desc, sizeof(desc), "%s counter%s%s, summed over every %s block, per "
			 "sample interval%s%s", mpc_block_name(c->kind), c->lgc ? " " : "",
			 c->lgc ? c->lgc : "", mpc_block_name(c->kind), c->unit ? "; unit: " : "",
			 c->unit ? c->unit : "");
		sp.description = desc;
		sp.num[0] = unit_of(c->unit);
		r = pf_trace_counter(st->tr, &sp);
	}
	for (unsigned i = 0; i < v->nmet && !r; i++) {
		const struct mpc_metric *mt = mpc_prog_metric(v->p, v->met[i]);
		struct pf_counter_spec sp = {
			.id = v->nctr + i + 1, .name = mt->def->name, .description = mt->def->expr,
			.group = unit_of(mt->def->unit) == PF_UNIT_BYTE ? PF_GROUP_MEMORY :
				 PF_GROUP_SYSTEM,
			.select_by_default = 1,
		};

		if (!strcmp(mt->def->unit, "bytes/second")) {
			sp.num[0] = PF_UNIT_BYTE;
			sp.den[0] = PF_UNIT_SECOND;
			sp.group = PF_GROUP_MEMORY;
		} else {
			sp.num[0] = unit_of(mt->def->unit);
		}
		r = pf_trace_counter(st->tr, &sp);
	}
	if (r)
		return tool_error(t, "two selected counters or metrics have the same name; "
				  "check -e");
	clock_gettime(CLOCK_BOOTTIME, &bt);
	boot_ns = (uint64_t)bt.tv_sec * 1000000000ull + (uint64_t)bt.tv_nsec;
	if (pf_trace_start(st->tr, raw_ns, boot_ns, MALI_PERFCNT_STREAM_MIN_PERIOD_NS, period_ns))
		return tool_error(t, "writing the trace failed: %s", strerror(errno));
	return 0;
}

static int pf_sample(struct tool *t, struct view *v, void *state, const struct mpc_sample *s,
		     const struct sample_meta *m)
{
	struct pf_state *st = state;

	for (unsigned i = 0; i < v->nctr; i++) {
		uint64_t x;
		unsigned fl = mpc_counter_value(s, v->ctr[i], -1, &x);

		/* not collected or unknown: no value, never a 0 */
		if (fl & (MPC_VAL_NOT_COLLECTED | MPC_VAL_UNKNOWN))
			st->iv[i] = PF_NO_INT;
		else
			st->iv[i] = x > INT64_MAX ? INT64_MAX : (int64_t)x;
	}
	for (unsigned i = 0; i < v->nmet; i++)
		st->dv[i] = v->val[v->met[i]];
	if (pf_trace_values(st->tr, m->timestamp_ns, st->iv, v->nctr, st->dv, v->nmet))
		return tool_error(t, "writing the trace failed: %s", strerror(errno));
	return 0;
}

static int pf_end(struct tool *t, struct view *v, void *state)
{
	struct pf_state *st = state;
	int r = 0;

	(void)v;
	if (!st)
		return 0;
	if (st->tr && pf_trace_end(st->tr))
		r = tool_error(t, "writing the trace failed: %s", strerror(errno));
	free(st->iv);
	free(st->dv);
	free(st);
	return r;
}

/* record --jobs: a track per queue, a slice per job (uuids of our own) */
#define PF_JOB_TRACK_UUID	0x4d5043000000ull

static int pf_jobs(struct tool *t, void *state, const struct job_set *js)
{
	struct pf_state *st = state;
	int r = 0;

	for (unsigned q = 0; q < js->nqueue && !r; q++)
		r = pf_trace_track(st->tr, PF_JOB_TRACK_UUID + q + 1, js->queue[q]);
	for (unsigned i = 0; i < js->n && !r; i++) {
		char name[32];

		snprintf(name, sizeof(name), "job %u", js->s[i].seqno);
		r = pf_trace_slice(st->tr, PF_JOB_TRACK_UUID + js->s[i].queue + 1, name,
				   js->s[i].begin_ns, js->s[i].end_ns);
	}
	if (r)
		return tool_error(t, "writing the trace failed: %s", strerror(errno));
	return 0;
}

/* ------------------------------------------------------ chrome json events */

struct json_state {
	int events;
};

static int cj_begin(struct tool *t, struct view *v, void **state, uint64_t raw_ns,
		    uint64_t period_ns)
{
	struct json_state *st = calloc(1, sizeof(*st));
	char name[96];

	(void)raw_ns;
	(void)period_ns;
	if (!st)
		return tool_error(t, "out of memory");
	*state = st;
	snprintf(name, sizeof(name), "%s GPU counters (mali-perfcnt)",
		 v->gpu ? v->gpu->name : mpc_desc_product(v->desc));
	fputs("{\"displayTimeUnit\":\"ns\",\"otherData\":{\"clock\":\"CLOCK_MONOTONIC_RAW\"},"
	      "\"traceEvents\":[\n{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":1,\"tid\":1,"
	      "\"args\":{\"name\":", t->out);
	json_str(t->out, name);
	fputs("}}", t->out);
	return 0;
}

static void cj_event(FILE *f, const char *name, const char *unit, uint64_t ts_ns, double x)
{
	char key[64];

	snprintf(key, sizeof(key), "%s", unit && *unit ? unit : "value");
	fputs(",\n{\"name\":", f);
	json_str(f, name);
	/* ts in microseconds, ns precision */
	fprintf(f, ",\"ph\":\"C\",\"ts\":%llu.%03llu,\"pid\":1,\"tid\":1,\"args\":{",
		(unsigned long long)(ts_ns / 1000), (unsigned long long)(ts_ns % 1000));
	json_str(f, key);
	fputc(':', f);
	json_num(f, x);
	fputs("}}", f);
}

static int cj_sample(struct tool *t, struct view *v, void *state, const struct mpc_sample *s,
		     const struct sample_meta *m)
{
	struct json_state *st = state;

	for (unsigned i = 0; i < v->nctr; i++) {
		uint64_t x;
		unsigned fl = mpc_counter_value(s, v->ctr[i], -1, &x);

		if (fl & (MPC_VAL_NOT_COLLECTED | MPC_VAL_UNKNOWN))
			continue;
		cj_event(t->out, v->ctr[i]->name, v->ctr[i]->unit, m->timestamp_ns, (double)x);
		st->events++;
	}
	for (unsigned i = 0; i < v->nmet; i++) {
		const struct mpc_metric *mt = mpc_prog_metric(v->p, v->met[i]);
		double x = v->val[v->met[i]];

		if (!isfinite(x))
			continue;	/* no value: no point on the track */
		cj_event(t->out, mt->def->name, mt->def->unit, m->timestamp_ns, x);
		st->events++;
	}
	return 0;
}

/* record --jobs: "ph":"X" events, a thread (tid 2 + queue) per queue */
static int cj_jobs(struct tool *t, void *state, const struct job_set *js)
{
	struct json_state *st = state;

	for (unsigned q = 0; q < js->nqueue; q++) {
		fprintf(t->out, ",\n{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":1,\"tid\":%u,"
			"\"args\":{\"name\":", q + 2);
		json_str(t->out, js->queue[q]);
		fputs("}}", t->out);
	}
	for (unsigned i = 0; i < js->n; i++) {
		const struct job_slice *j = &js->s[i];
		uint64_t d = j->end_ns - j->begin_ns;

		fprintf(t->out, ",\n{\"name\":\"job %u\",\"cat\":\"gpu-job\",\"ph\":\"X\","
			"\"ts\":%llu.%03llu,\"dur\":%llu.%03llu,\"pid\":1,\"tid\":%u}", j->seqno,
			(unsigned long long)(j->begin_ns / 1000), (unsigned long long)(j->begin_ns % 1000),
			(unsigned long long)(d / 1000), (unsigned long long)(d % 1000), j->queue + 2);
		st->events++;
	}
	return 0;
}

static int cj_end(struct tool *t, struct view *v, void *state)
{
	(void)v;
	if (state)
		fputs("\n]}\n", t->out);
	free(state);
	return 0;
}

/* ----------------------------------------- the tool's formats, as a sink */

/* text, csv or json (t->o.ops) through out_*(), as the command prints them */
static int out_sink_begin(struct tool *t, struct view *v, void **state, uint64_t raw_ns,
			  uint64_t period_ns)
{
	(void)raw_ns;
	(void)period_ns;
	*state = NULL;
	out_begin(t, v, t->cmd);
	return 0;
}

static int out_sink_sample(struct tool *t, struct view *v, void *state,
			   const struct mpc_sample *s, const struct sample_meta *m)
{
	(void)state;
	out_sample(t, v, s, m);
	return 0;
}

static int out_sink_end(struct tool *t, struct view *v, void *state)
{
	(void)state;
	out_end(t, v, NULL);
	return 0;
}

const struct rec_sink out_sink = {
	.name = NULL, .output = "-",
	.begin = out_sink_begin, .sample = out_sink_sample, .end = out_sink_end,
};

static const struct rec_sink perfetto_sink = {
	.name = "perfetto", .output = "mali-perfcnt.pftrace", .timed = 1,
	.begin = pf_begin, .sample = pf_sample, .end = pf_end, .jobs = pf_jobs,
};

static const struct rec_sink chrome_trace_sink = {
	.name = "chrome-trace", .output = "mali-perfcnt.json", .timed = 1,
	.begin = cj_begin, .sample = cj_sample, .end = cj_end, .jobs = cj_jobs,
};

const struct rec_sink *const trace_formats[] = { &perfetto_sink, &chrome_trace_sink, NULL };

const struct rec_sink *trace_format(const char *name)
{
	for (unsigned i = 0; trace_formats[i]; i++)
		if (!strcmp(name, trace_formats[i]->name))
			return trace_formats[i];
	return NULL;
}
