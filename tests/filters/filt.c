/*
 * filt.c: known call counts for the runtime filters (CALLPROF_INCLUDE,
 * CALLPROF_EXCLUDE, CALLPROF_MAX_DEPTH):
 *   main -> top (1)
 *   top -> helper_mid (5) -> leaf (3 each: 15)
 *   top -> leaf (1)
 *   top -> busy_excluded (1): a busy loop, then leaf (2)
 */
#include "../e2e/e2e.h"

static volatile unsigned long sink;

NOINLINE void leaf(void)
{
	sink++;
}

NOINLINE void helper_mid(void)
{
	for (int i = 0; i < 3; i++)
		leaf();
}

/* Most of the run's time, in its own self time unless it is excluded. */
NOINLINE void busy_excluded(void)
{
	for (unsigned long i = 0; i < 20000000ul; i++)
		sink += i;
	leaf();
	leaf();
}

NOINLINE void top(void)
{
	for (int i = 0; i < 5; i++)
		helper_mid();
	leaf();
	busy_excluded();
}

int main(void)
{
	top();
	return 0;
}
