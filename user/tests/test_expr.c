// SPDX-License-Identifier: MIT
/* Formula engine on a small hand-made GPU with hand-computed results. */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "test.h"

static const char tst_gpu[] =
	"mali-perfcnt-db 1\n"
	"gpu tst Test-GPU\n"
	"arch testarch\n"
	"match 0x0123\n"
	"layout v5\n"
	"counters-per-block 64\n"
	"bus-beat-bytes 8\n"
	"block jm\n"
	"4 A lgc=MaliA unit=cycles\n"
	"5 B\n"
	"8 C\n"
	"block tiler\n"
	"4 T\n"
	"block l2\n"
	"4 L\n"
	"block shader\n"
	"4 S\n"
	"7 S2 shift=2\n";

static const char tst_metrics[] =
	"mali-perfcnt-db 1\n"
	"metrics t\n"
	"metric Pct percent tst = (A / B) * 100\n"
	"metric Clamp percent tst = max(min((A / B) * 100, 100), 0)\n"
	"metric ClampHi percent tst = max(min((B / A) * 100, 100), 0)\n"
	"metric ClampLo percent tst = max(min(((A - B) / B) * 100, 100), 0)\n"
	"metric Prec cycles tst = 1 + 2 * 3 - 8 / 4 / 2\n"
	"metric Neg cycles tst = -A + -(-B)\n"
	"metric Div0 cycles tst = A / (B - B)\n"
	"metric Sum cycles tst = S\n"
	"metric PerCore percent tst = S / MALI_CONFIG_SHADER_CORE_COUNT\n"
	"metric L2 cycles tst = L / MALI_CONFIG_L2_CACHE_COUNT\n"
	"metric Bus bytes tst = L * MALI_CONFIG_EXT_BUS_BYTE_SIZE\n"
	"metric Rate bytes/second testarch = Bus / MALI_CONFIG_TIME_SPAN\n"
	"metric Mx cycles tst = max(A, B, 3)\n"
	"metric Mn cycles * = min(A, B, T)\n"
	"metric Shifted cycles tst = S2\n"
	"metric NotColl cycles tst = C + 1\n"
	"metric NotCollMax cycles tst = max(C, 1)\n"
	"metric Const cycles tst = 2 * (3 + 4)\n"
	"metric UseMet cycles tst = Pct * 2 + Const\n"
	"metric ByLgc cycles tst = MaliA\n"
	"metric NA cycles tst = MALI_CONFIG_NEURAL_ACCELERATOR_COUNT\n"
	"metric Other cycles g52 = 1\n";

static uint32_t tst_val(unsigned slot, unsigned idx, void *ctx)
{
	unsigned mul = ctx ? *(unsigned *)ctx : 1;

	/* slots: 0 jm, 1 tiler, 2-3 l2, 4.. shader core bit (slot-4) */
	if (slot == 0)
		return mul * (idx == 4 ? 300 : idx == 5 ? 1200 : idx == 8 ? 77 : 0);
	if (slot == 1)
		return mul * (idx == 4 ? 500 : 0);
	if (slot == 2 || slot == 3)
		return mul * (idx == 4 ? (slot == 2 ? 10 : 30) : 0);
	if (idx == 4)
		return mul * (slot == 4 ? 100 : 50);
	if (idx == 7)
		return mul * (slot == 4 ? 3 : 4);
	return 0;
}

struct fix {
	struct mpc_db *db;
	const struct mpc_gpu_def *gpu;
	struct mpc_desc d;
	struct mpc_layout *l;
	struct mpc_sample *s;
	struct mpc_prog *p;
	uint32_t *buf;
	double out[64];
};

