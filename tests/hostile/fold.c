/*
 * fold.c: deep mutual recursion past the node budget (run with
 * CALLPROF_MAX_NODES): ping and pong call each other DEPTH deep, ping calling
 * leaf once and pong twice, ROUNDS times.  Past the budget their calls fold to one level of
 * context, nested inside open calls of themselves: the counts stay exact, and
 * no time may count twice.  Prints the process's CPU time spent in the rounds.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "e2e.h"

#define DEPTH 3000
#define ROUNDS 300

/* Every function writes here, so no call is elided as useless. */
static volatile int sink;

NOINLINE static void leaf(int i)
{
	sink += i;
}

NOINLINE static void ping(int n);

NOINLINE static void pong(int n)
{
	leaf(n);
	leaf(n + 1);
	if (n > 0)
		ping(n - 1);
}

NOINLINE static void ping(int n)
{
	if (n > 0)
		pong(n - 1);
	leaf(n);
}

static long long cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (long long)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

int main(void)
{
	long long t0 = cpu_ns();

	for (int r = 0; r < ROUNDS; r++)
		ping(DEPTH);
	printf("cpu_ns %lld\n", cpu_ns() - t0);
	return 0;
}
