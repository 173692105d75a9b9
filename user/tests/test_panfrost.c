// SPDX-License-Identifier: MIT
/*
 * The panfrost backend and device selection, without hardware: the tool
 * runs under the LD_PRELOAD shim tests/pfshim.c (MPC_SHIM), which fakes
 * panfrost, mali_perfcnt and other render nodes with canned GET_PARAM values
 * and synthetic dumps copied the way panfrost copies them (its whole buffer,
 * no size check).
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "test.h"

#define G52_SPARSE "prod=0x7212,shader=0x5,l2=0x1,mem=0x100"
#define T720_2CG "prod=0x0720,shader=0xff,l2=0x3,mem=0x0"
#define UNSTABLE_MSG "mali-perfcnt: panfrost's perfcnt ioctls are disabled: echo Y > " \
	"/sys/module/panfrost/parameters/unstable_ioctls (root; taints the kernel)\n"

static char dir[256];
static char out[1 << 18], errbuf[4096], logbuf[1 << 16];

static int setup(void)
{
	if (dir[0])
		return 0;
	snprintf(dir, sizeof(dir), "/tmp/mpc-pftest-XXXXXX");
	return mkdtemp(dir) ? 0 : -1;
}

/*
 * Run the tool on the fake nodes @nodes (MPC_SHIM_NODES); stdout in out[],
 * stderr in errbuf[], the shim's log of ENABLE/DUMP calls in logbuf[].
 */
__attribute__((format(printf, 2, 3)))
static int run(const char *nodes, const char *fmt, ...)
{
	char args[1024], cmd[4096], p[300];
	const char *shim = getenv("MPC_SHIM"), *tool = getenv("MPC_TOOL");
	const char *asan = getenv("ASAN_OPTIONS");
	va_list ap;
	int st;

	va_start(ap, fmt);
	vsnprintf(args, sizeof(args), fmt, ap);
	va_end(ap);
	snprintf(p, sizeof(p), "%s/log", dir);
	unlink(p);
	/* the shim comes before the ASan runtime in the library list */
	snprintf(cmd, sizeof(cmd),
		 "MPC_SHIM_NODES='%s' MPC_SHIM_DIR=%s/dri MPC_SHIM_LOG=%s/log LD_PRELOAD=%s "
		 "ASAN_OPTIONS=%s%sverify_asan_link_order=0 %s %s > %s/out 2> %s/err",
		 nodes, dir, dir, shim ? shim : "build/mpc-shim.so", asan ? asan : "",
		 asan ? ":" : "", tool ? tool : "build/mali-perfcnt", args, dir, dir);
	st = system(cmd);
	snprintf(p, sizeof(p), "%s/out", dir);
	t_slurp(p, out, sizeof(out));
	snprintf(p, sizeof(p), "%s/err", dir);
	t_slurp(p, errbuf, sizeof(errbuf));
	snprintf(p, sizeof(p), "%s/log", dir);
	t_slurp(p, logbuf, sizeof(logbuf));
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
}

/* out[] is valid JSON or CSV (mpc-fmtcheck) */
static int fmt_ok(const char *kind)
{
	const char *f = getenv("MPC_FMTCHECK");
	char cmd[700];

	snprintf(cmd, sizeof(cmd), "%s %s %s/out >/dev/null 2>&1", f ? f : "build/mpc-fmtcheck",
		 kind, dir);
	return system(cmd) == 0;
}

static int one_line(void)
{
	return !strncmp(errbuf, "mali-perfcnt: ", 14) && strchr(errbuf, '\n') &&
	       !strchr(errbuf, '\n')[1];
}

/* the value of counter @name in block @blk in the sample -A / stat CSV; NaN if absent */
/* CSV row @nth of counter @name of block @blk: the value; its status, data_flags */
static double csv_value_flags(const char *blk, const char *name, unsigned nth, char *status,
			      size_t sn, char *flags, size_t fn)
{
	char line[512];
	const char *p = out;
	unsigned seen = 0;

	while (*p) {
		size_t n = strcspn(p, "\n");
		char *f[12], *save = NULL;
		unsigned nf = 0;

		snprintf(line, sizeof(line), "%.*s", (int)n, p);
		p += n + (p[n] == '\n');
		for (char *c = line, *q; nf < 12 && (q = strsep(&c, ",")); )
			f[nf++] = q;
		(void)save;
		if (nf == 11 && !strcmp(f[4], blk) && !strcmp(f[5], name) && seen++ == nth) {
			if (status)
				snprintf(status, sn, "%s", f[9]);
			if (flags)
				snprintf(flags, fn, "%s", f[10]);
			return strtod(f[7], NULL);
		}
	}
	return NAN;
}

/* the nth sample's interval_s of BLK/NAME in out[], NAN when there is none */
static double csv_interval(const char *blk, const char *name, unsigned nth)
{
	char line[512];
	const char *p = out;
	unsigned seen = 0;

	while (*p) {
		size_t n = strcspn(p, "\n");
		char *f[12];
		unsigned nf = 0;

		snprintf(line, sizeof(line), "%.*s", (int)n, p);
		p += n + (p[n] == '\n');
		for (char *c = line, *q; nf < 12 && (q = strsep(&c, ",")); )
			f[nf++] = q;
		if (nf == 11 && !strcmp(f[4], blk) && !strcmp(f[5], name) && seen++ == nth)
			return strtod(f[2], NULL);
	}
	return NAN;
}

static double csv_value(const char *blk, const char *name, unsigned nth, char *status, size_t sn)
{
	return csv_value_flags(blk, name, nth, status, sn, NULL, 0);
}

static unsigned count(const char *hay, const char *needle)
{
	unsigned n = 0;

	for (const char *p = hay; (p = strstr(p, needle)); p++)
		n++;
	return n;
}

