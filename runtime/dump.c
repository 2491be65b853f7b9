/*
 * dump.c: the profile as JSON: the header (program, clock, calibration), the
 * modules and functions named through libdw, and each thread's totals, edges
 * and tree from a snapshot.  Cold: runs at exit or on callprof_dump().
 */
#include "dump.h"

#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "args.h"
#include "cct.h"
#include "clock.h"
#include "fentry.h"
#include "got.h"
#include "jsonw.h"
#include "libcall.h"
#include "libstub.h"
#include "linkage.h"
#include "meter.h"
#include "modscan.h"
#include "options.h"
#include "sampled.h"
#include "symbols.h"

/* The dump of one process. */
struct dump_ctx {
	struct jsonw w;
	struct snapshot *snap;
	const struct dump_info *info;
	struct comp_cost cost[PROBE_KINDS]; /* what compensation subtracts (zeros: nothing) */
	uint64_t clamped;                   /* compensated figures clamped at zero */
	struct symbols *syms;               /* the process's modules, for names and call lines */
	bool *library;                      /* by function id: a library function (libcall.h) */
};

static const char *const kind_names[PROBE_KINDS] = PROBE_KIND_NAMES;

static uint64_t ns(const struct dump_ctx *d, double ticks)
{
	return clock_ticks_to_ns(ticks > 0 ? (uint64_t)(ticks + 0.5) : 0,
				 d->info->ticks_per_second);
}

/* ns() for the writers of other files, which know the context as a pointer. */
static uint64_t ns_of(const void *ctx, double ticks)
{
	return ns(ctx, ticks);
}

/* Ticks per call as nanoseconds with decimals. */
static double ns_per_call(const struct dump_ctx *d, double ticks)
{
	return ticks * 1e9 / d->info->ticks_per_second;
}

static void write_string_member(struct jsonw *w, const char *key, const char *value)
{
	jsonw_key(w, key);
	jsonw_string(w, value);
}

static void write_uint_member(struct jsonw *w, const char *key, uint64_t value)
{
	jsonw_key(w, key);
	jsonw_uint(w, value);
}

static void write_double_member(struct jsonw *w, const char *key, double value)
{
	jsonw_key(w, key);
	jsonw_double(w, value);
}

/* program: the executable's path, argv from /proc/self/cmdline, the pid. */
static void write_program(struct jsonw *w, int pid)
{
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	FILE *f = fopen("/proc/self/cmdline", "re");
	char *arg = NULL;
	size_t cap = 0;

	exe[n > 0 ? n : 0] = '\0';
	jsonw_key(w, "program");
	jsonw_object_begin(w);
	write_string_member(w, "path", exe);
	jsonw_key(w, "argv");
	jsonw_array_begin(w);
	while (f && getdelim(&arg, &cap, '\0', f) > 0)
		jsonw_string(w, arg);
	jsonw_array_end(w);
	write_uint_member(w, "pid", (uint64_t)pid);
	jsonw_object_end(w);
	free(arg);
	if (f)
		fclose(f);
}

/* The key of kind k's `what` ("unrecorded_calls", "untimed_ns"): the plain
 * kind's has no prefix (unrecorded_calls), the others their name's
 * (fentry_unrecorded_calls). */
static const char *kind_key(char *key, size_t size, unsigned k, const char *what)
{
	snprintf(key, size, "%s%s%s", k == PROBE_PLAIN ? "" : kind_names[k],
		 k == PROBE_PLAIN ? "" : "_", what);
	return key;
}

/* One place's metered probes (meter.h): its samples, each part's mean, and o_in and o_out. */
static void write_meter_sums(struct dump_ctx *d, const char *key, const struct meter_sums *m)
{
	static const char *const part_keys[METER_PARTS] = { "enter_out_ns", "enter_in_ns",
							    "exit_in_ns", "exit_out_ns" };
	struct jsonw *w = &d->w;

	jsonw_key(w, key);
	jsonw_object_begin(w);
	write_uint_member(w, "samples", m->samples);
	write_uint_member(w, "discarded", m->discarded);
	write_double_member(w, "weight", (double)m->weight / METER_WEIGHT_ONE);
	for (unsigned i = 0; i < METER_PARTS; i++)
		write_double_member(w, part_keys[i], ns_per_call(d, meter_part_mean(m, i)));
	write_double_member(w, "o_in_ns",
			    ns_per_call(d, meter_mean(m, METER_ENTER_IN, METER_EXIT_IN)));
	write_double_member(w, "o_out_ns",
			    ns_per_call(d, meter_mean(m, METER_ENTER_OUT, METER_EXIT_OUT)));
	jsonw_object_end(w);
}

