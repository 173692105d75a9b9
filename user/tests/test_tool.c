// SPDX-License-Identifier: MIT
/* The mali-perfcnt command line on synthetic files (no device needed). */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "mali_perfcnt_drm.h"
#include "samp_table.h"
#include "test.h"

static char dir[256];
static char out[1 << 18], errbuf[4096];

static const char *tool(void)
{
	const char *t = getenv("MPC_TOOL");

	return t ? t : "build/mali-perfcnt";
}

static const char *fmtcheck(void)
{
	const char *t = getenv("MPC_FMTCHECK");

	return t ? t : "build/mpc-fmtcheck";
}

/* run a shell command line; stdout in out[], stderr in errbuf[]; exit status */
__attribute__((format(printf, 1, 2)))
static int run(const char *fmt, ...)
{
	char cmd[2048], full[3000], o[300], e[300];
	va_list ap;
	int st;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	snprintf(o, sizeof(o), "%s/out", dir);
	snprintf(e, sizeof(e), "%s/err", dir);
	snprintf(full, sizeof(full), "%s > %s 2> %s", cmd, o, e);
	st = system(full);
	t_slurp(o, out, sizeof(out));
	t_slurp(e, errbuf, sizeof(errbuf));
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
}

static int setup(void)
{
	struct mpc_db *db;
	struct mpc_desc d;
	struct mpc_layout *l;
	struct mpc_err err;
	uint32_t buf[8 * 64];
	char p[300];
	FILE *f;

	if (dir[0])
		return 0;
	snprintf(dir, sizeof(dir), "/tmp/mpc-test-XXXXXX");
	if (!mkdtemp(dir))
		return -1;
	db = t_db();
	if (mpc_desc_from_gpu(&d, mpc_db_find_gpu(db, "g52"), 0xb, 2, &err) ||
	    mpc_layout_new(&d, &l, &err)) {
		mpc_db_free(db);
		return -1;
	}
	t_fill_dump(l, buf, 77, 0xffff, NULL, NULL);
	buf[6] = 400000000;		/* jm GPU_ACTIVE: 50% of 800 MHz over 1 s */
	buf[7] = 4000000;		/* IRQ_ACTIVE: 1% */
	buf[64 * 4 + 4] = 12;
	snprintf(p, sizeof(p), "%s/dump.bin", dir);
	f = fopen(p, "w");
	fwrite(buf, 1, sizeof(buf), f);
	fclose(f);
	snprintf(p, sizeof(p), "%s/dump2.bin", dir);
	f = fopen(p, "w");
	fwrite(buf, 1, sizeof(buf), f);
	fwrite(buf, 1, sizeof(buf), f);
	fclose(f);
	snprintf(p, sizeof(p), "%s/short.bin", dir);
	f = fopen(p, "w");
	fwrite(buf, 1, 1000, f);
	fclose(f);
	snprintf(p, sizeof(p), "%s/gpu_info", dir);
	f = fopen(p, "w");
	fprintf(f, "product: Mali-G52\ngpu_id: 0x72120000\nproduct_id: 0x7212\nshader_present: 0xb\n"
		"l2_present: 0x1\nnr_l2: 2\nl2_features: 0x07120206\nmem_features: 0x00000101\n"
		"layout: v5\nnr_blocks: 8\ncounters_per_block: 64\ndump_size: 2048\n"
		"gpu_freq_hz: 800000000\nowner: none\n");
	fclose(f);
	snprintf(p, sizeof(p), "%s/bad_info", dir);
	f = fopen(p, "w");
	fprintf(f, "gpu_id: 0x72120000\nlayout: v5\nshader_present: 0xb\nnr_l2: 2\ndump_size: 999\n");
	fclose(f);
	/* a G2 dump for the synthetic test layout: 2 cores, 1 L2 */
	if (mpc_db_add_file(db, t_data("g2-test-layout.txt"), &err) == 0) {
		const struct mpc_gpu_def *g2 = mpc_db_find_gpu(db, "g2");
		struct mpc_desc d2;
		struct mpc_layout *l2;

		if (!mpc_desc_from_gpu(&d2, g2, 0x3, 1, &err) && !mpc_layout_new(&d2, &l2, &err)) {
			uint32_t *b2 = calloc(1, d2.dump_size);
			const struct mpc_counter_def *a = mpc_gpu_find_counter(g2, "GPU_ACTIVE"),
				*i = mpc_gpu_find_counter(g2, "GPU_IRQ_ACTIVE");

			t_fill_dump(l2, b2, 1, 0xffffffff, NULL, NULL);
			b2[a->index] = 1000;	/* jm is slot 0 */
			b2[i->index] = 30;
			snprintf(p, sizeof(p), "%s/g2.bin", dir);
			f = fopen(p, "w");
			fwrite(b2, 1, d2.dump_size, f);
			fclose(f);
			free(b2);
			mpc_layout_free(l2);
		}
	}
	mpc_layout_free(l);
	mpc_db_free(db);
	return 0;
}

