// SPDX-License-Identifier: MIT
/*
 * The kbase backend without hardware: the tool (and mpc-kbprobe) run under
 * the LD_PRELOAD shim tests/kbshim.c (MPC_KBSHIM_SO), which fakes Arm
 * kbase's /dev/mali<N> in several versions, stacked on tests/pfshim.c for
 * the selection tests. The shim's counter i of a block reads val + 1000 *
 * block type + 100 * physical core (or slice) + i in every sample, so a
 * value names the block it came from.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "test.h"
#include "kbase_uapi.h"

/* G52, cores 0 and 2 (dense kinstr indices 0, 1), 2 L2 slices */
#define G52 "prod=0x7212,shader=0x5,mem=0x100"
#define G720ISH "prod=0xc870,cpb=128,shader=0x55,mem=0x300"

static char dir[256];
static char out[1 << 18], errbuf[4096], logbuf[1 << 16];

static int setup(void)
{
	if (dir[0])
		return 0;
	snprintf(dir, sizeof(dir), "/tmp/mpc-kbtest-XXXXXX");
	return mkdtemp(dir) ? 0 : -1;
}

/*
 * Run @prog ("tool" or "probe") with kbase nodes @kb (MPC_KBSHIM) and DRM
 * nodes @drm (MPC_SHIM_NODES, "" for none) and MPC_KBASE_INTERFACE @iface
 * (NULL: unset); stdout in out[], stderr in errbuf[], the shims' log in logbuf[].
 */
__attribute__((format(printf, 5, 6)))
static int run(const char *prog, const char *kb, const char *drm, const char *iface,
	       const char *fmt, ...)
{
	char args[1024], cmd[4096], p[300];
	const char *kbshim = getenv("MPC_KBSHIM_SO"), *pfshim = getenv("MPC_SHIM");
	const char *tool = getenv("MPC_TOOL"), *probe = getenv("MPC_KBPROBE");
	const char *asan = getenv("ASAN_OPTIONS");
	va_list ap;
	int st;

	va_start(ap, fmt);
	vsnprintf(args, sizeof(args), fmt, ap);
	va_end(ap);
	snprintf(p, sizeof(p), "%s/log", dir);
	unlink(p);
	snprintf(cmd, sizeof(cmd),
		 "%s%s%s MPC_KBSHIM='%s' MPC_KBSHIM_DIR=%s/dev MPC_SHIM_NODES='%s' "
		 "MPC_SHIM_DIR=%s/dri MPC_SHIM_LOG=%s/log LD_PRELOAD='%s %s' "
		 "ASAN_OPTIONS=%s%sverify_asan_link_order=0 %s %s > %s/out 2> %s/err",
		 iface ? "MPC_KBASE_INTERFACE=" : "", iface ? iface : "", iface ? "" : "",
		 kb, dir, drm, dir, dir, kbshim ? kbshim : "build/mpc-kbshim.so",
		 pfshim ? pfshim : "build/mpc-shim.so", asan ? asan : "", asan ? ":" : "",
		 !strcmp(prog, "probe") ? (probe ? probe : "build/mpc-kbprobe") :
		 (tool ? tool : "build/mali-perfcnt"), args, dir, dir);
	st = system(cmd);
	snprintf(p, sizeof(p), "%s/out", dir);
	t_slurp(p, out, sizeof(out));
	snprintf(p, sizeof(p), "%s/err", dir);
	t_slurp(p, errbuf, sizeof(errbuf));
	snprintf(p, sizeof(p), "%s/log", dir);
	t_slurp(p, logbuf, sizeof(logbuf));
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
}

#define TOOL(kb, ...) run("tool", kb, "", NULL, __VA_ARGS__)

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

/* interval_s of the row csv_value() found last */
static double last_interval;

/* CSV row @nth of counter @name of block @blk: its value; status and data_flags */
static double csv_value(const char *blk, const char *name, unsigned nth, char *status,
			size_t sn, char *flags, size_t fn)
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
		if (nf == 11 && !strcmp(f[4], blk) && !strcmp(f[5], name) && seen++ == nth) {
			if (status)
				snprintf(status, sn, "%s", f[9]);
			if (flags)
				snprintf(flags, fn, "%s", f[10]);
			last_interval = strtod(f[2], NULL);
			return strtod(f[7], NULL);
		}
	}
	return NAN;
}

static unsigned count(const char *hay, const char *needle)
{
	unsigned n = 0;

	for (const char *p = hay; (p = strstr(p, needle)); p++)
		n++;
	return n;
}

/* ------------------------------------------------------------------ tests */

