// SPDX-License-Identifier: MIT
/* Fuzz the debugfs gpu_info parser; a parsed description is laid out and a
 * zero dump decoded with it. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "maliperfcnt.h"
#include "mpc_internal.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct mpc_err err;
	struct mpc_desc d;
	struct mpc_layout *l = NULL;
	struct mpc_sample *s = NULL;

	if (mpc_desc_parse_gpu_info(&d, (const char *)data, size, "fuzz", &err))
		return 0;
	if (d.dump_size > (1u << 20))
		return 0;
	if (!mpc_layout_new(&d, &l, &err) && !mpc_sample_new(l, &s, &err)) {
		void *z = calloc(1, l->dump_size);

		mpc_decode(s, z, l->dump_size, &err);
		free(z);
	}
	mpc_sample_free(s);
	mpc_layout_free(l);
	return 0;
}
