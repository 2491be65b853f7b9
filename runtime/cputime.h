/*
 * cputime.h: CPU time beside wall time.  The thread CPU clock is a system
 * call (no vDSO reads it), hundreds of times an rdtsc, so it is read only
 * around calls that last long beside it: a calling context's first call, and
 * then each call that follows one lasting at least cputime_long_ticks (the
 * probes settle it: cct.h's `cpu`, shadow.h's open CPU intervals).  The
 * report then splits a context's time into CPU and off-CPU time (blocked,
 * sleeping or preempted) by the CPU share of the calls that read it
 * (docs/dump-format.md, "CPU time").
 */
#ifndef CALLPROF_CPUTIME_H
#define CALLPROF_CPUTIME_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "clock.h"
#include "compat.h"

/* CALLPROF_CPU is not "off" and the clock reads time: set once at start-up. */
extern bool cputime_on;

/* A call that lasts this many ticks or more makes its context read the CPU
 * clock on its next call (about 100 times what two reads cost: calib.c);
 * UINT64_MAX while CPU time is off. */
extern uint64_t cputime_long_ticks;

/*
 * This thread's CPU time in ns (user and system), or 0 when the kernel will
 * not tell.  A raw system call, so that no vector register and no errno is
 * touched: the hijacking exits call it with the return value live.
 */
static inline CP_NOINSTR uint64_t cputime_self_ns(void)
{
	struct timespec ts;
	long rc;

	__asm__ __volatile__("syscall"
			     : "=a"(rc)
			     : "0"(228L /* clock_gettime */), "D"((long)CLOCK_THREAD_CPUTIME_ID),
			       "S"(&ts)
			     : "rcx", "r11", "memory");
	if (rc != 0)
		return 0;
	return timespec_ns(&ts);
}

/* The CPU time in ns of thread `tid` of this process, for the dump (cold):
 * 0, or -1 when the thread has ended or the kernel will not tell. */
int cputime_thread_ns(int tid, uint64_t *ns);

/* Sets cputime_on and cputime_long_ticks from CALLPROF_CPU and the clock,
 * and the threshold from two reads' measured cost in ticks (calib.c).  Cold. */
void cputime_init(bool wanted);
void cputime_set_cost(double pair_ticks);

#endif
