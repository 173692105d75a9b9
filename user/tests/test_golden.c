// SPDX-License-Identifier: MIT
/*
 * Golden outputs of the per-sample paths: decode + every derived metric, and
 * the Perfetto encoding, for fixed pseudo-random dumps. The files under
 * tests/data were written by the code before the metric engine and the
 * encoder were made faster; the faster code must give the same bytes.
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
		size_t i = 0;

		while (i < len && i < wl && want[i] == got[i])
			i++;
		snprintf(why, wn, "%s differs at byte %zu (%zu bytes, want %zu)", name, i, len, wl);
	}
	free(want);
	return ok ? 0 : -1;
}

/* decode two dumps (the second accumulates, one group disabled) of each case */
static void test_golden_metrics(void)
{
	struct mpc_db *db = t_db();
	struct out o = { 0 };
	char why[200] = "";
	int r = 0;

	o.f = open_memstream(&o.buf, &o.len);
	rng = 20261202;
	for (unsigned ci = 0; ci < ARRAY_SIZE(cases) && !r && o.f; ci++) {
		const struct gcase *gc = &cases[ci];
		const struct mpc_gpu_def *g = mpc_db_find_gpu(db, gc->gpu);
		struct mpc_desc d;
		struct mpc_layout *l = NULL;
		struct mpc_sample *s = NULL;
		struct mpc_prog *p = NULL;
		struct mpc_config c;
		struct mpc_err err;
		uint32_t *dump = NULL;
		double *out = NULL;
		uint32_t full = g && g->counters_per_block == 128 ? 0xffffffffu : 0xffffu;

		r = !g || mpc_desc_from_gpu(&d, g, gc->cores, gc->l2, &err) ||
		    mpc_layout_new(&d, &l, &err) || mpc_sample_new(l, &s, &err) ||
		    mpc_prog_new(db, g, l, &p, &err);
		if (!r) {
			d.gpu_freq_hz = 800000000;
			dump = malloc(l->dump_size);
			out = calloc(mpc_prog_count(p) + 1, sizeof(double));
			r = !dump || !out;
		}
		mpc_config_init(&c, &d, l, g, 0.05);
		for (unsigned pass = 0; pass < 3 && !r; pass++) {
			if (pass < 2) {
				t_fill_dump(l, dump, 1000 + pass, pass ? full & ~0x4u : full, gval, NULL);
				r = mpc_decode(s, dump, l->dump_size, &err);
				if (r)
					break;
			}
			fprintf(o.f, "%s pass %u\n", gc->gpu, pass);
			if (pass < 2) {
				mpc_prog_eval(p, s, &c, out);
			} else {
				/* one shader core on its own */
				mpc_prog_eval_instance(p, s, &c, MPC_BLK_SHADER, 2, out);
			}
			for (unsigned i = 0; i < mpc_prog_count(p); i++)
				fprintf(o.f, "%s %a\n", mpc_prog_metric(p, i)->def->name, out[i]);
			for (unsigned i = 0; i < g->ncounters && pass < 2; i++) {
				uint64_t v;
				unsigned fl = mpc_counter_value(s, &g->counters[i], -1, &v);

				fprintf(o.f, "%s %llu %u\n", g->counters[i].name, (unsigned long long)v, fl);
			}
		}
		free(dump);
		free(out);
		mpc_prog_free(p);
		mpc_sample_free(s);
		mpc_layout_free(l);
	}
	mpc_db_free(db);
	if (o.f)
		fclose(o.f);
	CHECK(!r && o.buf, "setup failed for a golden case");
	r = compare("golden-metrics.txt", o.buf, o.len, why, sizeof(why));
	free(o.buf);
	CHECK(r != -2, "no %s", t_data("golden-metrics.txt"));
	CHECK(r == 0, "%s", why[0] ? why : "golden-metrics.txt: write failed");
}

/* every counter and metric of the G78 case, as the benchmark writes them */
static void test_golden_perfetto(void)
{
	struct mpc_db *db = t_db();
	const struct mpc_gpu_def *g = mpc_db_find_gpu(db, "g78");
	struct mpc_desc d;
	struct mpc_layout *l = NULL;
	struct mpc_sample *s = NULL;
	struct mpc_prog *p = NULL;
	struct mpc_config c;
	struct mpc_err err;
	uint32_t *dump = NULL;
	double *out = NULL;
	struct pf_value *v = NULL;
	struct out o = { 0 };
	struct pf_trace *tr = NULL;
	char *hex = NULL, why[200] = "";
	unsigned n = 0, nv = 0;
	int r;

	r = !g || mpc_desc_from_gpu(&d, g, 0xffff, 4, &err) || mpc_layout_new(&d, &l, &err) ||
	    mpc_sample_new(l, &s, &err) || mpc_prog_new(db, g, l, &p, &err);
	if (!r) {
		n = mpc_prog_count(p);
		dump = malloc(l->dump_size);
		out = calloc(n + 1, sizeof(double));
		v = calloc(g->ncounters + n, sizeof(*v));
		o.f = open_memstream(&o.buf, &o.len);
		tr = o.f ? pf_trace_new(o.f, 0x4d501234u) : NULL;
		r = !dump || !out || !v || !tr;
	}
	for (unsigned i = 0; !r && i < g->ncounters + n; i++) {
		struct pf_counter_spec sp = { .id = i + 1 };

		sp.name = i < g->ncounters ? g->counters[i].name :
			  mpc_prog_metric(p, i - g->ncounters)->def->name;
		sp.description = i % 3 ? NULL : "a description";
		sp.num[0] = i % 5 == 1 ? PF_UNIT_BYTE : PF_UNIT_NONE;
		sp.den[0] = i % 7 == 2 ? PF_UNIT_SECOND : PF_UNIT_NONE;
		sp.group = (enum pf_group)(i % 7);
		sp.select_by_default = i % 2;
		r = pf_trace_counter(tr, &sp);
	}
	if (!r)
		r = pf_trace_start(tr, 123456789012ull, 987654321ull, 100000, 1000000000);
	d.gpu_freq_hz = 850000000;
	mpc_config_init(&c, &d, l, g, 0.1);
	rng = 4242;
	for (unsigned k = 0; k < 3 && !r; k++) {
		t_fill_dump(l, dump, 5000 + k, 0xffff, gval, NULL);
		mpc_sample_reset(s);
		r = mpc_decode(s, dump, l->dump_size, &err);
		if (r)
			break;
		mpc_prog_eval(p, s, &c, out);
		nv = 0;
		for (unsigned j = 0; j < g->ncounters; j++) {
			uint64_t x;

			mpc_counter_value(s, &g->counters[j], -1, &x);
			v[nv++] = (struct pf_value){ .id = j + 1, .is_int = 1,
						     .i = k == 2 && j == 3 ? -5 : (int64_t)x };
		}
		for (unsigned j = 0; j < n; j++)
			v[nv++] = (struct pf_value){ .id = g->ncounters + j + 1,
						     .d = k == 1 && j == 4 ? NAN : out[j] };
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
	free(dump);
	free(out);
	free(v);
	mpc_prog_free(p);
	mpc_sample_free(s);
	mpc_layout_free(l);
	mpc_db_free(db);
	CHECK(r != -2, "no %s", t_data("golden-perfetto.hex"));
	CHECK(r == 0, "%s", why[0] ? why : "perfetto golden: setup or write failed");
}

TESTS(tests_golden) = {
	{ "golden: decode + every derived metric, byte for byte", test_golden_metrics },
	{ "golden: Perfetto encoding, byte for byte", test_golden_perfetto },
	END_TESTS
};
