// SPDX-License-Identifier: MIT
/* Every parser rejects malformed input with one clear line. */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "test.h"

struct bad {
	const char *text;
	const char *want;	/* substring of the message */
};

static void test_bad_formulas(void)
{
	static const struct bad bad[] = {
		{ "", "unexpected end" }, { "1 +", "unexpected end" }, { "(A", "expected ')'" },
		{ "A)", "after the end" }, { "foo(1)", "unknown function" }, { "max()", "unexpected ')'" },
		{ "A B", "after the end" }, { "1..2", "after the end" }, { "1e", "bad number" },
		{ "$x", "unexpected '$'" }, { "min(1,", "unexpected end" }, { "1 // 2", "unexpected '/'" },
		{ "A * (B", "expected ')'" }, { "max(1 2)", "expected ',' or ')'" }, { "3x", "bad number" },
		{ "A + \x01", "unexpected '?'" }, { "1e999", "bad number" },
	};
	char deep[400], longname[100], huge[5000];

	for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct mpc_expr *e = NULL;
		struct mpc_err err = { 0 };
		int r = mpc_expr_parse(bad[i].text, &e, &err);

		CHECK(r < 0 && !e, "'%s' accepted", bad[i].text);
		CHECK(strstr(err.msg, bad[i].want) && t_one_line(err.msg),
		      "'%s': message '%s' lacks '%s'", bad[i].text, err.msg, bad[i].want);
	}
	memset(deep, '(', sizeof(deep));
	deep[sizeof(deep) - 1] = 0;
	memset(longname, 'A', sizeof(longname));
	longname[sizeof(longname) - 1] = 0;
	memset(huge, '1', sizeof(huge));
	huge[sizeof(huge) - 1] = 0;
	const char *extra[] = { deep, longname, huge };

	for (unsigned i = 0; i < 3; i++) {
		struct mpc_expr *e = NULL;
		struct mpc_err err = { 0 };

		CHECK(mpc_expr_parse(extra[i], &e, &err) < 0 && t_one_line(err.msg),
		      "pathological formula %u accepted", i);
	}
	/* 2000 terms: too many nodes */
	char *many = malloc(8000);

	for (int i = 0; i < 2000; i++)
		memcpy(many + 2 * i, "A+", 2);
	many[3999] = 0;
	struct mpc_expr *e = NULL;
	struct mpc_err err = { 0 };
	int r = mpc_expr_parse(many, &e, &err);

	free(many);
	mpc_expr_free(e);
	CHECK(r < 0 && strstr(err.msg, "too large"), "2000-term formula: %s", err.msg);
}

