// SPDX-License-Identifier: MIT
/*
 * The 160 Mali G2 expressions: parsed from our database, resolved through a
 * synthetic G2 layout (tests/data/g2-test-layout.txt), fed by decoded dumps,
 * and compared with values computed independently from the reference's
 * "hardware derivation" text by the generator (tests/data/g2-vectors.txt).
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "test.h"

#define MAXIN 400

struct vec {
	char name[32];
	unsigned nin;
	char in_name[MAXIN][64];
	uint64_t in_val[MAXIN];
};

struct g2fix {
	struct mpc_db *db;
	const struct mpc_gpu_def *gpu;
	struct mpc_desc d;
	struct mpc_layout *l;
	struct mpc_sample *s;
	struct mpc_prog *p;
	double span;
};

static int g2_setup(struct g2fix *f, uint64_t cores, unsigned l2, uint32_t l2f, struct mpc_err *err)
{
	int r;

	memset(f, 0, sizeof(*f));
	f->db = t_db();
	if ((r = mpc_db_add_file(f->db, t_data("g2-test-layout.txt"), err)))
		return r;
	f->gpu = mpc_db_find_gpu(f->db, "g2");
	if ((r = mpc_desc_from_gpu(&f->d, f->gpu, cores, l2, err)))
		return r;
	f->d.l2_features = l2f;
	if ((r = mpc_layout_new(&f->d, &f->l, err)) || (r = mpc_sample_new(f->l, &f->s, err)))
		return r;
	return mpc_prog_new(f->db, f->gpu, f->l, &f->p, err);
}

static void g2_free(struct g2fix *f)
{
	mpc_prog_free(f->p);
	mpc_sample_free(f->s);
	mpc_layout_free(f->l);
	mpc_db_free(f->db);
}

/* Spread each total over 2 dumps and every instance of its block. */
static int feed(struct g2fix *f, const struct vec *v, char *why, size_t wl)
{
	const struct mpc_layout *l = f->l;
	unsigned cpb = l->counters_per_block;
	uint32_t *buf = calloc(1, l->dump_size);
	struct mpc_err err;

	mpc_sample_reset(f->s);
	for (unsigned dump = 0; dump < 2; dump++) {
		for (unsigned s = 0; s < l->nslots; s++) {
			uint32_t *b = buf + (size_t)s * cpb;

			memset(b, 0, cpb * 4);
			b[2] = 0xffffffff;
		}
		for (unsigned i = 0; i < v->nin; i++) {
			const struct mpc_counter_def *c = mpc_gpu_find_counter(f->gpu, v->in_name[i]);
			unsigned n = l->ninst[c ? c->kind : 0], k = 0;

			if (!c || c->index < 0) {
				snprintf(why, wl, "%s not placed by the test layout", v->in_name[i]);
				free(buf);
				return -1;
			}
			uint64_t parts = 2ull * n, each = v->in_val[i] / parts,
				 first = v->in_val[i] - each * (parts - 1);

			for (unsigned s = 0; s < l->nslots; s++) {
				if (!l->slot[s].present || l->slot[s].kind != c->kind)
					continue;
				uint64_t x = (dump == 0 && k == 0) ? first : each;

				if (x > 0xffffffffull) {
					snprintf(why, wl, "%s: part too large", v->in_name[i]);
					free(buf);
					return -1;
				}
				buf[(size_t)s * cpb + (unsigned)c->index] = (uint32_t)x;
				k++;
			}
		}
		if (mpc_decode(f->s, buf, l->dump_size, &err)) {
			snprintf(why, wl, "decode: %s", err.msg);
			free(buf);
			return -1;
		}
	}
	free(buf);
	return 0;
}