static int fix_init(struct fix *f, struct mpc_err *err)
{
	int r;

	memset(f, 0, sizeof(*f));
	if ((r = mpc_db_new(&f->db, err)) ||
	    (r = mpc_db_add_text(f->db, "tst", tst_gpu, strlen(tst_gpu), err)) ||
	    (r = mpc_db_add_text(f->db, "tst-metrics", tst_metrics, strlen(tst_metrics), err)))
		return r;
	f->gpu = mpc_db_find_gpu(f->db, "tst");
	if ((r = mpc_desc_from_gpu(&f->d, f->gpu, 0x5, 2, err)) ||
	    (r = mpc_layout_new(&f->d, &f->l, err)) || (r = mpc_sample_new(f->l, &f->s, err)) ||
	    (r = mpc_prog_new(f->db, f->gpu, f->l, &f->p, err)))
		return r;
	f->buf = calloc(1, f->l->dump_size);
	return f->buf ? 0 : -12;
}

static void fix_free(struct fix *f)
{
	free(f->buf);
	mpc_prog_free(f->p);
	mpc_sample_free(f->s);
	mpc_layout_free(f->l);
	mpc_db_free(f->db);
}

static double get(struct fix *f, const char *name)
{
	int i = mpc_prog_find(f->p, name);

	return i < 0 ? -12345.0 : f->out[i];
}

static int decode_one(struct fix *f, unsigned mul, struct mpc_err *err)
{
	t_fill_dump(f->l, f->buf, 1000, 0xffff, tst_val, &mul);
	f->buf[2] = 0xfffb;	/* jm: counters 8-11 (C) not collected */
	return mpc_decode(f->s, f->buf, f->l->dump_size, err);
}

static void test_hand_computed(void)
{
	struct fix f;
	struct mpc_err err = { 0 };
	struct mpc_config c;
	int r = fix_init(&f, &err);
	static const struct { const char *name; double want; } exp[] = {
		{ "Pct", 25 }, { "Clamp", 25 }, { "ClampHi", 100 }, { "ClampLo", 0 },
		{ "Prec", 6 }, { "Neg", 900 }, { "Div0", NAN }, { "Sum", 150 },
		{ "PerCore", 75 }, { "L2", 20 }, { "Bus", 320 }, { "Rate", 640 },
		{ "Mx", 1200 }, { "Mn", 300 }, { "Shifted", 28 }, { "NotColl", NAN },
		{ "NotCollMax", NAN }, { "Const", 14 }, { "UseMet", 64 }, { "ByLgc", 300 },
		{ "NA", 0 },
	};
	char why[200] = "";

	if (!r)
		r = decode_one(&f, 1, &err);
	if (!r) {
		mpc_config_init(&c, &f.d, f.l, f.gpu, 0.5);
		mpc_prog_eval(f.p, f.s, &c, f.out);
		for (unsigned i = 0; i < sizeof(exp) / sizeof(exp[0]); i++)
			if (!t_close(get(&f, exp[i].name), exp[i].want))
				snprintf(why, sizeof(why), "%s = %g, want %g", exp[i].name,
					 get(&f, exp[i].name), exp[i].want);
		if (mpc_prog_find(f.p, "Other") >= 0)
			snprintf(why, sizeof(why), "metric for g52 applied to tst");
	}
	fix_free(&f);
	CHECK(r == 0, "%s", err.msg);
	CHECK(!why[0], "%s", why);
}

static void test_config_constants(void)
{
	struct fix f;
	struct mpc_err err = { 0 };
	struct mpc_config c;
	int r = fix_init(&f, &err);
	double bus_default = 0, bus_hw = 0, rate_nots = 0, cores = 0, l2 = 0;

	if (!r)
		r = decode_one(&f, 1, &err);
	if (!r) {
		mpc_config_init(&c, &f.d, f.l, f.gpu, NAN);
		cores = c.v[MPC_CFG_SHADER_CORE_COUNT];
		l2 = c.v[MPC_CFG_L2_CACHE_COUNT];
		bus_default = c.v[MPC_CFG_EXT_BUS_BYTE_SIZE];
		mpc_prog_eval(f.p, f.s, &c, f.out);
		rate_nots = get(&f, "Rate");
		f.d.l2_features = 0x07120206;	/* 2^7 = 128-bit bus = 16 bytes */
		mpc_config_init(&c, &f.d, f.l, f.gpu, 1.0);
		bus_hw = c.v[MPC_CFG_EXT_BUS_BYTE_SIZE];
		mpc_prog_eval(f.p, f.s, &c, f.out);
	}
	double bus = get(&f, "Bus");

	fix_free(&f);
	CHECK(r == 0, "%s", err.msg);
	CHECK(cores == 2 && l2 == 2, "cores %g (want 2 = popcount 0x5), l2 %g (want 2)", cores, l2);
	CHECK(bus_default == 8, "bus bytes without L2_FEATURES = %g, want database value 8",
	      bus_default);
	CHECK(bus_hw == 16 && bus == 640, "bus bytes from L2_FEATURES = %g (want 16), Bus = %g", bus_hw,
	      bus);
	CHECK(isnan(rate_nots), "a rate without a time span must have no value, got %g", rate_nots);
}

