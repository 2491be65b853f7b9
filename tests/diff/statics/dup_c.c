/* dup_c.c: one copy of dup.h's helper(), called n times by run_c. */
#include "dup.h"

int run_c(int n)
{
	int sum = 0;

	for (int i = 0; i < n; i++)
		sum += helper(i);
	return sum;
}
