/* estimate.h: a figure of a typical run from repeated runs: the median, its standard error, and
 * whether a change between two of them stands out of their noise. */
#ifndef CALLPROF_ESTIMATE_H
#define CALLPROF_ESTIMATE_H

#include <stddef.h>

/*
 * A workload run n times gives n values of each figure (one function's
 * inclusive time, say).  Its typical value is their median, which one run
 * disturbed by the machine (a preemption landing in a small function) does
 * not move, and the noise of that median is its standard error,
 * sqrt(pi/2) * s / sqrt(n) with s the values' standard deviation (for n >= 3;
 * the mean's s / sqrt(n) for two values; unknown, 0, for one).
 *
 * Where a value is itself an estimate with a standard error of its own (a
 * dump of sampled timing gives one per function), that error plugs in: the
 * variance used is the larger of the values' spread and their own mean
 * squared error, so one sampled run still has a noise.
 *
 * Several workloads (programs, command lines) add up: values add, variances
 * add (estimate_add).
 */
struct estimate {
	double value; /* the median */
	double se;    /* its standard error; 0 when unknown (a single run) */
};

/*
 * estimate_of: the estimate from n >= 1 values x (reordered: sorted), each with
 * its own standard error in own_se[i], or own_se NULL when the values are
 * exact measurements.
 */
struct estimate estimate_of(double *x, size_t n, const double *own_se);

/* estimate_add: a + b for independent estimates. */
struct estimate estimate_add(struct estimate a, struct estimate b);

/*
 * estimate_beyond_noise: after - before exceeds k times the standard error of
 * that difference (the two errors combined).  With both errors unknown (0),
 * any growth counts: the caller's other thresholds decide.
 */
int estimate_beyond_noise(struct estimate before, struct estimate after, double k);

/* estimate_noise: the standard error of after - before. */
double estimate_noise(struct estimate before, struct estimate after);

#endif