static void test_bad_db_files(void)
{
	static const struct bad bad[] = {
		{ "", "empty" },
		{ "gpu x X\n", "first line must be 'mali-perfcnt-db 1'" },
		{ "mali-perfcnt-db 2\n", "unsupported database format" },
		{ "mali-perfcnt-db 1\n", "no 'gpu' or 'metrics'" },
		{ "mali-perfcnt-db 1\ngpu x X\nblock jm\n4 A\n4 B\n", "share index 4" },
		{ "mali-perfcnt-db 1\ngpu x X\nblock jm\n4 A\nblock l2\n5 A\n", "listed twice" },
		{ "mali-perfcnt-db 1\ngpu x X\nblock jm\n2 A\n", "out of range" },
		{ "mali-perfcnt-db 1\ngpu x X\nblock jm\n64 A\n", "out of range" },
		{ "mali-perfcnt-db 1\ngpu x X\ncounters-per-block 128\nblock jm\n200 A\n", "bad counter index" },
		{ "mali-perfcnt-db 1\ngpu x X\n4 A\n", "before any 'block'" },
		{ "mali-perfcnt-db 1\ngpu x X\nblock gpu\n", "block jm|tiler|l2|shader" },
		{ "mali-perfcnt-db 1\ngpu x X\nblock jm\n4 a_lower\n", "bad counter name" },
		{ "mali-perfcnt-db 1\ngpu x X\nblock jm\n4 A colour=red\n", "unknown attribute" },
		{ "mali-perfcnt-db 1\ngpu x X\nblock jm\n4 A shift=40\n", "bad shift" },
		{ "mali-perfcnt-db 1\ngpu x X\nblock jm\n4 A lgc\n", "use key=value" },
		{ "mali-perfcnt-db 1\ngpu x X\nfrobnicate 1\n", "unknown line" },
		{ "mali-perfcnt-db 1\ngpu X\n", "use 'gpu <key> <name>'" },
		{ "mali-perfcnt-db 1\nlayout v5\n", "before the 'gpu' line" },
		{ "mali-perfcnt-db 1\ngpu x X\nlayout v6\n", "layout v4" },
		{ "mali-perfcnt-db 1\ngpu x X\nlayout v4\ncounters-per-block 128\n", "64 counters per block" },
		{ "mali-perfcnt-db 1\ngpu x X\ncounters-per-block 100\n", "64 or 128" },
		{ "mali-perfcnt-db 1\ngpu x X\nmatch 0x7002/0x0f00\n", "can never match" },
		{ "mali-perfcnt-db 1\ngpu x X\nmatch zz\n", "bad product id" },
		{ "mali-perfcnt-db 1\ngpu x X\ncounter-set 1\n", "only counter set 0" },
		{ "mali-perfcnt-db 1\ngpu x X\ngpu y Y\n", "second 'gpu' line" },
		{ "mali-perfcnt-db 1\ngpu x X\nmetrics m\n", "not allowed in a GPU file" },
		{ "mali-perfcnt-db 1\nmetrics m\nmetric A cycles * = (1\n", "expected ')'" },
		{ "mali-perfcnt-db 1\nmetrics m\nmetric A cycles * (1)\n", "use 'metric <Name>" },
		{ "mali-perfcnt-db 1\nmetric A cycles * = 1\n", "before the 'metrics <set>'" },
		{ "mali-perfcnt-db 1\nmetrics m\nblock jm\n", "not allowed in a metrics file" },
		{ "mali-perfcnt-db 1\ngpu x X\nblock jm\n4 A\x02\n", "control character" },
		{ "mali-perfcnt-db 1\ngpu x X\nconfig MALI_CONFIG_TIME_SPAN 3\n", "come from the device" },
		{ "mali-perfcnt-db 1\ngpu x X\nmax-cores 0\n", "max-cores must be 1..64" },
		{ "mali-perfcnt-db 1\ngpu x X\nmax-cores 65\n", "max-cores must be 1..64" },
	};
	for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct mpc_db *db;
		struct mpc_err err = { 0 };
		int r;

		mpc_db_new(&db, &err);
		r = mpc_db_add_text(db, "f.txt", bad[i].text, strlen(bad[i].text), &err);
		unsigned ng = mpc_db_gpu_count(db), nm = mpc_db_metric_count(db);

		mpc_db_free(db);
		CHECK(r < 0, "case %u accepted:\n%s", i, bad[i].text);
		CHECK(strstr(err.msg, bad[i].want) && strstr(err.msg, "f.txt") && t_one_line(err.msg),
		      "case %u: message '%s' lacks '%s'", i, err.msg, bad[i].want);
		CHECK(ng == 0 && nm == 0, "case %u left %u GPUs %u metrics behind", i, ng, nm);
	}
	/* NUL bytes and overlong lines */
	static const char nul[] = "mali-perfcnt-db 1\ngpu x\0X\n";
	char *longl = malloc(6000);
	struct mpc_db *db;
	struct mpc_err e1 = { 0 }, e2 = { 0 };
	int r1, r2;

	memcpy(longl, "mali-perfcnt-db 1\n# ", 20);
	memset(longl + 20, 'x', 5000);
	longl[5020] = 0;
	mpc_db_new(&db, &e1);
	r1 = mpc_db_add_text(db, "f", nul, sizeof(nul) - 1, &e1);
	r2 = mpc_db_add_text(db, "f", longl, strlen(longl), &e2);
	mpc_db_free(db);
	free(longl);
	CHECK(r1 < 0 && strstr(e1.msg, "NUL"), "NUL byte: %s", e1.msg);
	CHECK(r2 < 0 && strstr(e2.msg, "longer than"), "long line: %s", e2.msg);
}

