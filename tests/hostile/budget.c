/*
 * budget.c: four functions that each call all four, five levels deep: 1365
 * distinct call paths, far more than the node budget the test sets (50).
 * p0 runs 1 + 341 times, p1..p3 341 times each; p0 calls each of them 86
 * times (its activations above the last level), p1..p3 85 times each.
 */
#include "e2e.h"

#define LEVELS 5

/* Every function writes here, so no call is elided as useless. */
static volatile int sink;

NOINLINE static void p0(int d);
NOINLINE static void p1(int d);
NOINLINE static void p2(int d);
NOINLINE static void p3(int d);

/* A macro, not a function: a helper would be instrumented too. */
#define ALL(d)                       \
	do {                         \
		if ((d) > 0) {       \
			p0((d) - 1); \
			p1((d) - 1); \
			p2((d) - 1); \
			p3((d) - 1); \
		}                    \
	} while (0)

NOINLINE static void p0(int d)
{
	sink += d;
	ALL(d);
}

NOINLINE static void p1(int d)
{
	sink += d;
	ALL(d);
}

NOINLINE static void p2(int d)
{
	sink += d;
	ALL(d);
}

NOINLINE static void p3(int d)
{
	sink += d;
	ALL(d);
}

int main(void)
{
	p0(LEVELS);
	return 0;
}
