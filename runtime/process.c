/* process.c: the process's start-up below the probes (options, clock, filters on or off, thread registry). */
#include "process.h"

#include <sched.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "cputime.h"
#include "options.h"
#include "shadow.h"
#include "tstate.h"
#include "verdict.h"

/* Where start-up is: not begun, under way on `starter`, or done. */
enum { START_NONE, START_RUNNING, START_DONE };

struct process_info process;
static int start_state = START_NONE;
/* The thread running start-up: a probe it runs meanwhile must not wait for itself. */
static int starter;

static void start_profile(void)
{
	process.pid = getpid();
	process.start_ticks = clock_now();
	process.start_realtime_ns = clock_gettime_ns(CLOCK_REALTIME);
}

static void start(void)
{
	options_read();
	if (options.disabled)
		return;
	/* no invariant TSC: every call is timed */
	frames_sampled = clock_init(options.clock, options.sampled) == CLOCK_SRC_TSC_SAMPLED;
	frames_sample_rate = options.sample_rate;
	cputime_init(options.cpu);
	tstate_setup();
	verdict_on = options.filtered;
	start_profile();
	process.ready = true;
}

int process_start(void)
{
	int state = __atomic_load_n(&start_state, __ATOMIC_ACQUIRE);
	int me;

	if (state == START_DONE)
		return process.ready;
	me = (int)gettid();
	if (__atomic_compare_exchange_n(&start_state, &state, START_RUNNING, false,
					__ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
		__atomic_store_n(&starter, me, __ATOMIC_RELAXED);
		start();
		__atomic_store_n(&start_state, START_DONE, __ATOMIC_RELEASE);
		return process.ready;
	}
	if (state == START_RUNNING && __atomic_load_n(&starter, __ATOMIC_RELAXED) == me)
		return -1;
	while (__atomic_load_n(&start_state, __ATOMIC_ACQUIRE) != START_DONE)
		sched_yield();
	return process.ready;
}

void process_forked(void)
{
	process.forked = true;
	process.threads_lost = process.lost_calls = 0;
	start_profile();
}

void process_restart(uint64_t now_ticks)
{
	process.start_ticks = now_ticks;
}
