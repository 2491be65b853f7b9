/* analyze_diff.c: matches the functions and edges of two profiles and orders them by change
 * (see diff.h).  Matching sorts keys rather than hashing them: each list is sorted once. */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "diff.h"
#include "fnid.h"

/* One function of one side, as the matching sees it. */
struct fkey {
	const char *module, *name, *file_base, *file; /* "" where unknown */
	uint64_t line, offset;
	const char *code; /* its module's build-id or path, or NULL */
	int has_offset;
	uint32_t side;
	uint32_t fn; /* index into that side's functions */
};

/* One edge of one side, with its functions already mapped to diff functions. */
struct ekey {
	int64_t caller; /* diff function, -1 for a root call */
	uint32_t callee;
	uint32_t side;
	uint32_t edge; /* index into that side's edges */
};

static const char *or_empty(const char *s)
{
	return s ? s : "";
}

static uint64_t abs_delta(uint64_t a, uint64_t b)
{
	return a > b ? a - b : b - a;
}

int diff_cmp_change(const struct pstat *x, const struct pstat *y)
{
	uint64_t dx = abs_delta(x[0].self_ns, x[1].self_ns),
		 dy = abs_delta(y[0].self_ns, y[1].self_ns);

	if (dx != dy)
		return dx > dy ? -1 : 1;
	dx = abs_delta(x[0].incl_ns, x[1].incl_ns);
	dy = abs_delta(y[0].incl_ns, y[1].incl_ns);
	if (dx != dy)
		return dx > dy ? -1 : 1;
	dx = abs_delta(x[0].calls, x[1].calls);
	dy = abs_delta(y[0].calls, y[1].calls);
	return dx > dy ? -1 : dx < dy;
}

/* ---- functions ---- */

static int cmp_fkey_name(const struct fkey *x, const struct fkey *y)
{
	int c = strcmp(x->module, y->module);

	return c ? c : strcmp(x->name, y->name);
}

static int cmp_fkey(const void *a, const void *b)
{
	const struct fkey *x = a, *y = b;
	int c = cmp_fkey_name(x, y);

	if (!c)
		c = strcmp(x->file_base, y->file_base);
	if (!c && x->side != y->side)
		c = x->side < y->side ? -1 : 1;
	if (!c)
		c = strcmp(x->file, y->file);
	if (!c)
		c = fnid_cmp_copies(x->line, x->offset, y->line, y->offset);
	if (!c && x->fn != y->fn)
		c = x->fn < y->fn ? -1 : 1;
	return c;
}

/* A side's figures of a typical run, per function and per edge (runs_typical). */
struct side_est {
	struct runs_fig *fns, *edges;
};

static void set_figures(struct pstat *st, const struct runs_fig *est)
{
	memset(st, 0, sizeof(*st));
	st->calls = runs_round(est->calls);
	st->incl_ns = st->raw_incl_ns = runs_round(est->incl_ns);
	st->self_ns = st->raw_self_ns = runs_round(est->self_ns);
}

/* add_func: a diff function for base (or NULL) and new (or NULL); fills map[side][fn]. */
static void add_func(struct diff *d, const struct fkey *base, const struct fkey *new_key,
		     uint32_t **map, const struct side_est *est)
{
	struct diff_func *f = &d->funcs[d->nfuncs];
	const struct fkey *keys[2] = { base, new_key };

	memset(f, 0, sizeof(*f));
	for (int s = 0; s < 2; s++) {
		const struct pfunc *pf;

		f->fn[s] = -1;
		if (!keys[s])
			continue;
		pf = &d->side[s].funcs[keys[s]->fn];
		f->fn[s] = (int32_t)keys[s]->fn;
		f->est[s] = est[s].fns[keys[s]->fn];
		set_figures(&f->st[s], &f->est[s]);
		f->name = pf->name;
		f->module = pf->module;
		f->file = pf->file;
		f->line = pf->line;
		f->offset = pf->offset;
		f->has_offset = pf->has_offset;
		map[s][keys[s]->fn] = (uint32_t)d->nfuncs;
	}
	d->nappeared += !base;
	d->nvanished += !new_key;
	d->nfuncs++;
}

/* same_code: both copies are known by the same code: one build, one offset. */
static int same_code(const struct fkey *x, const struct fkey *y)
{
	return x->code && y->code && x->has_offset && y->has_offset && x->offset == y->offset &&
	       !strcmp(x->code, y->code) && !strcmp(x->file, y->file);
}

