/* load.h: what the loader's files share (load_*.c; the rest of the tool reads dump.h): where a
 * message goes, and the one set of checks every per-thread record goes through. */
#ifndef CALLPROF_LOAD_H
#define CALLPROF_LOAD_H

#include <stddef.h>
#include <stdint.h>

#include "buf.h"
#include "keymap.h"
#include "rowscan.h"

/*
 * The loader reads a dump in two ways.  The huge per-thread arrays
 * (threads[].functions, .edges and .tree.rows) are read by rowscan, straight
 * from the text, when they have the plain expected shape; everything else
 * json-c reads.  Both feed the same checks: a record of threads[].functions
 * or threads[].edges is a table of fields (load_check.c), and load_record
 * reads each field through a reader -- json-c's object, or rowscan's row --
 * and checks and stores it the same way, so a new per-function figure is one
 * row of a table there, and the messages are the same whichever reader found
 * the value.  The tree rows go through one check too (load_tree.c).
 *
 * Every check that fails writes one line into the context's err with
 * load_fail and returns -1; the line names the problem, the JSON path and
 * the file ("expected a non-negative integer, not -5, at
 * threads[0].functions[2].self_ns in 'x.json'").
 */

/* What every check needs: where to put the message and which file to name. */
struct load_ctx {
	const char *path;
	struct buf *err;
	const struct rowscan *rows; /* tree rows, functions and edges read ahead of json-c */
};

/* A key a record or object must have (REQUIRED: "missing key" when absent or null). */
enum load_need { LOAD_OPTIONAL, LOAD_REQUIRED };

/* load_fail replaces c->err with the message, then " in '<path>'"; returns -1. */
int load_fail(struct load_ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* load_quote_path appends 'path' for a message, control characters as '?', so it stays one line. */
void load_quote_path(struct buf *out, const char *path);

/* ---- per-thread records: threads[].functions[] and threads[].edges[] ---- */

/* What a field holds, and what the record stores for it at its offset. */
enum load_field_kind {
	LOAD_U64, /* a non-negative integer below 2^63: uint64_t */
	LOAD_FN,  /* a function id: its index in dump.functions as int32_t (-1 when absent) */
	LOAD_STR, /* a string: char *, a copy (NULL when absent) */
};

/* One key of a record: what it holds, whether it must be there, where its value goes. */
struct load_field {
	const char *key;
	enum load_field_kind kind;
	enum load_need need;
	size_t offset; /* offsetof the value in the record's struct */
};

/* Where a record is, formatted only for a message: "threads[3].functions[12]". */
struct load_where {
	const char *thread; /* "threads[3]" */
	const char *array;  /* "functions" */
	size_t i;
};

#define LOAD_MAX_FIELDS 64 /* fields of one kind of record: a bit each in a uint64_t */

/* One kind of record: its fields, and what is checked once they are all read. */
struct load_record_kind {
	const char *array; /* the key of its array in a thread: "functions" */
	size_t size;       /* of its struct (dump.h) */
	const struct load_field *fields;
	size_t nfields; /* at most LOAD_MAX_FIELDS */
	/* finish: defaults and checks across fields, given which fields were present (bit k: fields[k]). */
	int (*finish)(struct load_ctx *c, void *record, uint64_t present,
		      const struct load_where *w);
};

/* The records this version reads (dump.h): struct dump_fstat and struct dump_edge. */
extern const struct load_record_kind load_fstat_kind;
extern const struct load_record_kind load_edge_kind;

/* One value of a record as a reader found it. */
struct load_cell {
	int present;   /* 0: absent or null */
	int64_t n;     /* LOAD_U64, LOAD_FN: the integer (any sign: load_record checks it) */
	const char *s; /* LOAD_STR: the text */
};

/*
 * A reader of one record: cell reads field f (index k of its kind) into out,
 * checking only what the source alone can tell (a JSON value of the wrong
 * type); 0, or -1 after load_fail.
 */
struct load_reader {
	int (*cell)(struct load_ctx *c, const void *src, const struct load_field *f, size_t k,
		    const struct load_where *w, struct load_cell *out);
	const void *src;
};

/*
 * load_record reads every field of kind through r, checks it (present when
 * required, not negative, a known function id) and stores it into record,
 * which is zeroed; then runs kind->finish.  fns maps function ids to indices.
 * Returns 0, or -1 after load_fail (strings stored so far stay in record).
 */
int load_record(struct load_ctx *c, const struct load_record_kind *kind,
		const struct load_reader *r, const struct load_where *w, const struct keymap *fns,
		void *record);

/* load_where_format writes "threads[3].functions[12]" into out (size bytes). */
const char *load_where_format(char *out, size_t size, const struct load_where *w);

/*
 * load_record_keys: the keys rowscan reads for kind, in field order (names
 * gets them; it must hold LOAD_MAX_FIELDS entries and outlive keys).
 */
void load_record_keys(const struct load_record_kind *kind, const char **names,
		      struct rowscan_keys *keys);

#endif
