/* load.c: reads a dump with json-c, checks it against dump-format.md and fills struct dump.
 * The only file that includes json-c. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <json-c/json.h>

#include "dump.h"
#include "keymap.h"
#include "progress.h"
#include "rowscan.h"

#define LOAD_DEPTH 64 /* nesting json-c accepts: a dump needs 5 levels */

/* What every checker needs: where to put the message and which file to name. */
struct load_ctx {
	const char *path;
	struct buf *err;
	const struct rowscan *rows; /* tree rows, functions and edges read ahead of json-c */
};

/* An id -> index map (open addressing), so a dump's ids may be sparse or unordered. */

enum need { OPTIONAL, REQUIRED };


/* add_path appends a file name for a message: control characters become '?', so it stays one line. */
static void add_path(struct buf *out, const char *path)
{
	buf_putc(out, '\'');
	for (; *path; path++)
		buf_putc(out, (unsigned char)*path < 0x20 || *path == 0x7f ? '?' : *path);
	buf_putc(out, '\'');
}

static int fail(struct load_ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(struct load_ctx *c, const char *fmt, ...)
{
	va_list ap;

	buf_reset(c->err);
	buf_grow(c->err, 256);
	va_start(ap, fmt);
	vsnprintf(c->err->data, c->err->alloc, fmt, ap);
	va_end(ap);
	c->err->len = strlen(c->err->data);
	buf_puts(c->err, " in ");
	add_path(c->err, c->path);
	return -1;
}

/* ---- typed access to JSON values ---- */

/* get: obj's member key, NULL when absent or null (json-c gives null as NULL). */
static struct json_object *get(struct json_object *obj, const char *key)
{
	struct json_object *v = NULL;

	json_object_object_get_ex(obj, key, &v);
	return v;
}

/* type_words: a JSON type as a message says it ("an integer"). */
static const char *type_words(json_type t)
{
	switch (t) {
	case json_type_boolean: return "a boolean";
	case json_type_double: return "a fraction";
	case json_type_int: return "an integer";
	case json_type_object: return "an object";
	case json_type_array: return "an array";
	case json_type_string: return "a string";
	default: return "null";
	}
}

static const char *type_name(struct json_object *v)
{
	return v ? type_words(json_object_get_type(v)) : "null";
}

/* A JSON value as a message quotes it: at most BRIEF_MAX bytes of its text, then "...". */
#define BRIEF_MAX 40
struct brief {
	char text[BRIEF_MAX + 4];
};

static const char *brief(struct brief *b, struct json_object *v)
{
	const char *s = v ? json_object_to_json_string(v) : "null";
	size_t n = strlen(s);

	if (n <= BRIEF_MAX)
		return memcpy(b->text, s, n + 1);
	n = BRIEF_MAX;
	while (n && ((unsigned char)s[n] & 0xc0) == 0x80) /* not inside a UTF-8 sequence */
		n--;
	memcpy(b->text, s, n);
	memcpy(b->text + n, "...", 4);
	return b->text;
}

/* int_in_range: v is a JSON integer json-c holds exactly (it clamps past the int64 range). */
static int int_in_range(struct json_object *v)
{
	int64_t x = json_object_get_int64(v);

	if (x == INT64_MAX)
		return json_object_get_uint64(v) == (uint64_t)INT64_MAX;
	return 1;
}

/* TOP is the "where" of top-level keys; at() joins a where and a key into a JSON path. */
static const char TOP[] = "the top level";

static const char *at(char *out, size_t size, const char *where, const char *key)
{
	if (where == TOP || !strcmp(where, TOP))
		snprintf(out, size, "%s", key);
	else
		snprintf(out, size, "%s.%s", where, key);
	return out;
}

/* want: obj's member key of type t; NULL if absent (an error when required) or of the wrong type. */
static struct json_object *want(struct load_ctx *c, struct json_object *obj, const char *key,
				const char *where, enum need need, json_type t, int *bad)
{
	struct json_object *v = get(obj, key);

	if (!v) {
		if (need == REQUIRED)
			*bad = fail(c, "missing key \"%s\" at %s", key, where);
		return NULL;
	}
	if (!json_object_is_type(v, t)) {
		char path[256];

		*bad = fail(c, "expected %s, not %s, at %s", type_words(t), type_name(v),
			    at(path, sizeof(path), where, key));
		return NULL;
	}
	return v;
}

/*
 * as_u64: v is a non-negative integer below 2^63; stores it in out.  No real
 * figure comes near 2^63 (292 years in nanoseconds), and past it json-c's
 * values are no longer exact.
 */
static int as_u64(struct json_object *v, uint64_t *out)
{
	int64_t x;

	if (!v || !json_object_is_type(v, json_type_int) || !int_in_range(v))
		return -1;
	x = json_object_get_int64(v);
	if (x < 0)
		return -1;
	*out = (uint64_t)x;
	return 0;
}

/* want_u64: 1 if obj.key is a non-negative integer (stored in out), 0 if absent, -1 after fail(). */
static int want_u64(struct load_ctx *c, struct json_object *obj, const char *key,
		    const char *where, enum need need, uint64_t *out)
{
	struct json_object *v = get(obj, key);

	if (!v) {
		if (need == REQUIRED)
			return fail(c, "missing key \"%s\" at %s", key, where);
		return 0;
	}
	if (as_u64(v, out) < 0) {
		char path[256];
		struct brief b;

		return fail(c, "expected a non-negative integer%s, not %s, at %s",
			    json_object_is_type(v, json_type_int) && !int_in_range(v) ? " below 2^63" : "",
			    brief(&b, v), at(path, sizeof(path), where, key));
	}
	return 1;
}

/* want_id: like want_u64 for an id (any integer, negative allowed). */
static int want_id(struct load_ctx *c, struct json_object *obj, const char *key,
		   const char *where, enum need need, int64_t *out)
{
	struct json_object *v = get(obj, key);

	if (!v) {
		if (need == REQUIRED)
			return fail(c, "missing key \"%s\" at %s", key, where);
		return 0;
	}
	if (!json_object_is_type(v, json_type_int))
		return fail(c, "expected an integer id, not %s, at %s.%s", type_name(v), where, key);
	if (!int_in_range(v))
		return fail(c, "id out of range at %s.%s", where, key);
	*out = json_object_get_int64(v);
	return 1;
}

/* want_num: 1 if obj.key is a non-negative number (stored in out), 0 if absent, -1 after fail(). */
static int want_num(struct load_ctx *c, struct json_object *obj, const char *key,
		    const char *where, double *out)
{
	struct json_object *v = get(obj, key);

	if (!v)
		return 0;
	if (!json_object_is_type(v, json_type_int) && !json_object_is_type(v, json_type_double))
		return fail(c, "expected a number, not %s, at %s.%s", type_name(v), where, key);
	*out = json_object_get_double(v);
	if (!(*out >= 0) || !isfinite(*out)) {
		struct brief b;

		return fail(c, "expected a finite non-negative number, not %s, at %s.%s", brief(&b, v), where, key);
	}
	return 1;
}

/* want_str: obj.key as a new string in out (NULL if absent or null); 0, or -1 after fail(). */
static int want_str(struct load_ctx *c, struct json_object *obj, const char *key,
		    const char *where, enum need need, char **out)
{
	int bad = 0;
	struct json_object *v = want(c, obj, key, where, need, json_type_string, &bad);

	*out = v ? xstrdup(json_object_get_string(v)) : NULL;
	return bad;
}

/* ---- sections ---- */

static int load_program(struct load_ctx *c, struct dump *d, struct json_object *root)
{
	int bad = 0, rc;
	struct json_object *prog = want(c, root, "program", TOP, OPTIONAL,
					json_type_object, &bad);
	struct json_object *argv;
	int64_t pid;

	if (!prog)
		return bad;
	if (want_str(c, prog, "path", "program", OPTIONAL, &d->run.program) < 0)
		return -1;
	rc = want_id(c, prog, "pid", "program", OPTIONAL, &pid);
	if (rc < 0)
		return -1;
	d->run.pid = pid;
	d->run.has_pid = rc > 0;
	argv = want(c, prog, "argv", "program", OPTIONAL, json_type_array, &bad);
	if (!argv)
		return bad;
	d->run.argc = json_object_array_length(argv);
	d->run.argv = xcalloc(d->run.argc, sizeof(*d->run.argv));
	for (size_t i = 0; i < d->run.argc; i++) {
		struct json_object *a = json_object_array_get_idx(argv, i);

		if (!a || !json_object_is_type(a, json_type_string))
			return fail(c, "expected a string, not %s, at program.argv[%zu]", type_name(a), i);
		d->run.argv[i] = xstrdup(json_object_get_string(a));
	}
	return 0;
}

/* load_fenced_costs: what a fenced read costs, which only tsc-adaptive dumps say. */
static int load_fenced_costs(struct load_ctx *c, struct dump *d, struct json_object *cal)
{
	int rc;

	if ((rc = want_num(c, cal, "fenced_o_in_ns", "calibration", &d->run.fenced_o_in_ns)) < 0)
		return -1;
	d->run.has_fenced_o_in = rc > 0;
	if ((rc = want_num(c, cal, "fenced_o_out_ns", "calibration", &d->run.fenced_o_out_ns)) < 0)
		return -1;
	d->run.has_fenced_o_out = rc > 0;
	return 0;
}

static int load_clock(struct load_ctx *c, struct dump *d, struct json_object *root)
{
	int bad = 0, rc;
	struct json_object *clk = want(c, root, "clock", TOP, OPTIONAL, json_type_object, &bad);
	struct json_object *cal;

	d->run.compensated = -1;
	if (clk) {
		if (want_str(c, clk, "source", "clock", OPTIONAL, &d->run.clock_source) < 0 ||
		    want_u64(c, clk, "ticks_per_second", "clock", OPTIONAL, &d->run.ticks_per_second) < 0)
			return -1;
	} else if (bad) {
		return -1;
	}
	cal = want(c, root, "calibration", TOP, OPTIONAL, json_type_object, &bad);
	if (!cal)
		return bad;
	if ((rc = want_num(c, cal, "per_call_ns", "calibration", &d->run.per_call_ns)) < 0)
		return -1;
	d->run.has_per_call = rc > 0;
	if ((rc = want_num(c, cal, "o_in_ns", "calibration", &d->run.o_in_ns)) < 0)
		return -1;
	d->run.has_o_in = rc > 0;
	if ((rc = want_num(c, cal, "o_out_ns", "calibration", &d->run.o_out_ns)) < 0)
		return -1;
	d->run.has_o_out = rc > 0;
	if (load_fenced_costs(c, d, cal) < 0)
		return -1;
	if (get(cal, "compensated")) {
		struct json_object *v = want(c, cal, "compensated", "calibration", OPTIONAL, json_type_boolean, &bad);

		if (!v)
			return -1;
		d->run.compensated = json_object_get_boolean(v) ? 1 : 0;
	}
	return 0;
}

static int load_warnings(struct load_ctx *c, struct dump *d, struct json_object *root)
{
	int bad = 0;
	struct json_object *w = want(c, root, "warnings", TOP, OPTIONAL, json_type_array, &bad);

	if (!w)
		return bad;
	d->run.nwarnings = json_object_array_length(w);
	d->run.warnings = xcalloc(d->run.nwarnings, sizeof(*d->run.warnings));
	for (size_t i = 0; i < d->run.nwarnings; i++) {
		struct json_object *s = json_object_array_get_idx(w, i);

		struct brief b;

		d->run.warnings[i] = xstrdup(s && json_object_is_type(s, json_type_string) ?
					 json_object_get_string(s) : brief(&b, s));
	}
	return 0;
}

static int load_uncalled(struct load_ctx *c, struct run_module *mod, struct json_object *m,
			 const char *where)
{
	int bad = 0;
	struct json_object *arr = want(c, m, "uncalled", where, OPTIONAL, json_type_array, &bad);
	char sub[96];

	if (!arr)
		return bad;
	mod->nuncalled = json_object_array_length(arr);
	mod->uncalled = xcalloc(mod->nuncalled, sizeof(*mod->uncalled));
	for (size_t i = 0; i < mod->nuncalled; i++) {
		struct json_object *u = json_object_array_get_idx(arr, i);

		snprintf(sub, sizeof(sub), "%s.uncalled[%zu]", where, i);
		if (!u || !json_object_is_type(u, json_type_object))
			return fail(c, "expected an object, not %s, at %s", type_name(u), sub);
		if (want_str(c, u, "name", sub, REQUIRED, &mod->uncalled[i].name) < 0 ||
		    want_str(c, u, "file", sub, OPTIONAL, &mod->uncalled[i].file) < 0 ||
		    want_u64(c, u, "line", sub, OPTIONAL, &mod->uncalled[i].line) < 0)
			return -1;
	}
	return 0;
}

static int load_modules(struct load_ctx *c, struct dump *d, struct json_object *root,
			struct keymap *ids)
{
	int bad = 0;
	struct json_object *mods = want(c, root, "modules", TOP, OPTIONAL, json_type_array, &bad);
	char where[64];

	keymap_init(ids, mods ? json_object_array_length(mods) : 0);
	if (!mods)
		return bad;
	d->run.nmodules = json_object_array_length(mods);
	d->run.modules = xcalloc(d->run.nmodules, sizeof(*d->run.modules));
	for (size_t i = 0; i < d->run.nmodules; i++) {
		struct json_object *m = json_object_array_get_idx(mods, i);
		int64_t id;

		snprintf(where, sizeof(where), "modules[%zu]", i);
		if (!m || !json_object_is_type(m, json_type_object))
			return fail(c, "expected an object, not %s, at %s", type_name(m), where);
		if (want_id(c, m, "id", where, REQUIRED, &id) < 0 ||
		    want_str(c, m, "path", where, OPTIONAL, &d->run.modules[i].path) < 0 ||
		    want_str(c, m, "build_id", where, OPTIONAL, &d->run.modules[i].build_id) < 0 ||
		    want_u64(c, m, "symtab_functions", where, OPTIONAL, &d->run.modules[i].symtab_functions) < 0 ||
		    load_uncalled(c, &d->run.modules[i], m, where) < 0)
			return -1;
		if (keymap_put(ids, (uint64_t)id, (uint32_t)i) < 0)
			return fail(c, "duplicate module id %lld at %s", (long long)id, where);
	}
	return 0;
}

static int load_function(struct load_ctx *c, struct dump_function *f, struct json_object *o,
			 const char *where, const struct keymap *modules, int64_t *id)
{
	int64_t mod;
	int rc;

	if (!o || !json_object_is_type(o, json_type_object))
		return fail(c, "expected an object, not %s, at %s", type_name(o), where);
	if (want_id(c, o, "id", where, REQUIRED, id) < 0 ||
	    want_str(c, o, "name", where, REQUIRED, &f->name) < 0 ||
	    want_str(c, o, "file", where, OPTIONAL, &f->file) < 0 ||
	    want_str(c, o, "address", where, OPTIONAL, &f->address) < 0 ||
	    want_u64(c, o, "line", where, OPTIONAL, &f->line) < 0)
		return -1;
	f->module = -1;
	rc = want_id(c, o, "module", where, OPTIONAL, &mod);
	if (rc < 0)
		return -1;
	if (rc > 0) {
		int64_t m = keymap_get(modules, (uint64_t)mod);

		if (m < 0)
			return fail(c, "module id %lld is not in modules[] at %s.module", (long long)mod, where);
		f->module = (int32_t)m;
	}
	return 0;
}

static int load_functions(struct load_ctx *c, struct dump *d, struct json_object *root,
			  const struct keymap *modules, struct keymap *ids)
{
	int bad = 0;
	struct json_object *fns = want(c, root, "functions", TOP, REQUIRED, json_type_array, &bad);
	char where[64];

	keymap_init(ids, fns ? json_object_array_length(fns) : 0);
	if (!fns)
		return -1;
	d->nfunctions = json_object_array_length(fns);
	if (d->nfunctions >= INT32_MAX)
		return fail(c, "too many functions (%zu)", d->nfunctions);
	d->functions = xcalloc(d->nfunctions, sizeof(*d->functions));
	for (size_t i = 0; i < d->nfunctions; i++) {
		int64_t id;

		snprintf(where, sizeof(where), "functions[%zu]", i);
		if (load_function(c, &d->functions[i], json_object_array_get_idx(fns, i), where,
				  modules, &id) < 0)
			return -1;
		if (keymap_put(ids, (uint64_t)id, (uint32_t)i) < 0)
			return fail(c, "duplicate function id %lld at %s", (long long)id, where);
	}
	return 0;
}

/* want_fn: obj.key names a function; stores its index (or -1 for null when nullable). */
static int want_fn(struct load_ctx *c, struct json_object *obj, const char *key, const char *where,
		   const struct keymap *fns, int nullable, int64_t *index)
{
	int64_t id;
	int rc = want_id(c, obj, key, where, nullable ? OPTIONAL : REQUIRED, &id);

	*index = -1;
	if (rc <= 0)
		return rc;
	*index = keymap_get(fns, (uint64_t)id);
	if (*index < 0)
		return fail(c, "function id %lld is not in functions[] at %s.%s", (long long)id, where, key);
	return 0;
}

/*
 * fail_fenced: s has more fenced calls than calls, which no runtime writes (the
 * fenced ones are some of its calls), so the dump is damaged; where names the
 * threads[].functions[] entry.
 */
static int fail_fenced(struct load_ctx *c, const struct dump_fstat *s, const char *where)
{
	return fail(c, "fenced_calls %llu is more than calls %llu at %s.fenced_calls",
		    (unsigned long long)s->st.fenced_calls, (unsigned long long)s->st.calls, where);
}

static int load_fstat(struct load_ctx *c, struct dump_fstat *s, struct json_object *o,
		      const char *where, const struct keymap *fns)
{
	int64_t fn;
	int rc_min, rc_max, rc_fenced;

	if (!o || !json_object_is_type(o, json_type_object))
		return fail(c, "expected an object, not %s, at %s", type_name(o), where);
	if (want_fn(c, o, "fn", where, fns, 0, &fn) < 0 ||
	    want_u64(c, o, "calls", where, REQUIRED, &s->st.calls) < 0 ||
	    want_u64(c, o, "inclusive_ns", where, REQUIRED, &s->st.incl_ns) < 0 ||
	    want_u64(c, o, "self_ns", where, REQUIRED, &s->st.self_ns) < 0)
		return -1;
	s->fn = (uint32_t)fn;
	s->st.raw_incl_ns = s->st.incl_ns;
	s->st.raw_self_ns = s->st.self_ns;
	if (want_u64(c, o, "raw_inclusive_ns", where, OPTIONAL, &s->st.raw_incl_ns) < 0 ||
	    want_u64(c, o, "raw_self_ns", where, OPTIONAL, &s->st.raw_self_ns) < 0 ||
	    (rc_min = want_u64(c, o, "min_ns", where, OPTIONAL, &s->st.min_ns)) < 0 ||
	    (rc_max = want_u64(c, o, "max_ns", where, OPTIONAL, &s->st.max_ns)) < 0 ||
	    (rc_fenced = want_u64(c, o, "fenced_calls", where, OPTIONAL, &s->st.fenced_calls)) < 0)
		return -1;
	s->st.has_minmax = rc_min > 0 && rc_max > 0;
	s->st.has_fenced = rc_fenced > 0;
	if (s->st.fenced_calls > s->st.calls)
		return fail_fenced(c, s, where);
	return 0;
}

static int load_edge(struct load_ctx *c, struct dump_edge *e, struct json_object *o,
		     const char *where, const struct keymap *fns)
{
	int64_t caller, callee;

	if (!o || !json_object_is_type(o, json_type_object))
		return fail(c, "expected an object, not %s, at %s", type_name(o), where);
	if (want_fn(c, o, "caller", where, fns, 1, &caller) < 0 ||
	    want_fn(c, o, "callee", where, fns, 0, &callee) < 0 ||
	    want_u64(c, o, "calls", where, REQUIRED, &e->calls) < 0 ||
	    want_u64(c, o, "inclusive_ns", where, REQUIRED, &e->incl_ns) < 0 ||
	    want_u64(c, o, "self_ns", where, OPTIONAL, &e->self_ns) < 0 ||
	    want_str(c, o, "call_file", where, OPTIONAL, &e->call_file) < 0 ||
	    want_u64(c, o, "call_line", where, OPTIONAL, &e->call_line) < 0)
		return -1;
	e->caller = (int32_t)caller;
	e->callee = (uint32_t)callee;
	return 0;
}

/* The tree columns a reader needs, in the order tree_node takes them. */
enum { COL_ID, COL_PARENT, COL_FN, COL_CALLS, COL_INCL, COL_SELF, NCOLS };
static const char *const tree_cols[NCOLS] = {
	"id", "parent", "fn", "calls", "inclusive_ns", "self_ns",
};

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
		if (i == *ncols)
			return fail(c, "%s.columns lacks \"%s\"", where, tree_cols[k]);
		pos[k] = i;
	}
	return 0;
}

