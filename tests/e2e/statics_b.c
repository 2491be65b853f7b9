/* statics_b.c: the other static helper(); run_b calls it 5 times. */
#include "e2e.h"
#include "statics.h"

NOINLINE static int helper(int x)
{
	return x + 1;
}

int run_b(void)
{
	int sum = 0;

	for (int i = 0; i < 5; i++)
		sum += helper(i);
	return sum;
}
