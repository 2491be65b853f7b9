/*
 * libcost.c: the cost of a library probe.  main calls lc_nop, a one-line
 * function of an uninstrumented shared library (bench/libnop.c), N times
 * through the PLT, then work() N times (an instrumented function of the
 * program doing the same), so one run shows a library call's probe beside an
 * instrumented call's.  Built with -finstrument-functions; args: N (calls).
 */
#include <stdio.h>
#include <stdlib.h>

int lc_nop(int x);

__attribute__((noinline)) static int work(int x)
{
	__asm__ __volatile__("" : "+r"(x));
	return x + 1;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 10000000;
	int x = 0;

	for (long i = 0; i < n; i++)
		x = lc_nop(x);
	if (argc > 2)
		for (long i = 0; i < n; i++)
			x = work(x);
	printf("%d\n", x);
	return 0;
}
