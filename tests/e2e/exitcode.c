/*
 * exitcode.c: leaves in a chosen way: `ret N` returns N from main, `deep N`
 * calls exit(N) three instrumented calls deep, `signal` dies of SIGTERM,
 * `pid` prints its pid and returns 0.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "e2e.h"

NOINLINE static void inner(int status)
{
	exit(status);
}

NOINLINE static void middle(int status)
{
	inner(status);
}

NOINLINE static void outer(int status)
{
	middle(status);
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "ret"))
		return atoi(argv[2]);
	if (argc == 3 && !strcmp(argv[1], "deep"))
		outer(atoi(argv[2]));
	if (argc == 2 && !strcmp(argv[1], "signal"))
		raise(SIGTERM);
	if (argc == 2 && !strcmp(argv[1], "pid")) {
		printf("%d\n", (int)getpid());
		return 0;
	}
	fprintf(stderr, "usage: exitcode ret N | deep N | signal | pid\n");
	return 100;
}
