// SPDX-License-Identifier: MIT
/*
 * Fuzz the database/layout file parser. The input is added to a database
 * that already holds the shipped Mali-G52 and a few metrics, so that layout
 * overlays (gpu g52 ...) are exercised too; every GPU of the result is then
 * compiled and evaluated on a zero sample.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "maliperfcnt.h"
#include "mpc_internal.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct mpc_err err;
	struct mpc_db *db;

	if (mpc_db_new(&db, &err))
		abort();
	for (unsigned i = 0; i < mpc_builtin_nfiles; i++) {
		const char *n = mpc_builtin_files[i].name;

		if (strstr(n, "mali-g52.txt") || strstr(n, "mali-perfcnt.txt"))
			if (mpc_db_add_text(db, n, mpc_builtin_files[i].text,
					    strlen(mpc_builtin_files[i].text), &err))
				abort();
	}
	static const char met[] = "mali-perfcnt-db 1\nmetrics f\n"
		"metric U percent g52,bifrost = (MaliGPUIRQActiveCy / MaliGPUActiveCy) * 100\n"
		"metric V cycles * = max(GPU_ACTIVE, U, FRAG_ACTIVE) - min(1, 2)\n";
	if (mpc_db_add_text(db, "met", met, strlen(met), &err))
		abort();
	if (!mpc_db_add_text(db, "fuzz", (const char *)data, size, &err)) {
		for (unsigned g = 0; g < mpc_db_gpu_count(db); g++) {
			const struct mpc_gpu_def *gpu = mpc_db_gpu(db, g);
			struct mpc_prog *p;
			struct mpc_desc d;
			struct mpc_layout *l = NULL;
			struct mpc_sample *s = NULL;

			if (mpc_prog_new(db, gpu, NULL, &p, &err))
				continue;
			if (!mpc_desc_from_gpu(&d, gpu, 0x5, 2, &err) && !mpc_layout_new(&d, &l, &err) &&
			    !mpc_sample_new(l, &s, &err)) {
				double *out = calloc(mpc_prog_count(p) + 1, sizeof(double));
				struct mpc_config c;
				void *z = calloc(1, l->dump_size);

				mpc_decode(s, z, l->dump_size, &err);
				mpc_config_init(&c, &d, l, gpu, 1.0);
				mpc_prog_eval(p, s, &c, out);
				free(z);
				free(out);
			}
			mpc_sample_free(s);
			mpc_layout_free(l);
			mpc_prog_free(p);
			mpc_db_match_gpu_id(db, (uint32_t)size << 16);
		}
	}
	mpc_db_free(db);
	return 0;
}
