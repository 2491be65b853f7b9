/*
 * sigtramp.c: signals aimed at the trampolines.  A sibling thread sends
 * SIGUSR1 to the main thread without pause while it makes rounds of 20,000
 * calls of caller, each calling leaf, so that most signals land inside the
 * probes: the __fentry__ entry, the exit trampoline, or the probe core between
 * them.  The handler counts its runs (it is not probed) and calls in_handler,
 * which is.  The rounds go on until the handler ran 2,000 times (at most 1,000
 * rounds), whatever the machine's load; prints "rounds R handled N".  Every
 * call of the loop is counted exactly, and each run of the handler is a call
 * of in_handler, those inside a probe on a signal level.
 */
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>

#include "e2e.h"

#define CALLS 20000
#define HANDLED 2000
#define MAX_ROUNDS 1000

/* Every function writes here, so no call is elided as useless. */
static volatile int sink;
static atomic_long handled;
static atomic_int done;
static pthread_t main_thread;

NOINLINE static void leaf(int i)
{
	sink += i;
}

NOINLINE static void caller(int i)
{
	leaf(i);
	sink ^= i; /* work after the call: it is no tail call */
}

NOINLINE static void in_handler(void)
{
	sink++;
}

__attribute__((no_instrument_function)) static void on_signal(int sig)
{
	(void)sig;
	atomic_fetch_add(&handled, 1);
	in_handler();
}

__attribute__((no_instrument_function)) static void *sender(void *arg)
{
	while (!atomic_load(&done))
		pthread_kill(main_thread, SIGUSR1);
	return arg;
}

int main(void)
{
	struct sigaction sa = { 0 };
	int rounds = 0;
	pthread_t s;

	sa.sa_handler = on_signal;
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGUSR1, &sa, NULL))
		return 2;
	main_thread = pthread_self();
	if (pthread_create(&s, NULL, sender, NULL))
		return 2;
	while (!atomic_load(&handled)) /* the sender runs */
		;
	do {
		for (int i = 0; i < CALLS; i++)
			caller(i);
		rounds++;
	} while (atomic_load(&handled) < HANDLED && rounds < MAX_ROUNDS);
	atomic_store(&done, 1);
	pthread_join(s, NULL);
	printf("rounds %d handled %ld\n", rounds, atomic_load(&handled));
	return 0;
}
