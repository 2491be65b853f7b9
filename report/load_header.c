/* load_header.c: the top of a dump: format and version, the run (program, clock, calibration,
 * warnings), its modules and its functions, ids mapped to indices for the threads. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "load_json.h"

/* load_format: format and version first (is this a dump at all?), then the run's wall time and date. */
static int load_format(struct load_ctx *c, struct dump *d, struct json_object *root)
{
	struct json_object *fmt = load_get(root, "format"), *ver = load_get(root, "version");
	struct load_brief b;
	int rc;

	if (!fmt)
		return load_fail(c, "not a callprof dump (no \"format\" key)");
	if (!json_object_is_type(fmt, json_type_string) ||
	    strcmp(json_object_get_string(fmt), "callprof"))
		return load_fail(c, "not a callprof dump (format is %s)", load_brief(&b, fmt));
	if (!ver)
		return load_fail(c, "missing key \"version\" at the top level");
	if (!json_object_is_type(ver, json_type_int) || json_object_get_int64(ver) != 1)
		return load_fail(c, "unsupported dump version %s (this callprof reads version 1)",
				 load_brief(&b, ver));
	if ((rc = load_want_u64(c, root, "wall_ns", LOAD_TOP, LOAD_OPTIONAL, &d->run.wall_ns)) < 0)
		return -1;
	d->run.has_wall = rc > 0;
	if (load_want_u64(c, root, "clamped_figures", LOAD_TOP, LOAD_OPTIONAL,
			  &d->run.clamped_figures) < 0 ||
	    load_want_u64(c, root, "threads_lost", LOAD_TOP, LOAD_OPTIONAL, &d->run.threads_lost) <
		    0 ||
	    load_want_u64(c, root, "lost_calls", LOAD_TOP, LOAD_OPTIONAL, &d->run.lost_calls) < 0 ||
	    load_want_str(c, root, "start_time", LOAD_TOP, LOAD_OPTIONAL, &d->run.date) < 0)
		return -1;
	if (!d->run.date &&
	    load_want_str(c, root, "date", LOAD_TOP, LOAD_OPTIONAL, &d->run.date) < 0)
		return -1;
	return 0;
}

static int load_program(struct load_ctx *c, struct dump *d, struct json_object *root)
{
	int bad = 0, rc;
	struct json_object *prog =
		load_want(c, root, "program", LOAD_TOP, LOAD_OPTIONAL, json_type_object, &bad);
	struct json_object *argv;
	int64_t pid;

	if (!prog)
		return bad;
	if (load_want_str(c, prog, "path", "program", LOAD_OPTIONAL, &d->run.program) < 0)
		return -1;
	rc = load_want_id(c, prog, "pid", "program", LOAD_OPTIONAL, &pid);
	if (rc < 0)
		return -1;
	d->run.pid = pid;
	d->run.has_pid = rc > 0;
	argv = load_want(c, prog, "argv", "program", LOAD_OPTIONAL, json_type_array, &bad);
	if (!argv)
		return bad;
	d->run.argc = json_object_array_length(argv);
	d->run.argv = xcalloc(d->run.argc, sizeof(*d->run.argv));
	for (size_t i = 0; i < d->run.argc; i++) {
		struct json_object *a = json_object_array_get_idx(argv, i);

		if (!a || !json_object_is_type(a, json_type_string))
			return load_fail(c, "expected a string, not %s, at program.argv[%zu]",
					 load_type_name(a), i);
		d->run.argv[i] = load_string(a, 0);
	}
	return 0;
}

/* load_kind_costs: what a fenced read costs, which only tsc-adaptive dumps say, a -pg
 * -mfentry probe, which only dumps with such calls say, and a call a library probe followed,
 * which dumps with library probes say. */
