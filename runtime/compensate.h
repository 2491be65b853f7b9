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
 */
#ifndef CALLPROF_COMPENSATE_H
#define CALLPROF_COMPENSATE_H

#include <stddef.h>
#include <stdint.h>

#include "kind.h"

#define COMP_NO_PARENT UINT32_MAX

/* What one call's probes cost, in ticks, for one kind of probe. */
struct comp_cost {
	double o_in;
	double o_out;
};

struct comp_row {
	uint32_t parent;         /* in: the parent's row (an earlier one), or COMP_NO_PARENT */
	uint64_t calls;          /* in */
	uint64_t kind_calls[PROBE_KINDS - 1]; /* in: of those, the calls of each kind but PROBE_PLAIN
					       * (index kind - 1); the rest are plain */
	double raw_incl;         /* in: raw inclusive time, ticks */
	double raw_child;        /* in: raw time of its children's activations, ticks */
	uint64_t child_calls;    /* out: calls of its children */
	uint64_t subtree_calls;  /* out: its calls and all its descendants' */
	double raw_self;         /* out: raw_incl - raw_child, at least 0 */
	double incl, self;       /* out: compensated, ticks */
	double own_in, own_out;  /* scratch: its calls' o_in and o_out, summed */
	double subtree_o;        /* scratch: the probe cost of its calls and all below */
	double child_out;        /* scratch: its children's o_out, summed */
};

/* Fills the outputs of `rows` (n of them, parents before children) with
 * `cost[k]`, the cost per call of each kind k (all zeros: no compensation).
 * Returns how many rows had a figure clamped. */
uint64_t compensate_rows(struct comp_row *rows, size_t n, const struct comp_cost cost[PROBE_KINDS]);

#endif
