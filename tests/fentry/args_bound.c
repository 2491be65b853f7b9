/*
 * args_bound.c: a function called with a million distinct values, and one
 * value 200,000 times among them: its value profile keeps at most
 * CALLPROF_ARGS_ENTRIES tuples, counts every call, and keeps the frequent one.
 */
#include <stdio.h>

#include "e2e.h"

#define DISTINCT 1000000
#define FREQUENT 200000
#define HOT_VALUE -7

NOINLINE long ident(long v)
{
	return v;
}

int main(void)
{
	long s = 0;

	for (long i = 0; i < DISTINCT; i++) {
		s += ident(i);
		if (i % (DISTINCT / FREQUENT) == 0)
			s += ident(HOT_VALUE);
	}
	printf("%ld\n", s);
	return 0;
}
