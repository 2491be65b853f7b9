/* schedstat.h: how long a thread waited for a CPU, as the kernel counts it. */
#ifndef CALLPROF_SCHEDSTAT_H
#define CALLPROF_SCHEDSTAT_H

#include <stdint.h>

/*
 * schedstat_wait_ns reads the time thread tid of this process spent runnable
 * but waiting for a CPU (the second figure of /proc/self/task/TID/schedstat,
 * in ns, since the thread started).  On a loaded machine that wait lands in
 * whatever function was running; the report takes it out when it compares
 * runs (docs/dump-format.md, runq_wait_ns).  Returns 0, or -1 when the thread
 * has ended or the kernel does not keep the figure.  No allocation, no stdio.
 */
int schedstat_wait_ns(int tid, uint64_t *wait_ns);

#endif
