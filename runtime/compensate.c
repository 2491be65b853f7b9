/* compensate.c: the compensation arithmetic over a tree's rows (see compensate.h). */
#include "compensate.h"

#include <stdbool.h>

static double clamp(double v, bool *clamped)
{
	if (v >= 0)
		return v;
	*clamped = true;
	return 0;
}

/* Its calls' o_in and o_out, each call at its kind's cost.  Counts of other
 * kinds that add up to more than its calls (read while they moved) are cut
 * down to them, in kind order. */
static void own_costs(struct comp_row *x, const struct comp_cost cost[PROBE_KINDS])
{
	uint64_t left = x->calls;

	x->own_in = x->own_out = 0;
	for (unsigned k = 1; k < PROBE_KINDS; k++) {
		uint64_t c = x->kind_calls[k - 1] < left ? x->kind_calls[k - 1] : left;
		x->own_in += (double)c * cost[k].o_in;
		x->own_out += (double)c * cost[k].o_out;
		left -= c;
	}
	x->own_in += (double)left * cost[PROBE_PLAIN].o_in;
	x->own_out += (double)left * cost[PROBE_PLAIN].o_out;
}

uint64_t compensate_rows(struct comp_row *rows, size_t n, const struct comp_cost cost[PROBE_KINDS])
{
	uint64_t clamped_rows = 0;

	for (size_t i = 0; i < n; i++) {
		struct comp_row *x = &rows[i];

		own_costs(x, cost);
		x->child_calls = x->subtree_calls = 0;
		x->subtree_o = x->child_out = 0;
	}
	for (size_t i = n; i-- > 0;) { /* children come after parents: walk backwards */
		struct comp_row *x = &rows[i];
		x->subtree_calls += x->calls;
		x->subtree_o += x->own_in + x->own_out;
		if (x->parent != COMP_NO_PARENT) {
			rows[x->parent].child_calls += x->calls;
			rows[x->parent].subtree_calls += x->subtree_calls;
			rows[x->parent].child_out += x->own_out;
			rows[x->parent].subtree_o += x->subtree_o;
		}
	}
	for (size_t i = 0; i < n; i++) {
		struct comp_row *x = &rows[i];
		bool clamped = false;
		double below = x->subtree_o - x->own_in - x->own_out;

		x->raw_self = x->raw_incl > x->raw_child ? x->raw_incl - x->raw_child : 0;
		x->incl = clamp(x->raw_incl - x->own_in - below, &clamped);
		x->self = clamp(x->raw_self - x->own_in - x->child_out, &clamped);
		if (x->self > x->incl)
			x->self = x->incl;
		clamped_rows += clamped;
	}
	return clamped_rows;
}