static int load_kind_costs(struct load_ctx *c, struct dump *d, struct json_object *cal)
{
	int rc;

	if ((rc = load_want_num(c, cal, "fentry_o_in_ns", "calibration", &d->run.fentry_o_in_ns)) <
	    0)
		return -1;
	d->run.has_fentry_o_in = rc > 0;
	if ((rc = load_want_num(c, cal, "fentry_o_out_ns", "calibration",
				&d->run.fentry_o_out_ns)) < 0)
		return -1;
	d->run.has_fentry_o_out = rc > 0;

	if ((rc = load_want_num(c, cal, "fenced_o_in_ns", "calibration", &d->run.fenced_o_in_ns)) <
	    0)
		return -1;
	d->run.has_fenced_o_in = rc > 0;
	if ((rc = load_want_num(c, cal, "fenced_o_out_ns", "calibration",
				&d->run.fenced_o_out_ns)) < 0)
		return -1;
	d->run.has_fenced_o_out = rc > 0;
	if ((rc = load_want_num(c, cal, "library_o_in_ns", "calibration",
				&d->run.library_o_in_ns)) < 0)
		return -1;
	d->run.has_library_o_in = rc > 0;
	if ((rc = load_want_num(c, cal, "library_o_out_ns", "calibration",
				&d->run.library_o_out_ns)) < 0)
		return -1;
	d->run.has_library_o_out = rc > 0;
	if ((rc = load_want_num(c, cal, "untimed_ns", "calibration", &d->run.untimed_ns)) < 0)
		return -1;
	d->run.has_untimed = rc > 0;
	for (unsigned k = 0; k < UNREC_KINDS; k++) {
		char key[64];

		if ((rc = load_want_num(c, cal, unrec_key(key, sizeof(key), k, "ns"), "calibration",
					&d->run.unrecorded_ns[k])) < 0)
			return -1;
		if (rc > 0)
			d->run.has_unrecorded |= 1u << k;
	}
	return 0;
}

const char *const run_metered_keys[RUN_METERED_KINDS] = { "metered", "fentry_metered",
							  "library_metered" };

/* load_metered_side: one side of calibration.KIND (`kind`: "metered", ...; `key`:
 * "program" or "loop"), its samples and its probes' o_in and o_out, each required. */
static int load_metered_side(struct load_ctx *c, struct json_object *m, const char *kind,
			     const char *key, struct run_metered_side *s)
{
	int bad = 0, in, out;
	char where[64];
	struct json_object *side;

	snprintf(where, sizeof(where), "calibration.%s", kind);
	if (!(side = load_want(c, m, key, where, LOAD_REQUIRED, json_type_object, &bad)))
		return -1;
	snprintf(where, sizeof(where), "calibration.%s.%s", kind, key);
	if (load_want_u64(c, side, "samples", where, LOAD_REQUIRED, &s->samples) < 0 ||
	    (in = load_want_num(c, side, "o_in_ns", where, &s->in_ns)) < 0 ||
	    (out = load_want_num(c, side, "o_out_ns", where, &s->out_ns)) < 0)
		return -1;
	if (!in || !out)
		return load_fail(c, "%s needs o_in_ns and o_out_ns", where);
	return 0;
}

/* load_metered: what each kind's probes cost in the program beyond calibration's loop,
 * which newer dumps measure (calibration.metered, fentry_metered, library_metered) and
 * already add to that kind's o_in_ns and o_out_ns. */
static int load_metered(struct load_ctx *c, struct dump *d, struct json_object *cal)
{
	for (unsigned k = 0; k < RUN_METERED_KINDS; k++) {
		int bad = 0;
		const char *key = run_metered_keys[k];
		struct json_object *m = load_want(c, cal, key, "calibration", LOAD_OPTIONAL,
						  json_type_object, &bad);
		struct run_metered *r = &d->run.metered[k];

		if (!m) {
			if (bad)
				return -1;
			continue;
		}
		if (load_metered_side(c, m, key, "program", &r->program) < 0 ||
		    load_metered_side(c, m, key, "loop", &r->loop) < 0)
			return -1;
		r->has = 1;
	}
	return 0;
}

