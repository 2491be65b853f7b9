/* load_tree.c: threads[].tree: the calling-context tree as a table of rows, read by rowscan when
 * its rows are plain integers and by json-c otherwise, every row through one check (tree_node). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "load_json.h"

/* The tree columns a reader takes, in the order tree_node takes them: the
 * ones before COL_OPTIONAL are required; an optional one absent reads as null. */
enum {
	COL_ID,
	COL_PARENT,
	COL_FN,
	COL_CALLS,
	COL_INCL,
	COL_SELF,
	COL_CPU,
	COL_CPU_SELF,
	COL_TIMED,
	COL_INCL_SE,
	COL_SELF_SE,
	NCOLS
};
#define COL_OPTIONAL COL_CPU
#define COL_ABSENT SIZE_MAX
static const char *const tree_cols[NCOLS] = {
	"id",     "parent",      "fn",          "calls",           "inclusive_ns", "self_ns",
	"cpu_ns", "cpu_self_ns", "timed_calls", "inclusive_se_ns", "self_se_ns",
};
#define NFIGS (NCOLS - COL_CALLS) /* the columns of figures, calls onwards */

static int tree_columns(struct load_ctx *c, struct json_object *cols, const char *where,
			size_t pos[NCOLS], size_t *ncols)
{
	*ncols = json_object_array_length(cols);
	for (int k = 0; k < NCOLS; k++) {
		size_t i;

		for (i = 0; i < *ncols; i++) {
			struct json_object *s = json_object_array_get_idx(cols, i);

			if (s && json_object_is_type(s, json_type_string) &&
			    !strcmp(json_object_get_string(s), tree_cols[k]))
				break;
		}
		if (i == *ncols && k < COL_OPTIONAL)
			return load_fail(c, "%s.columns lacks \"%s\"", where, tree_cols[k]);
		pos[k] = i == *ncols ? COL_ABSENT : i;
	}
	return 0;
}

/*
 * tree_node: checks one row's cells (in tree_cols order, ROWSCAN_NULL for
 * null) and stores it as node r.  The hot loop of a large dump (a million
 * rows), so nothing is formatted unless it fails.
 */
static int tree_node(struct load_ctx *c, struct dump_thread *t, size_t r, const int64_t v[NCOLS],
		     const size_t pos[NCOLS], const char *where, const struct keymap *fns,
		     struct keymap *rows)
{
	struct dump_node *n = &t->nodes[r];
	uint64_t *dst[NFIGS] = { &n->calls,       &n->incl_ns,     &n->self_ns,    &n->cpu_ns,
				 &n->cpu_self_ns, &n->timed_calls, &n->incl_se_ns, &n->self_se_ns };
	int64_t fn;

	if (v[COL_ID] == ROWSCAN_NULL)
		return load_fail(c, "expected an integer id at %s.rows[%zu][%zu]", where, r,
				 pos[COL_ID]);
	if (keymap_put(rows, (uint64_t)v[COL_ID], (uint32_t)r) < 0)
		return load_fail(c, "duplicate tree node id %lld at %s.rows[%zu]",
				 (long long)v[COL_ID], where, r);
	n->parent = -1;
	if (v[COL_PARENT] != ROWSCAN_NULL) {
		int64_t p = keymap_get(rows, (uint64_t)v[COL_PARENT]);

		if (p < 0 || p == (int64_t)r)
			return load_fail(c, "parent %lld is not an earlier row at %s.rows[%zu]",
					 (long long)v[COL_PARENT], where, r);
		n->parent = (int32_t)p;
	}
	fn = v[COL_FN] == ROWSCAN_NULL ? -1 : keymap_get(fns, (uint64_t)v[COL_FN]);
	if (fn < 0)
		return v[COL_FN] == ROWSCAN_NULL
			       ? load_fail(c,
					   "expected a function id, not null, at %s.rows[%zu][%zu]",
					   where, r, pos[COL_FN])
			       : load_fail(c,
					   "function id %lld is not in functions[] at %s.rows[%zu]",
					   (long long)v[COL_FN], where, r);
	n->fn = (uint32_t)fn;
	for (int k = 0; k < NFIGS; k++) {
		if (COL_CALLS + k >= COL_OPTIONAL && pos[COL_CALLS + k] == COL_ABSENT)
			continue;
		if (v[COL_CALLS + k] < 0) /* ROWSCAN_NULL is negative too */
			return load_fail(
				c, "expected a non-negative integer at %s.rows[%zu][%zu] (%s)",
				where, r, pos[COL_CALLS + k], tree_cols[COL_CALLS + k]);
		*dst[k] = (uint64_t)v[COL_CALLS + k];
	}
	if (pos[COL_CPU] == COL_ABSENT || pos[COL_CPU_SELF] == COL_ABSENT) {
		n->cpu_ns = n->incl_ns; /* no CPU time measured: all of it counts as on a CPU */
		n->cpu_self_ns = n->self_ns;
	} else if (n->cpu_ns > n->incl_ns || n->cpu_self_ns > n->self_ns) {
		return load_fail(
			c, "cpu_ns or cpu_self_ns above inclusive_ns or self_ns at %s.rows[%zu]",
			where, r);
	}
	if (!t->has_timed) { /* no sampled timing: every call timed, the figures exact */
		n->timed_calls = n->calls;
		n->incl_se_ns = n->self_se_ns = 0;
	} else if (n->timed_calls > n->calls) {
		return load_fail(c, "timed_calls above calls at %s.rows[%zu]", where, r);
	}
	return 0;
}

