/* main.c: calls run_a, run_b and run_c (10, 1,000 and 10 copies' worth of helper calls) in the
 * order its argument spells ("abc", "cba"), so the copies of helper() are first called in a
 * different order from run to run. */
#include <stdio.h>

#include "dup.h"

int main(int argc, char **argv)
{
	const char *order = argc > 1 ? argv[1] : "abc";
	long sum = 0;

	for (const char *c = order; *c; c++)
		sum += *c == 'a' ? run_a(10) : *c == 'b' ? run_b(1000) : run_c(20);
	printf("%ld\n", sum);
	return 0;
}
