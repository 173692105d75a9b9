/* SPDX-License-Identifier: MIT */
/* mali-perfcnt: shared declarations of the command-line tool. */
#ifndef MPC_TOOL_H
#define MPC_TOOL_H

#include <stdint.h>
#include <stdio.h>

#include "maliperfcnt.h"

#define MAX_FILES 16

enum fmt { FMT_TEXT, FMT_CSV, FMT_JSON };

struct tool {
	const char *prog;
	const char *device;
	const char *backend;
	int no_load;
	enum fmt fmt;
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
	struct mpc_desc desc;
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

struct sample_meta {
	unsigned index;
	double time_s;		/* since the start, NaN if unknown */
	double interval_s;	/* TIME_SPAN, NaN if unknown */
	int has_seqno;
	unsigned long long seqno, timestamp_ns;
	unsigned data_flags;	/* MPC_DATA_* of the dumps of this sample */
};

/* main.c */
int tool_open(struct tool *t, unsigned flags, struct mpc_dev **dev, struct mpc_err *e);
int tool_error(struct tool *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int tool_err(struct tool *t, const struct mpc_err *e);
int tool_load_db(struct tool *t);
int tool_parse_u64(struct tool *t, const char *opt, const char *s, unsigned long long max,
		   unsigned long long *out);
int tool_parse_double(struct tool *t, const char *opt, const char *s, double *out);
int tool_parse_format(struct tool *t, const char *s);
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
void csv_field(FILE *f, const char *s, int last);
void json_str(FILE *f, const char *s);
void json_num(FILE *f, double v);
const char *fmt_count(unsigned long long v, char *buf, size_t n);
const char *fmt_value(double v, char *buf, size_t n);

/* commands */
int cmd_info(struct tool *t, int argc, char **argv);
int cmd_list(struct tool *t, int argc, char **argv);
int cmd_sample(struct tool *t, int argc, char **argv);
int cmd_stat(struct tool *t, int argc, char **argv);
int cmd_decode(struct tool *t, int argc, char **argv);

/* help.c */
int help(struct tool *t, const char *cmd, FILE *f);

/* long options every command accepts */
#define COMMON_LONGOPTS							\
	{ "device", required_argument, NULL, 1001 },			\
	{ "no-load", no_argument, NULL, 1002 },				\
	{ "backend", required_argument, NULL, 1005 },			\
	{ "format", required_argument, NULL, 'f' },			\
	{ "layout", required_argument, NULL, 1003 },			\
	{ "metrics", required_argument, NULL, 1004 },			\
	{ "help", no_argument, NULL, 'h' }

#endif
