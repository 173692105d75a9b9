// SPDX-License-Identifier: MIT
/*
 * mpc-mangen: print the --help page of mali-perfcnt (no argument) or of one
 * of its commands, from tool/help.c itself, for man/help2man.awk to turn into
 * a manual page. Built with the build machine's compiler (cross builds too):
 * it needs nothing of the library.
 */
#include <stdarg.h>
#include <stdio.h>

#include "tool.h"

int tool_error(struct tool *t, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fprintf(stderr, "%s: ", t->prog);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	return -1;
}

int main(int argc, char **argv)
{
	struct tool t = { .prog = "mpc-mangen" };

	if (argc > 2) {
		fprintf(stderr, "usage: mpc-mangen [COMMAND]\n");
		return 2;
	}
	if (help(&t, argc > 1 ? argv[1] : NULL, stdout) < 0 || fflush(stdout))
		return 1;
	return 0;
}