static int load_clock(struct load_ctx *c, struct dump *d, struct json_object *root)
{
	int bad = 0, rc;
	struct json_object *clk =
		load_want(c, root, "clock", LOAD_TOP, LOAD_OPTIONAL, json_type_object, &bad);
	struct json_object *cal;

	d->run.compensated = -1;
	if (clk) {
		if (load_want_str(c, clk, "source", "clock", LOAD_OPTIONAL, &d->run.clock_source) <
			    0 ||
		    load_want_u64(c, clk, "ticks_per_second", "clock", LOAD_OPTIONAL,
				  &d->run.ticks_per_second) < 0 ||
		    load_want_str(c, clk, "note", "clock", LOAD_OPTIONAL, &d->run.clock_note) < 0 ||
		    (rc = load_want_u64(c, clk, "stopped_ns", "clock", LOAD_OPTIONAL,
					&d->run.clock_stopped_ns)) < 0 ||
		    load_want_u64(c, clk, "sample_rate", "clock", LOAD_OPTIONAL,
				  &d->run.sample_rate) < 0 ||
		    load_want_u64(c, clk, "timed_first", "clock", LOAD_OPTIONAL,
				  &d->run.timed_first) < 0)
			return -1;
		d->run.has_clock_stopped = rc > 0;
	} else if (bad) {
		return -1;
	}
	cal = load_want(c, root, "calibration", LOAD_TOP, LOAD_OPTIONAL, json_type_object, &bad);
	if (!cal)
		return bad;
	if ((rc = load_want_num(c, cal, "per_call_ns", "calibration", &d->run.per_call_ns)) < 0)
		return -1;
	d->run.has_per_call = rc > 0;
	if ((rc = load_want_num(c, cal, "o_in_ns", "calibration", &d->run.o_in_ns)) < 0)
		return -1;
	d->run.has_o_in = rc > 0;
	if ((rc = load_want_num(c, cal, "o_out_ns", "calibration", &d->run.o_out_ns)) < 0)
		return -1;
	d->run.has_o_out = rc > 0;
	if (load_kind_costs(c, d, cal) < 0 || load_metered(c, d, cal) < 0)
		return -1;
	if (load_get(cal, "compensated")) {
		struct json_object *v = load_want(c, cal, "compensated", "calibration",
						  LOAD_OPTIONAL, json_type_boolean, &bad);

		if (!v)
			return -1;
		d->run.compensated = json_object_get_boolean(v) ? 1 : 0;
	}
	return 0;
}

static int load_warnings(struct load_ctx *c, struct dump *d, struct json_object *root)
{
	int bad = 0;
	struct json_object *w =
		load_want(c, root, "warnings", LOAD_TOP, LOAD_OPTIONAL, json_type_array, &bad);

	if (!w)
		return bad;
	d->run.nwarnings = json_object_array_length(w);
	d->run.warnings = xcalloc(d->run.nwarnings, sizeof(*d->run.warnings));
	for (size_t i = 0; i < d->run.nwarnings; i++) {
		struct json_object *s = json_object_array_get_idx(w, i);

		struct load_brief b;

		d->run.warnings[i] = s && json_object_is_type(s, json_type_string)
					     ? load_string(s, 0)
					     : xstrdup(load_brief(&b, s));
	}
	return 0;
}

/* load_library_probes: whether calls into libraries were probed ("on", "off", "unavailable"). */
static int load_library_probes(struct load_ctx *c, struct dump *d, struct json_object *root)
{
	const char *v;

	if (load_want_str(c, root, "library_probes", LOAD_TOP, LOAD_OPTIONAL,
			  &d->run.library_probes) < 0)
		return -1;
	v = d->run.library_probes;
	if (v && strcmp(v, "on") && strcmp(v, "off") && strcmp(v, "unavailable"))
		return load_fail(c, "expected on, off or unavailable at library_probes");
	return 0;
}

/* load_end: how the run ended when it did not end well: the signal that cut it short
 * (cut_short.name, e.g. "SIGTERM"), and the callprof_dump() calls refused in handlers. */
static int load_end(struct load_ctx *c, struct dump *d, struct json_object *root)
{
	int bad = 0;
	struct json_object *cut =
		load_want(c, root, "cut_short", LOAD_TOP, LOAD_OPTIONAL, json_type_object, &bad);
	uint64_t sig;

	if (load_want_u64(c, root, "refused_dumps", LOAD_TOP, LOAD_OPTIONAL,
			  &d->run.refused_dumps) < 0)
		return -1;
	if (!cut)
		return bad;
	if (load_want_u64(c, cut, "signal", "cut_short", LOAD_REQUIRED, &sig) < 0 ||
	    load_want_str(c, cut, "name", "cut_short", LOAD_OPTIONAL, &d->run.cut_short) < 0)
		return -1;
	if (!d->run.cut_short) {
		char name[32];

		snprintf(name, sizeof(name), "signal %llu", (unsigned long long)sig);
		d->run.cut_short = xstrdup(name);
	}
	return 0;
}

int load_header(struct load_ctx *c, struct dump *d, struct json_object *root)
{
	if (load_format(c, d, root) < 0 || load_program(c, d, root) < 0 ||
	    load_clock(c, d, root) < 0 || load_warnings(c, d, root) < 0 ||
	    load_library_probes(c, d, root) < 0 || load_end(c, d, root) < 0)
		return -1;
	return 0;
}

