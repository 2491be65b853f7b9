/*
 * clock.h: the probes' timer.  Ticks are TSC cycles where the kernel reports an
 * invariant TSC, else CLOCK_MONOTONIC nanoseconds, or always 0 with CALLPROF_CLOCK=none.
 * Ticks become nanoseconds only at dump time (clock_ticks_to_ns).
 */
#ifndef CALLPROF_CLOCK_H
#define CALLPROF_CLOCK_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "compat.h"

enum clock_source { CLOCK_SRC_TSC, CLOCK_SRC_MONOTONIC, CLOCK_SRC_NONE };

/* Chosen once by clock_init(), read by every probe. */
extern enum clock_source clock_source;

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
/* A plain rdtsc: rdtscp or fenced reads cost nearly twice as much. */
static inline CP_NOINSTR uint64_t clock_tsc_read(void) { return __rdtsc(); }
#else
static inline CP_NOINSTR uint64_t clock_tsc_read(void) { return 0; }
#endif

static inline CP_NOINSTR uint64_t clock_mono_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts); /* vDSO: no system call */
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* The current time in ticks; the probes' only timer read. */
static inline CP_NOINSTR uint64_t clock_now(void)
{
	if (likely(clock_source == CLOCK_SRC_TSC))
		return clock_tsc_read();
	if (clock_source == CLOCK_SRC_NONE)
		return 0;
	return clock_mono_ns();
}

/* Picks the source from `requested` ("auto", "tsc", "monotonic", "none") and
 * records the start reference points.  Returns the source chosen. */
enum clock_source clock_init(const char *requested);

/* Ticks per second, measured between clock_init() and now (at least 2 ms apart). */
double clock_ticks_per_second(void);

/* Converts a tick count to nanoseconds with the rate from clock_ticks_per_second(). */
uint64_t clock_ticks_to_ns(uint64_t ticks, double ticks_per_second);

/* "tsc", "monotonic" or "none". */
const char *clock_source_name(void);

/* True if the CPU reports an invariant TSC (CPUID 0x80000007 EDX bit 8). */
bool clock_tsc_invariant(void);

#endif
