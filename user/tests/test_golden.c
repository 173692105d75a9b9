// SPDX-License-Identifier: MIT
/*
 * Golden outputs of the per-sample paths: decode + every derived metric, and
 * the Perfetto encoding, for fixed pseudo-random dumps. The files under
 * tests/data were written by the code before the metric engine and the
 * encoder were made faster (golden-products.txt, every product's metrics, by
 * that of 72b766a); the faster code must give the same bytes.
 *
 * MPC_GOLDEN_WRITE=DIR writes the files into DIR instead of comparing (only
 * for an intended change of output, with the reason in the commit).
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test.h"
#include "perfetto.h"

struct gcase {
	const char *gpu;
	uint64_t cores;
	unsigned l2;
};

static const struct gcase cases[] = {
	{ "g78", 0xffff, 4 },	/* the benchmark's sample */
	{ "g52", 0x5, 1 },	/* a hole in the core mask */
	{ "t760", 0xf, 1 },
	{ "t720", 0x3, 1 },	/* layout v4 */
	{ "g1", 0xff, 2 },	/* 128-counter blocks, shifted counters */
};

static uint64_t rng;

static uint32_t next32(void)
{
	rng = rng * 6364136223846793005ull + 1442695040888963407ull;
	return (uint32_t)(rng >> 33);
}

/* mostly plausible values, some large, a few saturated */
static uint32_t gval(unsigned slot, unsigned idx, void *ctx)
{
	uint32_t r = next32();

	(void)slot;
	(void)idx;
	(void)ctx;
	if ((r & 0x3ff) == 7)
		return 0xffffffffu;
	if ((r & 0xff) == 3)
		return 0;
	return (r & 0x100) ? next32() : next32() % (1u << 20);
}

struct out {
	char *buf;
	size_t len;
	FILE *f;
};

/* the length of the word at @s, at most @n bytes */
static int wordlen(const char *s, size_t n)
{
	size_t k = 0;

	while (k < n && k < 40 && s[k] != ' ' && s[k] != '\n')
		k++;
	return (int)k;
}

static int compare(const char *name, const char *got, size_t len, char *why, size_t wn)
{
	const char *wdir = getenv("MPC_GOLDEN_WRITE");
	char *want = NULL;
	size_t wl = 0;
	FILE *f;
	int ok;

	if (wdir && *wdir) {
		char path[512];

		snprintf(path, sizeof(path), "%s/%s", wdir, name);
		f = fopen(path, "w");
		ok = f && fwrite(got, 1, len, f) == len;
		if (f && fclose(f))
			ok = 0;
		return ok ? 0 : -1;
	}
	f = fopen(t_data(name), "r");
	if (!f)
		return -2;
	want = malloc(len + 2);
	if (want)
		wl = fread(want, 1, len + 1, f);
	fclose(f);
	ok = want && wl == len && !memcmp(want, got, len);
	if (!ok && want) {
		size_t i = 0, line = 1, t;

		while (i < len && i < wl && want[i] == got[i])
			line += got[i++] == '\n';
		/* the word that differs: from the space or line start before it */
		for (t = i; t && got[t - 1] != ' ' && got[t - 1] != '\n'; t--)
			;
		snprintf(why, wn, "%s differs at byte %zu, line %zu (%zu bytes, want %zu): "
			 "got \"%.*s\", want \"%.*s\"", name, i, line, len, wl,
			 wordlen(got + t, len - t), got + t, wordlen(want + t, wl - t), want + t);
	}
	free(want);
	return ok ? 0 : -1;
}

/* a GPU's description, dump layout, sample, metric program, config and buffers */
struct gfix {
	struct mpc_desc d;
	struct mpc_layout *l;
	struct mpc_sample *s;
	struct mpc_prog *p;
	struct mpc_config c;
	uint32_t *dump;
	double *out;
};

/* @g with @cores and @l2 at @hz, the config for @span seconds; nonzero on a failure */
static int gfix_new(struct gfix *f, struct mpc_db *db, const struct mpc_gpu_def *g,
		    uint64_t cores, unsigned l2, uint64_t hz, double span)
{
	struct mpc_err err;

	memset(f, 0, sizeof(*f));
	if (!g || mpc_desc_from_gpu(&f->d, g, cores, l2, &err) || mpc_layout_new(&f->d, &f->l, &err) ||
	    mpc_sample_new(f->l, &f->s, &err) || mpc_prog_new(db, g, f->l, &f->p, &err))
		return -1;
	f->d.gpu_freq_hz = hz;
	mpc_config_init(&f->c, &f->d, f->l, g, span);
	f->dump = malloc(f->l->dump_size);
	f->out = calloc(mpc_prog_count(f->p) + 1, sizeof(double));
	return !f->dump || !f->out;
}

