/* runs.h: repeated runs of a workload: which dumps make one run, which runs repeat one workload,
 * and the figures of a typical run (median over repeats) with their noise. */
#ifndef CALLPROF_RUNS_H
#define CALLPROF_RUNS_H

#include <stddef.h>
#include <stdint.h>

#include "estimate.h"
#include "profile.h"

/*
 * How a side of a diff is made of runs (docs/ci.md, "Runs and noise"):
 * - a run is one execution of the workload: the dumps of one run directory
 *   (all the processes of one pass of a test suite, added up), or a single
 *   dump;
 * - runs repeat one workload when they are run directories (all of a side's
 *   are one workload), or single dumps of one command line (the program's base
 *   name and its arguments: "demo 1000" run five times is five runs of one
 *   workload, "demo 100000" another workload).
 * A side's figure of a typical run is, for each workload, the median over
 * its runs (a run where a function did not run counts 0), added up over the
 * workloads.
 */
struct runs_plan {
	size_t ndumps;
	uint32_t *run_of; /* run_of[dump]: its run */
	size_t nruns;
	uint32_t *group_of; /* group_of[run]: its workload */
	size_t ngroups;
};

/*
 * runs_plan_init plans the runs of the n dumps whose runs are runs[0..n)
 * (profile.runs): dump i belongs to run directory dir_run[i] when that is
 * >= 0 (directories numbered from 0), else it is a run of its own; dir_run
 * NULL: every dump is a run of its own.
 */
void runs_plan_init(struct runs_plan *pl, const struct run *const *runs, size_t n,
		    const int64_t *dir_run);
void runs_plan_release(struct runs_plan *pl);

/* Figures of a typical run: each an estimate (median and standard error). */
struct runs_fig {
	struct estimate calls, incl_ns, self_ns;
};

/* What runs_typical found about a side as a whole. */
struct runs_side {
	struct runs_fig
		total; /* the whole run: calls, and its profiled time in incl_ns and self_ns */
	struct estimate wall_ns; /* the dumps' wall times, added up per run */
	uint64_t wall_sum_ns; /* wall time of the threads that say how long they waited for a CPU */
	uint64_t wait_sum_ns; /* ... and that wait, taken out of the times unless wall_clock */
	size_t nwait_threads, nthreads;
};

/*
 * runs_typical fills fns[p->nfuncs] and edges[p->nedges] (p built from the
 * plan's dumps, in order) and side.  Times come from each thread's figures,
 * scaled by the share of its wall time it did not wait for a CPU
 * (pthread.runq_wait_ns): on a loaded machine that wait lands in whatever
 * function runs, as if the code were slower, and taking it out evenly is
 * right on average (not for one call).  wall_clock keeps the times as
 * measured.  A function's time in a workload is no less noisy than the
 * whole run's time there: its standard error is at least the run total's
 * (a preemption may land in any function).
 */
void runs_typical(const struct profile *p, const struct runs_plan *pl, int wall_clock,
		  struct runs_fig *fns, struct runs_fig *edges, struct runs_side *side);

/* runs_round: an estimate's value as a whole figure (0 below 0). */
uint64_t runs_round(struct estimate e);

#endif
