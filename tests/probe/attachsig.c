/*
 * attachsig.c: signal handlers that run while a thread's first probe sets up
 * its state (issue 16 item 24: such runs were neither recorded nor counted as
 * dropped).  The program defines mmap, which the runtime calls to map a new
 * thread's state; while the thread's first instrumented call is under way,
 * each mmap raises a signal whose handler is instrumented.  Every handler run
 * enters two functions (on_signal, in_signal); a run inside a probe is
 * dropped whole and counted, so on the thread
 *   calls(on_signal) + calls(in_signal) + dropped_in_signal = 2 x runs.
 * Prints "runs N".
 * Calls: first_call 1, on the second thread.
 */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "e2e.h"

#define NOPROBE __attribute__((no_instrument_function))

/* Set while the thread's first instrumented call runs. */
static __thread int armed;
static volatile sig_atomic_t runs;
static volatile int sink;

NOPROBE void *mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
	long r = syscall(SYS_mmap, addr, len, prot, flags, fd, off);

	if (armed)
		raise(SIGUSR1);
	return (void *)r;
}

NOINLINE static void in_signal(void)
{
	sink++;
}

NOINLINE static void on_signal(int sig)
{
	runs++;
	sink += sig;
	in_signal();
}

NOINLINE static void first_call(void)
{
	sink++;
}

NOPROBE static void *thread_start(void *arg)
{
	(void)arg;
	armed = 1;
	first_call();
	armed = 0;
	return NULL;
}

int main(void)
{
	pthread_t th;

	signal(SIGUSR1, on_signal);
	pthread_create(&th, NULL, thread_start, NULL);
	pthread_join(th, NULL);
	printf("runs %d\n", (int)runs);
	return 0;
}