static int cmp_code(const void *a, const void *b)
{
	const struct fkey *x = *(const struct fkey *const *)a, *y = *(const struct fkey *const *)b;
	int c = strcmp(x->code ? x->code : "", y->code ? y->code : "");

	if (!c && x->offset != y->offset)
		c = x->offset < y->offset ? -1 : 1;
	if (!c)
		c = strcmp(x->file, y->file);
	return c ? c : x < y ? -1 : x > y;
}

/*
 * match_file_group: keys k[0..n) share module, name and file base name; base
 * ones come first, each side in order of file, line and offset.  Copies of one
 * build's code pair first (fnid.h); the rest pair in that order.
 */
static void match_file_group(struct diff *d, const struct fkey *k, size_t n, uint32_t **map,
			     const struct side_est *est)
{
	size_t nbase = 0, i, j, b, m;
	const struct fkey **by_code;
	char *paired;

	while (nbase < n && k[nbase].side == DIFF_BASE)
		nbase++;
	if (!nbase || nbase == n) {
		for (i = 0; i < nbase || i < n - nbase; i++)
			add_func(d, i < nbase ? &k[i] : NULL, i < n - nbase ? &k[nbase + i] : NULL,
				 map, est);
		return;
	}
	by_code = xmalloc(n * sizeof(*by_code));
	paired = xcalloc(n, 1);
	for (i = 0; i < n; i++)
		by_code[i] = &k[i];
	qsort(by_code, nbase, sizeof(*by_code), cmp_code);
	qsort(by_code + nbase, n - nbase, sizeof(*by_code), cmp_code);
	for (i = 0, j = nbase; i < nbase && j < n;) {
		int c = cmp_code(&by_code[i], &by_code[j]);

		if (same_code(by_code[i], by_code[j])) {
			add_func(d, by_code[i], by_code[j], map, est);
			paired[by_code[i] - k] = paired[by_code[j] - k] = 1;
			i++, j++;
		} else if (c < 0) {
			i++;
		} else {
			j++;
		}
	}
	for (b = 0, m = nbase;;) {
		while (b < nbase && paired[b])
			b++;
		while (m < n && paired[m])
			m++;
		if (b == nbase && m == n)
			break;
		add_func(d, b < nbase ? &k[b++] : NULL, m < n ? &k[m++] : NULL, map, est);
	}
	free(paired);
	free(by_code);
}

/* match_name_group: keys k[0..n) share module and name. */
static void match_name_group(struct diff *d, const struct fkey *k, size_t n, uint32_t **map,
			     const struct side_est *est)
{
	size_t nside[2] = { 0, 0 }, i, j;
	const struct fkey *one[2] = { NULL, NULL };

	for (i = 0; i < n; i++) {
		nside[k[i].side]++;
		one[k[i].side] = &k[i];
	}
	if (nside[DIFF_BASE] <= 1 && nside[DIFF_NEW] <= 1) {
		/* The common case: one function of that name on each side, wherever its file. */
		add_func(d, one[DIFF_BASE], one[DIFF_NEW], map, est);
		return;
	}
	for (i = 0; i < n; i = j) {
		for (j = i + 1; j < n && !strcmp(k[i].file_base, k[j].file_base); j++)
			;
		match_file_group(d, k + i, j - i, map, est);
	}
}

/* program_base: the base name of the program every dump of p ran, or NULL (none, or several). */
static const char *program_base(const struct profile *p)
{
	const char *base = NULL;

	for (size_t i = 0; i < p->nruns; i++) {
		const char *prog = p->runs[i]->program, *slash;

		if (!prog)
			return NULL;
		slash = strrchr(prog, '/');
		prog = slash ? slash + 1 : prog;
		if (base && strcmp(base, prog))
			return NULL;
		base = prog;
	}
	return base;
}

/*
 * module_key: what a function's module is called for matching.  The program
 * itself is one module on both sides even when it was renamed (prog-old,
 * prog-new), as long as each side ran one program.
 */
static const char *module_key(const struct pfunc *pf, const char *prog)
{
	if (prog && pf->module && !strcmp(pf->module, prog))
		return "\x01program";
	return or_empty(pf->module);
}