static void kb_info_versions(void)
{
	static const struct { const char *ver, *iface, *want_drv, *want_if; } v[] = {
		{ "jm11.38", NULL, "kbase JM 11.38", "kinstr_prfcnt" },
		{ "jm11.38", "legacy", "kbase JM 11.38", "hwcnt reader (legacy)" },
		{ "jm11.36", NULL, "kbase JM 11.36", "hwcnt reader (legacy)" },
		{ "jm11.46", NULL, "kbase JM 11.46", "kinstr_prfcnt" },
		{ "csf1.18", NULL, "kbase CSF 1.18", "kinstr_prfcnt" },
		{ "csf1.38", NULL, "kbase CSF 1.38", "kinstr_prfcnt" },
	};
	char node[128], want[256];

	CHECK(!setup(), "mkdtemp");
	for (unsigned i = 0; i < ARRAY_SIZE(v); i++) {
		snprintf(node, sizeof(node), "mali0:%s:" G52, v[i].ver);
		CHECK(run("tool", node, "", v[i].iface, "info --format json") == 0,
		      "%s info: %s", v[i].ver, errbuf);
		CHECK(fmt_ok("json"), "JSON: %s", out);
		snprintf(want, sizeof(want), "\"device\":\"/dev/mali0\",\"backend\":\"kbase\","
			 "\"driver\":\"%s\",\"interface\":\"%s\"", v[i].want_drv, v[i].want_if);
		CHECK(strstr(out, want), "%s: want %s in %s", v[i].ver, want, out);
		CHECK(strstr(out, "\"database_key\":\"g52\"") && strstr(out, "\"nr_l2\":2,") &&
		      strstr(out, "\"shader_present\":\"0x0000000000000005\"") &&
		      /* CSF kinstr: + 1 firmware and 4 CSG blocks */
		      strstr(out, strncmp(v[i].ver, "csf", 3) ? "\"dump_size\":1792," :
				  "\"dump_size\":3072,"), "%s GPU: %s", v[i].ver, out);
	}
}

static void kb_uk_refused(void)
{
	CHECK(!setup(), "mkdtemp");
	CHECK(TOOL("mali0:uk10.6:" G52, "info") != 0 && one_line() &&
	      strstr(errbuf, "pre-r21 \"UK\" interface (version 10.6)") &&
	      strstr(errbuf, "upgrade the GPU kernel driver to r21p0 or later"), "UK: %s", errbuf);
	/* an 11.x kernel without a usable interface for what was asked */
	CHECK(run("tool", "mali0:jm11.46:" G52, "", "legacy", "info") == 0 &&
	      strstr(out, "kinstr_prfcnt"), "11.46 has no legacy reader: kinstr kept: %s", out);
	CHECK(run("tool", "mali0:jm11.36:" G52, "", "kinstr", "info") != 0 && one_line() &&
	      strstr(errbuf, "no usable kinstr_prfcnt"), "11.36 forced kinstr: %s", errbuf);
	CHECK(run("tool", "mali0:jm11.38:" G52, "", "vinstr", "info") != 0 && one_line() &&
	      strstr(errbuf, "use kinstr or legacy"), "bad MPC_KBASE_INTERFACE: %s", errbuf);
}

/* the same values through both interfaces: dense kinstr indices land on core bits */
static void kb_sample_both_interfaces(void)
{
	static const char *const ifaces[] = { "kinstr", "legacy" };

	CHECK(!setup(), "mkdtemp");
	for (unsigned i = 0; i < 2; i++) {
		char st[32], fl[64];

		CHECK(run("tool", "mali0:jm11.38:" G52, "", ifaces[i],
			  "sample -A -e GPU_ACTIVE,FRAG_ACTIVE,L2_EXT_READ_BEATS --format csv") == 0,
		      "%s sample: %s", ifaces[i], errbuf);
		CHECK(fmt_ok("csv"), "CSV");
		CHECK(csv_value("jm", "GPU_ACTIVE", 0, st, sizeof(st), fl, sizeof(fl)) == 1006 &&
		      !strcmp(st, "ok") && !strcmp(fl, "first"), "%s jm GPU_ACTIVE: %s",
		      ifaces[i], out);
		CHECK(csv_value("shader.0", "FRAG_ACTIVE", 0, NULL, 0, NULL, 0) == 4004 &&
		      csv_value("shader.2", "FRAG_ACTIVE", 0, NULL, 0, NULL, 0) == 4204,
		      "%s cores 0 and 2: %s", ifaces[i], out);
		CHECK(!strstr(out, "shader.1,"), "%s: absent core 1 decoded", ifaces[i]);
		CHECK(csv_value("l2.1", "L2_EXT_READ_BEATS", 0, NULL, 0, NULL, 0) > 3100 &&
		      csv_value("l2.1", "L2_EXT_READ_BEATS", 0, NULL, 0, NULL, 0) < 3200,
		      "%s slice 1: %s", ifaces[i], out);
	}
	/*
	 * kernel timestamps: a dump right after the setup, thrown away, starts
	 * the interval (the reader says nothing of when its setup began
	 * counting), then the sample's
	 */
	CHECK(!strcmp(logbuf, "vinstr setup 32\nvinstr interval 0\nvinstr dump 1\nvinstr dump 2\n"),
	      "legacy: 32 buffers, manual, a starting dump and the sample's: %s", logbuf);
	CHECK(run("tool", "mali0:jm11.38:" G52, "", NULL, "sample -e GPU_ACTIVE --format json") ==
	      0 && strstr(out, "\"seqno\":1,"), "kinstr seqno: %s %s", errbuf, out);
	/* SAMPLE_SYNC's sample, then STOP's */
	CHECK(!strcmp(logbuf, "kinstr setup manual 0\nkinstr start\nkinstr sample 1\n"
		      "kinstr sample 2\nkinstr stop\n"), "kinstr calls: %s", logbuf);
}

