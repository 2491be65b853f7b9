/*
 * exitpaths.c: `exitpaths THREADS MS`: THREADS threads make new call paths
 * without end (each iteration takes a path of 24 calls through a() and b()
 * that no earlier iteration took) while main returns after MS milliseconds:
 * the process exits with every thread still growing its call tree.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>

#include "e2e.h"

#define DEPTH 24

static volatile int sink;

NOINLINE static void a(uint32_t bits, int depth);
NOINLINE static void b(uint32_t bits, int depth);

NOINLINE static void a(uint32_t bits, int depth)
{
	sink++;
	if (depth)
		(bits & 1 ? b : a)(bits >> 1, depth - 1);
}

NOINLINE static void b(uint32_t bits, int depth)
{
	sink--;
	if (depth)
		(bits & 1 ? b : a)(bits >> 1, depth - 1);
}

static void *grow(void *arg)
{
	for (uint32_t i = (uint32_t)(uintptr_t)arg << 20;; i++)
		a(i, DEPTH);
	return NULL;
}

int main(int argc, char **argv)
{
	int threads = argc > 1 ? atoi(argv[1]) : 16;
	long ms = argc > 2 ? atol(argv[2]) : 200;
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000 };
	pthread_t t;

	for (int i = 0; i < threads; i++)
		if (pthread_create(&t, NULL, grow, (void *)(uintptr_t)i))
			return 2;
	nanosleep(&ts, NULL);
	return 0;
}