static void test_bad_gpu_info(void)
{
	static const struct bad bad[] = {
		{ "", "lacks gpu_id" },
		{ "gpu_id 0x72120000\n", "expected 'key: value'" },
		{ "gpu_id: 0x72120000\nlayout: v5\n", "lacks shader_present" },
		{ "gpu_id: 0x72120000\nshader_present: 0xb\n", "lacks layout" },
		{ "gpu_id: zz\n", "not a number" },
		{ "gpu_id: 0x1ffffffff\n", "does not fit 32 bits" },
		{ "gpu_id: 1\ngpu_id: 2\n", "appears twice" },
		{ "gpu_id: 1\nlayout: v7\n", "neither v4 nor v5" },
		{ "gpu_id: 1\nlayout: v5\nshader_present: 0\nnr_l2: 1\n", "shader_present is 0" },
		{ "gpu_id: 1\nlayout: v5\nshader_present: 0xb\n", "lacks nr_l2" },
		{ "gpu_id: 1\nlayout: v4\nshader_present: 0xb\n", "lacks l2_present" },
		{ "gpu_id: 1\nlayout: v5\nshader_present: 0xb\nnr_l2: 17\n", "not 1..16" },
		{ "gpu_id: 1\nlayout: v5\nshader_present: 0xb\nnr_l2: 2\ndump_size: 4096\n",
		  "dump_size is 4096 but" },
		{ "gpu_id: 1\nlayout: v5\nshader_present: 0xb\nnr_l2: 2\nnr_blocks: 7\n", "nr_blocks is 7" },
		{ "gpu_id: 0x72120000\nproduct_id: 0x7213\nlayout: v5\nshader_present: 1\nnr_l2: 1\n",
		  "does not match gpu_id" },
		{ "gpu_id: 1\nlayout: v4\nshader_present: 0x1ff\nl2_present: 1\n", "beyond the 4 per core" },
		{ "gpu_id: 1\nlayout: v5\nshader_present: 1\nnr_l2: 1\ncounters_per_block: 32\n", "not supported" },
		{ "gpu_id: 1\nlayout: v5\nshader_present: 1\nnr_l2: 1\nenabled: 2\n", "0 or 1" },
		{ "gpu_id: 1\nlayout: v5\nshader_present: 1\nnr_l2: 1\ncounter_set: 9\n", "counter_set" },
		{ "Gpu_Id: 1\n", "bad key" },
		{ "gpu_id: 1\x01\n", "control characters" },
		{ "gpu_id: 1\nlayout: v5\nshader_present: 1\nnr_l2: 1\nproduct: 0123456789012345678901234567890123456789\n",
		  "too long" },
	};
	for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct mpc_desc d;
		struct mpc_err err = { 0 };
		int r = mpc_desc_parse_gpu_info(&d, bad[i].text, strlen(bad[i].text), "gi.txt", &err);

		CHECK(r < 0, "case %u accepted: %s", i, bad[i].text);
		CHECK(strstr(err.msg, bad[i].want) && strstr(err.msg, "gi.txt") && t_one_line(err.msg),
		      "case %u: message '%s' lacks '%s'", i, err.msg, bad[i].want);
	}
	struct mpc_desc d;
	struct mpc_err err = { 0 };
	static const char dump_like[] = "\x00\x01\x02";

	CHECK(mpc_desc_parse_gpu_info(&d, dump_like, 3, "gi.txt", &err) < 0 && strstr(err.msg, "NUL"),
	      "binary data accepted as gpu_info");
}

