/* SPDX-License-Identifier: MIT */
/* Internal helpers of libmaliperfcnt. Not installed. */
#ifndef MPC_INTERNAL_H
#define MPC_INTERNAL_H

#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <stdio.h>

#include "maliperfcnt.h"

struct drm_mali_perfcnt_get_info;

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#if defined(__GNUC__)
#define MPC_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define MPC_PRINTF(a, b)
#endif

/* Set @err (if any) and return @code (a negative errno). */
int mpc_fail(struct mpc_err *err, int code, const char *fmt, ...) MPC_PRINTF(3, 4);
/* the widest vectors of an x86-64 CPU: 2 AVX-512F, 1 AVX2, 0 neither (or not x86-64) */
int mpc_cpu_vectors(void);

/*
 * The opaque objects of maliperfcnt.h. Only the library (and its unit tests
 * and benchmark, built against the static archive) see these definitions.
 */

/* struct mpc_desc - the device facts the decoder needs. */
struct mpc_desc {
	uint32_t gpu_id;
	uint32_t layout;		/* MPC_LAYOUT_V4 or _V5 */
	uint64_t shader_present;
	uint64_t l2_present;
	uint32_t nr_l2;			/* L2 slices (MEM_FEATURES[11:8] + 1) */
	uint32_t nr_core_groups;
	uint32_t nr_shader_blocks;
	uint32_t nr_blocks;
	uint32_t nr_fw, nr_csg;		/* v5: CSF firmware and CSG blocks after the shaders */
	uint32_t counters_per_block;
	uint32_t dump_size;
	uint32_t nr_counter_sets;
	uint32_t l2_features;
	uint32_t mem_features;
	uint32_t uapi_version;
	uint64_t caps;
	uint64_t gpu_freq_hz;		/* 0 = unknown */
	char product[32];
	/* only known from the gpu_info text; -1 / "" when unknown */
	int enabled;
	int counter_set;
	int simulated;
	char owner[64];
};

/* Fill @d in place (the public constructors allocate, then call these). */
int mpc_desc_from_get_info(struct mpc_desc *d, const struct drm_mali_perfcnt_get_info *info,
			   struct mpc_err *err);
/*
 * uAPI revision 3 (v3.c): the dump slot of a session sample's block, -1 if
 * the description has none; a session sample laid out as a dump of @d.
 */
int mpc_v3_slot(const struct mpc_desc *d, uint32_t type, uint32_t inst);
/* The library's MPC_DATA_* of mali_perfcnt's MALI_PERFCNT_DATA_* (every revision) */
unsigned mpc_data_flags_from_uapi(uint32_t data_flags);
struct drm_mali_perfcnt_session_open;
struct drm_mali_perfcnt_ext_set_property;
/*
 * SESSION_OPEN's arguments for @cfg (NULL: every counter of set 0), started
 * and close-on-exec; @p, MPC_V3_OPEN_PROPS properties, holds the masks @o
 * points to, and a period short enough for a GPU clock of @gpu_freq_hz
 * (0: unknown, or a kernel without MALI_PERFCNT_PROP_PERIOD_NS) to count
 * 2^30 cycles at most between two accumulations.
 */
#define MPC_V3_OPEN_PROPS 5
void mpc_v3_open_args(const struct mpc_enable *cfg, uint64_t gpu_freq_hz,
		      struct drm_mali_perfcnt_session_open *o,
		      struct drm_mali_perfcnt_ext_set_property *p);
/*
 * A session sample of @size bytes as a 32-bit dump (for mpc_dev_sample()),
 * with its times and flags in @di: a sum past 32 bits is clamped to
 * 0xffffffff and flags the dump SATURATED. mpc_sample_add_session() keeps
 * the 64-bit values.
 */
int mpc_v3_sample_dump(const struct mpc_desc *d, const void *sample, size_t size, void *dump,
		       size_t len, struct mpc_dump_info *di, struct mpc_err *err);
int mpc_v3_to_dump(const struct mpc_desc *d, const void *sample, size_t len, void *dump,
		   size_t dump_size, uint32_t *data_flags, struct mpc_err *err);
/*
 * A ring session (uAPI revision 3, MALI_PERFCNT_PROP_PERIOD_NS and
 * MALI_PERFCNT_PROP_RING_SAMPLES): SESSION_OPEN's arguments as
 * mpc_v3_open_args()'s with the kernel sampling every @period_ns into a
 * ring of @ring samples (@p: MPC_V3_RING_PROPS properties), and the
 * samples read() from its fd, whole, several at a time.
 */
#define MPC_V3_RING_PROPS 6
void mpc_v3_ring_args(const struct mpc_enable *cfg, uint64_t period_ns, unsigned ring,
		      struct drm_mali_perfcnt_session_open *o,
		      struct drm_mali_perfcnt_ext_set_property *p);
