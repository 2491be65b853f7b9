/* copies_b.c: run_b calls its own copy of helper() 2n times. */
#include "copies.h"

int run_b(int n)
{
	int sum = 0;

	for (int i = 0; i < 2 * n; i++)
		sum += helper(i);
	return sum;
}