/* Kind k's probes metered in the program and in calibration's loop, and what
 * the program added to each side, which its o_in and o_out hold (calib.h):
 * `metered` for the plain kind, `<name>_metered` for the others. */
static void write_metered(struct dump_ctx *d, unsigned k, const struct calib_cost *c)
{
	struct jsonw *w = &d->w;
	char key[64];

	jsonw_key(w, kind_key(key, sizeof(key), k, "metered"));
	jsonw_object_begin(w);
	write_uint_member(w, "period", options.meter_period);
	write_meter_sums(d, "program", &c->meter_program);
	write_meter_sums(d, "loop", &c->meter_loop);
	write_double_member(w, "extra_o_in_ns", ns_per_call(d, c->metered_in_ticks));
	write_double_member(w, "extra_o_out_ns", ns_per_call(d, c->metered_out_ticks));
	jsonw_object_end(w);
}

/* The probes' measured costs; the plain kind's under the names version 1 began with. */
static void write_calibration(struct dump_ctx *d)
{
	struct jsonw *w = &d->w;
	const struct calib *c = d->info->calib;
	const struct calib_cost *p = &c->kind[PROBE_PLAIN];
	char key[64];

	jsonw_key(w, "calibration");
	jsonw_object_begin(w);
	write_double_member(w, "per_call_ns",
			    c->done ? ns_per_call(d, p->o_in_ticks + p->o_out_ticks) : 0);
	write_double_member(w, "o_in_ns", c->done ? ns_per_call(d, p->o_in_ticks) : 0);
	write_double_member(w, "o_out_ns", c->done ? ns_per_call(d, p->o_out_ticks) : 0);
	jsonw_key(w, "compensated");
	jsonw_bool(w, c->done && d->info->compensate);
	write_string_member(w, "method", c->done ? c->method : "not calibrated");
	write_double_member(w, "start_o_in_ns", c->done ? ns_per_call(d, p->start_o_in_ticks) : 0);
	write_double_member(w, "start_o_out_ns",
			    c->done ? ns_per_call(d, p->start_o_out_ticks) : 0);
	write_double_member(w, "end_o_in_ns", c->again ? ns_per_call(d, p->end_o_in_ticks) : 0);
	write_double_member(w, "end_o_out_ns", c->again ? ns_per_call(d, p->end_o_out_ticks) : 0);
	jsonw_key(w, "measured_again");
	jsonw_bool(w, c->again);
	for (unsigned k = 1; k < PROBE_KINDS; k++) { /* the other kinds: <name>_o_in_ns, ... */
		if (!c->kind[k].measured)
			continue;
		snprintf(key, sizeof(key), "%s_o_in_ns", kind_names[k]);
		write_double_member(w, key, ns_per_call(d, c->kind[k].o_in_ticks));
		snprintf(key, sizeof(key), "%s_o_out_ns", kind_names[k]);
		write_double_member(w, key, ns_per_call(d, c->kind[k].o_out_ticks));
	}
	for (unsigned k = 0; k < PROBE_KINDS; k++) /* unrecorded_ns, <name>_unrecorded_ns */
		if (c->done && c->kind[k].measured && c->kind[k].unrecorded_measured)
			write_double_member(w, kind_key(key, sizeof(key), k, "unrecorded_ns"),
					    ns_per_call(d, c->kind[k].unrecorded_ticks));
	for (unsigned k = 0; k < PROBE_KINDS; k++) /* untimed_ns, <name>_untimed_ns */
		if (c->done && c->kind[k].measured && c->kind[k].untimed_measured)
			write_double_member(w, kind_key(key, sizeof(key), k, "untimed_ns"),
					    ns_per_call(d, c->kind[k].untimed_ticks));
	if (c->cpu_read_ticks > 0)
		write_double_member(w, "cpu_read_ns", ns_per_call(d, c->cpu_read_ticks));
	write_uint_member(w, "rounds", c->rounds);
	write_uint_member(w, "calls_per_round", c->calls_per_round);
	write_uint_member(w, "startup_cost_ns", c->cost_ns);
	for (unsigned k = 0; k < PROBE_KINDS; k++) /* metered, <name>_metered */
		if (c->done && c->kind[k].measured && c->kind[k].metered)
			write_metered(d, k, &c->kind[k]);
	jsonw_object_end(w);
}