#define T (tool())
#define EXPLICIT "--gpu g52 --cores 0xb --l2 2 --freq 800"

static void test_help_pages(void)
{
	static const char *cmds[] = { "info", "list", "sample", "stat", "record", "top", "decode" };

	CHECK(run("%s --help", T) == 0 && strstr(out, "SYNOPSIS"), "mali-perfcnt --help");
	for (unsigned i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		CHECK(run("%s %s --help", T, cmds[i]) == 0 && strstr(out, "SYNOPSIS") &&
		      strstr(out, "DESCRIPTION") && strstr(out, "--format"), "%s --help", cmds[i]);
		CHECK(run("%s help %s", T, cmds[i]) == 0 && strstr(out, "NAME"), "help %s", cmds[i]);
	}
}

/* the page of each sampling command names every option of samp_table.h it takes */
static void test_help_names_every_sampling_option(void)
{
	static const struct { const char *name; unsigned mask; } cmds[] = {
		{ "sample", SAMP_SAMPLE }, { "stat", SAMP_STAT }, { "record", SAMP_RECORD },
	};
	char missing[512] = "";
	size_t n = 0;

	for (unsigned i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		CHECK(run("%s help %s", T, cmds[i].name) == 0, "help %s: %s", cmds[i].name, errbuf);
		for (unsigned j = 0; j < sizeof(samp_table) / sizeof(samp_table[0]); j++) {
			const struct samp_opt *e = &samp_table[j];
			char lname[40], sname[8] = "";

			if (!(e->cmds & cmds[i].mask))
				continue;
			snprintf(lname, sizeof(lname), "--%s", e->lo.name);
			if (e->lo.val < 256)
				snprintf(sname, sizeof(sname), "-%c", e->lo.val);
			if ((!strstr(out, lname) || (sname[0] && !strstr(out, sname))) &&
			    n < sizeof(missing) - 64)
				n += (size_t)snprintf(missing + n, sizeof(missing) - n, " %s:%s%s%s",
						      cmds[i].name, sname, sname[0] ? "/" : "", lname);
		}
	}
	CHECK(!missing[0], "options the pages do not name:%s", missing);
}

/*
 * -I is the time between samples in milliseconds in every command that
 * samples over time: the same parser (fractions, one error shape), each
 * command's shortest, and the one longest; the pages say the same limits.
 */
static void test_interval_means_one_thing(void)
{
	static const struct { const char *cmd; double min_ms; } cmds[] = {
		{ "stat", 10 },
		{ "record", MALI_PERFCNT_STREAM_MIN_PERIOD_NS / 1e6 },
		{ "top", 100 },
	};
	double max_ms = TOOL_MAX_INTERVAL_NS / 1e6;
	char want[128], range[64];

	for (unsigned i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		snprintf(range, sizeof(range), "%.10g to %.10g", cmds[i].min_ms, max_ms);
		snprintf(want, sizeof(want), "mali-perfcnt: -I 0.05: '%s' samples every %s ms\n",
			 cmds[i].cmd, range);
		CHECK(run("%s %s -I 0.05", T, cmds[i].cmd) == 1 && !strcmp(errbuf, want),
		      "%s -I 0.05: '%s', want '%s'", cmds[i].cmd, errbuf, want);
		snprintf(want, sizeof(want), "mali-perfcnt: -I %.10g.5: '%s' samples every %s ms\n",
			 max_ms, cmds[i].cmd, range);
		CHECK(run("%s %s -I %.10g.5", T, cmds[i].cmd, max_ms) == 1 && !strcmp(errbuf, want),
		      "%s -I beyond an hour: '%s', want '%s'", cmds[i].cmd, errbuf, want);
		CHECK(run("%s %s -I 1x", T, cmds[i].cmd) == 1 &&
		      strstr(errbuf, "-I: '1x' is not a positive number"), "%s -I 1x: %s",
		      cmds[i].cmd, errbuf);
		CHECK(run("%s help %s", T, cmds[i].cmd) == 0 &&
		      strstr(out, "-I, --interval MS The time between samples") &&
		      strstr(out, range), "the %s page does not say -I is %s ms: %s", cmds[i].cmd,
		      range, out);
	}
}