static int load_uncalled(struct load_ctx *c, struct run_module *mod, struct json_object *m,
			 const char *where)
{
	int bad = 0;
	struct json_object *arr =
		load_want(c, m, "uncalled", where, LOAD_OPTIONAL, json_type_array, &bad);
	char sub[96];

	if (!arr)
		return bad;
	mod->nuncalled = json_object_array_length(arr);
	mod->uncalled = xcalloc(mod->nuncalled, sizeof(*mod->uncalled));
	for (size_t i = 0; i < mod->nuncalled; i++) {
		struct json_object *u = json_object_array_get_idx(arr, i);
		struct run_uncalled *x = &mod->uncalled[i];
		int name_rc = 0, file_rc = 0;

		snprintf(sub, sizeof(sub), "%s.uncalled[%zu]", where, i);
		if (!u || !json_object_is_type(u, json_type_object))
			return load_fail(c, "expected an object, not %s, at %s", load_type_name(u),
					 sub);
		if ((name_rc = load_want_name(c, u, "name", sub, LOAD_REQUIRED, &x->name)) < 0 ||
		    (file_rc = load_want_name(c, u, "file", sub, LOAD_OPTIONAL, &x->file)) < 0 ||
		    load_want_u64(c, u, "line", sub, LOAD_OPTIONAL, &x->line) < 0 ||
		    load_want_str(c, u, "offset", sub, LOAD_OPTIONAL, &x->offset) < 0)
			return -1;
		x->name_nul = name_rc == 2;
		x->file_nul = file_rc == 2;
	}
	return 0;
}

/* load_names: obj.key, an array of strings, into *out (n of them); absent: none. */
static int load_names(struct load_ctx *c, struct json_object *obj, const char *key,
		      const char *where, char ***out, size_t *n)
{
	int bad = 0;
	struct json_object *arr =
		load_want(c, obj, key, where, LOAD_OPTIONAL, json_type_array, &bad);

	if (!arr)
		return bad;
	*n = json_object_array_length(arr);
	*out = xcalloc(*n, sizeof(**out));
	for (size_t i = 0; i < *n; i++) {
		struct json_object *s = json_object_array_get_idx(arr, i);

		if (!s || !json_object_is_type(s, json_type_string))
			return load_fail(c, "expected a string, not %s, at %s.%s[%zu]",
					 load_type_name(s), where, key, i);
		(*out)[i] = xstrdup(json_object_get_string(s));
	}
	return 0;
}

/* load_module_libcalls: modules[].library_calls, what the library probes did to its slots. */
static int load_module_libcalls(struct load_ctx *c, struct run_module *mod, struct json_object *m,
				const char *where)
{
	int bad = 0;
	struct json_object *lc =
		load_want(c, m, "library_calls", where, LOAD_OPTIONAL, json_type_object, &bad);
	struct run_libcalls *l = &mod->libcalls;
	char sub[96];

	if (!lc)
		return bad;
	snprintf(sub, sizeof(sub), "%s.library_calls", where);
	mod->has_libcalls = 1;
	if (load_want_u64(c, lc, "slots", sub, LOAD_OPTIONAL, &l->slots) < 0 ||
	    load_want_u64(c, lc, "probed", sub, LOAD_OPTIONAL, &l->probed) < 0 ||
	    load_names(c, lc, "lazy", sub, &l->lazy, &l->nlazy) < 0 ||
	    load_names(c, lc, "through_got", sub, &l->through_got, &l->nthrough) < 0)
		return -1;
	if (l->probed > l->slots)
		return load_fail(c, "probed %llu is more than slots %llu at %s",
				 (unsigned long long)l->probed, (unsigned long long)l->slots, sub);
	return 0;
}

int load_modules(struct load_ctx *c, struct dump *d, struct json_object *root, struct keymap *ids)
{
	int bad = 0;
	struct json_object *mods =
		load_want(c, root, "modules", LOAD_TOP, LOAD_OPTIONAL, json_type_array, &bad);
	char where[64];

	keymap_init(ids, mods ? json_object_array_length(mods) : 0);
	if (!mods)
		return bad;
	d->run.nmodules = json_object_array_length(mods);
	d->run.modules = xcalloc(d->run.nmodules, sizeof(*d->run.modules));
	for (size_t i = 0; i < d->run.nmodules; i++) {
		struct json_object *m = json_object_array_get_idx(mods, i);
		struct run_module *mod = &d->run.modules[i];
		int64_t id;

		snprintf(where, sizeof(where), "modules[%zu]", i);
		if (!m || !json_object_is_type(m, json_type_object))
			return load_fail(c, "expected an object, not %s, at %s", load_type_name(m),
					 where);
		if (load_want_id(c, m, "id", where, LOAD_REQUIRED, &id) < 0 ||
		    load_want_str(c, m, "path", where, LOAD_OPTIONAL, &mod->path) < 0 ||
		    load_want_str(c, m, "build_id", where, LOAD_OPTIONAL, &mod->build_id) < 0 ||
		    load_want_u64(c, m, "symtab_functions", where, LOAD_OPTIONAL,
				  &mod->symtab_functions) < 0 ||
		    load_uncalled(c, mod, m, where) < 0 ||
		    load_module_libcalls(c, mod, m, where) < 0)
			return -1;
		if (keymap_put(ids, (uint64_t)id, (uint32_t)i) < 0)
			return load_fail(c, "duplicate module id %lld at %s", (long long)id, where);
	}
	return 0;
}

