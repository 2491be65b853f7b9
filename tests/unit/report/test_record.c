/* test_record.c: the one set of checks every per-thread record goes through (report/load_check.c),
 * driven by a reader of our own, as json-c's and rowscan's readers drive it. */
#include <stdlib.h>

#include "check.h"
#include "dump.h"
#include "load.h"

/* A record as a reader would find it: one cell per field of its kind. */
struct fake {
	struct load_cell cells[LOAD_MAX_FIELDS];
};

static int fake_cell(struct load_ctx *c, const void *src, const struct load_field *f, size_t k,
		     const struct load_where *w, struct load_cell *out)
{
	(void)c;
	(void)f;
	(void)w;
	*out = ((const struct fake *)src)->cells[k];
	return 0;
}

/* A reader that refuses every value, as json-c's does a string where a number belongs. */
static int refusing_cell(struct load_ctx *c, const void *src, const struct load_field *f, size_t k,
			 const struct load_where *w, struct load_cell *out)
{
	(void)src;
	(void)k;
	(void)w;
	(void)out;
	return load_fail(c, "refused %s", f->key);
}

/* set: the cell of field key of kind holds n (s for a string field). */
static void set(struct fake *r, const struct load_record_kind *kind, const char *key, int64_t n,
		const char *s)
{
	for (size_t k = 0; k < kind->nfields; k++) {
		if (!strcmp(kind->fields[k].key, key)) {
			r->cells[k] = (struct load_cell){ 1, n, s };
			return;
		}
	}
	unit_fail(__FILE__, __LINE__, "no field %s", key);
}

/* unset: the cell of field key of kind is absent. */
static void unset(struct fake *r, const struct load_record_kind *kind, const char *key)
{
	for (size_t k = 0; k < kind->nfields; k++)
		if (!strcmp(kind->fields[k].key, key))
			r->cells[k].present = 0;
}

/* Function ids 10 and 20 are functions 0 and 1. */
static struct keymap fns;
static struct buf err;
static struct load_ctx ctx = { "x.json", &err, NULL };
static const struct load_where where = { "threads[3]", "functions", 12 };

/* check: load_record of r as kind into record: its result, the message in err. */
static int check(const struct load_record_kind *kind, const struct fake *r, void *record)
{
	struct load_reader reader = { fake_cell, r };

	if (!fns.keys) {
		keymap_init(&fns, 2);
		keymap_put(&fns, 10, 0);
		keymap_put(&fns, 20, 1);
	}
	buf_reset(&err);
	memset(record, 0, kind->size);
	return load_record(&ctx, kind, &reader, &where, &fns, record);
}

/* a_function: a function's figures with every required field. */
static struct fake a_function(void)
{
	struct fake r;

	memset(&r, 0, sizeof(r));
	set(&r, &load_fstat_kind, "fn", 20, NULL);
	set(&r, &load_fstat_kind, "calls", 5, NULL);
	set(&r, &load_fstat_kind, "inclusive_ns", 100, NULL);
	set(&r, &load_fstat_kind, "self_ns", 40, NULL);
	return r;
}

void test_record_fstat_reads(void)
{
	struct fake r = a_function();
	struct dump_fstat s;

	set(&r, &load_fstat_kind, "raw_inclusive_ns", 120, NULL);
	set(&r, &load_fstat_kind, "raw_self_ns", 50, NULL);
	set(&r, &load_fstat_kind, "min_ns", 1, NULL);
	set(&r, &load_fstat_kind, "max_ns", 30, NULL);
	set(&r, &load_fstat_kind, "fenced_calls", 5, NULL);
	CHECK(check(&load_fstat_kind, &r, &s) == 0);
	CHECK_EQ_U64(s.fn, 1);
	CHECK_EQ_U64(s.st.calls, 5);
	CHECK_EQ_U64(s.st.incl_ns, 100);
	CHECK_EQ_U64(s.st.self_ns, 40);
	CHECK_EQ_U64(s.st.raw_incl_ns, 120);
	CHECK_EQ_U64(s.st.raw_self_ns, 50);
	CHECK(s.st.has_minmax && s.st.min_ns == 1 && s.st.max_ns == 30);
	CHECK(s.st.has_fenced && s.st.fenced_calls == 5);
	CHECK_EQ_U64(err.len, 0);
}

