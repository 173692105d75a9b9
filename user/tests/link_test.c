// SPDX-License-Identifier: MIT
/*
 * A program built against an installed libmaliperfcnt with nothing but
 * `pkg-config --cflags --libs maliperfcnt` (scripts/tests/install_test.sh),
 * using the opaque objects through their accessors only: the builtin
 * database, a G52 description, two synthetic dumps added to one sample, the
 * counter read back by name and by block/index, the sample's timing, one
 * derived metric compiled for the GPU. It checks what it reads and prints
 * one line; exit status 1 on any mismatch. It also calls LIBMALIPERFCNT_1's
 * mpc_sample_block_kind, as a program built before the CSF block kinds does,
 * and LIBMALIPERFCNT_1.4's mpc_sample_block_power.
 */
#include <maliperfcnt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* what a program built against LIBMALIPERFCNT_1 (four block kinds) calls */
unsigned mpc_sample_block_kind_v1(const struct mpc_sample *s, unsigned b);
__asm__(".symver mpc_sample_block_kind_v1, mpc_sample_block_kind@LIBMALIPERFCNT_1");

#define FAIL(...) do { fprintf(stderr, "link_test: " __VA_ARGS__); fputc('\n', stderr); \
		       return 1; } while (0)

int main(void)
{
	struct mpc_db *db;
	struct mpc_desc *d;
	struct mpc_layout *l;
	struct mpc_sample *s;
	struct mpc_prog *p;
	const struct mpc_gpu_def *g;
	const struct mpc_counter_def *c;
	struct mpc_err err;
	uint32_t *dump;
	unsigned cpb, jm = ~0u, kind, inst;
	uint64_t v, bv;

	if (mpc_db_new_builtin(&db, &err) ||
	    !(g = mpc_db_find_gpu(db, "G52")) ||
	    mpc_desc_new_from_gpu(g, 0x3, 1, &d, &err) ||
	    mpc_layout_new(d, &l, &err) ||
	    mpc_sample_new(l, &s, &err) ||
	    mpc_prog_new(db, g, l, &p, &err))
		FAIL("%s", err.msg);
	if (mpc_desc_core_count(d) != 2 || mpc_desc_shader_present(d) != 0x3 ||
	    mpc_desc_nr_l2(d) != 1 || mpc_desc_layout(d) != MPC_LAYOUT_V5 ||
	    mpc_layout_dump_size(l) != mpc_desc_dump_size(d) ||
	    mpc_layout_nslots(l) != mpc_desc_nr_blocks(d) ||
	    mpc_layout_instances(l, MPC_BLK_SHADER) != 2 || mpc_layout_instances(l, MPC_BLK_L2) != 1)
		FAIL("description: cores %u mask 0x%llx l2 %u blocks %u", mpc_desc_core_count(d),
		     (unsigned long long)mpc_desc_shader_present(d), mpc_desc_nr_l2(d),
		     mpc_desc_nr_blocks(d));
	c = mpc_gpu_find_counter(g, "GPU_ACTIVE");
	cpb = mpc_desc_counters_per_block(d);
	if (!c || c->index < 4)
		FAIL("no GPU_ACTIVE in the database's G52");
	dump = calloc(1, mpc_desc_dump_size(d));
	if (!dump)
		FAIL("out of memory");
	/* every block enabled; GPU_ACTIVE's slot of every block counts 1000, then 2000 */
	for (unsigned i = 0; i < mpc_layout_nslots(l); i++) {
		dump[i * cpb + 2] = 0xffffffffu;
		dump[i * cpb + (unsigned)c->index] = 1000;
	}
	for (unsigned n = 1; n <= 2; n++) {
		struct mpc_dump_info di = { .seqno = n, .timestamp_ns = n * 1000000,
					    .interval_start_ns = n * 1000000 - 500000,
					    .flags = n == 1 ? MPC_DATA_FIRST : 0 };

		for (unsigned i = 0; i < mpc_layout_nslots(l); i++)
			dump[i * cpb + (unsigned)c->index] = 1000 * n;
		if (mpc_sample_add(s, dump, mpc_desc_dump_size(d), &di, &err))
			FAIL("%s", err.msg);
	}
	for (unsigned b = 0; b < mpc_sample_nblocks(s); b++)
		if (mpc_sample_block_kind(s, b) == MPC_BLK_JM)
			jm = b;
	if (mpc_sample_counter(s, g, "GPU_ACTIVE", -1, &v) != MPC_VAL_OK ||
	    jm == ~0u || mpc_sample_block_value(s, jm, (unsigned)c->index, &bv) != MPC_VAL_OK ||
	    v != 3000 || bv != 3000 || mpc_sample_ndumps(s) != 2 ||
	    mpc_layout_slot(l, 0, &kind, &inst) != 1 || kind != MPC_BLK_JM)
		FAIL("GPU_ACTIVE %llu, jm block %u value %llu, %u dumps", (unsigned long long)v, jm,
		     (unsigned long long)bv, mpc_sample_ndumps(s));
	/* no such block: MPC_BLK_NONE now, and still 4 for a LIBMALIPERFCNT_1 program */
	if (mpc_sample_block_kind(s, 999) != MPC_BLK_NONE || mpc_sample_block_kind_v1(s, 999) != 4 ||
	    mpc_sample_block_kind_v1(s, jm) != MPC_BLK_JM)
		FAIL("no such block: %u, LIBMALIPERFCNT_1's %u", mpc_sample_block_kind(s, 999),
		     mpc_sample_block_kind_v1(s, 999));
	/* LIBMALIPERFCNT_1.4: a raw dump says nothing of the blocks' power */
	if (mpc_sample_block_power(s, jm) != MPC_POWER_UNKNOWN ||
	    mpc_sample_block_power(s, mpc_sample_nblocks(s)) >= 0)
		FAIL("block power: %d, past the last block %d", mpc_sample_block_power(s, jm),
		     mpc_sample_block_power(s, mpc_sample_nblocks(s)));
	if (mpc_sample_seqno(s) != 2 || mpc_sample_timestamp_ns(s) != 2000000 ||
	    mpc_sample_interval_start_ns(s) != 500000 || mpc_sample_data_flags(s) != MPC_DATA_FIRST)
		FAIL("timing: seqno %llu timestamp %llu start %llu flags 0x%x",
		     (unsigned long long)mpc_sample_seqno(s),
		     (unsigned long long)mpc_sample_timestamp_ns(s),
		     (unsigned long long)mpc_sample_interval_start_ns(s), mpc_sample_data_flags(s));
	printf("%s %s gpus=%u dump_size=%u GPU_ACTIVE=%llu seqno=%llu MpcGPUActiveUtil=%d\n",
	       MPC_VERSION, g->name, mpc_db_gpu_count(db), mpc_layout_dump_size(l),
	       (unsigned long long)v, (unsigned long long)mpc_sample_seqno(s),
	       mpc_prog_find(p, "MpcGPUActiveUtil") >= 0);
	free(dump);
	mpc_prog_free(p);
	mpc_sample_free(s);
	mpc_layout_free(l);
	mpc_desc_free(d);
	mpc_db_free(db);
	return 0;
}
