/* liblcracer.c: the instrumented library race.c loads; its thread calls strlen while dlopen patches its slot. */
#include <pthread.h>
#include <string.h>

#include "e2e.h"

void racer_go(void);
long racer_finish(long *wrong);

#define AFTER 100000

static pthread_t thread;
static volatile int phase; /* 0: racing dlopen, 1: dlopen returned, 2: done */
static volatile long calls;
static long wrong;
static const char *volatile text = "a string of 26 characters";

NOINLINE static void measure(void)
{
	if (strlen(text) != 25)
		wrong++;
	calls++;
}

NOINLINE static void *race(void *arg)
{
	while (!phase)
		measure();
	for (int i = 0; i < AFTER; i++)
		measure();
	phase = 2;
	return arg;
}

/* Returns once the thread calls strlen: it goes on while dlopen patches the slot. */
__attribute__((constructor)) static void start(void)
{
	pthread_create(&thread, NULL, race, NULL);
	while (calls < 1000)
		;
}

void racer_go(void)
{
	phase = 1;
}

long racer_finish(long *w)
{
	pthread_join(thread, NULL);
	*w = wrong;
	return calls;
}
