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

void comp_own_costs(uint64_t calls, const uint64_t kind_calls[PROBE_KINDS - 1],
		    const struct comp_cost cost[PROBE_KINDS], double *own_in, double *own_out)
{
	uint64_t left = calls;

	*own_in = *own_out = 0;
	for (unsigned k = 1; k < PROBE_KINDS; k++) {
		uint64_t c = kind_calls[k - 1] < left ? kind_calls[k - 1] : left;
		*own_in += (double)c * cost[k].o_in;
		*own_out += (double)c * cost[k].o_out;
		left -= c;
	}
	*own_in += (double)left * cost[PROBE_PLAIN].o_in;
	*own_out += (double)left * cost[PROBE_PLAIN].o_out;
}

double comp_hidden(uint64_t hidden_out, const struct comp_cost cost[PROBE_KINDS],
		   enum probe_kind kind)
{
	return (double)hidden_out * cost[kind].o_out;
}

double comp_untimed(uint64_t untimed, const struct comp_cost cost[PROBE_KINDS],
		    enum probe_kind kind)
{
	const struct comp_cost *c = &cost[kind];

	return c->untimed > 0 ? (double)untimed * (c->untimed - c->o_in - c->o_out) : 0;
}

double comp_unrecorded(const uint64_t unrecorded[PROBE_FRONT_KINDS],
		       const struct comp_cost cost[PROBE_KINDS])
{
	double sum = 0;

	for (unsigned k = 0; k < PROBE_FRONT_KINDS; k++)
		sum += (double)unrecorded[k] * cost[k].unrecorded;
	return sum;
}

double comp_folded(uint64_t inner, uint64_t nested_out, const struct comp_cost cost[PROBE_KINDS],
		   enum probe_kind kind)
{
	return (double)inner * (cost[kind].o_in + cost[kind].o_out) +
	       (double)nested_out * cost[kind].o_out;
}

bool comp_figures(double raw_incl, double raw_self, double own_in, double below, double child_out,
		  double hidden, double *incl, double *self)
{
	bool clamped = false;

	*incl = clamp(raw_incl - own_in - below, &clamped);
	*self = clamp(raw_self - own_in - child_out - hidden, &clamped);
	if (*self > *incl)
		*self = *incl;
	return clamped;
}

uint64_t compensate_rows(struct comp_row *rows, size_t n, const struct comp_cost cost[PROBE_KINDS])
{
	uint64_t clamped_rows = 0;

	for (size_t i = 0; i < n; i++) {
		struct comp_row *x = &rows[i];

		comp_own_costs(x->calls, x->kind_calls, cost, &x->own_in, &x->own_out);
		x->hidden = comp_hidden(x->hidden_out, cost, PROBE_PLAIN);
		x->child_calls = x->subtree_calls = 0;
		x->subtree_o = x->child_out = 0;
	}
	for (size_t i = n; i-- > 0;) { /* children come after parents: walk backwards */
		struct comp_row *x = &rows[i];
		x->subtree_calls += x->calls;
		x->subtree_o += x->own_in + x->own_out + x->hidden;
		if (x->parent != COMP_NO_PARENT) {
			rows[x->parent].child_calls += x->calls;
			rows[x->parent].subtree_calls += x->subtree_calls;
			rows[x->parent].child_out += x->own_out;
			rows[x->parent].subtree_o += x->subtree_o;
		}
	}
	for (size_t i = 0; i < n; i++) {
		struct comp_row *x = &rows[i];

		x->raw_self = x->raw_incl > x->raw_child ? x->raw_incl - x->raw_child : 0;
		clamped_rows += comp_figures(x->raw_incl, x->raw_self, x->own_in,
					     x->subtree_o - x->own_in - x->own_out, x->child_out,
					     x->hidden, &x->incl, &x->self);
	}
	return clamped_rows;
}
