/* SPDX-License-Identifier: MIT */
/*
 * libmaliperfcnt - counter database, dump decoder and derived-metric engine
 * for job-manager Arm Mali GPUs, plus device access through the mali_perfcnt
 * DRM driver, upstream panfrost or Arm's kbase.
 *
 * Conventions:
 *  - functions that can fail return 0 or a negative errno value and, when
 *    given a struct mpc_err, leave a one-line message in it saying what was
 *    wrong and how to fix it;
 *  - "no value" (division by zero, counter not collected, unknown input) is
 *    a NaN double; test it with isnan();
 *  - all objects are heap objects owned by the caller; free them with the
 *    matching *_free function. The device description, the dump layout, the
 *    sample and the device are opaque: their layout may change between
 *    releases, read them with the accessors. Nothing is global; the library
 *    is thread-compatible (distinct objects may be used from distinct
 *    threads).
 */
#ifndef MALIPERFCNT_H
#define MALIPERFCNT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define MPC_VERSION		"1.0"
#define MPC_MAX_COUNTERS	128	/* counters per block, Mali G1/G2 */
#define MPC_MAX_MATCH		8
#define MPC_ERR_LEN		320

/** struct mpc_err - the reason of the last failure, one line. */
struct mpc_err {
	int code;			/* negative errno */
	char msg[MPC_ERR_LEN];
};

/*
 * Block kinds. MPC_BLK_KINDS counts them and grows when a kind is added
 * (symbol version LIBMALIPERFCNT_1.1 added the CSF firmware and CSG blocks):
 * size arrays with it, but test for "no such block" with MPC_BLK_NONE,
 * whose value never changes, and treat a kind >= the MPC_BLK_KINDS you were
 * built with as one you do not know. Programs linked before (symbol version
 * LIBMALIPERFCNT_1) keep their answers: only the four kinds they know, 4
 * (their MPC_BLK_KINDS) for "no such block" and for a firmware or CSG block,
 * whose layout slot they see as reserved.
 */
enum mpc_block_kind {
	MPC_BLK_JM = 0,			/* job manager / GPU front-end (CSF: CSHW) */
	MPC_BLK_TILER,
	MPC_BLK_L2,			/* memory system: MMU/L2 */
	MPC_BLK_SHADER,
	MPC_BLK_FW,			/* CSF firmware (kbase kinstr_prfcnt) */
	MPC_BLK_CSG,			/* CSF command stream group, one per CSG slot */
	MPC_BLK_KINDS,
	MPC_BLK_NONE = 0xff		/* no such block */
};

/** mpc_block_name() - "jm", "tiler", "l2", "shader", "fw" or "csg"; "?" if none. */
const char *mpc_block_name(unsigned kind);
/** mpc_block_from_name() - inverse of mpc_block_name(), -1 if unknown. */
int mpc_block_from_name(const char *name);

/* ------------------------------------------------------------------ database */

struct mpc_db;

/** struct mpc_counter_def - one hardware counter of a GPU (counter set 0). */
struct mpc_counter_def {
	const char *name;		/* hardware name, e.g. GPU_ACTIVE */
	const char *lgc;		/* libGPUCounters name or NULL */
	const char *unit;		/* or NULL */
	const char *alias;		/* other hardware spelling or NULL */
	uint8_t kind;			/* enum mpc_block_kind */
	uint8_t shift;			/* value = raw << shift */
	int16_t index;			/* slot in the block, -1 = not known */
};

struct mpc_match {
	uint16_t id, mask;		/* (GPU_ID >> 16) & mask == id */
};

/** struct mpc_gpu_def - what the database knows about one GPU. */
struct mpc_gpu_def {
	const char *key;		/* "g52" */
	const char *name;		/* "Mali-G52" */
	const char *arch;		/* midgard, bifrost, valhall, 5th-gen */
	const char *origin;		/* file it came from */
	unsigned layout;		/* 4 or 5 */
	unsigned counters_per_block;	/* 64 or 128 */
	unsigned bus_beat_bytes;	/* default MALI_CONFIG_EXT_BUS_BYTE_SIZE */
	double neural_accelerators;	/* MALI_CONFIG_NEURAL_ACCELERATOR_COUNT */
	unsigned nmatch;
	struct mpc_match match[MPC_MAX_MATCH];
	unsigned ncounters;
	const struct mpc_counter_def *counters;
	const char *notes;		/* "\n"-separated, or NULL */
	unsigned max_cores;		/* most shader cores a product has, 0 unknown */
};

/** struct mpc_metric_def - a derived metric as written in the database. */
struct mpc_metric_def {
	const char *name;
	const char *unit;
	const char *expr;		/* source text */
	const char *gpus;		/* comma-separated keys/archs, or "*" */
	const char *set;		/* "libgpucounters", "mali-g2", ... */
};

