// SPDX-License-Identifier: MIT
/*
 * Fuzz the formula parser and compiler: the input is parsed on its own, then
 * used as a metric of a small GPU (counters A, B, S) and evaluated.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "maliperfcnt.h"
#include "mpc_internal.h"

static const char gpu[] =
	"mali-perfcnt-db 1\ngpu f F\nlayout v5\nblock jm\n4 A lgc=MaliA\n5 B\nblock tiler\n4 T\n"
	"block l2\n4 L\nblock shader\n4 S\n";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct mpc_err err;
	struct mpc_expr *e;
	struct mpc_db *db;
	char *src, *met;
	size_t n;

	if (size > 5000 || memchr(data, '\n', size) || memchr(data, 0, size))
		return 0;
	src = malloc(size + 1);
	memcpy(src, data, size);
	src[size] = 0;
	if (!mpc_expr_parse(src, &e, &err)) {
		for (unsigned i = 0; i < mpc_expr_nsyms(e); i++)
			(void)mpc_expr_sym(e, i);
		mpc_expr_free(e);
	}
	n = size + 200;
	met = malloc(n);
	snprintf(met, n, "mali-perfcnt-db 1\nmetrics f\nmetric Two x f = 2\nmetric X x f = %s\n"
		 "metric Y x f = X + Two\n", src);
	if (mpc_db_new(&db, &err))
		abort();
	if (!mpc_db_add_text(db, "gpu", gpu, strlen(gpu), &err) &&
	    !mpc_db_add_text(db, "met", met, strlen(met), &err)) {
		const struct mpc_gpu_def *g = mpc_db_find_gpu(db, "f");
		struct mpc_desc d;
		struct mpc_layout *l = NULL;
		struct mpc_sample *s = NULL;
		struct mpc_prog *p = NULL;

		if (!mpc_desc_from_gpu(&d, g, 0x7, 1, &err) && !mpc_layout_new(&d, &l, &err) &&
		    !mpc_sample_new(l, &s, &err) && !mpc_prog_new(db, g, l, &p, &err)) {
			uint32_t *buf = calloc(1, l->dump_size);
			double out[8];
			struct mpc_config c;

			for (unsigned i = 0; i < l->dump_size / 4; i++)
				buf[i] = (i % 64) < 4 ? (i % 64 == 2 ? 0xffff : 0) : i * 2654435761u;
			mpc_decode(s, buf, l->dump_size, &err);
			mpc_config_init(&c, &d, l, g, 0.5);
			mpc_prog_eval(p, s, &c, out);
			free(buf);
		}
		mpc_prog_free(p);
		mpc_sample_free(s);
		mpc_layout_free(l);
	}
	mpc_db_free(db);
	free(met);
	free(src);
	return 0;
}
