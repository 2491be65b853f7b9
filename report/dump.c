/* dump.c: freeing what a loaded dump holds. */
#include <stdlib.h>
#include <string.h>

#include "dump.h"

void dump_release(struct dump *d)
{
	run_release(&d->run);
	for (size_t i = 0; i < d->nfunctions; i++) {
		free(d->functions[i].name);
		free(d->functions[i].file);
		free(d->functions[i].address);
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
