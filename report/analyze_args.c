/* analyze_args.c: the arguments and return values each dump captured of a function (CALLPROF_ARGS),
 * merged into its struct pargs: a call written out, equal ones over the dumps added up, ranked by
 * calls and by time. */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "dump.h"
#include "profile.h"

/* short_name: the length of name without its parameter list ("ns::f(int) const" -> "ns::f"). */
static size_t short_name(const char *name)
{
	size_t len = strlen(name), depth = 0;

	while (len && name[len - 1] != ')') /* " const", " &&" */
		len--;
	for (size_t i = len; i > 0; i--) {
		if (name[i - 1] == ')')
			depth++;
		else if (name[i - 1] == '(' && --depth == 0)
			return i - 1 ? i - 1 : strlen(name);
	}
	return strlen(name);
}

/* call_text: "f(a=1, b=\"x\")" for tuple v of function fname. */
static char *call_text(const char *fname, const struct dump_args *a, const struct dump_value *v)
{
	struct buf b = BUF_INIT;

	buf_printf(&b, "%.*s(", (int)short_name(fname), fname);
	for (size_t i = 0; i < a->nparams; i++)
		buf_printf(&b, "%s%s=%s", i ? ", " : "", a->param_names[i], v->values[i]);
	buf_puts(&b, a->variadic ? (a->nparams ? ", ...)" : "...)") : ")");
	return b.data;
}

static void add_value(struct pvalue **list, size_t *n, size_t *cap, char *text,
		      const struct dump_value *v)
{
	if (*n == *cap)
		*list = xreallocarray(*list, *cap = *cap ? 2 * *cap : 16, sizeof(**list));
	(*list)[(*n)++] =
		(struct pvalue){ text,           v->calls,   v->error,
				 v->timed_calls, v->incl_ns, v->timed_calls ? v->min_ns : 0,
				 v->max_ns };
}

static int by_text(const void *a, const void *b)
{
	return strcmp(((const struct pvalue *)a)->text, ((const struct pvalue *)b)->text);
}

static int by_calls(const void *a, const void *b)
{
	const struct pvalue *x = a, *y = b;

	if (x->calls != y->calls)
		return x->calls > y->calls ? -1 : 1;
	return x->incl_ns > y->incl_ns   ? -1
	       : x->incl_ns < y->incl_ns ? 1
					 : strcmp(x->text, y->text);
}

static int by_time(const void *a, const void *b, void *ctx)
{
	const struct pvalue *v = ctx, *x = &v[*(const uint32_t *)a], *y = &v[*(const uint32_t *)b];

	if (x->incl_ns != y->incl_ns)
		return x->incl_ns > y->incl_ns ? -1 : 1;
	return x->calls > y->calls ? -1 : x->calls < y->calls ? 1 : strcmp(x->text, y->text);
}

/* merge: equal texts added up (the first kept, the others freed), then ranked by calls. */
static void merge(struct pvalue *list, size_t *n)
{
	size_t k = 0;

	if (!*n)
		return;
	qsort(list, *n, sizeof(*list), by_text);
	for (size_t i = 0; i < *n; i++) {
		struct pvalue *x = k ? &list[k - 1] : NULL;

		if (x && !strcmp(x->text, list[i].text)) {
			x->calls = u64_add(x->calls, list[i].calls);
			x->error = u64_add(x->error, list[i].error);
			if (list[i].timed_calls && (!x->timed_calls || list[i].min_ns < x->min_ns))
				x->min_ns = list[i].min_ns;
			x->timed_calls = u64_add(x->timed_calls, list[i].timed_calls);
			x->incl_ns = u64_add(x->incl_ns, list[i].incl_ns);
			if (list[i].max_ns > x->max_ns)
				x->max_ns = list[i].max_ns;
			free(list[i].text);
			continue;
		}
		list[k++] = list[i];
	}
	*n = k;
	qsort(list, *n, sizeof(*list), by_calls);
}

/* The values of one function, while they are gathered. */
struct gathered {
	size_t tcap, rcap;
};

static void gather(struct pargs *pa, struct gathered *g, const char *fname,
		   const struct dump_args *a)
{
	if (a->refused) {
		if (!pa->calls && !pa->refused)
			pa->refused = a->refused;
		return;
	}
	pa->refused = NULL; /* captured in some dump */
	if (!pa->returns)
		pa->returns = a->returns;
	if (a->entries > pa->entries)
		pa->entries = a->entries;
	pa->calls = u64_add(pa->calls, a->calls);
	pa->returned_calls = u64_add(pa->returned_calls, a->returned_calls);
	for (size_t i = 0; i < a->ntuples; i++)
		add_value(&pa->tuples, &pa->ntuples, &g->tcap, call_text(fname, a, &a->tuples[i]),
			  &a->tuples[i]);
	for (size_t i = 0; i < a->nreturned; i++)
		add_value(&pa->returned, &pa->nreturned, &g->rcap,
			  xstrdup(a->returned[i].values[0]), &a->returned[i]);
}

void profile_args(struct profile *p, const struct dump *dumps, uint32_t *const *map)
{
	struct gathered *g = NULL;

	for (size_t d = 0; d < p->nruns; d++) {
		for (size_t i = 0; i < dumps[d].nfunctions; i++) {
			const struct dump_function *f = &dumps[d].functions[i];
			struct pfunc *pf = &p->funcs[map[d][i]];

			if (!f->args)
				continue;
			if (!g)
				g = xcalloc(p->nfuncs, sizeof(*g));
			if (!pf->args)
				pf->args = xcalloc(1, sizeof(*pf->args));
			gather(pf->args, &g[map[d][i]], pf->name, f->args);
		}
	}
	for (size_t i = 0; g && i < p->nfuncs; i++) {
		struct pargs *pa = p->funcs[i].args;

		if (!pa)
			continue;
		merge(pa->tuples, &pa->ntuples);
		merge(pa->returned, &pa->nreturned);
		pa->by_time = xmalloc((pa->ntuples ? pa->ntuples : 1) * sizeof(*pa->by_time));
		for (size_t k = 0; k < pa->ntuples; k++)
			pa->by_time[k] = (uint32_t)k;
		if (pa->ntuples)
			qsort_r(pa->by_time, pa->ntuples, sizeof(*pa->by_time), by_time,
				pa->tuples);
	}
	free(g);
}

void profile_args_release(struct profile *p)
{
	for (size_t i = 0; i < p->nfuncs; i++) {
		struct pargs *pa = p->funcs[i].args;

		if (!pa)
			continue;
		for (size_t k = 0; k < pa->ntuples; k++)
			free(pa->tuples[k].text);
		for (size_t k = 0; k < pa->nreturned; k++)
			free(pa->returned[k].text);
		free(pa->tuples);
		free(pa->returned);
		free(pa->by_time);
		free(pa);
		p->funcs[i].args = NULL;
	}
}
