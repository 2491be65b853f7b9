/*
 * shortthreads.c: 5,000 short threads, one after the other, each making 4
 * calls; prints the process's address space (VmSize, kB) before and after
 * them.  A finished thread hands its profile to the process and frees its
 * state: the address space must not grow by its per-thread stacks and trees.
 */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "e2e.h"

#define THREADS 5000

/* Every function writes here, so no call is elided as useless. */
static volatile int sink;

NOINLINE static void leaf(int i)
{
	sink += i;
}

NOINLINE static void *worker(void *arg)
{
	for (int i = 0; i < 3; i++)
		leaf(i);
	return arg;
}

static long vm_kb(void)
{
	char line[256];
	long kb = -1;
	FILE *f = fopen("/proc/self/status", "r");

	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, "VmSize:", 7))
			sscanf(line + 7, "%ld", &kb);
	if (f)
		fclose(f);
	return kb;
}

int main(void)
{
	pthread_t tid;
	long before;

	leaf(0);
	before = vm_kb();
	for (int i = 0; i < THREADS; i++)
		if (pthread_create(&tid, NULL, worker, NULL) != 0 || pthread_join(tid, NULL) != 0)
			return 2;
	printf("vm_before_kb %ld\nvm_after_kb %ld\n", before, vm_kb());
	return 0;
}
