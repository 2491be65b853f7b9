/* rowscan.h: a fast reader for the huge parts of a dump: each thread's tree rows, functions and edges. */
#ifndef CALLPROF_ROWSCAN_H
#define CALLPROF_ROWSCAN_H

#include <stddef.h>
#include <stdint.h>

/*
 * A dump of a big program is mostly three arrays per thread: threads[].tree.rows
 * (arrays of integers), threads[].functions and threads[].edges (small flat
 * objects).  Made into json-c objects they cost about a second and half a
 * gigabyte per million entries.  rowscan_extract finds those arrays in the JSON
 * text and reads each one that has the plain expected shape into a flat table,
 * then blanks it in the text: "[1,2],[3,4]]" becomes "        ]", the same
 * length, so json-c reads an empty array and its byte offsets in error messages
 * stay right.  Anything else -- fractions, booleans, nested values, escaped
 * strings, rows of different lengths, a key given twice, malformed text --
 * leaves that array as it was, for json-c to read and check the slow way.  The
 * loader takes a thread's array from its table when json-c saw it empty, and
 * applies the same checks to both (load.h).
 *
 * Example: threads[0].edges = [{"caller": null, "callee": 2, "calls": 5, ...}]
 * read with the keys { "caller", "callee", "calls", ... } gives a table of
 * what RS_EDGES with one row whose cells are { ROWSCAN_NULL, 2, 5, ... }.
 */

#define ROWSCAN_NULL INT64_MIN /* a null cell, or a key the object does not have */

/* Which array of a thread a table holds. */
enum rowscan_what { RS_TREE_ROWS, RS_FUNCTIONS, RS_EDGES };

/*
 * The keys read from the objects of one kind of array, in cell order (the
 * loader's fields, load_check.c); other keys are skipped.  A string key's
 * cell is an offset into its table's strings.  At most 64 keys.
 */
struct rowscan_keys {
	const char *const *names;
	size_t n;
	uint64_t strings; /* bit k set: names[k] holds a string (or null) */
};

/* One array of one thread. */
struct rowscan_table {
	enum rowscan_what what;
	size_t thread; /* index of the thread in threads[] */
	size_t nrows, ncols;
	int64_t *cells; /* nrows * ncols values, row by row; ROWSCAN_NULL for null or absent */
	char *strings;  /* the string cells' text, each NUL-terminated; NULL when there are none */
	size_t start, end; /* the blanked bytes of the text */
};

struct rowscan {
	size_t n;
	struct rowscan_table *tables;
};

/*
 * rowscan_extract fills rs (set up here) from len bytes of JSON text, blanking
 * what it read; fn_keys and edge_keys say which keys the objects of
 * threads[].functions and threads[].edges have cells for.
 */
void rowscan_extract(struct rowscan *rs, char *text, size_t len, const struct rowscan_keys *fn_keys,
		     const struct rowscan_keys *edge_keys);

/* rowscan_find: the table of array what of thread index thread, or NULL. */
const struct rowscan_table *rowscan_find(const struct rowscan *rs, enum rowscan_what what,
					 size_t thread);

/* rowscan_release frees the tables. */
void rowscan_release(struct rowscan *rs);

#endif