/*
 * Blocks' power states from kinstr_prfcnt's block_state: ON, OFF and
 * ON|OFF (powered for part of the interval) are on, off and partial, a
 * block with neither bit has none (the shim: core 0 OFF, 1 ON|OFF, 2
 * neither, 3 and the other blocks ON); the sample is flagged power-partial
 * and power-off, in sample and record (the kernel's periodic stream).
 * The legacy reader says nothing of power: no block has a state.
 */
static void kb_block_power(void)
{
	const char *kb = "mali0:jm11.38:prod=0x7212,shader=0xf,mem=0x100,poff=0x1,ppart=0x2,"
			 "pnone=0x4";
	char pw[256], fl[64];

	CHECK(!setup(), "mkdtemp");
	CHECK(run("tool", kb, "", NULL, "sample -A -e GPU_ACTIVE --format json") == 0,
	      "kinstr sample: %s", errbuf);
	CHECK(fmt_ok("json"), "JSON: %s", out);
	CHECK(!strcmp(t_json_block_powers(out, pw, sizeof(pw)), "jm=on tiler.0=on l2.0=on l2.1=on "
		      "shader.0=off shader.1=partial shader.2=- shader.3=on"), "kinstr blocks: %s",
	      pw);
	CHECK(strstr(out, "\"data_flags\":\"first+power-partial+power-off\","), "kinstr flags: %s",
	      out);
	CHECK(run("tool", "mali0:jm11.38:prod=0x7212,shader=0xf,mem=0x100,ppart=0x8", "", NULL,
		  "record -I 10 -n 3 -f csv -o - -e GPU_ACTIVE") == 0, "kinstr record: %s", errbuf);
	CHECK(strstr(errbuf, "kernel stream"), "not the kernel's stream: %s", errbuf);
	csv_value("jm", "GPU_ACTIVE", 0, NULL, 0, fl, sizeof(fl));
	CHECK(!strcmp(fl, "first+power-partial"), "record sample 0's flags '%s'", fl);
	csv_value("jm", "GPU_ACTIVE", 2, NULL, 0, fl, sizeof(fl));
	CHECK(!strcmp(fl, "power-partial"), "record sample 2's flags '%s'", fl);
	CHECK(run("tool", kb, "", "legacy", "sample -A -e GPU_ACTIVE --format json") == 0,
	      "legacy sample: %s", errbuf);
	CHECK(!strcmp(t_json_block_powers(out, pw, sizeof(pw)), "jm=- tiler.0=- l2.0=- l2.1=- "
		      "shader.0=- shader.1=- shader.2=- shader.3=-"), "legacy blocks: %s", pw);
	CHECK(strstr(out, "\"data_flags\":\"first\","), "legacy flags: %s", out);
}