static void match_functions(struct diff *d, uint32_t **map, const struct side_est *est)
{
	size_t n = d->side[0].nfuncs + d->side[1].nfuncs, k = 0, i, j;
	struct fkey *keys = xmalloc((n + 1) * sizeof(*keys));
	const char *prog[2] = { program_base(&d->side[0]), program_base(&d->side[1]) };

	if (!prog[0] || !prog[1])
		prog[0] = prog[1] = NULL;
	for (uint32_t s = 0; s < 2; s++) {
		for (size_t fn = 0; fn < d->side[s].nfuncs; fn++) {
			const struct pfunc *pf = &d->side[s].funcs[fn];

			keys[k++] = (struct fkey){ .module = module_key(pf, prog[s]),
						   .name = pf->name,
						   .file_base = or_empty(pfunc_file_base(pf)),
						   .file = or_empty(pf->file),
						   .line = pf->line,
						   .offset = pf->offset,
						   .code = pf->code,
						   .has_offset = pf->has_offset,
						   .side = s,
						   .fn = (uint32_t)fn };
		}
	}
	qsort(keys, n, sizeof(*keys), cmp_fkey);
	d->funcs = xmalloc((n + 1) * sizeof(*d->funcs));
	for (i = 0; i < n; i = j) {
		for (j = i + 1; j < n && !cmp_fkey_name(&keys[i], &keys[j]); j++)
			;
		match_name_group(d, keys + i, j - i, map, est);
	}
	free(keys);
}

/* mark_same_names says how each function is told from others of its name (fnid_same_levels). */
static void mark_same_names(struct diff *d)
{
	struct fnid_show *v = xmalloc((d->nfuncs + 1) * sizeof(*v));
	int *level = xmalloc((d->nfuncs + 1) * sizeof(*level));

	for (size_t i = 0; i < d->nfuncs; i++)
		v[i] = (struct fnid_show){ d->funcs[i].name, d->funcs[i].file, d->funcs[i].line };
	fnid_same_levels(v, d->nfuncs, level);
	for (size_t i = 0; i < d->nfuncs; i++)
		d->funcs[i].same_name = level[i];
	free(level);
	free(v);
}

void diff_func_tell(struct buf *out, const struct diff_func *f)
{
	fnid_tell(out, f->same_name, f->module, f->file, f->line, f->has_offset, f->offset);
}

void diff_func_put_tell(struct buf *out, const struct diff_func *f,
			void (*put)(struct buf *, const char *))
{
	fnid_put_tell(out, put, f->same_name, f->module, f->file, f->line, f->has_offset,
		      f->offset);
}

/* ---- edges ---- */

static int cmp_ekey(const void *a, const void *b)
{
	const struct ekey *x = a, *y = b;

	if (x->caller != y->caller)
		return x->caller < y->caller ? -1 : 1;
	if (x->callee != y->callee)
		return x->callee < y->callee ? -1 : 1;
	return x->side < y->side ? -1 : x->side > y->side;
}

static void edge_add(struct diff_edge *e, const struct pedge *pe, const struct runs_fig *est,
		     uint32_t side)
{
	struct pstat st;

	set_figures(&st, est);
	e->est[side].calls = estimate_add(e->est[side].calls, est->calls);
	e->est[side].incl_ns = estimate_add(e->est[side].incl_ns, est->incl_ns);
	e->est[side].self_ns = estimate_add(e->est[side].self_ns, est->self_ns);
	e->st[side].calls = u64_add(e->st[side].calls, st.calls);
	e->st[side].incl_ns = u64_add(e->st[side].incl_ns, st.incl_ns);
	e->st[side].self_ns = u64_add(e->st[side].self_ns, st.self_ns);
	if ((pe->call_file || pe->site != PSITE_LINE) && (!e->call_file || side == DIFF_NEW)) {
		e->call_file = pe->call_file;
		e->call_line = pe->call_line;
		e->site = pe->site;
	}
}

/* match_edges: the edges of both sides, merged; they come out sorted by caller, then callee. */
static void match_edges(struct diff *d, uint32_t **map, const struct side_est *est)
{
	size_t n = d->side[0].nedges + d->side[1].nedges, k = 0;
	struct ekey *keys = xmalloc((n + 1) * sizeof(*keys));

	for (uint32_t s = 0; s < 2; s++) {
		for (size_t i = 0; i < d->side[s].nedges; i++) {
			const struct pedge *pe = &d->side[s].edges[i];

			keys[k++] = (struct ekey){ .caller = pe->caller >= 0
								     ? (int64_t)map[s][pe->caller]
								     : -1,
						   .callee = map[s][pe->callee],
						   .side = s,
						   .edge = (uint32_t)i };
		}
	}
	qsort(keys, n, sizeof(*keys), cmp_ekey);
	d->edges = xcalloc(n + 1, sizeof(*d->edges));
	for (size_t i = 0; i < n; i++) {
		struct diff_edge *e;

		if (!i || keys[i].caller != keys[i - 1].caller ||
		    keys[i].callee != keys[i - 1].callee) {
			e = &d->edges[d->nedges++];
			e->caller = (int32_t)keys[i].caller;
			e->callee = keys[i].callee;
		}
		e = &d->edges[d->nedges - 1];
		edge_add(e, &d->side[keys[i].side].edges[keys[i].edge],
			 &est[keys[i].side].edges[keys[i].edge], keys[i].side);
	}
	free(keys);
}