/* ------------------------------------------------------------------ tests */

static void pf_info_g52_sparse(void)
{
	CHECK(!setup(), "mkdtemp");
	CHECK(run("renderD128:panfrost:" G52_SPARSE, "info --format json") == 0, "info: %s", errbuf);
	CHECK(fmt_ok("json"), "info JSON invalid: %s", out);
	CHECK(strstr(out, "\"device\":\"/dev/dri/renderD128\",\"backend\":\"panfrost\","
			  "\"driver\":\"panfrost 1.2.0\""), "backend/driver: %s", out);
	CHECK(strstr(out, "\"database_key\":\"g52\""), "not recognised: %s", out);
	CHECK(strstr(out, "\"layout\":\"v5\""), "layout: %s", out);
	CHECK(strstr(out, "\"nr_l2\":2,"), "2 L2 slices from MEM_FEATURES: %s", out);
	/* (2 L2 + fls(0x5) 3 + 2) blocks: the kernel's v5 size */
	CHECK(strstr(out, "\"dump_size\":1792,"), "dump_size: %s", out);
	CHECK(strstr(out, "\"dump_alloc\":2048,"), "buffer: max(v4, v5 size): %s", out);
	CHECK(strstr(out, "\"counters_usable\":\"yes\""), "usable: %s", out);
	CHECK(strstr(out, "no per-block masks") && strstr(out, "one owner per open file") &&
	      strstr(out, "no periodic sampling in the kernel") &&
	      strstr(out, "ignores a new counter set"), "limits: %s", out);
	CHECK(run("renderD128:panfrost:" G52_SPARSE, "info --format csv") == 0 && fmt_ok("csv"),
	      "info CSV: %s", errbuf);
}

static void pf_sample_sparse_two_l2(void)
{
	char st[32];

	CHECK(!setup(), "mkdtemp");
	CHECK(run("renderD128:panfrost:" G52_SPARSE,
		  "sample -A -e GPU_ACTIVE,FRAG_ACTIVE,L2_EXT_READ_BEATS --format csv") == 0,
	      "sample: %s", errbuf);
	CHECK(fmt_ok("csv"), "CSV invalid");
	/* the shim's counters read 1000 + block slot: jm 0, tiler 1, l2 2-3, cores 4+ */
	CHECK(csv_value("jm", "GPU_ACTIVE", 0, st, sizeof(st)) == 1000 && !strcmp(st, "ok"),
	      "jm GPU_ACTIVE %g %s", csv_value("jm", "GPU_ACTIVE", 0, NULL, 0), st);
	CHECK(csv_value("l2.0", "L2_EXT_READ_BEATS", 0, NULL, 0) == 1002, "l2.0: %s", out);
	CHECK(csv_value("l2.1", "L2_EXT_READ_BEATS", 0, NULL, 0) == 1003, "l2.1: %s", out);
	CHECK(csv_value("shader.0", "FRAG_ACTIVE", 0, NULL, 0) == 1004, "core 0: %s", out);
	CHECK(csv_value("shader.2", "FRAG_ACTIVE", 0, NULL, 0) == 1006, "core 2: %s", out);
	CHECK(!strstr(out, "shader.1,"), "absent core 1 decoded: %s", out);
	/* ENABLE set 0, two dumps (the first starts the interval) of 1792 bytes, DISABLE */
	CHECK(!strcmp(logbuf, "enable 1 0\ndump 1792\ndump 1792\nenable 0 0\n"), "calls: %s", logbuf);
}

static void pf_t720_v4_two_core_groups(void)
{
	CHECK(!setup(), "mkdtemp");
	CHECK(run("renderD128:panfrost:" T720_2CG, "info --format json") == 0, "info: %s", errbuf);
	CHECK(strstr(out, "\"database_key\":\"t720\"") && strstr(out, "\"layout\":\"v4\"") &&
	      strstr(out, "\"nr_core_groups\":2,"), "T720 v4, 2 core groups: %s", out);
	/* v4: hweight(l2_present) * 8 blocks; Mesa's v5 size would be 11 blocks (2816) */
	CHECK(strstr(out, "\"dump_size\":4096,") && strstr(out, "\"dump_alloc\":4096,"),
	      "v4 size: %s", out);
	CHECK(run("renderD128:panfrost:" T720_2CG, "sample -A --format csv") == 0,
	      "sample: %s", errbuf);
	CHECK(count(logbuf, "dump 4096\n") == 2, "the kernel copies 4096 bytes: %s", logbuf);
	for (unsigned c = 0; c < 8; c++) {
		char blk[16];
		double want = 1000 + 8 * (c / 4) + c % 4, got;

		snprintf(blk, sizeof(blk), "shader.%u", c);
		got = csv_value(blk, "FRAG_ACTIVE", 0, NULL, 0);
		CHECK(got == want, "core %u FRAG_ACTIVE %g, want %g", c, got, want);
	}
	/* group 0's L2 is slot 5, group 1's slot 13 */
	CHECK(strstr(out, ",l2.0,") && strstr(out, ",l2.1,"), "both L2 blocks: %s", out);
	CHECK(count(out, ",l2.0,") == count(out, ",l2.1,"), "L2 blocks");
	CHECK(strstr(out, ",l2.0,L2_EXT_READ_BEATS,,1005,") && strstr(out, ",l2.1,L2_EXT_READ_BEATS,,1013,"),
	      "L2 values: %s", out);
	CHECK(csv_value("jm", "GPU_ACTIVE", 0, NULL, 0) == 1007, "jm is slot 7");
}

