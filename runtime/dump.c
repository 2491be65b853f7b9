/*
 * dump.c: the profile dump: every thread's tree, with per-function and
 * per-edge figures derived from it, compensated for the probes' cost, and the
 * functions named through libdw.  Cold: runs at exit or on callprof_dump().
 */
#include "dump.h"

#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "calib.h"
#include "clock.h"
#include "compensate.h"
#include "jsonw.h"
#include "options.h"
#include "process.h"
#include "safefile.h"
#include "schedstat.h"
#include "symbols.h"
#include "tstate.h"

#define NO_FN COMP_NO_PARENT /* the caller of a thread's root calls; no parent row */

/* A growable open-addressing map from a 64-bit key to a dense index. */
struct idmap {
	uint64_t *keys;  /* key + 1; 0 marks an empty slot */
	uint32_t *vals;
	size_t mask, used;
};

/* One thread's tree as read for the dump. */
struct thread_snap {
	struct tstate *t;
	struct node_fig *fig;  /* rows in preorder */
	size_t n;
	uint64_t wait_ns;      /* time it waited for a CPU up to the snapshot (schedstat.h) */
	bool has_wait;
};

/* Everything the dump of one process needs across threads. */
struct dump_ctx {
	struct jsonw w;
	uint64_t now_ticks;
	double tps;                 /* ticks per second */
	struct idmap fn_ids;        /* function address -> id */
	uintptr_t *fn_addr;         /* id -> address */
	size_t nfns, fn_cap;
	uint64_t clamped;           /* compensated figures clamped at zero */
	struct symbols *syms;       /* the process's modules, for names and call lines */
};

/* Per-thread scratch: one entry per tree node in preorder, and the aggregates. */
struct node_fig {
	const struct cct_node *node;
	uint32_t fn;
	uint32_t edge;
	struct comp_row c;          /* parent row (NO_FN for a root call), calls, times in ticks */
};

struct agg {
	uint64_t calls;
	uint64_t fenced_calls;      /* tsc-adaptive: of those, read with fences */
	double incl, self, raw_incl, raw_self;
	uint64_t min_ticks, max_ticks;
	uint32_t active;            /* activations open on the current path */
	uint32_t caller, callee;    /* edges only */
};

static uint64_t mix64(uint64_t k)
{
	k ^= k >> 33;
	k *= 0xff51afd7ed558ccdull;
	k ^= k >> 33;
	return k;
}

static int idmap_grow(struct idmap *m)
{
	size_t slots = m->keys ? (m->mask + 1) * 2 : 1024;
	uint64_t *keys = calloc(slots, sizeof(*keys));
	uint32_t *vals = calloc(slots, sizeof(*vals));

	if (!keys || !vals) {
		free(keys);
		free(vals);
		return -1;
	}
	for (size_t i = 0; m->keys && i <= m->mask; i++) {
		size_t j;
		if (!m->keys[i])
			continue;
		for (j = mix64(m->keys[i]) & (slots - 1); keys[j]; j = (j + 1) & (slots - 1))
			;
		keys[j] = m->keys[i];
		vals[j] = m->vals[i];
	}
	free(m->keys);
	free(m->vals);
	m->keys = keys;
	m->vals = vals;
	m->mask = slots - 1;
	return 0;
}

/* The index of `key`, inserting `next` when absent (then *added is set). -1 without memory. */
static int64_t idmap_get(struct idmap *m, uint64_t key, uint32_t next, bool *added)
{
	size_t i;

	*added = false;
	if ((!m->keys || 2 * (m->used + 1) > m->mask + 1) && idmap_grow(m) < 0)
		return -1;
	for (i = mix64(key + 1) & m->mask; m->keys[i]; i = (i + 1) & m->mask)
		if (m->keys[i] == key + 1)
			return m->vals[i];
	m->keys[i] = key + 1;
	m->vals[i] = next;
	m->used++;
	*added = true;
	return next;
}

/* The index of `key`, or -1 when absent. */
static int64_t idmap_find(const struct idmap *m, uint64_t key)
{
	if (!m->keys)
		return -1;
	for (size_t i = mix64(key + 1) & m->mask; m->keys[i]; i = (i + 1) & m->mask)
		if (m->keys[i] == key + 1)
			return m->vals[i];
	return -1;
}