/** mpc_db_new() - an empty database. */
int mpc_db_new(struct mpc_db **db, struct mpc_err *err);
/** mpc_db_new_builtin() - the database compiled into the library. */
int mpc_db_new_builtin(struct mpc_db **db, struct mpc_err *err);
/**
 * mpc_db_add_text() - add one database file (a GPU file or a metrics file).
 * @origin names the text in error messages. A GPU file whose key is already
 * in the database is a user-supplied layout: it replaces the block/index
 * information of that GPU, and names, units and libGPUCounters names missing
 * from it are taken from the existing entry.
 */
int mpc_db_add_text(struct mpc_db *db, const char *origin, const char *text,
		    size_t len, struct mpc_err *err);
/** mpc_db_add_file() - mpc_db_add_text() on the contents of @path. */
int mpc_db_add_file(struct mpc_db *db, const char *path, struct mpc_err *err);
void mpc_db_free(struct mpc_db *db);

unsigned mpc_db_gpu_count(const struct mpc_db *db);
const struct mpc_gpu_def *mpc_db_gpu(const struct mpc_db *db, unsigned i);
/** mpc_db_find_gpu() - by key ("g52"), name ("Mali-G52") or "G52". */
const struct mpc_gpu_def *mpc_db_find_gpu(const struct mpc_db *db, const char *name);
/** mpc_db_match_gpu_id() - recognise a GPU from its raw GPU_ID register. */
const struct mpc_gpu_def *mpc_db_match_gpu_id(const struct mpc_db *db, uint32_t gpu_id);
unsigned mpc_db_metric_count(const struct mpc_db *db);
const struct mpc_metric_def *mpc_db_metric(const struct mpc_db *db, unsigned i);
/** mpc_metric_applies() - does metric @m apply to @gpu (by key or arch)? */
int mpc_metric_applies(const struct mpc_metric_def *m, const struct mpc_gpu_def *gpu);
/** mpc_gpu_find_counter() - by hardware name, alias or libGPUCounters name. */
const struct mpc_counter_def *mpc_gpu_find_counter(const struct mpc_gpu_def *gpu,
						   const char *name);

/* ------------------------------------------------------- device description */

enum { MPC_LAYOUT_V4 = 4, MPC_LAYOUT_V5 = 5 };

/*
 * struct mpc_desc - the device facts the decoder needs (GPU_ID, core and L2
 * masks, dump geometry, ...). Opaque: made by one of the constructors below,
 * read with the accessors, freed with mpc_desc_free(). A device's own
 * description (mpc_dev_desc()) belongs to the device; mpc_desc_dup() makes a
 * copy that outlives it.
 */
struct mpc_desc;

/**
 * mpc_read_file() - read a whole file ("-": standard input) into a new
 * NUL-terminated buffer, to be freed by the caller. Fails with -EFBIG when
 * it holds more than @limit bytes.
 */
int mpc_read_file(const char *path, size_t limit, char **buf, size_t *len, struct mpc_err *err);

struct drm_mali_perfcnt_get_info;

/** mpc_desc_new_from_get_info() - from the GET_INFO ioctl result. */
int mpc_desc_new_from_get_info(const struct drm_mali_perfcnt_get_info *info,
			       struct mpc_desc **out, struct mpc_err *err);
/** mpc_desc_new_from_gpu_info() - from the debugfs gpu_info text; @origin names it in errors. */
int mpc_desc_new_from_gpu_info(const char *text, size_t len, const char *origin,
			       struct mpc_desc **out, struct mpc_err *err);
/** mpc_desc_load_gpu_info() - from a saved gpu_info file ("-": standard input). */
int mpc_desc_load_gpu_info(const char *path, struct mpc_desc **out, struct mpc_err *err);
/**
 * mpc_desc_new_from_gpu() - an explicit description: database GPU, shader
 * core mask, and @l2 = L2 slices (v5) or core groups (v4).
 */
int mpc_desc_new_from_gpu(const struct mpc_gpu_def *gpu, uint64_t cores, unsigned l2,
			  struct mpc_desc **out, struct mpc_err *err);
/** mpc_desc_dup() - a copy of @d, owned by the caller. */
int mpc_desc_dup(const struct mpc_desc *d, struct mpc_desc **out, struct mpc_err *err);
void mpc_desc_free(struct mpc_desc *d);

