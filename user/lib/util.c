// SPDX-License-Identifier: MIT
/* Small helpers: errors, the CPU's vectors, strict number parsing, string arena, file reading. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "mpc_internal.h"

int mpc_fail(struct mpc_err *err, int code, const char *fmt, ...)
{
	if (err) {
		va_list ap;

		va_start(ap, fmt);
		vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
		va_end(ap);
		err->code = code;
		/* keep the message on one line */
		for (char *p = err->msg; *p; p++)
			if (*p == '\n' || *p == '\r')
				*p = ' ';
	}
	return code;
}

int mpc_cpu_vectors(void)
{
#if defined(__x86_64__) && defined(__GNUC__)
	static int cached = -1;

	if (cached < 0)
		cached = __builtin_cpu_supports("avx512f") ? 2 :
			 __builtin_cpu_supports("avx2") ? 1 : 0;
	return cached;
#else
	return 0;
#endif
}

int mpc_parse_u64(const char *s, uint64_t *out)
{
	uint64_t v = 0;
	unsigned base = 10;
	const char *p = s;

	if (!s || !*s)
		return -EINVAL;
	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
		base = 16;
		p += 2;
		if (!*p)
			return -EINVAL;
	}
	for (; *p; p++) {
		unsigned d;

		if (*p >= '0' && *p <= '9')
			d = (unsigned)(*p - '0');
		else if (base == 16 && *p >= 'a' && *p <= 'f')
			d = (unsigned)(*p - 'a' + 10);
		else if (base == 16 && *p >= 'A' && *p <= 'F')
			d = (unsigned)(*p - 'A' + 10);
		else
			return -EINVAL;
		if (v > (UINT64_MAX - d) / base)
			return -ERANGE;
		v = v * base + d;
	}
	*out = v;
	return 0;
}

int mpc_parse_double(const char *s, double *out)
{
	char *end;
	double v;

	if (!s || !*s || *s == ' ' || *s == '\t')
		return -EINVAL;
	errno = 0;
	v = strtod(s, &end);
	if (*end || errno || !isfinite(v))
		return -EINVAL;
	*out = v;
	return 0;
}

struct mpc_arena_chunk {
	struct mpc_arena_chunk *next;
	size_t used, size;
	_Alignas(16) unsigned char data[];
};

void *mpc_arena_alloc(struct mpc_arena *a, size_t n)
{
	struct mpc_arena_chunk *c = a->head;

	n = (n + 15) & ~(size_t)15;
	if (!c || c->size - c->used < n) {
		size_t sz = n > 16384 ? n : 16384;

		c = malloc(sizeof(*c) + sz);
		if (!c)
			return NULL;
		c->size = sz;
		c->used = 0;
		c->next = a->head;
		a->head = c;
	}
	void *p = c->data + c->used;

	c->used += n;
	memset(p, 0, n);
	return p;
}

char *mpc_arena_strndup(struct mpc_arena *a, const char *s, size_t n)
{
	char *p = mpc_arena_alloc(a, n + 1);

	if (!p)
		return NULL;
	memcpy(p, s, n);
	p[n] = 0;
	return p;
}

char *mpc_arena_strdup(struct mpc_arena *a, const char *s)
{
	return s ? mpc_arena_strndup(a, s, strlen(s)) : NULL;
}

void mpc_arena_free(struct mpc_arena *a)
{
	while (a->head) {
		struct mpc_arena_chunk *n = a->head->next;

		free(a->head);
		a->head = n;
	}
}

int mpc_read_file(const char *path, size_t limit, char **buf, size_t *len, struct mpc_err *err)
{
	/* a duplicate of standard input closes like any other file */
	int fd = strcmp(path, "-") ? open(path, O_RDONLY | O_CLOEXEC) :
				     fcntl(STDIN_FILENO, F_DUPFD_CLOEXEC, 0);
	size_t cap = 4096, n = 0;
	char *b;

	if (fd < 0)
		return mpc_fail(err, -errno, "cannot open %s: %s; check the path", path,
				strerror(errno));
	b = malloc(cap + 1);
	if (!b) {
		close(fd);
		return mpc_fail(err, -ENOMEM, "out of memory reading %s", path);
	}
	for (;;) {
		ssize_t r;

		if (n == cap) {
			char *nb;

			if (cap >= limit) {
				free(b);
				close(fd);
				return mpc_fail(err, -EFBIG,
						"%s is larger than %zu bytes; is it the right file?",
						path, limit);
			}
			cap *= 2;
			nb = realloc(b, cap + 1);
			if (!nb) {
				free(b);
				close(fd);
				return mpc_fail(err, -ENOMEM, "out of memory reading %s", path);
			}
			b = nb;
		}
		r = read(fd, b + n, cap - n);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			int e = errno;

			free(b);
			close(fd);
			return mpc_fail(err, -e, "cannot read %s: %s", path, strerror(e));
		}
		if (r == 0)
			break;
		n += (size_t)r;
	}
	close(fd);
	if (n > limit) {
		free(b);
		return mpc_fail(err, -EFBIG, "%s is larger than %zu bytes; is it the right file?",
				path, limit);
	}
	b[n] = 0;
	*buf = b;
	*len = n;
	return 0;
}