/*
 * tree_node: checks one row's cells (in tree_cols order, ROWSCAN_NULL for
 * null) and stores it as node r.  The hot loop of a large dump (a million
 * rows), so nothing is formatted unless it fails.
 */
static int tree_node(struct load_ctx *c, struct dump_thread *t, size_t r, const int64_t v[NCOLS],
		     const size_t pos[NCOLS], const char *where, const struct keymap *fns, struct keymap *rows)
{
	struct dump_node *n = &t->nodes[r];
	uint64_t *dst[3] = { &n->calls, &n->incl_ns, &n->self_ns };
	int64_t fn;

	if (v[COL_ID] == ROWSCAN_NULL)
		return fail(c, "expected an integer id at %s.rows[%zu][%zu]", where, r, pos[COL_ID]);
	if (keymap_put(rows, (uint64_t)v[COL_ID], (uint32_t)r) < 0)
		return fail(c, "duplicate tree node id %lld at %s.rows[%zu]", (long long)v[COL_ID], where, r);
	n->parent = -1;
	if (v[COL_PARENT] != ROWSCAN_NULL) {
		int64_t p = keymap_get(rows, (uint64_t)v[COL_PARENT]);

		if (p < 0 || p == (int64_t)r)
			return fail(c, "parent %lld is not an earlier row at %s.rows[%zu]",
				    (long long)v[COL_PARENT], where, r);
		n->parent = (int32_t)p;
	}
	fn = v[COL_FN] == ROWSCAN_NULL ? -1 : keymap_get(fns, (uint64_t)v[COL_FN]);
	if (fn < 0)
		return v[COL_FN] == ROWSCAN_NULL ?
		       fail(c, "expected a function id, not null, at %s.rows[%zu][%zu]", where, r, pos[COL_FN]) :
		       fail(c, "function id %lld is not in functions[] at %s.rows[%zu]",
			    (long long)v[COL_FN], where, r);
	n->fn = (uint32_t)fn;
	for (int k = 0; k < 3; k++) {
		if (v[COL_CALLS + k] < 0) /* ROWSCAN_NULL is negative too */
			return fail(c, "expected a non-negative integer at %s.rows[%zu][%zu] (%s)",
				    where, r, pos[COL_CALLS + k], tree_cols[COL_CALLS + k]);
		*dst[k] = (uint64_t)v[COL_CALLS + k];
	}
	return 0;
}

