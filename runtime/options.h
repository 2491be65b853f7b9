/* options.h: the runtime's settings, read once from CALLPROF_* environment variables. */
#ifndef CALLPROF_OPTIONS_H
#define CALLPROF_OPTIONS_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>

struct options {
	bool disabled; /* CALLPROF_DISABLE=1 (or `secure`): no profiling, no dump */
	bool secure;   /* AT_SECURE (setuid, setgid, capabilities): the environment is ignored */
	char output[PATH_MAX]; /* CALLPROF_OUTPUT, default "callprof.json", made absolute
				     from the working directory at start-up; %p is the pid */
	bool debuginfod;       /* CALLPROF_DEBUGINFOD=1: libdw may ask DEBUGINFOD_URLS' servers */
	char clock
		[16]; /* CALLPROF_CLOCK: auto, tsc, tsc-ordered, tsc-adaptive, monotonic or none */
	bool compensate;       /* CALLPROF_COMPENSATE=0 keeps raw times as the main figures */
	bool sampled;          /* CALLPROF_TIMING=sampled: calls past each calling context's first
				     ones are timed one in sample_rate (stamp.h); "all" times every one */
	uint32_t sample_rate;  /* CALLPROF_SAMPLE: R, the mean calls per timed one once sampling */
	bool cpu;              /* CALLPROF_CPU=0: no CPU time beside wall time (cputime.h) */
	uint32_t meter_period; /* CALLPROF_METER: a thread's calls per metered one (meter.h),
				     0 = none */
	uint64_t max_nodes;    /* CALLPROF_MAX_NODES: tree node budget per thread, 0 = none */
	uint32_t max_stack;    /* CALLPROF_MAX_STACK: deepest shadow stack, in frames */
	uint32_t max_depth;    /* CALLPROF_MAX_DEPTH: deeper calls are transparent; 0 = no limit */
	char *include;         /* CALLPROF_INCLUDE globs, or NULL */
	char *exclude;         /* CALLPROF_EXCLUDE globs, or NULL */
	bool filtered;         /* either holds a glob: calls are filtered (verdict.h) */
	bool libcalls;         /* CALLPROF_LIBCALLS: calls into libraries are probed (got.h) */
	int root_pid;          /* CALLPROF_ROOT_PID (set by callprof record): the run's own process,
				     which alone writes CALLPROF_OUTPUT as it is; 0 = every process */
	bool follow;     /* CALLPROF_FOLLOW=1 (set by callprof record): a program started with an
				     environment that drops the profiler gets it back (spawn.c) */
	bool on_signal;  /* CALLPROF_ON_SIGNAL=0: no profile when a signal ends the program */
	int dump_signal; /* CALLPROF_DUMP_SIGNAL: this signal writes the profile; 0 = none */
	uint32_t
		dump_every_s; /* CALLPROF_DUMP_EVERY: write the profile every this many seconds; 0 = never */
	char *args;           /* CALLPROF_ARGS globs: functions whose arguments and return
				     values are profiled (args.h), or NULL */
	uint32_t args_entries; /* CALLPROF_ARGS_ENTRIES: argument tuples (and return values)
				     kept per function, the value profile's bound */
};

/* The settings in force; filled by options_read(). */
extern struct options options;

/* Reads the environment.  A value it cannot use gives one line on stderr and the default.
 * In a setuid, setgid or file-capability program it reads nothing and turns profiling off.
 * Allocates nothing from malloc and takes no lock: it runs inside the first probe. */
void options_read(void);

#endif