/** mpc_desc_gpu_id() - the raw GPU_ID register (product id in bits 31:16). */
uint32_t mpc_desc_gpu_id(const struct mpc_desc *d);
/** mpc_desc_product() - the product name the driver reports, e.g. "Mali-G52"; "" if none. */
const char *mpc_desc_product(const struct mpc_desc *d);
/** mpc_desc_layout() - the dump layout, MPC_LAYOUT_V4 or MPC_LAYOUT_V5. */
unsigned mpc_desc_layout(const struct mpc_desc *d);
/** mpc_desc_shader_present() - the shader core mask (bit i: core i). */
uint64_t mpc_desc_shader_present(const struct mpc_desc *d);
/** mpc_desc_core_count() - shader cores: the bits of mpc_desc_shader_present(). */
unsigned mpc_desc_core_count(const struct mpc_desc *d);
/** mpc_desc_l2_present() - the L2 (v4: core group) mask. */
uint64_t mpc_desc_l2_present(const struct mpc_desc *d);
/** mpc_desc_nr_l2() - L2 slices (MEM_FEATURES[11:8] + 1). */
unsigned mpc_desc_nr_l2(const struct mpc_desc *d);
/** mpc_desc_nr_core_groups() - core groups (v4; 1 on v5). */
unsigned mpc_desc_nr_core_groups(const struct mpc_desc *d);
/** mpc_desc_nr_shader_blocks() - shader block slots of a dump, absent cores included. */
unsigned mpc_desc_nr_shader_blocks(const struct mpc_desc *d);
/** mpc_desc_nr_blocks() - blocks of a dump, reserved ones included. */
unsigned mpc_desc_nr_blocks(const struct mpc_desc *d);
/**
 * mpc_desc_nr_csf_blocks() - CSF firmware (@kind MPC_BLK_FW) or CSG
 * (MPC_BLK_CSG) blocks a dump has after the shader blocks; 0 for others.
 */
unsigned mpc_desc_nr_csf_blocks(const struct mpc_desc *d, unsigned kind);
/** mpc_desc_counters_per_block() - 64 or 128. */
unsigned mpc_desc_counters_per_block(const struct mpc_desc *d);
/** mpc_desc_dump_size() - bytes of one dump. */
uint32_t mpc_desc_dump_size(const struct mpc_desc *d);
/** mpc_desc_nr_counter_sets() - counter sets the GPU can select (1 or 2). */
unsigned mpc_desc_nr_counter_sets(const struct mpc_desc *d);
/** mpc_desc_l2_features() - the L2_FEATURES register, 0 if not known. */
uint32_t mpc_desc_l2_features(const struct mpc_desc *d);
/** mpc_desc_mem_features() - the MEM_FEATURES register, 0 if not known. */
uint32_t mpc_desc_mem_features(const struct mpc_desc *d);
/** mpc_desc_bus_bytes() - external bus beat size from L2_FEATURES, 0 if not reported. */
unsigned mpc_desc_bus_bytes(const struct mpc_desc *d);
/** mpc_desc_gpu_freq_hz() - the GPU clock rate, 0 when unknown. */
uint64_t mpc_desc_gpu_freq_hz(const struct mpc_desc *d);
/** mpc_desc_uapi_version() - mali_perfcnt's uAPI version, 0 for other sources. */
uint32_t mpc_desc_uapi_version(const struct mpc_desc *d);
/** mpc_desc_caps() - mali_perfcnt's capability bits (GET_INFO caps), 0 for other sources. */
uint64_t mpc_desc_caps(const struct mpc_desc *d);
/*
 * Known only from some sources (the gpu_info text, mali_perfcnt's debugfs):
 * -1 when unknown.
 */
/** mpc_desc_simulated() - 1: the driver's GPU model, 0: real hardware. */
int mpc_desc_simulated(const struct mpc_desc *d);
/** mpc_desc_enabled() - 1 when the counters were enabled as the description was taken. */
int mpc_desc_enabled(const struct mpc_desc *d);
/** mpc_desc_counter_set() - the counter set then selected. */
int mpc_desc_counter_set(const struct mpc_desc *d);
/** mpc_desc_owner() - who then held the counters; "" when unknown. */
const char *mpc_desc_owner(const struct mpc_desc *d);

/* ------------------------------------------------------------ dump decoding */

/*
 * struct mpc_layout - the block slots of a dump of one device description
 * (which block kind and instance each holds). Opaque.
 */
struct mpc_layout;

