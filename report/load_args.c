/* load_args.c: functions[].args, the value profile of a function CALLPROF_ARGS selected: its
 * signature, its argument tuples and its return values, each with its checks. */
#include <stdio.h>
#include <stdlib.h>

#include "load_json.h"

/* load_texts: the array key of o, n strings, into *out (n of them). */
static int load_texts(struct load_ctx *c, struct json_object *o, const char *key, const char *where,
		      size_t n, char ***out)
{
	int bad = 0;
	struct json_object *arr = load_want(c, o, key, where, LOAD_REQUIRED, json_type_array, &bad);

	if (!arr)
		return -1;
	if (json_object_array_length(arr) != n)
		return load_fail(c, "expected %zu values (one per parameter), not %zu, at %s.%s", n,
				 json_object_array_length(arr), where, key);
	*out = xcalloc(n ? n : 1, sizeof(**out));
	for (size_t i = 0; i < n; i++) {
		struct json_object *s = json_object_array_get_idx(arr, i);

		if (!s || !json_object_is_type(s, json_type_string))
			return load_fail(c, "expected a string, not %s, at %s.%s[%zu]",
					 load_type_name(s), where, key, i);
		(*out)[i] = xstrdup(json_object_get_string(s));
	}
	return 0;
}

/* load_value: one tuple (nvalues texts in "values") or return value ("value"), and its figures. */
static int load_value(struct load_ctx *c, struct json_object *o, const char *where, size_t nvalues,
		      int tuple, struct dump_value *v)
{
	if (!o || !json_object_is_type(o, json_type_object))
		return load_fail(c, "expected an object, not %s, at %s", load_type_name(o), where);
	if (tuple ? load_texts(c, o, "values", where, nvalues, &v->values) < 0 : 0)
		return -1;
	if (!tuple) {
		v->values = xcalloc(1, sizeof(*v->values));
		if (load_want_str(c, o, "value", where, LOAD_REQUIRED, &v->values[0]) < 0)
			return -1;
	}
	if (load_want_u64(c, o, "calls", where, LOAD_REQUIRED, &v->calls) < 0 ||
	    load_want_u64(c, o, "error", where, LOAD_OPTIONAL, &v->error) < 0 ||
	    load_want_u64(c, o, "timed_calls", where, LOAD_OPTIONAL, &v->timed_calls) < 0 ||
	    load_want_u64(c, o, "inclusive_ns", where, LOAD_OPTIONAL, &v->incl_ns) < 0 ||
	    load_want_u64(c, o, "min_ns", where, LOAD_OPTIONAL, &v->min_ns) < 0 ||
	    load_want_u64(c, o, "max_ns", where, LOAD_OPTIONAL, &v->max_ns) < 0)
		return -1;
	if (v->error > v->calls || v->timed_calls > v->calls)
		return load_fail(c, "error or timed_calls above calls %llu at %s",
				 (unsigned long long)v->calls, where);
	if (v->min_ns > v->max_ns || (v->timed_calls && v->max_ns > v->incl_ns))
		return load_fail(c, "min_ns, max_ns and inclusive_ns out of order at %s", where);
	return 0;
}

/* load_values: the array key of o into *out (*n entries), at most `entries`, counting at most `calls`. */
static int load_values(struct load_ctx *c, struct json_object *o, const char *key,
		       const char *where, const struct dump_args *a, uint64_t calls,
		       struct dump_value **out, size_t *n)
{
	int bad = 0, tuple = key[0] == 't';
	struct json_object *arr = load_want(c, o, key, where, LOAD_REQUIRED, json_type_array, &bad);
	char sub[128];
	uint64_t sum = 0;

