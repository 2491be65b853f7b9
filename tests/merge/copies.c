/* copies.c: main calls run_a and run_b with the count given (default 3); each calls its own copy
 * of copies.h's static helper(), so a profile has two functions named helper in one file. */
#include <stdio.h>
#include <stdlib.h>

#include "copies.h"

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 3;

	printf("%d\n", run_a(n) + run_b(n));
	return 0;
}