static void idmap_release(struct idmap *m)
{
	free(m->keys);
	free(m->vals);
	memset(m, 0, sizeof(*m));
}

static int64_t fn_id(struct dump_ctx *d, uintptr_t addr)
{
	bool added;
	int64_t id = idmap_get(&d->fn_ids, addr, (uint32_t)d->nfns, &added);

	if (id < 0 || !added)
		return id;
	if (d->nfns == d->fn_cap) {
		size_t cap = d->fn_cap ? d->fn_cap * 2 : 256;
		uintptr_t *a = realloc(d->fn_addr, cap * sizeof(*a));
		if (!a)
			return -1;
		d->fn_addr = a;
		d->fn_cap = cap;
	}
	d->fn_addr[d->nfns++] = addr;
	return id;
}

static uint64_t ns(const struct dump_ctx *d, double ticks)
{
	return clock_ticks_to_ns(ticks > 0 ? (uint64_t)(ticks + 0.5) : 0, d->tps);
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

/* program: the executable's path, argv from /proc/self/cmdline, the pid. */
static void write_program(struct jsonw *w)
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
	write_uint_member(w, "pid", (uint64_t)getpid());
	jsonw_object_end(w);
	free(arg);
	if (f)
		fclose(f);
}

static void write_header(struct dump_ctx *d)
{
	struct jsonw *w = &d->w;
	char date[32];
	time_t secs = (time_t)(process.start_realtime_ns / 1000000000u);
	struct tm tm;

	write_string_member(w, "format", "callprof");
	write_uint_member(w, "version", 1);
	write_program(w);
	gmtime_r(&secs, &tm);
	strftime(date, sizeof(date), "%Y-%m-%dT%H:%M:%SZ", &tm);
	write_string_member(w, "start_time", date);
	jsonw_key(w, "clock");
	jsonw_object_begin(w);
	write_string_member(w, "source", clock_source_name());
	write_uint_member(w, "ticks_per_second", (uint64_t)(d->tps + 0.5));
	jsonw_object_end(w);
	jsonw_key(w, "calibration");
	jsonw_object_begin(w);
	jsonw_key(w, "per_call_ns");
	jsonw_double(w, calib.done ? (calib.o_in_ticks + calib.o_out_ticks) * 1e9 / d->tps : 0);
	jsonw_key(w, "o_in_ns");
	jsonw_double(w, calib.done ? calib.o_in_ticks * 1e9 / d->tps : 0);
	jsonw_key(w, "o_out_ns");
	jsonw_double(w, calib.done ? calib.o_out_ticks * 1e9 / d->tps : 0);
	jsonw_key(w, "compensated");
	jsonw_bool(w, calib.done && options.compensate);
	write_string_member(w, "method", calib.done ?
		"an empty instrumented leaf called in loops at start-up: o_in is its measured "
		"time per call, o_out the rest of the per-call cost over an uninstrumented twin "
		"loop; each the minimum over the rounds; measured at start-up and again at the dump, "
		"and the mean of the two used" : "not calibrated");
	jsonw_key(w, "start_o_in_ns");
	jsonw_double(w, calib.done ? calib.start_o_in_ticks * 1e9 / d->tps : 0);
	jsonw_key(w, "start_o_out_ns");
	jsonw_double(w, calib.done ? calib.start_o_out_ticks * 1e9 / d->tps : 0);
	jsonw_key(w, "end_o_in_ns");
	jsonw_double(w, calib.again ? calib.end_o_in_ticks * 1e9 / d->tps : 0);
	jsonw_key(w, "end_o_out_ns");
	jsonw_double(w, calib.again ? calib.end_o_out_ticks * 1e9 / d->tps : 0);
	if (calib.fenced) { /* tsc-adaptive: what calls read with fences cost (adapt.h) */
		jsonw_key(w, "fenced_o_in_ns");
		jsonw_double(w, calib.fenced_o_in_ticks * 1e9 / d->tps);
		jsonw_key(w, "fenced_o_out_ns");
		jsonw_double(w, calib.fenced_o_out_ticks * 1e9 / d->tps);
	}
	write_uint_member(w, "rounds", calib.rounds);
	write_uint_member(w, "calls_per_round", calib.calls_per_round);
	write_uint_member(w, "startup_cost_ns", calib.cost_ns);
	jsonw_object_end(w);
	write_uint_member(w, "wall_ns", ns(d, (double)(d->now_ticks - process.start_ticks)));
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
	static const char *const names[] = { "_start", "_init", "_fini", "deregister_tm_clones",
		"register_tm_clones", "__do_global_dtors_aux", "frame_dummy", "__libc_csu_init",
		"__libc_csu_fini", "_dl_relocate_static_pie" };

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

	if (is_startup_code(name))
		return;
	u->total++;
	if (idmap_find(&u->d->fn_ids, addr) >= 0)
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

/* modules and functions: the functions named with libdw. */
static void write_symbols(struct dump_ctx *d)
{
	struct jsonw *w = &d->w;
	struct symbols *syms = d->syms;
	struct sym_function *f = calloc(d->nfns ? d->nfns : 1, sizeof(*f));
	const struct sym_module *mods;
	size_t nmods;

	for (size_t i = 0; f && i < d->nfns; i++)
		symbols_resolve(syms, d->fn_addr[i], &f[i]);
	mods = symbols_modules(syms, &nmods);
	jsonw_key(w, "modules");
	jsonw_array_begin(w);
	for (size_t i = 0; i < nmods; i++) {
		jsonw_object_begin(w);
		write_uint_member(w, "id", i);
		write_string_member(w, "path", mods[i].path);
		write_string_member(w, "build_id", mods[i].build_id);
		write_hex_member(w, "base", mods[i].base);
		write_uncalled(d, (long)i);
		jsonw_object_end(w);
	}
	jsonw_array_end(w);
	jsonw_key(w, "functions");
	jsonw_array_begin(w);
	for (size_t i = 0; i < d->nfns; i++) {
		jsonw_object_begin(w);
		write_uint_member(w, "id", i);
		write_string_member(w, "name", f ? f[i].name : "?");
		jsonw_key(w, "module");
		if (f && f[i].module >= 0)
			jsonw_uint(w, (uint64_t)f[i].module);
		else
			jsonw_null(w);
		write_hex_member(w, "address", cct_key_address(d->fn_addr[i]));
		write_hex_member(w, "offset", f ? f[i].offset : 0);
		write_string_member(w, "file", f ? f[i].file : NULL);
		jsonw_key(w, "line");
		if (f && f[i].file)
			jsonw_uint(w, (uint64_t)f[i].line);
		else
			jsonw_null(w);
		jsonw_object_end(w);
		if (f)
			sym_function_release(&f[i]);
	}
	jsonw_array_end(w);
	free(f);
}

/* Lists the thread's nodes in preorder with their raw figures, as they are now. */
static struct node_fig *thread_nodes(struct dump_ctx *d, struct tstate *t, size_t *count)
{
	size_t n = 0, cap = 1024;
	struct node_fig *fig = malloc(cap * sizeof(*fig));
	const struct cct_node *root = &t->tree.root;

	for (const struct cct_node *c = cct_next_preorder(root, root); fig && c;
	     c = cct_next_preorder(c, root)) {
		struct node_fig *x;
		int64_t fn = fn_id(d, c->fn);
		if (fn < 0) {
			free(fig);
			return NULL;
		}
		if (n == cap) {
			struct node_fig *more = realloc(fig, (cap *= 2) * sizeof(*fig));
			if (!more) {
				free(fig);
				return NULL;
			}
			fig = more;
		}
		x = &fig[n];
		memset(x, 0, sizeof(*x));
		x->node = c;
		((struct cct_node *)c)->dump_id = (uint32_t)n;
		x->c.parent = c->parent == root ? NO_FN : (uint32_t)c->parent->dump_id;
		x->fn = (uint32_t)fn;
		x->c.calls = c->calls;
		x->c.fenced_calls = c->fenced_calls;
		x->c.raw_incl = (double)c->incl_ticks;
		x->c.raw_child = (double)c->child_ticks;
		n++;
	}
	*count = n;
	return fig;
}

/* The row of `node` in a snapshot, or -1 if the node was made after it. */
static int64_t snapshot_row(const struct node_fig *fig, size_t n, const struct cct_node *node)
{
	return node->dump_id < n && fig[node->dump_id].node == node ? (int64_t)node->dump_id : -1;
}

/* Counts the thread's open activations up to now: a call still running has a
 * duration so far, charged to its node and as child time to its caller's. */
static void thread_add_open(struct dump_ctx *d, const struct tstate *t, struct node_fig *fig, size_t n)
{
	const struct frame *base = __atomic_load_n(&t->stack.base, __ATOMIC_ACQUIRE);
	uint32_t depth = t->stack.depth;
	const struct cct_node *root = &t->tree.root;

	for (uint32_t i = 1; i < depth; i++) {
		const struct frame *f = &base[i];
		int64_t row = snapshot_row(fig, n, f->node);
		int64_t caller = f[-1].node == root ? -1 : snapshot_row(fig, n, f[-1].node);
		double open = d->now_ticks > f->t_enter_ticks ? (double)(d->now_ticks - f->t_enter_ticks) : 0;
		if (frame_is_marked(f) || row < 0)
			continue;
		fig[row].c.raw_incl += open;
		if (caller >= 0)
			fig[caller].c.raw_child += open;
	}
}

/* Self times, call counts of children and descendants, and compensation, per node. */
static void thread_compensate(struct dump_ctx *d, struct node_fig *fig, size_t n)
{
	struct comp_row *rows = malloc((n ? n : 1) * sizeof(*rows));
	bool on = calib.done && options.compensate;

	if (!rows) { /* no memory for the copy: raw figures, uncompensated */
		for (size_t i = 0; i < n; i++) {
			struct comp_row *x = &fig[i].c;
			x->raw_self = x->raw_incl > x->raw_child ? x->raw_incl - x->raw_child : 0;
			x->incl = x->raw_incl;
			x->self = x->raw_self;
		}
		return;
	}
	for (size_t i = 0; i < n; i++)
		rows[i] = fig[i].c;
	d->clamped += compensate_rows(rows, n,
				      (struct comp_cost){ on ? calib.o_in_ticks : 0, on ? calib.o_out_ticks : 0 },
				      (struct comp_cost){ on && calib.fenced ? calib.fenced_o_in_ticks : 0,
							  on && calib.fenced ? calib.fenced_o_out_ticks : 0 });
	for (size_t i = 0; i < n; i++)
		fig[i].c = rows[i];
	free(rows);
}

static void agg_add(struct agg *a, const struct node_fig *x, bool outermost)
{
	a->calls += x->c.calls;
	a->fenced_calls += x->c.fenced_calls;
	a->self += x->c.self;
	a->raw_self += x->c.raw_self;
	if (outermost) {
		a->incl += x->c.incl;
		a->raw_incl += x->c.raw_incl;
	}
	if (x->node->min_ticks < a->min_ticks)
		a->min_ticks = x->node->min_ticks;
	if (x->node->max_ticks > a->max_ticks)
		a->max_ticks = x->node->max_ticks;
}

/*
 * Per-function and per-edge totals.  Inclusive time counts outermost
 * activations only: a node adds its time unless an ancestor on its path is
 * the same function (or the same caller->callee edge).
 */
static struct agg *thread_edges(struct node_fig *fig, size_t n, struct agg *fns, size_t *nedges)
{
	struct idmap ids = { 0 };
	struct agg *edges = NULL;
	size_t ne = 0, cap = 0;
	uint32_t *path = malloc((n + 1) * sizeof(*path));
	size_t depth = 0;

	for (size_t i = 0; path && i < n; i++) {
		struct node_fig *x = &fig[i];
		uint32_t caller = x->c.parent == NO_FN ? NO_FN : fig[x->c.parent].fn;
		bool added;
		int64_t e;

		while (depth && path[depth - 1] != x->c.parent) { /* leave finished subtrees */
			struct node_fig *y = &fig[path[--depth]];
			fns[y->fn].active--;
			edges[y->edge].active--;
		}
		e = idmap_get(&ids, (uint64_t)caller << 32 | x->fn, (uint32_t)ne, &added);
		if (e < 0)
			break;
		if (added) {
			if (ne == cap) {
				struct agg *more = realloc(edges, (cap = cap ? cap * 2 : 256) * sizeof(*edges));
				if (!more)
					break;
				edges = more;
			}
			memset(&edges[ne], 0, sizeof(edges[ne]));
			edges[ne].min_ticks = UINT64_MAX;
			edges[ne].caller = caller;
			edges[ne].callee = x->fn;
			ne++;
		}
		x->edge = (uint32_t)e;
		agg_add(&fns[x->fn], x, fns[x->fn].active == 0);
		agg_add(&edges[e], x, edges[e].active == 0);
		fns[x->fn].active++;
		edges[e].active++;
		path[depth++] = (uint32_t)i;
	}
	free(path);
	idmap_release(&ids);
	*nedges = ne;
	return edges;
}

static void write_times(struct dump_ctx *d, const struct agg *a)
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
	write_uint_member(&d->w, "min_ns", a->calls && a->min_ticks != UINT64_MAX ?
				  ns(d, (double)a->min_ticks) : 0);
	write_uint_member(&d->w, "max_ns", ns(d, (double)a->max_ticks));
}

