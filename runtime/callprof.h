/*
 * callprof.h: the public API of libcallprof, for programs that want to steer
 * their own profile.  A program built with -finstrument-functions is profiled
 * without calling any of this: the profile is written at exit.
 *
 * Settings come from the environment, read once at start-up:
 *   CALLPROF_OUTPUT=PATH     where the dump goes (default callprof.json; %p = pid); a relative
 *                            PATH is taken from the working directory at start-up.  The dump
 *                            replaces a regular file only (keeping its mode and, where the
 *                            process may, its owner); a link, device or FIFO there is left alone
 *   CALLPROF_DISABLE=1       no profiling and no dump
 *   CALLPROF_DEBUGINFOD=1    libdw may ask DEBUGINFOD_URLS' servers for missing debug
 *                            information; otherwise the runtime never reaches the network
 *   CALLPROF_CLOCK=CLOCK     the timer: auto or tsc (plain TSC reads, the default),
 *                            tsc-ordered (fenced reads: each interval exactly its own
 *                            work), tsc-adaptive (fenced only where a call's work pays
 *                            for it), monotonic (CLOCK_MONOTONIC), none (exact counts,
 *                            no times)
 *   CALLPROF_COMPENSATE=0    keep raw times as the main figures
 *   CALLPROF_MAX_NODES=N     per-thread tree budget; past it paths fold to caller->callee
 *   CALLPROF_MAX_STACK=N     deepest shadow stack in frames; deeper calls are dropped and counted
 *   CALLPROF_INCLUDE=GLOBS   profile only functions whose demangled name or module file name
 *                            matches one of the comma-separated globs
 *   CALLPROF_EXCLUDE=GLOBS   do not profile those: their time stays with their caller, and
 *                            their instrumented callees attach to the nearest profiled frame
 *   CALLPROF_MAX_DEPTH=N     calls deeper than N frames are not recorded, likewise
 *   CALLPROF_ON_SIGNAL=0     no profile when a signal ends the program; by default, where the
 *                            program leaves SIGINT, SIGTERM, SIGSEGV, SIGABRT and the other
 *                            ending signals to their default action, a thread of the runtime's
 *                            writes what was gathered (marked cut_short), then the signal ends
 *                            the program as it would have (docs/ends.md); and with the shared
 *                            library, a program that ends by _exit or _Exit has it written first
 *   CALLPROF_DUMP_SIGNAL=SIG a signal (USR2, SIGRTMIN+3, or a number) whose arrival makes the
 *                            runtime's thread write the profile so far; the program runs on
 *   CALLPROF_DUMP_EVERY=S    the runtime's thread writes the profile every S seconds
 *   CALLPROF_ARGS=GLOBS      functions (demangled names) whose arguments and return values
 *                            are profiled: code built with -pg -mfentry and -g only
 *   CALLPROF_ARGS_ENTRIES=N  argument tuples, and return values, kept per function (64)
 *
 * Setuid, setgid and file-capability programs (AT_SECURE) are not profiled:
 * every CALLPROF_* variable is ignored, no dump is written anywhere,
 * callprof_enabled() returns 0 and callprof_dump() returns -1.  Run such a
 * program as the user it would become, or a copy without its privileges.
 */
#ifndef CALLPROF_H
#define CALLPROF_H

#ifdef __cplusplus
extern "C" {
#endif

/* Writes the profile so far to `path` (NULL: CALLPROF_OUTPUT or callprof.json;
 * %p expands to the pid; a relative `path` is taken from the working directory
 * now), atomically.  Functions still running are counted up
 * to now and go on being profiled.  Returns 0, or -1 after one line on stderr.
 * Not from a signal handler: writing a profile needs malloc and locks the
 * interrupted code may hold, so there it refuses (returns -1 after one line,
 * and the next profile counts it in refused_dumps); CALLPROF_DUMP_SIGNAL
 * writes one on a signal safely.  After the profile at exit, it writes nothing. */
__attribute__((no_instrument_function)) int callprof_dump(const char *path);

/* Discards every count and time collected so far on every thread; profiling
 * goes on from now.  Functions still running count from now.  Threads running
 * instrumented code meanwhile may keep a few calls from just before. */
__attribute__((no_instrument_function)) void callprof_reset(void);

/* 1 if this process is being profiled (the runtime is loaded and not disabled), else 0. */
__attribute__((no_instrument_function)) int callprof_enabled(void);

#ifdef __cplusplus
}
#endif

#endif