static void gfix_free(struct gfix *f)
{
	free(f->dump);
	free(f->out);
	mpc_prog_free(f->p);
	mpc_sample_free(f->s);
	mpc_layout_free(f->l);
}

/*
 * One case: decode two dumps (the second accumulates, one group disabled),
 * evaluating every metric after each, then one shader core on its own.
 * @counters: also every counter's value after each dump, and one metric a
 * line with its name; else each evaluation is one line of values, after a
 * line of the metrics' names.
 */
static int golden_case(FILE *o, struct mpc_db *db, const char *label, const struct mpc_gpu_def *g,
		       uint64_t cores, unsigned l2, int counters)
{
	struct gfix f;
	struct mpc_err err;
	uint32_t full = g->counters_per_block == 128 ? 0xffffffffu : 0xffffu;
	int r = gfix_new(&f, db, g, cores, l2, 800000000, 0.05);

	if (!r && !counters) {
		fprintf(o, "%s metrics:", label);
		for (unsigned i = 0; i < mpc_prog_count(f.p); i++)
			fprintf(o, " %s", mpc_prog_metric(f.p, i)->def->name);
		fputc('\n', o);
	}
	for (unsigned pass = 0; pass < 3 && !r; pass++) {
		if (pass < 2) {
			t_fill_dump(f.l, f.dump, 1000 + pass, pass ? full & ~0x4u : full, gval, NULL);
			r = mpc_decode(f.s, f.dump, f.l->dump_size, &err);
			if (r)
				break;
		}
		fprintf(o, counters ? "%s pass %u\n" : "%s pass %u:", label, pass);
		if (pass < 2) {
			mpc_prog_eval(f.p, f.s, &f.c, f.out);
		} else {
			/* one shader core on its own */
			mpc_prog_eval_instance(f.p, f.s, &f.c, MPC_BLK_SHADER, 2, f.out);
		}
		for (unsigned i = 0; i < mpc_prog_count(f.p); i++)
			if (counters)
				fprintf(o, "%s %a\n", mpc_prog_metric(f.p, i)->def->name, f.out[i]);
			else
				fprintf(o, " %a", f.out[i]);
		if (!counters)
			fputc('\n', o);
		for (unsigned i = 0; i < g->ncounters && pass < 2 && counters; i++) {
			uint64_t v;
			unsigned fl = mpc_counter_value(f.s, &g->counters[i], -1, &v);

			fprintf(o, "%s %llu %u\n", g->counters[i].name, (unsigned long long)v, fl);
		}
	}
	gfix_free(&f);
	return r;
}

/* the output of every case into @name, compared */
static void check_golden(const char *name, int every)
{
	struct mpc_db *db = t_db();
	struct out o = { 0 };
	char why[400] = "";
	int r = 0;

	o.f = open_memstream(&o.buf, &o.len);
	rng = 20261202;
	if (!every)
		for (unsigned ci = 0; ci < ARRAY_SIZE(cases) && !r && o.f; ci++) {
			const struct mpc_gpu_def *g = mpc_db_find_gpu(db, cases[ci].gpu);

			r = !g || golden_case(o.f, db, cases[ci].gpu, g, cases[ci].cores,
						     cases[ci].l2, 1);
		}
	for (unsigned gi = 0; every && gi < mpc_db_gpu_count(db) && !r && o.f; gi++) {
		const struct mpc_gpu_def *g = mpc_db_gpu(db, gi);
		unsigned nc = g->max_cores && g->max_cores < 4 ? g->max_cores : 4;

		/* the second L2 slice is a second core group in a v4 layout */
		r = golden_case(o.f, db, g->name, g, (1u << nc) - 1, 2, 0);
	}
	/* the G2's counters are not public: its formulas over tests/data's layout */
	if (every && !r && o.f) {
		struct mpc_err err;

		r = mpc_db_add_file(db, t_data("g2-test-layout.txt"), &err) ||
		    !mpc_db_find_gpu(db, "g2") ||
		    golden_case(o.f, db, "Mali-G2 (g2-test-layout.txt)", mpc_db_find_gpu(db, "g2"),
				0xf, 2, 0);
	}
	mpc_db_free(db);
	if (o.f)
		fclose(o.f);
	CHECK(!r && o.buf, "setup failed for a golden case");
	r = compare(name, o.buf, o.len, why, sizeof(why));
	free(o.buf);
	CHECK(r != -2, "no %s", t_data(name));
	CHECK(r == 0, "%s (decoder vectors %d)", why[0] ? why : "write failed", mpc_decode_vec_max);
}