	if (!arr)
		return -1;
	*n = json_object_array_length(arr);
	if (*n > a->entries)
		return load_fail(c, "%zu entries, more than the bound %llu, at %s.%s", *n,
				 (unsigned long long)a->entries, where, key);
	*out = xcalloc(*n ? *n : 1, sizeof(**out));
	for (size_t i = 0; i < *n; i++) {
		snprintf(sub, sizeof(sub), "%s.%s[%zu]", where, key, i);
		if (load_value(c, json_object_array_get_idx(arr, i), sub, a->nparams, tuple,
			       &(*out)[i]) < 0)
			return -1;
		sum = u64_add(sum, (*out)[i].calls);
	}
	if (sum > calls)
		return load_fail(c, "counts adding up to %llu, more than the %llu calls, at %s.%s",
				 (unsigned long long)sum, (unsigned long long)calls, where, key);
	return 0;
}

/* load_signature: the parameters (names and types), variadic, the return type. */
static int load_signature(struct load_ctx *c, struct json_object *o, const char *where,
			  struct dump_args *a)
{
	int bad = 0;
	struct json_object *params =
		load_want(c, o, "params", where, LOAD_REQUIRED, json_type_array, &bad);
	struct json_object *v;
	char sub[128];

	if (!params)
		return -1;
	a->nparams = json_object_array_length(params);
	a->param_names = xcalloc(a->nparams ? a->nparams : 1, sizeof(*a->param_names));
	a->param_types = xcalloc(a->nparams ? a->nparams : 1, sizeof(*a->param_types));
	for (size_t i = 0; i < a->nparams; i++) {
		struct json_object *p = json_object_array_get_idx(params, i);

		snprintf(sub, sizeof(sub), "%s.params[%zu]", where, i);
		if (!p || !json_object_is_type(p, json_type_object))
			return load_fail(c, "expected an object, not %s, at %s", load_type_name(p),
					 sub);
		if (load_want_str(c, p, "name", sub, LOAD_REQUIRED, &a->param_names[i]) < 0 ||
		    load_want_str(c, p, "type", sub, LOAD_REQUIRED, &a->param_types[i]) < 0)
			return -1;
	}
	if ((v = load_want(c, o, "variadic", where, LOAD_OPTIONAL, json_type_boolean, &bad)))
		a->variadic = json_object_get_boolean(v);
	if (bad || load_want_str(c, o, "returns", where, LOAD_OPTIONAL, &a->returns) < 0)
		return -1;
	return 0;
}

static int load_profile(struct load_ctx *c, struct json_object *o, const char *where,
			struct dump_args *a)
{
	if (load_want_str(c, o, "refused", where, LOAD_OPTIONAL, &a->refused) < 0)
		return -1;
	if (a->refused)
		return 0;
	if (load_signature(c, o, where, a) < 0 ||
	    load_want_u64(c, o, "entries", where, LOAD_REQUIRED, &a->entries) < 0 ||
	    load_want_u64(c, o, "calls", where, LOAD_REQUIRED, &a->calls) < 0 ||
	    load_values(c, o, "tuples", where, a, a->calls, &a->tuples, &a->ntuples) < 0)
		return -1;
	if (!a->returns)
		return 0;
	if (load_want_u64(c, o, "returned_calls", where, LOAD_REQUIRED, &a->returned_calls) < 0)
		return -1;
	if (a->returned_calls > a->calls)
		return load_fail(c, "returned_calls %llu is more than calls %llu at %s",
				 (unsigned long long)a->returned_calls,
				 (unsigned long long)a->calls, where);
	return load_values(c, o, "returned", where, a, a->returned_calls, &a->returned,
			   &a->nreturned);
}

int load_args(struct load_ctx *c, struct json_object *o, const char *where, struct dump_args **out)
{
	int bad = 0;
	struct json_object *args =
		load_want(c, o, "args", where, LOAD_OPTIONAL, json_type_object, &bad);
	char sub[96];

	*out = NULL;
	if (!args)
		return bad ? -1 : 0;
	snprintf(sub, sizeof(sub), "%s.args", where);
	*out = xcalloc(1, sizeof(**out));
	return load_profile(c, args, sub, *out);
}
