/*
 * coro.c: two coroutines (makecontext/swapcontext) that take turns with main,
 * 50 turns each: one on a stack from malloc, below main's, and one on a stack
 * in main's frame, above the frames that switch to it.  Each turn calls work
 * and yields; the counts of every function that ran must be exact.
 */
#include <stdlib.h>
#include <ucontext.h>

#include "e2e.h"

#define TURNS 50
#define STACK_BYTES (256 * 1024)

/* Every function writes here, so no call is elided as useless. */
static volatile int sink;
static ucontext_t main_ctx, co_ctx[2];

NOINLINE static void work(int i)
{
	sink += i;
}

NOINLINE static void yield(int id)
{
	swapcontext(&co_ctx[id], &main_ctx);
}

NOINLINE static void coroutine(int id)
{
	for (int i = 0; i < TURNS; i++) {
		work(i);
		yield(id);
	}
}

NOINLINE static void resume(int id)
{
	swapcontext(&main_ctx, &co_ctx[id]);
}

NOINLINE static void schedule(void)
{
	for (int i = 0; i < TURNS; i++) {
		resume(0);
		resume(1);
		work(-1);
	}
	resume(0); /* each coroutine returns to main_ctx through uc_link */
	resume(1);
}

static void start(int id, void *stack)
{
	getcontext(&co_ctx[id]);
	co_ctx[id].uc_stack.ss_sp = stack;
	co_ctx[id].uc_stack.ss_size = STACK_BYTES;
	co_ctx[id].uc_link = &main_ctx;
	makecontext(&co_ctx[id], (void (*)(void))coroutine, 1, id);
}

int main(void)
{
	char above[STACK_BYTES]; /* in main's frame: above schedule's */

	start(0, malloc(STACK_BYTES));
	start(1, above);
	schedule();
	work(-2);
	return 0;
}
