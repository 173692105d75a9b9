// SPDX-License-Identifier: MIT
/* Manual pages of mali-perfcnt and its commands (printed by --help). */
#define _GNU_SOURCE
#include <string.h>

#include "tool.h"

static const char common_opts[] =
"COMMON OPTIONS\n"
"    --device PATH     Use this render node (/dev/dri/renderD*) instead of the\n"
"                      first usable GPU of either backend found with libdrm.\n"
"    --backend NAME    Only devices of this backend: mali_perfcnt (this\n"
"                      project's driver) or panfrost (upstream panfrost's perfcnt\n"
"                      ioctls, which need unstable_ioctls=Y).\n"
"    --no-load         Do not load the mali_perfcnt kernel module when no device\n"
"                      is found (by default the tool tries libkmod when it may).\n"
"    -f, --format FMT  text (aligned, for people), csv (header row, one row per\n"
"                      value) or json (one object per line). Default: text.\n"
"    --layout FILE     Load a GPU layout file (database format). For a GPU the\n"
"                      database ships it replaces the block indices; this is how\n"
"                      a Mali G2 user supplies the unpublished indices. Repeatable.\n"
"    --metrics FILE    Load extra derived metrics (database format). Repeatable.\n"
"    -h, --help        Show this page.\n";

static const char page_main[] =
"NAME\n"
"    mali-perfcnt - read and decode Arm Mali GPU performance counters\n"
"\n"
"SYNOPSIS\n"
"    mali-perfcnt [COMMON OPTIONS] COMMAND [OPTIONS] [ARGS]\n"
"    mali-perfcnt help COMMAND\n"
"\n"
"DESCRIPTION\n"
"    mali-perfcnt reads the hardware counters of job-manager Mali GPUs\n"
"    (Midgard T6xx-T8xx, Bifrost, Valhall-JM) through upstream panfrost's\n"
"    perfcnt ioctls or the mali_perfcnt DRM driver, whichever drives the GPU. It names the counters with its built-in database, sums the\n"
"    per-core and per-L2 blocks, and computes derived metrics such as the\n"
"    libGPUCounters ones (e.g. MaliGPUIRQUtil) and its own (MpcGPUActiveUtil).\n"
"\n"
"COMMANDS\n"
"    info      Describe the device and the GPU it was recognised as.\n"
"    list      List the GPUs, counters and derived metrics the database knows.\n"
"    sample    Enable the counters, take one sample, print it, disable.\n"
"    stat      Count over a command's run or a duration, or per interval.\n"
"    decode    Decode dumps captured with 'cat .../perfcnt_dump > FILE'.\n"
"    help      Show the page of a command.\n"
"\n"
"%s"
"    -V, --version     Print the version.\n"
"\n"
"PERMISSIONS\n"
"    Counters show the GPU activity of every process, so enabling them needs\n"
"    CAP_PERFMON (or root), unless the module was loaded with unprivileged=1.\n"
"    Opening the render node needs access to /dev/dri/renderD* (group render).\n"
"\n"
"EXIT STATUS\n"
"    0 on success, 1 on an error (explained on one line on stderr); 'stat' with\n"
"    a command exits with the command's status.\n"
"\n"
"SEE ALSO\n"
"    Documentation/mali-perfcnt-tool.rst (database format, JSON schema).\n";

static const char page_info[] =
"NAME\n"
"    mali-perfcnt info - describe the GPU and its dump layout\n"
"\n"
"SYNOPSIS\n"
"    mali-perfcnt info [--gpu-info FILE] [COMMON OPTIONS]\n"
"\n"
"DESCRIPTION\n"
"    Prints what the GET_INFO ioctl reports (GPU_ID and its version fields,\n"
"    core and L2 masks, L2 slices, dump layout v4/v5, blocks, dump size, counter\n"
"    sets, L2_FEATURES and the external bus width derived from it, clock), the\n"
"    GPU the database recognises from GPU_ID, the debugfs directory and who owns\n"
"    the counters (the owner: line of debugfs gpu_info, when readable), and how\n"
"    many counters and derived metrics are available. Does not need counter\n"
"    access.\n"
"\n"
"OPTIONS\n"
"    --gpu-info FILE   Describe a saved debugfs gpu_info instead of the device.\n"
"\n"
"%s"
"\n"
"OUTPUT\n"
"    text: 'key value' lines; csv: key,value rows; json: one object.\n";