static void test_g2_vectors(void)
{
	struct g2fix f;
	struct mpc_err err = { 0 };
	struct vec *v = calloc(1, sizeof(*v));
	double *out = NULL;
	char why[1200] = "", line[512];
	unsigned nvec = 0, nexp = 0, nnone = 0, navail = 0;
	FILE *fp = fopen(t_data("g2-vectors.txt"), "r");
	int r = fp ? g2_setup(&f, 0xb, 2, 0x07000000, &err) : -1;

	if (!fp)
		snprintf(why, sizeof(why), "cannot open %s", t_data("g2-vectors.txt"));
	if (!r) {
		out = calloc(mpc_prog_count(f.p) + 1, sizeof(double));
		for (unsigned i = 0; i < mpc_prog_count(f.p); i++) {
			const struct mpc_metric *m = mpc_prog_metric(f.p, i);

			if (!strcmp(m->def->set, "mali-g2")) {
				if (m->available)
					navail++;
				else if (!why[0])
					snprintf(why, sizeof(why), "%s unavailable: %s", m->def->name, m->reason);
			}
		}
	}
	int evaluated = 0;

	while (!r && !why[0] && fgets(line, sizeof(line), fp)) {
		char a[80], b[80];
		double want;

		line[strcspn(line, "\n")] = 0;
		if (!strncmp(line, "device ", 7)) {
			double span;

			if (!strstr(line, "cores=0xb l2=2 l2_features=0x07000000") ||
			    sscanf(strstr(line, "time_span="), "time_span=%lf", &span) != 1)
				snprintf(why, sizeof(why), "unexpected device line: %s", line);
			f.span = span;
		} else if (sscanf(line, "vector %31s", v->name) == 1) {
			v->nin = 0;
			evaluated = 0;
			nvec++;
		} else if (sscanf(line, "in %63s %79s", a, b) == 2) {
			if (v->nin >= MAXIN)
				snprintf(why, sizeof(why), "too many inputs");
			else {
				strcpy(v->in_name[v->nin], a);
				v->in_val[v->nin++] = strtoull(b, NULL, 10);
			}
		} else if (sscanf(line, "expect %79s %79s", a, b) == 2) {
			if (!evaluated) {
				struct mpc_config c;

				if (feed(&f, v, why, sizeof(why)))
					break;
				mpc_config_init(&c, &f.d, f.l, f.gpu, f.span);
				mpc_prog_eval(f.p, f.s, &c, out);
				evaluated = 1;
			}
			int i = mpc_prog_find(f.p, a);

			want = strcmp(b, "none") ? strtod(b, NULL) : NAN;
			nexp++;
			nnone += isnan(want);
			if (i < 0)
				snprintf(why, sizeof(why), "vector %s: no metric %s", v->name, a);
			else if (!t_close(out[i], want))
				snprintf(why, sizeof(why), "vector %s: %s = %.17g, want %.17g (%s)", v->name, a,
					 out[i], want, mpc_prog_metric(f.p, (unsigned)i)->def->expr);
		}
	}
	if (fp)
		fclose(fp);
	if (!r || fp)
		g2_free(&f);
	free(out);
	free(v);
	CHECK(r == 0, "%s", err.msg);
	CHECK(!why[0], "%s", why);
	CHECK(navail == 160, "%u of 160 G2 expressions available with the test layout", navail);
	CHECK(nvec == 4 && nexp == 4 * 160, "%u vectors, %u expectations", nvec, nexp);
	CHECK(nnone > 0 && nnone < nexp / 2, "%u 'no value' expectations: the vectors look wrong", nnone);
}

/* A few G2 formulas computed by hand. */
static void test_g2_by_hand(void)
{
	struct g2fix f;
	struct mpc_err err = { 0 };
	struct vec *v = calloc(1, sizeof(*v));
	char why[1200] = "";
	int r = g2_setup(&f, 0x3, 1, 0, &err);	/* 2 cores, 1 L2, bus from db (16) */
	static const struct { const char *n; uint64_t v; } in[] = {
		{ "GPU_ACTIVE", 1000000 }, { "GPU_IRQ_ACTIVE", 20000 }, { "TILER_ACTIVE", 2500000 },
		{ "L2_EXT_READ_BEATS", 1000 }, { "L2_EXT_AR_STALL", 300000 },
		{ "SHADER_CORE_ACTIVE", 1500000 }, { "ITER_COMP_ACTIVE", 600000 },
		{ "ITER_COMP_READY_BLOCKED", 100000 }, { "PRIM_VISIBLE", 0 },
	};
	static const struct { const char *n; double want; } exp[] = {
		{ "MaliGPUIRQUtil", 2.0 },		/* 20000 / 1e6 * 100 */
		{ "MaliTilerUtil", 100.0 },		/* 250 % clamped to 100 */
		{ "MaliExtBusRdBy", 16000.0 },		/* 1000 beats * 16 bytes */
		{ "MaliExtBusRdBPS", 32000.0 },		/* / 0.5 s */
		{ "MaliExtBusRdStallRate", 30.0 },	/* 300000 / 1 L2 / 1e6 * 100 */
		{ "MaliClockRatioSC", 75.0 },		/* 1.5e6 / 2 cores / 1e6 * 100 */
		{ "MaliCompQueueUtil", 50.0 },		/* (600000 - 100000) / 1e6 * 100 */
		{ "MaliCompQueueActiveCy", 500000.0 },
		{ "MaliConfigCoreCount", 2.0 }, { "MaliConfigL2CacheCount", 1.0 },
		{ "MaliConfigExtBusBeatSize", 16.0 }, { "MaliGPUWarpSize", 16.0 },
		{ "MaliGeomDVSRate", NAN },		/* 0 visible primitives: no value */
	};

	if (!r) {
		for (unsigned i = 0; i < sizeof(in) / sizeof(in[0]); i++) {
			strcpy(v->in_name[i], in[i].n);
			v->in_val[i] = in[i].v;
		}
		v->nin = sizeof(in) / sizeof(in[0]);
		if (!feed(&f, v, why, sizeof(why))) {
			double *out = calloc(mpc_prog_count(f.p), sizeof(double));
			struct mpc_config c;

			mpc_config_init(&c, &f.d, f.l, f.gpu, 0.5);
			mpc_prog_eval(f.p, f.s, &c, out);
			for (unsigned i = 0; i < sizeof(exp) / sizeof(exp[0]); i++) {
				int k = mpc_prog_find(f.p, exp[i].n);

				if (k < 0 || !t_close(out[k], exp[i].want))
					snprintf(why, sizeof(why), "%s = %g, want %g", exp[i].n,
						 k < 0 ? -1 : out[k], exp[i].want);
			}
			free(out);
		}
	}
	g2_free(&f);
	free(v);
	CHECK(r == 0, "%s", err.msg);
	CHECK(!why[0], "%s", why);
}

TESTS(tests_g2) = {
	{ "g2: all 160 expressions match independently computed vectors", test_g2_vectors },
	{ "g2: hand-computed formulas (utilisation, bandwidth, clamp, no value)", test_g2_by_hand },
	END_TESTS
};
