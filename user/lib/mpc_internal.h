/* SPDX-License-Identifier: MIT */
/* Internal helpers of libmaliperfcnt. Not installed. */
#ifndef MPC_INTERNAL_H
#define MPC_INTERNAL_H

#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "maliperfcnt.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#if defined(__GNUC__)
#define MPC_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define MPC_PRINTF(a, b)
#endif

/* Set @err (if any) and return @code (a negative errno). */
int mpc_fail(struct mpc_err *err, int code, const char *fmt, ...) MPC_PRINTF(3, 4);

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