void test_record_fstat_defaults(void)
{
	struct fake r = a_function();
	struct dump_fstat s;

	CHECK(check(&load_fstat_kind, &r, &s) == 0);
	CHECK_EQ_U64(s.st.raw_incl_ns, 100); /* no raw figures: the compensated ones */
	CHECK_EQ_U64(s.st.raw_self_ns, 40);
	CHECK(!s.st.has_minmax && !s.st.has_fenced);
	set(&r, &load_fstat_kind, "min_ns", 3, NULL); /* min without max says nothing */
	set(&r, &load_fstat_kind, "fenced_calls", 0, NULL);
	CHECK(check(&load_fstat_kind, &r, &s) == 0);
	CHECK(!s.st.has_minmax);
	CHECK(s.st.has_fenced && s.st.fenced_calls == 0);
}

void test_record_messages(void)
{
	struct fake r = a_function();
	struct dump_fstat s;
	struct load_reader refusing = { refusing_cell, NULL };

	unset(&r, &load_fstat_kind, "calls");
	CHECK(check(&load_fstat_kind, &r, &s) == -1);
	CHECK_STR(err.data, "missing key \"calls\" at threads[3].functions[12] in 'x.json'");
	r = a_function();
	set(&r, &load_fstat_kind, "self_ns", -5, NULL);
	CHECK(check(&load_fstat_kind, &r, &s) == -1);
	CHECK_STR(err.data, "expected a non-negative integer, not -5, at "
			    "threads[3].functions[12].self_ns in 'x.json'");
	r = a_function();
	set(&r, &load_fstat_kind, "fn", 99, NULL);
	CHECK(check(&load_fstat_kind, &r, &s) == -1);
	CHECK_STR(
		err.data,
		"function id 99 is not in functions[] at threads[3].functions[12].fn in 'x.json'");
	r = a_function();
	set(&r, &load_fstat_kind, "fenced_calls", 6, NULL);
	CHECK(check(&load_fstat_kind, &r, &s) == -1);
	CHECK_STR(err.data, "fenced_calls 6 is more than calls 5 at "
			    "threads[3].functions[12].fenced_calls in 'x.json'");
	buf_reset(&err);
	CHECK(load_record(&ctx, &load_fstat_kind, &refusing, &where, &fns, &s) == -1);
	CHECK_STR(err.data, "refused fn in 'x.json'");
	buf_release(&err);
	keymap_release(&fns);
}

void test_record_edge_caller_null(void)
{
	struct fake r;
	struct dump_edge e;

	memset(&r, 0, sizeof(r));
	set(&r, &load_edge_kind, "callee", 10, NULL);
	set(&r, &load_edge_kind, "calls", 3, NULL);
	set(&r, &load_edge_kind, "inclusive_ns", 7, NULL);
	set(&r, &load_edge_kind, "call_file", 0, "main.c");
	CHECK(check(&load_edge_kind, &r, &e) == 0);
	CHECK(e.caller == -1); /* a root call */
	CHECK_EQ_U64(e.callee, 0);
	CHECK_EQ_U64(e.calls, 3);
	CHECK_EQ_U64(e.self_ns, 0);
	CHECK_STR(e.call_file, "main.c");
	free(e.call_file);
	set(&r, &load_edge_kind, "caller", 20, NULL);
	CHECK(check(&load_edge_kind, &r, &e) == 0);
	CHECK(e.caller == 1);
	free(e.call_file);
}

void test_record_keys_for_rowscan(void)
{
	const char *names[LOAD_MAX_FIELDS];
	struct rowscan_keys keys;
	size_t file = SIZE_MAX, site = SIZE_MAX;

	load_record_keys(&load_edge_kind, names, &keys);
	CHECK_EQ_U64(keys.n, load_edge_kind.nfields);
	for (size_t k = 0; k < keys.n; k++) {
		CHECK_STR(keys.names[k], load_edge_kind.fields[k].key);
		if (!strcmp(names[k], "call_file"))
			file = k;
		if (!strcmp(names[k], "site"))
			site = k;
	}
	CHECK_LT_U64(file, keys.n);
	CHECK_LT_U64(site, keys.n);
	CHECK_EQ_U64(keys.strings,
		     (UINT64_C(1) << file) | (UINT64_C(1) << site)); /* the string fields */
	load_record_keys(&load_fstat_kind, names, &keys);
	CHECK_EQ_U64(keys.strings, 0);
	CHECK_STR(keys.names[0], "fn");
}