/* The clock, and when the program stopped it (clock.h), or why it is not the one asked for. */
static void write_clock(struct dump_ctx *d)
{
	struct jsonw *w = &d->w;
	uint64_t stopped = d->info->clock_stopped_ticks;

	jsonw_key(w, "clock");
	jsonw_object_begin(w);
	write_string_member(w, "source", d->info->clock_name);
	write_uint_member(w, "ticks_per_second", (uint64_t)(d->info->ticks_per_second + 0.5));
	write_string_member(w, "timing", d->info->sample_rate ? "sampled" : "all");
	if (d->info->sample_rate) {
		write_uint_member(w, "sample_rate", d->info->sample_rate);
		write_uint_member(w, "timed_first", CCT_TIMED_FIRST);
	}
	jsonw_key(w, "cpu_time");
	jsonw_bool(w, d->info->cpu_time);
	if (d->info->cpu_time && d->info->cpu_long_ticks != UINT64_MAX)
		write_uint_member(w, "cpu_long_ns", ns(d, (double)d->info->cpu_long_ticks));
	if (stopped)
		write_uint_member(w, "stopped_ns",
				  ns(d, stopped > d->info->start_ticks
						? (double)(stopped - d->info->start_ticks)
						: 0));
	if (d->info->clock_note)
		write_string_member(w, "note", d->info->clock_note);
	jsonw_object_end(w);
}

/* How the process ended, when it did not end well: the signal that cut the profile short. */
static void write_end(struct dump_ctx *d)
{
	struct jsonw *w = &d->w;
	const char *name = sigabbrev_np(d->info->cut_short);
	char sig[32];

	if (d->info->refused_dumps)
		write_uint_member(w, "refused_dumps", d->info->refused_dumps);
	if (!d->info->cut_short)
		return;
	snprintf(sig, sizeof(sig), "SIG%s", name ? name : "?");
	jsonw_key(w, "cut_short");
	jsonw_object_begin(w);
	write_uint_member(w, "signal", (uint64_t)d->info->cut_short);
	write_string_member(w, "name", sig);
	jsonw_object_end(w);
}

static void write_header(struct dump_ctx *d)
{
	struct jsonw *w = &d->w;
	char date[32];
	time_t secs = (time_t)(d->info->start_realtime_ns / 1000000000u);
	struct tm tm;

	write_string_member(w, "format", "callprof");
	write_uint_member(w, "version", 1);
	write_program(w, d->info->pid);
	gmtime_r(&secs, &tm);
	strftime(date, sizeof(date), "%Y-%m-%dT%H:%M:%SZ", &tm);
	write_string_member(w, "start_time", date);
	write_clock(d);
	write_calibration(d);
	write_uint_member(w, "wall_ns", ns(d, (double)(d->snap->now_ticks - d->info->start_ticks)));
	write_uint_member(w, "threads_lost", d->info->threads_lost);
	write_uint_member(w, "lost_calls", d->info->lost_calls);
	write_end(d);
}

static void write_hex_member(struct jsonw *w, const char *key, uintptr_t v)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "0x%lx", (unsigned long)v);
	write_string_member(w, key, buf);
}

/* Names in a module's symbol table that are no code of the program's own. */
static bool is_startup_code(const char *name)
{
	static const char *const names[] = {
		"_start", "_init", "_fini", "deregister_tm_clones", "register_tm_clones",
		"__do_global_dtors_aux", "frame_dummy", "__libc_csu_init", "__libc_csu_fini",
		"_dl_relocate_static_pie",
		/* what a -pg link's gcrt1.o and libc_nonshared.a add */
		"__gmon_start__", "atexit", "at_quick_exit", "__stack_chk_fail_local",
		/* what the archive's own calls bring from libc_nonshared.a and libgcc.a */
		"pthread_atfork", "__pthread_atfork", "__floatuntidf"
	};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(name, names[i]))
			return true;
	return false;
}

struct uncalled_ctx {
	struct dump_ctx *d;
	uint64_t total;
};

static void visit_uncalled(uintptr_t addr, const char *name, void *arg)
{
	struct uncalled_ctx *u = arg;
	struct sym_function f;
	uintptr_t key;

	if (is_startup_code(name) || linkage_own_code(addr))
		return;
	u->total++;
	if (snapshot_fn_id(u->d->snap, addr) >= 0) /* called, and keyed by its address */
		return;
	key = fentry_call_end(addr);
	if (key && snapshot_fn_id(u->d->snap, key) >= 0) /* called, -pg -mfentry code (fentry.h) */
		return;
	symbols_resolve(u->d->syms, addr, &f);
	jsonw_object_begin(&u->d->w);
	write_string_member(&u->d->w, "name", f.name);
	write_hex_member(&u->d->w, "offset", f.offset);
	write_string_member(&u->d->w, "file", f.file);
	jsonw_key(&u->d->w, "line");
	if (f.file)
		jsonw_uint(&u->d->w, (uint64_t)f.line);
	else
		jsonw_null(&u->d->w);
	jsonw_object_end(&u->d->w);
	sym_function_release(&f);
}