/* ---- orderings ---- */

static int cmp_func_change(const void *a, const void *b, void *ctx)
{
	const struct diff_func *f = ctx;
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	int c = diff_cmp_change(f[x].st, f[y].st);

	return c ? c : x < y ? -1 : x > y;
}

static int cmp_edge_change(const void *a, const void *b, void *ctx)
{
	const struct diff_edge *e = ctx;
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	int c = diff_cmp_change(e[x].st, e[y].st);

	return c ? c : x < y ? -1 : x > y;
}

static int cmp_edge_callee(const void *a, const void *b, void *ctx)
{
	const struct diff_edge *e = ctx;
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	if (e[x].callee != e[y].callee)
		return e[x].callee < e[y].callee ? -1 : 1;
	return cmp_edge_change(a, b, ctx);
}

static uint32_t *iota(size_t n)
{
	uint32_t *v = xmalloc((n + 1) * sizeof(*v));

	for (size_t i = 0; i < n; i++)
		v[i] = (uint32_t)i;
	return v;
}

/* group_edges: by_caller and by_callee, with each function's range in them. */
static void group_edges(struct diff *d)
{
	size_t i, j;

	/* The edges are sorted by caller already: sort each caller's run by change. */
	d->by_caller = iota(d->nedges);
	for (i = 0; i < d->nedges; i = j) {
		for (j = i + 1; j < d->nedges && d->edges[j].caller == d->edges[i].caller; j++)
			;
		qsort_r(d->by_caller + i, j - i, sizeof(*d->by_caller), cmp_edge_change, d->edges);
		if (d->edges[i].caller >= 0) {
			d->funcs[d->edges[i].caller].callees = i;
			d->funcs[d->edges[i].caller].ncallees = j - i;
		}
	}
	d->by_callee = iota(d->nedges);
	qsort_r(d->by_callee, d->nedges, sizeof(*d->by_callee), cmp_edge_callee, d->edges);
	for (i = 0; i < d->nedges; i = j) {
		uint32_t callee = d->edges[d->by_callee[i]].callee;

		for (j = i + 1; j < d->nedges && d->edges[d->by_callee[j]].callee == callee; j++)
			;
		d->funcs[callee].callers = i;
		d->funcs[callee].ncallers = j - i;
	}
}

/* side_estimates: the runs of side s and the figures of its typical run. */
static void side_estimates(struct diff *d, int s, const struct diff_input *in, struct side_est *est)
{
	const struct profile *p = &d->side[s];

	runs_plan_init(&d->plan[s], p->runs, p->nruns, in->dir_run);
	est->fns = xcalloc(p->nfuncs + 1, sizeof(*est->fns));
	est->edges = xcalloc(p->nedges + 1, sizeof(*est->edges));
	runs_typical(p, &d->plan[s], d->wall_clock, est->fns, est->edges, &d->runs[s]);
}

int diff_build(struct diff *d, const struct diff_input in[2], uint64_t min_ns, int wall_clock)
{
	uint32_t *map[2];
	struct side_est est[2];

	memset(d, 0, sizeof(*d));
	d->min_ns = min_ns;
	d->wall_clock = wall_clock;
	if (profile_build(&d->side[DIFF_BASE], in[DIFF_BASE].dumps, in[DIFF_BASE].ndumps) < 0)
		return -1;
	if (profile_build(&d->side[DIFF_NEW], in[DIFF_NEW].dumps, in[DIFF_NEW].ndumps) < 0) {
		profile_release(&d->side[DIFF_BASE]);
		return -1;
	}
	for (int s = 0; s < 2; s++) {
		map[s] = xmalloc((d->side[s].nfuncs + 1) * sizeof(*map[s]));
		side_estimates(d, s, &in[s], &est[s]);
	}
	match_functions(d, map, est);
	mark_same_names(d);
	match_edges(d, map, est);
	group_edges(d);
	d->order = iota(d->nfuncs);
	qsort_r(d->order, d->nfuncs, sizeof(*d->order), cmp_func_change, d->funcs);
	d->edge_order = iota(d->nedges);
	qsort_r(d->edge_order, d->nedges, sizeof(*d->edge_order), cmp_edge_change, d->edges);
	for (int s = 0; s < 2; s++) {
		free(map[s]);
		free(est[s].fns);
		free(est[s].edges);
	}
	return 0;
}

