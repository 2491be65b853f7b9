/*
 * alloc.c: a program with its own instrumented allocator, whose profile must
 * not count the runtime's allocations (issue 16 item 27): `alloc FIRST` makes
 * 100 allocations, writes its profile to FIRST with callprof_dump(), and exits
 * without allocating again, so the profile at exit counts exactly the calls of
 * malloc and free that FIRST counts (the dumps' own ones are not the program's).
 * `alloc FIRST OUT` has the runtime's thread write FIRST instead: it sends
 * itself SIGUSR2 (run with CALLPROF_DUMP_SIGNAL=USR2 and CALLPROF_OUTPUT=OUT),
 * waits for OUT and renames it FIRST.
 */
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include "e2e.h"

#define ALLOCS 100

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void __libc_free(void *);
/* The runtime's, linked or preloaded. */
extern int callprof_dump(const char *path) __attribute__((weak));

static volatile int sink;

NOINLINE void *malloc(size_t n)
{
	return __libc_malloc(n);
}

NOINLINE void *calloc(size_t n, size_t size)
{
	return __libc_calloc(n, size);
}

NOINLINE void *realloc(void *p, size_t n)
{
	return __libc_realloc(p, n);
}

NOINLINE void free(void *p)
{
	__libc_free(p);
}

NOINLINE static void work(void)
{
	for (int i = 0; i < ALLOCS; i++) {
		char *p = malloc(16 + (size_t)i);
		if (p)
			p[0] = (char)i;
		sink += p ? p[0] : 0;
		free(p);
	}
}

int main(int argc, char **argv)
{
	const struct timespec nap = { 0, 10000000L };

	work();
	if (argc == 3) {
		kill(getpid(), SIGUSR2);
		for (int i = 0; i < 3000; i++) {
			if (rename(argv[2], argv[1]) == 0)
				return 0;
			nanosleep(&nap, NULL);
		}
		return 3;
	}
	if (argc < 2 || !callprof_dump || callprof_dump(argv[1]) != 0)
		return 2;
	return 0;
}