static void test_accumulate_and_instance(void)
{
	struct fix f;
	struct mpc_err err = { 0 };
	struct mpc_config c;
	int r = fix_init(&f, &err);
	double sum = 0, pct = 0, core2 = 0, pc2 = 0, sum_after_reset = 0;

	if (!r)
		r = decode_one(&f, 1, &err);
	if (!r)
		r = decode_one(&f, 2, &err);
	if (!r) {
		mpc_config_init(&c, &f.d, f.l, f.gpu, 1.0);
		mpc_prog_eval(f.p, f.s, &c, f.out);
		sum = get(&f, "Sum");
		pct = get(&f, "Pct");
		mpc_prog_eval_instance(f.p, f.s, &c, MPC_BLK_SHADER, 2, f.out);
		core2 = get(&f, "Sum");
		pc2 = get(&f, "PerCore");
		mpc_sample_reset(f.s);
		r = decode_one(&f, 1, &err);
		mpc_prog_eval(f.p, f.s, &c, f.out);
		sum_after_reset = get(&f, "Sum");
	}
	fix_free(&f);
	CHECK(r == 0, "%s", err.msg);
	CHECK(sum == 450 && pct == 25, "two samples: Sum %g (want 450) Pct %g (want 25)", sum, pct);
	CHECK(core2 == 150 && pc2 == 75, "core 2 alone: Sum %g (want 150), PerCore %g (want 75)",
	      core2, pc2);
	CHECK(sum_after_reset == 150, "after reset Sum %g, want 150", sum_after_reset);
}

static void test_parse_valid(void)
{
	static const char *ok[] = {
		"1", "1.5", ".5", "2e3", "A", "A+B", " ( A ) ", "max(A)", "min(A,B,C,D)",
		"-A", "--A", "+A", "A*-B", "((((A))))", "max(min((A / B) * 100, 100), 0)",
		"A_1 + _b", "1e-3 * X",
	};
	for (unsigned i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		struct mpc_expr *e;
		struct mpc_err err;
		int r = mpc_expr_parse(ok[i], &e, &err);

		CHECK(r == 0, "'%s' rejected: %s", ok[i], err.msg);
		mpc_expr_free(e);
	}
	struct mpc_expr *e;
	struct mpc_err err;

	CHECK(mpc_expr_parse("A + B * A - max(C, A)", &e, &err) == 0, "%s", err.msg);
	unsigned n = mpc_expr_nsyms(e);
	int names = n == 3 && !strcmp(mpc_expr_sym(e, 0), "A") && !strcmp(mpc_expr_sym(e, 2), "C");

	mpc_expr_free(e);
	CHECK(names, "symbol table: %u names", n);
}

/*
 * The generated code (build/eval_gen.c) against the interpreter, bit for bit,
 * on every product of the built-in database: random counters with many zeros
 * (divisions by zero), a disabled counter group, a second accumulated dump,
 * no time span (NaN config), the whole GPU and one shader core.
 */