static const char page_list[] =
"NAME\n"
"    mali-perfcnt list - what can be measured\n"
"\n"
"SYNOPSIS\n"
"    mali-perfcnt list [--gpu NAME] [--derived | --counters] [--all] [-e GLOB]\n"
"    mali-perfcnt list --gpus\n"
"\n"
"DESCRIPTION\n"
"    Lists the hardware counters of a GPU (block, index in the block, hardware\n"
"    name, libGPUCounters name, unit) and its derived metrics (name, unit,\n"
"    formula). Without --gpu the GPU of the device is used. Metrics that need a\n"
"    counter the GPU lacks are unavailable; --all shows them with the reason.\n"
"    The database describes counter set 0 (the primary set) only.\n"
"\n"
"OPTIONS\n"
"    --gpu NAME        A database key (g52), name (Mali-G52) or short name (G52).\n"
"    --gpus            List the GPUs of the database and how they are recognised\n"
"                      ((GPU_ID >> 16) & mask == product id).\n"
"    --derived         Only the derived metrics.\n"
"    --counters        Only the hardware counters.\n"
"    --all             Include unavailable metrics.\n"
"    -e GLOB           Only names matching GLOB (hardware, libGPUCounters or metric).\n"
"\n"
"%s"
"\n"
"OUTPUT\n"
"    csv columns: type,block,index,name,lgc_name,unit,status,expression.\n"
"    json: {\"gpu\",\"key\",\"counter_set\",\"counters\":[{block,index,name,lgc,unit}],\n"
"    \"metrics\":[{name,unit,available,reason,set,expression}]}.\n"
"\n"
"EXAMPLES\n"
"    mali-perfcnt list --gpu g52 --derived\n"
"    mali-perfcnt list --gpu g2 --layout my-g2-layout.txt -e 'Mali*Util'\n";

static const char page_sample[] =
"NAME\n"
"    mali-perfcnt sample - take one sample of every counter\n"
"\n"
"SYNOPSIS\n"
"    mali-perfcnt sample [-e NAMES] [-A] [--delay MS] [--set N] [--masks SPEC]\n"
"                        [--raw] [--freq MHZ]\n"
"\n"
"DESCRIPTION\n"
"    Enables the counters (all, or those of --masks), waits --delay ms (default\n"
"    100), takes one dump, disables the counters and prints the decoded values:\n"
"    every counter summed over its block instances, then every available derived\n"
"    metric. The interval (MALI_CONFIG_TIME_SPAN) is the time from just before\n"
"    the enable to the sample's CLOCK_MONOTONIC_RAW timestamp.\n"
"\n"
"OPTIONS\n"
"    -e, --events NAMES  Comma-separated names or globs: hardware names\n"
"                      (GPU_ACTIVE), libGPUCounters names (MaliGPUActiveCy),\n"
"                      metric names (MaliGPUIRQUtil), BLOCK:INDEX (shader:12), or\n"
"                      the words all, counters, metrics. Default: all.\n"
"    -A, --per-instance  Print counters for each block instance (jm, tiler,\n"
"                      l2.N, shader.N with N the core bit) and the block headers.\n"
"    --delay MS        Time between enable and sample (default 100).\n"
"    --set N           Counter set 0 (default) or 1 (Bifrost and later). The\n"
"                      database describes set 0; set 1 counters show by index.\n"
"    --raw             Show counters by index (jm[6]...), without the database.\n"
"    --freq MHZ        GPU clock for MpcGPUActiveUtil when the driver does not\n"
"                      report one.\n"
"    --masks SPEC      Enable only some counters: jm=MASK,tiler=MASK,shader=MASK,\n"
"                      l2=MASK, bit n enabling counters 4n..4n+3 of the block\n"
"                      (keys left out: all). Counters outside the masks are\n"
"                      reported as not collected.\n"
"\n"
"%s"
"\n"
"OUTPUT\n"
"    See 'mali-perfcnt help stat' for the csv and json layouts; sample and\n"
"    decode json objects also carry \"blocks\":[{block,timestamp,enable}].\n";