/* tree_row_json: the cells of a row json-c read, checked for type. */
static int tree_row_json(struct load_ctx *c, struct json_object *row, size_t r, const size_t pos[NCOLS],
			 size_t ncols, const char *where, int64_t v[NCOLS])
{
	if (!row || !json_object_is_type(row, json_type_array))
		return fail(c, "expected an array, not %s, at %s.rows[%zu]", type_name(row), where, r);
	if (json_object_array_length(row) != ncols)
		return fail(c, "row has %zu fields for %zu columns at %s.rows[%zu]",
			    json_object_array_length(row), ncols, where, r);
	for (int k = 0; k < NCOLS; k++) {
		struct json_object *x = json_object_array_get_idx(row, pos[k]);

		if (!x) {
			v[k] = ROWSCAN_NULL;
		} else if (json_object_is_type(x, json_type_int)) {
			if (!int_in_range(x))
				return fail(c, "integer out of range (2^63 or more) at %s.rows[%zu][%zu] (%s)",
					    where, r, pos[k], tree_cols[k]);
			v[k] = json_object_get_int64(x);
			if (v[k] == ROWSCAN_NULL)
				v[k]++;
		} else {
			struct brief b;

			return fail(c, "expected an integer, not %s, at %s.rows[%zu][%zu] (%s)",
				    json_object_is_type(x, json_type_double) ? brief(&b, x) : type_name(x),
				    where, r, pos[k], tree_cols[k]);
		}
	}
	return 0;
}