/* 128-counter CSF blocks, a GPU the database does not know: raw counters by index */
static void kb_csf_128_raw(void)
{
	double v;

	CHECK(!setup(), "mkdtemp");
	CHECK(TOOL("mali0:csf1.38:" G720ISH, "info --format json") == 0, "info: %s", errbuf);
	/* 2 + 4 L2 + 7 shader slots + 1 firmware + 4 CSG blocks of 128 values */
	CHECK(strstr(out, "\"counters_per_block\":128,") && strstr(out, "\"nr_l2\":4,") &&
	      strstr(out, "\"nr_fw_blocks\":1,") && strstr(out, "\"nr_csg_blocks\":4,") &&
	      strstr(out, "\"dump_size\":9216,") && !strstr(out, "CSF firmware and CSG blocks"),
	      "CSF geometry: %s", out);
	CHECK(TOOL("mali0:csf1.38:" G720ISH, "sample --raw -A --format csv") == 0,
	      "sample: %s", errbuf);
	CHECK(fmt_ok("csv"), "CSV");
	/* counter 127 of core 6's block: 1000 + 3000 + 600 + 127 */
	v = csv_value("shader.6", "shader[127]", 0, NULL, 0, NULL, 0);
	CHECK(v == 4727, "shader.6 [127] = %g: %s", v, out);
	v = csv_value("l2.3", "l2[100]", 0, NULL, 0, NULL, 0);
	CHECK(v == 3400, "l2.3 [100] = %g", v);
	/* the firmware block (type 4) and CSG 3 (type 5), decoded by kind and instance */
	v = csv_value("fw.0", "fw[10]", 0, NULL, 0, NULL, 0);
	CHECK(v == 5010, "fw.0 [10] = %g: %s", v, out);
	v = csv_value("csg.3", "csg[120]", 0, NULL, 0, NULL, 0);
	CHECK(v == 6420, "csg.3 [120] = %g", v);
	CHECK(count(out, ",csg.") == 4 * 124 && count(out, ",fw.") == 124, "4 CSGs and 1 fw: %u %u",
	      count(out, ",csg."), count(out, ",fw."));
	CHECK(count(out, ",shader.") == 4 * 124, "4 cores x 124 counters: %u",
	      count(out, ",shader."));
	/* list: the device's firmware and CSG blocks, read by index */
	CHECK(TOOL("mali0:csf1.38:" G720ISH, "list --counters --format csv") == 0 &&
	      strstr(out, "counter,fw,4-127,fw[N],,,by-index") &&
	      strstr(out, "counter,csg,4-127,csg[N],,,by-index") && strstr(out, ",GPU_ACTIVE,"),
	      "list: %s %s", errbuf, out);
	CHECK(TOOL("mali0:jm11.38:" G52, "list --counters --format csv") == 0 &&
	      !strstr(out, "by-index"), "list JM: %s", out);
	/* the legacy reader of a CSF kernel has neither */
	CHECK(run("tool", "mali0:csf1.18:" G52, "", "legacy", "info --format json") == 0 &&
	      strstr(out, "\"nr_fw_blocks\":0,") && strstr(out, "kinstr_prfcnt only"),
	      "csf1.18 legacy: %s %s", errbuf, out);
	/* 1.18's CSF numbering, 64-counter blocks */
	CHECK(TOOL("mali0:csf1.18:" G52, "sample -A -e FRAG_ACTIVE --format csv") == 0 &&
	      csv_value("shader.2", "FRAG_ACTIVE", 0, NULL, 0, NULL, 0) == 4204, "csf1.18: %s %s",
	      errbuf, out);
}

static void kb_saturation(void)
{
	static const char *const ifaces[] = { "kinstr", "legacy" };

	CHECK(!setup(), "mkdtemp");
	for (unsigned i = 0; i < 2; i++) {
		char st[32], fl[64];
		double v;

		CHECK(run("tool", "mali0:jm11.38:" G52 ",sat=1", "", ifaces[i],
			  "sample -e GPU_ACTIVE --format csv") == 0, "%s: %s", ifaces[i], errbuf);
		v = csv_value("jm", "GPU_ACTIVE", 0, st, sizeof(st), fl, sizeof(fl));
		CHECK(v == 4294967295.0 && !strcmp(st, "saturated") && strstr(fl, "saturated"),
		      "%s: %g %s %s: %s", ifaces[i], v, st, fl, out);
	}
}