static void test_decode_formats(void)
{
	static char csv1[sizeof(out)], csv2[sizeof(out)];

	CHECK(setup() == 0, "setup failed");
	CHECK(run("%s decode " EXPLICIT " --interval 1000 -f csv %s/dump.bin", T, dir) == 0,
	      "decode csv: %s", errbuf);
	memcpy(csv1, out, sizeof(out));
	CHECK(strstr(out, "sample,time_s,interval_s,type,block,name,lgc_name,value,unit,status,data_flags\n") == out,
	      "CSV header missing");
	CHECK(strstr(out, ",counter,jm,GPU_ACTIVE,MaliGPUActiveCy,400000000,cycles,ok,\n"),
	      "GPU_ACTIVE row wrong:\n%.400s", out);
	CHECK(strstr(out, ",metric,,MpcGPUActiveUtil,,50,percent,ok,\n"), "MpcGPUActiveUtil not 50");
	CHECK(strstr(out, ",metric,,MaliGPUIRQUtil,,1,percent,ok,\n"), "MaliGPUIRQUtil not 1");
	CHECK(run("%s decode " EXPLICIT " --interval 1000 -f csv %s/dump.bin > %s/a.csv && %s csv %s/a.csv",
		  T, dir, dir, fmtcheck(), dir) == 0, "fmtcheck csv: %s", errbuf);
	/* the same bytes described by gpu_info give the same values */
	CHECK(run("%s decode --gpu-info %s/gpu_info --interval 1000 -f csv %s/dump.bin", T, dir, dir) == 0,
	      "decode --gpu-info: %s", errbuf);
	memcpy(csv2, out, sizeof(out));
	CHECK(!strcmp(csv1, csv2), "explicit and gpu_info descriptions decode differently");
	CHECK(run("%s decode " EXPLICIT " -f json %s/dump.bin > %s/a.json && %s json %s/a.json", T, dir,
		  dir, fmtcheck(), dir) == 0, "fmtcheck json: %s", errbuf);
	CHECK(run("%s json-get %s/a.json GPU_ACTIVE", fmtcheck(), dir) == 0 && !strcmp(out, "400000000\n"),
	      "json GPU_ACTIVE: %s", out);
	CHECK(run("%s json-get %s/a.json MaliGPUIRQUtil", fmtcheck(), dir) == 0 && !strcmp(out, "1\n"),
	      "json MaliGPUIRQUtil: %s", out);
	CHECK(run("%s json-get %s/a.json MpcGPUActiveUtil", fmtcheck(), dir) == 0 && !strcmp(out, "null\n"),
	      "json MpcGPUActiveUtil without --interval should be null: %s", out);
	CHECK(run("%s decode " EXPLICIT " %s/dump.bin", T, dir) == 0 && strstr(out, "GPU_ACTIVE") &&
	      strstr(out, "400,000,000"), "text output");
}