static int load_tree(struct load_ctx *c, struct dump_thread *t, size_t ti, struct json_object *th,
		     const char *thread_where, const struct keymap *fns)
{
	int bad = 0;
	char where[64];
	struct json_object *tree, *cols, *rows;
	const struct rowscan_table *fast;
	size_t pos[NCOLS], ncols;
	int64_t v[NCOLS];
	struct keymap ids;

	tree = want(c, th, "tree", thread_where, OPTIONAL, json_type_object, &bad);
	if (!tree)
		return bad;
	snprintf(where, sizeof(where), "%s.tree", thread_where);
	if (!(cols = want(c, tree, "columns", where, REQUIRED, json_type_array, &bad)) ||
	    !(rows = want(c, tree, "rows", where, REQUIRED, json_type_array, &bad)))
		return -1;
	if (tree_columns(c, cols, where, pos, &ncols) < 0)
		return -1;
	/* rowscan read the rows already when they were plain integers (json-c then sees []). */
	fast = json_object_array_length(rows) == 0 ? rowscan_find(c->rows, RS_TREE_ROWS, ti) : NULL;
	t->nnodes = fast ? fast->nrows : json_object_array_length(rows);
	if (t->nnodes >= INT32_MAX)
		return fail(c, "too many tree rows (%zu) at %s", t->nnodes, where);
	if (fast && fast->nrows && fast->ncols != ncols)
		return fail(c, "row has %zu fields for %zu columns at %s.rows[0]", fast->ncols, ncols, where);
	t->nodes = xmalloc((t->nnodes + 1) * sizeof(*t->nodes));
	keymap_init(&ids, t->nnodes);
	for (size_t r = 0; r < t->nnodes && !bad; r++) {
		if (fast) {
			for (int k = 0; k < NCOLS; k++)
				v[k] = fast->cells[r * ncols + pos[k]];
		} else if (tree_row_json(c, json_object_array_get_idx(rows, r), r, pos, ncols, where, v) < 0) {
			bad = -1;
			break;
		}
		bad = tree_node(c, t, r, v, pos, where, fns, &ids);
	}
	keymap_release(&ids);
	return bad;
}

