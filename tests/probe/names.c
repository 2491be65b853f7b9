/*
 * names.c: a program whose globals have the names of the runtime's own
 * (options, process, calib), linked with the static archive: only the public
 * API and the interposed functions leave it, so this links and is profiled.
 * Calls: main 1, step 3.
 */
#include <stdio.h>

#include "e2e.h"

int options = 1;
int process = 2;
double calib = 3;

NOINLINE static void step(int i)
{
	options += i;
}

int main(void)
{
	for (int i = 0; i < 3; i++)
		step(i);
	printf("%d %d %g\n", options, process, calib);
	return 0;
}
