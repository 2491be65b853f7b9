/*
 * exitpaths.c: `exitpaths THREADS MS`: THREADS threads make new call paths
 * without end (each iteration takes a path of 24 calls through a() and b()
 * that no earlier iteration took) while main returns MS milliseconds after
 * every thread made its first path: the process exits with every thread
 * still growing its call tree.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>

#include "e2e.h"

#define DEPTH 24

static volatile int sink;
static int started;

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
	uint32_t i = (uint32_t)(uintptr_t)arg << 20;

	a(i++, DEPTH);
	__atomic_add_fetch(&started, 1, __ATOMIC_RELEASE);
	for (;; i++)
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
	while (__atomic_load_n(&started, __ATOMIC_ACQUIRE) < threads) {
		struct timespec ms1 = { 0, 1000000 };
		nanosleep(&ms1, NULL);
	}
	nanosleep(&ts, NULL);
	return 0;
}
