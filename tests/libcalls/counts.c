/*
 * counts.c: library calls with exact counts: 1000 memcpy (an IFUNC, named
 * memcpy all the same) from copy, qsort with an instrumented comparator
 * nesting below it, stdio (fopen, 10 fwrite, fclose, printf), and 4 threads
 * taking a mutex 1000 times each.  Prints the comparator's calls.
 * Calls: main 1, copy 1000, memcpy 1000, sort_them 1, qsort 1, cmp (printed),
 * write_file 1, fopen 1, fwrite 10, fclose 1, worker 4, pthread_mutex_lock 4000,
 * pthread_mutex_unlock 4000.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "e2e.h"

#define COPIES 1000
#define THREADS 4
#define LOCKS 1000

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static volatile size_t copy_len = 48; /* not a constant: the compiler calls memcpy */
static unsigned long compares, counter;

NOINLINE static void copy(char *dst, const char *src)
{
	memcpy(dst, src, copy_len);
}

NOINLINE static int cmp(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	compares++;
	return (x > y) - (x < y);
}

NOINLINE static void sort_them(int *v, size_t n)
{
	qsort(v, n, sizeof(*v), cmp);
}

NOINLINE static int write_file(const char *path)
{
	FILE *f = fopen(path, "w");
	static const char line[] = "a line of text\n";

	if (!f)
		return 1;
	for (int i = 0; i < 10; i++)
		fwrite(line, 1, sizeof(line) - 1, f);
	return fclose(f) != 0;
}

NOINLINE static void *worker(void *arg)
{
	for (int i = 0; i < LOCKS; i++) {
		pthread_mutex_lock(&lock);
		counter++;
		pthread_mutex_unlock(&lock);
	}
	return arg;
}

int main(int argc, char **argv)
{
	static char b[64] = "hello, library calls"; /* static: no memcpy to set it up */
	char a[64];
	int v[300];
	unsigned seed = 7;
	pthread_t th[THREADS];

	for (int i = 0; i < COPIES; i++)
		copy(a, b);
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		seed = seed * 1103515245u + 12345u;
		v[i] = (int)(seed >> 16 & 0x7fff);
	}
	sort_them(v, sizeof(v) / sizeof(v[0]));
	if (write_file(argc > 1 ? argv[1] : "/dev/null"))
		return 1;
	for (int i = 0; i < THREADS; i++)
		pthread_create(&th[i], NULL, worker, NULL);
	for (int i = 0; i < THREADS; i++)
		pthread_join(th[i], NULL);
	printf("%lu %lu\n", compares, counter);
	return counter != THREADS * LOCKS;
}
