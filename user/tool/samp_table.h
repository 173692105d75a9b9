/* SPDX-License-Identifier: MIT */
/*
 * The options of the sampling commands (sample, stat, record), in one table:
 * sampling.c parses them, help.c documents them, and a unit test checks
 * that each command's page names every option it takes. Data only (the
 * test includes it too).
 */
#ifndef MPC_SAMP_TABLE_H
#define MPC_SAMP_TABLE_H

#include "options.h"

enum { SAMP_SAMPLE = 1 << 0, SAMP_STAT = 1 << 1, SAMP_RECORD = 1 << 2 };

struct samp_opt {
	struct option lo;	/* name, has_arg, NULL, val (the short letter if any) */
	unsigned cmds;		/* SAMP_* that take it */
	unsigned refused;	/* SAMP_* that know it as another command's */
	const char *owner;	/* that command, for the refusal */
	int own;		/* parsed by the command's hook, not by sampling.c */
};

#define SAMP_ALL	(SAMP_SAMPLE | SAMP_STAT | SAMP_RECORD)

static const struct samp_opt samp_table[] = {
	{ { "events", required_argument, NULL, 'e' }, SAMP_ALL, 0, NULL, 0 },
	{ { "interval", required_argument, NULL, 'I' }, SAMP_STAT | SAMP_RECORD, SAMP_SAMPLE,
	  "stat", 0 },
	{ { "count", required_argument, NULL, 'n' }, SAMP_STAT | SAMP_RECORD, SAMP_SAMPLE,
	  "stat", 0 },
	{ { "duration", required_argument, NULL, 'd' }, SAMP_STAT | SAMP_RECORD, SAMP_SAMPLE,
	  "stat", 0 },
	{ { "delay", required_argument, NULL, OPT_DELAY }, SAMP_SAMPLE, SAMP_STAT, "sample", 0 },
	{ { "set", required_argument, NULL, OPT_SET }, SAMP_ALL, 0, NULL, 0 },
	{ { "per-instance", no_argument, NULL, 'A' }, SAMP_SAMPLE | SAMP_STAT, 0, NULL, 0 },
	{ { "raw", no_argument, NULL, OPT_RAW }, SAMP_SAMPLE | SAMP_STAT, 0, NULL, 0 },
	{ { "freq", required_argument, NULL, OPT_FREQ }, SAMP_ALL, 0, NULL, 0 },
	{ { "masks", required_argument, NULL, OPT_MASKS }, SAMP_ALL, 0, NULL, 0 },
	/* record's own */
	{ { "freq-hz", required_argument, NULL, 'F' }, SAMP_RECORD, 0, NULL, 1 },
	{ { "output", required_argument, NULL, 'o' }, SAMP_RECORD, 0, NULL, 1 },
	{ { "user-loop", no_argument, NULL, OPT_USER_LOOP }, SAMP_RECORD, 0, NULL, 1 },
	{ { "jobs", no_argument, NULL, OPT_JOBS }, SAMP_RECORD, 0, NULL, 1 },
};

#endif
