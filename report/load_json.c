/* load_json.c: typed access to the JSON values json-c read, with the loader's messages. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "load_json.h"

const char LOAD_TOP[] = "the top level";

struct json_object *load_get(struct json_object *obj, const char *key)
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

const char *load_type_name(struct json_object *v)
{
	return v ? type_words(json_object_get_type(v)) : "null";
}

const char *load_brief(struct load_brief *b, struct json_object *v)
{
	const char *s = v ? json_object_to_json_string(v) : "null";
	size_t n = strlen(s);

	if (n <= LOAD_BRIEF_MAX)
		return memcpy(b->text, s, n + 1);
	n = LOAD_BRIEF_MAX;
	while (n && ((unsigned char)s[n] & 0xc0) == 0x80) /* not inside a UTF-8 sequence */
		n--;
	memcpy(b->text, s, n);
	memcpy(b->text + n, "...", 4);
	return b->text;
}

int load_int_in_range(struct json_object *v)
{
	int64_t x = json_object_get_int64(v);

	if (x == INT64_MAX)
		return json_object_get_uint64(v) == (uint64_t)INT64_MAX;
	return 1;
}

/* at: where and key joined into a JSON path ("calibration.o_in_ns", or "wall_ns" at the top). */
static const char *at(char *out, size_t size, const char *where, const char *key)
{
	if (where == LOAD_TOP || !strcmp(where, LOAD_TOP))
		snprintf(out, size, "%s", key);
	else
		snprintf(out, size, "%s.%s", where, key);
	return out;
}

struct json_object *load_want(struct load_ctx *c, struct json_object *obj, const char *key,
			      const char *where, enum load_need need, json_type t, int *bad)
{
	struct json_object *v = load_get(obj, key);

	if (!v) {
		if (need == LOAD_REQUIRED)
			*bad = load_fail(c, "missing key \"%s\" at %s", key, where);
		return NULL;
	}
	if (!json_object_is_type(v, t)) {
		char path[256];

		*bad = load_fail(c, "expected %s, not %s, at %s", type_words(t), load_type_name(v),
				 at(path, sizeof(path), where, key));
		return NULL;
	}
	return v;
}

/* as_u64: v is a non-negative integer below 2^63; stores it in out. */
static int as_u64(struct json_object *v, uint64_t *out)
{
	int64_t x;

	if (!v || !json_object_is_type(v, json_type_int) || !load_int_in_range(v))
		return -1;
	x = json_object_get_int64(v);
	if (x < 0)
		return -1;
	*out = (uint64_t)x;
	return 0;
}

int load_want_u64(struct load_ctx *c, struct json_object *obj, const char *key, const char *where,
		  enum load_need need, uint64_t *out)
{
	struct json_object *v = load_get(obj, key);

	if (!v) {
		if (need == LOAD_REQUIRED)
			return load_fail(c, "missing key \"%s\" at %s", key, where);
		return 0;
	}
	if (as_u64(v, out) < 0) {
		char path[256];
		struct load_brief b;

		return load_fail(c, "expected a non-negative integer%s, not %s, at %s",
				 json_object_is_type(v, json_type_int) && !load_int_in_range(v)
					 ? " below 2^63"
					 : "",
				 load_brief(&b, v), at(path, sizeof(path), where, key));
	}
	return 1;
}

int load_want_id(struct load_ctx *c, struct json_object *obj, const char *key, const char *where,
		 enum load_need need, int64_t *out)
{
	struct json_object *v = load_get(obj, key);

	if (!v) {
		if (need == LOAD_REQUIRED)
			return load_fail(c, "missing key \"%s\" at %s", key, where);
		return 0;
	}
	if (!json_object_is_type(v, json_type_int))
		return load_fail(c, "expected an integer id, not %s, at %s.%s", load_type_name(v),
				 where, key);
	if (!load_int_in_range(v))
		return load_fail(c, "id out of range at %s.%s", where, key);
	*out = json_object_get_int64(v);
	return 1;
}

int load_want_num(struct load_ctx *c, struct json_object *obj, const char *key, const char *where,
		  double *out)
{
	struct json_object *v = load_get(obj, key);

	if (!v)
		return 0;
	if (!json_object_is_type(v, json_type_int) && !json_object_is_type(v, json_type_double))
		return load_fail(c, "expected a number, not %s, at %s.%s", load_type_name(v), where,
				 key);
	*out = json_object_get_double(v);
	if (!(*out >= 0) || !isfinite(*out)) {
		struct load_brief b;

		return load_fail(c, "expected a finite non-negative number, not %s, at %s.%s",
				 load_brief(&b, v), where, key);
	}
	return 1;
}

char *load_string(struct json_object *v, int exact)
{
	const char *s = json_object_get_string(v);
	size_t len = (size_t)json_object_get_string_len(v);
	struct buf out = BUF_INIT;

	if (strlen(s) == len)
		return xstrdup(s);
	for (size_t i = 0; i < len; i++) {
		if (!s[i])
			buf_puts(&out, "\\0");
		else if (s[i] == '\\' && exact)
			buf_puts(&out, "\\\\");
		else
			buf_putc(&out, s[i]);
	}
	return buf_detach(&out, NULL);
}

/* want_string: load_want_str's work, the copy made by load_string. */
static int want_string(struct load_ctx *c, struct json_object *obj, const char *key,
		       const char *where, enum load_need need, char **out, int exact)
{
	int bad = 0;
	struct json_object *v = load_want(c, obj, key, where, need, json_type_string, &bad);

	*out = v ? load_string(v, exact) : NULL;
	if (bad < 0)
		return -1;
	return !v                                                                           ? 0
	       : strlen(json_object_get_string(v)) == (size_t)json_object_get_string_len(v) ? 1
											    : 2;
}

int load_want_str(struct load_ctx *c, struct json_object *obj, const char *key, const char *where,
		  enum load_need need, char **out)
{
	return want_string(c, obj, key, where, need, out, 0);
}

int load_want_name(struct load_ctx *c, struct json_object *obj, const char *key, const char *where,
		   enum load_need need, char **out)
{
	return want_string(c, obj, key, where, need, out, 1);
}
