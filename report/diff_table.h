/* diff_table.h: the tables of a diff site. */
#ifndef CALLPROF_DIFF_TABLE_H
#define CALLPROF_DIFF_TABLE_H

#include <stddef.h>

#include "buf.h"
#include "diff.h"

/*
 * diff_table_head and diff_table_cells: the columns every table of a diff
 * shares, for one pair of figures st[2] (base, new), five narrow ones so a
 * table fits a page 1280 pixels wide: calls "before → after", self time so,
 * its change ("+2.50 ms +250.0%"), inclusive time so, and its change.  A
 * pair sorts by the figure after (data-v; data-before holds the other).
 * Changes carry class "up" (grew) or "down" (shrank), the signed exact
 * value in data-v, and class "noise" when est says the change is within k
 * standard errors of the runs' noise.
 */
void diff_table_head(struct buf *out);
void diff_table_cells(struct buf *out, const struct pstat *st, const struct runs_fig *est,
		      double k);

/*
 * diff_table_functions: every function of the diff, biggest change first, at
 * most limit rows (0: all) and then a line linking functions.html, the page
 * of them all.  Links are from the site root.
 */
#define DIFF_TABLE_INDEX_FUNCS 1000 /* functions on a diff's index; past that, functions.html */
void diff_table_functions(struct buf *out, const struct diff *d, size_t limit);

#endif
