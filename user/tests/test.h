/* SPDX-License-Identifier: MIT */
/* Minimal TAP-style test harness for the host unit tests. */
#ifndef MPC_TEST_H
#define MPC_TEST_H

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "maliperfcnt.h"
#include "mpc_internal.h"	/* the tests look inside the opaque objects */

struct test {
	const char *name;
	void (*fn)(void);
};

extern char t_diag[1024];
extern int t_failed;

void t_fail(const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Mark the current test skipped (TAP "# SKIP reason"); the caller returns. */
void t_skip(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
extern int t_skipped;

/* Fail the current test (and return from it) unless @cond holds. */
#define CHECK(cond, ...)							\
	do {									\
		if (!(cond)) {							\
			t_fail(__FILE__, __LINE__, __VA_ARGS__);		\
			return;							\
		}								\
	} while (0)

#define CHECK_OK(expr, err)							\
	do {									\
		int r_ = (expr);						\
		CHECK(r_ == 0, "%s failed (%d): %s", #expr, r_, (err).msg);	\
	} while (0)

/* relative comparison; NaN only equals NaN */
static inline int t_close(double a, double b)
{
	if (isnan(a) || isnan(b))
		return isnan(a) && isnan(b);
	if (a == b)
		return 1;
	return fabs(a - b) <= 1e-9 * fmax(fabs(a), fabs(b));
}

/* helpers (test_main.c) */
struct mpc_db *t_db(void);			/* the builtin db, loaded once per call */
const char *t_data(const char *name);	/* path under tests/data */
/* fill a raw dump for layout @l: header + value(slot, index) for each counter */
void t_fill_dump(const struct mpc_layout *l, uint32_t *buf, uint64_t ts, uint32_t enable,
		 uint32_t (*val)(unsigned slot, unsigned idx, void *ctx), void *ctx);
int t_one_line(const char *s);
/* the file @path in @buf, at most @n - 1 bytes, NUL-terminated ("" if unreadable) */
void t_slurp(const char *path, char *buf, size_t n);
/*
 * the blocks of the tool's first JSON sample in @json, "LABEL=POWER" each,
 * space-separated, POWER "-" for a block without one; "" when none
 */
const char *t_json_block_powers(const char *json, char *buf, size_t n);
/*
 * the layout and a sample of @d, and a dump of @d filled by t_fill_dump()
 * decoded into the sample: 0 or the error (in @err); *l and *s, made or
 * not, are the caller's to free
 */
int t_decode_new(const struct mpc_desc *d, uint64_t ts, uint32_t enable,
		 uint32_t (*val)(unsigned slot, unsigned idx, void *ctx), void *ctx,
		 struct mpc_layout **l, struct mpc_sample **s, struct mpc_err *err);

#define TESTS(name) const struct test name[]
#define END_TESTS { NULL, NULL }

#endif
