/* SPDX-License-Identifier: MIT */
/* mali-perfcnt: shared declarations of the command-line tool. */
#ifndef MPC_TOOL_H
#define MPC_TOOL_H

#include <stdint.h>
#include <signal.h>
#include <stdio.h>
#include <sys/types.h>

#include "maliperfcnt.h"
#include "options.h"

#define MAX_FILES 16

struct out_ops;

/*
 * The output of a command: one ops table per format (output.c) and the
 * little state it keeps between calls. Commands describe what they print
 * (documents of key-value pairs and tables, or samples of counter and metric
 * values) through the out_*() calls; only the ops know the formats.
 */
struct out {
	const struct out_ops *ops;
	FILE *f;
	unsigned n;		/* members/rows printed in the current object or array */
	unsigned depth;		/* JSON: objects/arrays open */
	int header;		/* CSV: the header row is out */
	int note_w;		/* text: the width of the first column of the table */
};

struct tool {
	const char *prog;
	const char *cmd;		/* the command running, for out_begin() */
	const char *format;		/* --format as given, NULL: the default */
	const struct rec_sink *trace;	/* --format names a trace format */
	const char *device;
	const char *backend;
	int no_load;
	struct out o;
	const char *layouts[MAX_FILES];
	unsigned nlayouts;
	const char *metric_files[MAX_FILES];
	unsigned nmetric_files;
	struct mpc_db *db;
	FILE *out;
};

/* What to print for one device configuration. */
struct view {
	const struct mpc_gpu_def *gpu;	/* NULL in raw mode */
	struct mpc_desc *desc;		/* owned */
	struct mpc_layout *l;
	struct mpc_prog *p;
	struct mpc_config cfg;
	unsigned counter_set;
	int raw;			/* counters by index only */
	int per_instance;		/* counters per block instance */
	int stat_style;			/* compact perf-stat-like text */
	const struct mpc_counter_def **ctr;
	unsigned nctr;
	unsigned *met;			/* indices into the program */
	unsigned nmet;
	double *val;			/* program outputs */
	unsigned printed;		/* samples printed so far */
	const char *source;		/* device path or file */
	double freq_hz;			/* --freq override, 0 = from the device */
};

/*
 * Per-sample data flags (SAMPLE_F_*, the bits of the library's MPC_DATA_*
 * once the backend reports them), printed by name by every format.
 */
enum {
	SAMPLE_F_SATURATED = 1u << 0,		/* a counter wrapped or stuck at its maximum */
	SAMPLE_F_AFTER_RECOVERY = 1u << 1,	/* the first sample after a GPU reset */
	SAMPLE_F_AFTER_POWER_LOSS = 1u << 2,	/* the counters lost power during it */
	SAMPLE_F_FIRST = 1u << 3,		/* the first sample after ENABLE */
	SAMPLE_F_AFTER_LOST = 1u << 4,		/* a failed sample before it: a gap */
	SAMPLE_F_OVERFLOW = 1u << 5,		/* a full ring: it holds periods missed too */
	SAMPLE_F_POWER_PARTIAL = 1u << 6,	/* a block was powered for part of it */
	SAMPLE_F_POWER_OFF = 1u << 7,		/* a block was off for all of it */
	SAMPLE_F_COUNT = 8
};

struct sample_meta {
	unsigned index;
	double time_s;		/* since the start, NaN if unknown */
	double interval_s;	/* TIME_SPAN, NaN if unknown */
	int has_seqno;
	unsigned long long seqno, timestamp_ns;
	unsigned data_flags;	/* SAMPLE_F_* of the dumps of this sample */
};

/* ------------------------------------------------------------------ output */

/* one value of a document or a table row, and how each format shows it */
enum cell_type {
	CELL_STR,		/* JSON string (null when v is NULL) */
	CELL_NUM,		/* JSON number, printed as v */
	CELL_LIT,		/* JSON literal: true, false, null */
};

struct cell {
	const char *v;		/* the value (CSV, JSON; text unless @text); NULL: none */
	const char *text;	/* text only: what to show instead of @v */
	const char *json;	/* JSON only: what to print instead of @v */
	enum cell_type type;
};

