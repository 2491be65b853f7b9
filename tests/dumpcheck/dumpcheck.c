/*
 * dumpcheck.c: checks a callprof dump against every invariant of the dump
 * contract (dump-format.md), then against an expectation file of exact counts.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

static const char usage[] =
	"usage: dumpcheck DUMP [EXPECT_FILE]\n"
	"\n"
	"Checks DUMP against every invariant of the dump format, then against the\n"
	"expectations in EXPECT_FILE, and prints one line per problem (exit 1).\n"
	"Exit 0 when all is well, 2 on a usage error or a bad expectation file.\n"
	"\n"
	"An expectation file holds one expectation a line; '#' starts a comment.  NAME\n"
	"is a demangled function name, \"in double quotes\" when it has spaces, and may\n"
	"end in @FILE (the basename of its source file) to pick one of two statics.\n"
	"Counts are summed over every thread and every function entry NAME matches.\n"
	"  threads N               the dump has N threads\n"
	"  calls NAME N            NAME was called N times (0: also when absent)\n"
	"  thread-calls NAME N     on every thread that calls NAME, it is called N times\n"
	"  threads-with NAME N     N threads call NAME\n"
	"  edge CALLER CALLEE N    CALLER called CALLEE N times (CALLER '-': root calls)\n"
	"  path NAME... N          the call path from a root NAME > ... > NAME ran N times\n"
	"  functions NAME N        functions[] holds N entries named NAME\n"
	"  absent NAME             functions[] has no entry named NAME\n"
	"  file NAME BASENAME      every entry named NAME comes from source file BASENAME\n"
	"  timed NAME              NAME was timed: its raw inclusive time is above zero\n"
	"                          (compensated time may be clamped to zero by design)\n"
	"  zero-times              every time of every thread is zero (CALLPROF_CLOCK=none)\n"
	"  pid N                   program.pid is N\n"
	"  library NAME MODULE     every entry named NAME is a library function (entered\n"
	"                          through a library probe) of the module whose file is MODULE\n"
	"  kind NAME KIND N        N of NAME's calls were of kind KIND (fenced, fentry,\n"
	"                          library, counted: the dump's KIND_calls)\n"
	"  unprobed MODULE LIST NAME  the module whose file is MODULE lists NAME in its\n"
	"                          library_calls.LIST (lazy, through_got): calls not probed\n";

/*
 * The wall-clock slack allowed when comparing inclusive times with a thread's
 * wall time, and a thread's with the process's: none; the runtime reads every
 * one of them from the same clock and converts them with the same rate.
 */
#define WALL_SLACK_NS 0
#define MAX_PRINTED 200 /* problem lines printed; the count goes on */
#define MAX_TOKENS 64   /* tokens of one expectation line */

/* The dump being checked, for messages. */
static const char *dump_path;
/* Problems found so far, and how many were printed. */
static unsigned long problems;

__attribute__((format(printf, 1, 2))) static void problem(const char *fmt, ...)
{
	va_list ap;

	if (++problems > MAX_PRINTED)
		return;
	printf("%s: ", dump_path);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

static void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size);

	if (!p) {
		fprintf(stderr, "dumpcheck: out of memory\n");
		exit(2);
	}
	return p;
}

/* ---- a map from 64-bit keys to indices ------------------------------------ */

struct imap {
	int64_t *keys;
	size_t *vals;
	bool *full;
	size_t mask, used;
};

static size_t imap_hash(int64_t key)
{
	uint64_t k = (uint64_t)key;

	k ^= k >> 33;
	k *= 0xff51afd7ed558ccdull;
	k ^= k >> 33;
	return (size_t)k;
}

static void imap_init(struct imap *m, size_t expected)
{
	size_t slots = 16;

	while (slots < 2 * expected + 2)
		slots *= 2;
	m->keys = xcalloc(slots, sizeof(*m->keys));
	m->vals = xcalloc(slots, sizeof(*m->vals));
	m->full = xcalloc(slots, sizeof(*m->full));
	m->mask = slots - 1;
	m->used = 0;
}

static void imap_release(struct imap *m)
{
	free(m->keys);
	free(m->vals);
	free(m->full);
	memset(m, 0, sizeof(*m));
}

static size_t imap_slot(const struct imap *m, int64_t key)
{
	size_t i = imap_hash(key) & m->mask;

	while (m->full[i] && m->keys[i] != key)
		i = (i + 1) & m->mask;
	return i;
}

/* The value of `key`, or -1. */
static int64_t imap_get(const struct imap *m, int64_t key)
{
	size_t i = imap_slot(m, key);

	return m->full[i] ? (int64_t)m->vals[i] : -1;
}

static void imap_grow(struct imap *m)
{
	struct imap bigger;

	imap_init(&bigger, m->mask + 1);
	for (size_t i = 0; i <= m->mask; i++) {
		if (m->full[i]) {
			size_t j = imap_slot(&bigger, m->keys[i]);
			bigger.full[j] = true;
			bigger.keys[j] = m->keys[i];
			bigger.vals[j] = m->vals[i];
			bigger.used++;
		}
	}
	imap_release(m);
	*m = bigger;
}

/* Adds key -> val; returns false if the key was there already. */
static bool imap_put(struct imap *m, int64_t key, size_t val)
{
	size_t i;

	if (2 * (m->used + 1) > m->mask + 1)
		imap_grow(m);
	i = imap_slot(m, key);
	if (m->full[i])
		return false;
	m->full[i] = true;
	m->keys[i] = key;
	m->vals[i] = val;
	m->used++;
	return true;
}

/* ---- the dump, as far as the checks need it --------------------------------- */

#define NO_TIME (-1) /* a time that is missing or malformed */

struct times {
	int64_t incl_ns, self_ns;         /* compensated */
	int64_t raw_incl_ns, raw_self_ns; /* NO_TIME where the record has none */
};

/* The kinds of call a record may count apart (<kind>_calls), the plain ones aside. */
static const char *const kind_names[] = { "fenced", "fentry", "library", "counted" };
#define NKINDS (sizeof(kind_names) / sizeof(kind_names[0]))
enum { KIND_FENCED, KIND_FENTRY, KIND_LIBRARY, KIND_COUNTED };

/* A record's calls of each kind: kinds[k] where bit k of `has` says the record has it. */
struct kind_calls {
	uint64_t kinds[NKINDS];
	unsigned has;
};

struct fn_rec {
	const char *name;
	const char *file_base; /* basename of `file`, or NULL */
	int64_t module;        /* module index, -1 for none */
	bool library;          /* "library": true (entered through a library probe) */
};

struct fn_fig {
	bool listed;
	uint64_t calls;
	struct times t;
	struct kind_calls k;
};

struct edge_fig {
	int64_t caller; /* function index, -1 for root calls */
	size_t callee;
	uint64_t calls;
	struct times t;
	struct kind_calls k;
};

struct row {
	int64_t parent; /* row index, -1 for a root */
	int64_t fn;     /* function index, -1 if invalid */
	uint64_t calls;
	struct times t;
	int64_t nested_ns; /* of the raw inclusive time, nested folded calls' (0 without the column) */
	struct kind_calls k;
};

struct thread {
	int64_t wall_ns;
	bool folded;        /* the runtime says paths were folded (folded_calls > 0) */
	struct fn_fig *fns; /* by function index */
	struct edge_fig *edges;
	size_t nedges;
	struct imap edge_index; /* edge_key(caller, callee) -> edges[] index */
	struct row *rows;
	size_t nrows;
};

/* A module, as far as the library checks need it. */
struct mod_rec {
	const char *base;      /* basename of its path */
	bool has_uncalled;     /* it lists "uncalled" (coverage) */
	json_object *libcalls; /* its "library_calls", or NULL */
};

struct dump {
	json_object *root;
	int64_t pid;
	int64_t wall_ns;
	struct mod_rec *mods;
	size_t nmods;
	struct fn_rec *fns;
	size_t nfns;
	struct imap fn_index; /* function id -> index */
	struct thread *threads;
	size_t nthreads;
	bool sampled; /* clock.timing "sampled": times are estimates, which may pass the wall time */
	bool watch_times;               /* noting non-zero times (inside the threads' records) */
	const char *first_nonzero_time; /* where a thread's time is above zero, NULL if none */
	char nonzero_where[128];
};

static int64_t edge_key(int64_t caller, size_t callee)
{
	return (caller + 1) << 32 | (int64_t)callee;
}

/* ---- typed access to JSON members ----------------------------------------- */

enum want { W_INT, W_NUM, W_STR, W_ARR, W_OBJ, W_STR_NULL, W_INT_NULL, W_BOOL };

static const char *const want_name[] = { "an integer",         "a number",  "a string",
					 "an array",           "an object", "a string or null",
					 "an integer or null", "a boolean" };

static bool type_ok(json_object *v, enum want w)
{
	json_type t = json_object_get_type(v);

	switch (w) {
	case W_INT: return t == json_type_int;
	case W_NUM: return t == json_type_int || t == json_type_double;
	case W_STR: return t == json_type_string;
	case W_ARR: return t == json_type_array;
	case W_OBJ: return t == json_type_object;
	case W_STR_NULL: return t == json_type_string || t == json_type_null;
	case W_INT_NULL: return t == json_type_int || t == json_type_null;
	case W_BOOL: return t == json_type_boolean;
	}
	return false;
}

