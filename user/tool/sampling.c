// SPDX-License-Identifier: MIT
/*
 * The options of the sampling commands (sample, stat, record): one table
 * (samp_table.h) and one parser, over tool_next_opt() (the options every
 * command takes). Each command takes the table's options its mask names;
 * those marked "own" (record's -F, -o, --user-loop) go to the command's
 * hook. An option that belongs to another command is refused with
 * a line saying whose it is and how this command does without it.
 */
#define _GNU_SOURCE
#include <getopt.h>
#include <math.h>
#include <string.h>

#include "samp_table.h"
#include "tool.h"

static const struct option common_longopts[] = { COMMON_LONGOPTS };

/* the letters tool_next_opt() takes itself ("f:h") and the table's */
#define NSHORTS 32

#define NCOMMON (sizeof(common_longopts) / sizeof(common_longopts[0]))
#define NSAMP (sizeof(samp_table) / sizeof(samp_table[0]))

static const struct samp_opt *find_opt(int c)
{
	for (unsigned i = 0; i < NSAMP; i++)
		if (samp_table[i].lo.val == c)
			return &samp_table[i];
	return NULL;
}

/* another command's option: "-I/--interval is a 'stat' option; ..." */
static int refuse(struct tool *t, const struct samp_cmd *cmd, const struct samp_opt *e)
{
	char name[40];

	if (e->lo.val < 256)
		snprintf(name, sizeof(name), "-%c/--%s", e->lo.val, e->lo.name);
	else
		snprintf(name, sizeof(name), "--%s", e->lo.name);
	return tool_error(t, "%s is a '%s' option; %s", name, e->owner, cmd->refusal);
}

/* the table's options: 0 taken, 1 error */
static int samp_opt(struct tool *t, const struct samp_cmd *cmd, int c, const char *arg,
		    struct samp_opts *o)
{
	int rec = cmd->mask == SAMP_RECORD;

	switch (c) {
	case 'e':
		o->events = arg;
		return 0;
	case 'I':
		/* the time between samples (record: -F says it too) */
		if (rec && o->period_given++)
			return tool_error(t, "give the period once, with -F or -I");
		return tool_parse_interval(t, cmd->name, arg, cmd->min_interval_ns, &o->interval_ns);
	case 'n':
		if (tool_parse_u64(t, "-n", arg, 1000000000, &o->count))
			return 1;
		if (!o->count)
			return tool_error(t, rec ? "-n 0: record at least one sample" :
					  "-n 0: give at least one interval");
		return 0;
	case 'd':
		if (tool_parse_u64(t, "--duration", arg, 86400000, &o->duration_ms))
			return 1;
		if (rec && !o->duration_ms)
			return tool_error(t, "--duration 0: record for at least 1 ms");
		return 0;
	case OPT_DELAY:
		return tool_parse_u64(t, "--delay", arg, 3600000, &o->delay_ms) ? 1 : 0;
	case OPT_SET:
		return tool_parse_u64(t, "--set", arg, 1, &o->set) ? 1 : 0;
	case 'A':
		o->per_instance = 1;
		return 0;
	case OPT_RAW:
		o->raw = 1;
		return 0;
	case OPT_FREQ:
		return tool_parse_double(t, "--freq", arg, &o->freq_mhz) ? 1 : 0;
	case OPT_MASKS:
		o->masks = arg;
		return 0;
	}
	return 1;
}

int samp_parse(struct tool *t, int argc, char **argv, const struct samp_cmd *cmd,
	       struct samp_opts *o, void *ctx)
{
	struct option lo[NCOMMON + NSAMP + 1];
	char shorts[NSHORTS] = "";
	size_t ns = 0;
	unsigned n = 0;
	int c, r = 0;

	for (unsigned i = 0; i < NCOMMON; i++)
		lo[n++] = common_longopts[i];
	for (unsigned i = 0; i < NSAMP; i++) {
		const struct samp_opt *e = &samp_table[i];

		if (!((e->cmds | e->refused) & cmd->mask))
			continue;
		lo[n++] = e->lo;
		if (e->lo.val < 256) {
			shorts[ns++] = (char)e->lo.val;
			if (e->lo.has_arg == required_argument)
				shorts[ns++] = ':';
		}
	}
	lo[n] = (struct option){ NULL, 0, NULL, 0 };
	shorts[ns] = 0;

	/* only record writes traces */
	while ((c = tool_next_opt(t, cmd->name, cmd->mask == SAMP_RECORD ? TOOL_OPTS_TRACES : 0,
				  argc, argv, shorts, lo, &r)) > 0) {
		const struct samp_opt *e;
		int x = cmd->opt ? cmd->opt(t, c, optarg, o, ctx) : -1;

		if (x > 0)
			return 1;
		if (x == 0)
			continue;
		e = find_opt(c);
		if (!e || !((e->cmds | e->refused) & cmd->mask))
			return tool_bad_option(t, cmd->name, c, argv);
		if (!(e->cmds & cmd->mask))
			return refuse(t, cmd, e);
		if (e->own)	/* the hook should have taken it */
			return tool_bad_option(t, cmd->name, c, argv);
		if (samp_opt(t, cmd, c, optarg, o))
			return 1;
	}
	if (c == TOOL_OPTS_EXIT)
		return r ? r : -1;
	return 0;
}
