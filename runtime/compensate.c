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

uint64_t compensate_rows(struct comp_row *rows, size_t n, struct comp_cost plain,
			 struct comp_cost fenced)
{
	uint64_t clamped_rows = 0;

	for (size_t i = 0; i < n; i++) {
		struct comp_row *x = &rows[i];
		uint64_t f = x->fenced_calls < x->calls ? x->fenced_calls : x->calls;
		double p = (double)(x->calls - f);

		x->own_in = p * plain.o_in + (double)f * fenced.o_in;
		x->own_out = p * plain.o_out + (double)f * fenced.o_out;
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