static void test_decode_multi_and_select(void)
{
	CHECK(setup() == 0, "setup failed");
	CHECK(run("%s decode " EXPLICIT " -f json %s/dump2.bin", T, dir) == 0, "%s", errbuf);
	char *second = strchr(out, '\n');

	CHECK(second && strstr(second + 1, "\"sample\":1"), "two dumps in a file should give 2 samples");
	CHECK(run("%s decode " EXPLICIT " --sum -f csv -e GPU_ACTIVE %s/dump2.bin", T, dir) == 0 &&
	      strstr(out, ",GPU_ACTIVE,MaliGPUActiveCy,800000000,"), "--sum: %s", out);
	CHECK(run("%s decode " EXPLICIT " -f csv -e GPU_ACTIVE,MaliGPUIRQUtil %s/dump.bin | wc -l", T,
		  dir) == 0 && atoi(out) == 3, "-e two names: %s lines", out);
	CHECK(run("%s decode " EXPLICIT " -f csv -e 'Mali*QueueUtil' %s/dump.bin", T, dir) == 0 &&
	      strstr(out, "MaliFragQueueUtil") && !strstr(out, "GPU_ACTIVE"), "glob selection");
	CHECK(run("%s decode " EXPLICIT " -f csv -e MaliGPUActiveCy -A %s/dump.bin", T, dir) == 0 &&
	      strstr(out, ",counter,jm,GPU_ACTIVE,"), "libGPUCounters name selection");
	CHECK(run("%s decode " EXPLICIT " -f csv -e FRAG_ACTIVE -A %s/dump.bin", T, dir) == 0 &&
	      strstr(out, "shader.3") && !strstr(out, "shader.2"), "per-instance: %s", out);
	/* a leading zero is decimal, not octal: --cores 011 is cores 0, 1, 3 (0xb) */
	CHECK(run("%s decode --gpu g52 --cores 011 --l2 2 --freq 800 -f csv -e GPU_ACTIVE %s/dump.bin",
		  T, dir) == 0 && strstr(out, ",400000000,"), "--cores 011: %s", errbuf);
	CHECK(run("%s decode " EXPLICIT " -f csv -e shader:4 %s/dump.bin", T, dir) == 0 &&
	      strstr(out, ",12,"), "BLOCK:INDEX selection: %s", out);
}

static void test_decode_g2_layout(void)
{
	CHECK(setup() == 0, "setup failed");
	CHECK(run("%s decode --gpu g2 --cores 0x3 --l2 1 --layout %s -f csv -e MaliGPUIRQUtil %s/g2.bin",
		  T, t_data("g2-test-layout.txt"), dir) == 0, "G2 decode: %s", errbuf);
	CHECK(strstr(out, ",MaliGPUIRQUtil,,3,percent,ok"), "G2 MaliGPUIRQUtil: %s", out);
	CHECK(run("%s decode --gpu g2 --cores 0x3 --l2 1 -e MaliGPUIRQUtil %s/g2.bin", T, dir) == 1 &&
	      strchr(errbuf, '\n') == errbuf + strlen(errbuf) - 1 && strstr(errbuf, "--layout"),
	      "G2 without layout: %s", errbuf);
}

