/* cputime.c: the thread CPU clock's set-up and the dump's reads of other threads. */
#include "cputime.h"

#include "clock.h"

bool cputime_on;
uint64_t cputime_long_ticks = UINT64_MAX;

/* How many times two reads' cost a call must last to read the CPU clock on
 * the next one: the reads then cost at most about 1% of its time. */
#define CPUTIME_LONG_FACTOR 100

int cputime_thread_ns(int tid, uint64_t *ns)
{
	/* The kernel's per-thread CPU clock id (CPUCLOCK_SCHED of a thread:
	 * linux/posix-timers.h), as pthread_getcpuclockid makes it. */
	clockid_t id = (clockid_t)((~(unsigned)tid << 3) | 6u);
	struct timespec ts;

	if (tid <= 0 || clock_gettime(id, &ts) != 0)
		return -1;
	*ns = timespec_ns(&ts);
	return 0;
}

void cputime_init(bool wanted)
{
	cputime_on = wanted && clock_source != CLOCK_SRC_NONE && cputime_self_ns() != 0;
	cputime_long_ticks = UINT64_MAX;
}

void cputime_set_cost(double pair_ticks)
{
	double ticks = pair_ticks * CPUTIME_LONG_FACTOR;

	if (cputime_on)
		cputime_long_ticks = ticks >= 1 ? (uint64_t)ticks : 1;
}
