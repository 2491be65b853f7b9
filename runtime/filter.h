/*
 * filter.h: which functions are profiled (CALLPROF_INCLUDE, CALLPROF_EXCLUDE:
 * comma-separated globs on demangled function names or on module file names).
 * Decided per module when it is loaded, at start-up and after each dlopen, for
 * every function of its symbol table at once, into the table the probes read
 * (verdict.h).  An excluded function is transparent: its time stays with its
 * caller and its instrumented callees attach to the nearest included frame.
 * The same pass picks the functions CALLPROF_ARGS selects, whose plans args.h
 * makes then.  Not for probes: these name functions with libdw, allocate and lock.
 */
#ifndef CALLPROF_FILTER_H
#define CALLPROF_FILTER_H

/* Reads the globs.  Once, from the lifecycle's start-up, when options.filtered
 * or CALLPROF_ARGS selects functions. */
void filter_setup(const char *include, const char *exclude);

/* Decides the functions of every loaded module not decided yet.  Only the
 * modules that call the probes are decided (their symbol tables name
 * __cyg_profile_func_enter or __fentry__); the runtime's own functions never are. */
void filter_load_modules(void);

/* Drops the verdicts of the decided modules that are no longer loaded. */
void filter_unload_modules(void);

/* Holds and releases the lock of the two above, around a fork. */
void filter_lock(void);
void filter_unlock(void);

#endif