/*
 * load_offset: the function's "offset", a hex string ("0x1136"), which only
 * refines how functions match (fnid.h): one that does not parse is left out.
 */
static int load_offset(struct load_ctx *c, struct dump_function *f, struct json_object *o,
		       const char *where)
{
	char *text = NULL;
	int rc = load_want_str(c, o, "offset", where, LOAD_OPTIONAL, &text);

	f->has_offset = rc > 0 && run_parse_offset(text, &f->offset);
	free(text);
	return rc < 0 ? -1 : 0;
}

static int load_function(struct load_ctx *c, struct dump_function *f, struct json_object *o,
			 const char *where, const struct keymap *modules, int64_t *id)
{
	int64_t mod;
	int rc, name_rc = 0, file_rc = 0;

	if (!o || !json_object_is_type(o, json_type_object))
		return load_fail(c, "expected an object, not %s, at %s", load_type_name(o), where);
	if (load_want_id(c, o, "id", where, LOAD_REQUIRED, id) < 0 ||
	    (name_rc = load_want_name(c, o, "name", where, LOAD_REQUIRED, &f->name)) < 0 ||
	    (file_rc = load_want_name(c, o, "file", where, LOAD_OPTIONAL, &f->file)) < 0 ||
	    load_want_str(c, o, "address", where, LOAD_OPTIONAL, &f->address) < 0 ||
	    load_want_u64(c, o, "line", where, LOAD_OPTIONAL, &f->line) < 0 ||
	    load_offset(c, f, o, where) < 0 ||
	    load_want_str(c, o, "front_end", where, LOAD_OPTIONAL, &f->front_end) < 0 ||
	    load_args(c, o, where, &f->args) < 0)
		return -1;
	if (load_get(o, "library")) {
		int bad = 0;
		struct json_object *v =
			load_want(c, o, "library", where, LOAD_OPTIONAL, json_type_boolean, &bad);

		if (!v)
			return -1;
		f->library = json_object_get_boolean(v);
	}
	f->name_nul = name_rc == 2;
	f->file_nul = file_rc == 2;
	f->module = -1;
	rc = load_want_id(c, o, "module", where, LOAD_OPTIONAL, &mod);
	if (rc < 0)
		return -1;
	if (rc > 0) {
		int64_t m = keymap_get(modules, (uint64_t)mod);

		if (m < 0)
			return load_fail(c, "module id %lld is not in modules[] at %s.module",
					 (long long)mod, where);
		f->module = (int32_t)m;
	}
	return 0;
}

int load_functions(struct load_ctx *c, struct dump *d, struct json_object *root,
		   const struct keymap *modules, struct keymap *ids)
{
	int bad = 0;
	struct json_object *fns =
		load_want(c, root, "functions", LOAD_TOP, LOAD_REQUIRED, json_type_array, &bad);
	char where[64];

	keymap_init(ids, fns ? json_object_array_length(fns) : 0);
	if (!fns)
		return -1;
	d->nfunctions = json_object_array_length(fns);
	if (d->nfunctions >= INT32_MAX)
		return load_fail(c, "too many functions (%zu)", d->nfunctions);
	d->functions = xcalloc(d->nfunctions, sizeof(*d->functions));
	for (size_t i = 0; i < d->nfunctions; i++) {
		int64_t id;

		snprintf(where, sizeof(where), "functions[%zu]", i);
		if (load_function(c, &d->functions[i], json_object_array_get_idx(fns, i), where,
				  modules, &id) < 0)
			return -1;
		if (keymap_put(ids, (uint64_t)id, (uint32_t)i) < 0)
			return load_fail(c, "duplicate function id %lld at %s", (long long)id,
					 where);
	}
	return 0;
}