static const char page_stat[] =
"NAME\n"
"    mali-perfcnt stat - count GPU events over a command, a duration or intervals\n"
"\n"
"SYNOPSIS\n"
"    mali-perfcnt stat [-e NAMES] [-I MS [-n COUNT]] [--duration MS] [-A]\n"
"                      [--set N] [--masks SPEC] [--freq MHZ] [--] [CMD [ARGS...]]\n"
"\n"
"DESCRIPTION\n"
"    Like perf stat for the GPU. Enables the counters, takes a first sample to\n"
"    start the clock, then either runs CMD and samples when it exits, samples\n"
"    after --duration, or - with -I - samples every MS milliseconds and prints\n"
"    each interval (until COUNT intervals, CMD's exit, or Ctrl-C). Counters are\n"
"    cleared by every sample, so each interval shows its own activity; the\n"
"    interval length comes from the samples' CLOCK_MONOTONIC_RAW timestamps.\n"
"    Without CMD, -I or --duration it counts until Ctrl-C.\n"
"\n"
"    Derived metrics use MALI_CONFIG_SHADER_CORE_COUNT = number of cores in\n"
"    shader_present, MALI_CONFIG_L2_CACHE_COUNT = L2 blocks in the dump,\n"
"    MALI_CONFIG_EXT_BUS_BYTE_SIZE = (1 << L2_FEATURES[31:24]) / 8 when the GPU\n"
"    reports it (else the database value), MALI_CONFIG_TIME_SPAN = interval in\n"
"    seconds, and MPC_CONFIG_GPU_FREQ_HZ = the clock from GET_INFO (or --freq).\n"
"    MpcGPUActiveUtil = GPU_ACTIVE / (clock * interval) * 100 is the GPU active\n"
"    utilisation. A metric that divides by zero or reads a counter that was not\n"
"    collected has no value (text <no value>, csv empty, json null).\n"
"\n"
"OPTIONS\n"
"    -e, --events NAMES  As for sample. Default: GPU_ACTIVE, MpcGPUActiveUtil and\n"
"                      the main utilisation and bandwidth metrics of the GPU.\n"
"    -I, --interval MS Print every MS milliseconds (at least 10).\n"
"    -n, --count COUNT Stop after COUNT intervals (needs -I).\n"
"    -d, --duration MS Count for MS milliseconds (without CMD); with -I, stop\n"
"                      after the intervals that cover MS.\n"
"    -A, --per-instance  Counters per block instance.\n"
"    --set N, --freq MHZ, --masks SPEC, --raw   As for sample.\n"
"\n"
"%s"
"\n"
"OUTPUT\n"
"    text: value, unit, name, and the libGPUCounters name after '#'; with -I a\n"
"    first column with the time since the start in seconds.\n"
"    csv: a header row, then one row per value:\n"
"        sample,time_s,interval_s,type,block,name,lgc_name,value,unit,status\n"
"      type is counter or metric; block is jm, tiler, l2 or shader (summed) or\n"
"      l2.N / shader.N with -A; value is empty when there is none; status is ok,\n"
"      saturated (a 32-bit counter hit 0xffffffff: the value is a lower bound),\n"
"      not-collected, no-value or unavailable.\n"
"    json: one object per sample and line:\n"
"      {\"sample\":N,\"time_s\":S,\"interval_s\":S,\"seqno\":N,\"timestamp_ns\":N,\n"
"       \"gpu\":\"Mali-G52\",\"gpu_id\":\"0x72120000\",\"counter_set\":0,\n"
"       \"counters\":[{\"name\",\"lgc\",\"block\",\"index\",\"value\",\"unit\",\"status\"}],\n"
"       \"metrics\":[{\"name\",\"value\",\"unit\",\"status\"}]}\n"
"      with null for a missing value.\n"
"\n"
"EXAMPLES\n"
"    mali-perfcnt stat -- glmark2-es2-drm\n"
"    mali-perfcnt stat -I 100 -n 5 -e MpcGPUActiveUtil,GPU_ACTIVE\n"
"    mali-perfcnt stat -I 1000 -e 'Mali*Util' --format csv > util.csv\n";

