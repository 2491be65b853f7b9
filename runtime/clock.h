/*
 * clock.h: the probes' timer.  Ticks are TSC cycles where the kernel reports an
 * invariant TSC, else CLOCK_MONOTONIC nanoseconds, or always 0 with CALLPROF_CLOCK=none.
 * Ticks become nanoseconds only at dump time (clock_ticks_to_ns).
 *
 * A plain rdtsc is not ordered with the instructions around it: an out-of-order
 * core may take a function's exit timestamp before a cache miss or dependency
 * chain at its end has finished, and the time lands in its caller.  The
 * tsc-ordered source (CALLPROF_CLOCK=tsc-ordered) fences the reads so every
 * interval holds exactly its own instructions, at about 2.5 times the probe
 * cost; the probes' cost then also stops depending on the code around them.
 * tsc-adaptive fences only the calls that pay for it.  Which read each
 * probe takes under each source is the stamp policy's business (stamp.h).
 */
#ifndef CALLPROF_CLOCK_H
#define CALLPROF_CLOCK_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "compat.h"

enum clock_source {
	CLOCK_SRC_TSC,
	CLOCK_SRC_TSC_ORDERED,
	CLOCK_SRC_TSC_ADAPTIVE, /* plain reads, fenced for the nodes stamp.h picks */
	CLOCK_SRC_TSC_SAMPLED,  /* plain reads on the calls stamp.h samples (CALLPROF_TIMING) */
	CLOCK_SRC_MONOTONIC,
	CLOCK_SRC_NONE
};

/* Chosen once by clock_init(), read by every probe; CLOCK_SRC_MONOTONIC once stopped. */
extern enum clock_source clock_source;

/*
 * A program may forbid the TSC (prctl PR_SET_TSC to PR_TSC_SIGSEGV, or strict
 * seccomp): then an rdtsc, and a vDSO clock_gettime over the TSC clocksource,
 * kill it.  clock_stop() (the prctl interposer calls it before the kernel
 * hears of it) stops the clock for good: every read returns clock_stopped_ticks
 * from then on, so later calls are counted but take no time, and calls open
 * across the stop end at it.  It swaps the source for CLOCK_SRC_MONOTONIC,
 * whose read below returns that value, so no probe reads the TSC again.
 */
extern bool clock_stopped;
extern uint64_t clock_stopped_ticks;

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
/* A plain rdtsc: rdtscp or fenced reads cost nearly twice as much. */
static inline CP_NOINSTR uint64_t clock_tsc_read(void)
{
	return __rdtsc();
}
/* Fenced reads for tsc-ordered.  An entry timestamp is taken after everything
 * before it has finished and before anything after it starts; an exit
 * timestamp only needs the first half.  (Linux makes lfence dispatch-serializing
 * on AMD too.) */
static inline CP_NOINSTR void clock_lfence(void)
{
	__asm__ __volatile__("lfence" ::: "memory"); /* _mm_lfence, without SSE2 code around it */
}
static inline CP_NOINSTR uint64_t clock_tsc_read_fenced(void)
{
	uint64_t t;

	clock_lfence();
	t = __rdtsc();
	clock_lfence();
	return t;
}
static inline CP_NOINSTR uint64_t clock_tsc_read_after(void)
{
	clock_lfence();
	return __rdtsc();
}
#else
static inline CP_NOINSTR uint64_t clock_tsc_read(void)
{
	return 0;
}
static inline CP_NOINSTR uint64_t clock_tsc_read_fenced(void)
{
	return 0;
}
static inline CP_NOINSTR uint64_t clock_tsc_read_after(void)
{
	return 0;
}
#endif

/* A struct timespec in nanoseconds. */
static inline CP_NOINSTR uint64_t timespec_ns(const struct timespec *ts)
{
	return (uint64_t)ts->tv_sec * 1000000000u + (uint64_t)ts->tv_nsec;
}

static inline CP_NOINSTR uint64_t clock_mono_ns(void)
{
	struct timespec ts;

	if (unlikely(clock_stopped))
		return clock_stopped_ticks;
	clock_gettime(CLOCK_MONOTONIC, &ts); /* vDSO: no system call */
	return timespec_ns(&ts);
}

/* The current time in ticks, for the cold paths (closing frames a probe finds dead)
 * and the start and end of the profile. */
static inline CP_NOINSTR uint64_t clock_now(void)
{
	if (likely(clock_source <= CLOCK_SRC_TSC_SAMPLED)) /* any TSC source */
		return clock_tsc_read();
	if (clock_source == CLOCK_SRC_NONE)
		return 0;
	return clock_mono_ns();
}

/* Picks the source from `requested` ("auto" is "tsc"; "tsc-adaptive", "tsc-ordered",
 * "monotonic", "none"; a TSC that is not invariant gives "monotonic"; a TSC the
 * process may not read (PR_GET_TSC, inherited from whoever started it) gives
 * "none"), plain TSC reads becoming sampled ones when `sampled`, and records
 * the start reference points.  Returns the source chosen. */
enum clock_source clock_init(const char *requested, bool sampled);

/* A time of clock `id` in nanoseconds, for cold paths: from the vDSO, or by the
 * system call once the TSC may not be read (the vDSO reads it). */
uint64_t clock_gettime_ns(clockid_t id);

/* Stops the clock (see clock_stopped), once; the TSC must still be readable. */
void clock_stop(void);

/* Why the clock is what it is when it is not what was asked for, or NULL. */
const char *clock_note(void);

/* Ticks per second, measured between clock_init() and now (at least 2 ms apart). */
double clock_ticks_per_second(void);

/* Converts a tick count to nanoseconds with the rate from clock_ticks_per_second(). */
uint64_t clock_ticks_to_ns(uint64_t ticks, double ticks_per_second);

/* "tsc", "tsc-ordered", "tsc-adaptive", "monotonic" or "none" (once stopped: the source it was). */
const char *clock_source_name(void);

/* True if the CPU reports an invariant TSC (CPUID 0x80000007 EDX bit 8). */
bool clock_tsc_invariant(void);

#endif
