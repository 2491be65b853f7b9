/*
 * offcpu.c: time on a CPU and off it (CPU time, docs/dump-format.md).  A worker
 * thread sleeps in wait_for_work, as an idle pool thread waits; the main
 * thread computes, naps a little and calls a short leaf many times.  The
 * sleeps give off-CPU time of at least their length, whatever the load.
 */
#include <pthread.h>
#include <time.h>

#include "e2e.h"

#define WAITS 4
#define WAIT_MS 50
#define NAPS 2
#define NAP_MS 10
#define COMPUTES 3
#define TINY_CALLS 1000

static volatile unsigned long sink;

NOINLINE static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000 };

	while (nanosleep(&ts, &ts) != 0)
		;
}

NOINLINE static void wait_for_work(void)
{
	sleep_ms(WAIT_MS);
}

NOINLINE static void *idle_worker(void *arg)
{
	for (int i = 0; i < WAITS; i++)
		wait_for_work();
	return arg;
}

NOINLINE static void compute(void)
{
	for (unsigned long i = 0; i < 3000000; i++)
		sink += i ^ (i >> 3);
}

NOINLINE static void nap(void)
{
	sleep_ms(NAP_MS);
}

NOINLINE static unsigned long tiny(unsigned long x)
{
	return x * 7 + 1;
}

int main(void)
{
	pthread_t worker;

	if (pthread_create(&worker, NULL, idle_worker, NULL))
		return 2;
	for (int i = 0; i < COMPUTES; i++)
		compute();
	for (int i = 0; i < NAPS; i++)
		nap();
	for (unsigned long i = 0; i < TINY_CALLS; i++)
		sink += tiny(i);
	pthread_join(worker, NULL);
	return 0;
}