static const char page_decode[] =
"NAME\n"
"    mali-perfcnt decode - decode captured dumps offline\n"
"\n"
"SYNOPSIS\n"
"    mali-perfcnt decode [--gpu-info FILE | --gpu NAME --cores MASK --l2 N]\n"
"                        [--layout FILE] [--interval MS] [--sum] [-e NAMES] [-A]\n"
"                        DUMP...\n"
"\n"
"DESCRIPTION\n"
"    Decodes raw dumps, e.g. taken on a board with\n"
"        echo 1 > /sys/kernel/debug/dri/N/perfcnt_enable\n"
"        cat /sys/kernel/debug/dri/N/perfcnt_dump > DUMP\n"
"        cat /sys/kernel/debug/dri/N/gpu_info > gpu_info\n"
"    A file may hold several dumps back to back (each is a sample; --sum adds\n"
"    them up). '-' reads standard input. The device is described by the saved\n"
"    gpu_info text, by --gpu/--cores/--l2, or - when neither is given - by the\n"
"    GET_INFO ioctl of the local device. Each block's header is checked; absent\n"
"    cores leave holes that are ignored; counters outside a block's enable mask\n"
"    are reported as not collected.\n"
"\n"
"OPTIONS\n"
"    --gpu-info FILE   The debugfs gpu_info text saved with the dump (- reads\n"
"                      it from standard input; so does a DUMP of -).\n"
"    --gpu NAME        The GPU (database key or name); with --gpu-info it\n"
"                      overrides recognition from gpu_id (e.g. --gpu g2).\n"
"    --cores MASK      SHADER_PRESENT (e.g. 0xb: cores 0, 1, 3).\n"
"    --l2 N            L2 slices (v5) or core groups (v4). Default 1.\n"
"    --interval MS     Time each dump covers, for the rate metrics.\n"
"    --freq MHZ        GPU clock for MpcGPUActiveUtil.\n"
"    --sum             Print the sum of all dumps instead of each.\n"
"    --raw             Counters by index, without the database.\n"
"    -e NAMES, -A      As for sample.\n"
"\n"
"%s"
"\n"
"OUTPUT\n"
"    As for sample (see 'mali-perfcnt help stat' for csv and json).\n"
"\n"
"EXAMPLES\n"
"    mali-perfcnt decode --gpu-info gpu_info dump.bin\n"
"    mali-perfcnt decode --gpu g52 --cores 0xb --l2 2 --format csv dump.bin\n"
"    mali-perfcnt decode --gpu g2 --cores 0xff --l2 2 --layout g2.txt dump.bin\n";

/* pages hold one "%s" where the common options go */
static void print_page(FILE *f, const char *page)
{
	const char *mark = strstr(page, "%s");

	if (!mark) {
		fputs(page, f);
		return;
	}
	fwrite(page, 1, (size_t)(mark - page), f);
	fputs(common_opts, f);
	fputs(mark + 2, f);
}

int help(struct tool *t, const char *cmd, FILE *f)
{
	static const struct { const char *name, *page; } pages[] = {
		{ "info", page_info }, { "list", page_list }, { "sample", page_sample },
		{ "stat", page_stat }, { "decode", page_decode },
	};

	if (!cmd) {
		print_page(f, page_main);
		return 0;
	}
	for (unsigned i = 0; i < sizeof(pages) / sizeof(pages[0]); i++)
		if (!strcmp(cmd, pages[i].name)) {
			print_page(f, pages[i].page);
			return 0;
		}
	return tool_error(t, "no help for '%s'; commands are info, list, sample, stat, decode", cmd);
}