/* Member `key` of `obj` if it is there with the wanted type; else a problem and NULL. */
static json_object *member(json_object *obj, const char *where, const char *key, enum want w,
			   bool *ok)
{
	json_object *v = NULL;

	*ok = false;
	if (!json_object_object_get_ex(obj, key, &v)) {
		problem("%s: missing key '%s'", where, key);
		return NULL;
	}
	if (!type_ok(v, w)) {
		problem("%s.%s: expected %s, got %s", where, key, want_name[w],
			json_type_to_name(json_object_get_type(v)));
		return NULL;
	}
	*ok = true;
	return v;
}

/* An integer member, or `dflt` (after a problem) when missing or mistyped. */
static int64_t int_member(json_object *obj, const char *where, const char *key, int64_t dflt)
{
	bool ok;
	json_object *v = member(obj, where, key, W_INT, &ok);

	return ok ? json_object_get_int64(v) : dflt;
}

static void note_time(struct dump *d, const char *where, const char *key, int64_t v)
{
	if (v > 0 && d->watch_times && !d->first_nonzero_time) {
		snprintf(d->nonzero_where, sizeof(d->nonzero_where), "%s.%s", where, key);
		d->first_nonzero_time = d->nonzero_where;
	}
}

/* A time member: a whole, non-negative number of nanoseconds. NO_TIME if bad. */
static int64_t time_value(struct dump *d, json_object *v, const char *where, const char *key)
{
	int64_t ns;

	if (!type_ok(v, W_INT)) {
		problem("%s.%s: expected an integer of nanoseconds, got %s", where, key,
			json_type_to_name(json_object_get_type(v)));
		return NO_TIME;
	}
	ns = json_object_get_int64(v);
	if (ns < 0) {
		problem("%s.%s: negative time %" PRId64, where, key, ns);
		return NO_TIME;
	}
	note_time(d, where, key, ns);
	return ns;
}

static int64_t time_member(struct dump *d, json_object *obj, const char *where, const char *key)
{
	json_object *v;

	if (!json_object_object_get_ex(obj, key, &v)) {
		problem("%s: missing key '%s'", where, key);
		return NO_TIME;
	}
	return time_value(d, v, where, key);
}

static uint64_t count_value(json_object *v, const char *where, const char *key)
{
	int64_t n;

	if (!type_ok(v, W_INT)) {
		problem("%s.%s: expected an integer count, got %s", where, key,
			json_type_to_name(json_object_get_type(v)));
		return 0;
	}
	n = json_object_get_int64(v);
	if (n < 0) {
		problem("%s.%s: negative count %" PRId64, where, key, n);
		return 0;
	}
	return (uint64_t)n;
}

static bool is_hex(const char *s)
{
	if (strncmp(s, "0x", 2) || !s[2])
		return false;
	return strspn(s + 2, "0123456789abcdefABCDEF") == strlen(s + 2);
}

/* ---- the header: format, program, clock, calibration, modules, functions --- */

static void check_program(json_object *root, struct dump *d)
{
	bool ok;
	json_object *prog = member(root, "dump", "program", W_OBJ, &ok);
	json_object *argv;

	if (!ok)
		return;
	member(prog, "program", "path", W_STR, &ok);
	argv = member(prog, "program", "argv", W_ARR, &ok);
	for (size_t i = 0; ok && i < json_object_array_length(argv); i++)
		if (!type_ok(json_object_array_get_idx(argv, i), W_STR))
			problem("program.argv[%zu]: expected a string", i);
	d->pid = int_member(prog, "program", "pid", -1);
}

static void check_clock(json_object *root, struct dump *d)
{
	bool ok;
	json_object *clock = member(root, "dump", "clock", W_OBJ, &ok);
	json_object *v;

	if (!ok)
		return;
	v = member(clock, "clock", "source", W_STR, &ok);
	if (ok && strcmp(json_object_get_string(v), "tsc") &&
	    strcmp(json_object_get_string(v), "tsc-ordered") &&
	    strcmp(json_object_get_string(v), "tsc-adaptive") &&
	    strcmp(json_object_get_string(v), "monotonic") &&
	    strcmp(json_object_get_string(v), "none") && strcmp(json_object_get_string(v), "mixed"))
		problem("clock.source: unknown source '%s'", json_object_get_string(v));
	v = member(clock, "clock", "ticks_per_second", W_NUM, &ok);
	if (ok && json_object_get_double(v) < 0)
		problem("clock.ticks_per_second: negative");
	d->sampled = json_object_object_get_ex(clock, "timing", &v) &&
		     json_object_is_type(v, json_type_string) &&
		     !strcmp(json_object_get_string(v), "sampled");
}

static void check_header(json_object *root, struct dump *d)
{
	bool ok;
	json_object *v = member(root, "dump", "format", W_STR, &ok);
	json_object *calib;

	if (ok && strcmp(json_object_get_string(v), "callprof"))
		problem("format: expected \"callprof\", got \"%s\"", json_object_get_string(v));
	v = member(root, "dump", "version", W_INT, &ok);
	if (ok && json_object_get_int64(v) != 1)
		problem("version: expected 1, got %" PRId64, json_object_get_int64(v));
	check_program(root, d);
	check_clock(root, d);
	calib = member(root, "dump", "calibration", W_OBJ, &ok);
	if (ok)
		member(calib, "calibration", "per_call_ns", W_NUM, &ok);
	v = member(root, "dump", "wall_ns", W_INT, &ok);
	d->wall_ns = ok ? time_value(d, v, "dump", "wall_ns") : NO_TIME;
}

