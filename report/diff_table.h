/* diff_table.h: the tables of a diff site. */
#ifndef CALLPROF_DIFF_TABLE_H
#define CALLPROF_DIFF_TABLE_H

#include <stddef.h>

#include "buf.h"
#include "diff.h"

/*
 * diff_table_head and diff_table_cells: the columns every table of a diff
 * shares, for one pair of figures st[2] (base, new): calls before and after,
 * self before, after, change and relative change, the same for inclusive
 * time.  Changes carry class "up" (grew) or "down" (shrank) and the signed
 * exact value in data-v.
 */
void diff_table_head(struct buf *out);
void diff_table_cells(struct buf *out, const struct pstat *st);

/*
 * diff_table_functions: every function of the diff, biggest change first, at
 * most limit rows (0: all) and then a line linking functions.html, the page
 * of them all.  Links are from the site root.
 */
#define DIFF_TABLE_INDEX_FUNCS 1000 /* functions on a diff's index; past that, functions.html */
void diff_table_functions(struct buf *out, const struct diff *d, size_t limit);

#endif