static void pf_accumulates_in_64_bits(void)
{
	unsigned dumps;
	double v;

	CHECK(!setup(), "mkdtemp");
	/* every dump reads 0xffffff00 in jm slot 0: the sum passes 2^32 at the second */
	CHECK(run("renderD128:panfrost:" G52_SPARSE ",val=0xffffff00",
		  "stat --duration 1300 -e GPU_ACTIVE --format csv") == 0, "stat: %s", errbuf);
	dumps = count(logbuf, "dump 1792\n");
	v = csv_value("jm", "GPU_ACTIVE", 0, NULL, 0);
	/* the first dump starts the clock; panfrost is sampled at least every 500 ms */
	CHECK(dumps >= 4, "%u dumps over 1.3 s: %s", dumps, logbuf);
	CHECK(v == (double)(dumps - 1) * 0xffffff00u, "GPU_ACTIVE %.0f after %u dumps of 0xffffff00",
	      v, dumps - 1);
}

static void pf_rate_over_long_interval(void)
{
	char st[32];
	double util, active;

	CHECK(!setup(), "mkdtemp");
	/* 2e9 events a second: 5e9 in 2.5 s, past 2^32, each dump below it */
	CHECK(run("renderD128:panfrost:" G52_SPARSE ",hz=2000000000",
		  "stat -I 2500 -n 1 --freq 2000 -e GPU_ACTIVE,MpcGPUActiveUtil --format csv") == 0,
	      "stat: %s", errbuf);
	active = csv_value("jm", "GPU_ACTIVE", 0, st, sizeof(st));
	util = csv_value("", "MpcGPUActiveUtil", 0, NULL, 0);
	CHECK(active > 4294967296.0 && !strcmp(st, "ok"), "GPU_ACTIVE %.0f (%s)", active, st);
	CHECK(util > 97 && util < 103, "utilisation %g %% of a 2000 MHz clock, want 100", util);
	CHECK(count(logbuf, "dump ") >= 6, "sampled every 500 ms: %s", logbuf);
}

/*
 * panfrost's DUMP samples (clearing the counters) and then waits for the
 * copy, interruptibly: a signal there fails it, and drmIoctl()'s retry
 * samples again, so the first sample's counts were lost (seen: 4 % of
 * GPU_ACTIVE missing over 12 s on the QEMU G52, SIGCHLD at the command's
 * end). The backend blocks signals around the DUMP.
 */
static void pf_dump_wait_not_interrupted(void)
{
	double util;

	CHECK(!setup(), "mkdtemp");
	/* dumps at 0, 500, 1000 and 1200 ms: the second is hit */
	CHECK(run("renderD128:panfrost:" G52_SPARSE ",hz=1000000000,intr=2",
		  "stat -I 1200 -n 1 --freq 1000 -e GPU_ACTIVE,MpcGPUActiveUtil --format csv") == 0,
	      "stat: %s", errbuf);
	util = csv_value("", "MpcGPUActiveUtil", 0, NULL, 0);
	CHECK(util > 97 && util < 103, "utilisation %g %% of a 1000 MHz clock, want 100 (%s)",
	      util, logbuf);
	CHECK(count(logbuf, "dump ") >= 3 && !strstr(logbuf, "dump interrupted"),
	      "no DUMP interrupted: %s", logbuf);
}

/* The sample flags: FIRST on the first dump only, SATURATED from the decoder's check. */
static void pf_data_flags(void)
{
	char fl[64];
	double v;

	CHECK(!setup(), "mkdtemp");
	/* sample takes a first dump right after ENABLE (it has FIRST) and prints the second */
	CHECK(run("renderD128:panfrost:" G52_SPARSE ",val=7", "sample -e GPU_ACTIVE --format json") == 0 &&
	      strstr(out, "\"data_flags\":\"\",") && count(logbuf, "dump ") == 2,
	      "sample: %s %s %s", errbuf, out, logbuf);
	/* 1e10 events a second pass 2^32 between the 500 ms samples */
	CHECK(run("renderD128:panfrost:" G52_SPARSE ",hz=10000000000",
		  "stat -I 600 -n 1 -e GPU_ACTIVE --format csv") == 0, "stat: %s", errbuf);
	v = csv_value_flags("jm", "GPU_ACTIVE", 0, NULL, 0, fl, sizeof(fl));
	CHECK(v >= 4294967295.0 && !strcmp(fl, "saturated"), "GPU_ACTIVE %.0f, flags '%s'", v, fl);
	CHECK(run("renderD128:panfrost:" G52_SPARSE ",val=7", "stat -I 100 -n 2 -e GPU_ACTIVE --format csv") == 0,
	      "stat: %s", errbuf);
	v = csv_value_flags("jm", "GPU_ACTIVE", 1, NULL, 0, fl, sizeof(fl));
	CHECK(v == 7 && !strcmp(fl, ""), "second sample: GPU_ACTIVE %.0f, flags '%s'", v, fl);
	/* -I takes a fraction of a millisecond in stat as in record */
	CHECK(run("renderD128:panfrost:" G52_SPARSE ",val=7", "stat -I 20.5 -n 2 -e GPU_ACTIVE") == 0 &&
	      strstr(out, "Performance counter stats for 2 x 20.5 ms"), "stat -I 20.5: %s %s",
	      errbuf, out);
	/* record's own loop (panfrost has no stream) keeps the flags too */
	CHECK(run("renderD128:panfrost:" G52_SPARSE ",hz=12000000000",
		  "record -I 400 -n 1 -e GPU_ACTIVE --format csv") == 0, "record: %s", errbuf);
	v = csv_value_flags("jm", "GPU_ACTIVE", 0, NULL, 0, fl, sizeof(fl));
	CHECK(v >= 4294967295.0 && !strcmp(fl, "saturated"), "record: GPU_ACTIVE %.0f, flags '%s'",
	      v, fl);
}

