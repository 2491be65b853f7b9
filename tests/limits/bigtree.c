/*
 * bigtree.c: a call tree of 599,187 nodes (walk calling 8 functions that call
 * walk again, 6 levels deep, each path once), then the dump under an
 * address-space limit that leaves it PERCENT (argument; 50) of what the tree
 * took: the dump must need less.  Prints the tree's size.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "e2e.h"

#define DEPTH 6

/* Every function writes here, so no call is elided as useless. */
static volatile int sink;

NOINLINE static void walk(int depth);

NOINLINE static void f0(int d) { sink += 0; walk(d); }
NOINLINE static void f1(int d) { sink += 1; walk(d); }
NOINLINE static void f2(int d) { sink += 2; walk(d); }
NOINLINE static void f3(int d) { sink += 3; walk(d); }
NOINLINE static void f4(int d) { sink += 4; walk(d); }
NOINLINE static void f5(int d) { sink += 5; walk(d); }
NOINLINE static void f6(int d) { sink += 6; walk(d); }
NOINLINE static void f7(int d) { sink += 7; walk(d); }

/* Calls each of the 8 functions, which call walk one level less deep. */
NOINLINE static void walk(int depth)
{
	if (depth-- <= 0)
		return;
	f0(depth);
	f1(depth);
	f2(depth);
	f3(depth);
	f4(depth);
	f5(depth);
	f6(depth);
	f7(depth);
}

static long vm_kb(void)
{
	char line[256];
	long kb = -1;
	FILE *f = fopen("/proc/self/status", "r");

	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, "VmSize:", 7))
			sscanf(line + 7, "%ld", &kb);
	if (f)
		fclose(f);
	return kb;
}

int main(int argc, char **argv)
{
	long before = vm_kb(), after, percent = argc > 1 ? atol(argv[1]) : 50;
	struct rlimit lim;

	walk(DEPTH);
	after = vm_kb();
	printf("tree_kb %ld\n", after - before);
	fflush(stdout);
	if (getrlimit(RLIMIT_AS, &lim) != 0)
		return 2;
	lim.rlim_cur = (rlim_t)(after + (after - before) * percent / 100) * 1024;
	return setrlimit(RLIMIT_AS, &lim) != 0 ? 2 : 0;
}