static void test_generated_matches_interpreter(void)
{
	struct mpc_db *db;
	struct mpc_err err = { 0 };
	unsigned ng, compiled = 0, evals = 0, bad = 0;
	char first_bad[128] = "";

	CHECK_OK(mpc_db_new_builtin(&db, &err), err);
	ng = mpc_db_gpu_count(db);
	srand(26);
	for (unsigned g = 0; g < ng; g++) {
		const struct mpc_gpu_def *gpu = mpc_db_gpu(db, g);
		struct mpc_desc d;
		struct mpc_layout *l = NULL;
		struct mpc_sample *s = NULL;
		struct mpc_prog *p = NULL;
		uint32_t *dump = NULL;
		double *ref = NULL, *gen = NULL;
		unsigned n;

		if (mpc_desc_from_gpu(&d, gpu, 0xf, 1, &err) || mpc_layout_new(&d, &l, &err) ||
		    mpc_sample_new(l, &s, &err) || mpc_prog_new(db, gpu, l, &p, &err)) {
			CHECK(0, "%s: %s", gpu->name, err.msg);
			goto next;
		}
		compiled += mpc_prog_compiled(p) != 0;
		CHECK(mpc_prog_compiled(p), "%s: no generated code for the built-in program",
		      gpu->name);
		n = mpc_prog_count(p);
		dump = calloc(l->dump_size / 4, sizeof(*dump));
		ref = calloc(n + 1, sizeof(double));
		gen = calloc(n + 1, sizeof(double));
		if (!dump || !ref || !gen)
			goto next;
		d.gpu_freq_hz = 800000000;
		for (unsigned round = 0; round < 24; round++) {
			struct mpc_config c;
			int ndumps = 1 + (round & 1);

			mpc_sample_reset(s);
			for (int k = 0; k < ndumps; k++) {
				for (unsigned i = 0; i < l->dump_size / 4; i++) {
					unsigned r = (unsigned)rand();

					dump[i] = r % 3 == 0 ? 0 : r % 7 == 0 ? 1 : r >> (r & 15);
				}
				for (unsigned b = 0; b < l->nslots; b++) {
					uint32_t *h = dump + (size_t)b * l->counters_per_block;

					h[0] = 0x1000;
					h[1] = 0;
					h[2] = round % 6 == 5 ? 0xfffffffeu : 0xffffffffu;
					h[3] = 0;
				}
				if (mpc_decode(s, dump, l->dump_size, &err)) {
					CHECK(0, "%s: %s", gpu->name, err.msg);
					goto next;
				}
			}
			mpc_config_init(&c, &d, l, gpu, round % 4 == 3 ? 0 : 0.25);
			/* mode 2: the two-lane code, 0: the one this CPU gets (four lanes) */
			for (int im = 0; im < 4; im++) {
				int inst = im / 2 - 1, mode = im & 1 ? 0 : 2;

				mpc_prog_reference = 1;
				mpc_prog_eval_instance(p, s, &c, MPC_BLK_SHADER, inst, ref);
				mpc_prog_reference = mode;
				mpc_prog_eval_instance(p, s, &c, MPC_BLK_SHADER, inst, gen);
				mpc_prog_reference = 0;
				evals++;
				for (unsigned i = 0; i < n; i++)
					if (memcmp(&ref[i], &gen[i], sizeof(double))) {
						if (!bad++)
							snprintf(first_bad, sizeof(first_bad),
								 "%s %s: %.17g vs %.17g", gpu->name,
								 mpc_prog_metric(p, i)->def->name,
								 ref[i], gen[i]);
					}
			}
		}
next:
		free(dump);
		free(ref);
		free(gen);
		mpc_prog_free(p);
		mpc_sample_free(s);
		mpc_layout_free(l);
	}
	mpc_db_free(db);
	CHECK(ng > 20 && compiled == ng, "%u of %u products compiled", compiled, ng);
	CHECK(bad == 0, "%u metric values differ in %u evaluations; first: %s", bad, evals,
	      first_bad);
}

TESTS(tests_expr) = {
	{ "expr: hand-computed results (precedence, clamp, div0, sums, shift)", test_hand_computed },
	{ "expr: MALI_CONFIG constants (cores, L2, bus from L2_FEATURES, time)", test_config_constants },
	{ "expr: accumulation, per-instance view, reset", test_accumulate_and_instance },
	{ "expr: valid formulas parse", test_parse_valid },
	{ "expr: generated code = interpreter, bit for bit, every product",
	  test_generated_matches_interpreter },
	END_TESTS
};