/* mali_perfcnt: the kernel's flags and interval start reach every format. */
static void mp_data_flags(void)
{
	char fl[64];
	double v;

	CHECK(!setup(), "mkdtemp");
	CHECK(run("renderD128:mali_perfcnt:prod=0x7212,shader=0x7,val=3",
		  "sample -e GPU_ACTIVE --format json") == 0 &&
	      strstr(out, "\"data_flags\":\"first\","), "sample json: %s %s", errbuf, out);
	CHECK(fmt_ok("json"), "sample JSON invalid: %s", out);
	CHECK(run("renderD128:mali_perfcnt:prod=0x7212,shader=0x7,hz=10000000000",
		  "stat -I 600 -n 1 -e GPU_ACTIVE --format csv") == 0, "stat csv: %s", errbuf);
	v = csv_value_flags("jm", "GPU_ACTIVE", 0, NULL, 0, fl, sizeof(fl));
	CHECK(v == 4294967295.0 && !strcmp(fl, "saturated"), "GPU_ACTIVE %.0f, flags '%s'", v, fl);
	CHECK(fmt_ok("csv"), "stat CSV invalid: %s", out);
	CHECK(run("renderD128:mali_perfcnt:prod=0x7212,shader=0x7,hz=10000000000",
		  "record --user-loop -I 600 -n 1 -e GPU_ACTIVE --format csv") == 0,
	      "record csv: %s", errbuf);
	v = csv_value_flags("jm", "GPU_ACTIVE", 0, NULL, 0, fl, sizeof(fl));
	CHECK(v == 4294967295.0 && !strcmp(fl, "saturated"), "record: GPU_ACTIVE %.0f, flags '%s'",
	      v, fl);
	CHECK(run("renderD128:mali_perfcnt:prod=0x7212,shader=0x7,hz=10000000000",
		  "stat -I 600 -n 1 -e GPU_ACTIVE") == 0 &&
	      strstr(out, " # note: a counter saturated at 0xffffffff"), "stat text: %s %s", errbuf,
	      out);
	CHECK(run("renderD128:mali_perfcnt:prod=0x7212,shader=0x7,val=3",
		  "stat -I 100 -n 1 -e GPU_ACTIVE") == 0 && !strstr(out, "# note:"),
	      "a note without a flag: %s", out);
}

#define MP_V3 "renderD128:mali_perfcnt:prod=0x7212,shader=0x7,uapi=3"

/*
 * Blocks' power states: a revision-3 session sample's per-block power_state
 * (the shim: core 1 OFF, core 2 PARTIAL, the others ON) is each block's in
 * sample -A (JSON blocks, text block lines), and flags the sample
 * power-partial and power-off, in sample and in record's ring session. The
 * v2 ioctls (revision 2) and stock panfrost carry no power states: no
 * block has one and no sample is flagged.
 */
static void mp_block_power(void)
{
	static const char *const unknown[] = {
		"renderD128:mali_perfcnt:prod=0x7212,shader=0x7,uapi=2,poff=0x2,ppart=0x4",
		"renderD128:panfrost:prod=0x7212,shader=0x7,poff=0x2,ppart=0x4",
	};
	char pw[256], fl[64];

	CHECK(!setup(), "mkdtemp");
	CHECK(run(MP_V3 ",poff=0x2,ppart=0x4", "sample -A -e GPU_ACTIVE --format json") == 0,
	      "sample: %s", errbuf);
	CHECK(fmt_ok("json"), "sample JSON invalid: %s", out);
	CHECK(!strcmp(t_json_block_powers(out, pw, sizeof(pw)), "jm=on tiler.0=on l2.0=on "
		      "shader.0=on shader.1=off shader.2=partial"), "blocks: %s in %s", pw, out);
	CHECK(strstr(out, "\"data_flags\":\"first+power-partial+power-off\","), "flags: %s", out);
	CHECK(run(MP_V3 ",ppart=0x1", "sample -A -e GPU_ACTIVE --format json") == 0 &&
	      !strcmp(t_json_block_powers(out, pw, sizeof(pw)), "jm=on tiler.0=on l2.0=on "
		      "shader.0=partial shader.1=on shader.2=on") &&
	      strstr(out, "\"data_flags\":\"first+power-partial\","), "partial only: %s %s",
	      errbuf, out);
	CHECK(run(MP_V3 ",poff=0x2", "sample -A -e GPU_ACTIVE") == 0 &&
	      strstr(out, "[first+power-off]") &&
	      strstr(out, "  block shader.1   timestamp 0x0000000000000000 enable 0x0000ffff "
		     "power off\n") &&
	      strstr(out, "  block jm         timestamp 0x0000000000000000 enable 0x0000ffff "
		     "power on\n"), "text: %s %s", errbuf, out);
	CHECK(run(MP_V3 ",poff=0x2", "stat -I 20 -n 1 -e GPU_ACTIVE") == 0 &&
	      strstr(out, " # note: a block was powered off for all of this interval"),
	      "stat note: %s %s", errbuf, out);
	CHECK(run(MP_V3 ",poff=0x2,ppart=0x4", "record -I 20 -n 2 -e GPU_ACTIVE --format csv") ==
	      0, "record: %s", errbuf);
	CHECK(strstr(errbuf, "(v3 session)"), "not the v3 session: %s", errbuf);
	csv_value_flags("jm", "GPU_ACTIVE", 1, NULL, 0, fl, sizeof(fl));
	CHECK(!strcmp(fl, "power-partial+power-off"), "record sample 1's flags '%s'", fl);
	for (unsigned i = 0; i < 2; i++) {
		CHECK(run(unknown[i], "sample -A -e GPU_ACTIVE --format json") == 0,
		      "%s: %s", unknown[i], errbuf);
		CHECK(!strcmp(t_json_block_powers(out, pw, sizeof(pw)), "jm=- tiler.0=- l2.0=- "
			      "shader.0=- shader.1=- shader.2=-"), "%s: blocks %s", unknown[i], pw);
		CHECK(!strstr(out, "power"), "%s: %s", unknown[i], out);
	}
}