/** mpc_layout_new() - the block slots of a dump of device @d. */
int mpc_layout_new(const struct mpc_desc *d, struct mpc_layout **out, struct mpc_err *err);
void mpc_layout_free(struct mpc_layout *l);
/** mpc_layout_dump_size() - bytes of one dump. */
uint32_t mpc_layout_dump_size(const struct mpc_layout *l);
/** mpc_layout_counters_per_block() - 64 or 128. */
unsigned mpc_layout_counters_per_block(const struct mpc_layout *l);
/** mpc_layout_nslots() - block slots of a dump, reserved and absent ones included. */
unsigned mpc_layout_nslots(const struct mpc_layout *l);
/** mpc_layout_instances() - present block instances of kind @kind (0 for a bad kind). */
unsigned mpc_layout_instances(const struct mpc_layout *l, unsigned kind);
/**
 * mpc_layout_slot() - block slot @i of a dump (its words start at word
 * i * counters_per_block): 1 and its kind and instance when a block is
 * there, 0 for a reserved slot or an absent core, -EINVAL past the last.
 */
int mpc_layout_slot(const struct mpc_layout *l, unsigned i, unsigned *kind, unsigned *instance);

/*
 * struct mpc_sample - the counters of one or more dumps added up. Opaque.
 * Its blocks are the layout's present block instances, in dump order,
 * numbered 0 .. mpc_sample_nblocks() - 1. A counter's value is the 64-bit sum
 * of its 32-bit words over the dumps added since the last reset, and of its
 * 64-bit values over the session samples added (mpc_sample_add_session()).
 */
struct mpc_sample;

int mpc_sample_new(const struct mpc_layout *l, struct mpc_sample **out, struct mpc_err *err);
/** mpc_sample_reset() - forget the values: the next dump added starts afresh. */
void mpc_sample_reset(struct mpc_sample *s);
void mpc_sample_free(struct mpc_sample *s);
/**
 * mpc_decode() - add one raw dump (exactly mpc_layout_dump_size() bytes) to
 * @s. Headers are checked; on error @s is unchanged.
 */
int mpc_decode(struct mpc_sample *s, const void *dump, size_t len, struct mpc_err *err);
struct mpc_dump_info;
/**
 * mpc_sample_add() - mpc_decode(), and @di (from mpc_dev_sample(); may be
 * NULL) joins the sample's timing: its seqno and timestamp become the
 * sample's, its data flags are OR-ed in, and the first dump after a reset
 * gives the interval start.
 */
int mpc_sample_add(struct mpc_sample *s, const void *dump, size_t len,
		   const struct mpc_dump_info *di, struct mpc_err *err);
/**
 * mpc_sample_add_session() - add one mali_perfcnt uAPI revision 3 session
 * sample (@len bytes, as MALI_PERFCNT_SESSION_IOCTL_SAMPLE wrote it) to
 * @s, made for that device's layout. Its 64-bit values are added exactly,
 * never clamped to 32 bits. Its header's seqno, times and flags join the
 * sample's timing as mpc_sample_add()'s @di would, and are written to @di
 * when not NULL (its start_ns and end_ns are left alone): its data flags
 * have MPC_DATA_SATURATED only when the kernel set it (a hardware interval
 * read 0xffffffff); no value reads MPC_VAL_SATURATED, as the kernel does not
 * say which. -EPROTO for a malformed sample; on error @s is unchanged.
 * Since LIBMALIPERFCNT_1.2.
 */
int mpc_sample_add_session(struct mpc_sample *s, const void *sample, size_t len,
			   struct mpc_dump_info *di, struct mpc_err *err);
/** mpc_sample_layout() - the layout @s was made for. */
const struct mpc_layout *mpc_sample_layout(const struct mpc_sample *s);
/** mpc_sample_ndumps() - dumps added since the last reset; 0 = no values. */
unsigned mpc_sample_ndumps(const struct mpc_sample *s);
/** mpc_sample_seqno() - seqno of the last dump added with timing (0: none). */
uint64_t mpc_sample_seqno(const struct mpc_sample *s);
/** mpc_sample_timestamp_ns() - timestamp_ns of the last dump added with timing (0: none). */
uint64_t mpc_sample_timestamp_ns(const struct mpc_sample *s);
/** mpc_sample_interval_start_ns() - interval_start_ns of the first one (0: not known). */
uint64_t mpc_sample_interval_start_ns(const struct mpc_sample *s);
/** mpc_sample_data_flags() - MPC_DATA_* of the dumps added with timing, OR-ed. */
unsigned mpc_sample_data_flags(const struct mpc_sample *s);

/** mpc_sample_nblocks() - the present block instances of @s. */
unsigned mpc_sample_nblocks(const struct mpc_sample *s);
/** mpc_sample_block_kind() - enum mpc_block_kind of block @b (MPC_BLK_NONE: no such block). */
unsigned mpc_sample_block_kind(const struct mpc_sample *s, unsigned b);
/** mpc_sample_block_instance() - jm 0; tiler/l2/fw/csg N; shader = core bit. */
unsigned mpc_sample_block_instance(const struct mpc_sample *s, unsigned b);
/** mpc_sample_block_timestamp() - header words 0-1 of block @b in the last dump. */
uint64_t mpc_sample_block_timestamp(const struct mpc_sample *s, unsigned b);
/** mpc_sample_block_enable() - AND of block @b's enable masks (header word 2). */
uint32_t mpc_sample_block_enable(const struct mpc_sample *s, unsigned b);

