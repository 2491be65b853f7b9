/*
 * dump.h: the profile as JSON (format "callprof", version 1; see
 * docs/dump-format.md), from a snapshot of the threads (snapshot.h), with
 * the functions named through libdw.  It neither measures nor reads the
 * runtime's state: what it states about the run comes in `struct dump_info`.
 */
#ifndef CALLPROF_DUMP_H
#define CALLPROF_DUMP_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "calib.h"
#include "kind.h"
#include "snapshot.h"

struct dump_info {
	int pid;
	uint64_t start_ticks;       /* the profile's start */
	uint64_t start_realtime_ns; /* the same moment on the wall clock */
	const char *clock_name;     /* "tsc", "tsc-adaptive", ... */
	uint32_t sample_rate;       /* sampled timing's R (stamp.h); 0: every call is timed */
	bool cpu_time;              /* CPU time beside wall time (cputime.h) */
	uint64_t cpu_long_ticks;    /* ... read after calls that lasted this long */
	double ticks_per_second;    /* 0: no clock */
	probe_kind_set kinds;       /* the kinds of call the clock makes (kind.h) */
	const struct calib *calib;  /* the probes' measured costs */
	bool compensate;            /* subtract them (CALLPROF_COMPENSATE) */
	uint64_t threads_lost;      /* threads not profiled: no memory for their state */
	uint64_t lost_calls;        /* the calls they made */
	uint64_t
		clock_stopped_ticks; /* nonzero: the clock stopped then (clock_stop): no time after */
	const char *clock_note;      /* why the clock is not the one asked for, or NULL */
	int cut_short;               /* nonzero: this signal is ending the process (a dump of
					* what was gathered, written before it dies) */
	uint64_t refused_dumps;      /* callprof_dump() calls refused inside a signal handler */
};

/* Writes the profile of `snap` to `f`, ending with a newline; the caller
 * checks the stream for write errors.  Returns 0, or -1 without memory. */
int dump_json(FILE *f, struct snapshot *snap, const struct dump_info *info);

#endif
