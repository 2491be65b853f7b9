/* load_threads.c: threads[]: each thread's own keys, then its records (functions and edges),
 * from rowscan's tables or json-c's objects, each through load_record; then its tree. */
#include <stdio.h>

#include "load_json.h"

/* A row of a rowscan table: the cells of one record, in field order. */
struct fast_row {
	const struct rowscan_table *t;
	const int64_t *cells;
};

/* fast_cell: field k of a rowscan row: rowscan read only integers, nulls and plain strings. */
static int fast_cell(struct load_ctx *c, const void *src, const struct load_field *f, size_t k,
		     const struct load_where *w, struct load_cell *out)
{
	const struct fast_row *r = src;
	int64_t v = r->cells[k];

	(void)c;
	(void)w;
	if (v == ROWSCAN_NULL)
		return 0;
	out->present = 1;
	out->n = v;
	if (f->kind == LOAD_STR)
		out->s = r->t->strings + v;
	return 0;
}

/* json_cell: field f of a json-c object, which must be of the field's JSON type. */
static int json_cell(struct load_ctx *c, const void *src, const struct load_field *f, size_t k,
		     const struct load_where *w, struct load_cell *out)
{
	struct json_object *v = load_get((struct json_object *)src, f->key);
	int is_int = v && json_object_is_type(v, json_type_int);
	char where[96];
	struct load_brief b;

	(void)k;
	if (!v)
		return 0;
	out->present = 1;
	switch (f->kind) {
	case LOAD_U64:
		if (!is_int || !load_int_in_range(v))
			return load_fail(c, "expected a non-negative integer%s, not %s, at %s.%s",
					 is_int ? " below 2^63" : "", load_brief(&b, v),
					 load_where_format(where, sizeof(where), w), f->key);
		out->n = json_object_get_int64(v);
		return 0;
	case LOAD_FN:
		if (!is_int)
			return load_fail(c, "expected an integer id, not %s, at %s.%s",
					 load_type_name(v),
					 load_where_format(where, sizeof(where), w), f->key);
		if (!load_int_in_range(v))
			return load_fail(c, "id out of range at %s.%s",
					 load_where_format(where, sizeof(where), w), f->key);
		out->n = json_object_get_int64(v);
		return 0;
	case LOAD_STR:
		if (!json_object_is_type(v, json_type_string))
			return load_fail(c, "expected a string, not %s, at %s.%s",
					 load_type_name(v),
					 load_where_format(where, sizeof(where), w), f->key);
		out->s = json_object_get_string(v);
		return 0;
	}
	return 0;
}

/*
 * load_records: the records of kind of thread ti, whose array json-c read as
 * arr (NULL when the thread has none): from rowscan's table when json-c saw
 * the array empty, else from json-c's objects.  *out (n records) is set here.
 */
static int load_records(struct load_ctx *c, const struct load_record_kind *kind,
			enum rowscan_what what, size_t ti, struct json_object *arr,
			const char *thread_where, const struct keymap *fns, void **out, size_t *n)
{
	const struct rowscan_table *fast =
		arr && !json_object_array_length(arr) ? rowscan_find(c->rows, what, ti) : NULL;
	struct load_where w = { thread_where, kind->array, 0 };
	struct fast_row row = { fast, NULL };
	struct load_reader fast_reader = { fast_cell, &row }, json_reader = { json_cell, NULL };
	char *records, where[96];

	*n = fast ? fast->nrows : arr ? json_object_array_length(arr) : 0;
	*out = records = xcalloc(*n, kind->size);
	for (w.i = 0; w.i < *n; w.i++) {
		const struct load_reader *r = &fast_reader;

		if (fast) {
			row.cells = fast->cells + w.i * fast->ncols;
		} else {
			struct json_object *o = json_object_array_get_idx(arr, w.i);

			if (!o || !json_object_is_type(o, json_type_object))
				return load_fail(c, "expected an object, not %s, at %s",
						 load_type_name(o),
						 load_where_format(where, sizeof(where), &w));
			json_reader.src = o;
			r = &json_reader;
		}
		if (load_record(c, kind, r, &w, fns, records + w.i * kind->size) < 0)
			return -1;
	}
	return 0;
}