static const char *basename_of(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

/* An array of strings, or a problem. */
static void check_names(json_object *obj, const char *where, const char *key)
{
	bool ok;
	json_object *arr = member(obj, where, key, W_ARR, &ok);

	for (size_t i = 0; ok && i < json_object_array_length(arr); i++)
		if (!type_ok(json_object_array_get_idx(arr, i), W_STR))
			problem("%s.%s[%zu]: expected a string", where, key, i);
}

/* modules[].library_calls: what the library probes did to an instrumented module's slots. */
static json_object *check_module_libcalls(json_object *m, const char *where)
{
	json_object *lc;
	char w[96];
	int64_t slots, probed;

	if (!json_object_object_get_ex(m, "library_calls", &lc))
		return NULL;
	snprintf(w, sizeof(w), "%s.library_calls", where);
	if (!type_ok(lc, W_OBJ)) {
		problem("%s: expected an object", w);
		return NULL;
	}
	slots = int_member(lc, w, "slots", -1);
	probed = int_member(lc, w, "probed", -1);
	if (slots < 0 || probed < 0 || probed > slots)
		problem("%s: probed %" PRId64 " of %" PRId64 " slots", w, probed, slots);
	check_names(lc, w, "lazy");
	check_names(lc, w, "through_got");
	return lc;
}

/* Module ids, each unique; fills `ids` and d->mods. */
static void check_modules(json_object *root, struct dump *d, struct imap *ids)
{
	bool ok;
	json_object *mods = member(root, "dump", "modules", W_ARR, &ok);
	size_t n = ok ? json_object_array_length(mods) : 0;
	char where[64];
	json_object *v;

	imap_init(ids, n);
	d->mods = xcalloc(n, sizeof(*d->mods));
	d->nmods = n;
	for (size_t i = 0; i < n; i++) {
		json_object *m = json_object_array_get_idx(mods, i);
		int64_t id;
		snprintf(where, sizeof(where), "modules[%zu]", i);
		d->mods[i].base = "?";
		if (!type_ok(m, W_OBJ)) {
			problem("%s: expected an object", where);
			continue;
		}
		id = int_member(m, where, "id", -1);
		if (id >= 0 && !imap_put(ids, id, i))
			problem("%s: duplicate module id %" PRId64, where, id);
		v = member(m, where, "path", W_STR, &ok);
		if (ok)
			d->mods[i].base = basename_of(json_object_get_string(v));
		member(m, where, "build_id", W_STR_NULL, &ok);
		d->mods[i].has_uncalled = json_object_object_get_ex(m, "uncalled", &v);
		d->mods[i].libcalls = check_module_libcalls(m, where);
	}
}

static void check_function_location(json_object *f, const char *where, struct fn_rec *rec)
{
	bool ok;
	json_object *file = member(f, where, "file", W_STR_NULL, &ok);
	json_object *line;

	if (ok && json_object_get_type(file) == json_type_string)
		rec->file_base = basename_of(json_object_get_string(file));
	line = member(f, where, "line", W_INT_NULL, &ok);
	if (ok && json_object_get_type(line) == json_type_int && json_object_get_int64(line) < 0)
		problem("%s.line: negative", where);
}

/* An optional count member: its value, or 0 when absent (a problem when bad). */
static uint64_t count_member(json_object *obj, const char *where, const char *key)
{
	json_object *v;

	return json_object_object_get_ex(obj, key, &v) ? count_value(v, where, key) : 0;
}

/* One value-profile entry of functions[].args: its figures agree. */
static uint64_t check_arg_entry(struct dump *d, json_object *e, const char *where, size_t nvalues,
				bool tuple)
{
	bool ok;
	json_object *v;
	uint64_t calls = count_member(e, where, "calls"), error = count_member(e, where, "error");

	if (!calls)
		problem("%s.calls: an entry with no call", where);
	if (error > calls)
		problem("%s: error %" PRIu64 " above calls %" PRIu64, where, error, calls);
	if (!tuple) {
		member(e, where, "value", W_STR, &ok);
		return calls;
	}
	v = member(e, where, "values", W_ARR, &ok);
	if (ok && json_object_array_length(v) != nvalues)
		problem("%s.values: %zu values for %zu parameters", where,
			json_object_array_length(v), nvalues);
	for (size_t i = 0; ok && i < json_object_array_length(v); i++)
		if (!type_ok(json_object_array_get_idx(v, i), W_STR))
			problem("%s.values[%zu]: expected a string", where, i);
	if (count_member(e, where, "timed_calls") > calls)
		problem("%s.timed_calls: above calls", where);
	if (time_member(d, e, where, "min_ns") > time_member(d, e, where, "max_ns") ||
	    time_member(d, e, where, "max_ns") > time_member(d, e, where, "inclusive_ns"))
		problem("%s: min_ns, max_ns and inclusive_ns out of order", where);
	return calls;
}

/* One value profile (an array of entries): at most `entries` of them, counting at most `calls`. */
static void check_arg_list(struct dump *d, json_object *args, const char *where, const char *key,
			   uint64_t entries, uint64_t calls, size_t nvalues)
{
	bool ok;
	json_object *list = member(args, where, key, W_ARR, &ok);
	char sub[160];
	uint64_t sum = 0;

	if (!ok)
		return;
	if (json_object_array_length(list) > entries)
		problem("%s.%s: %zu entries, above the bound %" PRIu64, where, key,
			json_object_array_length(list), entries);
	for (size_t i = 0; i < json_object_array_length(list); i++) {
		snprintf(sub, sizeof(sub), "%s.%s[%zu]", where, key, i);
		sum += check_arg_entry(d, json_object_array_get_idx(list, i), sub, nvalues,
				       !strcmp(key, "tuples"));
	}
	if (sum > calls)
		problem("%s.%s: counts add up to %" PRIu64 ", above the %" PRIu64 " calls", where,
			key, sum, calls);
}

/* functions[].args, the value profile of a function CALLPROF_ARGS selected. */
static void check_args(struct dump *d, json_object *args, const char *where)
{
	bool ok;
	json_object *v, *params;
	char sub[128];
	uint64_t entries, calls;

	snprintf(sub, sizeof(sub), "%s.args", where);
	if (!type_ok(args, W_OBJ)) {
		problem("%s: expected an object", sub);
		return;
	}
	if (json_object_object_get_ex(args, "refused", &v)) {
		member(args, sub, "refused", W_STR, &ok);
		return;
	}
	params = member(args, sub, "params", W_ARR, &ok);
	member(args, sub, "variadic", W_BOOL, &ok);
	v = member(args, sub, "returns", W_STR_NULL, &ok);
	entries = count_member(args, sub, "entries");
	calls = count_member(args, sub, "calls");
	if (!entries)
		problem("%s.entries: missing or 0", sub);
	check_arg_list(d, args, sub, "tuples", entries, calls,
		       params ? json_object_array_length(params) : 0);
	if (ok && json_object_get_type(v) == json_type_string) {
		uint64_t returned = count_member(args, sub, "returned_calls");
		if (returned > calls)
			problem("%s.returned_calls: above calls", sub);
		check_arg_list(d, args, sub, "returned", entries, returned, 0);
	}
}

static void check_function(struct dump *d, json_object *f, const char *where,
			   const struct imap *modules, struct fn_rec *rec)
{
	bool ok;
	json_object *v = member(f, where, "name", W_STR, &ok);

	rec->name = ok ? json_object_get_string(v) : "?";
	if (ok && !*rec->name)
		problem("%s.name: empty", where);
	v = member(f, where, "module", W_INT_NULL, &ok);
	rec->module = ok && json_object_get_type(v) == json_type_int
			      ? imap_get(modules, json_object_get_int64(v))
			      : -1;
	if (ok && json_object_get_type(v) == json_type_int && rec->module < 0)
		problem("%s.module: no module with id %" PRId64, where, json_object_get_int64(v));
	if (json_object_object_get_ex(f, "library", &v)) {
		if (!type_ok(v, W_BOOL))
			problem("%s.library: expected a boolean", where);
		else
			rec->library = json_object_get_boolean(v);
	}
	if (rec->library && rec->module < 0)
		problem("%s: a library function without a module", where);
	v = member(f, where, "address", W_STR, &ok);
	if (ok && !is_hex(json_object_get_string(v)))
		problem("%s.address: not a 0x hex string: '%s'", where, json_object_get_string(v));
	v = member(f, where, "offset", W_STR, &ok);
	if (ok && !is_hex(json_object_get_string(v)))
		problem("%s.offset: not a 0x hex string: '%s'", where, json_object_get_string(v));
	check_function_location(f, where, rec);
	if (json_object_object_get_ex(f, "front_end", &v) &&
	    (!type_ok(v, W_STR) || (strcmp(json_object_get_string(v), "finstrument") &&
				    strcmp(json_object_get_string(v), "mfentry") &&
				    strcmp(json_object_get_string(v), "library"))))
		problem("%s.front_end: expected \"finstrument\", \"mfentry\" or \"library\"",
			where);
	if (json_object_object_get_ex(f, "args", &v))
		check_args(d, v, where);
}

static void check_functions(json_object *root, struct dump *d)
{
	bool ok;
	json_object *fns = member(root, "dump", "functions", W_ARR, &ok);
	struct imap modules;
	char where[64];

	check_modules(root, d, &modules);
	d->nfns = ok ? json_object_array_length(fns) : 0;
	d->fns = xcalloc(d->nfns, sizeof(*d->fns));
	imap_init(&d->fn_index, d->nfns);
	for (size_t i = 0; i < d->nfns; i++) {
		json_object *f = json_object_array_get_idx(fns, i);
		int64_t id;
		snprintf(where, sizeof(where), "functions[%zu]", i);
		d->fns[i].name = "?";
		d->fns[i].module = -1;
		if (!type_ok(f, W_OBJ)) {
			problem("%s: expected an object", where);
			continue;
		}
		id = int_member(f, where, "id", -1);
		if (id >= 0 && !imap_put(&d->fn_index, id, i))
			problem("%s: duplicate function id %" PRId64, where, id);
		check_function(d, f, where, &modules, &d->fns[i]);
	}
	imap_release(&modules);
}

/* The index of the function a member refers to, or -1 (after a problem). */
static int64_t fn_ref(const struct dump *d, json_object *v, const char *where, const char *key)
{
	int64_t idx;

	if (!type_ok(v, W_INT)) {
		problem("%s.%s: expected a function id, got %s", where, key,
			json_type_to_name(json_object_get_type(v)));
		return -1;
	}
	idx = imap_get(&d->fn_index, json_object_get_int64(v));
	if (idx < 0)
		problem("%s.%s: no function with id %" PRId64, where, key,
			json_object_get_int64(v));
	return idx;
}

/* ---- per-thread records ---------------------------------------------------- */

/* The <kind>_calls members of a function or edge record: each and all of them within `calls`. */
static void read_kinds(json_object *obj, const char *where, uint64_t calls, struct kind_calls *k)
{
	char key[32];
	json_object *v;
	uint64_t sum = 0;

	for (size_t i = 0; i < NKINDS; i++) {
		snprintf(key, sizeof(key), "%s_calls", kind_names[i]);
		if (!json_object_object_get_ex(obj, key, &v))
			continue;
		k->kinds[i] = count_value(v, where, key);
		k->has |= 1u << i;
		sum += k->kinds[i];
	}
	if (sum > calls)
		problem("%s: its calls of kinds other than plain sum to %" PRIu64
			", more than its %" PRIu64 " calls",
			where, sum, calls);
}

/* self <= inclusive, compensated <= raw, inclusive within the thread's wall time. */
/* sampled: the times are sampled timing's estimates, whose compensation may add to a raw self
 * time (untimed callees cost less than the timed ones it is estimated from). */
static void check_times(const struct times *t, const char *where, int64_t wall_ns, bool to_wall,
			bool sampled)
{
	if (t->incl_ns >= 0 && t->self_ns > t->incl_ns)
		problem("%s: self_ns %" PRId64 " > inclusive_ns %" PRId64, where, t->self_ns,
			t->incl_ns);
	if (t->raw_incl_ns >= 0 && t->raw_self_ns > t->raw_incl_ns)
		problem("%s: raw_self_ns %" PRId64 " > raw_inclusive_ns %" PRId64, where,
			t->raw_self_ns, t->raw_incl_ns);
	if (t->raw_incl_ns >= 0 && t->incl_ns > t->raw_incl_ns)
		problem("%s: inclusive_ns %" PRId64 " > raw_inclusive_ns %" PRId64, where,
			t->incl_ns, t->raw_incl_ns);
	if (t->raw_self_ns >= 0 && t->self_ns > t->raw_self_ns && !sampled)
		problem("%s: self_ns %" PRId64 " > raw_self_ns %" PRId64, where, t->self_ns,
			t->raw_self_ns);
	if (to_wall && wall_ns >= 0 && t->incl_ns > wall_ns + WALL_SLACK_NS)
		problem("%s: inclusive_ns %" PRId64 " > the thread's wall_ns %" PRId64, where,
			t->incl_ns, wall_ns);
}

/* CPU time (dump-format.md): both figures or neither, each a part of its wall-time one. */
static void check_cpu(struct dump *d, json_object *f, const char *where, uint64_t calls,
		      const struct times *t)
{
	json_object *v;
	bool has = json_object_object_get_ex(f, "cpu_ns", &v);
	int64_t cpu_ns, cpu_self_ns;

	if (has != json_object_object_get_ex(f, "cpu_self_ns", &v))
		problem("%s: cpu_ns and cpu_self_ns, one without the other", where);
	if (!has)
		return;
	cpu_ns = time_member(d, f, where, "cpu_ns");
	cpu_self_ns = time_member(d, f, where, "cpu_self_ns");
	if (count_member(f, where, "cpu_calls") > calls)
		problem("%s.cpu_calls: above calls", where);
	if (cpu_ns > t->incl_ns || cpu_self_ns > t->self_ns || cpu_self_ns > cpu_ns)
		problem("%s: cpu_ns %" PRId64 " or cpu_self_ns %" PRId64
			" above inclusive_ns %" PRId64 " or self_ns %" PRId64,
			where, cpu_ns, cpu_self_ns, t->incl_ns, t->self_ns);
}

static void check_min_max(struct dump *d, json_object *f, const char *where, uint64_t calls)
{
	int64_t min_ns = time_member(d, f, where, "min_ns");
	int64_t max_ns = time_member(d, f, where, "max_ns");

	if (calls && min_ns >= 0 && max_ns >= 0 && min_ns > max_ns)
		problem("%s: min_ns %" PRId64 " > max_ns %" PRId64, where, min_ns, max_ns);
}

static void check_thread_function(struct dump *d, struct thread *t, json_object *f,
				  const char *where)
{
	json_object *v;
	struct fn_fig *fig;
	int64_t idx;

	if (!type_ok(f, W_OBJ)) {
		problem("%s: expected an object", where);
		return;
	}
	if (!json_object_object_get_ex(f, "fn", &v)) {
		problem("%s: missing key 'fn'", where);
		return;
	}
	if ((idx = fn_ref(d, v, where, "fn")) < 0)
		return;
	fig = &t->fns[idx];
	if (fig->listed)
		problem("%s: function %s listed twice", where, d->fns[idx].name);
	fig->listed = true;
	if (json_object_object_get_ex(f, "calls", &v))
		fig->calls = count_value(v, where, "calls");
	else
		problem("%s: missing key 'calls'", where);
	fig->t.incl_ns = time_member(d, f, where, "inclusive_ns");
	fig->t.self_ns = time_member(d, f, where, "self_ns");
	fig->t.raw_incl_ns = time_member(d, f, where, "raw_inclusive_ns");
	fig->t.raw_self_ns = time_member(d, f, where, "raw_self_ns");
	read_kinds(f, where, fig->calls, &fig->k);
	check_min_max(d, f, where, fig->calls);
	check_times(&fig->t, where, t->wall_ns, !d->sampled, d->sampled);
	check_cpu(d, f, where, fig->calls, &fig->t);
}

static void check_edge(struct dump *d, struct thread *t, json_object *e, const char *where)
{
	struct edge_fig *fig = &t->edges[t->nedges];
	json_object *v;
	int64_t callee;

	if (!type_ok(e, W_OBJ)) {
		problem("%s: expected an object", where);
		return;
	}
	fig->caller = -1;
	if (!json_object_object_get_ex(e, "caller", &v))
		problem("%s: missing key 'caller'", where);
	else if (json_object_get_type(v) != json_type_null &&
		 (fig->caller = fn_ref(d, v, where, "caller")) < 0)
		return;
	if (!json_object_object_get_ex(e, "callee", &v)) {
		problem("%s: missing key 'callee'", where);
		return;
	}
	if ((callee = fn_ref(d, v, where, "callee")) < 0)
		return;
	fig->callee = (size_t)callee;
	if (json_object_object_get_ex(e, "calls", &v))
		fig->calls = count_value(v, where, "calls");
	else
		problem("%s: missing key 'calls'", where);
	fig->t.incl_ns = time_member(d, e, where, "inclusive_ns");
	fig->t.self_ns = time_member(d, e, where, "self_ns");
	fig->t.raw_incl_ns = fig->t.raw_self_ns = NO_TIME;
	read_kinds(e, where, fig->calls, &fig->k);
	check_times(&fig->t, where, t->wall_ns, !d->sampled, d->sampled);
	check_cpu(d, e, where, fig->calls, &fig->t);
	if (!imap_put(&t->edge_index, edge_key(fig->caller, fig->callee), t->nedges)) {
		problem("%s: edge %s -> %s listed twice", where,
			fig->caller < 0 ? "(root)" : d->fns[fig->caller].name,
			d->fns[fig->callee].name);
		return;
	}
	t->nedges++;
}

/* ---- the tree --------------------------------------------------------------- */

/* Where each named column sits in a row; -1 if absent. */
struct columns {
	int id, parent, fn, calls, incl, self, raw_incl, raw_self, nested;
	int kinds[NKINDS]; /* the <kind>_calls columns, -1 when absent */
	size_t count;
};

static int column_index(json_object *cols, const char *name)
{
	for (size_t i = 0; i < json_object_array_length(cols); i++) {
		json_object *c = json_object_array_get_idx(cols, i);
		if (type_ok(c, W_STR) && !strcmp(json_object_get_string(c), name))
			return (int)i;
	}
	return -1;
}

static bool read_columns(json_object *cols, const char *where, struct columns *c)
{
	static const char *const required[] = { "id",    "parent",       "fn",
						"calls", "inclusive_ns", "self_ns" };
	int *slot[] = { &c->id, &c->parent, &c->fn, &c->calls, &c->incl, &c->self };
	bool ok = true;

	for (size_t i = 0; i < json_object_array_length(cols); i++)
		if (!type_ok(json_object_array_get_idx(cols, i), W_STR))
			problem("%s.columns[%zu]: expected a string", where, i);
	for (size_t i = 0; i < sizeof(required) / sizeof(required[0]); i++) {
		*slot[i] = column_index(cols, required[i]);
		if (*slot[i] < 0) {
			problem("%s.columns: no column '%s'", where, required[i]);
			ok = false;
		}
	}
	c->raw_incl = column_index(cols, "raw_inclusive_ns");
	c->raw_self = column_index(cols, "raw_self_ns");
	c->nested = column_index(cols, "nested_ns");
	for (size_t i = 0; i < NKINDS; i++) {
		char key[32];
		snprintf(key, sizeof(key), "%s_calls", kind_names[i]);
		c->kinds[i] = column_index(cols, key);
	}
	c->count = json_object_array_length(cols);
	return ok;
}

static int64_t row_time(struct dump *d, json_object *r, int col, const char *where,
			const char *name)
{
	if (col < 0)
		return NO_TIME;
	return time_value(d, json_object_array_get_idx(r, (size_t)col), where, name);
}

static void read_row_parent(json_object *r, const struct columns *c, const char *where,
			    const struct imap *row_ids, struct row *row)
{
	json_object *v = json_object_array_get_idx(r, (size_t)c->parent);

	row->parent = -1;
	if (json_object_get_type(v) == json_type_null)
		return;
	if (!type_ok(v, W_INT)) {
		problem("%s: parent: expected a row id or null", where);
		return;
	}
	row->parent = imap_get(row_ids, json_object_get_int64(v));
	if (row->parent < 0)
		problem("%s: parent %" PRId64 " is not the id of an earlier row", where,
			json_object_get_int64(v));
}

static void check_row(struct dump *d, struct thread *t, json_object *r, const struct columns *c,
		      struct imap *row_ids, const char *where)
{
	struct row *row = &t->rows[t->nrows];
	json_object *v;

	row->fn = -1;
	row->parent = -1;
	if (!type_ok(r, W_ARR) || json_object_array_length(r) != c->count) {
		problem("%s: expected an array of %zu values", where, c->count);
		return;
	}
	read_row_parent(r, c, where, row_ids, row);
	row->fn = fn_ref(d, json_object_array_get_idx(r, (size_t)c->fn), where, "fn");
	row->calls = count_value(json_object_array_get_idx(r, (size_t)c->calls), where, "calls");
	row->t.incl_ns = row_time(d, r, c->incl, where, "inclusive_ns");
	row->t.self_ns = row_time(d, r, c->self, where, "self_ns");
	row->t.raw_incl_ns = row_time(d, r, c->raw_incl, where, "raw_inclusive_ns");
	row->t.raw_self_ns = row_time(d, r, c->raw_self, where, "raw_self_ns");
	row->nested_ns = c->nested < 0 ? 0 : row_time(d, r, c->nested, where, "nested_ns");
	if (row->nested_ns < 0)
		row->nested_ns = 0;
	for (size_t i = 0; i < NKINDS; i++) {
		uint64_t sum = 0;
		if (c->kinds[i] < 0)
			continue;
		row->k.kinds[i] = count_value(json_object_array_get_idx(r, (size_t)c->kinds[i]),
					      where, kind_names[i]);
		row->k.has |= 1u << i;
		for (size_t j = 0; j <= i; j++)
			sum += row->k.kinds[j];
		if (sum > row->calls)
			problem("%s: its calls of kinds other than plain are more than its calls",
				where);
	}
	check_times(&row->t, where, t->wall_ns, false, d->sampled);
	if (row->t.raw_incl_ns >= 0 && row->nested_ns > row->t.raw_incl_ns)
		problem("%s: nested_ns %" PRId64 " > raw_inclusive_ns %" PRId64, where,
			row->nested_ns, row->t.raw_incl_ns);
	v = json_object_array_get_idx(r, (size_t)c->id);
	if (!type_ok(v, W_INT)) {
		problem("%s: id: expected an integer", where);
		return;
	}
	if (!imap_put(row_ids, json_object_get_int64(v), t->nrows)) {
		problem("%s: duplicate row id %" PRId64, where, json_object_get_int64(v));
		return;
	}
	t->nrows++;
}

static void check_tree(struct dump *d, struct thread *t, json_object *thr, const char *twhere)
{
	bool ok;
	char where[96];
	json_object *tree, *cols, *rows;
	struct columns c;
	struct imap row_ids;
	size_t n;

	snprintf(where, sizeof(where), "%s.tree", twhere);
	if (!(tree = member(thr, twhere, "tree", W_OBJ, &ok)))
		return;
	cols = member(tree, where, "columns", W_ARR, &ok);
	if (!ok || !read_columns(cols, where, &c))
		return;
	if (!(rows = member(tree, where, "rows", W_ARR, &ok)))
		return;
	n = json_object_array_length(rows);
	t->rows = xcalloc(n, sizeof(*t->rows));
	imap_init(&row_ids, n);
	for (size_t i = 0; i < n; i++) {
		char rwhere[128];
		snprintf(rwhere, sizeof(rwhere), "%s.rows[%zu]", where, i);
		check_row(d, t, json_object_array_get_idx(rows, i), &c, &row_ids, rwhere);
	}
	imap_release(&row_ids);
}

/* ---- cross-checks within a thread ------------------------------------------ */

/* calls of the function as the thread lists it, 0 if unlisted */
static uint64_t listed_calls(const struct thread *t, size_t fn)
{
	return t->fns[fn].listed ? t->fns[fn].calls : 0;
}

/* The sum of edge calls per callee, and of tree-row calls per function, equal its calls. */
static void check_call_sums(const struct dump *d, const struct thread *t, const char *where)
{
	uint64_t *by_edges = xcalloc(d->nfns, sizeof(*by_edges));
	uint64_t *by_rows = xcalloc(d->nfns, sizeof(*by_rows));

	for (size_t i = 0; i < t->nedges; i++)
		by_edges[t->edges[i].callee] += t->edges[i].calls;
	for (size_t i = 0; i < t->nrows; i++)
		if (t->rows[i].fn >= 0)
			by_rows[t->rows[i].fn] += t->rows[i].calls;
	for (size_t f = 0; f < d->nfns; f++) {
		uint64_t calls = listed_calls(t, f);
		if (by_edges[f] != calls)
			problem("%s: %s: edges into it sum to %" PRIu64
				" calls, the function has %" PRIu64,
				where, d->fns[f].name, by_edges[f], calls);
		if (by_rows[f] != calls)
			problem("%s: %s: tree rows sum to %" PRIu64
				" calls, the function has %" PRIu64,
				where, d->fns[f].name, by_rows[f], calls);
	}
	free(by_edges);
	free(by_rows);
}

/* Each kind's calls of edges and tree rows sum to the function's, kind by kind. */
static void check_kind_sums(const struct dump *d, const struct thread *t, const char *where)
{
	uint64_t *by_edges = xcalloc(d->nfns * NKINDS, sizeof(*by_edges));
	uint64_t *by_rows = xcalloc(d->nfns * NKINDS, sizeof(*by_rows));
	unsigned edges_have = ~0u, rows_have = ~0u;

	for (size_t i = 0; i < t->nedges; i++) {
		edges_have &= t->edges[i].k.has;
		for (size_t k = 0; k < NKINDS; k++)
			by_edges[t->edges[i].callee * NKINDS + k] += t->edges[i].k.kinds[k];
	}
	for (size_t i = 0; i < t->nrows; i++) {
		rows_have &= t->rows[i].k.has;
		for (size_t k = 0; t->rows[i].fn >= 0 && k < NKINDS; k++)
			by_rows[(size_t)t->rows[i].fn * NKINDS + k] += t->rows[i].k.kinds[k];
	}
	for (size_t f = 0; f < d->nfns; f++) {
		const struct fn_fig *x = &t->fns[f];
		for (size_t k = 0; x->listed && k < NKINDS; k++) {
			if (!(x->k.has & 1u << k))
				continue;
			if ((edges_have & 1u << k) && by_edges[f * NKINDS + k] != x->k.kinds[k])
				problem("%s: %s: edges into it sum to %" PRIu64
					" %s_calls, the function has %" PRIu64,
					where, d->fns[f].name, by_edges[f * NKINDS + k],
					kind_names[k], x->k.kinds[k]);
			if ((rows_have & 1u << k) && by_rows[f * NKINDS + k] != x->k.kinds[k])
				problem("%s: %s: tree rows sum to %" PRIu64
					" %s_calls, the function has %" PRIu64,
					where, d->fns[f].name, by_rows[f * NKINDS + k],
					kind_names[k], x->k.kinds[k]);
		}
	}
	free(by_edges);
	free(by_rows);
}

/*
 * Only a library function has library calls (a library function may have
 * plain ones too: an inline copy of it in instrumented code probes under its
 * address), and those are some of its calls.
 */
static void check_library_kinds(const struct dump *d, const struct thread *t, const char *where)
{
	const unsigned lib = 1u << KIND_LIBRARY;

	for (size_t f = 0; f < d->nfns; f++) {
		const struct fn_fig *x = &t->fns[f];
		if (!x->listed || !(x->k.has & lib))
			continue;
		if (!d->fns[f].library && x->k.kinds[KIND_LIBRARY])
			problem("%s: %s is no library function but has %" PRIu64 " library_calls",
				where, d->fns[f].name, x->k.kinds[KIND_LIBRARY]);
	}
}

/* Times summed from the tree, to compare with the function and edge records. */
struct derived {
	uint64_t calls;
	int64_t incl_ns, self_ns, raw_incl_ns, raw_self_ns; /* sums over the rows */
	size_t rows;     /* rows summed: each may be off by rounding */
	uint32_t active; /* rows of it open on the current path of the walk */
};

/* a - b, at least 0; a missing time (negative) stays missing */
static int64_t minus(int64_t a, int64_t b)
{
	return a < 0 ? a : a > b ? a - b : 0;
}

/* An outermost row's inclusive time counts but for its nested folded calls'
 * (nested_ns): they ran inside an outer call of the same function. */
static void derived_add(struct derived *x, const struct row *r)
{
	bool outer = x->active == 0;

	x->calls += r->calls;
	x->rows++;
	x->self_ns += r->t.self_ns;
	x->raw_self_ns += r->t.raw_self_ns;
	if (outer) {
		x->incl_ns += minus(r->t.incl_ns, r->nested_ns);
		x->raw_incl_ns += minus(r->t.raw_incl_ns, r->nested_ns);
	}
}

static bool near(int64_t a, int64_t b, size_t rows)
{
	int64_t diff = a > b ? a - b : b - a;

	/* Each row was rounded to whole nanoseconds on its own: up to 1 ns each. */
	return diff <= (int64_t)rows + 1;
}

static void compare_times(const struct times *rec, const struct derived *x, const char *what)
{
	if (rec->incl_ns >= 0 && !near(rec->incl_ns, x->incl_ns, x->rows))
		problem("%s: inclusive_ns %" PRId64 ", its outermost tree rows sum to %" PRId64,
			what, rec->incl_ns, x->incl_ns);
	/* Not equal: a runtime may clamp a recursive function's self time to its
	 * inclusive time where rows were clamped at zero one by one. */
	if (rec->self_ns >= 0 && rec->self_ns > x->self_ns + (int64_t)x->rows + 1)
		problem("%s: self_ns %" PRId64 " exceeds its tree rows' sum %" PRId64, what,
			rec->self_ns, x->self_ns);
	if (rec->raw_incl_ns >= 0 && x->raw_incl_ns >= 0 &&
	    !near(rec->raw_incl_ns, x->raw_incl_ns, x->rows))
		problem("%s: raw_inclusive_ns %" PRId64 ", its outermost tree rows sum to %" PRId64,
			what, rec->raw_incl_ns, x->raw_incl_ns);
	if (rec->raw_self_ns >= 0 && x->raw_self_ns >= 0 &&
	    !near(rec->raw_self_ns, x->raw_self_ns, x->rows))
		problem("%s: raw_self_ns %" PRId64 ", its tree rows sum to %" PRId64, what,
			rec->raw_self_ns, x->raw_self_ns);
}

/* Children lists of the tree, for a depth-first walk. */
struct kids {
	int64_t *first, *next; /* by row index; -1 ends a list */
	int64_t roots;         /* the first root row */
};

static void kids_build(const struct thread *t, struct kids *k)
{
	k->first = xcalloc(t->nrows, sizeof(*k->first));
	k->next = xcalloc(t->nrows, sizeof(*k->next));
	k->roots = -1;
	for (size_t i = 0; i < t->nrows; i++)
		k->first[i] = -1;
	for (size_t i = t->nrows; i-- > 0;) {
		int64_t *head = t->rows[i].parent < 0 ? &k->roots : &k->first[t->rows[i].parent];
		k->next[i] = *head;
		*head = (int64_t)i;
	}
}

static void kids_release(struct kids *k)
{
	free(k->first);
	free(k->next);
}

/* The edge index of a row, or -1 (its caller function is its parent row's). */
static int64_t row_edge(const struct thread *t, const struct row *r)
{
	int64_t caller = r->parent < 0 ? -1 : t->rows[r->parent].fn;

	return imap_get(&t->edge_index, edge_key(caller, (size_t)r->fn));
}

/* A row whose edge or function is unrecorded: a problem unless it is all zero. */
static bool row_unrecorded(const struct dump *d, const struct thread *t, const struct row *r,
			   size_t i, const char *where, int64_t edge)
{
	bool empty = !r->calls && r->t.incl_ns <= 0 && r->t.raw_incl_ns <= 0;

	if (edge < 0 && !empty)
		problem("%s: tree row %zu (%s -> %s): no edge record for it", where, i,
			r->parent < 0 ? "(root)" : d->fns[t->rows[r->parent].fn].name,
			d->fns[r->fn].name);
	if (!t->fns[r->fn].listed && !empty)
		problem("%s: tree row %zu: function %s is not in the thread's functions", where, i,
			d->fns[r->fn].name);
	return edge < 0 || !t->fns[r->fn].listed;
}

static void walk_enter(const struct thread *t, size_t i, int64_t edge, struct derived *fx,
		       struct derived *ex)
{
	const struct row *r = &t->rows[i];

	derived_add(&fx[r->fn], r);
	fx[r->fn].active++;
	if (edge >= 0) {
		derived_add(&ex[edge], r);
		ex[edge].active++;
	}
}

static void walk_leave(const struct thread *t, size_t i, const int64_t *edge_of, struct derived *fx,
		       struct derived *ex)
{
	fx[t->rows[i].fn].active--;
	if (edge_of[i] >= 0)
		ex[edge_of[i]].active--;
}

/*
 * Walks the tree depth first, summing every function's and edge's rows (the
 * inclusive times of outermost activations only, as the contract defines them).
 */
static void derive_from_tree(const struct dump *d, const struct thread *t, const char *where,
			     struct derived *fx, struct derived *ex)
{
	struct kids k;
	int64_t *stack = xcalloc(t->nrows + 1, sizeof(*stack));
	int64_t *edge_of = xcalloc(t->nrows, sizeof(*edge_of));
	size_t depth = 0;
	int64_t i = -1;

	kids_build(t, &k);
	i = k.roots;
	while (i >= 0 || depth) {
		if (i < 0) { /* leave the finished row, go to its next sibling */
			int64_t done = stack[--depth];
			walk_leave(t, (size_t)done, edge_of, fx, ex);
			i = k.next[done];
			continue;
		}
		if (t->rows[i].fn < 0) {
			i = k.next[i];
			continue;
		}
		edge_of[i] = row_edge(t, &t->rows[i]);
		row_unrecorded(d, t, &t->rows[i], (size_t)i, where, edge_of[i]);
		walk_enter(t, (size_t)i, edge_of[i], fx, ex);
		stack[depth++] = i;
		i = k.first[i];
	}
	kids_release(&k);
	free(stack);
	free(edge_of);
}

/*
 * Children's raw inclusive times fit in their parent's: activations nest.
 * Not below a root row of a thread whose tree was folded (past its node
 * budget, paths lose their context and land under a root row of their caller).
 */
static void check_nesting(const struct thread *t, const char *where)
{
	int64_t *kids_ns = xcalloc(t->nrows, sizeof(*kids_ns));
	size_t *kids = xcalloc(t->nrows, sizeof(*kids));

	for (size_t i = 0; i < t->nrows; i++) {
		const struct row *r = &t->rows[i];
		if (t->folded && r->parent >= 0 && t->rows[r->parent].parent < 0)
			continue;
		if (r->parent >= 0 && r->t.raw_incl_ns >= 0) {
			kids_ns[r->parent] += r->t.raw_incl_ns;
			kids[r->parent]++;
		}
	}
	for (size_t i = 0; i < t->nrows; i++)
		if (t->rows[i].t.raw_incl_ns >= 0 &&
		    kids_ns[i] > t->rows[i].t.raw_incl_ns + (int64_t)kids[i] + 1)
			problem("%s: tree row %zu: children's raw_inclusive_ns sum to %" PRId64
				", more than the row's %" PRId64,
				where, i, kids_ns[i], t->rows[i].t.raw_incl_ns);
	free(kids_ns);
	free(kids);
}

/*
 * No time counts twice: each moment of a thread is the self time of at most
 * one call (the innermost one running), so the raw self times of its
 * functions add up to at most its wall time (each rounded on its own).  The
 * calls of signal handlers that interrupted a probe, under `<signal>`, ran
 * inside the self time of the call they interrupted: they are left out.
 */
static void check_self_sum(const struct dump *d, const struct thread *t, const char *where)
{
	int64_t sum = 0;
	size_t n = 0;

	for (size_t f = 0; f < d->nfns; f++) {
		const struct times *x = &t->fns[f].t;
		int64_t self = x->raw_self_ns >= 0 ? x->raw_self_ns : x->self_ns;
		if (!t->fns[f].listed || self < 0)
			continue;
		if (d->fns[f].name && !strcmp(d->fns[f].name, "<signal>"))
			sum -= x->raw_incl_ns >= 0 ? x->raw_incl_ns : x->incl_ns;
		sum += self;
		n++;
	}
	if (!d->sampled && t->wall_ns >= 0 && sum > t->wall_ns + (int64_t)n + 1)
		problem("%s: the functions' raw self times add up to %" PRId64
			", more than the thread's wall_ns %" PRId64,
			where, sum, t->wall_ns);
}

static void check_derived(const struct dump *d, const struct thread *t, const char *where)
{
	struct derived *fx = xcalloc(d->nfns, sizeof(*fx));
	struct derived *ex = xcalloc(t->nedges, sizeof(*ex));
	char what[512];

	derive_from_tree(d, t, where, fx, ex);
	for (size_t e = 0; e < t->nedges; e++) {
		const struct edge_fig *g = &t->edges[e];
		snprintf(what, sizeof(what), "%s: edge %s -> %s", where,
			 g->caller < 0 ? "(root)" : d->fns[g->caller].name, d->fns[g->callee].name);
		if (ex[e].calls != g->calls)
			problem("%s: %" PRIu64 " calls, its tree rows sum to %" PRIu64, what,
				g->calls, ex[e].calls);
		compare_times(&g->t, &ex[e], what);
	}
	for (size_t f = 0; f < d->nfns; f++) {
		if (!t->fns[f].listed)
			continue;
		snprintf(what, sizeof(what), "%s: function %s", where, d->fns[f].name);
		compare_times(&t->fns[f].t, &fx[f], what);
	}
	free(fx);
	free(ex);
}

/* ---- threads ------------------------------------------------------------------ */

static void check_thread_lists(struct dump *d, struct thread *t, json_object *thr,
			       const char *twhere)
{
	bool ok;
	json_object *fns = member(thr, twhere, "functions", W_ARR, &ok);
	json_object *edges;
	char where[128];

	for (size_t i = 0; fns && i < json_object_array_length(fns); i++) {
		snprintf(where, sizeof(where), "%s.functions[%zu]", twhere, i);
		check_thread_function(d, t, json_object_array_get_idx(fns, i), where);
	}
	edges = member(thr, twhere, "edges", W_ARR, &ok);
	t->edges = xcalloc(edges ? json_object_array_length(edges) : 0, sizeof(*t->edges));
	imap_init(&t->edge_index, edges ? json_object_array_length(edges) : 0);
	for (size_t i = 0; edges && i < json_object_array_length(edges); i++) {
		snprintf(where, sizeof(where), "%s.edges[%zu]", twhere, i);
		check_edge(d, t, json_object_array_get_idx(edges, i), where);
	}
}

static void check_thread(struct dump *d, struct thread *t, json_object *thr, const char *where)
{
	bool ok;
	json_object *v;

	t->fns = xcalloc(d->nfns, sizeof(*t->fns));
	t->wall_ns = NO_TIME;
	if (!type_ok(thr, W_OBJ)) {
		problem("%s: expected an object", where);
		imap_init(&t->edge_index, 0);
		return;
	}
	int_member(thr, where, "tid", -1);
	member(thr, where, "name", W_STR_NULL, &ok);
	v = member(thr, where, "wall_ns", W_INT, &ok);
	if (ok)
		t->wall_ns = time_value(d, v, where, "wall_ns");
	if (t->wall_ns >= 0 && d->wall_ns >= 0 && t->wall_ns > d->wall_ns + WALL_SLACK_NS)
		problem("%s: wall_ns %" PRId64 " > the process's wall_ns %" PRId64, where,
			t->wall_ns, d->wall_ns);
	/* Not in the contract, so optional: how many calls lost their context. */
	if (json_object_object_get_ex(thr, "folded_calls", &v) && type_ok(v, W_INT))
		t->folded = json_object_get_int64(v) > 0;
	d->watch_times = true; /* zero-times is about the records, not the wall times */
	check_thread_lists(d, t, thr, where);
	check_tree(d, t, thr, where);
	d->watch_times = false;
	check_call_sums(d, t, where);
	check_self_sum(d, t, where);
	check_kind_sums(d, t, where);
	check_library_kinds(d, t, where);
	check_derived(d, t, where);
	check_nesting(t, where);
}

static void check_threads(json_object *root, struct dump *d)
{
	bool ok;
	json_object *threads = member(root, "dump", "threads", W_ARR, &ok);

	d->nthreads = ok ? json_object_array_length(threads) : 0;
	d->threads = xcalloc(d->nthreads, sizeof(*d->threads));
	for (size_t i = 0; i < d->nthreads; i++) {
		char where[64];
		snprintf(where, sizeof(where), "threads[%zu]", i);
		check_thread(d, &d->threads[i], json_object_array_get_idx(threads, i), where);
	}
}

/*
 * Library calls were compensated with their own kind's cost: a compensated
 * dump with library calls gives library_o_in_ns and library_o_out_ns in its
 * calibration, numbers above zero.
 */
static void check_library_calibration(const struct dump *d)
{
	json_object *calib, *v, *on;
	uint64_t calls = 0;
	bool ok;

	if (!json_object_object_get_ex(d->root, "calibration", &calib) || !type_ok(calib, W_OBJ) ||
	    !json_object_object_get_ex(calib, "compensated", &on) || !json_object_get_boolean(on))
		return;
	for (size_t i = 0; i < d->nthreads; i++)
		for (size_t f = 0; f < d->nfns; f++)
			if (d->threads[i].fns && d->threads[i].fns[f].listed)
				calls += d->threads[i].fns[f].k.kinds[KIND_LIBRARY];
	if (!calls)
		return;
	for (int k = 0; k < 2; k++) {
		const char *key = k ? "library_o_out_ns" : "library_o_in_ns";
		v = member(calib, "calibration", key, W_NUM, &ok);
		if (ok && !(json_object_get_double(v) > 0))
			problem("calibration.%s: %g, expected above 0 (library calls: %" PRIu64 ")",
				key, json_object_get_double(v), calls);
	}
}

/*
 * library_probes says whether there are library functions at all; a library
 * function is named (not an address); a module that holds only library
 * functions lists no coverage (its thousands of functions are no one's to call).
 */
static void check_library(struct dump *d)
{
	json_object *v;
	const char *probes = "on";
	bool *own = xcalloc(d->nmods, sizeof(*own)), *lib = xcalloc(d->nmods, sizeof(*lib));

	if (json_object_object_get_ex(d->root, "library_probes", &v)) {
		probes = type_ok(v, W_STR) ? json_object_get_string(v) : "?";
		if (strcmp(probes, "on") && strcmp(probes, "off") && strcmp(probes, "unavailable"))
			problem("library_probes: expected on, off or unavailable");
	}
	for (size_t f = 0; f < d->nfns; f++) {
		const struct fn_rec *r = &d->fns[f];
		if (r->library && strcmp(probes, "on"))
			problem("functions[%zu]: library function %s, but library_probes is %s", f,
				r->name, probes);
		if (r->library && (!strncmp(r->name, "0x", 2) || !strcmp(r->name, "?")))
			problem("functions[%zu]: a library function without a name: %s", f,
				r->name);
		if (r->module >= 0)
			(r->library ? lib : own)[r->module] = true;
	}
	for (size_t m = 0; m < d->nmods; m++)
		if (lib[m] && !own[m] && d->mods[m].has_uncalled)
			problem("modules[%zu]: %s holds only library functions, yet lists uncalled "
				"ones",
				m, d->mods[m].base);
	free(own);
	free(lib);
	check_library_calibration(d);
}

static void check_dump(struct dump *d)
{
	if (!type_ok(d->root, W_OBJ)) {
		problem("expected a JSON object at the top");
		return;
	}
	check_header(d->root, d);
	check_functions(d->root, d);
	check_threads(d->root, d);
	check_library(d);
}

/* ---- expectations ------------------------------------------------------------ */

/* Where the expectation being checked comes from, for messages. */
static const char *expect_path;
static unsigned expect_line;

__attribute__((format(printf, 1, 2))) static void unmet(const char *fmt, ...)
{
	va_list ap;

	if (++problems > MAX_PRINTED)
		return;
	printf("%s:%u: ", expect_path, expect_line);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

__attribute__((format(printf, 1, 2), noreturn)) static void bad_expect(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "dumpcheck: %s:%u: ", expect_path, expect_line);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(2);
}

/* Does function `i` answer to NAME or NAME@FILE? */
static bool fn_matches(const struct fn_rec *f, const char *spec)
{
	const char *at = strrchr(spec, '@');
	size_t len = at ? (size_t)(at - spec) : strlen(spec);

	if (strlen(f->name) != len || strncmp(f->name, spec, len))
		return false;
	return !at || (f->file_base && !strcmp(f->file_base, at + 1));
}

static uint64_t parse_count(const char *s)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || *end || !*s || *s == '-')
		bad_expect("'%s' is not a count", s);
	return v;
}

