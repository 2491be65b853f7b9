/*
 * qsort.c: a comparator called back from libc's qsort: with library probes
 * (the default) qsort is a node and the comparator's calls nest below it;
 * without them (CALLPROF_LIBCALLS=0) they attach to sorter, the nearest
 * instrumented frame.  Prints how often it ran.
 */
#include <stdio.h>
#include <stdlib.h>

#include "e2e.h"

/* Comparator calls, counted by the program itself: qsort decides how many. */
static unsigned long compares;

NOINLINE static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	compares++;
	return (x > y) - (x < y);
}

NOINLINE static void sorter(int *v, size_t n)
{
	qsort(v, n, sizeof(*v), cmp_int);
}

int main(void)
{
	int v[200];
	unsigned seed = 12345;

	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		seed = seed * 1103515245u + 12345u;
		v[i] = (int)(seed >> 16 & 0x7fff);
	}
	sorter(v, sizeof(v) / sizeof(v[0]));
	for (size_t i = 1; i < sizeof(v) / sizeof(v[0]); i++)
		if (v[i - 1] > v[i])
			return 1;
	printf("%lu\n", compares);
	return 0;
}