/*
 * A block's power over a sample's interval (mpc_sample_block_power()), as
 * the kernel reports it: mali_perfcnt's and patched panfrost's counter
 * sessions (uAPI revision 3) and kbase's kinstr_prfcnt do; mali_perfcnt's
 * revision 2 ioctls, stock panfrost and kbase's legacy reader do not.
 */
enum mpc_power_state {
	MPC_POWER_UNKNOWN = 0,		/* not reported (or not for every dump added) */
	MPC_POWER_ON = 1,		/* powered all along: its counts are complete */
	MPC_POWER_PARTIAL = 2,		/* powered for part of it: counts of that part */
	MPC_POWER_OFF = 3,		/* powered for none of it: it counted nothing */
};

/**
 * mpc_sample_block_power() - the power of block @b over the dumps added
 * since the last reset: an enum mpc_power_state. The dumps' states joined:
 * the same in each, that one; ON in some and OFF or PARTIAL in others,
 * MPC_POWER_PARTIAL; MPC_POWER_UNKNOWN when a dump added did not say (one
 * given to mpc_decode() or mpc_sample_add(), whose raw dump has no power
 * states, or a backend's that cannot tell), or none was added. The
 * states come with mpc_sample_add_session(), mpc_dev_sample_add() and
 * mpc_dev_stream_next_add(). Returns -EINVAL when @s is NULL, -ERANGE
 * when @b is not below mpc_sample_nblocks(). Since LIBMALIPERFCNT_1.4.
 */
int mpc_sample_block_power(const struct mpc_sample *s, unsigned b);

enum {
	MPC_VAL_OK = 0,
	MPC_VAL_NOT_COLLECTED = 1 << 0,	/* outside an enable mask */
	MPC_VAL_SATURATED = 1 << 1,	/* a raw value was 0xffffffff */
	MPC_VAL_UNKNOWN = 1 << 2,	/* no index for this GPU, no such block */
};

/**
 * mpc_sample_block_value() - counter slot @idx of block @b (no shift
 * applied), summed over the dumps. Returns MPC_VAL_* flags; *@value is 0
 * unless the value is collected.
 */
unsigned mpc_sample_block_value(const struct mpc_sample *s, unsigned b, unsigned idx,
				uint64_t *value);
/**
 * mpc_dump_saturated() - the decoder's saturation test on one raw dump: does
 * a counter (header words excluded) of any of its @nr_blocks blocks of
 * @counters_per_block words read 0xffffffff?
 */
int mpc_dump_saturated(const void *dump, uint32_t nr_blocks, uint32_t counters_per_block);

/**
 * mpc_counter_value() - a counter summed over every instance of its block
 * (or only instance @instance when >= 0), with the shift applied.
 * Returns MPC_VAL_* flags.
 */
unsigned mpc_counter_value(const struct mpc_sample *s, const struct mpc_counter_def *c,
			   int instance, uint64_t *value);
/**
 * mpc_sample_counter() - mpc_counter_value() of the counter of @gpu called
 * @name (hardware name, alias or libGPUCounters name); MPC_VAL_UNKNOWN when
 * @gpu has none.
 */
unsigned mpc_sample_counter(const struct mpc_sample *s, const struct mpc_gpu_def *gpu,
			    const char *name, int instance, uint64_t *value);

/* ----------------------------------------------------------- formula engine */

struct mpc_expr;

/** mpc_expr_parse() - parse an expression: numbers, names, + - * /, min(), max(). */
int mpc_expr_parse(const char *src, struct mpc_expr **out, struct mpc_err *err);
void mpc_expr_free(struct mpc_expr *e);
unsigned mpc_expr_nsyms(const struct mpc_expr *e);
const char *mpc_expr_sym(const struct mpc_expr *e, unsigned i);

enum mpc_config_id {
	MPC_CFG_SHADER_CORE_COUNT,	/* MALI_CONFIG_SHADER_CORE_COUNT */
	MPC_CFG_L2_CACHE_COUNT,		/* MALI_CONFIG_L2_CACHE_COUNT */
	MPC_CFG_EXT_BUS_BYTE_SIZE,	/* MALI_CONFIG_EXT_BUS_BYTE_SIZE */
	MPC_CFG_TIME_SPAN,		/* MALI_CONFIG_TIME_SPAN, seconds */
	MPC_CFG_NEURAL_ACCELERATOR_COUNT, /* MALI_CONFIG_NEURAL_ACCELERATOR_COUNT */
	MPC_CFG_GPU_FREQ_HZ,		/* MPC_CONFIG_GPU_FREQ_HZ (project's own) */
	MPC_CFG_COUNT
};
const char *mpc_config_name(unsigned id);

