// SPDX-License-Identifier: MIT
/*
 * mpc-fmtcheck - validate the CSV and JSON outputs of mali-perfcnt without
 * python or jq (it is built statically and copied into the test VM).
 *
 *   mpc-fmtcheck csv FILE             RFC 4180 CSV with a header row and the
 *                                     same number of fields on every row
 *   mpc-fmtcheck json FILE            every non-empty line is one JSON object
 *   mpc-fmtcheck csv-get FILE NAME [COLUMN]
 *                                     print COLUMN (default value) of the rows
 *                                     whose "name" column is NAME
 *   mpc-fmtcheck json-get FILE NAME [FIELD]
 *                                     print FIELD (default value) of every
 *                                     object, at any depth, whose "name" is NAME
 *
 * Both reject a file that is not valid UTF-8 (RFC 3629: no overlong forms,
 * surrogates or code points beyond U+10FFFF).
 *
 * FILE may be - for standard input. Exit status: 0 valid, 1 invalid (one line
 * on stderr says where), 2 usage error.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_FIELDS 64
#define MAX_DEPTH 64

static char *slurp(const char *path, size_t *len)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "rb") : stdin;
	size_t cap = 1 << 16, n = 0;
	char *b;

	if (!f) {
		fprintf(stderr, "mpc-fmtcheck: cannot open %s\n", path);
		exit(2);
	}
	b = malloc(cap + 1);
	while (b) {
		size_t r = fread(b + n, 1, cap - n, f);

		n += r;
		if (n < cap)
			break;
		cap *= 2;
		b = realloc(b, cap + 1);
	}
	if (!b) {
		fprintf(stderr, "mpc-fmtcheck: out of memory\n");
		exit(2);
	}
	if (f != stdin)
		fclose(f);
	b[n] = 0;
	*len = n;
	return b;
}

static int fail(const char *what, unsigned line, unsigned col, const char *msg)
{
	fprintf(stderr, "mpc-fmtcheck: %s line %u column %u: %s\n", what, line, col, msg);
	return 1;
}

/* the length of the valid UTF-8 sequence at @s (@n bytes left), 0 if invalid */
static size_t utf8_seq(const unsigned char *s, size_t n)
{
	unsigned c = s[0], len, cp, min;

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		len = 2, cp = c & 0x1f, min = 0x80;
	else if ((c & 0xf0) == 0xe0)
		len = 3, cp = c & 0x0f, min = 0x800;
	else if (c >= 0xf0 && c <= 0xf4)
		len = 4, cp = c & 0x07, min = 0x10000;
	else
		return 0;
	if (n < len)
		return 0;
	for (unsigned i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return len;
}

static int check_utf8(const char *what, const char *buf, size_t len)
{
	const unsigned char *p = (const unsigned char *)buf, *end = p + len, *ls = p;
	unsigned line = 1;

	while (p < end) {
		size_t n = utf8_seq(p, (size_t)(end - p));

		if (!n)
			return fail(what, line, (unsigned)(p - ls) + 1, "invalid UTF-8");
		if (*p == '\n') {
			line++;
			ls = p + 1;
		}
		p += n;
	}
	return 0;
}

/* ------------------------------------------------------------------- CSV */

struct row {
	unsigned n;
	char *f[MAX_FIELDS];
};

/* Parse one record at *p; fields are unescaped into heap strings. */
static int csv_record(const char **pp, const char *end, struct row *r, unsigned line)
{
	const char *p = *pp;

	r->n = 0;
	for (;;) {
		char *out = malloc((size_t)(end - p) + 1);
		size_t o = 0;

		if (!out)
			return fail("csv", line, 0, "out of memory");
		if (p < end && *p == '"') {
			p++;
			for (;;) {
				if (p >= end)
					return fail("csv", line, 0, "unterminated quoted field");
				if (*p == '"') {
					if (p + 1 < end && p[1] == '"') {
						out[o++] = '"';
						p += 2;
						continue;
					}
					p++;
					break;
				}
				out[o++] = *p++;
			}
			if (p < end && *p != ',' && *p != '\n' && *p != '\r')
				return fail("csv", line, 0, "text after a closing quote");
		} else {
			while (p < end && *p != ',' && *p != '\n' && *p != '\r') {
				if (*p == '"')
					return fail("csv", line, 0, "quote inside an unquoted field");
				out[o++] = *p++;
			}
		}
		out[o] = 0;
		if (r->n >= MAX_FIELDS)
			return fail("csv", line, 0, "too many fields");
		r->f[r->n++] = out;
		if (p < end && *p == ',') {
			p++;
			continue;
		}
		if (p < end && *p == '\r')
			p++;
		if (p < end && *p == '\n')
			p++;
		break;
	}
	*pp = p;
	return 0;
}

static void row_free(struct row *r)
{
	for (unsigned i = 0; i < r->n; i++)
		free(r->f[i]);
	r->n = 0;
}

static int do_csv(const char *buf, size_t len, const char *name, const char *col)
{
	const char *p = buf, *end = buf + len;
	struct row hdr = { 0 }, r = { 0 };
	unsigned line = 1, rows = 0;
	int name_col = -1, want_col = -1;

	if (!len)
		return fail("csv", 1, 1, "empty file: no header row");
	if (csv_record(&p, end, &hdr, line))
		return 1;
	for (unsigned i = 0; i < hdr.n; i++) {
		if (!hdr.f[i][0])
			return fail("csv", 1, i + 1, "empty column name in the header");
		for (unsigned j = 0; j < i; j++)
			if (!strcmp(hdr.f[i], hdr.f[j]))
				return fail("csv", 1, i + 1, "duplicate column name in the header");
		if (!strcmp(hdr.f[i], "name"))
			name_col = (int)i;
		if (col && !strcmp(hdr.f[i], col))
			want_col = (int)i;
	}
	if (name && (name_col < 0 || want_col < 0))
		return fail("csv", 1, 1, "no 'name' column or no such column to print");
	while (p < end) {
		line++;
		if (*p == '\n')
			return fail("csv", line, 1, "empty line");
		if (csv_record(&p, end, &r, line))
			return 1;
		if (r.n != hdr.n) {
			char m[80];

			snprintf(m, sizeof(m), "%u fields, the header has %u", r.n, hdr.n);
			return fail("csv", line, 1, m);
		}
		if (name && !strcmp(r.f[name_col], name))
			printf("%s\n", r.f[want_col]);
		rows++;
		row_free(&r);
	}
	if (!name)
		printf("csv ok: %u rows, %u columns\n", rows, hdr.n);
	row_free(&hdr);
	return 0;
}

/* ------------------------------------------------------------------ JSON */

struct js {
	const char *p, *end, *line_start;
	unsigned line;
	const char *name, *field;
	int err;
};

static int jfail(struct js *j, const char *msg)
{
	if (!j->err)
		fail("json", j->line, (unsigned)(j->p - j->line_start) + 1, msg);
	j->err = 1;
	return 1;
}

static void ws(struct js *j)
{
	while (j->p < j->end && (*j->p == ' ' || *j->p == '\t'))
		j->p++;
}

static int value(struct js *j, int depth, const char **vs, const char **ve);

/* string: returns its raw span (without quotes) */
static int string(struct js *j, const char **s, const char **e)
{
	if (j->p >= j->end || *j->p != '"')
		return jfail(j, "expected a string");
	j->p++;
	*s = j->p;
	while (j->p < j->end && *j->p != '"') {
		unsigned char c = (unsigned char)*j->p;

		if (c < 0x20 || c == '\n')
			return jfail(j, "control character in a string");
		if (c == '\\') {
			j->p++;
			if (j->p >= j->end)
				return jfail(j, "unterminated escape");
			if (*j->p == 'u') {
				for (int i = 1; i <= 4; i++)
					if (j->p + i >= j->end || !strchr("0123456789abcdefABCDEF", j->p[i]) ||
					    !j->p[i])
						return jfail(j, "bad \\u escape");
				j->p += 4;
			} else if (!strchr("\"\\/bfnrt", *j->p) || !*j->p) {
				return jfail(j, "bad escape");
			}
		}
		j->p++;
	}
	if (j->p >= j->end)
		return jfail(j, "unterminated string");
	*e = j->p;
	j->p++;
	return 0;
}

static int number(struct js *j)
{
	const char *p = j->p;

	if (p < j->end && *p == '-')
		p++;
	if (p >= j->end || *p < '0' || *p > '9')
		return jfail(j, "bad number");
	if (*p == '0')
		p++;
	else
		while (p < j->end && *p >= '0' && *p <= '9')
			p++;
	if (p < j->end && *p == '.') {
		p++;
		if (p >= j->end || *p < '0' || *p > '9')
			return jfail(j, "bad fraction");
		while (p < j->end && *p >= '0' && *p <= '9')
			p++;
	}
	if (p < j->end && (*p == 'e' || *p == 'E')) {
		p++;
		if (p < j->end && (*p == '+' || *p == '-'))
			p++;
		if (p >= j->end || *p < '0' || *p > '9')
			return jfail(j, "bad exponent");
		while (p < j->end && *p >= '0' && *p <= '9')
			p++;
	}
	j->p = p;
	return 0;
}

static int object(struct js *j, int depth)
{
	const char *name_s = NULL, *name_e = NULL, *fv_s = NULL, *fv_e = NULL;
	int first = 1;

	j->p++;	/* { */
	ws(j);
	if (j->p < j->end && *j->p == '}') {
		j->p++;
		return 0;
	}
	for (;;) {
		const char *ks, *ke, *vs, *ve;

		ws(j);
		if (string(j, &ks, &ke))
			return 1;
		ws(j);
		if (j->p >= j->end || *j->p != ':')
			return jfail(j, "expected ':'");
		j->p++;
		ws(j);
		if (value(j, depth + 1, &vs, &ve))
			return 1;
		if (j->name && (size_t)(ke - ks) == 4 && !memcmp(ks, "name", 4) && *vs == '"') {
			name_s = vs + 1;
			name_e = ve - 1;
		}
		if (j->name && (size_t)(ke - ks) == strlen(j->field) && !memcmp(ks, j->field, (size_t)(ke - ks))) {
			fv_s = vs;
			fv_e = ve;
		}
		ws(j);
		first = 0;
		if (j->p < j->end && *j->p == ',') {
			j->p++;
			continue;
		}
		if (j->p < j->end && *j->p == '}') {
			j->p++;
			break;
		}
		return jfail(j, "expected ',' or '}'");
	}
	(void)first;
	if (j->name && name_s && fv_s && (size_t)(name_e - name_s) == strlen(j->name) &&
	    !memcmp(name_s, j->name, (size_t)(name_e - name_s)))
		printf("%.*s\n", (int)(fv_e - fv_s), fv_s);
	return 0;
}

static int array(struct js *j, int depth)
{
	j->p++;	/* [ */
	ws(j);
	if (j->p < j->end && *j->p == ']') {
		j->p++;
		return 0;
	}
	for (;;) {
		const char *vs, *ve;

		ws(j);
		if (value(j, depth + 1, &vs, &ve))
			return 1;
		ws(j);
		if (j->p < j->end && *j->p == ',') {
			j->p++;
			continue;
		}
		if (j->p < j->end && *j->p == ']') {
			j->p++;
			return 0;
		}
		return jfail(j, "expected ',' or ']'");
	}
}

static int value(struct js *j, int depth, const char **vs, const char **ve)
{
	int r;

	if (depth > MAX_DEPTH)
		return jfail(j, "nested too deeply");
	ws(j);
	*vs = j->p;
	if (j->p >= j->end)
		return jfail(j, "unexpected end of line");
	switch (*j->p) {
	case '{':
		r = object(j, depth);
		break;
	case '[':
		r = array(j, depth);
		break;
	case '"': {
		const char *s, *e;

		r = string(j, &s, &e);
		break;
	}
	case 't':
	case 'f':
	case 'n': {
		const char *w = *j->p == 't' ? "true" : *j->p == 'f' ? "false" : "null";
		size_t n = strlen(w);

		if ((size_t)(j->end - j->p) < n || memcmp(j->p, w, n))
			return jfail(j, "bad literal");
		j->p += n;
		r = 0;
		break;
	}
	default:
		r = number(j);
	}
	*ve = j->p;
	return r;
}

static int do_json(const char *buf, size_t len, const char *name, const char *field)
{
	struct js j = { .name = name, .field = field, .line = 0 };
	const char *p = buf, *end = buf + len;
	unsigned objs = 0;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end, *vs, *ve;

		j.line++;
		j.p = j.line_start = p;
		j.end = le;
		ws(&j);
		if (j.p < le) {
			if (*j.p != '{')
				return jfail(&j, "a line must hold one JSON object");
			if (value(&j, 0, &vs, &ve))
				return 1;
			ws(&j);
			if (j.p != le)
				return jfail(&j, "text after the object");
			objs++;
		}
		p = nl ? nl + 1 : end;
	}
	if (!objs)
		return fail("json", 1, 1, "no JSON object");
	if (!name)
		printf("json ok: %u objects\n", objs);
	return 0;
}