/* a few configurations: every counter and every metric, by each decoder */
static void test_golden_metrics(void)
{
	for (mpc_decode_vec_max = 2; mpc_decode_vec_max >= 0; mpc_decode_vec_max--)
		check_golden("golden-metrics.txt", 0);
	mpc_decode_vec_max = 2;
}

/* every product of the database (the G2 with the test layout too): every metric */
static void test_golden_products(void)
{
	check_golden("golden-products.txt", 1);
}

/* every counter and metric of the G78 case, as the benchmark writes them */
static void test_golden_perfetto(void)
{
	struct mpc_db *db = t_db();
	const struct mpc_gpu_def *g = mpc_db_find_gpu(db, "g78");
	struct gfix f;
	struct mpc_err err;
	struct pf_value *v = NULL;
	struct out o = { 0 };
	struct pf_trace *tr = NULL;
	char *hex = NULL, why[200] = "";
	unsigned n = 0, nv = 0;
	int r = gfix_new(&f, db, g, 0xffff, 4, 850000000, 0.1);

	if (!r) {
		n = mpc_prog_count(f.p);
		v = calloc(g->ncounters + n, sizeof(*v));
		o.f = open_memstream(&o.buf, &o.len);
		tr = o.f ? pf_trace_new(o.f, 0x4d501234u) : NULL;
		r = !v || !tr;
	}
	for (unsigned i = 0; !r && i < g->ncounters + n; i++) {
		struct pf_counter_spec sp = { .id = i + 1 };

		sp.name = i < g->ncounters ? g->counters[i].name :
			  mpc_prog_metric(f.p, i - g->ncounters)->def->name;
		sp.description = i % 3 ? NULL : "a description";
		sp.num[0] = i % 5 == 1 ? PF_UNIT_BYTE : PF_UNIT_NONE;
		sp.den[0] = i % 7 == 2 ? PF_UNIT_SECOND : PF_UNIT_NONE;
		sp.group = (enum pf_group)(i % 7);
		sp.select_by_default = i % 2;
		r = pf_trace_counter(tr, &sp);
	}
	if (!r)
		r = pf_trace_start(tr, 123456789012ull, 987654321ull, 100000, 1000000000);
	rng = 4242;
	for (unsigned k = 0; k < 3 && !r; k++) {
		t_fill_dump(f.l, f.dump, 5000 + k, 0xffff, gval, NULL);
		mpc_sample_reset(f.s);
		r = mpc_decode(f.s, f.dump, f.l->dump_size, &err);
		if (r)
			break;
		mpc_prog_eval(f.p, f.s, &f.c, f.out);
		nv = 0;
		for (unsigned j = 0; j < g->ncounters; j++) {
			uint64_t x;

			mpc_counter_value(f.s, &g->counters[j], -1, &x);
			v[nv++] = (struct pf_value){ .id = j + 1, .is_int = 1,
						     .i = k == 2 && j == 3 ? -5 : (int64_t)x };
		}
		for (unsigned j = 0; j < n; j++)
			v[nv++] = (struct pf_value){ .id = g->ncounters + j + 1,
						     .d = k == 1 && j == 4 ? NAN : f.out[j] };
		r = pf_trace_sample(tr, 1000000000ull * (k + 1) + k, v, nv);
	}
	if (tr && pf_trace_end(tr))
		r = -1;
	if (o.f)
		fclose(o.f);
	if (!r && o.buf) {
		hex = malloc(o.len * 2 + o.len / 32 + 2);
		if (hex) {
			size_t h = 0;

			for (size_t i = 0; i < o.len; i++) {
				h += (size_t)sprintf(hex + h, "%02x", (unsigned char)o.buf[i]);
				if (i % 32 == 31 || i + 1 == o.len)
					hex[h++] = '\n';
			}
			r = compare("golden-perfetto.hex", hex, h, why, sizeof(why));
		} else {
			r = -1;
		}
	}
	free(hex);
	free(o.buf);
	free(v);
	gfix_free(&f);
	mpc_db_free(db);
	CHECK(r != -2, "no %s", t_data("golden-perfetto.hex"));
	CHECK(r == 0, "%s", why[0] ? why : "perfetto golden: setup or write failed");
}

TESTS(tests_golden) = {
	{ "golden: decode + every derived metric, byte for byte", test_golden_metrics },
	{ "golden: every product's derived metrics, byte for byte", test_golden_products },
	{ "golden: Perfetto encoding, byte for byte", test_golden_perfetto },
	END_TESTS
};