/* want_fn: obj.key names a function; stores its index (or -1 for null when nullable). */
static int want_fn(struct load_ctx *c, struct json_object *obj, const char *key, const char *where,
		   const struct keymap *fns, int nullable, int64_t *index)
{
	int64_t id;
	int rc = load_want_id(c, obj, key, where, nullable ? LOAD_OPTIONAL : LOAD_REQUIRED, &id);

	*index = -1;
	if (rc <= 0)
		return rc;
	*index = keymap_get(fns, (uint64_t)id);
	if (*index < 0)
		return load_fail(c, "function id %lld is not in functions[] at %s.%s",
				 (long long)id, where, key);
	return 0;
}

/* thread_keys: the thread's own keys: tid, name, wall time, pid (in a merged dump), counters, the first folded function, running. */
static int thread_keys(struct load_ctx *c, struct dump_thread *t, struct json_object *th,
		       const char *where, const struct keymap *fns)
{
	int bad = 0, rc;
	int64_t first;

	if (load_want_id(c, th, "tid", where, LOAD_OPTIONAL, &t->tid) < 0 ||
	    load_want_str(c, th, "name", where, LOAD_OPTIONAL, &t->name) < 0 ||
	    (rc = load_want_u64(c, th, "wall_ns", where, LOAD_OPTIONAL, &t->wall_ns)) < 0)
		return -1;
	t->has_wall = rc > 0;
	if ((rc = load_want_u64(c, th, "runq_wait_ns", where, LOAD_OPTIONAL, &t->runq_wait_ns)) < 0)
		return -1;
	t->has_wait = rc > 0;
	if ((rc = load_want_id(c, th, "pid", where, LOAD_OPTIONAL, &t->pid)) < 0)
		return -1;
	t->has_pid = rc > 0;
	for (int k = 0; k < RUN_COUNTERS; k++)
		if (load_want_u64(c, th, run_counter_keys[k], where, LOAD_OPTIONAL,
				  &t->counters[k]) < 0)
			return -1;
	if (want_fn(c, th, "folded_first_fn", where, fns, 1, &first) < 0)
		return -1;
	t->folded_first_fn = (int32_t)first;
	if (load_get(th, "running")) {
		struct json_object *v =
			load_want(c, th, "running", where, LOAD_OPTIONAL, json_type_boolean, &bad);

		if (!v)
			return -1;
		t->running = json_object_get_boolean(v) ? 1 : 0;
	}
	return 0;
}

static int load_thread(struct load_ctx *c, struct dump_thread *t, size_t ti, struct json_object *th,
		       const char *where, const struct keymap *fns)
{
	int bad = 0;
	struct json_object *arr;
	void *records;

	if (!th || !json_object_is_type(th, json_type_object))
		return load_fail(c, "expected an object, not %s, at %s", load_type_name(th), where);
	if (thread_keys(c, t, th, where, fns) < 0)
		return -1;
	arr = load_want(c, th, "functions", where, LOAD_REQUIRED, json_type_array, &bad);
	if (!arr)
		return -1;
	bad = load_records(c, &load_fstat_kind, RS_FUNCTIONS, ti, arr, where, fns, &records,
			   &t->nfuncs);
	t->funcs = records;
	if (bad < 0)
		return -1;
	arr = load_want(c, th, "edges", where, LOAD_OPTIONAL, json_type_array, &bad);
	if (bad < 0)
		return -1;
	bad = load_records(c, &load_edge_kind, RS_EDGES, ti, arr, where, fns, &records, &t->nedges);
	t->edges = records;
	if (bad < 0)
		return -1;
	return load_tree(c, t, ti, th, where, fns);
}

int load_threads(struct load_ctx *c, struct dump *d, struct json_object *root,
		 const struct keymap *fns)
{
	int bad = 0;
	struct json_object *ths =
		load_want(c, root, "threads", LOAD_TOP, LOAD_REQUIRED, json_type_array, &bad);
	char where[32];

	if (!ths)
		return -1;
	d->nthreads = json_object_array_length(ths);
	d->threads = xcalloc(d->nthreads, sizeof(*d->threads));
	for (size_t i = 0; i < d->nthreads; i++) {
		snprintf(where, sizeof(where), "threads[%zu]", i);
		if (load_thread(c, &d->threads[i], i, json_object_array_get_idx(ths, i), where,
				fns) < 0)
			return -1;
	}
	return 0;
}
