/* dump_merge_args.c: the value profiles (functions[].args) of one function in several dumps as
 * one (`callprof merge`, dump_merge.c): equal tuples and return values add up, the most
 * frequent are kept, as many as the largest bound says. */
#include <stdlib.h>
#include <string.h>

#include "dump.h"
#include "dump_merge.h"

static char *dup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

/* same_values: two entries with nvalues texts each, equal text by text. */
static int same_values(const struct dump_value *a, const struct dump_value *b, size_t nvalues)
{
	for (size_t k = 0; k < nvalues; k++)
		if (strcmp(a->values[k], b->values[k]))
			return 0;
	return 1;
}

/* add_value: v (nvalues texts) into the n entries of *to, added to its equal or appended. */
static void add_value(struct dump_value **to, size_t *n, const struct dump_value *v, size_t nvalues)
{
	struct dump_value *x;

	for (size_t i = 0; i < *n; i++) {
		x = &(*to)[i];
		if (!same_values(x, v, nvalues))
			continue;
		if (v->timed_calls && (!x->timed_calls || v->min_ns < x->min_ns))
			x->min_ns = v->min_ns;
		if (v->max_ns > x->max_ns)
			x->max_ns = v->max_ns;
		x->calls = u64_add(x->calls, v->calls);
		x->error = u64_add(x->error, v->error);
		x->timed_calls = u64_add(x->timed_calls, v->timed_calls);
		x->incl_ns = u64_add(x->incl_ns, v->incl_ns);
		return;
	}
	*to = xreallocarray(*to, *n + 1, sizeof(**to));
	x = &(*to)[(*n)++];
	*x = *v;
	x->values = xcalloc(nvalues + 1, sizeof(*x->values));
	for (size_t k = 0; k < nvalues; k++)
		x->values[k] = xstrdup(v->values[k]);
}

static int cmp_calls(const void *a, const void *b)
{
	const struct dump_value *x = a, *y = b;

	return x->calls < y->calls ? 1 : x->calls > y->calls ? -1 : 0;
}

/* keep_most: the `keep` entries with the most calls, the others freed. */
static void keep_most(struct dump_value *v, size_t *n, uint64_t keep, size_t nvalues)
{
	qsort(v, *n, sizeof(*v), cmp_calls);
	for (size_t i = keep; i < *n; i++) {
		for (size_t k = 0; k < nvalues; k++)
			free(v[i].values[k]);
		free(v[i].values);
	}
	if (*n > keep)
		*n = (size_t)keep;
}

/* same_signature: the parameters' and return's types agree (a function matched by fnid.h, built alike). */
static int same_signature(const struct dump_args *a, const struct dump_args *b)
{
	if (a->nparams != b->nparams || !a->returns != !b->returns ||
	    (a->returns && strcmp(a->returns, b->returns)))
		return 0;
	for (size_t k = 0; k < a->nparams; k++)
		if (strcmp(a->param_types[k], b->param_types[k]))
			return 0;
	return 1;
}

struct dump_args *dump_merge_args(const struct dump_args *const *in, size_t n)
{
	const struct dump_args *first = NULL;
	struct dump_args *out;

	for (size_t i = 0; i < n && !first; i++)
		if (in[i] && !in[i]->refused)
			first = in[i];
	if (!first) { /* every input that has a profile refused it: the first one's reason */
		for (size_t i = 0; i < n; i++) {
			if (!in[i])
				continue;
			out = xcalloc(1, sizeof(*out));
			out->refused = xstrdup(in[i]->refused);
			return out;
		}
		return NULL;
	}
	out = xcalloc(1, sizeof(*out));
	out->nparams = first->nparams;
	out->param_names = xcalloc(first->nparams + 1, sizeof(*out->param_names));
	out->param_types = xcalloc(first->nparams + 1, sizeof(*out->param_types));
	for (size_t k = 0; k < first->nparams; k++) {
		out->param_names[k] = xstrdup(first->param_names[k]);
		out->param_types[k] = xstrdup(first->param_types[k]);
	}
	out->variadic = first->variadic;
	out->returns = dup_or_null(first->returns);
	for (size_t i = 0; i < n; i++) {
		const struct dump_args *a = in[i];

		if (!a || a->refused || !same_signature(a, first))
			continue;
		if (a->entries > out->entries)
			out->entries = a->entries;
		out->calls = u64_add(out->calls, a->calls);
		out->returned_calls = u64_add(out->returned_calls, a->returned_calls);
		for (size_t j = 0; j < a->ntuples; j++)
			add_value(&out->tuples, &out->ntuples, &a->tuples[j], a->nparams);
		for (size_t j = 0; j < a->nreturned; j++)
			add_value(&out->returned, &out->nreturned, &a->returned[j], 1);
	}
	keep_most(out->tuples, &out->ntuples, out->entries, out->nparams);
	keep_most(out->returned, &out->nreturned, out->entries, 1);
	return out;
}
