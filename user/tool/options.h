/* SPDX-License-Identifier: MIT */
/*
 * The ids of the tool's long options that have no short letter, every
 * command's, in one enum: a name per option, one number space (above any
 * character, so getopt_long() can return them next to the letters), and the
 * option lists every command shares. samp_table.h (sample, stat, record)
 * uses them too.
 */
#ifndef MPC_TOOL_OPTIONS_H
#define MPC_TOOL_OPTIONS_H

#include <getopt.h>

enum tool_opt {
	/* every command (COMMON_LONGOPTS) */
	OPT_DEVICE = 1000,
	OPT_NO_LOAD,
	OPT_BACKEND,
	OPT_LAYOUT,
	OPT_METRICS,
	/* the device of an offline capture (OFFLINE_LONGOPTS; info's --gpu-info) */
	OPT_GPU_INFO,
	OPT_GPU,
	OPT_CORES,
	OPT_L2,
	/* sampling and decoding */
	OPT_DELAY,
	OPT_SET,
	OPT_RAW,
	OPT_FREQ,
	OPT_MASKS,
	OPT_USER_LOOP,
	OPT_JOBS,
	OPT_INTERVAL,	/* decode --interval (the commands that sample: -I) */
	OPT_SUM,
	/* top */
	OPT_REPLAY,
	OPT_VIEW,
	/* list */
	OPT_GPUS,
	OPT_DERIVED,
	OPT_COUNTERS,
	OPT_ALL,
};

/*
 * The longest -I (the time between samples) of every command, an hour
 * (record: periods above the kernel stream's longest are the tool's loop).
 */
#define TOOL_MAX_INTERVAL_NS	3600000000000ull

/* long options every command accepts */
#define COMMON_LONGOPTS							\
	{ "device", required_argument, NULL, OPT_DEVICE },		\
	{ "no-load", no_argument, NULL, OPT_NO_LOAD },			\
	{ "backend", required_argument, NULL, OPT_BACKEND },		\
	{ "format", required_argument, NULL, 'f' },			\
	{ "layout", required_argument, NULL, OPT_LAYOUT },		\
	{ "metrics", required_argument, NULL, OPT_METRICS },		\
	{ "help", no_argument, NULL, 'h' }

/* the description of an offline capture's device (decode, top --replay) */
#define OFFLINE_LONGOPTS						\
	{ "gpu-info", required_argument, NULL, OPT_GPU_INFO },		\
	{ "gpu", required_argument, NULL, OPT_GPU },			\
	{ "cores", required_argument, NULL, OPT_CORES },		\
	{ "l2", required_argument, NULL, OPT_L2 }

#endif
