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

uint64_t compensate_rows(struct comp_row *rows, size_t n, double o_in_ticks, double o_out_ticks)
{
	uint64_t clamped_rows = 0;

	for (size_t i = 0; i < n; i++)
		rows[i].child_calls = rows[i].subtree_calls = 0;
	for (size_t i = n; i-- > 0;) { /* children come after parents: walk backwards */
		struct comp_row *x = &rows[i];
		x->subtree_calls += x->calls;
		if (x->parent != COMP_NO_PARENT) {
			rows[x->parent].child_calls += x->calls;
			rows[x->parent].subtree_calls += x->subtree_calls;
		}
	}
	for (size_t i = 0; i < n; i++) {
		struct comp_row *x = &rows[i];
		bool clamped = false;
		double descendants = (double)(x->subtree_calls - x->calls);

		x->raw_self = x->raw_incl > x->raw_child ? x->raw_incl - x->raw_child : 0;
		x->incl = clamp(x->raw_incl - (double)x->calls * o_in_ticks -
					descendants * (o_in_ticks + o_out_ticks),
				&clamped);
		x->self = clamp(x->raw_self - (double)x->calls * o_in_ticks -
					(double)x->child_calls * o_out_ticks,
				&clamped);
		if (x->self > x->incl)
			x->self = x->incl;
		clamped_rows += clamped;
	}
	return clamped_rows;
}
