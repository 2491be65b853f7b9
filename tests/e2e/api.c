/*
 * api.c: the public API of callprof.h.  `api MID` calls before() 3 times,
 * resets, calls after() twice, dumps to MID, calls after() once more.
 * `api null` calls after() twice and dumps to the configured path, then
 * leaves with _exit.  `api bad` dumps to an unwritable path: -1 expected.
 * The API is referenced weakly so the program also runs with the runtime preloaded.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "callprof.h"
#include "e2e.h"

#pragma weak callprof_dump
#pragma weak callprof_reset

static volatile int sink;

NOINLINE static void before(void)
{
	sink++;
}

NOINLINE static void after(void)
{
	sink++;
}

static int run_mid(const char *mid)
{
	for (int i = 0; i < 3; i++)
		before();
	callprof_reset();
	after();
	after();
	if (callprof_dump(mid) != 0) {
		fprintf(stderr, "api: callprof_dump(\"%s\") failed\n", mid);
		return 1;
	}
	after();
	return 0;
}

int main(int argc, char **argv)
{
	if (!callprof_dump || !callprof_reset) {
		fprintf(stderr, "api: the runtime is not loaded\n");
		return 3;
	}
	if (argc == 2 && !strcmp(argv[1], "null")) {
		after();
		after();
		if (callprof_dump(NULL) != 0)
			return 1;
		_exit(0);
	}
	if (argc == 2 && !strcmp(argv[1], "bad"))
		return callprof_dump("/nonexistent-callprof-dir/x.json") == -1 ? 0 : 1;
	if (argc == 2)
		return run_mid(argv[1]);
	fprintf(stderr, "usage: api MID | null | bad\n");
	return 2;
}
