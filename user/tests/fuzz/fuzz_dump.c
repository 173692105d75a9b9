// SPDX-License-Identifier: MIT
/*
 * Fuzz the dump decoder: the first 4 bytes pick a GPU of the database, a core
 * mask and an L2 count; the rest is decoded as one or more dumps and every
 * metric is evaluated. Also decodes the input at the size of the layout.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "maliperfcnt.h"
#include "mpc_internal.h"

static struct mpc_db *db;
static struct mpc_prog *progs[64];	/* one per GPU, resolved once */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct mpc_err err;
	struct mpc_desc d;
	struct mpc_layout *l = NULL;
	struct mpc_sample *s = NULL;
	struct mpc_prog *p = NULL;
	struct mpc_config c;
	const struct mpc_gpu_def *g;
	uint64_t cores;
	double *out;

	if (!db && mpc_db_new_builtin(&db, &err))
		abort();
	if (size < 4)
		return 0;
	unsigned gi = data[0] % mpc_db_gpu_count(db);

	g = mpc_db_gpu(db, gi);
	if (!progs[gi] && mpc_prog_new(db, g, NULL, &progs[gi], &err))
		abort();
	p = progs[gi];
	cores = (uint64_t)data[1] | ((uint64_t)(data[2] & 0x3f) << 8);
	if (mpc_desc_from_gpu(&d, g, cores, data[3] % 18, &err))
		return 0;
	d.l2_features = (uint32_t)data[3] << 24;
	if (mpc_layout_new(&d, &l, &err) || mpc_sample_new(l, &s, &err))
		goto out;
	data += 4;
	size -= 4;
	out = calloc(mpc_prog_count(p) + 1, sizeof(double));
	/* the input repeated/truncated to whole dumps, and as is */
	mpc_decode(s, data, size, &err);
	if (size) {
		uint8_t *buf = malloc(l->dump_size);

		for (size_t i = 0; i < l->dump_size; i++)
			buf[i] = data[i % size];
		for (int k = 0; k < 3; k++)
			mpc_decode(s, buf, l->dump_size, &err);
		free(buf);
	}
	mpc_config_init(&c, &d, l, g, 0.01);
	mpc_prog_eval(p, s, &c, out);
	if (s->nblocks)
		mpc_prog_eval_instance(p, s, &c, s->blk[0].kind, s->blk[0].instance, out);
	for (unsigned i = 0; i < g->ncounters; i++) {
		uint64_t v;

		mpc_counter_value(s, &g->counters[i], -1, &v);
	}
	free(out);
out:
	mpc_sample_free(s);
	mpc_layout_free(l);
	return 0;
}
