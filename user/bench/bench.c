// SPDX-License-Identifier: MIT
/*
 * mpc-bench: cost of decoding one dump and evaluating every derived metric,
 * for a Mali-G78 with 16 shader cores and 4 L2 slices (22 blocks, 5632
 * bytes), compared with a memcpy of the same bytes measured in the same run.
 * Then the cost of writing that sample as a Perfetto GpuCounterEvent (every
 * counter of the GPU and every derived metric, tool/perfetto.c) as a ratio
 * to the decode+derive cost. Prints:
 *   decode+derive: N ns/sample, R.Rx memcpy
 *   perfetto encode: N ns/sample (C counters + M metrics), R.Rx decode+derive
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "maliperfcnt.h"
#include "mpc_internal.h"
#include "perfetto.h"

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void die(const char *what, const struct mpc_err *e)
{
	fprintf(stderr, "mpc-bench: %s: %s\n", what, e ? e->msg : "failed");
	exit(1);
}

#define BATCH 1000
#define ROUNDS 40

int main(void)
{
	struct mpc_db *db;
	struct mpc_desc d;
	struct mpc_layout *l;
	struct mpc_sample *s;
	struct mpc_prog *p;
	struct mpc_config c;
	struct mpc_err e;
	const struct mpc_gpu_def *g;
	uint32_t *dump, *copy;
	double *out, best_dec = INFINITY, best_cpy = INFINITY, check = 0;
	unsigned n, words, avail = 0;

	if (mpc_db_new_builtin(&db, &e))
		die("database", &e);
	g = mpc_db_find_gpu(db, "g78");
	if (!g || mpc_desc_from_gpu(&d, g, 0xffff, 4, &e) || mpc_layout_new(&d, &l, &e) ||
	    mpc_sample_new(l, &s, &e) || mpc_prog_new(db, g, l, &p, &e))
		die("setup", &e);
	d.gpu_freq_hz = 850000000;
	words = l->dump_size / 4;
	dump = aligned_alloc(64, l->dump_size);
	copy = aligned_alloc(64, l->dump_size);
	n = mpc_prog_count(p);
	out = calloc(n, sizeof(double));
	if (!dump || !copy || !out)
		die("memory", NULL);
	/* plausible values: every block present, all counters enabled */
	srand(1);
	for (unsigned i = 0; i < words; i++)
		dump[i] = (uint32_t)rand() % (1u << 24);
	for (unsigned b = 0; b < l->nslots; b++) {
		dump[b * 64 + 0] = 0x1000;
		dump[b * 64 + 1] = 0;
		dump[b * 64 + 2] = 0xffff;
		dump[b * 64 + 3] = 0;
	}
	for (unsigned i = 0; i < n; i++)
		avail += mpc_prog_metric(p, i)->available;
	mpc_config_init(&c, &d, l, g, 0.1);

	for (int r = 0; r < ROUNDS; r++) {
		double t0 = now();

		for (int i = 0; i < BATCH; i++) {
			mpc_sample_reset(s);
			if (mpc_decode(s, dump, l->dump_size, &e))
				die("decode", &e);
			mpc_prog_eval(p, s, &c, out);
			__asm__ volatile("" : : "r"(out) : "memory");
		}
		double t1 = now();

		for (int i = 0; i < BATCH; i++) {
			memcpy(copy, dump, l->dump_size);
			__asm__ volatile("" : : "r"(copy) : "memory");
		}
		double t2 = now();

		if (t1 - t0 < best_dec)
			best_dec = t1 - t0;
		if (t2 - t1 < best_cpy)
			best_cpy = t2 - t1;
	}
	for (unsigned i = 0; i < n; i++)
		if (!isnan(out[i]))
			check += out[i];
	if (avail < 60 || check == 0)
		die("too few metrics evaluated", NULL);
	printf("decode+derive: %.0f ns/sample, %.1fx memcpy\n", best_dec / BATCH * 1e9,
	       best_dec / best_cpy);

	/* Perfetto: one event per sample, every counter and metric */
	{
		unsigned nv = g->ncounters + n, k = 0;
		struct pf_value *v = calloc(nv, sizeof(*v));
		FILE *sink = fopen("/dev/null", "wb");
		struct pf_trace *tr = sink ? pf_trace_new(sink, 1) : NULL;
		double best_pf = INFINITY;

		if (!v || !tr)
			die("perfetto setup", NULL);
		for (unsigned i = 0; i < nv; i++) {
			struct pf_counter_spec sp = { .id = i + 1 };

			sp.name = i < g->ncounters ? g->counters[i].name :
				  mpc_prog_metric(p, i - g->ncounters)->def->name;
			if (pf_trace_counter(tr, &sp))
				die("perfetto counters", NULL);
		}
		if (pf_trace_start(tr, 1, 1, 0, 0))
			die("perfetto start", NULL);
		/* the values of the decoded sample, then only the encoding is timed */
		for (unsigned j = 0; j < g->ncounters; j++) {
			uint64_t x;

			mpc_counter_value(s, &g->counters[j], -1, &x);
			v[k++] = (struct pf_value){ .id = j + 1, .is_int = 1, .i = (int64_t)x };
		}
		for (unsigned j = 0; j < n; j++)
			v[k++] = (struct pf_value){ .id = g->ncounters + j + 1, .d = out[j] };
		for (int r = 0; r < ROUNDS; r++) {
			double t0 = now();

			for (int i = 0; i < BATCH; i++) {
				if (pf_trace_sample(tr, (uint64_t)i + 2, v, k))
					die("perfetto sample", NULL);
			}
			double t1 = now();

			if (t1 - t0 < best_pf)
				best_pf = t1 - t0;
		}
		if (pf_trace_end(tr))
			die("perfetto end", NULL);
		fclose(sink);
		free(v);
		printf("perfetto encode: %.0f ns/sample (%u counters + %u metrics), %.1fx "
		       "decode+derive\n", best_pf / BATCH * 1e9, g->ncounters, n, best_pf / best_dec);
	}
	mpc_prog_free(p);
	mpc_sample_free(s);
	mpc_layout_free(l);
	mpc_db_free(db);
	free(dump);
	free(copy);
	free(out);
	return 0;
}
