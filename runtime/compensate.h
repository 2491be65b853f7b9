/*
 * compensate.h: subtracting the probes' measured cost (calib.h) from the raw
 * times of a calling-context tree's rows.  For a call of g from f, o_in of
 * the probe cost falls inside g's interval and o_out outside it, inside f's:
 *   inclusive = raw inclusive - calls * o_in - descendant calls * (o_in + o_out)
 *   self      = raw self      - calls * o_in - child calls * o_out
 * each clamped at zero (and self at inclusive).  Example: a row of 1 call
 * with 10 calls under it (4 of them its children's), o_in 2 and o_out 1 ticks:
 * raw inclusive 100 becomes 100 - 2 - 30 = 68; raw self 40 becomes 40 - 2 - 4 = 34.
 * A row's calls may be of several kinds of probe (kind.h), each with its own
 * costs: every sum above is then over the calls of each kind at that kind's cost.
 * A folded call's costs (fold.h) are taken where they ran, at the cost of
 * the kind of the front-end of the row they are charged to (the plain kind's
 * for -finstrument-functions, fentry's for -pg -mfentry, which is also what
 * the folded rows take their own o_in at): its o_out from its caller's self time, and its whole cost
 * from its charge's inclusive time (a nested folded caller's inclusive time
 * holds its callees' o_out too); a folded row is compensated as a root (its
 * tree parent is no caller of it).
 */
#ifndef CALLPROF_COMPENSATE_H
#define CALLPROF_COMPENSATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kind.h"

#define COMP_NO_PARENT UINT32_MAX

/* What one call's probes cost, in ticks, for one kind of probe. */
struct comp_cost {
	double o_in;
	double o_out;
	double unrecorded; /* the whole cost of a call of this kind that is not recorded
			    * (filtered out, too deep): its probes run in its caller's self time */
	double untimed;    /* the whole cost of an untimed call of this kind (sampled timing,
			    * stamp.h); 0: not measured */
	double cpu_read;   /* what a call's reads of the CPU clock cost (cputime.h), outside
			    * its interval, inside its caller's: the same for every kind */
};

struct comp_row {
	uint32_t parent;     /* in: the parent's row (an earlier one), or COMP_NO_PARENT */
	uint64_t calls;      /* in */
	uint64_t hidden_out; /* in: calls not among its children whose o_out is in its self time
				  * (the folded calls it made: fold.h) */
	uint64_t
		kind_calls[PROBE_KINDS - 1]; /* in: of those, the calls of each kind but PROBE_PLAIN
					       * (index kind - 1); the rest are plain */
	double raw_incl;                     /* in: raw inclusive time, ticks */
	double raw_child;                    /* in: raw time of its children's activations, ticks */
	uint64_t child_calls;                /* out: calls of its children */
	uint64_t subtree_calls;              /* out: its calls and all its descendants' */
	double raw_self;                     /* out: raw_incl - raw_child, at least 0 */
	double incl, self;                   /* out: compensated, ticks */
	double own_in, own_out;              /* scratch: its calls' o_in and o_out, summed */
	double hidden;                       /* scratch: the cost of hidden_out */
	double subtree_o; /* scratch: the probe cost of its calls and all below */
	double child_out; /* scratch: its children's o_out, summed */
};

/* The pieces of compensate_rows, for callers that keep rows of their own
 * (snapshot.c keeps a compact one per node).  comp_own_costs: the o_in and
 * o_out of a row's timed calls, each at its kind's cost (counts of other
 * kinds that add up to more than its calls, read while they moved, are cut
 * down to them, in kind order). */
void comp_own_costs(uint64_t calls, const uint64_t kind_calls[PROBE_KINDS - 1],
		    const struct comp_cost cost[PROBE_KINDS], double *own_in, double *own_out);

/* The cost of other calls' probes that ran in a row's self time, calls of
 * kind `kind` (folded calls: of the front-end of the row they are charged to,
 * as the folded rows' own costs are of theirs). */
double comp_hidden(uint64_t hidden_out, const struct comp_cost cost[PROBE_KINDS],
		   enum probe_kind kind);

/*
 * Sampled timing: what `untimed` calls of kind `kind` add to their row's o_out.
 * A row's estimated time scales its timed calls' o_in to all its calls, so an
 * untimed call counts the same o_in, and its o_out makes up its whole cost,
 * which is less than a timed call's: the difference is negative.  (A timed
 * caller's self time holds an untimed callee's whole cost, less the o_in its
 * callees' estimate counts for it.)
 */
double comp_untimed(uint64_t untimed, const struct comp_cost cost[PROBE_KINDS],
		    enum probe_kind kind);

/* The cost of the probes of calls not recorded (`unrecorded`, per kind) that
 * ran in a row's self time, so in its inclusive time too. */
double comp_unrecorded(const uint64_t unrecorded[PROBE_FRONT_KINDS],
		       const struct comp_cost cost[PROBE_KINDS]);

/* The cost of folded calls' probes that ran in a row's inclusive time
 * outside its children (fold.h): `inner` whole calls and `nested_out` o_outs. */
double comp_folded(uint64_t inner, uint64_t nested_out, const struct comp_cost cost[PROBE_KINDS],
		   enum probe_kind kind);

/* A row's compensated inclusive and self times from its raw ones, its own
 * o_in, the cost of every probe below it (`below`: its descendants', and the
 * hidden cost), its children's o_out and the hidden cost; each clamped at 0,
 * self at inclusive.  True if a figure was clamped. */
bool comp_figures(double raw_incl, double raw_self, double own_in, double below, double child_out,
		  double hidden, double *incl, double *self);

/* Fills the outputs of `rows` (n of them, parents before children) with
 * `cost[k]`, the cost per call of each kind k (all zeros: no compensation).
 * Returns how many rows had a figure clamped. */
uint64_t compensate_rows(struct comp_row *rows, size_t n, const struct comp_cost cost[PROBE_KINDS]);

#endif
