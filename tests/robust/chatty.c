/*
 * chatty.c: a program whose own behaviour the profiler must not change: it prints
 * what it computes to stdout and leaves with a chosen status.
 *   chatty [STATUS [PATHS]]: prints 20 lines, exits STATUS (default 0); with PATHS,
 *   first walks about PATHS distinct call paths, for a dump of a few megabytes.
 */
#include <stdio.h>
#include <stdlib.h>

#define NOINLINE __attribute__((noinline))

static unsigned long sink;

NOINLINE static unsigned long square(unsigned long x)
{
	return x * x;
}

NOINLINE static unsigned long sum_squares(unsigned long n)
{
	unsigned long s = 0;

	for (unsigned long i = 0; i < n; i++)
		s += square(i);
	return s;
}

/* Eight functions calling one another by the digits of a number: 8^depth paths. */
typedef void step_fn(unsigned long, int);
static step_fn s0, s1, s2, s3, s4, s5, s6, s7;
static step_fn *const steps[8] = { s0, s1, s2, s3, s4, s5, s6, s7 };

#define STEP(name, k)                                   \
	NOINLINE static void name(unsigned long n, int d)   \
	{                                                   \
		sink += k;                                      \
		if (d > 0)                                      \
			steps[n % 8](n / 8, d - 1);                 \
	}
STEP(s0, 0) STEP(s1, 1) STEP(s2, 2) STEP(s3, 3) STEP(s4, 4) STEP(s5, 5) STEP(s6, 6) STEP(s7, 7)

NOINLINE static void walk(unsigned long paths)
{
	int depth = 1;

	for (unsigned long p = 8; p < paths; p *= 8)
		depth++;
	for (unsigned long i = 0; i < paths; i++)
		steps[i % 8](i / 8, depth);
}

int main(int argc, char **argv)
{
	int status = argc > 1 ? atoi(argv[1]) : 0;

	if (argc > 2)
		walk(strtoul(argv[2], NULL, 10));
	for (unsigned long i = 1; i <= 20; i++)
		printf("line %lu: %lu\n", i, sum_squares(i * 10));
	return status;
}