/* Coverage: the module's functions (from its symbol table) that no thread called. */
static void write_uncalled(struct dump_ctx *d, long module)
{
	struct uncalled_ctx u = { d, 0 };

	jsonw_key(&d->w, "uncalled");
	jsonw_array_begin(&d->w);
	symbols_each_function(d->syms, module, visit_uncalled, &u);
	jsonw_array_end(&d->w);
	write_uint_member(&d->w, "symtab_functions", u.total);
}

/* Names the library function whose nodes have key `key` from its entry
 * (the relocation's name, never an IFUNC's choice or an alias); false when
 * `key` is no library function's. */
static bool resolve_library(struct dump_ctx *d, uintptr_t key, struct sym_function *f)
{
	const struct libstub_entry *e = libstub_find(key);

	if (!e)
		return false;
	/* Its module and offset only: no source line, so the library's debug information
	 * (libc's is large) is never read; once unloaded, from its entry alone. */
	memset(f, 0, sizeof(*f));
	if (!cct_key_is_retired(key)) {
		f->module = symbols_locate(d->syms, e->label, &f->offset);
	} else {
		f->module =
			e->module[0] ? symbols_module_of(d->syms, e->module, e->module_base) : -1;
		f->offset = e->label - e->module_base;
	}
	f->name = symbols_demangle(e->name);
	return true;
}

/* Names the function whose nodes have key `key`: an address, or a retired
 * one of a library unloaded since (cct.h); true for a library function. */
static bool resolve_key(struct dump_ctx *d, uintptr_t key, struct sym_function *f)
{
	if (key == SNAP_SIGNAL_KEY) {
		memset(f, 0, sizeof(*f));
		f->name = strdup("<signal>");
		f->module = -1;
		return false;
	}
	if (resolve_library(d, key, f))
		return true;
	if (cct_key_is_retired(key))
		symbols_resolve_unloaded(d->syms, cct_key_generation(key), cct_key_address(key), f);
	else
		symbols_resolve(d->syms, key, f);
	return false;
}

static void write_name_list(struct jsonw *w, const char *key, char *const *names, size_t n)
{
	jsonw_key(w, key);
	jsonw_array_begin(w);
	for (size_t i = 0; i < n; i++)
		jsonw_string(w, names[i]);
	jsonw_array_end(w);
}

/* What the library probes did to the jump slots of an instrumented module. */
static void write_module_libcalls(struct dump_ctx *d, const struct sym_module *m)
{
	const struct got_module *g = libcall_on ? got_report(m->path, m->base) : NULL;
	struct jsonw *w = &d->w;

	if (!g)
		return;
	jsonw_key(w, "library_calls");
	jsonw_object_begin(w);
	write_uint_member(w, "slots", g->slots);
	write_uint_member(w, "probed", g->probed);
	write_name_list(w, "lazy", g->lazy, g->nlazy);
	write_name_list(w, "through_got", g->through_got, g->nthrough);
	jsonw_object_end(w);
}

/* True for a module that holds some function other than library functions:
 * its coverage is listed (a library's thousands of functions are not) when
 * its own code calls the probes (modscan.h). */
static bool has_own_functions(const struct dump_ctx *d, const struct sym_function *f, long module)
{
	for (size_t i = 0; i < d->snap->nfns; i++)
		if (f[i].module == module && !d->library[i])
			return true;
	return false;
}

/* warnings: why the dump is short of something (names: symbols_warnings). */
static void write_warnings(struct dump_ctx *d)
{
	size_t n;
	const char *const *lines = symbols_warnings(d->syms, &n);

	jsonw_key(&d->w, "warnings");
	jsonw_array_begin(&d->w);
	if (!d->syms)
		jsonw_string(&d->w, "names are missing: there was no memory to read them, so "
				    "functions are named by address");
	for (size_t i = 0; i < n; i++)
		jsonw_string(&d->w, lines[i]);
	jsonw_array_end(&d->w);
}

/*
 * What the dump says of the function with node key `key`, which starts at
 * `start`, beyond its name: the front-end that probed it (a library
 * function's probe, its code starts with a call of __fentry__, or not;
 * unknown once its library is unloaded), and the value profile of its
 * arguments when CALLPROF_ARGS selected it.
 */