/*
 * Objects rowscan read (threads[].functions and .edges): the same checks and
 * messages as load_fstat and load_edge, the JSON path formatted only on error.
 * A cell is ROWSCAN_NULL for null or absent, as json-c's get() sees both.
 */

/* A cell of object i of a fast table, and how to name where it is. */
struct fast_obj {
	const struct rowscan_table *t;
	const int64_t *cells;
	const char *const *keys;
	const char *thread_where;  /* "threads[3]" */
	const char *array;         /* "functions" or "edges" */
	size_t i;
};

static int fast_fail_missing(struct load_ctx *c, const struct fast_obj *o, int k)
{
	return fail(c, "missing key \"%s\" at %s.%s[%zu]", o->keys[k], o->thread_where, o->array, o->i);
}

/* fast_u64: cell k as a non-negative integer: 1 (stored in out), 0 absent, -1 after fail(). */
static int fast_u64(struct load_ctx *c, const struct fast_obj *o, int k, enum need need, uint64_t *out)
{
	int64_t v = o->cells[k];

	if (v == ROWSCAN_NULL)
		return need == REQUIRED ? fast_fail_missing(c, o, k) : 0;
	if (v < 0)
		return fail(c, "expected a non-negative integer, not %lld, at %s.%s[%zu].%s", (long long)v,
			    o->thread_where, o->array, o->i, o->keys[k]);
	*out = (uint64_t)v;
	return 1;
}