static void test_errors_one_line(void)
{
	static const char *const cases[][2] = {
		{ "decode " EXPLICIT " @/short.bin", "not a whole number" },
		{ "decode --gpu-info @/bad_info @/dump.bin", "dump_size is 999" },
		{ "decode --gpu-info @/nonexistent @/dump.bin", "cannot open" },
		{ "decode --gpu g999 --cores 1 @/dump.bin", "not in the database" },
		{ "decode --gpu g52 @/dump.bin", "--cores" },
		{ "decode " EXPLICIT, "no dump file" },
		{ "decode " EXPLICIT " -e NOPE @/dump.bin", "no counter or metric matches 'NOPE'" },
		{ "decode " EXPLICIT " -f xml @/dump.bin", "use text, csv or json" },
		{ "decode --cores 0xb @/dump.bin", "need --gpu" },
		{ "decode --gpu t720 --cores 0x1f @/dump.bin", "core group" },
		{ "frobnicate", "unknown command" },
		{ "", "no command" },
		{ "list --gpu g2 --layout @/gpu_info", "mali-perfcnt-db 1" },
		{ "stat -n 5", "-I" },
		{ "stat -I 5", "-I 5: 'stat' samples every 10 to 3600000 ms" },
		{ "stat -I 100 -n 3 --duration 1000", "give one of them" },
		{ "stat --delay 5", "'sample' option" },
		{ "decode --gpu g52 --cores 0x @/dump.bin", "0x hex" },
		{ "decode --gpu g52 --cores 0xb --l2 0x3g @/dump.bin", "0x hex" },
		{ "sample -I 100", "'stat' option" },
		{ "sample --count 2", "'stat' option" },
		{ "sample --duration 100", "'stat' option" },
		{ "help nope", "no help" },
		{ "decode " EXPLICIT " -e shader:200 @/dump.bin", "INDEX 4..63" },
		{ "list --frobnicate", "unknown option '--frobnicate' for 'list'" },
		{ "decode -Z @/dump.bin", "unknown option '-Z' for 'decode'" },
		{ "--frobnicate info", "unknown option '--frobnicate'" },
		{ "stat -q", "unknown option '-q' for 'stat'" },
		{ "sample --bogus", "unknown option '--bogus' for 'sample'" },
		{ "info -x", "unknown option '-x' for 'info'" },
		{ "decode --gpu", "'--gpu' needs an argument" },
		{ "list -e", "'-e' needs an argument" },
		{ "list --gpus=1", "'--gpus' takes no argument" },
		{ "decode --raw -Zq", "unknown option '-Z'" },
		/* --format names one thing everywhere; traces are record's and decode's */
		{ "list --gpus --format perfetto", "--format perfetto is a trace; 'list' writes text, csv or json" },
		{ "--format chrome-trace list --gpus", "--format chrome-trace is a trace; 'list'" },
		{ "stat -f chrome-trace -I 100", "--format chrome-trace is a trace; 'stat'" },
		{ "sample --format perfetto", "--format perfetto is a trace; 'sample'" },
		{ "top --format perfetto", "--format perfetto is a trace; 'top'" },
		{ "info --format perfetto", "--format perfetto is a trace; 'info' writes text, csv or json" },
		{ "info -f chrome-trace --gpu-info @/gpu_info", "--format chrome-trace is a trace; 'info'" },
		{ "record --format text", "record writes perfetto, chrome-trace" },
		{ "decode " EXPLICIT " -f json -o x.json @/dump.bin", "-o is for --format perfetto or chrome-trace" },
		{ "decode " EXPLICIT " -f perfetto --sum @/dump.bin", "drop it for --format perfetto" },
	};
	CHECK(setup() == 0, "setup failed");
	for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char cmd[512], *o = cmd;

		for (const char *s = cases[i][0]; *s && o < cmd + 400; s++)
			if (*s == '@')
				o += snprintf(o, 100, "%s", dir);
			else
				*o++ = *s;
		*o = 0;
		int st = run("%s %s", T, cmd);

		CHECK(st == 1, "'%s' exited %d", cmd, st);
		char *last = errbuf + strlen(errbuf);

		while (last > errbuf && last[-1] == '\n')
			*--last = 0;
		/* 'no command' also prints the main page; every other error is one line */
		CHECK(!cases[i][0][0] || t_one_line(errbuf), "'%s': more than one line:\n%s", cmd, errbuf);
		last = strrchr(errbuf, '\n') ? strrchr(errbuf, '\n') + 1 : errbuf;
		CHECK(strstr(last, cases[i][1]) && !strncmp(last, "mali-perfcnt: ", 14),
		      "'%s': error '%s' lacks '%s'", cmd, last, cases[i][1]);
	}
}

static void test_list_and_info(void)
{
	CHECK(setup() == 0, "setup failed");
	CHECK(run("%s list --gpus -f csv > %s/g.csv && %s csv %s/g.csv", T, dir, fmtcheck(), dir) == 0,
	      "list --gpus csv: %s", errbuf);
	CHECK(run("%s list --gpu g52 -f json > %s/l.json && %s json %s/l.json", T, dir, fmtcheck(), dir) == 0,
	      "list json: %s", errbuf);
	CHECK(run("%s list --gpu t720 --all -f csv > %s/l.csv && %s csv %s/l.csv", T, dir, fmtcheck(), dir) == 0,
	      "list csv: %s", errbuf);
	CHECK(run("%s list --gpu g52 --derived -e MaliGPUIRQUtil", T) == 0 &&
	      strstr(out, "(MaliGPUIRQActiveCy / MaliGPUActiveCy) * 100"), "list formula: %s", out);
	CHECK(run("%s info --gpu-info %s/gpu_info -f json > %s/i.json && %s json %s/i.json", T, dir, dir,
		  fmtcheck(), dir) == 0, "info json: %s", errbuf);
	CHECK(run("%s info --gpu-info %s/gpu_info", T, dir) == 0 && strstr(out, "Mali-G52") &&
	      strstr(out, "ext_bus_bytes        16"), "info text: %s", out);
	/* "-" reads the description, or the dumps, from standard input */
	CHECK(run("%s info --gpu-info - < %s/gpu_info", T, dir) == 0 && strstr(out, "Mali-G52"),
	      "info --gpu-info -: %s", errbuf);
	CHECK(run("%s decode --gpu-info - -f csv -e GPU_ACTIVE %s/dump.bin < %s/gpu_info", T, dir, dir) == 0 &&
	      strstr(out, ",GPU_ACTIVE,MaliGPUActiveCy,400000000,"), "decode --gpu-info -: %s", errbuf);
	CHECK(run("%s decode " EXPLICIT " -f csv -e GPU_ACTIVE - < %s/dump2.bin | grep -c GPU_ACTIVE", T,
		  dir) == 0 && atoi(out) == 2, "decode - (two dumps on stdin): %s", out);
}

