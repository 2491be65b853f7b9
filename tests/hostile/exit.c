/*
 * exit.c: the ways a process ends, each with atexit handlers that call
 * instrumented functions.
 *   exit deep     main > a > b > c calls exit(0): the handler runs while
 *                 they are still open, so it attaches to c
 *   exit return   main returns; the handler is a root call
 *   exit thread   a second thread calls exit(0) four frames down while main
 *                 waits inside instrumented code
 */
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "e2e.h"

/* Every function writes here, so no call is elided as useless. */
static volatile int sink;

NOINLINE static void cleanup_helper(int i)
{
	sink += i;
}

NOINLINE static void on_exit_first(void)
{
	cleanup_helper(1);
}

NOINLINE static void on_exit_second(void)
{
	cleanup_helper(2);
	cleanup_helper(3);
}

NOINLINE static void c(void)
{
	exit(0);
}

NOINLINE static void b(void)
{
	c();
	sink++;
}

NOINLINE static void a(void)
{
	b();
	sink++;
}

/* Set once main is inside wait_forever, so the exit lands while that call is open. */
static volatile int main_waiting;

NOINLINE static void *exiting_thread(void *arg)
{
	while (!main_waiting)
		sched_yield();
	a();
	return arg;
}

NOINLINE static void wait_forever(void)
{
	main_waiting = 1;
	for (;;)
		pause();
}

int main(int argc, char **argv)
{
	pthread_t tid;

	atexit(on_exit_first);
	atexit(on_exit_second);
	if (argc < 2)
		return 1;
	if (!strcmp(argv[1], "deep"))
		a();
	if (!strcmp(argv[1], "thread")) {
		if (pthread_create(&tid, NULL, exiting_thread, NULL) != 0)
			return 2;
		wait_forever();
	}
	cleanup_helper(0);
	return 0;
}