static void kb_masks_and_set(void)
{
	char st[32];

	CHECK(!setup(), "mkdtemp");
	/* group 1 holds counters 4..7 (FRAG_ACTIVE is 4 on a G52 core) */
	CHECK(TOOL("mali0:jm11.38:" G52, "sample -A -e FRAG_ACTIVE,EXEC_CORE_ACTIVE --masks "
		   "shader=0x2 --format csv") == 0, "masks: %s", errbuf);
	CHECK(csv_value("shader.2", "FRAG_ACTIVE", 0, st, sizeof(st), NULL, 0) == 4204 &&
	      !strcmp(st, "ok"), "FRAG_ACTIVE collected: %s", out);
	csv_value("shader.2", "EXEC_CORE_ACTIVE", 0, st, sizeof(st), NULL, 0);
	CHECK(!strcmp(st, "not-collected"), "EXEC_CORE_ACTIVE masked out (%s): %s", st, out);
	CHECK(TOOL("mali0:jm11.38:" G52, "sample --set 1") != 0 && one_line() &&
	      strstr(errbuf, "has only counter set 0"), "--set 1: %s", errbuf);
	/* a build counting the secondary set: that one only */
	CHECK(TOOL("mali0:jm11.38:" G52 ",set=1", "sample --set 1 --raw") == 0 && strstr(out, "1,006"),
	      "a build counting set 1: %s", errbuf);
	CHECK(TOOL("mali0:jm11.38:" G52 ",set=1", "sample -e GPU_ACTIVE") != 0 && one_line() &&
	      strstr(errbuf, "this kbase counts set 1 only") && strstr(errbuf, "--set 1"),
	      "set 0 on a set-1 build: %s", errbuf);
	CHECK(run("tool", "mali0:jm11.38:" G52, "", "legacy", "sample --set 1") != 0 &&
	      one_line() && strstr(errbuf, "has only counter set 0"), "legacy --set 1: %s", errbuf);
}

static void kb_errors(void)
{
	CHECK(!setup(), "mkdtemp");
	CHECK(TOOL("mali0:jm11.38:" G52 ",stuck=1", "sample") != 0 && one_line() &&
	      strstr(errbuf, "delivered no sample on /dev/mali0 within 2000 ms"),
	      "stuck: %s", errbuf);
	CHECK(TOOL("mali0:jm11.38:" G52 ",bad=1", "sample") != 0 && one_line() &&
	      strstr(errbuf, "malformed kbase sample") && strstr(errbuf, "beyond the buffer"),
	      "bad offset: %s", errbuf);
	CHECK(TOOL("mali0:jm11.38:" G52 ",err=1", "sample") != 0 && one_line() &&
	      strstr(errbuf, "ERROR flag"), "error flag: %s", errbuf);
	CHECK(TOOL("", "--backend kbase info --no-load") != 0 && one_line() &&
	      strstr(errbuf, "no kbase GPU found: no /dev/mali<N> node"), "none: %s", errbuf);
	CHECK(TOOL("mali0:jm11.38:" G52, "--device /dev/mali7 info") != 0 && one_line() &&
	      strstr(errbuf, "cannot open /dev/mali7"), "missing node: %s", errbuf);
}

/*
 * One fault of the shim per error path of the backend: an ioctl failing
 * (fail=, errno=, nth=) or a wrong answer (lie=, kbshim.c's enum shim_lie).
 * Each must fail the command with its own one-line message.
 */