/* JSON (and CSV) stay valid UTF-8 whatever bytes a gpu_info file or a path holds */
static void test_json_utf8(void)
{
	char p[300], q[300];
	FILE *f;

	CHECK(setup() == 0, "setup failed");
	snprintf(p, sizeof(p), "%s/info-\xff\xc3(", dir);
	f = fopen(p, "w");
	CHECK(f != NULL, "cannot create %s", p);
	fprintf(f, "product: Mali-\xc0\xafG52\xe2\x82\nproduct_id: 0x7212\ngpu_id: 0x72120000\n"
		"shader_present: 0xb\nl2_present: 0x1\nnr_l2: 2\nlayout: v5\nnr_blocks: 8\n"
		"counters_per_block: 64\ndump_size: 2048\nowner: pid 1 (\xed\xa0\x80\xff)\n");
	fclose(f);
	snprintf(q, sizeof(q), "%s/u.out", dir);
	CHECK(run("%s info --gpu-info '%s' -f json > %s && %s json %s", T, p, q, fmtcheck(), q) == 0,
	      "info json from a non-UTF-8 gpu_info: %s", errbuf);
	CHECK(run("%s info --gpu-info '%s' -f csv > %s && %s csv %s", T, p, q, fmtcheck(), q) == 0,
	      "info csv from a non-UTF-8 gpu_info: %s", errbuf);
	CHECK(run("%s decode --gpu-info '%s' -f json %s/dump.bin > %s && %s json %s", T, p, dir, q,
		  fmtcheck(), q) == 0, "decode json with a non-UTF-8 source: %s", errbuf);
	/* valid UTF-8 passes unchanged */
	CHECK(run("%s list --gpu g52 -f json -e GPU_ACTIVE | %s json -", T, fmtcheck()) == 0, "%s", errbuf);
}

/* a derived value that overflows to infinity has no value, the same in every format */
static void test_infinite_metric(void)
{
	CHECK(setup() == 0, "setup failed");
	/* 4e8 cycles at 800 MHz in 1e-309 s: beyond the largest double */
	CHECK(run("%s decode " EXPLICIT " --interval 1e-306 -f csv -e MpcGPUActiveUtil %s/dump.bin", T,
		  dir) == 0, "csv: %s", errbuf);
	CHECK(strstr(out, ",metric,,MpcGPUActiveUtil,,,percent,no-value,\n"), "csv: %s", out);
	CHECK(run("%s decode " EXPLICIT " --interval 1e-306 -f json -e MpcGPUActiveUtil %s/dump.bin", T,
		  dir) == 0, "json: %s", errbuf);
	CHECK(strstr(out, "{\"name\":\"MpcGPUActiveUtil\",\"value\":null,\"unit\":\"percent\","
		      "\"status\":\"no-value\"}"), "json: %s", out);
	CHECK(run("%s decode " EXPLICIT " --interval 1e-306 -e MpcGPUActiveUtil %s/dump.bin", T, dir) == 0 &&
	      strstr(out, "<no value>") && !strstr(out, "inf"), "text: %s", out);
}