static uint64_t fn_calls(const struct dump *d, const char *spec, size_t thread)
{
	uint64_t sum = 0;

	for (size_t f = 0; f < d->nfns; f++)
		if (fn_matches(&d->fns[f], spec))
			sum += listed_calls(&d->threads[thread], f);
	return sum;
}

static size_t fn_entries(const struct dump *d, const char *spec)
{
	size_t n = 0;

	for (size_t f = 0; f < d->nfns; f++)
		n += fn_matches(&d->fns[f], spec);
	return n;
}

static void expect_calls(const struct dump *d, const char *spec, uint64_t want)
{
	uint64_t got = 0;

	for (size_t t = 0; t < d->nthreads; t++)
		got += fn_calls(d, spec, t);
	if (want && !fn_entries(d, spec))
		unmet("calls %s: no function named %s in the dump", spec, spec);
	else if (got != want)
		unmet("calls %s: expected %" PRIu64 ", got %" PRIu64, spec, want, got);
}

static void expect_thread_calls(const struct dump *d, const char *spec, uint64_t want)
{
	size_t with = 0;

	for (size_t t = 0; t < d->nthreads; t++) {
		uint64_t got = fn_calls(d, spec, t);
		if (!got)
			continue;
		with++;
		if (got != want)
			unmet("thread-calls %s: expected %" PRIu64 " on threads[%zu], got %" PRIu64,
			      spec, want, t, got);
	}
	if (!with)
		unmet("thread-calls %s: no thread calls it", spec);
}

