/*
 * threads.c: 200 short-lived threads; 10 threads that call pthread_exit four
 * instrumented frames down; 20 detached threads; a TSD destructor that runs
 * instrumented code after a thread's function returned; a thread still
 * running when main returns, blocked inside instrumented code.  With the
 * argument "spin", only a thread that calls tiny functions in a loop while
 * the process exits and writes its dump.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "e2e.h"

#define SHORT_THREADS 200
#define EXIT_THREADS 10
#define DETACHED_THREADS 20

/* Every function writes here, so no call is elided as useless. */
static volatile int sink;
static pthread_key_t key;
static int detached_done;
static pthread_mutex_t block_lock = PTHREAD_MUTEX_INITIALIZER;
static int spinner_started;

NOINLINE static void leaf(int i)
{
	sink += i;
}

NOINLINE static void *short_worker(void *arg)
{
	for (int i = 0; i < 10; i++)
		leaf(i);
	return arg;
}

NOINLINE static void exit3(void)
{
	leaf(3);
	pthread_exit(NULL);
}

NOINLINE static void exit2(void)
{
	exit3();
	sink++;
}

NOINLINE static void exit1(void)
{
	exit2();
	sink++;
}

NOINLINE static void *exit_worker(void *arg)
{
	exit1();
	return arg;
}

NOINLINE static void tsd_cleanup(void *value)
{
	leaf((int)(long)value);
}

NOINLINE static void *tsd_worker(void *arg)
{
	pthread_setspecific(key, (void *)7L);
	leaf(1);
	return arg;
}

NOINLINE static void *detached_worker(void *arg)
{
	leaf(2);
	__atomic_add_fetch(&detached_done, 1, __ATOMIC_RELEASE);
	return arg;
}

/* Set once blocked() has been entered (and counted): main waits for it rather than for a
 * time a loaded machine may not keep. */
static int blocked_entered;

/* Blocks for good: the lock is held by main until the process exits. */
NOINLINE static void blocked(void)
{
	__atomic_store_n(&blocked_entered, 1, __ATOMIC_RELEASE);
	pthread_mutex_lock(&block_lock);
}

NOINLINE static void *blocked_worker(void *arg)
{
	blocked();
	return arg;
}

NOINLINE static void spin_leaf(void)
{
	sink++;
}

NOINLINE static void *spinner(void *arg)
{
	spin_leaf();
	__atomic_store_n(&spinner_started, 1, __ATOMIC_RELEASE);
	for (;;)
		spin_leaf();
	return arg;
}

static pthread_t start(void *(*fn)(void *), int detached)
{
	pthread_attr_t attr;
	pthread_t tid;

	pthread_attr_init(&attr);
	if (detached)
		pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	if (pthread_create(&tid, &attr, fn, NULL) != 0)
		exit(2);
	pthread_attr_destroy(&attr);
	return tid;
}

/* The one thread still calling functions while the dump is written.  Never
 * inlined: a -pg -mfentry build probes only the functions left after inlining. */
NOINLINE static int spin_main(void)
{
	start(spinner, 1);
	while (!__atomic_load_n(&spinner_started, __ATOMIC_ACQUIRE))
		usleep(1000);
	usleep(10000);
	leaf(0);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "spin"))
		return spin_main();
	pthread_key_create(&key, tsd_cleanup);
	pthread_mutex_lock(&block_lock);
	for (int i = 0; i < SHORT_THREADS; i++)
		pthread_join(start(short_worker, 0), NULL);
	for (int i = 0; i < EXIT_THREADS; i++)
		pthread_join(start(exit_worker, 0), NULL);
	pthread_join(start(tsd_worker, 0), NULL);
	for (int i = 0; i < DETACHED_THREADS; i++)
		start(detached_worker, 1);
	while (__atomic_load_n(&detached_done, __ATOMIC_ACQUIRE) < DETACHED_THREADS)
		usleep(1000);
	start(blocked_worker, 1);
	while (!__atomic_load_n(&blocked_entered, __ATOMIC_ACQUIRE))
		usleep(1000);
	usleep(1000); /* let it block, most likely: the dump must do as well if it has not */
	leaf(0);
	return 0;
}