/*
 * record on a revision-3 mali_perfcnt: a ring session the kernel samples
 * every period (the shim logs the session's period and ring: about a
 * second of samples, at least 64), read() whole, its 64-bit values kept:
 * 10 GHz over 500 ms is 5e9 events, past 2^32, not saturated. The closing
 * line names the v3 session.
 */
static void mp_record_v3_session(void)
{
	char st[32], fl[64];

	CHECK(!setup(), "mkdtemp");
	CHECK(run(MP_V3 ",hz=10000000000", "record -I 500 -n 2 -e GPU_ACTIVE --format csv") == 0,
	      "record: %s", errbuf);
	CHECK(strstr(logbuf, "session period 500000000 ring 64\n") && !strstr(logbuf, "stream ") &&
	      !strstr(logbuf, "session sample"), "not a ring session of 500 ms: %s", logbuf);
	CHECK(strstr(errbuf, "record: 2 samples to - (csv, kernel stream (v3 session)); ") &&
	      strstr(errbuf, "; 0 samples lost, 0 failed\n"), "stderr: %s", errbuf);
	for (unsigned i = 0; i < 2; i++) {
		double v = csv_value_flags("jm", "GPU_ACTIVE", i, st, sizeof(st), fl, sizeof(fl));
		double iv = csv_interval("jm", "GPU_ACTIVE", i);

		CHECK(v > 4294967296.0 && iv > 0.45 && iv < 0.55 && v > 0.999e10 * iv &&
		      v < 1.001e10 * iv && !strcmp(st, "ok") && !strcmp(fl, i ? "" : "first"),
		      "sample %u: GPU_ACTIVE %.0f over %.3f s, status %s, flags '%s'; want 1e10/s, "
		      "ok, %s", i, v, iv, st, fl, i ? "no flags" : "first");
	}
}

/*
 * A full ring: the kernel's next sample holds the periods it had no room
 * for (MALI_PERFCNT_DATA_OVERFLOW, lost 2): flagged overflow, its interval
 * three periods, counted in the closing line's "lost".
 */
static void mp_record_v3_overflow(void)
{
	char fl[64];
	double iv;

	CHECK(!setup(), "mkdtemp");
	CHECK(run(MP_V3 ",val=3,overflow=2", "record -I 20 -n 3 -e GPU_ACTIVE --format csv") == 0,
	      "record: %s", errbuf);
	CHECK(strstr(errbuf, "3 samples to - (csv, kernel stream (v3 session))") &&
	      strstr(errbuf, "; 2 samples lost, 0 failed\n"), "stderr: %s", errbuf);
	csv_value_flags("jm", "GPU_ACTIVE", 0, NULL, 0, fl, sizeof(fl));
	CHECK(!strcmp(fl, "first"), "sample 0: flags '%s', want first", fl);
	csv_value_flags("jm", "GPU_ACTIVE", 1, NULL, 0, fl, sizeof(fl));
	iv = csv_interval("jm", "GPU_ACTIVE", 1);
	CHECK(!strcmp(fl, "overflow") && iv > 0.055 && iv < 0.065,
	      "sample 1: flags '%s' over %.3f s, want overflow over 3 periods (0.060 s)", fl, iv);
	csv_value_flags("jm", "GPU_ACTIVE", 2, NULL, 0, fl, sizeof(fl));
	CHECK(!strcmp(fl, ""), "sample 2: flags '%s', want none", fl);
}

/*
 * A GPU fault that ended a sample: -ENXIO on revision 3 is recovered (the
 * counters stay enabled), -EIO is a GPU that could not be recovered, and
 * on revision 2, where -EIO meant both, it keeps its old reading.
 */
static void mp_sample_fault_errors(void)
{
	CHECK(!setup(), "mkdtemp");
	CHECK(run(MP_V3 ",fault=1", "sample") != 0, "passed");
	CHECK(strstr(logbuf, "sample faulted\n") && one_line() &&
	      strstr(errbuf, "the GPU faulted while writing the sample; see dmesg; the counters "
		     "stay enabled"), "ENXIO: %s", errbuf);
	CHECK(run(MP_V3 ",fault=1,fault_err=5", "sample") != 0, "passed");
	CHECK(one_line() && strstr(errbuf, "could not be recovered; the counters of ") &&
	      strstr(errbuf, " are disabled"), "EIO on revision 3: %s", errbuf);
	CHECK(run("renderD128:mali_perfcnt:prod=0x7212,shader=0x7,fault=1,fault_err=5",
		  "sample") != 0, "passed");
	CHECK(strstr(logbuf, "sample faulted\n") && one_line() &&
	      strstr(errbuf, "the GPU faulted while writing the sample; see dmesg; the counters "
		     "stay enabled"), "EIO on revision 2: %s", errbuf);
}

/*
 * record's tool loop (--user-loop: DUMPs) goes on
 * after a sample a recovered GPU fault ended (-ENXIO), as after a timeout;
 * the next sample is flagged after-recovery.
 */
