/* load_json.h: the loader's json-c side (load_*.c only): typed access to JSON values with the
 * loader's messages, and the sections of a dump, one file each. */
#ifndef CALLPROF_LOAD_JSON_H
#define CALLPROF_LOAD_JSON_H

#include <stdint.h>

#include <json-c/json.h>

#include "dump.h"
#include "keymap.h"
#include "load.h"

/*
 * A "where" names the object a key is read from, as a JSON path:
 * "threads[0]", "calibration", or LOAD_TOP for the document itself; messages
 * join it with the key ("threads[0].wall_ns", or "wall_ns" at the top).
 */
extern const char LOAD_TOP[];

/* load_get: obj's member key, NULL when absent or null (json-c gives null as NULL). */
struct json_object *load_get(struct json_object *obj, const char *key);

/* load_type_name: v's JSON type as a message says it ("an integer"; "null" for NULL). */
const char *load_type_name(struct json_object *v);

/* A JSON value as a message quotes it: at most LOAD_BRIEF_MAX bytes of its text, then "...". */
#define LOAD_BRIEF_MAX 40
struct load_brief {
	char text[LOAD_BRIEF_MAX + 4];
};
const char *load_brief(struct load_brief *b, struct json_object *v);

/* load_int_in_range: v is a JSON integer json-c holds exactly (it clamps past the int64 range). */
int load_int_in_range(struct json_object *v);

/*
 * load_want: obj's member key if it has type t.  NULL when absent (*bad set
 * by load_fail when need is LOAD_REQUIRED) or of another type (*bad set).
 */
struct json_object *load_want(struct load_ctx *c, struct json_object *obj, const char *key,
			      const char *where, enum load_need need, json_type t, int *bad);

/*
 * Typed members: each returns 1 when obj.key was there (stored in out), 0
 * when absent and optional, -1 after load_fail.  load_want_u64: a
 * non-negative integer below 2^63 (no real figure comes near it: 292 years in
 * nanoseconds, and past it json-c's values are no longer exact).
 * load_want_id: any integer.  load_want_num: a finite non-negative number.
 * load_want_str: a string, copied (out is NULL when absent).
 */
int load_want_u64(struct load_ctx *c, struct json_object *obj, const char *key, const char *where,
		  enum load_need need, uint64_t *out);
int load_want_id(struct load_ctx *c, struct json_object *obj, const char *key, const char *where,
		 enum load_need need, int64_t *out);
int load_want_num(struct load_ctx *c, struct json_object *obj, const char *key, const char *where,
		  double *out);
int load_want_str(struct load_ctx *c, struct json_object *obj, const char *key, const char *where,
		  enum load_need need, char **out);

/*
 * A string may hold NULs ("\u0000" in the JSON), which C strings would cut
 * short, so that two names that differ after one would merge.  load_string
 * copies the JSON string v with each NUL shown as the two characters "\0";
 * exact also doubles every backslash, so that no other name can read the same
 * and distinct names stay distinct (function names and files, which decide
 * what merges: load_want_name, which returns 2 for such a string, so that the
 * dump can say so: dump_function.has_nul).  load_want_str copies with !exact.
 * A string without a NUL is copied as it is either way.
 */
char *load_string(struct json_object *v, int exact);
int load_want_name(struct load_ctx *c, struct json_object *obj, const char *key, const char *where,
		   enum load_need need, char **out);

/*
 * The sections of a dump, each 0 or -1 after load_fail.  load_header: format,
 * version, wall time, date, program, clock, calibration, warnings
 * (load_header.c).  load_modules fills d->run.modules and maps their ids
 * (ids set up here); load_functions likewise for d->functions, their modules
 * resolved through modules (all three in load_header.c).  load_threads: every thread
 * with its records and tree (load_threads.c, load_tree.c).
 */
int load_header(struct load_ctx *c, struct dump *d, struct json_object *root);
int load_modules(struct load_ctx *c, struct dump *d, struct json_object *root, struct keymap *ids);
int load_functions(struct load_ctx *c, struct dump *d, struct json_object *root,
		   const struct keymap *modules, struct keymap *ids);
int load_threads(struct load_ctx *c, struct dump *d, struct json_object *root,
		 const struct keymap *fns);

/* load_args: function object o's "args" (a value profile), at where ("functions[3]"), into
 * *out (NULL when absent) (load_args.c). */
int load_args(struct load_ctx *c, struct json_object *o, const char *where, struct dump_args **out);

/* load_tree: thread t's (index ti) "tree" of object th, at where ("threads[3]"). */
int load_tree(struct load_ctx *c, struct dump_thread *t, size_t ti, struct json_object *th,
	      const char *where, const struct keymap *fns);

#endif
