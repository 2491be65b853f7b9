/*
 * sigalloc.c: an instrumented signal handler under filters allocates nothing
 * and takes no lock (issue 16 item 5: a runtime that named functions in the
 * handler's probes called malloc and libdw there, and corrupted the heap of a
 * program interrupted inside malloc).  The program defines malloc, calloc,
 * realloc, free and pthread_mutex_lock, counting the calls made while its
 * handler runs, and raises the signal RUNS times; the handler's functions are
 * new on its first run.  Run with a filter set (CALLPROF_EXCLUDE=nomatch).
 * Prints "in handler: N allocations, N locks".
 * Calls: on_signal RUNS, handler_a RUNS, handler_b RUNS, handler_c RUNS.
 */
#include <dlfcn.h>
#include <pthread.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>

#include "e2e.h"

#define RUNS 5
#define NOPROBE __attribute__((no_instrument_function))

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void __libc_free(void *);

static volatile sig_atomic_t in_handler;
static volatile int allocations, locks, sink;

NOPROBE void *malloc(size_t n)
{
	allocations += in_handler;
	return __libc_malloc(n);
}

NOPROBE void *calloc(size_t n, size_t size)
{
	allocations += in_handler;
	return __libc_calloc(n, size);
}

NOPROBE void *realloc(void *p, size_t n)
{
	allocations += in_handler;
	return __libc_realloc(p, n);
}

NOPROBE void free(void *p)
{
	allocations += in_handler;
	__libc_free(p);
}

NOPROBE int pthread_mutex_lock(pthread_mutex_t *m)
{
	static int (*real)(pthread_mutex_t *);

	locks += in_handler;
	if (!real)
		*(void **)&real = dlsym(RTLD_NEXT, "pthread_mutex_lock");
	return real(m);
}

NOINLINE static void handler_c(void)
{
	sink++;
}

NOINLINE static void handler_b(void)
{
	handler_c();
}

NOINLINE static void handler_a(void)
{
	handler_b();
}

NOINLINE static void on_signal(int sig)
{
	sink += sig;
	handler_a();
}

NOPROBE static void handler(int sig)
{
	in_handler = 1;
	on_signal(sig);
	in_handler = 0;
}

int main(void)
{
	signal(SIGUSR1, handler);
	for (int i = 0; i < RUNS; i++)
		raise(SIGUSR1);
	printf("in handler: %d allocations, %d locks\n", allocations, locks);
	return 0;
}