static void write_function_probes(struct dump_ctx *d, uintptr_t key, uintptr_t start, bool library,
				  const struct tstate *const *threads)
{
	uintptr_t address = cct_key_address(key);
	bool retired = cct_key_is_retired(key);

	if (!retired) {
		jsonw_key(&d->w, "front_end");
		jsonw_string(&d->w, library                  ? "library"
				    : fentry_call_end(start) ? "mfentry"
							     : "finstrument");
	}
	args_dump_function(&d->w, address, retired, threads, d->snap->nthreads, ns_of, d);
}

/* modules and functions: the functions named with libdw. */
static void write_symbols(struct dump_ctx *d)
{
	struct jsonw *w = &d->w;
	size_t nfns = d->snap->nfns;
	struct sym_function *f = calloc(nfns ? nfns : 1, sizeof(*f));
	const struct sym_module *mods;
	size_t nmods;
	const struct tstate **threads =
		calloc(d->snap->nthreads ? d->snap->nthreads : 1, sizeof(*threads));

	for (size_t i = 0; threads && i < d->snap->nthreads; i++)
		threads[i] = d->snap->threads[i].t;
	for (size_t i = 0; f && i < nfns; i++)
		d->library[i] = resolve_key(d, d->snap->fn_key[i], &f[i]);
	mods = symbols_modules(d->syms, &nmods);
	jsonw_key(w, "modules");
	jsonw_array_begin(w);
	for (size_t i = 0; i < nmods; i++) {
		jsonw_object_begin(w);
		write_uint_member(w, "id", i);
		write_string_member(w, "path", mods[i].path);
		write_string_member(w, "build_id", mods[i].build_id);
		write_hex_member(w, "base", mods[i].base);
		if (!f || (has_own_functions(d, f, (long)i) && modscan_module_probed(mods[i].base)))
			write_uncalled(d, (long)i);
		write_module_libcalls(d, &mods[i]);
		jsonw_object_end(w);
	}
	jsonw_array_end(w);
	jsonw_key(w, "functions");
	jsonw_array_begin(w);
	for (size_t i = 0; i < nfns; i++) {
		jsonw_object_begin(w);
		write_uint_member(w, "id", i);
		write_string_member(w, "name", f ? f[i].name : "?");
		jsonw_key(w, "module");
		if (f && f[i].module >= 0)
			jsonw_uint(w, (uint64_t)f[i].module);
		else
			jsonw_null(w);
		/* The function's first byte: a -pg -mfentry key lies a few bytes in (fentry.h). */
		write_hex_member(w, "address",
				 d->snap->fn_key[i] == SNAP_SIGNAL_KEY ? 0
				 : f && f[i].start                     ? f[i].start
						   : cct_key_address(d->snap->fn_key[i]));
		write_hex_member(w, "offset", f ? f[i].offset : 0);
		write_string_member(w, "file", f ? f[i].file : NULL);
		jsonw_key(w, "line");
		if (f && f[i].file)
			jsonw_uint(w, (uint64_t)f[i].line);
		else
			jsonw_null(w);
		if (d->library[i]) {
			jsonw_key(w, "library");
			jsonw_bool(w, true);
		}
		if (threads && d->snap->fn_key[i] != SNAP_SIGNAL_KEY)
			write_function_probes(d, d->snap->fn_key[i],
					      f && f[i].start ? f[i].start
							      : cct_key_address(d->snap->fn_key[i]),
					      d->library[i], threads);
		jsonw_object_end(w);
		if (f)
			sym_function_release(&f[i]);
	}
	jsonw_array_end(w);
	free(threads);
	free(f);
	write_warnings(d);
}

static void write_times(struct dump_ctx *d, const struct snap_total *a)
{
	/* Rows' self times were clamped at zero one by one, and a recursive
	 * function adds every row's self but only its outermost rows' inclusive. */
	double self = a->self < a->incl ? a->self : a->incl;
	double raw_self = a->raw_self < a->raw_incl ? a->raw_self : a->raw_incl;

	write_uint_member(&d->w, "calls", a->calls);
	write_uint_member(&d->w, "inclusive_ns", ns(d, a->incl));
	write_uint_member(&d->w, "self_ns", ns(d, self));
	write_uint_member(&d->w, "raw_inclusive_ns", ns(d, a->raw_incl));
	write_uint_member(&d->w, "raw_self_ns", ns(d, raw_self));
	write_uint_member(&d->w, "min_ns",
			  a->calls && a->min_ticks != UINT64_MAX ? ns(d, (double)a->min_ticks) : 0);
	write_uint_member(&d->w, "max_ns", ns(d, (double)a->max_ticks));
	if (d->info->sample_rate) { /* sampled timing: the times are estimates */
		write_uint_member(&d->w, "timed_calls",
				  a->timed_calls < a->calls ? a->timed_calls : a->calls);
		write_uint_member(&d->w, "inclusive_se_ns", ns(d, sampled_se(a->incl_var)));
		write_uint_member(&d->w, "self_se_ns", ns(d, sampled_se(a->self_var)));
	}
	if (d->info->cpu_time) {
		write_uint_member(&d->w, "cpu_calls",
				  a->cpu_calls < a->calls ? a->cpu_calls : a->calls);
		write_uint_member(&d->w, "cpu_ns",
				  ns(d, a->cpu_incl < a->incl ? a->cpu_incl : a->incl));
		write_uint_member(&d->w, "cpu_self_ns",
				  ns(d, a->cpu_self < a->cpu_incl ? a->cpu_self : a->cpu_incl));
	}
}