/* fast_fn: cell k names a function: its index in *index (-1 for null when nullable). */
static int fast_fn(struct load_ctx *c, const struct fast_obj *o, int k, const struct keymap *fns,
		   int nullable, int64_t *index)
{
	int64_t v = o->cells[k];

	*index = -1;
	if (v == ROWSCAN_NULL)
		return nullable ? 0 : fast_fail_missing(c, o, k);
	*index = keymap_get(fns, (uint64_t)v);
	if (*index < 0)
		return fail(c, "function id %lld is not in functions[] at %s.%s[%zu].%s", (long long)v,
			    o->thread_where, o->array, o->i, o->keys[k]);
	return 0;
}

static int fstat_fast(struct load_ctx *c, struct dump_fstat *s, const struct fast_obj *o, const struct keymap *fns)
{
	int64_t fn;
	int rc_min, rc_max, rc_fenced;
	char where[80];

	if (fast_fn(c, o, RS_FN_FN, fns, 0, &fn) < 0 || fast_u64(c, o, RS_FN_CALLS, REQUIRED, &s->st.calls) < 0 ||
	    fast_u64(c, o, RS_FN_INCL, REQUIRED, &s->st.incl_ns) < 0 ||
	    fast_u64(c, o, RS_FN_SELF, REQUIRED, &s->st.self_ns) < 0)
		return -1;
	s->fn = (uint32_t)fn;
	s->st.raw_incl_ns = s->st.incl_ns;
	s->st.raw_self_ns = s->st.self_ns;
	if (fast_u64(c, o, RS_FN_RAW_INCL, OPTIONAL, &s->st.raw_incl_ns) < 0 ||
	    fast_u64(c, o, RS_FN_RAW_SELF, OPTIONAL, &s->st.raw_self_ns) < 0 ||
	    (rc_min = fast_u64(c, o, RS_FN_MIN, OPTIONAL, &s->st.min_ns)) < 0 ||
	    (rc_max = fast_u64(c, o, RS_FN_MAX, OPTIONAL, &s->st.max_ns)) < 0 ||
	    (rc_fenced = fast_u64(c, o, RS_FN_FENCED, OPTIONAL, &s->st.fenced_calls)) < 0)
		return -1;
	s->st.has_minmax = rc_min > 0 && rc_max > 0;
	s->st.has_fenced = rc_fenced > 0;
	if (s->st.fenced_calls > s->st.calls) {
		snprintf(where, sizeof(where), "%s.%s[%zu]", o->thread_where, o->array, o->i);
		return fail_fenced(c, s, where);
	}
	return 0;
}

static int edge_fast(struct load_ctx *c, struct dump_edge *e, const struct fast_obj *o, const struct keymap *fns)
{
	int64_t caller, callee;

	if (fast_fn(c, o, RS_E_CALLER, fns, 1, &caller) < 0 || fast_fn(c, o, RS_E_CALLEE, fns, 0, &callee) < 0 ||
	    fast_u64(c, o, RS_E_CALLS, REQUIRED, &e->calls) < 0 ||
	    fast_u64(c, o, RS_E_INCL, REQUIRED, &e->incl_ns) < 0 ||
	    fast_u64(c, o, RS_E_SELF, OPTIONAL, &e->self_ns) < 0 ||
	    fast_u64(c, o, RS_E_CALL_LINE, OPTIONAL, &e->call_line) < 0)
		return -1;
	e->caller = (int32_t)caller;
	e->callee = (uint32_t)callee;
	if (o->cells[RS_E_CALL_FILE] != ROWSCAN_NULL)
		e->call_file = xstrdup(o->t->strings + o->cells[RS_E_CALL_FILE]);
	return 0;
}

/* load_fstats: threads[].functions, from rowscan's table when json-c saw the array empty. */
static int load_fstats(struct load_ctx *c, struct dump_thread *t, size_t ti, struct json_object *arr,
		       const char *where, const struct keymap *fns)
{
	const struct rowscan_table *fast = json_object_array_length(arr) ? NULL :
					   rowscan_find(c->rows, RS_FUNCTIONS, ti);
	struct fast_obj o = { fast, NULL, rowscan_fn_keys, where, "functions", 0 };
	char sub[80];

	t->nfuncs = fast ? fast->nrows : json_object_array_length(arr);
	t->funcs = xcalloc(t->nfuncs, sizeof(*t->funcs));
	for (size_t i = 0; i < t->nfuncs; i++) {
		if (fast) {
			o.i = i;
			o.cells = fast->cells + i * fast->ncols;
			if (fstat_fast(c, &t->funcs[i], &o, fns) < 0)
				return -1;
			continue;
		}
		snprintf(sub, sizeof(sub), "%s.functions[%zu]", where, i);
		if (load_fstat(c, &t->funcs[i], json_object_array_get_idx(arr, i), sub, fns) < 0)
			return -1;
	}
	return 0;
}