static void mp_record_goes_on_after_fault(void)
{
	char fl[64];

	CHECK(!setup(), "mkdtemp");
	CHECK(run("renderD128:mali_perfcnt:prod=0x7212,shader=0x7,val=2,fault=3",
		  "record --user-loop -I 50 -n 3 -e GPU_ACTIVE --format csv") == 0, "record: %s",
	      errbuf);
	CHECK(strstr(logbuf, "sample faulted\n"), "no sample faulted: %s", logbuf);
	CHECK(strstr(errbuf, "record: a sample failed, recording goes on: the GPU faulted while "
		      "writing the sample") && strstr(errbuf, "3 samples to - (csv, tool loop)") &&
	      strstr(errbuf, ", 1 sample failed"), "stderr: %s", errbuf);
	csv_value_flags("jm", "GPU_ACTIVE", 1, NULL, 0, fl, sizeof(fl));
	CHECK(!strcmp(fl, "after-recovery"), "sample 1: flags '%s', want after-recovery", fl);
	csv_value_flags("jm", "GPU_ACTIVE", 2, NULL, 0, fl, sizeof(fl));
	CHECK(!strcmp(fl, ""), "sample 2: flags '%s', want none", fl);
}

/*
 * The v2 stream where there is no session: a revision-2 module, and
 * periods past a session's 1 s on revision 3; its 32-bit dumps clamp 5e9
 * events to 0xffffffff and flag them saturated, as they always did.
 * info names the stream record takes.
 */
static void mp_record_v2_fallback(void)
{
	char st[32], fl[64];
	double v;

	CHECK(!setup(), "mkdtemp");
	CHECK(run("renderD128:mali_perfcnt:prod=0x7212,shader=0x7,hz=10000000000",
		  "record -I 500 -n 1 -e GPU_ACTIVE --format csv") == 0, "record: %s", errbuf);
	CHECK(strstr(logbuf, "stream period 500000000 ring 64\n") && !strstr(logbuf, "session"),
	      "not the v2 stream: %s", logbuf);
	CHECK(strstr(errbuf, "1 samples to - (csv, kernel stream (v2 stream)); ") &&
	      strstr(errbuf, "; 0 samples lost, 0 failed\n"), "stderr: %s", errbuf);
	v = csv_value_flags("jm", "GPU_ACTIVE", 0, st, sizeof(st), fl, sizeof(fl));
	CHECK(v == 4294967295.0 && !strcmp(st, "saturated") && !strcmp(fl, "saturated+first"),
	      "v2: GPU_ACTIVE %.0f, status %s, flags '%s'", v, st, fl);
	CHECK(run(MP_V3 ",val=5", "record -I 1500 -n 1 -e GPU_ACTIVE --format csv") == 0 &&
	      strstr(logbuf, "stream period 1500000000 ring 64\n") &&
	      strstr(errbuf, "(csv, kernel stream (v2 stream))"), "-I 1500: %s %s", errbuf, logbuf);
	v = csv_value_flags("jm", "GPU_ACTIVE", 0, NULL, 0, fl, sizeof(fl));
	CHECK(v == 5 && !strcmp(fl, "first"), "-I 1500: GPU_ACTIVE %.0f, flags '%s'", v, fl);
	CHECK(run(MP_V3, "info --format json") == 0 &&
	      strstr(out, "\"kernel_stream\":\"v3 session\""), "info v3: %s %s", errbuf, out);
	CHECK(run("renderD128:mali_perfcnt:prod=0x7212,shader=0x7", "info --format json") == 0 &&
	      strstr(out, "\"kernel_stream\":\"v2 stream\""), "info v2: %s %s", errbuf, out);
	CHECK(run("renderD128:panfrost:" G52_SPARSE, "info --format json") == 0 &&
	      strstr(out, "\"kernel_stream\":null"), "info panfrost: %s %s", errbuf, out);
}

static void pf_error_unstable_ioctls(void)
{
	CHECK(!setup(), "mkdtemp");
	CHECK(run("renderD128:panfrost:" G52_SPARSE ",unstable=0", "sample") != 0, "sample passed");
	CHECK(!strcmp(errbuf, UNSTABLE_MSG), "message: %s", errbuf);
	CHECK(run("renderD128:panfrost:" G52_SPARSE ",unstable=0", "stat -I 100 -n 1") != 0 &&
	      !strcmp(errbuf, UNSTABLE_MSG), "stat: %s", errbuf);
	CHECK(run("renderD128:panfrost:" G52_SPARSE ",unstable=0", "info --format json") == 0 &&
	      strstr(out, "\"counters_usable\":\"panfrost's perfcnt ioctls are disabled: echo Y > "
			  "/sys/module/panfrost/parameters/unstable_ioctls (root; taints the kernel)\""),
	      "info: %s", out);
}

static void pf_error_busy(void)
{
	CHECK(!setup(), "mkdtemp");
	CHECK(run("renderD128:panfrost:" G52_SPARSE ",owner=1", "sample") != 0, "sample passed");
	CHECK(one_line() && strstr(errbuf, "in use by another process"), "message: %s", errbuf);
}

static void pf_error_timeout(void)
{
	CHECK(!setup(), "mkdtemp");
	CHECK(run("renderD128:panfrost:" G52_SPARSE ",dump_err=110", "sample") != 0, "passed");
	CHECK(one_line() && strstr(errbuf, "did not finish the sample within panfrost's 1 s timeout"),
	      "dump: %s", errbuf);
	CHECK(run("renderD128:panfrost:" G52_SPARSE ",enable_err=110", "sample") != 0, "passed");
	CHECK(one_line() && strstr(errbuf, "cleaning its caches"), "enable: %s", errbuf);
}

/*
 * record goes on after a DUMP that timed out: panfrost's SAMPLE cleared the
 * counters, so the next sample is flagged after-lost and its interval starts
 * at the failed DUMP, which keeps its rate right; three in a row end it.
 */
