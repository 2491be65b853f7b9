/* process.h: process-wide lifecycle: start-up, the dump at exit, and what a fork changes. */
#ifndef CALLPROF_PROCESS_H
#define CALLPROF_PROCESS_H

#include <stdbool.h>
#include <stdint.h>

struct process_info {
	bool ready;                  /* start-up finished and profiling is on */
	bool forked;                 /* this process is a fork child of a profiled one */
	bool probed;                 /* an instrumented function ran: there is a profile to write */
	int pid;
	uint64_t start_ticks;        /* profile start: start-up, fork or reset */
	uint64_t start_realtime_ns;  /* the same moment on the wall clock, for the report's date */
};

extern struct process_info process;

/* Reads the options, picks the clock, calibrates.  Idempotent and thread-safe. */
void process_init(void);

/* Called in a fork child, before any probe: the profile restarts there. */
void process_forked(void);

#endif
