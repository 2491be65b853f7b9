/*
 * process.h: the process-wide part of start-up: what the first probe needs
 * (the options, the clock, whether calls are filtered, the thread registry)
 * and the facts of the profile every dump states.  It sits below the probes,
 * which start it when no constructor has run yet (the instrumented
 * constructors of other libraries run before ours under LD_PRELOAD); the rest
 * of start-up (calibration, the filters' verdicts, the interposers) is the
 * lifecycle's (lifecycle.c).
 */
#ifndef CALLPROF_PROCESS_H
#define CALLPROF_PROCESS_H

#include <stdbool.h>
#include <stdint.h>

struct process_info {
	bool ready;  /* start-up finished and profiling is on */
	bool forked; /* this process is a fork child of a profiled one */
	bool probed; /* an instrumented function ran: there is a profile to write */
	bool ending; /* the last dump has begun (exit, or a signal ending the
				      * process): the threads still running make no new call paths */
	int pid;
	uint64_t start_ticks;       /* profile start: start-up, fork or reset */
	uint64_t start_realtime_ns; /* the same moment on the wall clock, for the report's date */
	uint64_t threads_lost; /* threads whose state could not be made (no memory): not profiled */
	uint64_t lost_calls;   /* the calls those threads made */
	/* The thread that ran start-up: its profile's wait for a CPU (schedstat.h)
	 * is counted from its first probe, not from its start (probe.c's attach). */
	int start_wait_tid;
};

extern struct process_info process;

/*
 * Starts the process's part of the runtime, once, whoever comes first.
 * Allocates nothing from malloc and takes no lock: it may run inside the
 * program's first probe, wherever that is.  A thread that finds start-up
 * under way on another thread waits for it.  Returns 1 when profiling is
 * on, 0 when it is off (CALLPROF_DISABLE), and -1 when start-up is under way
 * on this very thread (code it runs came back to a probe): try again later.
 */
int process_start(void);

/* In a fork child: the profile restarts here, now. */
void process_forked(void);

/* The profile restarts now (callprof_reset). */
void process_restart(uint64_t now_ticks);

#endif