/* tree_row_json: the cells of a row json-c read, checked for type. */
static int tree_row_json(struct load_ctx *c, struct json_object *row, size_t r,
			 const size_t pos[NCOLS], size_t ncols, const char *where, int64_t v[NCOLS])
{
	if (!row || !json_object_is_type(row, json_type_array))
		return load_fail(c, "expected an array, not %s, at %s.rows[%zu]",
				 load_type_name(row), where, r);
	if (json_object_array_length(row) != ncols)
		return load_fail(c, "row has %zu fields for %zu columns at %s.rows[%zu]",
				 json_object_array_length(row), ncols, where, r);
	for (int k = 0; k < NCOLS; k++) {
		struct json_object *x =
			pos[k] == COL_ABSENT ? NULL : json_object_array_get_idx(row, pos[k]);

		if (!x) {
			v[k] = ROWSCAN_NULL;
		} else if (json_object_is_type(x, json_type_int)) {
			if (!load_int_in_range(x))
				return load_fail(c,
						 "integer out of range (2^63 or more) at "
						 "%s.rows[%zu][%zu] (%s)",
						 where, r, pos[k], tree_cols[k]);
			v[k] = json_object_get_int64(x);
			if (v[k] == ROWSCAN_NULL)
				v[k]++;
		} else {
			struct load_brief b;

			return load_fail(
				c, "expected an integer, not %s, at %s.rows[%zu][%zu] (%s)",
				json_object_is_type(x, json_type_double) ? load_brief(&b, x)
									 : load_type_name(x),
				where, r, pos[k], tree_cols[k]);
		}
	}
	return 0;
}

int load_tree(struct load_ctx *c, struct dump_thread *t, size_t ti, struct json_object *th,
	      const char *thread_where, const struct keymap *fns)
{
	int bad = 0;
	char where[64];
	struct json_object *tree, *cols, *rows;
	const struct rowscan_table *fast;
	size_t pos[NCOLS], ncols;
	int64_t v[NCOLS];
	struct keymap ids;

	tree = load_want(c, th, "tree", thread_where, LOAD_OPTIONAL, json_type_object, &bad);
	if (!tree)
		return bad;
	snprintf(where, sizeof(where), "%s.tree", thread_where);
	if (!(cols = load_want(c, tree, "columns", where, LOAD_REQUIRED, json_type_array, &bad)) ||
	    !(rows = load_want(c, tree, "rows", where, LOAD_REQUIRED, json_type_array, &bad)))
		return -1;
	if (tree_columns(c, cols, where, pos, &ncols) < 0)
		return -1;
	t->has_cpu = pos[COL_CPU] != COL_ABSENT && pos[COL_CPU_SELF] != COL_ABSENT;
	t->has_timed = pos[COL_TIMED] != COL_ABSENT && pos[COL_INCL_SE] != COL_ABSENT &&
		       pos[COL_SELF_SE] != COL_ABSENT;
	/* rowscan read the rows already when they were plain integers (json-c then sees []). */
	fast = json_object_array_length(rows) == 0 ? rowscan_find(c->rows, RS_TREE_ROWS, ti) : NULL;
	t->nnodes = fast ? fast->nrows : json_object_array_length(rows);
	if (t->nnodes >= INT32_MAX)
		return load_fail(c, "too many tree rows (%zu) at %s", t->nnodes, where);
	if (fast && fast->nrows && fast->ncols != ncols)
		return load_fail(c, "row has %zu fields for %zu columns at %s.rows[0]", fast->ncols,
				 ncols, where);
	t->nodes = xmalloc((t->nnodes + 1) * sizeof(*t->nodes));
	keymap_init(&ids, t->nnodes);
	for (size_t r = 0; r < t->nnodes && !bad; r++) {
		if (fast) {
			for (int k = 0; k < NCOLS; k++)
				v[k] = pos[k] == COL_ABSENT ? ROWSCAN_NULL
							    : fast->cells[r * ncols + pos[k]];
		} else if (tree_row_json(c, json_object_array_get_idx(rows, r), r, pos, ncols,
					 where, v) < 0) {
			bad = -1;
			break;
		}
		bad = tree_node(c, t, r, v, pos, where, fns, &ids);
	}
	keymap_release(&ids);
	return bad;
}