struct mpc_config {
	double v[MPC_CFG_COUNT];	/* NaN = unknown */
};

/**
 * mpc_config_init() - the constants of device @d running GPU @gpu with a
 * sample interval of @time_span seconds (NaN when unknown):
 * core count = hweight64(shader_present), L2 count = L2 blocks in the dump,
 * bus bytes from L2_FEATURES[31:24] when non-zero else the database value.
 */
void mpc_config_init(struct mpc_config *c, const struct mpc_desc *d,
		     const struct mpc_layout *l, const struct mpc_gpu_def *gpu,
		     double time_span);

struct mpc_prog;

/** struct mpc_metric - a metric as resolved for one device configuration. */
struct mpc_metric {
	const struct mpc_metric_def *def;
	int available;			/* 0: needs something the GPU lacks */
	const char *reason;		/* why not available */
};

/**
 * mpc_prog_new() - resolve every metric of @db that applies to @gpu, once,
 * for a dump layout @l. Expressions with syntax errors make this fail.
 */
int mpc_prog_new(const struct mpc_db *db, const struct mpc_gpu_def *gpu,
		 const struct mpc_layout *l, struct mpc_prog **out, struct mpc_err *err);
void mpc_prog_free(struct mpc_prog *p);
unsigned mpc_prog_count(const struct mpc_prog *p);
const struct mpc_metric *mpc_prog_metric(const struct mpc_prog *p, unsigned i);
/** mpc_prog_find() - index of metric @name, -1 if none. */
int mpc_prog_find(const struct mpc_prog *p, const char *name);
/** mpc_prog_ninsns() - size of the compiled program (for tests and tuning). */
unsigned mpc_prog_ninsns(const struct mpc_prog *p);
/**
 * mpc_prog_eval() - evaluate every metric on @s; out[i] for metric i, NaN for
 * no value or unavailable. @instance < 0 sums all instances; otherwise
 * counters of block kind @kind come from that instance only.
 */
void mpc_prog_eval(struct mpc_prog *p, const struct mpc_sample *s,
		   const struct mpc_config *c, double *out);
void mpc_prog_eval_instance(struct mpc_prog *p, const struct mpc_sample *s,
			    const struct mpc_config *c, unsigned kind, int instance,
			    double *out);

/* ---------------------------------------------------------- device access */

struct mpc_dev;

enum {
	MPC_OPEN_NO_LOAD = 1 << 0,	/* never try to load the kernel module */
	MPC_OPEN_QUIET = 1 << 1,
};

/*
 * Backends: the kernel interfaces the counters are read through.
 *   "mali_perfcnt"  this project's driver (GET_INFO, masks, debugfs);
 *   "panfrost"      upstream panfrost's perfcnt ioctls (unstable_ioctls=Y);
 *   "kbase"         Arm's vendor driver, /dev/mali<N> (kinstr_prfcnt or the
 *                   legacy hwcnt reader).
 */
enum {
	MPC_BE_BLOCK_MASKS = 1 << 0,	/* per-block enable masks */
	MPC_BE_SEQNO = 1 << 1,		/* samples carry a sequence number */
	MPC_BE_KERNEL_TIMESTAMP = 1 << 2, /* the driver times each sample */
	MPC_BE_DEBUGFS = 1 << 3,	/* debugfs gpu_info, perfcnt_dump, owner */
	MPC_BE_RECONFIGURE = 1 << 4,	/* a new ENABLE may change the counter set */
	MPC_BE_PERIODIC = 1 << 5,	/* the kernel samples periodically */
};

/** struct mpc_backend_info - what a backend (on this device) can and cannot do. */
struct mpc_backend_info {
	const char *name;		/* "mali_perfcnt", "panfrost" */
	const char *driver;		/* kernel driver it talks to */
	uint64_t caps;			/* MPC_BE_* */
	/*
	 * Sample at least this often, or 32-bit hardware counters may wrap
	 * within one sample; 0: no need (the driver accumulates).
	 */
	uint64_t max_sample_interval_ns;
	size_t dump_alloc;		/* bytes the kernel may copy out per sample */
	const char *limits[8];		/* what it cannot do, one line each; NULL ends */
	/* the kernel interface used, e.g. "kinstr_prfcnt"; NULL: the driver's only one */
	const char *interface;
};