int main(int argc, char **argv)
{
	size_t len;
	char *buf;
	int r;

	if (argc < 3 || (!strcmp(argv[1], "csv") && argc != 3) || (!strcmp(argv[1], "json") && argc != 3) ||
	    ((!strcmp(argv[1], "csv-get") || !strcmp(argv[1], "json-get")) && (argc < 4 || argc > 5))) {
		fprintf(stderr, "usage: mpc-fmtcheck csv|json FILE\n"
				"       mpc-fmtcheck csv-get|json-get FILE NAME [FIELD]\n");
		return 2;
	}
	buf = slurp(argv[2], &len);
	if (memchr(buf, 0, len)) {
		free(buf);
		return fail(argv[1], 1, 1, "NUL byte in the file");
	}
	if (check_utf8(argv[1], buf, len)) {
		free(buf);
		return 1;
	}
	if (!strcmp(argv[1], "csv"))
		r = do_csv(buf, len, NULL, NULL);
	else if (!strcmp(argv[1], "json"))
		r = do_json(buf, len, NULL, NULL);
	else if (!strcmp(argv[1], "csv-get"))
		r = do_csv(buf, len, argv[3], argc > 4 ? argv[4] : "value");
	else if (!strcmp(argv[1], "json-get"))
		r = do_json(buf, len, argv[3], argc > 4 ? argv[4] : "value");
	else {
		fprintf(stderr, "mpc-fmtcheck: unknown mode '%s'\n", argv[1]);
		r = 2;
	}
	free(buf);
	return r;
}
