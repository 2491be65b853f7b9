/*
 * sampled.h: a calling context's self time under sampled timing (stamp.h),
 * from its timed calls.  A timed call's self time is its time less its
 * callees' as they were lent to it (each whole, or one in R standing for R:
 * shadow.h).  Its context's first CCT_TIMED_FIRST calls are
 * all timed: their self time is exact up to their callees' sampling.  Of the
 * N later ones, m were timed, a random sample with no regard to what the
 * calls do, their self times summing S with squares Q: their self time is
 * estimated as N * S / m, whose variance is N^2 * s^2 / m * (1 - m / N), s^2
 * the sample's variance (Q - S^2 / m) / (m - 1), which holds the callees'
 * sampling too.  With one timed later call the error is taken as the whole
 * estimate; with none, the first calls' mean stands in for theirs, with the
 * same error.
 *
 * A context's inclusive time is then the sum of the self times of its
 * subtree (snapshot.c), and its variance the sum of theirs: a self time
 * varies far less from call to call than an inclusive one (a recursive
 * call's subtree may be one call or thousands), so this estimate is both
 * much closer and consistent, every inclusive time its self time and its
 * children's.
 */
#ifndef CALLPROF_SAMPLED_H
#define CALLPROF_SAMPLED_H

#include "cct.h"

/* The estimated self time of every finished call of `n`, in ticks, and its variance in *var. */
double sampled_self(const struct cct_node *n, double *var);

/* The standard error of a variance `var`: its square root (the runtime links no libm). */
double sampled_se(double var);

#endif