/* mpc_dump_info.flags: how far a sample's counters can be trusted */
enum {
	MPC_DATA_SATURATED = 1 << 0,	/* a counter read 0xffffffff: a lower bound */
	MPC_DATA_AFTER_RECOVERY = 1 << 1,	/* a GPU reset began the interval: earlier counts lost */
	MPC_DATA_AFTER_POWER_LOSS = 1 << 2,	/* the GPU lost power inside the interval */
	MPC_DATA_FIRST = 1 << 3,	/* the first sample since enable */
	/*
	 * a sample before this one failed after the GPU latched (and cleared)
	 * the counters: what they counted from the sample before it to this
	 * interval's start (interval_start_ns) is lost
	 */
	MPC_DATA_AFTER_LOST = 1 << 4,
	/*
	 * a ring session's ring was full at a period: this sample also holds
	 * the counts of the periods it had no room for (mpc_record.lost), its
	 * interval that much longer; nothing counted is lost
	 */
	MPC_DATA_OVERFLOW = 1 << 5,
	/*
	 * a block was powered for only part of the interval
	 * (MPC_POWER_PARTIAL): its counts are of that part; and a block was
	 * off for all of it (MPC_POWER_OFF): it counted nothing.
	 * mpc_sample_block_power() says which blocks. Backends that report
	 * block power states only (enum mpc_power_state). Since
	 * LIBMALIPERFCNT_1.4.
	 */
	MPC_DATA_POWER_PARTIAL = 1 << 6,
	MPC_DATA_POWER_OFF = 1 << 7,
};

/** struct mpc_dump_info - when a sample was taken (CLOCK_MONOTONIC_RAW). */
struct mpc_dump_info {
	uint64_t seqno;			/* 0 when the backend has none */
	uint64_t timestamp_ns;		/* best estimate of when the GPU latched it */
	uint64_t start_ns, end_ns;	/* interval known to hold that moment */
	/*
	 * start of the span the counters cover (the previous sample, the
	 * enable, or a recovery); 0 when the backend cannot tell
	 */
	uint64_t interval_start_ns;
	unsigned flags;			/* MPC_DATA_* */
};

/** mpc_backend_count(), mpc_backend_name() - the backends, in selection order. */
unsigned mpc_backend_count(void);
const char *mpc_backend_name(unsigned i);

/**
 * mpc_dev_open_backend() - open @path, or find the first usable device of
 * backend @backend (NULL: of any backend). Without @path, every backend lists
 * its devices (render nodes by DRM driver name) in path order; the first one
 * that opens and could enable its counters is chosen (else the first that
 * opened). When none exists, the mali_perfcnt module is loaded with libkmod
 * unless MPC_OPEN_NO_LOAD or @backend names another backend.
 */
int mpc_dev_open_backend(const char *backend, const char *path, unsigned flags,
			 struct mpc_dev **out, struct mpc_err *err);
/** mpc_dev_open() - mpc_dev_open_backend() of any backend. */
int mpc_dev_open(const char *path, unsigned flags, struct mpc_dev **out, struct mpc_err *err);
/** mpc_dev_backend() - the backend of @d, its capabilities and limits. */
const struct mpc_backend_info *mpc_dev_backend(const struct mpc_dev *d);
/** mpc_dev_driver() - the kernel driver and its version, e.g. "panfrost 1.2.0". */
const char *mpc_dev_driver(const struct mpc_dev *d);
/**
 * mpc_dev_usable() - 0 when the counters could be enabled as far as can be
 * told without taking them; else the error ENABLE would give.
 */
int mpc_dev_usable(struct mpc_dev *d, struct mpc_err *err);
void mpc_dev_close(struct mpc_dev *d);
const char *mpc_dev_path(const struct mpc_dev *d);
/** mpc_dev_fd() - the device's file descriptor, -1 if the backend has none. */
int mpc_dev_fd(const struct mpc_dev *d);
/** mpc_dev_desc() - the device's description (GET_INFO, GET_PARAM, ...). */
const struct mpc_desc *mpc_dev_desc(const struct mpc_dev *d);
/** mpc_dev_debugfs() - the device's debugfs directory, or NULL. */
const char *mpc_dev_debugfs(const struct mpc_dev *d);
/** mpc_dev_owner() - who holds the counters ("" when debugfs cannot tell). */
void mpc_dev_owner(const struct mpc_dev *d, char *out, size_t n);

struct mpc_enable {
	unsigned counter_set;
	int use_masks;
	uint32_t jm, tiler, shader, l2;
};
int mpc_dev_enable(struct mpc_dev *d, const struct mpc_enable *cfg, struct mpc_err *err);
int mpc_dev_disable(struct mpc_dev *d, struct mpc_err *err);
/** mpc_dev_dump() - one sample into @buf (dump_size bytes). */
int mpc_dev_dump(struct mpc_dev *d, void *buf, size_t len, uint64_t *seqno,
		 uint64_t *timestamp_ns, struct mpc_err *err);