/* load_edges: threads[].edges, likewise. */
static int load_edges(struct load_ctx *c, struct dump_thread *t, size_t ti, struct json_object *arr,
		      const char *where, const struct keymap *fns)
{
	const struct rowscan_table *fast = !arr || json_object_array_length(arr) ? NULL :
					   rowscan_find(c->rows, RS_EDGES, ti);
	struct fast_obj o = { fast, NULL, rowscan_edge_keys, where, "edges", 0 };
	char sub[80];

	t->nedges = fast ? fast->nrows : arr ? json_object_array_length(arr) : 0;
	t->edges = xcalloc(t->nedges, sizeof(*t->edges));
	for (size_t i = 0; i < t->nedges; i++) {
		if (fast) {
			o.i = i;
			o.cells = fast->cells + i * fast->ncols;
			if (edge_fast(c, &t->edges[i], &o, fns) < 0)
				return -1;
			continue;
		}
		snprintf(sub, sizeof(sub), "%s.edges[%zu]", where, i);
		if (load_edge(c, &t->edges[i], json_object_array_get_idx(arr, i), sub, fns) < 0)
			return -1;
	}
	return 0;
}

static int load_thread(struct load_ctx *c, struct dump_thread *t, size_t ti, struct json_object *th,
		       const char *where, const struct keymap *fns)
{
	int bad = 0, rc;
	struct json_object *arr;
	int64_t first;

	if (!th || !json_object_is_type(th, json_type_object))
		return fail(c, "expected an object, not %s, at %s", type_name(th), where);
	if (want_id(c, th, "tid", where, OPTIONAL, &t->tid) < 0 ||
	    want_str(c, th, "name", where, OPTIONAL, &t->name) < 0 ||
	    (rc = want_u64(c, th, "wall_ns", where, OPTIONAL, &t->wall_ns)) < 0)
		return -1;
	t->has_wall = rc > 0;
	for (int k = 0; k < RUN_COUNTERS; k++)
		if (want_u64(c, th, run_counter_keys[k], where, OPTIONAL, &t->counters[k]) < 0)
			return -1;
	if (want_fn(c, th, "folded_first_fn", where, fns, 1, &first) < 0)
		return -1;
	t->folded_first_fn = (int32_t)first;
	if (get(th, "running")) {
		struct json_object *v = want(c, th, "running", where, OPTIONAL, json_type_boolean, &bad);

		if (!v)
			return -1;
		t->running = json_object_get_boolean(v) ? 1 : 0;
	}
	arr = want(c, th, "functions", where, REQUIRED, json_type_array, &bad);
	if (!arr || load_fstats(c, t, ti, arr, where, fns) < 0)
		return -1;
	arr = want(c, th, "edges", where, OPTIONAL, json_type_array, &bad);
	if (bad || load_edges(c, t, ti, arr, where, fns) < 0)
		return -1;
	return load_tree(c, t, ti, th, where, fns);
}

static int load_threads(struct load_ctx *c, struct dump *d, struct json_object *root,
			const struct keymap *fns)
{
	int bad = 0;
	struct json_object *ths = want(c, root, "threads", TOP, REQUIRED, json_type_array, &bad);
	char where[32];

	if (!ths)
		return -1;
	d->nthreads = json_object_array_length(ths);
	d->threads = xcalloc(d->nthreads, sizeof(*d->threads));
	for (size_t i = 0; i < d->nthreads; i++) {
		snprintf(where, sizeof(where), "threads[%zu]", i);
		if (load_thread(c, &d->threads[i], i, json_object_array_get_idx(ths, i), where, fns) < 0)
			return -1;
	}
	return 0;
}

static int load_header(struct load_ctx *c, struct dump *d, struct json_object *root)
{
	struct json_object *fmt = get(root, "format"), *ver = get(root, "version");
	struct brief b;
	int rc;

	if (!fmt)
		return fail(c, "not a callprof dump (no \"format\" key)");
	if (!json_object_is_type(fmt, json_type_string) || strcmp(json_object_get_string(fmt), "callprof"))
		return fail(c, "not a callprof dump (format is %s)", brief(&b, fmt));
	if (!ver)
		return fail(c, "missing key \"version\" at the top level");
	if (!json_object_is_type(ver, json_type_int) || json_object_get_int64(ver) != 1)
		return fail(c, "unsupported dump version %s (this callprof reads version 1)", brief(&b, ver));
	if ((rc = want_u64(c, root, "wall_ns", TOP, OPTIONAL, &d->run.wall_ns)) < 0)
		return -1;
	d->run.has_wall = rc > 0;
	if (want_u64(c, root, "clamped_figures", TOP, OPTIONAL, &d->run.clamped_figures) < 0 ||
	    want_str(c, root, "start_time", TOP, OPTIONAL, &d->run.date) < 0)
		return -1;
	if (!d->run.date)
		return want_str(c, root, "date", TOP, OPTIONAL, &d->run.date);
	return 0;
}

static int load_document(struct load_ctx *c, struct dump *d, struct json_object *root)
{
	struct keymap modules, fns;
	int rc;

	if (!json_object_is_type(root, json_type_object))
		return fail(c, "not a callprof dump (the document is %s, not an object)", type_name(root));
	if (load_header(c, d, root) < 0 || load_program(c, d, root) < 0 || load_clock(c, d, root) < 0 ||
	    load_warnings(c, d, root) < 0)
		return -1;
	rc = load_modules(c, d, root, &modules);
	if (rc == 0)
		rc = load_functions(c, d, root, &modules, &fns);
	else
		keymap_init(&fns, 0);
	if (rc == 0)
		rc = load_threads(c, d, root, &fns);
	keymap_release(&fns);
	keymap_release(&modules);
	return rc;
}

/* ---- the file ---- */