static void kb_error_paths(void)
{
	static const struct {
		const char *conf;	/* appended to the node's keys */
		unsigned long req;	/* fail= this ioctl (0: none) */
		const char *iface, *cmd, *want;
	} c[] = {
		{ "", MPC_KB_IOCTL_VERSION_CHECK_JM, NULL, "info",
		  "does not answer kbase's version handshake" },
		{ ",errno=22", MPC_KB_IOCTL_SET_FLAGS, "legacy", "sample",
		  "kbase refused to create a context on /dev/mali0 (SET_FLAGS: Invalid argument)" },
		{ "", MPC_KB_IOCTL_GET_GPUPROPS, NULL, "info",
		  "kbase GET_GPUPROPS failed on /dev/mali0 (Input/output error); the driver" },
		{ ",lie=5", 0, NULL, "info", "GET_GPUPROPS failed on /dev/mali0 (no properties)" },
		{ ",nth=2", MPC_KB_IOCTL_GET_GPUPROPS, NULL, "info",
		  "kbase GET_GPUPROPS failed on /dev/mali0 (Input/output error)" },
		{ ",lie=6", 0, NULL, "info", "(more bytes than it asked for)" },
		{ ",lie=4", 0, NULL, "info", "GET_GPUPROPS on /dev/mali0 has no RAW_GPU_ID" },
		{ ",lie=16", 0, NULL, "info", "/dev/mali0 (kbase, GPU_ID 0x72120000): " },
		{ "", MPC_KB_IOCTL_PRFCNT_ENUM_INFO, NULL, "info",
		  "KINSTR_PRFCNT_ENUM_INFO failed on /dev/mali0: Input/output error" },
		{ ",nth=2", MPC_KB_IOCTL_PRFCNT_ENUM_INFO, NULL, "info",
		  "KINSTR_PRFCNT_ENUM_INFO failed on /dev/mali0: Input/output error" },
		{ ",lie=1", 0, NULL, "info", "items of 16 bytes; this tool reads items of 32 bytes" },
		{ ",lie=2", 0, NULL, "info", "enumerates blocks of 96 values" },
		{ ",lie=3", 0, NULL, "info", "enumerates no shader core block" },
		{ ",errno=16", MPC_KB_IOCTL_PRFCNT_SETUP, NULL, "sample",
		  "kbase has no free counter session on /dev/mali0 (EBUSY)" },
		{ ",errno=12", MPC_KB_IOCTL_PRFCNT_SETUP, NULL, "sample",
		  "could not allocate the sample buffers on /dev/mali0 (ENOMEM)" },
		{ ",errno=22", MPC_KB_IOCTL_PRFCNT_SETUP, NULL, "sample",
		  "kbase rejected the counter session on /dev/mali0 (EINVAL)" },
		{ "", MPC_KB_IOCTL_PRFCNT_SETUP, NULL, "sample",
		  "setting up the counters of /dev/mali0 failed: Input/output error" },
		{ ",lie=7", 0, NULL, "sample", "gave metadata items of 16 bytes" },
		{ ",lie=15", 0, NULL, "sample", "mapping the sample buffer of /dev/mali0" },
		{ ",errno=16", MPC_KB_PRFCNT_CMD, NULL, "sample",
		  "kbase's sample ring on /dev/mali0 is full (EBUSY)" },
		{ "", MPC_KB_PRFCNT_CMD, NULL, "sample",
		  "kbase counter command START failed on /dev/mali0: Input/output error" },
		{ ",nth=2", MPC_KB_PRFCNT_CMD, NULL, "sample",
		  "kbase counter command SAMPLE_SYNC failed on /dev/mali0" },
		{ ",nth=3", MPC_KB_PRFCNT_CMD, NULL, "sample",
		  "kbase counter command STOP failed on /dev/mali0" },
		{ ",lie=13", 0, NULL, "sample", "kbase's counter reader of /dev/mali0 reported an error" },
		{ ",lie=14", 0, NULL, "sample",
		  "waiting for a sample of /dev/mali0 failed: Cannot allocate memory" },
		{ "", MPC_KB_PRFCNT_GET_SAMPLE, NULL, "sample",
		  "kbase GET_SAMPLE failed on /dev/mali0: Input/output error" },
		{ "", MPC_KB_PRFCNT_PUT_SAMPLE, NULL, "sample",
		  "kbase PUT_SAMPLE failed on /dev/mali0: Input/output error" },
		{ ",lie=12", 0, NULL, "sample", "(metadata beyond the buffer)" },
		{ ",lie=11", 0, NULL, "sample", "(no SAMPLE item)" },
		{ ",errno=12,nth=0", MPC_KB_IOCTL_HWCNT_READER_SETUP, "legacy", "sample",
		  "could not allocate the sample buffers on /dev/mali0 (ENOMEM)" },
		{ ",errno=16", MPC_KB_IOCTL_HWCNT_READER_SETUP, "legacy", "sample",
		  "kbase has no free counter session on /dev/mali0 (EBUSY)" },
		{ "", MPC_KB_READER_GET_HWVER, "legacy", "sample",
		  "kbase GET_HWVER failed on /dev/mali0: Input/output error" },
		{ ",lie=8", 0, "legacy", "sample", "has hardware layout version 4; this tool reads" },
		{ "", MPC_KB_READER_GET_BUFFER_SIZE, "legacy", "sample",
		  "kbase GET_BUFFER_SIZE failed on /dev/mali0" },
		{ ",lie=9", 0, "legacy", "sample",
		  "has 2048-byte buffers but the GPU's properties give a 1792-byte dump" },
		{ ",lie=15", 0, "legacy", "sample", "mapping the buffers of /dev/mali0" },
		{ "", MPC_KB_READER_SET_INTERVAL, "legacy", "sample",
		  "kbase SET_INTERVAL failed on /dev/mali0" },
		{ "", MPC_KB_READER_DUMP, "legacy", "sample", "kbase DUMP failed on /dev/mali0" },
		{ ",nth=2", MPC_KB_READER_DUMP, "legacy", "sample", "kbase DUMP failed on /dev/mali0" },
		{ "", MPC_KB_READER_GET_BUFFER_CYCLES, "legacy", "sample",
		  "kbase GET_BUFFER failed on /dev/mali0" },
		{ "", MPC_KB_READER_PUT_BUFFER_CYCLES, "legacy", "sample",
		  "kbase PUT_BUFFER failed on /dev/mali0" },
		{ ",lie=10", 0, "legacy", "sample", "(buffer index out of range)" },
		{ ",lie=13", 0, "legacy", "sample", "kbase's counter reader of /dev/mali0 reported" },
		{ "", 0, "legacy", "record -I 5000 -n 1 -e GPU_ACTIVE",
		  "kbase's legacy reader takes periods up to 4.29 s" },
	};
	char node[512];

	CHECK(!setup(), "mkdtemp");
	for (unsigned i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		int r;

		snprintf(node, sizeof(node), "mali0:jm11.38:" G52 "%s,fail=%#lx", c[i].conf, c[i].req);
		r = run("tool", node, "", c[i].iface, "%s", c[i].cmd);
		CHECK(r != 0 && one_line() && strstr(errbuf, c[i].want),
		      "%s %s (%s): exit %d, %s", node, c[i].cmd, c[i].want, r, errbuf);
	}
	/* a refused recording does not truncate the file it would have written */
	{
		char path[600], keep[8] = "";
		FILE *f;

		snprintf(path, sizeof(path), "%s/keep.pftrace", dir);
		f = fopen(path, "w");
		CHECK(f && fputs("keep", f) >= 0 && !fclose(f), "writing %s", path);
		CHECK(run("tool", "mali0:jm11.38:" G52, "", "legacy",
			  "record -I 5000 -n 1 -e GPU_ACTIVE -o %s", path) != 0, "record -I 5000");
		f = fopen(path, "r");
		CHECK(f && fgets(keep, sizeof(keep), f) && !strcmp(keep, "keep"),
		      "a refused record left %s as '%s', want 'keep'", path, keep);
		if (f)
			fclose(f);
	}
	/* ENOMEM once: the legacy reader halves its buffer count and goes on */
	CHECK(run("tool", "mali0:jm11.38:" G52 ",errno=12,fail=0x40148008", "", "legacy",
		  "sample -e GPU_ACTIVE") == 0 && strstr(logbuf, "fail 0x40148008\nvinstr setup 16\n"),
	      "ENOMEM once: %s %s", errbuf, logbuf);
	/* a path given that is no character device */
	snprintf(node, sizeof(node), "--backend kbase --device %s info", dir);
	CHECK(TOOL("mali0:jm11.38:" G52, "%s", node) != 0 && one_line() &&
	      strstr(errbuf, "is not a kbase device node (/dev/mali<N>)"), "a directory: %s", errbuf);
	CHECK(TOOL("mali0:jm10.9:" G52, "info") != 0 && one_line() &&
	      strstr(errbuf, "is Arm kbase JM 10.9, older than this tool reads"), "10.9: %s", errbuf);
}

