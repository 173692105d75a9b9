// SPDX-License-Identifier: MIT
/* Runs every host unit test; prints "ok N - name" / "not ok N - name" and a
 * final "N passed, N failed" line; exits non-zero on failure. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "test.h"

char t_diag[1024];
int t_failed, t_skipped;

void t_skip(const char *fmt, ...)
{
	va_list ap;

	t_skipped = 1;
	va_start(ap, fmt);
	vsnprintf(t_diag, sizeof(t_diag), fmt, ap);
	va_end(ap);
}

void t_fail(const char *file, int line, const char *fmt, ...)
{
	va_list ap;
	int n;

	t_failed = 1;
	n = snprintf(t_diag, sizeof(t_diag), "%s:%d: ", file, line);
	va_start(ap, fmt);
	vsnprintf(t_diag + n, sizeof(t_diag) - (size_t)n, fmt, ap);
	va_end(ap);
}

struct mpc_db *t_db(void)
{
	struct mpc_db *db;
	struct mpc_err err;

	if (mpc_db_new_builtin(&db, &err)) {
		fprintf(stderr, "builtin database does not load: %s\n", err.msg);
		exit(2);
	}
	return db;
}

const char *t_data(const char *name)
{
	static char buf[4][512];
	static int i;
	const char *dir = getenv("MPC_TEST_DATA");

	i = (i + 1) % 4;
	snprintf(buf[i], sizeof(buf[i]), "%s/%s", dir ? dir : "tests/data", name);
	return buf[i];
}

void t_fill_dump(const struct mpc_layout *l, uint32_t *buf, uint64_t ts, uint32_t enable,
		 uint32_t (*val)(unsigned slot, unsigned idx, void *ctx), void *ctx)
{
	unsigned cpb = l->counters_per_block;

	for (unsigned s = 0; s < l->nslots; s++) {
		uint32_t *b = buf + (size_t)s * cpb;

		if (!l->slot[s].present) {
			for (unsigned i = 0; i < cpb; i++)
				b[i] = 0xdeadbeef;	/* holes must be ignored */
			continue;
		}
		b[0] = (uint32_t)ts;
		b[1] = (uint32_t)(ts >> 32);
		b[2] = enable;
		b[3] = 0;
		for (unsigned i = 4; i < cpb; i++)
			b[i] = val ? val(s, i, ctx) : 0;
	}
}

void t_slurp(const char *path, char *buf, size_t n)
{
	FILE *f = fopen(path, "r");
	size_t r = f ? fread(buf, 1, n - 1, f) : 0;

	buf[r] = 0;
	if (f)
		fclose(f);
}

const char *t_json_block_powers(const char *json, char *buf, size_t n)
{
	const char *p = strstr(json, "\"blocks\":["), *eol = strchr(json, '\n');
	size_t o = 0;

	buf[0] = 0;
	if (!p || (eol && p > eol))
		return buf;
	p += strlen("\"blocks\":[");
	while (*p == '{' && o < n) {
		const char *end = strchr(p, '}'), *lbl = strstr(p, "{\"block\":\""),
			   *pw = strstr(p, "\"power\":\"");
		int ll;

		if (!end || lbl != p)
			break;
		lbl += strlen("{\"block\":\"");
		ll = (int)strcspn(lbl, "\"");
		if (pw && pw < end) {
			pw += strlen("\"power\":\"");
			o += (size_t)snprintf(buf + o, n - o, "%s%.*s=%.*s", o ? " " : "", ll, lbl,
					      (int)strcspn(pw, "\""), pw);
		} else {
			o += (size_t)snprintf(buf + o, n - o, "%s%.*s=-", o ? " " : "", ll, lbl);
		}
		p = end + 1 + (end[1] == ',');
	}
	return buf;
}

int t_one_line(const char *s)
{
	return s && *s && !strchr(s, '\n');
}

int t_decode_new(const struct mpc_desc *d, uint64_t ts, uint32_t enable,
		 uint32_t (*val)(unsigned slot, unsigned idx, void *ctx), void *ctx,
		 struct mpc_layout **l, struct mpc_sample **s, struct mpc_err *err)
{
	uint32_t *buf;
	int r = mpc_layout_new(d, l, err);

	if (!r)
		r = mpc_sample_new(*l, s, err);
	if (r)
		return r;
	buf = calloc(1, (*l)->dump_size);
	if (!buf)
		return -ENOMEM;
	t_fill_dump(*l, buf, ts, enable, val, ctx);
	r = mpc_decode(*s, buf, (*l)->dump_size, err);
	free(buf);
	return r;
}

extern const struct test tests_db[], tests_expr[], tests_decode[], tests_parsers[],
	tests_g2[], tests_tool[], tests_panfrost[], tests_perfetto[], tests_xcheck[],
	tests_golden[], tests_kbase[], tests_v3[];

int main(void)
{
	const struct test *suites[] = { tests_db, tests_expr, tests_decode, tests_parsers,
					tests_g2, tests_tool, tests_panfrost, tests_perfetto,
					tests_xcheck, tests_golden, tests_kbase, tests_v3 };
	unsigned n = 0, pass = 0, fail = 0, skip = 0;

	setvbuf(stdout, NULL, _IOLBF, 0);
	for (unsigned s = 0; s < sizeof(suites) / sizeof(suites[0]); s++)
		for (const struct test *t = suites[s]; t->name; t++) {
			t_failed = 0;
			t_skipped = 0;
			t_diag[0] = 0;
			t->fn();
			n++;
			if (t_skipped && !t_failed) {
				printf("ok %u - %s # SKIP %s\n", n, t->name, t_diag);
				skip++;
			} else if (t_failed) {
				printf("not ok %u - %s\n# %s\n", n, t->name, t_diag);
				fail++;
			} else {
				printf("ok %u - %s\n", n, t->name);
				pass++;
			}
		}
	if (skip)
		printf("# %u skipped\n", skip);
	printf("%u passed, %u failed\n", pass, fail);
	return fail ? 1 : 0;
}
