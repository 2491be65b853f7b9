/* dump.c: freeing what a loaded dump holds, and the sums over its threads more than one reader needs. */
#include <stdlib.h>
#include <string.h>

#include "dump.h"

static void values_free(struct dump_value *v, size_t n, size_t nvalues)
{
	for (size_t i = 0; v && i < n; i++) {
		for (size_t k = 0; v[i].values && k < nvalues; k++)
			free(v[i].values[k]);
		free(v[i].values);
	}
	free(v);
}

void dump_args_free(struct dump_args *a)
{
	if (!a)
		return;
	free(a->refused);
	for (size_t i = 0; i < a->nparams; i++) {
		free(a->param_names[i]);
		free(a->param_types[i]);
	}
	free(a->param_names);
	free(a->param_types);
	free(a->returns);
	values_free(a->tuples, a->ntuples, a->nparams);
	values_free(a->returned, a->nreturned, 1);
	free(a);
}

void dump_release(struct dump *d)
{
	run_release(&d->run);
	for (size_t i = 0; i < d->nfunctions; i++) {
		free(d->functions[i].name);
		free(d->functions[i].file);
		free(d->functions[i].address);
		free(d->functions[i].front_end);
		dump_args_free(d->functions[i].args);
	}
	free(d->functions);
	for (size_t i = 0; i < d->nthreads; i++) {
		free(d->threads[i].name);
		free(d->threads[i].funcs);
		for (size_t k = 0; k < d->threads[i].nedges; k++) {
			free(d->threads[i].edges[k].call_file);
			free(d->threads[i].edges[k].site);
		}
		free(d->threads[i].edges);
		free(d->threads[i].nodes);
	}
	free(d->threads);
	memset(d, 0, sizeof(*d));
}

uint64_t dump_untimed_calls(const struct dump *d)
{
	uint64_t calls = 0;

	for (size_t t = 0; t < d->nthreads; t++)
		for (size_t i = 0; i < d->threads[t].nfuncs; i++) {
			const struct pstat *st = &d->threads[t].funcs[i].st;
			if (st->has_timed)
				calls = u64_add(calls, st->calls - st->timed_calls);
		}
	return calls;
}

uint64_t dump_unrecorded_calls(const struct dump *d, unsigned k)
{
	uint64_t calls = 0;

	for (size_t t = 0; t < d->nthreads; t++)
		for (size_t i = 0; i < d->threads[t].nfuncs; i++)
			calls = u64_add(calls, d->threads[t].funcs[i].st.unrecorded_calls[k]);
	return calls;
}
