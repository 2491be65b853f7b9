/*
 * jmp.c: longjmp and siglongjmp across three instrumented frames, 100 times
 * each, and siglongjmp out of a signal handler raised three frames down, on
 * the thread's stack and on two alternate signal stacks: one from malloc,
 * below the thread's stack, and one in main's frame, above the frames it
 * interrupts.  Calls made after each jump must
 * attach to the function that called setjmp.
 */
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "e2e.h"

#define ROUNDS 100

/* Every function writes here, so no call is elided as useless. */
static volatile int sink;
static jmp_buf env;
static sigjmp_buf senv;

NOINLINE static void deep3(int i, int sig)
{
	sink += i;
	if (sig)
		siglongjmp(senv, 1);
	longjmp(env, 1);
}

NOINLINE static void deep2(int i, int sig)
{
	deep3(i, sig);
	sink++;
}

NOINLINE static void deep1(int i, int sig)
{
	deep2(i, sig);
	sink++;
}

NOINLINE static void after(void)
{
	sink++;
}

NOINLINE static void catcher(int i)
{
	if (setjmp(env) == 0)
		deep1(i, 0);
	else
		after();
}

NOINLINE static void sigcatcher(int i)
{
	if (sigsetjmp(senv, 1) == 0)
		deep1(i, 1);
	else
		after();
}

NOINLINE static void on_usr1(int sig)
{
	sink += sig;
	siglongjmp(senv, 1);
}

NOINLINE static void raiser3(void)
{
	raise(SIGUSR1);
	sink++;
}

NOINLINE static void raiser2(void)
{
	raiser3();
	sink++;
}

NOINLINE static void raiser1(void)
{
	raiser2();
	sink++;
}

/* Jumps out of a handler that runs on top of raiser1 > raiser2 > raiser3. */
NOINLINE static void handler_catcher(void)
{
	if (sigsetjmp(senv, 1) == 0)
		raiser1();
	else
		after();
}

/* The same jump, from a handler running on the alternate stack. */
NOINLINE static void alt_catcher(void)
{
	if (sigsetjmp(senv, 1) == 0)
		raiser1();
	else
		after();
}

/* With an argument, only the jumps from the alternate stack in main's frame. */
int main(int argc, char **argv)
{
	char altstack[64 * 1024]; /* above every frame main calls */
	stack_t ss = { .ss_sp = altstack, .ss_size = sizeof(altstack) };
	stack_t heap_ss = { .ss_sp = malloc(sizeof(altstack)), .ss_size = sizeof(altstack) };
	struct sigaction sa;

	(void)argv;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_usr1;
	sigaction(SIGUSR1, &sa, NULL);
	for (int i = 0; i < ROUNDS && argc == 1; i++)
		catcher(i);
	for (int i = 0; i < ROUNDS && argc == 1; i++)
		sigcatcher(i);
	for (int i = 0; i < ROUNDS && argc == 1; i++)
		handler_catcher();
	sa.sa_flags = SA_ONSTACK;
	sigaction(SIGUSR1, &sa, NULL);
	if (sigaltstack(argc == 1 ? &heap_ss : &ss, NULL) != 0)
		return 2;
	for (int i = 0; i < ROUNDS; i++)
		alt_catcher();
	after();
	return 0;
}