static void pf_record_timeout(void)
{
	char fl[64];
	double v, iv;

	CHECK(!setup(), "mkdtemp");
	/* DUMP 1 is the one at ENABLE, 2 sample 0, 3 times out, 4 is sample 1 */
	CHECK(run("renderD128:panfrost:" G52_SPARSE ",hz=1000000,timeout=3",
		  "record -I 100 -n 3 -e GPU_ACTIVE --format csv") == 0, "record: %s", errbuf);
	CHECK(strstr(logbuf, "dump timed out\n"), "no DUMP timed out: %s", logbuf);
	CHECK(strstr(errbuf, "record: a sample failed, recording goes on: the GPU did not finish "
		      "the sample within panfrost's 1 s timeout") &&
	      strstr(errbuf, "3 samples to - (csv, tool loop)") && strstr(errbuf, ", 1 sample failed"),
	      "stderr: %s", errbuf);
	v = csv_value_flags("jm", "GPU_ACTIVE", 0, NULL, 0, fl, sizeof(fl));
	CHECK(!strcmp(fl, ""), "sample 0: GPU_ACTIVE %.0f, flags '%s'", v, fl);
	v = csv_value_flags("jm", "GPU_ACTIVE", 1, NULL, 0, fl, sizeof(fl));
	iv = csv_interval("jm", "GPU_ACTIVE", 1);
	CHECK(!strcmp(fl, "after-lost"), "sample 1: flags '%s', want after-lost", fl);
	/* one period counted, and one period long: not the two since sample 0 */
	CHECK(iv > 0.05 && iv < 0.15 && v / iv > 0.8e6 && v / iv < 1.2e6,
	      "sample 1: GPU_ACTIVE %.0f over %.3f s, want 1e6/s over ~0.1 s", v, iv);
	v = csv_value_flags("jm", "GPU_ACTIVE", 2, NULL, 0, fl, sizeof(fl));
	CHECK(!strcmp(fl, ""), "sample 2: GPU_ACTIVE %.0f, flags '%s'", v, fl);
	CHECK(run("renderD128:panfrost:" G52_SPARSE ",val=7,timeout=3,timeouts=9",
		  "record -I 50 -n 5 -e GPU_ACTIVE --format csv") != 0, "passed: %s", errbuf);
	CHECK(count(errbuf, "recording goes on") == 2 &&
	      strstr(errbuf, "mali-perfcnt: the GPU did not finish the sample"),
	      "three in a row: %s", errbuf);
}

static void pf_error_counter_set(void)
{
	CHECK(!setup(), "mkdtemp");
	/* the kernel says EINVAL to set 1 */
	CHECK(run("renderD128:panfrost:" G52_SPARSE ",sets=0", "sample --set 1 --raw") != 0, "passed");
	CHECK(one_line() && strstr(errbuf, "panfrost refused counter set 1 on Mali-G52 (EINVAL)"),
	      "EINVAL: %s", errbuf);
	CHECK(strstr(logbuf, "enable 1 1\n"), "set 1 was asked for: %s", logbuf);
	/* Midgard: refused before asking */
	CHECK(run("renderD128:panfrost:" T720_2CG, "sample --set 1") != 0, "passed");
	CHECK(one_line() && strstr(errbuf, "Mali-T720 has only counter set 0"), "Midgard: %s", errbuf);
	CHECK(run("renderD128:panfrost:" G52_SPARSE, "sample --set 1 --raw") == 0 &&
	      strstr(logbuf, "enable 1 1\n"), "set 1 on Bifrost: %s %s", errbuf, logbuf);
}

static void pf_error_unknown_gpu(void)
{
	CHECK(!setup(), "mkdtemp");
	CHECK(run("renderD128:panfrost:prod=0x1234,shader=0x3", "sample") != 0, "passed");
	CHECK(one_line() && strstr(errbuf, "GPU_ID 0x12340000") &&
	      strstr(errbuf, "not in the counter database"), "message: %s", errbuf);
	CHECK(run("renderD128:panfrost:prod=0x1234,shader=0x3", "info --format json") == 0 &&
	      strstr(out, "\"recognised\":null"), "info: %s", out);
	CHECK(run("renderD128:panfrost:prod=0x1234,shader=0x3", "sample --raw --format csv") == 0 &&
	      csv_value("jm", "jm[6]", 0, NULL, 0) == 1000, "--raw: %s %s", errbuf, out);
}

static void pf_masks_refused(void)
{
	CHECK(!setup(), "mkdtemp");
	CHECK(run("renderD128:panfrost:" G52_SPARSE, "sample --masks jm=0x1") != 0, "passed");
	CHECK(one_line() && strstr(errbuf, "no per-block masks"), "message: %s", errbuf);
}

#define THREE "renderD128:virtio_gpu;renderD129:panfrost:" G52_SPARSE \
	";renderD130:mali_perfcnt:prod=0x7212,shader=0x7"

static void select_first_of_either_kind(void)
{
	CHECK(!setup(), "mkdtemp");
	CHECK(run(THREE, "info --format json") == 0, "info: %s", errbuf);
	CHECK(strstr(out, "\"device\":\"/dev/dri/renderD129\",\"backend\":\"panfrost\""),
	      "not the first Mali node: %s", out);
	CHECK(run("renderD128:mali_perfcnt:prod=0x7212,shader=0x7;renderD129:panfrost:" G52_SPARSE,
		  "info --format json") == 0 &&
	      strstr(out, "\"device\":\"/dev/dri/renderD128\",\"backend\":\"mali_perfcnt\""),
	      "mali_perfcnt first: %s", out);
	/* a panfrost whose perfcnt ioctls are off is passed over */
	CHECK(run("renderD128:panfrost:" G52_SPARSE ",unstable=0;renderD129:mali_perfcnt:shader=0x7",
		  "info --format json") == 0 &&
	      strstr(out, "\"device\":\"/dev/dri/renderD129\",\"backend\":\"mali_perfcnt\""),
	      "usable one: %s", out);
	CHECK(run(THREE, "sample -e GPU_ACTIVE --format json") == 0 && fmt_ok("json") &&
	      count(logbuf, "dump 1792\n") == 2, "sample: %s %s", errbuf, logbuf);
}

