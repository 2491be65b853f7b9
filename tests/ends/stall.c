/*
 * stall.c: a signal that ends the program while it holds its allocator's lock
 * (as a signal that interrupts malloc does): the runtime's thread, whose dump
 * allocates, waits for that lock forever.  `stall` calls work() 5 times, takes
 * the lock and sends itself SIGTERM: the handler waiting for the dump must give
 * up once the thread has used no CPU for a while, and the program die of SIGTERM.
 */
#include <pthread.h>
#include <signal.h>
#include <stddef.h>

#include "e2e.h"

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void __libc_free(void *);

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static volatile int sink;

void *malloc(size_t n)
{
	void *p;

	pthread_mutex_lock(&lock);
	p = __libc_malloc(n);
	pthread_mutex_unlock(&lock);
	return p;
}

void *calloc(size_t n, size_t size)
{
	void *p;

	pthread_mutex_lock(&lock);
	p = __libc_calloc(n, size);
	pthread_mutex_unlock(&lock);
	return p;
}

void *realloc(void *old, size_t n)
{
	void *p;

	pthread_mutex_lock(&lock);
	p = __libc_realloc(old, n);
	pthread_mutex_unlock(&lock);
	return p;
}

void free(void *p)
{
	pthread_mutex_lock(&lock);
	__libc_free(p);
	pthread_mutex_unlock(&lock);
}

NOINLINE static void work(int i)
{
	sink += i;
}

int main(void)
{
	for (int i = 0; i < 5; i++)
		work(i);
	pthread_mutex_lock(&lock);
	raise(SIGTERM);
	return 3;
}