struct mpc_v3_ring {
	int fd;
	uint32_t sample_size;		/* GET_INFO_V3's */
	size_t len, off, cap;		/* read, handed out, allocated */
	unsigned char *buf;
};
/* Take session fd @fd (closed by mpc_v3_ring_fini()); -ENOMEM */
int mpc_v3_ring_init(struct mpc_v3_ring *r, int fd, uint32_t sample_size);
void mpc_v3_ring_fini(struct mpc_v3_ring *r);
/*
 * The next sample (*@sample, *@size bytes, valid until the next call),
 * waiting for one: 0, -EPROTO for a malformed one (@err says so), or
 * read()'s negative errno, @err untouched, for the backend to explain.
 */
int mpc_v3_ring_next(struct mpc_v3_ring *r, const void **sample, size_t *size,
		     struct mpc_err *err);
/* A stream record of a ring's @sample (lost: the periods it stands for besides its own) */
void mpc_v3_ring_record(const void *sample, struct mpc_record *rec);
/* @di joins @s's timing, as mpc_sample_add() does (decode.c) */
void mpc_sample_join(struct mpc_sample *s, const struct mpc_dump_info *di);
/*
 * Block power states (decode.c): @a and @b of two intervals joined, and
 * mpc_sample_add() of a dump whose block in slot i had power state
 * @slot_power[i] (enum mpc_power_state; NULL: not known, as mpc_sample_add())
 */
unsigned mpc_power_join(unsigned a, unsigned b);
int mpc_sample_add_power(struct mpc_sample *s, const void *dump, size_t len,
			 const struct mpc_dump_info *di, const uint8_t *slot_power,
			 struct mpc_err *err);
/*
 * The library's MPC_DATA_* of a session sample (v3.c): of its header's
 * MALI_PERFCNT_DATA_* @uapi_flags, and MPC_DATA_POWER_PARTIAL and
 * MPC_DATA_POWER_OFF of its blocks' power states (as far as its @size
 * bytes hold whole block headers)
 */
unsigned mpc_v3_data_flags(const void *sample, size_t size, uint32_t uapi_flags);
int mpc_desc_parse_gpu_info(struct mpc_desc *d, const char *text, size_t len,
			    const char *origin, struct mpc_err *err);
int mpc_desc_from_gpu(struct mpc_desc *d, const struct mpc_gpu_def *gpu, uint64_t cores,
		      unsigned l2, struct mpc_err *err);
/*
 * Check a description and fill in the computed fields (core groups, block
 * counts, dump size); fields already set must agree.
 */
int mpc_desc_finish(struct mpc_desc *d, struct mpc_err *err);
/*
 * The LIBMALIPERFCNT_1 versions of mpc_sample_block_kind() and
 * mpc_layout_slot() (decode.c): four kinds, 4 for any other block.
 */
unsigned mpc_sample_block_kind_1(const struct mpc_sample *s, unsigned b);
int mpc_layout_slot_1(const struct mpc_layout *l, unsigned i, unsigned *kind, unsigned *instance);

/* struct mpc_slot - one block slot of a dump. */
struct mpc_slot {
	uint8_t kind;			/* enum mpc_block_kind */
	uint8_t present;		/* 0 = reserved or absent core: ignored */
	uint16_t instance;		/* jm 0; tiler/l2 N; shader = core bit */
	uint32_t word;			/* offset of the block in 32-bit words */
};

struct mpc_layout {
	uint32_t nslots;
	uint32_t counters_per_block;
	uint32_t dump_size;
	uint32_t ninst[MPC_BLK_KINDS];	/* present instances per kind */
	struct mpc_slot *slot;
};

/*
 * struct mpc_block - one present block instance of a sample. Its value of
 * counter i is mpc_block_value(): the latest dump's 32-bit word plus, once
 * the sample's acc_live is set, the 64-bit sum in acc of what came before
 * (earlier dumps, and every session sample's 64-bit values: a session
 * sample adds to acc and leaves 0 in the words).
 */
struct mpc_block {
	uint8_t kind;
	uint8_t power;			/* enum mpc_power_state, when the sample's power_known */
	uint16_t instance;
	uint64_t timestamp;		/* header words 0-1 of the last sample */
	uint32_t enable;		/* AND of the enable masks (word 2) */
	uint64_t saturated[2];		/* bit i: counter i read 0xffffffff */
	const uint32_t *raw;		/* latest dump's words, host order */
	uint64_t *acc;			/* sum of the earlier dumps */
};

