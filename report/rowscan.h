/* rowscan.h: a fast reader for the one huge part of a dump, the calling-context tree rows. */
#ifndef CALLPROF_ROWSCAN_H
#define CALLPROF_ROWSCAN_H

#include <stddef.h>
#include <stdint.h>

/*
 * A dump with a million-node tree is mostly threads[].tree.rows: arrays of
 * integers.  Made into json-c objects they cost about a second and half a
 * gigabyte per million rows.  rowscan_extract finds those arrays in the JSON
 * text, reads each one made only of integers and nulls (every row the same
 * length) into a flat table, and then blanks it in the text: "[1,2],[3,4]]"
 * becomes "        ]", the same length, so json-c reads an empty array and
 * its byte offsets in error messages stay right.  Anything else -- strings,
 * fractions, rows of different lengths, malformed text, a key given twice --
 * leaves the text as it was, for json-c to read and check the slow way.
 * The loader then takes a thread's rows from its table when json-c saw an
 * empty array (load.c applies the same checks to both).
 */

#define ROWSCAN_NULL INT64_MIN /* a null cell */

/* The rows of one thread's tree. */
struct rowscan_table {
	size_t thread;    /* index of the thread in threads[] */
	size_t nrows, ncols;
	int64_t *cells;   /* nrows * ncols values, row by row; ROWSCAN_NULL for null */
	size_t start, end; /* the blanked bytes of the text */
};

struct rowscan {
	size_t n;
	struct rowscan_table *tables;
};

/* rowscan_extract fills rs (set up here) from len bytes of JSON text, blanking what it read. */
void rowscan_extract(struct rowscan *rs, char *text, size_t len);

/* rowscan_find: the table of thread index thread, or NULL. */
const struct rowscan_table *rowscan_find(const struct rowscan *rs, size_t thread);

/* rowscan_release frees the tables. */
void rowscan_release(struct rowscan *rs);

#endif