static void kb_stat_and_record(void)
{
	static const char *const ifaces[] = { "kinstr", "legacy" };

	CHECK(!setup(), "mkdtemp");
	for (unsigned i = 0; i < 2; i++) {
		double v;
		char p[300];

		/* 1e8 events a second over 300 ms */
		CHECK(run("tool", "mali0:jm11.38:" G52 ",hz=100000000", "", ifaces[i],
			  "stat -d 300 -e GPU_ACTIVE --format csv") == 0, "%s stat: %s",
		      ifaces[i], errbuf);
		v = csv_value("jm", "GPU_ACTIVE", 0, NULL, 0, NULL, 0);
		/* the kernel's interval is what the counts cover */
		CHECK(last_interval >= 0.3 && fabs(v / last_interval - 1e8) < 1e8 * 0.001,
		      "%s: %g events in %g s at 1e8/s", ifaces[i], v, last_interval);
		/* the kernel's periodic sampling: 20 records of 10 ms */
		CHECK(run("tool", "mali0:jm11.38:" G52 ",hz=100000000", "", ifaces[i],
			  "record -I 10 -n 20 -f csv -o - -e GPU_ACTIVE") == 0, "%s record: %s",
		      ifaces[i], errbuf);
		CHECK(fmt_ok("csv") && count(out, ",GPU_ACTIVE,") == 20 &&
		      strstr(errbuf, "kernel stream") && strstr(errbuf, "0 samples lost"),
		      "%s: %u records: %s", ifaces[i], count(out, ",GPU_ACTIVE,"), errbuf);
		v = csv_value("jm", "GPU_ACTIVE", 5, NULL, 0, NULL, 0);
		CHECK(v == 1000000, "%s: a 10 ms record holds %g events, want 1e6", ifaces[i], v);
		CHECK(strstr(logbuf, ifaces[i][0] == 'k' ? "kinstr setup periodic 10000000\n" :
			     "vinstr interval 10000000\n"), "%s periodic: %s", ifaces[i], logbuf);
		/* top: 4e8 events a second of an 800 MHz clock */
		CHECK(run("tool", "mali0:jm11.38:" G52 ",hz=400000000", "", ifaces[i],
			  "top -I 100 -n 2 --freq 800") == 0 && count(out, "frame ") == 2 &&
		      strstr(out, "MpcGPUActiveUtil") && strstr(out, " 50.0 %"),
		      "%s top: %s %s", ifaces[i], errbuf, out);
		snprintf(p, sizeof(p), "%s/t.pftrace", dir);
		CHECK(run("tool", "mali0:jm11.38:" G52, "", ifaces[i],
			  "record -I 10 -n 5 -o %s", p) == 0, "%s perfetto: %s", ifaces[i], errbuf);
	}
}