static void write_file(const char *name, const char *text)
{
	char p[300];
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", dir, name);
	f = fopen(p, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

/* stderr is exactly one line */
static int one_line_err(void)
{
	size_t n = strlen(errbuf);

	return n > 1 && strchr(errbuf, '\n') == errbuf + n - 1;
}

/* a layout file is checked against the database; hints do not ask for one already given */
static void test_layout_checks(void)
{
	CHECK(setup() == 0, "setup failed");
	write_file("bad_layout", "mali-perfcnt-db 1\ngpu g2 Mali-G2\nlayout v5\ncounters-per-block 128\n"
		   "block jm\n16 GPU_ACTIVE\n17 NOT_A_G2_COUNTER\n");
	CHECK(run("%s list --gpu g2 --layout %s/bad_layout", T, dir) == 1 && one_line_err() &&
	      strstr(errbuf, "bad_layout:7:") && strstr(errbuf, "NOT_A_G2_COUNTER"),
	      "unknown counter in a layout: %s", errbuf);
	write_file("part_layout", "mali-perfcnt-db 1\ngpu g2 Mali-G2\nlayout v5\ncounters-per-block 128\n"
		   "block jm\n16 GPU_ACTIVE\n");
	CHECK(run("%s decode --gpu g2 --cores 0x3 --l2 1 --layout %s/part_layout -e GPU_IRQ_ACTIVE %s/g2.bin",
		  T, dir, dir) == 1 && one_line_err() && strstr(errbuf, "part_layout") &&
	      !strstr(errbuf, "give its layout") && !strstr(errbuf, "with --layout"),
	      "counter the layout leaves out: %s", errbuf);
	CHECK(run("%s decode --gpu g2 --cores 0x3 --l2 1 --layout %s/part_layout -e MaliGPUIRQUtil %s/g2.bin",
		  T, dir, dir) == 1 && one_line_err() && strstr(errbuf, "part_layout") &&
	      !strstr(errbuf, "with --layout"), "metric the layout cannot feed: %s", errbuf);
	/* a layout for another GPU: the hint is still right */
	write_file("g52_layout", "mali-perfcnt-db 1\ngpu g52 Mali-G52\nblock jm\n6 GPU_ACTIVE\n");
	CHECK(run("%s decode --gpu g2 --cores 0x3 --l2 1 --layout %s/g52_layout -e GPU_IRQ_ACTIVE %s/g2.bin",
		  T, dir, dir) == 1 && strstr(errbuf, "--layout FILE"), "other GPU's layout: %s", errbuf);
	/* without a layout the hint is right */
	CHECK(run("%s decode --gpu g2 --cores 0x3 --l2 1 -e GPU_IRQ_ACTIVE %s/g2.bin", T, dir) == 1 &&
	      strstr(errbuf, "--layout FILE"), "no layout: %s", errbuf);
}

/* --l2 0 and metric files for GPUs the database does not know are errors */
static void test_device_args(void)
{
	CHECK(setup() == 0, "setup failed");
	CHECK(run("%s decode --gpu g52 --cores 0xb --l2 0 %s/dump.bin", T, dir) == 1 && one_line_err() &&
	      strstr(errbuf, "--l2 0"), "--l2 0: %s", errbuf);
	/* a Mali-G52 has at most 6 shader cores */
	CHECK(run("%s decode --gpu g52 --cores 0x7f --l2 2 %s/dump.bin", T, dir) == 1 && one_line_err() &&
	      strstr(errbuf, "at most 6"), "--cores 0x7f on a G52: %s", errbuf);
	/* a layout may say more for its GPU */
	write_file("cores_layout", "mali-perfcnt-db 1\ngpu g52 Mali-G52\nmax-cores 8\nblock jm\n6 GPU_ACTIVE\n");
	CHECK(run("%s decode --gpu g52 --cores 0x7f --l2 2 --layout %s/cores_layout -e GPU_ACTIVE -f csv "
		  "%s/dump.bin", T, dir, dir) == 1 && strstr(errbuf, "not a whole number"),
	      "max-cores of a layout: %s", errbuf);
	write_file("met_bad", "mali-perfcnt-db 1\nmetrics mine\n"
		   "metric MyUtil percent g52 = GPU_ACTIVE / 2\n"
		   "metric MyOther percent g52,g9999 = GPU_ACTIVE / 3\n");
	CHECK(run("%s list --gpu g52 --metrics %s/met_bad", T, dir) == 1 && one_line_err() &&
	      strstr(errbuf, "met_bad:4:") && strstr(errbuf, "g9999"), "unknown GPU key: %s", errbuf);
	write_file("met_ok", "mali-perfcnt-db 1\nmetrics mine\n"
		   "metric MyUtil percent G52,bifrost = GPU_ACTIVE / 2\n");
	CHECK(run("%s list --gpu g52 --derived -e MyUtil --metrics - < %s/met_ok", T, dir) == 0 &&
	      strstr(out, "MyUtil"), "known keys, from stdin: %s", errbuf);
}

static void test_fmtcheck_rejects(void)
{
	static const char *const bad_csv[] = { "", "a,b\n1\n", "a,b\n\"x,1\n", "a,a\n1,2\n", "a,b\n1,x\"y\n",
					       "a,b\n1,\xff\n" };
	static const char *const bad_json[] = { "", "[1]\n", "{\"a\":}\n", "{\"a\":1}x\n", "{\"a\":01}\n",
						"{\"a\":\"\\q\"}\n", "{\"a\":1,}\n", "{a:1}\n",
						/* invalid UTF-8: stray continuation, truncated,
						 * overlong, surrogate, beyond U+10FFFF */
						"{\"a\":\"\x80\"}\n", "{\"a\":\"\xc3\"}\n",
						"{\"a\":\"\xc0\xaf\"}\n", "{\"a\":\"\xed\xa0\x80\"}\n",
						"{\"a\":\"\xf4\x90\x80\x80\"}\n" };
	char p[300];

	CHECK(setup() == 0, "setup failed");
	snprintf(p, sizeof(p), "%s/x", dir);
	for (unsigned i = 0; i < sizeof(bad_csv) / sizeof(bad_csv[0]); i++) {
		FILE *f = fopen(p, "w");

		fputs(bad_csv[i], f);
		fclose(f);
		CHECK(run("%s csv %s", fmtcheck(), p) == 1 &&
		      strchr(errbuf, '\n') == errbuf + strlen(errbuf) - 1, "bad csv %u accepted", i);
	}
	for (unsigned i = 0; i < sizeof(bad_json) / sizeof(bad_json[0]); i++) {
		FILE *f = fopen(p, "w");

		fputs(bad_json[i], f);
		fclose(f);
		CHECK(run("%s json %s", fmtcheck(), p) == 1, "bad json %u accepted", i);
	}
	/* valid multi-byte UTF-8 passes */
	CHECK(run("printf '{\"a\":\"\\303\\251\\342\\202\\254\\360\\237\\230\\200\"}\\n' > %s && %s json %s",
		  p, fmtcheck(), p) == 0, "valid UTF-8 rejected: %s", errbuf);
}

static void test_cleanup(void)
{
	if (dir[0])
		CHECK(run("rm -rf %s", dir) == 0, "cleanup");
}

TESTS(tests_tool) = {
	{ "tool: --help pages for every command", test_help_pages },
	{ "tool: each sampling command's page names every option it takes",
	  test_help_names_every_sampling_option },
	{ "tool: -I means the time between samples in every command", test_interval_means_one_thing },
	{ "tool: decode csv/json/text, gpu_info and explicit agree", test_decode_formats },
	{ "tool: several dumps, --sum, -e names/globs/BLOCK:INDEX, -A", test_decode_multi_and_select },
	{ "tool: Mali G2 through a user layout file", test_decode_g2_layout },
	{ "tool: errors are one line with the fix", test_errors_one_line },
	{ "tool: list and info outputs validate", test_list_and_info },
	{ "tool: mpc-fmtcheck rejects malformed CSV and JSON", test_fmtcheck_rejects },
	{ "tool: JSON and CSV are valid UTF-8 whatever the input bytes", test_json_utf8 },
	{ "tool: an infinite derived value is no value in every format", test_infinite_metric },
	{ "tool: layout files are checked; no --layout hint once one is given", test_layout_checks },
	{ "tool: --cores beyond the GPU, --l2 0 and metrics for unknown GPUs are errors", test_device_args },
	{ "tool: cleanup", test_cleanup },
	END_TESTS
};
