/*
 * filter.h: which functions are profiled (CALLPROF_INCLUDE, CALLPROF_EXCLUDE:
 * comma-separated globs on demangled function names or on module file names).
 * Decided once per function, on its first sight, and cached; never per call.
 * An excluded function is transparent: its time stays with its caller and its
 * instrumented callees attach to the nearest included frame.
 */
#ifndef CALLPROF_FILTER_H
#define CALLPROF_FILTER_H

#include <stdbool.h>
#include <stdint.h>

/* True when any filter is set (then the slow path asks filter_admits). */
extern bool filter_on;

/* Reads the globs from the options.  Called once at start-up. */
void filter_setup(const char *include, const char *exclude);

/* True if calls of `fn` are recorded.  Cold: the first call names the
 * function with libdw; later calls find the cached answer without a lock. */
bool filter_admits(uintptr_t fn);

#endif
