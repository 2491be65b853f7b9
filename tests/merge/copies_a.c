/* copies_a.c: run_a calls its own copy of helper() n times. */
#include "copies.h"

int run_a(int n)
{
	int sum = 0;

	for (int i = 0; i < n; i++)
		sum += helper(i);
	return sum;
}