#define CELL_S(s) ((struct cell){ .v = (s), .type = CELL_STR })
#define CELL_N(s) ((struct cell){ .v = (s), .type = CELL_NUM })

/* a column: where it appears (NULL: not in that format) and its text width */
struct col {
	const char *json;	/* member name */
	const char *csv;	/* column name */
	const char *title;	/* text header */
	int width;		/* text: printf width, negative left-aligned; 0 last column */
	const char *sep;	/* text: before the column, NULL " " (none for the first) */
};

struct table {
	const char *json;	/* the document's array of rows */
	const struct col *cols;
	unsigned ncols;
};

/* a counter or metric value of a sample */
struct out_value {
	int metric;
	const char *block;	/* counters: "jm", "shader", "shader.3" */
	int inst;		/* counters: the instance, -1 summed */
	const char *name, *lgc, *unit;
	int index;		/* counters */
	unsigned flags;		/* counters: MPC_VAL_* */
	unsigned long long count;	/* counters */
	double x;		/* metrics: NaN no value */
};

struct out_ops {
	const char *name;	/* --format NAME */
	/* documents (info, list): properties, key-value lines and tables */
	void (*member)(struct out *o, const char *key, const struct cell *c);
	void (*kv)(struct out *o, const char *key, const struct cell *c);
	void (*kv_list)(struct out *o, const char *key1, const char *key, const char *const *items,
			unsigned n);
	void (*table_begin)(struct out *o, const struct table *tb, const char *title);
	void (*row)(struct out *o, const struct table *tb, const struct cell *cells,
		    const char *note);
	void (*table_end)(struct out *o, const struct table *tb, const char *footer);
	void (*doc_end)(struct out *o);
	/* samples (decode, sample, stat) */
	void (*begin)(struct out *o, struct view *v, const char *what);
	void (*sample_begin)(struct out *o, struct view *v, const struct mpc_sample *s,
			     const struct sample_meta *m);
	void (*section)(struct out *o, struct view *v, int metrics);
	void (*value)(struct out *o, struct view *v, const struct sample_meta *m,
		      const struct out_value *x);
	void (*sample_end)(struct out *o, struct view *v, const struct sample_meta *m);
	void (*end)(struct out *o, struct view *v, const char *footer);
};

extern const struct out_ops *const out_formats[];