/* Per kind of call but plain (when the clock makes it): <name>_calls. */
static void write_kind_calls(struct dump_ctx *d, const struct snap_total *a)
{
	char key[64];

	for (unsigned k = 1; k < PROBE_KINDS; k++) {
		if (!(d->info->kinds & 1u << k))
			continue;
		snprintf(key, sizeof(key), "%s_calls", kind_names[k]);
		write_uint_member(&d->w, key, a->kind_calls[k - 1]);
	}
}

/* The calls it made that were not recorded, where there were: unrecorded_calls
 * (-finstrument-functions), <name>_unrecorded_calls (the other front-ends). */
static void write_unrecorded_calls(struct dump_ctx *d, const struct snap_total *a)
{
	char key[64];

	for (unsigned k = 0; k < PROBE_FRONT_KINDS; k++)
		if (a->unrecorded_calls[k])
			write_uint_member(&d->w, kind_key(key, sizeof(key), k, "unrecorded_calls"),
					  a->unrecorded_calls[k]);
}

static void write_thread_functions(struct dump_ctx *d, const struct snap_total *fns)
{
	jsonw_key(&d->w, "functions");
	jsonw_array_begin(&d->w);
	for (size_t i = 0; i < d->snap->nfns; i++) {
		if (!fns[i].calls && fns[i].incl == 0)
			continue;
		jsonw_object_begin(&d->w);
		write_uint_member(&d->w, "fn", i);
		write_times(d, &fns[i]);
		write_kind_calls(d, &fns[i]);
		write_unrecorded_calls(d, &fns[i]);
		if (fns[i].capture_ticks)
			write_uint_member(&d->w, "capture_ns", ns(d, (double)fns[i].capture_ticks));
		jsonw_object_end(&d->w);
	}
	jsonw_array_end(&d->w);
}

/*
 * write_call_site: the edge's call site, with its source line where debug
 * information has it, or "site": why no line is named: "inlined" (the callee
 * was inlined into its caller, whose own return address its probe got) or
 * "outside" (the call came from code that is not the caller's: a callback
 * through uninstrumented code).
 */
static void write_call_site(struct dump_ctx *d, uint32_t caller, const struct cct_node *first)
{
	char *file = NULL;
	int line;
	bool own = true;

	write_hex_member(&d->w, "call_site", first->call_site);
	/* Not for a library function's callbacks: their call sites are in the library. */
	if (caller != SNAP_NO_FN && !d->library[caller])
		own = symbols_call_line(d->syms, first->call_site,
					cct_key_address(d->snap->fn_key[caller]), &file, &line);
	if (!own)
		write_string_member(&d->w, "site",
				    first->parent && first->call_site == first->parent->call_site
					    ? "inlined"
					    : "outside");
	if (file) {
		write_string_member(&d->w, "call_file", file);
		write_uint_member(&d->w, "call_line", (uint64_t)line);
		free(file);
	}
}

/* An edge record, unless the edge only has rows of folded roots (fold.h):
 * no calls and no time, and no caller of the function. */
static bool edge_written(const struct snap_total *e)
{
	return e->calls || e->raw_incl > 0;
}

static void write_thread_edges(struct dump_ctx *d, const struct snap_totals *tot)
{
	jsonw_key(&d->w, "edges");
	jsonw_array_begin(&d->w);
	for (size_t i = 0; i < tot->nedges; i++) {
		const struct snap_total *e = &tot->edges[i];
		if (!edge_written(e))
			continue;
		jsonw_object_begin(&d->w);
		jsonw_key(&d->w, "caller");
		if (e->caller == SNAP_NO_FN)
			jsonw_null(&d->w);
		else
			jsonw_uint(&d->w, e->caller);
		write_uint_member(&d->w, "callee", e->callee);
		write_times(d, e);
		write_kind_calls(d, e);
		if (e->site)
			write_call_site(d, e->caller, e->site);
		jsonw_object_end(&d->w);
	}
	jsonw_array_end(&d->w);
}