static void kb_uapi_probe(void)
{
	static const char *const vers[] = { "jm11.38", "jm11.46", "csf1.18", "csf1.38" };

	CHECK(!setup(), "mkdtemp");
	for (unsigned i = 0; i < ARRAY_SIZE(vers); i++) {
		char node[128];

		snprintf(node, sizeof(node), "mali0:%s:" G52, vers[i]);
		CHECK(run("probe", node, "", NULL, "/dev/mali0") == 0 && !strstr(out, "not ok") &&
		      strstr(out, "\n1.."), "%s: %s", vers[i], out);
	}
	CHECK(strstr(out, "HWCNT_READER_SETUP is ENOTTY") && strstr(out, "at least 100 us apart") &&
	      strstr(out, "before a context: EPERM") && strstr(out, "a 50 us period refused"),
	      "checks: %s", out);
}

static void kb_selection(void)
{
	CHECK(!setup(), "mkdtemp");
	/* path order: the render node of mali_perfcnt comes before /dev/mali0 */
	CHECK(run("tool", "mali0:jm11.38:" G52, "renderD128:mali_perfcnt:shader=0x7", NULL,
		  "info --format json") == 0 && strstr(out, "\"backend\":\"mali_perfcnt\""),
	      "first: %s %s", errbuf, out);
	CHECK(run("tool", "mali0:jm11.38:" G52, "renderD128:mali_perfcnt:shader=0x7", NULL,
		  "--backend kbase info --format json") == 0 && strstr(out, "\"backend\":\"kbase\""),
	      "--backend kbase: %s %s", errbuf, out);
	CHECK(run("tool", "mali0:jm11.38:" G52, "renderD128:mali_perfcnt:shader=0x7", NULL,
		  "--device /dev/mali0 info --format json") == 0 &&
	      strstr(out, "\"backend\":\"kbase\""), "--device: %s %s", errbuf, out);
	CHECK(run("tool", "mali0:jm11.38:" G52, "renderD128:mali_perfcnt:shader=0x7", NULL,
		  "--device /dev/dri/renderD128 --backend kbase info") != 0 && one_line(),
	      "a render node is not kbase: %s", errbuf);
	CHECK(run("tool", "mali0:jm11.38:" G52 ";mali1:csf1.38:" G52, "", NULL,
		  "--device /dev/mali1 info --format json") == 0 &&
	      strstr(out, "\"driver\":\"kbase CSF 1.38\""), "mali1: %s %s", errbuf, out);
}

static void kb_cleanup(void)
{
	char cmd[300];

	if (dir[0]) {
		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
		CHECK(system(cmd) == 0, "rm");
		dir[0] = 0;
	}
}

TESTS(tests_kbase) = {
	{ "kbase: info through each version and interface", kb_info_versions },
	{ "kbase: a pre-r21 kernel refused; MPC_KBASE_INTERFACE", kb_uk_refused },
	{ "kbase: kinstr and legacy samples decode the same, dense cores mapped",
	  kb_sample_both_interfaces },
	{ "kbase: kinstr block_state ON, OFF, ON|OFF as power on, off, partial; legacy none",
	  kb_block_power },
	{ "kbase: CSF 128-counter blocks of an unknown GPU, raw by index", kb_csf_128_raw },
	{ "kbase: values over 2^32 flagged saturated", kb_saturation },
	{ "kbase: --masks and the build's counter set", kb_masks_and_set },
	{ "kbase: timeouts, malformed samples, the ERROR flag, no node", kb_errors },
	{ "kbase: each error path of the backend, one fault at a time", kb_error_paths },
	{ "kbase: stat, top and periodic record through both interfaces", kb_stat_and_record },
	{ "kbase: the shim answers wrong use as kbase does (mpc-kbprobe)", kb_uapi_probe },
	{ "kbase: selection among DRM nodes and /dev/mali<N>", kb_selection },
	{ "kbase: cleanup", kb_cleanup },
	END_TESTS
};