static void expect_threads_with(const struct dump *d, const char *spec, uint64_t want)
{
	uint64_t with = 0;

	for (size_t t = 0; t < d->nthreads; t++)
		with += fn_calls(d, spec, t) > 0;
	if (with != want)
		unmet("threads-with %s: expected %" PRIu64 " threads, got %" PRIu64, spec, want,
		      with);
}

static void expect_edge(const struct dump *d, const char *caller, const char *callee, uint64_t want)
{
	uint64_t got = 0;
	bool root = !strcmp(caller, "-");

	if (want && ((!root && !fn_entries(d, caller)) || !fn_entries(d, callee))) {
		unmet("edge %s %s: no function named %s in the dump", caller, callee,
		      !root && !fn_entries(d, caller) ? caller : callee);
		return;
	}
	for (size_t t = 0; t < d->nthreads; t++) {
		const struct thread *th = &d->threads[t];
		for (size_t e = 0; e < th->nedges; e++) {
			const struct edge_fig *g = &th->edges[e];
			bool from = root ? g->caller < 0
					 : g->caller >= 0 && fn_matches(&d->fns[g->caller], caller);
			if (from && fn_matches(&d->fns[g->callee], callee))
				got += g->calls;
		}
	}
	if (got != want)
		unmet("edge %s %s: expected %" PRIu64 " calls, got %" PRIu64, caller, callee, want,
		      got);
}

