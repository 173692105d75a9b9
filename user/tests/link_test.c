// SPDX-License-Identifier: MIT
/*
 * A program built against an installed libmaliperfcnt with nothing but
 * `pkg-config --cflags --libs maliperfcnt` (scripts/tests/install_test.sh):
 * the builtin database, one GPU, one derived metric compiled for it.
 */
#include <maliperfcnt.h>
#include <stdio.h>

int main(void)
{
	struct mpc_db *db;
	struct mpc_desc d = { 0 };
	struct mpc_layout *l;
	struct mpc_prog *p;
	const struct mpc_gpu_def *g;
	struct mpc_err err;

	if (mpc_db_new_builtin(&db, &err) ||
	    !(g = mpc_db_find_gpu(db, "G52")) ||
	    mpc_desc_from_gpu(&d, g, 0x3, 1, &err) ||
	    mpc_layout_new(&d, &l, &err) ||
	    mpc_prog_new(db, g, l, &p, &err)) {
		fprintf(stderr, "link_test: %s\n", err.msg);
		return 1;
	}
	printf("%s %s gpus=%u dump_size=%u MpcGPUActiveUtil=%d\n", MPC_VERSION, g->name,
	       mpc_db_gpu_count(db), l->dump_size, mpc_prog_find(p, "MpcGPUActiveUtil") >= 0);
	mpc_prog_free(p);
	mpc_layout_free(l);
	mpc_db_free(db);
	return 0;
}