static void write_thread_functions(struct dump_ctx *d, const struct agg *fns)
{
	jsonw_key(&d->w, "functions");
	jsonw_array_begin(&d->w);
	for (size_t i = 0; i < d->nfns; i++) {
		if (!fns[i].calls && fns[i].incl == 0)
			continue;
		jsonw_object_begin(&d->w);
		write_uint_member(&d->w, "fn", i);
		write_times(d, &fns[i]);
		if (clock_source == CLOCK_SRC_TSC_ADAPTIVE)
			write_uint_member(&d->w, "fenced_calls", fns[i].fenced_calls);
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
	if (caller != NO_FN)
		own = symbols_call_line(d->syms, first->call_site, d->fn_addr[caller], &file, &line);
	if (!own)
		write_string_member(&d->w, "site", first->parent && first->call_site == first->parent->call_site ?
							   "inlined" : "outside");
	if (file) {
		write_string_member(&d->w, "call_file", file);
		write_uint_member(&d->w, "call_line", (uint64_t)line);
		free(file);
	}
}

static void write_thread_edges(struct dump_ctx *d, const struct agg *edges, size_t n,
			       const struct node_fig *fig, size_t nnodes)
{
	const struct cct_node **first = calloc(n ? n : 1, sizeof(*first)); /* each edge's first node */

	for (size_t i = 0; first && i < nnodes; i++)
		if (!first[fig[i].edge] && fig[i].node->call_site)
			first[fig[i].edge] = fig[i].node;
	jsonw_key(&d->w, "edges");
	jsonw_array_begin(&d->w);
	for (size_t i = 0; i < n; i++) {
		jsonw_object_begin(&d->w);
		jsonw_key(&d->w, "caller");
		if (edges[i].caller == NO_FN)
			jsonw_null(&d->w);
		else
			jsonw_uint(&d->w, edges[i].caller);
		write_uint_member(&d->w, "callee", edges[i].callee);
		write_times(d, &edges[i]);
		if (first && first[i])
			write_call_site(d, edges[i].caller, first[i]);
		jsonw_object_end(&d->w);
	}
	jsonw_array_end(&d->w);
	free(first);
}

static void write_thread_tree(struct dump_ctx *d, const struct node_fig *fig, size_t n)
{
	static const char *const columns[] = { "id", "parent", "fn", "calls", "inclusive_ns", "self_ns",
					       "raw_inclusive_ns", "raw_self_ns" };
	struct jsonw *w = &d->w;

	jsonw_key(w, "tree");
	jsonw_object_begin(w);
	jsonw_key(w, "columns");
	jsonw_array_begin(w);
	for (size_t i = 0; i < sizeof(columns) / sizeof(columns[0]); i++)
		jsonw_string(w, columns[i]);
	jsonw_array_end(w);
	jsonw_key(w, "rows");
	jsonw_array_begin(w);
	for (size_t i = 0; i < n; i++) {
		const struct node_fig *x = &fig[i];
		jsonw_array_begin(w);
		jsonw_uint(w, i);
		if (x->c.parent == NO_FN)
			jsonw_null(w);
		else
			jsonw_uint(w, x->c.parent);
		jsonw_uint(w, x->fn);
		jsonw_uint(w, x->c.calls);
		jsonw_uint(w, ns(d, x->c.incl));
		jsonw_uint(w, ns(d, x->c.self));
		jsonw_uint(w, ns(d, x->c.raw_incl));
		jsonw_uint(w, ns(d, x->c.raw_self));
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

	write_uint_member(w, "dropped_calls", t->dropped_calls + t->dropped_no_room);
	write_uint_member(w, "dropped_in_signal", t->dropped_calls);
	write_uint_member(w, "dropped_no_room", t->dropped_no_room);
	write_uint_member(w, "resynced_frames", t->resyncs);
	write_uint_member(w, "unmatched_exits", t->unmatched_exits);
	write_uint_member(w, "closed_at_thread_exit", t->closed_at_exit);
	write_uint_member(w, "open_frames", t->stack.depth - 1);
	write_uint_member(w, "tree_nodes", t->tree.nodes);
	write_uint_member(w, "folded_calls", t->tree.folded_calls);
	if (t->tree.folded_calls) {
		write_uint_member(w, "max_nodes", t->tree.max_nodes);
		/* Where the budget first bit: the function whose call path was folded first. */
		jsonw_key(w, "folded_first_fn");
		jsonw_int(w, idmap_find(&d->fn_ids, t->tree.folded_first_fn));
	}
}

static int write_thread(struct dump_ctx *d, const struct thread_snap *snap)
{
	struct tstate *t = snap->t;
	struct node_fig *fig = snap->fig;
	size_t n = snap->n, ne = 0;
	struct agg *fns = calloc(d->nfns ? d->nfns : 1, sizeof(*fns));
	struct agg *edges = NULL;
	char name[64];
	uint64_t end = t->finished ? t->t_end_ticks : d->now_ticks;

	if (!fns)
		goto out_free;
	for (size_t i = 0; i < d->nfns; i++)
		fns[i].min_ticks = UINT64_MAX;
	thread_compensate(d, fig, n);
	edges = thread_edges(fig, n, fns, &ne);
	if (n && !edges)
		goto out_free;
	thread_name(t, name, sizeof(name));
	jsonw_object_begin(&d->w);
	write_uint_member(&d->w, "tid", (uint64_t)t->tid);
	write_string_member(&d->w, "name", name);
	write_uint_member(&d->w, "wall_ns", ns(d, (double)(end > t->t_start_ticks ? end - t->t_start_ticks : 0)));
	jsonw_key(&d->w, "running");
	jsonw_bool(&d->w, !t->finished);
	if (snap->has_wait)
		write_uint_member(&d->w, "runq_wait_ns", snap->wait_ns);
	write_thread_health(d, t);
	write_thread_functions(d, fns);
	write_thread_edges(d, edges, ne, fig, n);
	write_thread_tree(d, fig, n);
	jsonw_object_end(&d->w);
	free(edges);
	free(fns);
	return 0;
out_free:
	free(edges);
	free(fns);
	return -1;
}

/* The final path: %p is the pid, %% a percent sign; a fork child without %p adds its pid. */
static void output_path(const char *pattern, char *out, size_t size)
{
	size_t o = 0;
	bool has_pid = false;

	for (const char *p = pattern; *p && o + 24 < size; p++) {
		if (p[0] == '%' && p[1] == 'p') {
			o += (size_t)snprintf(out + o, size - o, "%d", (int)getpid());
			has_pid = true;
			p++;
		} else if (p[0] == '%' && p[1] == '%') {
			out[o++] = '%';
			p++;
		} else {
			out[o++] = *p;
		}
	}
	out[o] = '\0';
	if (process.forked && !has_pid) {
		char *dot = strrchr(out, '.');
		char *slash = strrchr(out, '/');
		char tail[PATH_MAX];
		if (!dot || (slash && dot < slash))
			dot = out + o;
		snprintf(tail, sizeof(tail), "%s", dot);
		snprintf(dot, size - (size_t)(dot - out), ".%d%s", (int)getpid(), tail);
	}
}

/* The threads oldest first: the registry keeps them newest first. */
static struct tstate *reverse(struct tstate *list)
{
	struct tstate *out = NULL;

	while (list) {
		struct tstate *next = list->next;
		list->next = out;
		out = list;
		list = next;
	}
	return out;
}

static int write_profile(struct dump_ctx *d, const struct thread_snap *snaps, size_t nsnaps)
{
	jsonw_object_begin(&d->w);
	write_header(d);
	write_symbols(d);
	jsonw_key(&d->w, "threads");
	jsonw_array_begin(&d->w);
	for (size_t i = 0; i < nsnaps; i++)
		if (write_thread(d, &snaps[i]) < 0)
			return -1;
	jsonw_array_end(&d->w);
	/* Known only once the threads are written, so it comes last. */
	jsonw_key(&d->w, "clamped_figures");
	jsonw_uint(&d->w, d->clamped);
	jsonw_object_end(&d->w);
	return 0;
}

static void snapshots_free(struct thread_snap *snaps, size_t n)
{
	for (size_t i = 0; snaps && i < n; i++)
		free(snaps[i].fig);
	free(snaps);
}

/*
 * Reads every thread's tree first and only then takes the time, so calls that
 * finish while the dump reads a running thread are never later than `now`.
 */
static struct thread_snap *snapshot_threads(struct dump_ctx *d, struct tstate *threads, size_t *count)
{
	size_t n = 0;
	struct thread_snap *snaps;

	for (struct tstate *t = threads; t; t = t->next)
		n++;
	snaps = calloc(n ? n : 1, sizeof(*snaps));
	n = 0;
	for (struct tstate *t = threads; snaps && t; t = t->next, n++) {
		snaps[n].t = t;
		snaps[n].fig = thread_nodes(d, t, &snaps[n].n);
		if (!snaps[n].fig) {
			snapshots_free(snaps, n);
			*count = 0;
			return NULL;
		}
	}
	d->now_ticks = clock_now();
	for (size_t i = 0; snaps && i < n; i++) {
		thread_add_open(d, snaps[i].t, snaps[i].fig, snaps[i].n);
		snaps[i].has_wait = !snaps[i].t->finished && schedstat_wait_ns(snaps[i].t->tid, &snaps[i].wait_ns) == 0;
	}
	*count = n;
	return snaps;
}

int dump_write(const char *path, bool only_if_data)
{
	struct dump_ctx d = { 0 };
	char final[PATH_MAX];
	struct tstate *threads;
	struct thread_snap *snaps = NULL;
	size_t nsnaps = 0;
	struct safefile sf = { .why = NULL };
	FILE *f;
	int rc = -1, err = 0;

	output_path(path ? path : options.output, final, sizeof(final));
	threads = tstate_lock_all();
	/* A process where filters left nothing still writes its (empty) profile;
	 * one that never ran instrumented code (a shell under LD_PRELOAD) does not. */
	if (only_if_data && !process.probed) {
		tstate_unlock_all();
		return 0;
	}
	threads = reverse(threads);
	snaps = snapshot_threads(&d, threads, &nsnaps);
	calib_again(); /* after the snapshot: its probes must not show in the profile */
	d.tps = clock_ticks_per_second();
	if (!snaps) {
		sf.why = strerror(ENOMEM);
		goto out_unlock;
	}
	if (!(f = safefile_open(&sf, final)))
		goto out_unlock;
	setvbuf(f, NULL, _IOFBF, 1 << 20);
	jsonw_init(&d.w, f);
	d.syms = symbols_open_for(d.fn_addr, d.nfns);
	if (write_profile(&d, snaps, nsnaps) < 0)
		err = ENOMEM;
	symbols_free(d.syms);
	putc('\n', f);
	rc = safefile_close(&sf, err);
out_unlock:
	reverse(threads);
	tstate_unlock_all();
	if (rc < 0)
		fprintf(stderr, "callprof: cannot write profile '%s': %s\n", final, sf.why);
	snapshots_free(snaps, nsnaps);
	free(d.fn_addr);
	idmap_release(&d.fn_ids);
	return rc;
}