struct mpc_sample {
	const struct mpc_layout *layout;
	uint32_t nblocks;		/* present instances, layout order */
	uint32_t nsamples;		/* dumps accumulated; 0 = no values */
	struct mpc_block *blk;
	uint32_t *raw;			/* copy of the latest dump */
	uint64_t *storage;		/* the blocks' acc arrays */
	/* totals over all instances of each kind, kept up to date by mpc_decode() */
	uint64_t *kind_sum;		/* [MPC_BLK_KINDS][counters_per_block] */
	uint32_t kind_enable[MPC_BLK_KINDS];	/* AND of the instances' masks */
	uint64_t kind_saturated[MPC_BLK_KINDS][2];
	int acc_live;			/* the blocks' acc arrays hold values */
	/* timing of the dumps given to mpc_sample_add() since the reset */
	uint64_t seqno, timestamp_ns, interval_start_ns;
	unsigned data_flags;
	int timed;			/* a dump with timing was added */
	/* every dump added since the reset gave its blocks' power states */
	int power_known;
	/* precomputed for the decoder */
	uint32_t *off;			/* word offset of each block in a dump */
	uint32_t **dst;			/* the blocks' raw pointers */
	unsigned nruns;			/* runs of consecutive blocks of one kind */
	struct mpc_run { uint16_t kind, first, n; } *runs;
	/* block of jm/tiler/l2/shader instance i (0-63) plus one, 0: none (session samples) */
	uint16_t by_instance[4][64];
};

/* mpc_block_value() - counter @idx of block @b, accumulated over the dumps. */
static inline uint64_t mpc_block_value(const struct mpc_sample *s, const struct mpc_block *b,
				       unsigned idx)
{
	return (s->acc_live ? b->acc[idx] : 0) + b->raw[idx];
}

/* mpc_block_collected() - was counter @idx enabled in block @b? */
static inline int mpc_block_collected(const struct mpc_block *b, unsigned idx)
{
	return (b->enable >> (idx / 4)) & 1;
}

/* Strict number parsing: whole string, decimal or 0x hex, no sign. */
int mpc_parse_u64(const char *s, uint64_t *out);
int mpc_parse_double(const char *s, double *out);

static inline unsigned mpc_popcount64(uint64_t v)
{
	return (unsigned)__builtin_popcountll(v);
}

static inline unsigned mpc_fls64(uint64_t v)
{
	return v ? 64u - (unsigned)__builtin_clzll(v) : 0;
}

/* Simple string arena: strings live as long as the owning object. */
struct mpc_arena {
	struct mpc_arena_chunk *head;
};
char *mpc_arena_strdup(struct mpc_arena *a, const char *s);
char *mpc_arena_strndup(struct mpc_arena *a, const char *s, size_t n);
void *mpc_arena_alloc(struct mpc_arena *a, size_t n);
void mpc_arena_free(struct mpc_arena *a);

/*
 * Metric programs compiled to C at build time (db/gen/mpc-evalgen.c writes
 * build/eval_gen.c): for each distinct program of the built-in database, its
 * key (mpc_prog_key()) and straight-line functions doing exactly what the
 * interpreter does: load() the inputs from the per-kind sums and run() the
 * scheduled instructions over the same registers, or both in eval(), which
 * keeps the inputs and temporaries in local variables and stores only what
 * is read back, and writes the metrics' results into the caller's array.
 * mpc_prog_new() uses them when its program's key is one of these.
 */
struct mpc_evalgen {
	const uint32_t *key;
	unsigned nkey;
	void (*load)(double *restrict R, const uint64_t *restrict sum);
	void (*run)(double *restrict R);
	void (*run4)(double *restrict R);	/* x86-64 with AVX2, or NULL */
	/* load and run in one, the results into @out, for a sample with every counter collected */
	void (*eval)(double *restrict R, const uint64_t *restrict sum, double *restrict out);
	void (*eval4)(double *restrict R, const uint64_t *restrict sum,	/* AVX2, or NULL */
		      double *restrict out);
};
extern const struct mpc_evalgen mpc_evalgen[];
extern const unsigned mpc_nevalgen;
/* 1: mpc_prog_eval() runs the interpreter only; 2: the generated code without
 * AVX2 (tests compare them) */
extern int mpc_prog_reference;
/* the decoder's widest vectors on x86-64, at most: 2 AVX-512 (the default),
 * 1 AVX2, 0 the portable loops (tests compare them) */
extern int mpc_decode_vec_max;
/* the key of @p's program (malloc'ed) and its length; NULL on failure */
uint32_t *mpc_prog_key(const struct mpc_prog *p, unsigned *n);
/* write @p's functions as C: <prefix>_load, _run, _eval, and _run4, _eval4 for AVX2 */
int mpc_prog_emit_c(const struct mpc_prog *p, FILE *f, const char *prefix);
/* does @p evaluate through generated code? */
int mpc_prog_compiled(const struct mpc_prog *p);

/* Expression internals shared by db.c and expr.c */
struct mpc_expr *mpc_metric_expr(const struct mpc_db *db, unsigned i);

/* Embedded database (generated at build time). */
struct mpc_builtin_file {
	const char *name;
	const char *text;
};
extern const struct mpc_builtin_file mpc_builtin_files[];
extern const unsigned mpc_builtin_nfiles;
/* does a GPU whose origin is @origin come from the built-in database (no layout file)? */
int mpc_origin_builtin(const char *origin);

#endif
