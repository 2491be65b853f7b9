/* threads.c: four threads run the same worker, each calling leaf 1000 times. */
#include <pthread.h>

#include "e2e.h"

#define NTHREADS 4
#define NCALLS 1000

NOINLINE static void leaf(volatile long *acc, long i)
{
	*acc += i;
}

NOINLINE static void *worker(void *arg)
{
	volatile long acc = 0;

	for (long i = 0; i < NCALLS; i++)
		leaf(&acc, i);
	*(long *)arg = acc;
	return NULL;
}

int main(void)
{
	pthread_t tid[NTHREADS];
	long result[NTHREADS];

	for (int i = 0; i < NTHREADS; i++)
		if (pthread_create(&tid[i], NULL, worker, &result[i]))
			return 2;
	for (int i = 0; i < NTHREADS; i++)
		pthread_join(tid[i], NULL);
	for (int i = 0; i < NTHREADS; i++)
		if (result[i] != (long)NCALLS * (NCALLS - 1) / 2)
			return 1;
	return 0;
}
