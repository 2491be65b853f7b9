/* statics_a.c: one of two static helper()s; run_a calls it 3 times. */
#include "e2e.h"
#include "statics.h"

NOINLINE static int helper(int x)
{
	return x + 1;
}

int run_a(void)
{
	int sum = 0;

	for (int i = 0; i < 3; i++)
		sum += helper(i);
	return sum;
}