static int read_whole(struct load_ctx *c, int fd, struct buf *text)
{
	struct stat st;

	if (fstat(fd, &st) < 0)
		return fail(c, "cannot stat the file (%s)", strerror(errno));
	if (S_ISDIR(st.st_mode))
		return fail(c, "not a dump (a directory)");
	if (S_ISREG(st.st_mode))
		buf_grow(text, (size_t)st.st_size);
	for (;;) {
		ssize_t n;

		buf_grow(text, 1 << 20);
		n = read(fd, text->data + text->len, text->alloc - text->len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return fail(c, "cannot read the file (%s)", strerror(errno));
		if (n == 0)
			break;
		text->len += (size_t)n;
	}
	text->data[text->len] = '\0';
	return 0;
}

/* parse_json: the document in text, or NULL after fail(). */
static struct json_object *parse_json(struct load_ctx *c, const struct buf *text)
{
	struct json_tokener *tok = json_tokener_new_ex(LOAD_DEPTH);
	struct json_object *root = NULL;
	enum json_tokener_error jerr = json_tokener_continue;
	size_t off = 0, end = 0;

	if (!tok)
		return fail(c, "out of memory"), NULL;
	json_tokener_set_flags(tok, JSON_TOKENER_STRICT);
	/* json-c takes an int length: feed a huge file in slices. */
	while (off < text->len && jerr == json_tokener_continue) {
		size_t n = text->len - off > INT_MAX / 2 ? INT_MAX / 2 : text->len - off;

		root = json_tokener_parse_ex(tok, text->data + off, (int)n);
		jerr = json_tokener_get_error(tok);
		end = off + json_tokener_get_parse_end(tok);
		off += n;
	}
	if (jerr == json_tokener_continue) {
		fail(c, text->len ? "truncated JSON (the document ends early)" : "not a dump (the file is empty)");
	} else if (jerr != json_tokener_success) {
		fail(c, "not valid JSON (%s at byte %zu)", json_tokener_error_desc(jerr), end);
	} else {
		while (end < text->len && text->data[end] && strchr(" \t\r\n", text->data[end]))
			end++;
		if (end < text->len)
			fail(c, "not valid JSON (unexpected data after the document at byte %zu)", end);
		else if (!root) /* "null" is a whole document to json-c */
			fail(c, "not a callprof dump (the document is null, not an object)");
	}
	json_tokener_free(tok);
	if (jerr == json_tokener_success && end == text->len && root)
		return root;
	json_object_put(root);
	return NULL;
}

static void set_date_from_mtime(struct dump *d, int fd)
{
	struct stat st;
	struct tm tm;
	char when[64];

	if (fstat(fd, &st) < 0 || !localtime_r(&st.st_mtime, &tm))
		return;
	strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S %z", &tm);
	d->run.date = xstrdup(when);
}

/*
 * parse_text: the document in text (len bytes, NUL-terminated, modified) into
 * d; 0, or -1 after fail().  owner, when not NULL, holds the text and is
 * released once json-c has read it, before the structs are built.
 */
static int parse_text(struct load_ctx *c, struct dump *d, char *text, size_t len, struct buf *owner)
{
	struct rowscan rows;
	struct buf view = { text, len, len + 1 };
	struct json_object *root;
	int rc = -1;

	c->rows = &rows;
	rowscan_extract(&rows, text, len);
	root = parse_json(c, &view);
	if (owner)
		buf_release(owner);
	if (root) {
		rc = load_document(c, d, root);
		json_object_put(root);
	}
	rowscan_release(&rows);
	c->rows = NULL;
	return rc;
}

int dump_parse(struct dump *d, const char *path, char *text, size_t len, struct buf *err)
{
	struct load_ctx c = { path, err, NULL };
	int rc;

	memset(d, 0, sizeof(*d));
	d->run.path = xstrdup(path);
	rc = parse_text(&c, d, text, len, NULL);
	if (rc < 0)
		dump_release(d);
	return rc;
}

int dump_load(struct dump *d, const char *path, struct buf *err)
{
	struct load_ctx c = { path, err, NULL };
	struct buf text = BUF_INIT;
	int fd, rc = -1;

	memset(d, 0, sizeof(*d));
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		int e = errno;

		buf_reset(err);
		buf_puts(err, "cannot open ");
		add_path(err, path);
		buf_printf(err, ": %s", strerror(e));
		return -1;
	}
	progress_note("reading '%s'", path);
	if (read_whole(&c, fd, &text) < 0)
		goto out_close;
	d->run.path = xstrdup(path);
	rc = parse_text(&c, d, text.data, text.len, &text);
	if (rc == 0 && !d->run.date)
		set_date_from_mtime(d, fd);
out_close:
	buf_release(&text);
	close(fd);
	if (rc < 0)
		dump_release(d);
	return rc;
}

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
		for (size_t k = 0; k < d->threads[i].nedges; k++)
			free(d->threads[i].edges[k].call_file);
		free(d->threads[i].edges);
		free(d->threads[i].nodes);
	}
	free(d->threads);
	memset(d, 0, sizeof(*d));
}

int dumps_load(struct dump **out, char *const *paths, size_t n)
{
	struct dump *d = xcalloc(n, sizeof(*d));
	struct buf err = BUF_INIT;

	for (size_t i = 0; i < n; i++) {
		if (dump_load(&d[i], paths[i], &err) < 0) {
			progress_end();
			fprintf(stderr, "callprof: %s\n", err.data);
			buf_release(&err);
			dumps_free(d, i);
			*out = NULL;
			return -1;
		}
	}
	buf_release(&err);
	progress_end();
	*out = d;
	return 0;
}

void dumps_free(struct dump *d, size_t n)
{
	for (size_t i = 0; i < n; i++)
		dump_release(&d[i]);
	free(d);
}