static void test_bad_dumps(void)
{
	struct mpc_db *db = t_db();
	const struct mpc_gpu_def *g = mpc_db_find_gpu(db, "g52");
	struct mpc_desc d;
	struct mpc_layout *l = NULL;
	struct mpc_sample *s = NULL;
	struct mpc_err err = { 0 };
	uint32_t buf[8 * 64];
	char why[1200] = "";
	int r = mpc_desc_from_gpu(&d, g, 0xb, 2, &err);

	if (!r)
		r = mpc_layout_new(&d, &l, &err);
	if (!r)
		r = mpc_sample_new(l, &s, &err);
	if (!r) {
		struct { unsigned word; uint32_t val; size_t len; const char *want; } bad[] = {
			{ 0, 0, 2047, "is 2048 bytes, got 2047" },
			{ 0, 0, 4096, "is 2048 bytes, got 4096" },
			{ 0, 0, 0, "got 0" },
			{ 3, 1, 2048, "block 0 (jm) has a bad header" },
			{ 64 * 7 + 3, 0x10000, 2048, "block 7 (shader.3) has a bad header" },
			{ 64 * 2 + 3, 0xffffffff, 2048, "l2.0" },
		};
		uint32_t big[2048];

		for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]) && !why[0]; i++) {
			t_fill_dump(l, big, 5, 0xffff, NULL, NULL);
			big[bad[i].word] = bad[i].val ? bad[i].val : big[bad[i].word];
			r = mpc_decode(s, big, bad[i].len, &err);
			if (r >= 0 || !strstr(err.msg, bad[i].want) || !t_one_line(err.msg))
				snprintf(why, sizeof(why), "case %u: r=%d '%s' lacks '%s'", i, r, err.msg,
					 bad[i].want);
			if (s->nsamples)
				snprintf(why, sizeof(why), "case %u changed the sample", i);
		}
		/* a hole (absent core 2) may contain anything */
		t_fill_dump(l, buf, 5, 0xffff, NULL, NULL);
		buf[64 * 6 + 3] = 0x12345678;
		r = mpc_decode(s, buf, sizeof(buf), &err);
	}
	mpc_sample_free(s);
	mpc_layout_free(l);
	mpc_db_free(db);
	CHECK(!why[0], "%s", why);
	CHECK(r == 0, "garbage in a hole was not ignored: %s", err.msg);
}

static void test_bad_explicit_desc(void)
{
	struct mpc_db *db = t_db();
	struct mpc_desc d;
	struct mpc_err e1 = { 0 }, e2 = { 0 }, e3 = { 0 };
	int r1 = mpc_desc_from_gpu(&d, mpc_db_find_gpu(db, "g52"), 0, 1, &e1);
	int r2 = mpc_desc_from_gpu(&d, mpc_db_find_gpu(db, "g52"), 1, 17, &e2);
	int r3 = mpc_desc_from_gpu(&d, mpc_db_find_gpu(db, "t720"), 0x1f, 1, &e3);

	mpc_db_free(db);
	CHECK(r1 < 0 && strstr(e1.msg, "--cores"), "no cores: %s", e1.msg);
	CHECK(r2 < 0 && strstr(e2.msg, "1..16"), "17 L2: %s", e2.msg);
	CHECK(r3 < 0 && strstr(e3.msg, "core group"), "5 cores in one v4 group: %s", e3.msg);
}

TESTS(tests_parsers) = {
	{ "parsers: malformed formulas rejected with a clear message", test_bad_formulas },
	{ "parsers: malformed database/layout files rejected", test_bad_db_files },
	{ "parsers: malformed gpu_info text rejected", test_bad_gpu_info },
	{ "parsers: malformed dumps rejected, sample unchanged", test_bad_dumps },
	{ "parsers: impossible explicit descriptions rejected", test_bad_explicit_desc },
	END_TESTS
};
