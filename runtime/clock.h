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
	CLOCK_SRC_MONOTONIC,
	CLOCK_SRC_NONE
};

/* Chosen once by clock_init(), read by every probe. */
extern enum clock_source clock_source;

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
/* A plain rdtsc: rdtscp or fenced reads cost nearly twice as much. */
static inline CP_NOINSTR uint64_t clock_tsc_read(void) { return __rdtsc(); }
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
static inline CP_NOINSTR uint64_t clock_tsc_read(void) { return 0; }
static inline CP_NOINSTR uint64_t clock_tsc_read_fenced(void) { return 0; }
static inline CP_NOINSTR uint64_t clock_tsc_read_after(void) { return 0; }
#endif

static inline CP_NOINSTR uint64_t clock_mono_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts); /* vDSO: no system call */
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* The current time in ticks, for the cold paths (closing frames a probe finds dead)
 * and the start and end of the profile. */
static inline CP_NOINSTR uint64_t clock_now(void)
{
	if (likely(clock_source <= CLOCK_SRC_TSC_ADAPTIVE)) /* any TSC source */
		return clock_tsc_read();
	if (clock_source == CLOCK_SRC_NONE)
		return 0;
	return clock_mono_ns();
}

/* Picks the source from `requested` ("auto" is "tsc"; "tsc-adaptive", "tsc-ordered",
 * "monotonic", "none"; a TSC that is not invariant gives "monotonic") and
 * records the start reference points.  Returns the source chosen. */
enum clock_source clock_init(const char *requested);

/* Ticks per second, measured between clock_init() and now (at least 2 ms apart). */
double clock_ticks_per_second(void);

/* Converts a tick count to nanoseconds with the rate from clock_ticks_per_second(). */
uint64_t clock_ticks_to_ns(uint64_t ticks, double ticks_per_second);

/* "tsc", "tsc-ordered", "tsc-adaptive", "monotonic" or "none". */
const char *clock_source_name(void);

/* True if the CPU reports an invariant TSC (CPUID 0x80000007 EDX bit 8). */
bool clock_tsc_invariant(void);

#endif
