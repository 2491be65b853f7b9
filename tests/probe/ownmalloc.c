/*
 * ownmalloc.c: a program that defines its own instrumented malloc (issue 16
 * item 6: start-up allocated with malloc, the allocator's probe came back into
 * start-up, and the program hung before main).  Its allocator is called by
 * the C library and the loader before main, maybe before the runtime's
 * constructor, and by the runtime's own cold work; work() calls it ALLOCS
 * times.  Prints "done".
 * Calls: main 1, work 1; edge work malloc ALLOCS, edge work free ALLOCS.
 */
#include <stddef.h>
#include <stdio.h>

#include "e2e.h"

#define ALLOCS 100

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void __libc_free(void *);

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

int main(void)
{
	work();
	printf("done\n");
	return 0;
}
