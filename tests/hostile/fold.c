/*
 * fold.c: deep mutual recursion past the node budget (run with
 * CALLPROF_MAX_NODES): ping and pong call each other DEPTH deep, ping calling
 * leaf once and pong twice, ROUNDS times.  Past the budget their calls fold to one level of
 * context, nested inside open calls of themselves: the counts stay exact, and
 * no time may count twice.  Prints the process's CPU time spent in the rounds.
 * With an argument, rounds 1 to the last run inside main > mid > wrap, wrap
 * folded past the budget that round 0 filled (paths of two levels never fold)
 * and open when the last round exits at its deepest point (leaf(0), the only
 * one of a round): the dump reads 3,005 open calls, most of them folded,
 * wrap's holding about 2,240,000 that have returned.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "e2e.h"

#define DEPTH 3000
#define ROUNDS 300

/* Every function writes here, so no call is elided as useless. */
static volatile int sink;
static volatile int exit_deep; /* exit at the next leaf(0) */

NOINLINE static void leaf(int i)
{
	sink += i;
	if (i == 0 && exit_deep)
		exit(0);
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

NOINLINE static long long cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (long long)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

NOINLINE static void wrap(void)
{
	for (int r = 1; r < ROUNDS; r++) {
		exit_deep = r == ROUNDS - 1;
		ping(DEPTH);
	}
}

NOINLINE static void mid(void)
{
	wrap();
}

int main(int argc, char **argv)
{
	long long t0 = cpu_ns();

	(void)argv;
	if (argc > 1) {
		ping(DEPTH);
		mid();
	}
	for (int r = 0; r < ROUNDS; r++)
		ping(DEPTH);
	printf("cpu_ns %lld\n", cpu_ns() - t0);
	return 0;
}