static void select_backend_option(void)
{
	CHECK(!setup(), "mkdtemp");
	CHECK(run(THREE, "--backend mali_perfcnt info --format json") == 0 &&
	      strstr(out, "\"device\":\"/dev/dri/renderD130\",\"backend\":\"mali_perfcnt\""),
	      "--backend mali_perfcnt: %s %s", errbuf, out);
	CHECK(run(THREE, "info --backend panfrost --format json") == 0 &&
	      strstr(out, "\"device\":\"/dev/dri/renderD129\""), "--backend panfrost: %s", out);
	/* ours: one dump (the driver times ENABLE), with seqno */
	CHECK(run(THREE, "sample --backend mali_perfcnt -e GPU_ACTIVE --format json") == 0 &&
	      strstr(out, "\"seqno\":1,") && count(logbuf, "dump 1536\n") == 1,
	      "sample through mali_perfcnt: %s %s %s", errbuf, out, logbuf);
	CHECK(run(THREE, "info --backend panthor") != 0 && one_line() &&
	      strstr(errbuf, "unknown backend 'panthor'; use one of mali_perfcnt, panfrost, kbase"),
	      "unknown: %s", errbuf);
	CHECK(run("renderD128:mali_perfcnt:shader=0x7", "info --backend panfrost --no-load") != 0 &&
	      one_line() && strstr(errbuf, "no panfrost GPU found"), "none: %s", errbuf);
	CHECK(run("renderD128:virtio_gpu", "info --no-load") != 0 && one_line() &&
	      strstr(errbuf, "no Mali GPU found"), "nothing: %s", errbuf);
}

static void select_device_option(void)
{
	CHECK(!setup(), "mkdtemp");
	CHECK(run(THREE, "info --device /dev/dri/renderD130 --format json") == 0 &&
	      strstr(out, "\"backend\":\"mali_perfcnt\""), "--device ours: %s %s", errbuf, out);
	CHECK(run(THREE, "--device /dev/dri/renderD129 info --format json") == 0 &&
	      strstr(out, "\"backend\":\"panfrost\""), "--device panfrost: %s", out);
	CHECK(run(THREE, "info --device /dev/dri/renderD128") != 0 && one_line() &&
	      strstr(errbuf, "driven by 'virtio_gpu', not mali_perfcnt or panfrost"),
	      "other driver: %s", errbuf);
	CHECK(run(THREE, "info --device /dev/dri/renderD129 --backend mali_perfcnt") != 0 &&
	      one_line() && strstr(errbuf, "driven by 'panfrost', not mali_perfcnt"),
	      "wrong backend: %s", errbuf);
	CHECK(run(THREE, "info --device /dev/dri/renderD131") != 0 && one_line() &&
	      strstr(errbuf, "No such file"), "missing: %s", errbuf);
}

static void pf_cleanup(void)
{
	char cmd[300];

	if (dir[0]) {
		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
		CHECK(system(cmd) == 0, "rm");
		dir[0] = 0;
	}
}

TESTS(tests_panfrost) = {
	{ "panfrost: info, G52 sparse cores, 2 L2 slices", pf_info_g52_sparse },
	{ "panfrost: sample -A decodes every present core and L2 slice", pf_sample_sparse_two_l2 },
	{ "panfrost: T720 v4 with 2 core groups sized by the kernel formula", pf_t720_v4_two_core_groups },
	{ "panfrost: 64-bit accumulation across dumps near 2^32", pf_accumulates_in_64_bits },
	{ "panfrost: rates over an interval longer than 2^32 events", pf_rate_over_long_interval },
	{ "panfrost: no signal interrupts a DUMP's wait (its sample would be lost)",
	  pf_dump_wait_not_interrupted },
	{ "panfrost: sample data flags (first, saturated)", pf_data_flags },
	{ "mali_perfcnt: sample data flags in json, csv and text", mp_data_flags },
	{ "mali_perfcnt: record through a v3 ring session, 64-bit values", mp_record_v3_session },
	{ "mali_perfcnt: record: a full ring is overflow and lost, in-band", mp_record_v3_overflow },
	{ "mali_perfcnt: blocks' power states (v3), none from v2 or stock panfrost", mp_block_power },
	{ "mali_perfcnt: record: the v2 stream on revision 2 and past 1 s", mp_record_v2_fallback },
	{ "mali_perfcnt: ENXIO is a recovered fault, EIO a lost GPU", mp_sample_fault_errors },
	{ "mali_perfcnt: record goes on after a recovered GPU fault", mp_record_goes_on_after_fault },
	{ "panfrost: ENOSYS names unstable_ioctls", pf_error_unstable_ioctls },
	{ "panfrost: EBUSY, another owner", pf_error_busy },
	{ "panfrost: ETIMEDOUT on DUMP and ENABLE", pf_error_timeout },
	{ "panfrost: record goes on after a DUMP that timed out", pf_record_timeout },
	{ "panfrost: EINVAL for a counter set", pf_error_counter_set },
	{ "panfrost: a GPU the database does not know", pf_error_unknown_gpu },
	{ "panfrost: --masks refused", pf_masks_refused },
	{ "selection: first usable node of either kind", select_first_of_either_kind },
	{ "selection: --backend", select_backend_option },
	{ "selection: --device", select_device_option },
	{ "panfrost: cleanup", pf_cleanup },
	END_TESTS
};
