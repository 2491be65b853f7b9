/*
 * fork.c: main > forker > fork(), while another thread is blocked in
 * instrumented code.  The child runs child_work and calls exit from inside
 * forker; the parent waits for it and runs parent_work.  Prints the child's
 * pid, then its own.  The child's dump holds only what ran after the fork, plus main and
 * forker (open at the fork) with no calls: the parent's dump counted their entries.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "e2e.h"

/* Every function writes here, so no call is elided as useless. */
static volatile int sink;
static pthread_mutex_t block_lock = PTHREAD_MUTEX_INITIALIZER;
static int blocker_started;

NOINLINE static void leaf(int i)
{
	sink += i;
}

NOINLINE static void before(void)
{
	leaf(1);
}

NOINLINE static void child_work(void)
{
	for (int i = 0; i < 3; i++)
		leaf(i);
}

NOINLINE static void parent_work(void)
{
	leaf(2);
}

NOINLINE static void *blocker(void *arg)
{
	leaf(0);
	__atomic_store_n(&blocker_started, 1, __ATOMIC_RELEASE);
	pthread_mutex_lock(&block_lock);
	return arg;
}

NOINLINE static int forker(void)
{
	int status;
	pid_t pid;

	before();
	fflush(stdout);
	pid = fork();
	if (pid < 0)
		return 2;
	if (pid == 0) {
		child_work();
		exit(0);
	}
	printf("%d\n%d\n", (int)pid, (int)getpid());
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
		return 3;
	parent_work();
	return 0;
}

int main(void)
{
	pthread_t tid;

	pthread_mutex_lock(&block_lock);
	if (pthread_create(&tid, NULL, blocker, NULL) != 0)
		return 2;
	while (!__atomic_load_n(&blocker_started, __ATOMIC_ACQUIRE))
		usleep(1000);
	before();
	return forker();
}