/* Does row `r` sit at the end of the path names[0] > ... > names[n-1] from a root? */
static bool row_on_path(const struct dump *d, const struct thread *t, int64_t r, char *const *names,
			size_t n)
{
	while (n > 0) {
		if (r < 0 || t->rows[r].fn < 0 || !fn_matches(&d->fns[t->rows[r].fn], names[n - 1]))
			return false;
		r = t->rows[r].parent;
		n--;
	}
	return r < 0;
}

static void expect_path_calls(const struct dump *d, char *const *names, size_t n, uint64_t want)
{
	uint64_t got = 0;

	for (size_t t = 0; t < d->nthreads; t++)
		for (size_t r = 0; r < d->threads[t].nrows; r++)
			if (row_on_path(d, &d->threads[t], (int64_t)r, names, n))
				got += d->threads[t].rows[r].calls;
	if (got != want) {
		char path[512] = "";
		size_t len = 0;
		for (size_t i = 0; i < n && len < sizeof(path); i++)
			len += (size_t)snprintf(path + len, sizeof(path) - len, "%s%s",
						i ? " > " : "", names[i]);
		unmet("path %s: expected %" PRIu64 " calls, got %" PRIu64, path, want, got);
	}
}

static void expect_file(const struct dump *d, const char *spec, const char *base)
{
	size_t seen = 0;

	for (size_t f = 0; f < d->nfns; f++) {
		if (!fn_matches(&d->fns[f], spec))
			continue;
		seen++;
		if (!d->fns[f].file_base || strcmp(d->fns[f].file_base, base))
			unmet("file %s: expected %s, got %s", spec, base,
			      d->fns[f].file_base ? d->fns[f].file_base : "null");
	}
	if (!seen)
		unmet("file %s: no function named %s in the dump", spec, spec);
}