/**
 * mpc_dev_sample() - one sample into @buf (dump_size bytes), with its timing.
 * A dump's words are 32 bits: where the driver counts in 64 bits (mali_perfcnt's
 * and panfrost's counter sessions) a sum past 0xffffffff is written as
 * 0xffffffff and the dump flagged MPC_DATA_SATURATED; mpc_dev_sample_add()
 * keeps such sums.
 */
int mpc_dev_sample(struct mpc_dev *d, void *buf, size_t len, struct mpc_dump_info *di,
		   struct mpc_err *err);
/**
 * mpc_dev_sample_add() - one sample of @d added to @s (made for the layout
 * of mpc_dev_desc()), with its timing written to @di (may be NULL): what
 * mpc_dev_sample() then mpc_sample_add() do, but a counter session's 64-bit
 * sums are added exactly (mpc_sample_add_session()). On error @s is
 * unchanged. Since LIBMALIPERFCNT_1.2.
 */
int mpc_dev_sample_add(struct mpc_dev *d, struct mpc_sample *s, struct mpc_dump_info *di,
		       struct mpc_err *err);
/*
 * Kernel-timed sampling (backends with MPC_BE_PERIODIC: mali_perfcnt's
 * sampling stream). The stream owns the counters: start it instead of
 * mpc_dev_enable().
 */
enum mpc_record_type { MPC_REC_SAMPLE = 1, MPC_REC_LOST = 2, MPC_REC_ERROR = 3 };
/** struct mpc_record - one record of a stream (CLOCK_MONOTONIC_RAW times). */
struct mpc_record {
	unsigned type;			/* enum mpc_record_type */
	unsigned data_flags;		/* MPC_DATA_*, SAMPLE records */
	int error;			/* ERROR: negative errno of the failed sample */
	uint64_t seqno;
	uint64_t start_ns, end_ns;	/* the interval covered (LOST: dropped) */
	/*
	 * LOST: samples dropped; SAMPLE of a v3 session (MPC_DATA_OVERFLOW):
	 * the periods whose counts it holds besides its own
	 */
	uint64_t lost;
};
/**
 * mpc_dev_stream_start() - the kernel samples every @period_ns (0: on
 * mpc_dev_stream_trigger()) into a ring of @ring records. -EOPNOTSUPP when
 * the backend cannot.
 */
int mpc_dev_stream_start(struct mpc_dev *d, const struct mpc_enable *cfg, uint64_t period_ns,
			 unsigned ring, struct mpc_err *err);
/**
 * mpc_dev_stream_next() - the next record, waiting for it; a SAMPLE's dump
 * goes to @buf (dump_size bytes). -EINTR when a signal interrupted the wait.
 */
int mpc_dev_stream_next(struct mpc_dev *d, void *buf, size_t len, struct mpc_record *rec,
			struct mpc_err *err);
/** mpc_dev_stream_stop() - end the stream and release the counters. */
int mpc_dev_stream_stop(struct mpc_dev *d, struct mpc_err *err);
/**
 * mpc_dev_stream_next_add() - the next record, waiting for it, as
 * mpc_dev_stream_next(); a SAMPLE's counters are added to @s (made for the
 * layout of mpc_dev_desc()): a v3 session's 64-bit values exactly
 * (mpc_sample_add_session()), a 32-bit dump as mpc_sample_add() adds it;
 * with its timing and flags joined to @s's. Other records and errors leave
 * @s unchanged. Since LIBMALIPERFCNT_1.3.
 */
int mpc_dev_stream_next_add(struct mpc_dev *d, struct mpc_sample *s, struct mpc_record *rec,
			    struct mpc_err *err);
/**
 * mpc_dev_stream_kind() - what the kernel's samples come through on @d:
 * in the stream started, or (none started) in the one mpc_dev_stream_start()
 * would start with @period_ns. "v3 session" (mali_perfcnt's and patched
 * panfrost's ring sessions: 64-bit values, periods up to 1 s), "v2 stream"
 * (mali_perfcnt's STREAM_OPEN: 32-bit dumps), another backend's interface
 * (e.g. "kinstr_prfcnt", else its name), or NULL when @d has no kernel
 * stream. Since LIBMALIPERFCNT_1.3.
 */
const char *mpc_dev_stream_kind(const struct mpc_dev *d, uint64_t period_ns);
/** mpc_find_debugfs() - debugfs dir whose name file starts with mali_perfcnt. */
int mpc_find_debugfs(char *out, size_t len);

#ifdef __cplusplus
}
#endif

#endif /* MALIPERFCNT_H */
