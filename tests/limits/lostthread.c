/*
 * lostthread.c: a thread whose profiler state cannot be made.  With its
 * stack given by the program (no mapping for pthread_create to make), it
 * runs while RLIMIT_AS leaves no room for another 64 kB: its state cannot be
 * mapped and it is not profiled; the dump must count it and its 4 calls.
 */
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>

#include "e2e.h"

/* Every function writes here, so no call is elided as useless. */
static volatile int sink;
static char stack[1 << 20] __attribute__((aligned(64)));

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
	struct rlimit old, tight;
	pthread_attr_t attr;
	pthread_t tid;
	long kb;

	leaf(0);
	if (getrlimit(RLIMIT_AS, &old) != 0 || pthread_attr_init(&attr) != 0 ||
	    pthread_attr_setstack(&attr, stack, sizeof(stack)) != 0 || (kb = vm_kb()) < 0)
		return 2;
	tight = old;
	tight.rlim_cur = (rlim_t)(kb + 64) * 1024;
	if (setrlimit(RLIMIT_AS, &tight) != 0)
		return 2;
	if (pthread_create(&tid, &attr, worker, NULL) != 0 || pthread_join(tid, NULL) != 0)
		return 3;
	if (setrlimit(RLIMIT_AS, &old) != 0)
		return 2;
	printf("done\n");
	return 0;
}
