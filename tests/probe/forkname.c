/*
 * forkname.c: fork while another thread's probe would name a function under
 * filters (issue 16 item 4).  A runtime that names functions inside probes
 * takes a naming lock there and calls libdw; this program defines libdw's
 * dwfl_addrmodule, so a call of it on the second thread tells the main thread
 * that the lock is held and waits until the main thread has forked.  The child
 * then calls a function nobody called before, and must not hang on that lock.
 * A runtime that decides filters when modules load never gets there: the
 * thread finishes its calls and says so.  Run with a filter set
 * (CALLPROF_EXCLUDE=nomatch) and %p in CALLPROF_OUTPUT.  Prints the child's
 * pid; exits 0, or 3 when the child hung (killed after 30 s).
 * Calls: main 1, thread_work 1, fresh_a 1, fresh_b 1; in the child, child_fresh 1.
 */
#include <dlfcn.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "e2e.h"

#define NOPROBE __attribute__((no_instrument_function))

static volatile int sink;
/* to_main: the thread says 'n' (inside naming) or 'd' (done); to_thread: the fork happened. */
static int to_main[2], to_thread[2];
static volatile pid_t child;

/* libdw's, called by a runtime that names functions: on the second thread,
 * it reports and waits for the fork first. */
NOPROBE void *dwfl_addrmodule(void *dwfl, unsigned long address);
NOPROBE void *dwfl_addrmodule(void *dwfl, unsigned long address)
{
	static void *(*real)(void *, unsigned long);
	char c = 'n';

	if (!real)
		*(void **)&real = dlsym(RTLD_NEXT, "dwfl_addrmodule");
	if (gettid() != getpid() && write(to_main[1], &c, 1) == 1)
		(void)!read(to_thread[0], &c, 1);
	return real ? real(dwfl, address) : NULL;
}

NOINLINE static void fresh_a(void)
{
	sink++;
}

NOINLINE static void fresh_b(void)
{
	sink++;
}

NOINLINE static void thread_work(void)
{
	fresh_a();
	fresh_b();
}

NOPROBE static void *thread_start(void *arg)
{
	char c = 'd';

	(void)arg;
	thread_work();
	(void)!write(to_main[1], &c, 1);
	return NULL;
}

NOINLINE static void child_fresh(void)
{
	sink++;
}

NOPROBE static void on_alarm(int sig)
{
	(void)sig;
	kill(child, SIGKILL);
	_exit(3);
}

int main(void)
{
	pthread_t th;
	char c;
	int status;

	if (pipe(to_main) || pipe(to_thread))
		return 2;
	pthread_create(&th, NULL, thread_start, NULL);
	if (read(to_main[0], &c, 1) != 1)
		return 2;
	child = fork();
	if (child == 0) {
		child_fresh();
		exit(0);
	}
	c = 'f';
	(void)!write(to_thread[1], &c, 1);
	signal(SIGALRM, on_alarm);
	alarm(30);
	waitpid(child, &status, 0);
	alarm(0);
	pthread_join(th, NULL);
	printf("%d\n", (int)child);
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : 4;
}