/* grows_past: after exceeds before by more than min, by more than pct percent, and beyond k noises. */
static int grows_past(struct estimate before, struct estimate after, double pct, double min,
		      double k)
{
	double b = before.value, a = after.value;

	if (!(a > b) || a - b <= min || !estimate_beyond_noise(before, after, k))
		return 0;
	return b <= 0 || 100.0 * (a - b) / b > pct;
}

/* growth: how much f grew, for ordering what tripped: time first, then calls. */
static double growth(const struct diff_func *f, int calls)
{
	const struct runs_fig *b = &f->est[DIFF_BASE], *n = &f->est[DIFF_NEW];

	return calls ? n->calls.value - b->calls.value : n->incl_ns.value - b->incl_ns.value;
}

static int cmp_growth(const void *a, const void *b, void *ctx)
{
	const struct diff_func *f = ctx;
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	double gx, gy;

	if (f[x].tripped != f[y].tripped)
		return f[x].tripped ? -1 : 1;
	gx = growth(&f[x], !f[x].tripped);
	gy = growth(&f[y], !f[y].tripped);
	if (gx != gy)
		return gx > gy ? -1 : 1;
	return x < y ? -1 : x > y;
}

/* list_tripped: every function that tripped a gate, time's first then calls', biggest growth first. */
static size_t list_tripped(struct diff *d)
{
	d->ntripped = 0;
	free(d->tripped);
	d->tripped = xmalloc((d->nfuncs + 1) * sizeof(*d->tripped));
	for (size_t i = 0; i < d->nfuncs; i++)
		if (d->funcs[i].tripped || d->funcs[i].tripped_calls)
			d->tripped[d->ntripped++] = (uint32_t)i;
	qsort_r(d->tripped, d->ntripped, sizeof(*d->tripped), cmp_growth, d->funcs);
	return d->ntripped;
}

static int both_sides(const struct diff_func *f)
{
	return f->fn[DIFF_BASE] >= 0 && f->fn[DIFF_NEW] >= 0;
}

/* gate_each marks the functions on both sides whose inclusive time (or calls) grew past the gate. */
static size_t gate_each(struct diff *d, int calls, double pct, double noise_k)
{
	d->noise_k = noise_k;
	for (size_t i = 0; i < d->nfuncs; i++) {
		struct diff_func *f = &d->funcs[i];
		const struct runs_fig *a = &f->est[DIFF_BASE], *b = &f->est[DIFF_NEW];

		if (calls) /* half a call: a median of two runs may fall between two counts */
			f->tripped_calls =
				both_sides(f) && grows_past(a->calls, b->calls, pct, 0.5, noise_k);
		else
			f->tripped = both_sides(f) && grows_past(a->incl_ns, b->incl_ns, pct,
								 (double)d->min_ns, noise_k);
	}
	return list_tripped(d);
}

size_t diff_gate(struct diff *d, double pct, double noise_k)
{
	d->gated = 1;
	d->fail_above_pct = pct;
	return gate_each(d, 0, pct, noise_k);
}

size_t diff_gate_calls(struct diff *d, double pct, double noise_k)
{
	d->gated_calls = 1;
	d->calls_above_pct = pct;
	return gate_each(d, 1, pct, noise_k);
}

double diff_noise_k(const struct diff *d)
{
	return d->noise_k > 0 ? d->noise_k : DIFF_NOISE_K;
}

void diff_release(struct diff *d)
{
	profile_release(&d->side[DIFF_BASE]);
	profile_release(&d->side[DIFF_NEW]);
	runs_plan_release(&d->plan[DIFF_BASE]);
	runs_plan_release(&d->plan[DIFF_NEW]);
	free(d->funcs);
	free(d->order);
	free(d->edges);
	free(d->edge_order);
	free(d->by_caller);
	free(d->by_callee);
	free(d->tripped);
	memset(d, 0, sizeof(*d));
}