/* main.c */
int tool_open(struct tool *t, unsigned flags, struct mpc_dev **dev, struct mpc_err *e);
int tool_error(struct tool *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int tool_err(struct tool *t, const struct mpc_err *e);
int tool_load_db(struct tool *t);
int tool_parse_u64(struct tool *t, const char *opt, const char *s, unsigned long long max,
		   unsigned long long *out);
int tool_parse_double(struct tool *t, const char *opt, const char *s, double *out);
int tool_parse_format(struct tool *t, const char *s);
/*
 * -I MS (--interval), the time between samples in every command that samples
 * over time (stat, record, top): milliseconds, fractions allowed, from
 * @min_ns to TOOL_MAX_INTERVAL_NS; into @ns. 0, or 1 after saying why.
 */
int tool_parse_interval(struct tool *t, const char *cmd, const char *arg, uint64_t min_ns,
			unsigned long long *ns);
int tool_bad_option(struct tool *t, const char *cmd, int c, char **argv);
/* tool_next_opt(): no more options; the command should return *ret */
enum { TOOL_OPTS_END = -1, TOOL_OPTS_EXIT = -2 };
/* tool_next_opt() @flags: --format may name a trace format */
#define TOOL_OPTS_TRACES	1u
int tool_next_opt(struct tool *t, const char *cmd, unsigned flags, int argc, char **argv,
		  const char *shorts, const struct option *lo, int *ret);
/* a trace --format given to a command that writes none: said, 1; else 0 */
int tool_refuse_trace(struct tool *t, const char *cmd);
/* Build @v for device description @v->desc; @gpu_name overrides recognition. */
int view_init(struct tool *t, struct view *v, const char *gpu_name, int raw);
int view_select(struct tool *t, struct view *v, const char *patterns, const char *defaults);
void view_free(struct view *v);
double now_raw(void);
uint64_t now_raw_ns(void);
extern int tool_common_opt(struct tool *t, int c, const char *arg);

/* output.c */
void out_begin(struct tool *t, struct view *v, const char *what);
void out_sample(struct tool *t, struct view *v, const struct mpc_sample *s,
		const struct sample_meta *m);
void out_end(struct tool *t, struct view *v, const char *footer);
/* a document: member()/kv()/kv_list() and tables, then out_doc_end() */
void out_member(struct tool *t, const char *key, struct cell c);
void out_kv(struct tool *t, const char *key, struct cell c);
void out_kv_list(struct tool *t, const char *key1, const char *key, const char *const *items,
		 unsigned n);
void out_table_begin(struct tool *t, const struct table *tb, const char *title);
void out_row(struct tool *t, const struct table *tb, const struct cell *cells, const char *note);
void out_table_end(struct tool *t, const struct table *tb, const char *footer);
void out_doc_end(struct tool *t);
size_t utf8_seq(const char *s);
void csv_field(FILE *f, const char *s, int last);
void json_str(FILE *f, const char *s);
void json_num(FILE *f, double v);
const char *fmt_count(unsigned long long v, char *buf, size_t n);
const char *fmt_value(double v, char *buf, size_t n);

/*
 * cmd_run.c, shared with record: the dumps of one run. A backend whose
 * counters are raw 32-bit values (panfrost) is sampled at least every max_ns
 * in between, and the dumps of one printed sample are added up in 64 bits
 * (mpc_dev_sample_add accumulates them, and their timing; a counter
 * session's 64-bit sums are added whole).
 */
struct run {
	struct tool *t;
	struct mpc_dev *dev;
	void *buf;
	struct mpc_sample *s;
	int fresh;			/* the next dump starts a new sample */
	uint64_t max_ns, last_ns;	/* 0: no need to sample in between */
};

/*
 * sampling.c: the options of the sampling commands, one table for sample,
 * stat and record (samp_table.h; help.c documents them, page by page).
 */

struct samp_opts {
	const char *events;		/* -e */
	const char *masks;		/* --masks */
	unsigned long long interval_ns;	/* -I (record: or -F); 0: not given */
	int period_given;		/* record: -F or -I seen */
	unsigned long long count, duration_ms, delay_ms, set;
	int per_instance, raw;		/* -A, --raw */
	double freq_mhz;		/* --freq */
};

struct samp_cmd {
	const char *name;		/* for --help and the errors */
	unsigned mask;			/* SAMP_* */
	/* after "X is a 'other' option; ": how this command does without it */
	const char *refusal;
	uint64_t min_interval_ns;	/* the shortest -I it takes */
	/* the command's own options, seen first: 0 taken, 1 error, -1 not its own */
	int (*opt)(struct tool *t, int c, const char *arg, struct samp_opts *o, void *ctx);
};

/*
 * Parse @argv into @o (@ctx goes to the command's hook). 0: parsed, the
 * operands start at optind; 1: an error was said; -1: --help was printed.
 */
int samp_parse(struct tool *t, int argc, char **argv, const struct samp_cmd *cmd,
	       struct samp_opts *o, void *ctx);

/* open the device and build @v for the options of a sampling command */
int run_open_view(struct tool *t, struct mpc_dev **dev, struct view *v, const struct samp_opts *o,
		  const char *defaults);
int run_parse_masks(struct tool *t, const char *spec, unsigned cpb, struct mpc_enable *en);
/* SIGINT (without a command), SIGTERM and SIGCHLD set these, no SA_RESTART */
extern volatile sig_atomic_t got_sigint, got_sigchld;
void run_signals(int have_cmd);
/* Start @cmd (Ctrl-C reaches it); -1 after saying why. */
pid_t run_spawn(struct tool *t, char **cmd);
/* Wait for the child unless *@done; @r, or else the command's exit status. */
int run_reap(pid_t child, int *status, int *done, int r);
void run_init(struct run *r, struct tool *t, struct mpc_dev *dev, void *buf,
	      struct mpc_sample *s);
/* Take one dump and add it to the sample (a fresh one after a print). */
int run_grab(struct run *r, unsigned long long *seq, unsigned long long *ts);
/* The same, printing nothing: a negative errno, the message in @e. */
int run_grab_err(struct run *r, unsigned long long *seq, unsigned long long *ts,
		 struct mpc_err *e);

/*
 * trace.c: one way of writing samples over time (record, decode): a trace
 * format, or out_sink for the tool's own formats. begin() gets the
 * CLOCK_MONOTONIC_RAW time the samples start at (@raw_ns), when known.
 */
/* jobs.c: record --jobs, the jobs the kernel ran (tracefs dma_fence events) */
#define JOBS_MAX_QUEUES	16
struct job_slice {
	unsigned queue;			/* index in job_set.queue */
	unsigned seqno;			/* the fence's */
	uint64_t begin_ns, end_ns;	/* CLOCK_MONOTONIC_RAW */
};
struct job_set {
	char queue[JOBS_MAX_QUEUES][64];	/* timeline names, e.g. panfrost-js-0 */
	unsigned nqueue;
	struct job_slice *s;		/* in the order the jobs ended */
	unsigned n, cap;
	unsigned unfinished;		/* submitted, not signalled when the recording ended */
	unsigned long long lost;	/* events the instance's buffer dropped */
};
struct jobs;
int jobs_start(struct tool *t, struct jobs **j);
int jobs_stop(struct tool *t, struct jobs *j, struct job_set *js);
void jobs_free(struct jobs *j);
int jobs_parse(FILE *f, struct job_set *js);
void job_set_free(struct job_set *js);

struct rec_sink {
	const char *name;		/* --format NAME; NULL: out_sink */
	const char *output;		/* the default -o ("-": standard output) */
	int timed;			/* begin() needs @raw_ns (decode: at the first sample) */
	int (*begin)(struct tool *t, struct view *v, void **state, uint64_t raw_ns,
		     uint64_t period_ns);
	int (*sample)(struct tool *t, struct view *v, void *state, const struct mpc_sample *s,
		      const struct sample_meta *m);
	int (*end)(struct tool *t, struct view *v, void *state);
	/* record --jobs: the job slices, before end(); NULL: the format has none */
	int (*jobs)(struct tool *t, void *state, const struct job_set *js);
};

extern const struct rec_sink out_sink;
/* perfetto, chrome-trace; NULL-terminated */
extern const struct rec_sink *const trace_formats[];
const struct rec_sink *trace_format(const char *name);

/* capture.c: stream records (STREAM_OPEN fd, debugfs perfcnt_stream) */
struct drm_mali_perfcnt_record;
int capture_is_records(const void *buf, size_t len, uint32_t dump_size);
const struct drm_mali_perfcnt_record *capture_next(const void *buf, size_t len, size_t *off);

/* offline.c: the description of an offline capture's device */
struct offline_desc {
	const char *gpu_info, *gpu;
	unsigned long long cores, l2;
	int have_cores, have_l2;
};
int offline_describe(struct tool *t, const struct offline_desc *od, struct view *v, char *src,
		     size_t srclen);
/* parse one of OFFLINE_LONGOPTS: 0 handled, -1 not one of them, 1 error */
int offline_opt(struct tool *t, int c, const char *arg, struct offline_desc *od);

/* commands */
int cmd_info(struct tool *t, int argc, char **argv);
int cmd_list(struct tool *t, int argc, char **argv);
int cmd_sample(struct tool *t, int argc, char **argv);
int cmd_stat(struct tool *t, int argc, char **argv);
int cmd_decode(struct tool *t, int argc, char **argv);
int cmd_record(struct tool *t, int argc, char **argv);
int cmd_top(struct tool *t, int argc, char **argv);

/* help.c */
int help(struct tool *t, const char *cmd, FILE *f);

#endif