static void expect_timed(const struct dump *d, const char *spec)
{
	int64_t incl_ns = 0;

	/* Raw: a function cheaper than the probes is compensated down to zero,
	 * by design; what must not be zero is the measurement itself. */
	for (size_t t = 0; t < d->nthreads; t++)
		for (size_t f = 0; f < d->nfns; f++)
			if (d->threads[t].fns[f].listed && fn_matches(&d->fns[f], spec) &&
			    d->threads[t].fns[f].t.raw_incl_ns > 0)
				incl_ns += d->threads[t].fns[f].t.raw_incl_ns;
	if (incl_ns <= 0)
		unmet("timed %s: its raw inclusive time is zero", spec);
}

static void expect_library(const struct dump *d, const char *spec, const char *module)
{
	size_t seen = 0;

	for (size_t f = 0; f < d->nfns; f++) {
		const struct fn_rec *r = &d->fns[f];
		if (!fn_matches(r, spec))
			continue;
		seen++;
		if (!r->library)
			unmet("library %s: it is no library function", spec);
		else if (r->module < 0 || strcmp(d->mods[r->module].base, module))
			unmet("library %s: expected module %s, got %s", spec, module,
			      r->module < 0 ? "none" : d->mods[r->module].base);
	}
	if (!seen)
		unmet("library %s: no function named %s in the dump", spec, spec);
}

