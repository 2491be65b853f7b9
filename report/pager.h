/* pager.h: a flat profile too long for one page, split into pages that link each other. */
#ifndef CALLPROF_PAGER_H
#define CALLPROF_PAGER_H

#include <stddef.h>
#include <stdint.h>

#include "buf.h"
#include "profile.h"

/*
 * A flat profile of more than PAGER_ROWS rows is paged, PAGER_ROWS rows a
 * page: page 1 sits on its host page (the index), the others are
 * flat/KEY-N.html (render_flat.c), and each shows a pager linking them all.
 */
#define PAGER_ROWS 1000
struct pager {
	const struct pfstat *rows; /* every row, hottest first */
	size_t nrows;
	uint64_t run_ns;  /* the 100% figure */
	const char *key;  /* names the pages: "all" for the whole run */
	const char *host; /* page 1, from the site root: "index.html" */
};

/* pager_npages: how many pages nrows rows take (at least 1). */
size_t pager_npages(size_t nrows);

/* pager_flat: page (0-based) of pg: its table, with a pager when there are several pages. */
void pager_flat(struct buf *out, const struct profile *p, const struct pager *pg, size_t page,
		const char *root);

#endif