static void write_thread_tree(struct dump_ctx *d, const struct snap_totals *tot)
{
	static const char *const columns[] = {
		"id",      "parent",           "fn",          "calls",    "inclusive_ns",
		"self_ns", "raw_inclusive_ns", "raw_self_ns", "nested_ns"
	};
	size_t ncolumns = sizeof(columns) / sizeof(columns[0]) - !tot->has_nested;
	struct jsonw *w = &d->w;
	char key[64];

	jsonw_key(w, "tree");
	jsonw_object_begin(w);
	jsonw_key(w, "columns");
	jsonw_array_begin(w);
	for (size_t i = 0; i < ncolumns; i++)
		jsonw_string(w, columns[i]);
	for (unsigned k = 1; k < PROBE_KINDS; k++) { /* then <name>_calls per kind but plain */
		if (!(d->info->kinds & 1u << k))
			continue;
		snprintf(key, sizeof(key), "%s_calls", kind_names[k]);
		jsonw_string(w, key);
	}
	if (d->info->sample_rate) {
		jsonw_string(w, "timed_calls");
		jsonw_string(w, "inclusive_se_ns");
		jsonw_string(w, "self_se_ns");
	}
	if (d->info->cpu_time) {
		jsonw_string(w, "cpu_calls");
		jsonw_string(w, "cpu_ns");
		jsonw_string(w, "cpu_self_ns");
	}
	jsonw_array_end(w);
	jsonw_key(w, "rows");
	jsonw_array_begin(w);
	for (size_t i = 0; i < tot->n; i++) {
		const struct snap_row *x = &tot->rows[i];
		jsonw_array_begin(w);
		jsonw_uint(w, i);
		if (x->parent == SNAP_NO_FN)
			jsonw_null(w);
		else
			jsonw_uint(w, x->parent);
		jsonw_uint(w, x->fn);
		jsonw_uint(w, x->calls);
		jsonw_uint(w, ns(d, x->incl));
		jsonw_uint(w, ns(d, x->self));
		jsonw_uint(w, ns(d, x->raw_incl));
		jsonw_uint(w, ns(d, snap_raw_self(x)));
		if (tot->has_nested)
			jsonw_uint(w, ns(d, x->nested));
		for (unsigned k = 1; k < PROBE_KINDS; k++)
			if (d->info->kinds & 1u << k)
				jsonw_uint(w, snap_kind_calls(tot, i, k - 1));
		if (d->info->sample_rate) {
			uint64_t timed = x->node ? cct_timed_calls(x->node) : 0;

			jsonw_uint(w, timed < x->calls ? timed : x->calls);
			jsonw_uint(w, ns(d, sampled_se(x->incl_var)));
			jsonw_uint(w, ns(d, sampled_se(x->self_var)));
		}
		if (d->info->cpu_time) {
			jsonw_uint(w, x->node ? x->node->cpu_calls : 0);
			jsonw_uint(w, ns(d, x->cpu_incl));
			jsonw_uint(w, ns(d, x->cpu_self));
		}
		jsonw_array_end(w);
	}
	jsonw_array_end(w);
	jsonw_object_end(w);
}

static void thread_name(const struct tstate *t, char *buf, size_t size)
{
	char path[64];
	FILE *f;

	if (t->is_main) {
		snprintf(buf, size, "main");
		return;
	}
	snprintf(buf, size, "%s", t->name);
	if (t->finished)
		return;
	snprintf(path, sizeof(path), "/proc/self/task/%d/comm", t->tid);
	if ((f = fopen(path, "re"))) {
		if (fgets(buf, (int)size, f))
			buf[strcspn(buf, "\n")] = '\0';
		fclose(f);
	}
}

/* What had to be dropped, resynchronised or folded on this thread. */
static void write_thread_health(struct dump_ctx *d, const struct tstate *t)
{
	struct jsonw *w = &d->w;

	write_uint_member(w, "dropped_calls",
			  t->dropped_calls + t->dropped_no_room + t->dropped_at_end);
	write_uint_member(w, "dropped_in_signal", t->dropped_calls);
	write_uint_member(w, "dropped_no_room", t->dropped_no_room);
	write_uint_member(w, "resynced_frames", t->resyncs);
	write_uint_member(w, "unmatched_exits", t->unmatched_exits);
	write_uint_member(w, "closed_at_thread_exit", t->closed_at_exit);
	write_uint_member(w, "undecided_calls", t->undecided_calls);
	write_uint_member(w, "dropped_at_end", t->dropped_at_end);
	write_uint_member(w, "open_frames", t->stack.depth - 1);
	write_uint_member(w, "tree_nodes", t->tree.nodes);
	write_uint_member(w, "folded_calls", t->tree.folded_calls);
	if (t->tree.folded_calls) {
		write_uint_member(w, "max_nodes", t->tree.max_nodes);
		/* Where the budget first bit: the function whose call path was folded first. */
		jsonw_key(w, "folded_first_fn");
		jsonw_int(w, snapshot_fn_id(d->snap, t->tree.folded_first_fn));
	}
}