static void expect_kind(const struct dump *d, const char *spec, const char *kind, uint64_t want)
{
	size_t k = 0;
	uint64_t got = 0;

	while (k < NKINDS && strcmp(kind_names[k], kind))
		k++;
	if (k == NKINDS)
		bad_expect("unknown kind '%s'", kind);
	for (size_t t = 0; t < d->nthreads; t++)
		for (size_t f = 0; f < d->nfns; f++)
			if (d->threads[t].fns[f].listed && fn_matches(&d->fns[f], spec))
				got += d->threads[t].fns[f].k.kinds[k];
	if (got != want)
		unmet("kind %s %s: expected %" PRIu64 " calls, got %" PRIu64, spec, kind, want,
		      got);
}

static void expect_unprobed(const struct dump *d, const char *module, const char *list,
			    const char *name)
{
	bool seen = false, listed = false;
	json_object *arr;

	if (strcmp(list, "lazy") && strcmp(list, "through_got"))
		bad_expect("unprobed: the list is lazy or through_got, not '%s'", list);
	for (size_t m = 0; m < d->nmods; m++) {
		if (strcmp(d->mods[m].base, module) || !d->mods[m].libcalls)
			continue;
		seen = true;
		if (!json_object_object_get_ex(d->mods[m].libcalls, list, &arr) ||
		    !type_ok(arr, W_ARR))
			continue;
		for (size_t i = 0; i < json_object_array_length(arr); i++)
			listed |= !strcmp(json_object_get_string(json_object_array_get_idx(arr, i)),
					  name);
	}
	if (!seen)
		unmet("unprobed %s: no module %s with library_calls", module, module);
	else if (!listed)
		unmet("unprobed %s %s %s: not listed", module, list, name);
}

static void want_args(char **tok, size_t n, size_t want)
{
	if (n != want)
		bad_expect("'%s' takes %zu arguments, got %zu", tok[0], want - 1, n - 1);
}

static void expect_counted(const struct dump *d, char **tok, size_t n)
{
	uint64_t want = parse_count(tok[n - 1]);

	if (!strcmp(tok[0], "threads")) {
		want_args(tok, n, 2);
		if (d->nthreads != want)
			unmet("threads: expected %" PRIu64 ", got %zu", want, d->nthreads);
	} else if (!strcmp(tok[0], "pid")) {
		want_args(tok, n, 2);
		if ((uint64_t)d->pid != want)
			unmet("pid: expected %" PRIu64 ", got %" PRId64, want, d->pid);
	} else if (!strcmp(tok[0], "calls")) {
		want_args(tok, n, 3);
		expect_calls(d, tok[1], want);
	} else if (!strcmp(tok[0], "thread-calls")) {
		want_args(tok, n, 3);
		expect_thread_calls(d, tok[1], want);
	} else if (!strcmp(tok[0], "threads-with")) {
		want_args(tok, n, 3);
		expect_threads_with(d, tok[1], want);
	} else if (!strcmp(tok[0], "functions")) {
		want_args(tok, n, 3);
		if (fn_entries(d, tok[1]) != want)
			unmet("functions %s: expected %" PRIu64 " entries, got %zu", tok[1], want,
			      fn_entries(d, tok[1]));
	} else if (!strcmp(tok[0], "edge")) {
		want_args(tok, n, 4);
		expect_edge(d, tok[1], tok[2], want);
	} else if (!strcmp(tok[0], "path")) {
		if (n < 3)
			bad_expect("'path' takes one or more names and a count");
		expect_path_calls(d, tok + 1, n - 2, want);
	} else {
		bad_expect("unknown expectation '%s'", tok[0]);
	}
}

static void expect_one(const struct dump *d, char **tok, size_t n)
{
	if (!strcmp(tok[0], "absent")) {
		want_args(tok, n, 2);
		if (fn_entries(d, tok[1]))
			unmet("absent %s: the dump names it", tok[1]);
	} else if (!strcmp(tok[0], "zero-times")) {
		want_args(tok, n, 1);
		if (d->first_nonzero_time)
			unmet("zero-times: %s is not zero", d->first_nonzero_time);
	} else if (!strcmp(tok[0], "file")) {
		want_args(tok, n, 3);
		expect_file(d, tok[1], tok[2]);
	} else if (!strcmp(tok[0], "timed")) {
		want_args(tok, n, 2);
		expect_timed(d, tok[1]);
	} else if (!strcmp(tok[0], "library")) {
		want_args(tok, n, 3);
		expect_library(d, tok[1], tok[2]);
	} else if (!strcmp(tok[0], "kind")) {
		want_args(tok, n, 4);
		expect_kind(d, tok[1], tok[2], parse_count(tok[3]));
	} else if (!strcmp(tok[0], "unprobed")) {
		want_args(tok, n, 4);
		expect_unprobed(d, tok[1], tok[2], tok[3]);
	} else if (n >= 2) {
		expect_counted(d, tok, n);
	} else {
		bad_expect("unknown or incomplete expectation '%s'", tok[0]);
	}
}

/* Ends a quoted token that starts at `p` (after the quote); returns where to go on. */
static char *quoted_token(char *p)
{
	char *out = p;

	while (*p && *p != '"') {
		if (*p == '\\' && p[1])
			p++;
		*out++ = *p++;
	}
	if (*p != '"')
		bad_expect("unterminated quote");
	*out = '\0';
	return p + 1;
}

/* Splits `line` in place into whitespace-separated or "quoted" tokens, up to a '#'. */
static size_t tokenize(char *line, char **tok)
{
	size_t n = 0;
	char *p = line;

	for (;;) {
		p += strspn(p, " \t\r\n");
		if (!*p || *p == '#')
			return n;
		if (n == MAX_TOKENS)
			bad_expect("too many tokens");
		if (*p == '"') {
			tok[n++] = p + 1;
			p = quoted_token(p + 1);
		} else {
			tok[n++] = p;
			p += strcspn(p, " \t\r\n");
		}
		if (*p && !strchr(" \t\r\n", *p))
			bad_expect("a quote must be followed by a space");
		if (*p)
			*p++ = '\0';
	}
}

static void check_expectations(const struct dump *d, const char *path)
{
	FILE *f = fopen(path, "r");
	char *line = NULL;
	size_t cap = 0;

	if (!f) {
		fprintf(stderr, "dumpcheck: cannot open '%s': %s\n", path, strerror(errno));
		exit(2);
	}
	expect_path = path;
	while (getline(&line, &cap, f) > 0) {
		char *tok[MAX_TOKENS];
		size_t n;
		expect_line++;
		n = tokenize(line, tok);
		if (n)
			expect_one(d, tok, n);
	}
	free(line);
	fclose(f);
}

static void dump_release(struct dump *d)
{
	for (size_t i = 0; i < d->nthreads; i++) {
		free(d->threads[i].fns);
		free(d->threads[i].edges);
		free(d->threads[i].rows);
		imap_release(&d->threads[i].edge_index);
	}
	free(d->threads);
	free(d->mods);
	free(d->fns);
	imap_release(&d->fn_index);
	json_object_put(d->root);
}

int main(int argc, char **argv)
{
	struct dump d;

	if (argc < 2 || argc > 3 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		fputs(usage, argc == 2 ? stdout : stderr);
		return argc == 2 ? 0 : 2;
	}
	memset(&d, 0, sizeof(d));
	dump_path = argv[1];
	d.root = json_object_from_file(dump_path);
	if (!d.root) {
		printf("%s: not a readable JSON document: %s\n", dump_path,
		       json_util_get_last_err() ? json_util_get_last_err() : "unknown error");
		return 1;
	}
	check_dump(&d);
	if (argc == 3)
		check_expectations(&d, argv[2]);
	if (problems > MAX_PRINTED)
		printf("%s: ... %lu problems in all\n", dump_path, problems);
	dump_release(&d);
	return problems ? 1 : 0;
}
