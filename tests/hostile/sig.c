/*
 * sig.c: instrumented signal handlers landing on instrumented code, and inside
 * its probes: a tight loop of tiny calls under a 20 us ITIMER_REAL and an
 * ITIMER_PROF; signals sent by another thread with pthread_kill; a handler
 * that raises its own signal again (SA_NODEFER) four levels deep; the same
 * handler on an alternate signal stack.  Prints the handlers' own counts.
 *
 * SIGALRM and SIGPROF share a handler with an empty sa_mask, so one can land
 * in the middle of the other: the handlers count their runs with lock-free
 * atomic increments, which no signal can split, so the counts are exact.
 */
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>

#include "e2e.h"

#define LOOP_CALLS 2000000
#define KILLS 2000
#define NESTED_ROUNDS 200
#define NEST_DEPTH 4

/* Every function writes here, so no call is elided as useless. */
static volatile unsigned sink; /* wraps freely: it only keeps the calls */
/* Activations of each handler, counted by the handler itself.  Atomic: a
 * plain ++ is a load and a store, and a handler landing between the two
 * (SIGPROF inside SIGALRM's run of on_timer, say) would lose its count. */
static atomic_int timer_runs, kill_runs, nest_runs, alt_runs;
static volatile sig_atomic_t nest_depth;
static volatile sig_atomic_t stop_killer;

NOINLINE static void in_handler(void)
{
	sink++;
}

/* Each handler calls in_handler once, so its calls equal the handler's. */
NOINLINE static void on_timer(int sig)
{
	atomic_fetch_add_explicit(&timer_runs, 1, memory_order_relaxed);
	sink += sig;
	in_handler();
}

NOINLINE static void on_kill(int sig)
{
	atomic_fetch_add_explicit(&kill_runs, 1, memory_order_relaxed);
	sink += sig;
	in_handler();
}

NOINLINE static void on_nested(int sig)
{
	atomic_fetch_add_explicit(&nest_runs, 1, memory_order_relaxed);
	in_handler();
	if (++nest_depth < NEST_DEPTH)
		raise(sig);
	nest_depth--;
}

NOINLINE static void on_alt(int sig)
{
	atomic_fetch_add_explicit(&alt_runs, 1, memory_order_relaxed);
	sink += sig;
	in_handler();
}

NOINLINE static void tiny(int i)
{
	sink += i;
}

NOINLINE static void loop(int n)
{
	for (int i = 0; i < n; i++)
		tiny(i);
}

static void handle(int sig, void (*fn)(int), int flags)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = fn;
	sa.sa_flags = flags | SA_RESTART;
	sigaction(sig, &sa, NULL);
}

static void timers(long usec)
{
	struct itimerval it = { { 0, usec }, { 0, usec } };

	setitimer(ITIMER_REAL, &it, NULL);
	setitimer(ITIMER_PROF, &it, NULL);
}

NOINLINE static void timed_loop(void)
{
	handle(SIGALRM, on_timer, 0);
	handle(SIGPROF, on_timer, 0);
	timers(20);
	loop(LOOP_CALLS);
	timers(0);
}

static void *killer(void *arg)
{
	pthread_t target = *(pthread_t *)arg;

	for (int i = 0; i < KILLS; i++) {
		pthread_kill(target, SIGUSR1);
		usleep(20);
	}
	stop_killer = 1;
	return NULL;
}

/* Runs tiny calls while another thread sends SIGUSR1; returns the loops run. */
NOINLINE static long killed_loop(void)
{
	pthread_t self = pthread_self(), tid;
	long loops = 0;

	handle(SIGUSR1, on_kill, 0);
	if (pthread_create(&tid, NULL, killer, &self) != 0)
		exit(2);
	while (!stop_killer) {
		loop(100);
		loops++;
	}
	pthread_join(tid, NULL);
	return loops;
}

NOINLINE static void nested(void)
{
	handle(SIGUSR2, on_nested, SA_NODEFER);
	for (int i = 0; i < NESTED_ROUNDS; i++)
		raise(SIGUSR2);
}

NOINLINE static void alternate(void)
{
	stack_t ss = { .ss_sp = malloc(1 << 16), .ss_size = 1 << 16 };

	if (sigaltstack(&ss, NULL) != 0)
		exit(2);
	handle(SIGALRM, on_alt, SA_ONSTACK);
	handle(SIGPROF, on_alt, SA_ONSTACK);
	timers(20);
	loop(LOOP_CALLS / 4);
	timers(0);
}

int main(void)
{
	long loops;

	timed_loop();
	loops = killed_loop();
	nested();
	alternate();
	printf("timer_runs %d\nkill_runs %d\nnest_runs %d\nalt_runs %d\nkilled_loops %ld\n",
	       atomic_load(&timer_runs), atomic_load(&kill_runs), atomic_load(&nest_runs),
	       atomic_load(&alt_runs), loops);
	return 0;
}