static int write_thread(struct dump_ctx *d, size_t i)
{
	const struct snap_thread *st = &d->snap->threads[i];
	const struct tstate *t = st->t;
	struct snap_totals tot;
	char name[64];
	uint64_t end = t->finished ? t->t_end_ticks : d->snap->now_ticks;

	if (snapshot_thread(d->snap, i, d->cost, &tot) < 0)
		return -1;
	d->clamped += tot.clamped;
	thread_name(t, name, sizeof(name));
	jsonw_object_begin(&d->w);
	write_uint_member(&d->w, "tid", (uint64_t)t->tid);
	write_string_member(&d->w, "name", name);
	write_uint_member(&d->w, "wall_ns",
			  ns(d, (double)(end > t->t_start_ticks ? end - t->t_start_ticks : 0)));
	jsonw_key(&d->w, "running");
	jsonw_bool(&d->w, !t->finished);
	if (st->has_wait)
		write_uint_member(&d->w, "runq_wait_ns", st->wait_ns);
	write_thread_health(d, t);
	write_thread_functions(d, tot.fns);
	write_thread_edges(d, &tot);
	write_thread_tree(d, &tot);
	jsonw_object_end(&d->w);
	snap_totals_release(&tot);
	return 0;
}

/* What compensation subtracts per call of each kind: the calibrated costs, or nothing. */
static void pick_costs(struct dump_ctx *d)
{
	const struct calib *c = d->info->calib;
	bool on = c->done && d->info->compensate;

	for (unsigned k = 0; k < PROBE_KINDS; k++)
		d->cost[k] = on && c->kind[k].measured ? calib_comp_cost(&c->kind[k])
						       : (struct comp_cost){ 0 };
}

/* The addresses of the functions still loaded, for symbols_open_for (a
 * library function's: where it is named from). */
static uintptr_t *live_addresses(const struct snapshot *snap, size_t *n)
{
	uintptr_t *a = malloc((snap->nfns ? snap->nfns : 1) * sizeof(*a));
	const struct libstub_entry *e;

	*n = 0;
	for (size_t i = 0; a && i < snap->nfns; i++)
		if (!cct_key_is_retired(snap->fn_key[i]) && snap->fn_key[i] != SNAP_SIGNAL_KEY)
			a[(*n)++] =
				(e = libstub_find(snap->fn_key[i])) ? e->label : snap->fn_key[i];
	return a;
}

/* Whether calls into libraries were probed, and why not. */
static void write_library_probes(struct dump_ctx *d)
{
	jsonw_key(&d->w, "library_probes");
	jsonw_string(&d->w, libcall_on ? "on" : got_static_runtime ? "unavailable" : "off");
}

int dump_json(FILE *f, struct snapshot *snap, const struct dump_info *info)
{
	struct dump_ctx d = { .snap = snap, .info = info };
	bool *library = calloc(snap->nfns ? snap->nfns : 1, sizeof(*library));
	size_t naddrs;
	uintptr_t *addrs = live_addresses(snap, &naddrs);
	int rc = 0;

	if (!library) {
		free(addrs);
		return -1;
	}
	d.library = library;
	pick_costs(&d);
	jsonw_init(&d.w, f);
	d.syms = addrs ? symbols_open_for(addrs, naddrs) : NULL;
	free(addrs);
	jsonw_object_begin(&d.w);
	write_header(&d);
	write_library_probes(&d);
	write_symbols(&d);
	jsonw_key(&d.w, "threads");
	jsonw_array_begin(&d.w);
	for (size_t i = 0; i < snap->nthreads && rc == 0; i++)
		rc = write_thread(&d, i);
	if (rc == 0) {
		jsonw_array_end(&d.w);
		/* Known only once the threads are written, so it comes last. */
		jsonw_key(&d.w, "clamped_figures");
		jsonw_uint(&d.w, d.clamped);
		jsonw_object_end(&d.w);
	}
	symbols_free(d.syms);
	free(library);
	putc('\n', f);
	return rc;
}
