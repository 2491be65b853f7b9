/*
 * deep.c: `deep N` recurses N frames deep (a million in the tests) in a
 * thread with a 1 GiB stack, then returns all the way up.
 */
#include <pthread.h>
#include <stdlib.h>

#include "e2e.h"

/* Every function writes here, so no call is elided as useless. */
static volatile long sink;

NOINLINE static long recurse(long n)
{
	if (n == 0)
		return sink;
	return recurse(n - 1) + 1; /* not a tail call */
}

NOINLINE static void *dive(void *arg)
{
	sink += recurse((long)arg);
	return arg;
}

int main(int argc, char **argv)
{
	pthread_attr_t attr;
	pthread_t tid;
	long n = argc > 1 ? atol(argv[1]) : 1000;

	pthread_attr_init(&attr);
	if (pthread_attr_setstacksize(&attr, (size_t)1 << 30) != 0 ||
	    pthread_create(&tid, &attr, dive, (void *)n) != 0)
		return 2;
	pthread_join(tid, NULL);
	return sink == n ? 0 : 1;
}
