/*
 * coro.c: two coroutines (makecontext/swapcontext) that take turns with main,
 * 50 turns each: one on a stack from malloc, below main's, and one on a stack
 * in main's frame, above the frames that switch to it.  Each turn calls work
 * and yields; the counts of every function that ran must be exact, and so
 * must the edges: each context has its stack of calls.  `coro heap` runs the
 * first alone, `coro frame` the second.  `coro fork` runs the first alone and
 * forks inside it at turn 25: the child goes on through both contexts' open
 * calls (under -pg -mfentry, their hijacked returns) to the end, the parent
 * waits for it and prints its pid.  Both coroutines run one function, so one
 * node of the tree has two calls open at once, one per context: each turn
 * does work of its own before its calls (a tenth of work's), which its self
 * time must keep whichever context ran meanwhile (under sampled timing, a
 * timed call's running sums are its node's: shadow.h, shadow_park).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <ucontext.h>
#include <unistd.h>

#include "e2e.h"

#define TURNS 50
#define STACK_BYTES (256 * 1024)
#define SPIN 20000 /* work's turns of its loop; a coroutine's own, a tenth of it */

/* Every function writes here, so no call is elided as useless. */
static volatile int sink;
static ucontext_t main_ctx, co_ctx[2];
static int fork_at = -1; /* the turn the coroutine forks at (coro fork) */
static pid_t child;

NOINLINE static void work(int i)
{
	for (int k = 0; k < SPIN; k++)
		sink += i;
}

NOINLINE static void yield(int id)
{
	swapcontext(&co_ctx[id], &main_ctx);
}

NOINLINE static void coroutine(int id)
{
	for (int i = 0; i < TURNS; i++) {
		for (int k = 0; k < SPIN / 10; k++)
			sink += k;
		work(i);
		if (i == fork_at && (child = fork()) < 0)
			exit(2);
		yield(id);
	}
}

NOINLINE static void resume(int id)
{
	swapcontext(&main_ctx, &co_ctx[id]);
}

/* Runs coroutine `first` up to `last` in turns. */
NOINLINE static void schedule(int first, int last)
{
	for (int i = 0; i < TURNS; i++) {
		for (int id = first; id <= last; id++)
			resume(id);
		work(-1);
	}
	for (int id = first; id <= last; id++)
		resume(id); /* each coroutine returns to main_ctx through uc_link */
}

static void start(int id, void *stack)
{
	getcontext(&co_ctx[id]);
	co_ctx[id].uc_stack.ss_sp = stack;
	co_ctx[id].uc_stack.ss_size = STACK_BYTES;
	co_ctx[id].uc_link = &main_ctx;
	makecontext(&co_ctx[id], (void (*)(void))coroutine, 1, id);
}

int main(int argc, char **argv)
{
	char above[STACK_BYTES]; /* in main's frame: above schedule's */
	const char *which = argc > 1 ? argv[1] : "both";
	int status;

	if (!strcmp(which, "fork")) {
		which = "heap";
		fork_at = TURNS / 2;
	}
	start(0, malloc(STACK_BYTES));
	start(1, above);
	schedule(!strcmp(which, "frame"), strcmp(which, "heap") ? 1 : 0);
	work(-2);
	if (child > 0) {
		if (waitpid(child, &status, 0) != child || !WIFEXITED(status) || WEXITSTATUS(status))
			return 3;
		printf("%d\n", (int)child);
	}
	return 0;
}
