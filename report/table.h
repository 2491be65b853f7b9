/* table.h: the flat profile table. */
#ifndef CALLPROF_TABLE_H
#define CALLPROF_TABLE_H

#include <stddef.h>
#include <stdint.h>

#include "buf.h"
#include "profile.h"

/*
 * table_flat: the flat profile table (function, calls, self, self %,
 * inclusive, inclusive %, average; with CPU time, CPU and off-CPU self time), one row per rows[i] (a pfstat: fn and its
 * figures), in the order given (by self time); run_ns is the 100% figure.
 * id is the table's HTML id, limit the most rows to show (0 for all): a line
 * below says how many more there are.
 */
void table_flat(struct buf *out, const struct profile *p, const struct pfstat *rows, size_t nrows,
		uint64_t run_ns, const char *root, const char *id, size_t limit);

/* table_flat_rows: every function of the profile with its merged figures, by self time (free() it). */
struct pfstat *table_flat_rows(const struct profile *p);

#endif
