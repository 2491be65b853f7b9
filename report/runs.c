/* runs.c: which dumps make a run and which runs repeat a workload, and the figures of a typical
 * run: medians over repeats, with their standard errors (see runs.h). */
#define _GNU_SOURCE
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "runs.h"

/* ---- the plan ---- */

/* A run's workload key: "\x01" for run directories, else its command line. */
static char *workload_key(const struct run *r, int dir)
{
	struct buf key = BUF_INIT;
	const char *prog = r->program ? r->program : r->argc ? r->argv[0] : "";
	const char *slash = strrchr(prog, '/');

	if (dir) {
		buf_puts(&key, "\x01");
		return buf_detach(&key, NULL);
	}
	buf_puts(&key, slash ? slash + 1 : prog);
	for (size_t i = 1; i < r->argc; i++) {
		buf_putc(&key, '\0');
		buf_puts(&key, r->argv[i]);
	}
	/* Arguments end in NULs: escape them so the key is one C string that still tells them apart. */
	for (size_t i = 0; i < key.len; i++)
		if (!key.data[i])
			key.data[i] = '\x1f';
	return buf_detach(&key, NULL);
}

void runs_plan_init(struct runs_plan *pl, const struct run *const *runs, size_t n,
		    const int64_t *dir_run)
{
	int64_t ndirs = 0;
	char **keys;
	uint32_t *order;

	memset(pl, 0, sizeof(*pl));
	pl->ndumps = n;
	pl->run_of = xmalloc((n + 1) * sizeof(*pl->run_of));
	for (size_t i = 0; dir_run && i < n; i++)
		if (dir_run[i] + 1 > ndirs)
			ndirs = dir_run[i] + 1;
	pl->nruns = (size_t)ndirs;
	for (size_t i = 0; i < n; i++)
		pl->run_of[i] =
			dir_run && dir_run[i] >= 0 ? (uint32_t)dir_run[i] : (uint32_t)pl->nruns++;
	/* Each run's key from its first dump; a run directory's is the same for all. */
	keys = xcalloc(pl->nruns + 1, sizeof(*keys));
	for (size_t i = 0; i < n; i++)
		if (!keys[pl->run_of[i]])
			keys[pl->run_of[i]] = workload_key(runs[i], dir_run && dir_run[i] >= 0);
	for (size_t r = 0; r < pl->nruns; r++)
		if (!keys[r])
			keys[r] =
				xstrdup("\x01"); /* a directory numbered but empty: never happens */
	order = str_order(keys, pl->nruns);
	pl->group_of = xmalloc((pl->nruns + 1) * sizeof(*pl->group_of));
	for (size_t k = 0; k < pl->nruns; k++) {
		if (k && strcmp(keys[order[k]], keys[order[k - 1]]))
			pl->ngroups++;
		pl->group_of[order[k]] = (uint32_t)pl->ngroups;
	}
	if (pl->nruns)
		pl->ngroups++;
	for (size_t r = 0; r < pl->nruns; r++)
		free(keys[r]);
	free(keys);
	free(order);
}

void runs_plan_release(struct runs_plan *pl)
{
	free(pl->run_of);
	free(pl->group_of);
	memset(pl, 0, sizeof(*pl));
}

uint64_t runs_round(struct estimate e)
{
	if (!(e.value > 0))
		return 0;
	return e.value < PROFILE_MAX_NS ? (uint64_t)llround(e.value) : (uint64_t)PROFILE_MAX_NS;
}

/* ---- per run ---- */

/* One item's (a function's, an edge's) figures in one run, time scaled. */
struct cell {
	uint32_t item;
	uint32_t run;
	double calls, incl_ns, self_ns;
	double incl_doubt_ns,
		self_doubt_ns; /* how far off the wait taken out may be (wait_doubt), and a
				* sampled timing estimate's own standard error */
};

/*
 * The wait for a CPU taken out of a figure is spread over the thread's time
 * as if it fell evenly (time_factor), but a loaded machine preempts a thread
 * a few times a run, a scheduling slice (about 4 ms) each, inside whatever
 * runs then: a probe's own code, counted in the caller, as often as the
 * function.  A figure from which `removed` was taken may then be off by about
 * the square root of removed slices' worth, sqrt(removed * slice): its doubt,
 * added to the noise of the median of its runs as an error that more runs do
 * not shrink.  A side whose runs did not wait has none (docs/ci.md).
 */
#define WAIT_SLICE_NS 4e6

static double wait_doubt(double measured, double factor)
{
	double removed = measured * (1.0 - factor);

	return removed > 0 ? sqrt(removed * WAIT_SLICE_NS) : 0;
}

static int cmp_cell(const void *a, const void *b, void *ctx)
{
	const struct cell *x = a, *y = b;
	const uint32_t *group_of = ctx;

	if (x->item != y->item)
		return x->item < y->item ? -1 : 1;
	if (group_of[x->run] != group_of[y->run])
		return group_of[x->run] < group_of[y->run] ? -1 : 1;
	return x->run < y->run ? -1 : x->run > y->run;
}

/* A growable list of cells. */
struct cells {
	struct cell *v;
	size_t n, cap;
};

static void cells_add(struct cells *c, struct cell x)
{
	if (c->n == c->cap)
		c->v = xreallocarray(c->v, c->cap = c->cap ? 2 * c->cap : 1024, sizeof(*c->v));
	c->v[c->n++] = x;
}

/*
 * time_factor: what is left of thread t's times once its wait for a CPU is
 * taken out (1 if unknown or wall_clock).  The wait is spread over the wall
 * time as it was measured, probes included, so a figure of raw time r holds
 * wait * r / wall of it; compensation took the probes out of the figures but
 * not the wait, so of a compensated figure x, whose raw time is about x *
 * raw / run on this thread (raw: its summed raw self times; run: the same
 * compensated), wait * raw / (wall * run) goes.  Without probes to speak of,
 * that is the thread's share of wall time not waited.  Example: jq's 100
 * million calls cost 1.8 s of probes beside its 0.2 s of work; waiting 2.5 s
 * of a 4.5 s run, its 2.7 s compensated come back to 0.2 s, where taking out
 * the wait's share of the wall time (55%) would leave 1.2 s.
 */
static double time_factor(const struct pthread *t, int wall_clock)
{
	uint64_t wait, raw = 0;
	double f;

	if (wall_clock || !t->has_wait || !t->wall_ns || !t->run_ns)
		return 1.0;
	for (size_t i = 0; i < t->nfuncs; i++)
		raw = u64_add(raw, t->funcs[i].st.raw_self_ns);
	if (raw < t->run_ns)
		raw = t->run_ns;
	wait = t->runq_wait_ns < t->wall_ns ? t->runq_wait_ns : t->wall_ns;
	f = 1.0 - (double)wait / (double)t->wall_ns * ((double)raw / (double)t->run_ns);
	return f > 0 ? f : 0;
}

/* sorted_cells: every item's figures per run, one cell per (item, run), sorted by item, workload, run. */
static void sorted_cells(struct cells *c, const struct runs_plan *pl)
{
	size_t k = 0;

	qsort_r(c->v, c->n, sizeof(*c->v), cmp_cell, pl->group_of);
	for (size_t i = 0; i < c->n; i++) {
		if (k && c->v[k - 1].item == c->v[i].item && c->v[k - 1].run == c->v[i].run) {
			c->v[k - 1].calls += c->v[i].calls;
			c->v[k - 1].incl_ns += c->v[i].incl_ns;
			c->v[k - 1].self_ns += c->v[i].self_ns;
			c->v[k - 1].incl_doubt_ns += c->v[i].incl_doubt_ns;
			c->v[k - 1].self_doubt_ns += c->v[i].self_doubt_ns;
		} else {
			c->v[k++] = c->v[i];
		}
	}
	c->n = k;
}

/* ---- estimates ---- */

/* Scratch space for one workload's values: one slot per run. */
struct scratch {
	double *calls, *incl, *self;
	size_t cap;
};

static void scratch_fit(struct scratch *s, size_t n)
{
	if (n <= s->cap)
		return;
	s->cap = n;
	s->calls = xreallocarray(s->calls, n, sizeof(double));
	s->incl = xreallocarray(s->incl, n, sizeof(double));
	s->self = xreallocarray(s->self, n, sizeof(double));
}

/* runs_in_group: how many runs each workload has, and the runs in workload order. */
struct groups {
	size_t *n;              /* runs per workload */
	uint32_t *slot;         /* slot[run]: its place among its workload's runs */
	struct estimate *floor; /* per workload: the noise of the whole run's time */
};

static void groups_init(struct groups *g, const struct runs_plan *pl)
{
	g->n = xcalloc(pl->ngroups + 1, sizeof(*g->n));
	g->slot = xmalloc((pl->nruns + 1) * sizeof(*g->slot));
	g->floor = xcalloc(pl->ngroups + 1, sizeof(*g->floor));
	for (size_t r = 0; r < pl->nruns; r++)
		g->slot[r] = (uint32_t)g->n[pl->group_of[r]]++;
}

static void groups_release(struct groups *g)
{
	free(g->n);
	free(g->slot);
	free(g->floor);
}

/*
 * estimate_items: out[item] for every item from the sorted cells: per
 * workload the median over its runs (0 where absent), added up.  With floor
 * set, a time's standard error in a workload is at least that workload's
 * whole-run error (g->floor).
 */
static void estimate_items(const struct cells *c, const struct runs_plan *pl, struct groups *g,
			   int floor, struct runs_fig *out, size_t nitems, struct scratch *s)
{
	memset(out, 0, nitems * sizeof(*out));
	for (size_t i = 0, j; i < c->n; i = j) {
		uint32_t item = c->v[i].item, grp = pl->group_of[c->v[i].run];
		size_t n = g->n[grp];
		double incl_doubt = 0, self_doubt = 0;
		struct runs_fig f;

		for (j = i; j < c->n && c->v[j].item == item && pl->group_of[c->v[j].run] == grp;
		     j++)
			;
		scratch_fit(s, n);
		memset(s->calls, 0, n * sizeof(double));
		memset(s->incl, 0, n * sizeof(double));
		memset(s->self, 0, n * sizeof(double));
		for (size_t k = i; k < j; k++) {
			uint32_t at = g->slot[c->v[k].run];

			s->calls[at] = c->v[k].calls;
			s->incl[at] = c->v[k].incl_ns;
			s->self[at] = c->v[k].self_ns;
			incl_doubt += c->v[k].incl_doubt_ns / (double)n;
			self_doubt += c->v[k].self_doubt_ns / (double)n;
		}
		f.calls = estimate_of(s->calls, n, NULL);
		f.incl_ns = estimate_of(s->incl, n, NULL);
		f.self_ns = estimate_of(s->self, n, NULL);
		f.incl_ns.se = hypot(f.incl_ns.se, incl_doubt);
		f.self_ns.se = hypot(f.self_ns.se, self_doubt);
		if (floor) {
			f.incl_ns.se = fmax(f.incl_ns.se, g->floor[grp].se);
			f.self_ns.se = fmax(f.self_ns.se, g->floor[grp].se);
		}
		out[item].calls = estimate_add(out[item].calls, f.calls);
		out[item].incl_ns = estimate_add(out[item].incl_ns, f.incl_ns);
		out[item].self_ns = estimate_add(out[item].self_ns, f.self_ns);
	}
}

/* side_totals: the whole run's figures (item = its workload), which also give each workload's floor. */
static void side_totals(const struct profile *p, const struct runs_plan *pl, int wall_clock,
			struct groups *g, struct runs_side *side, struct scratch *s)
{
	struct cells c = { NULL, 0, 0 }, walls = { NULL, 0, 0 };
	struct runs_fig *per_group = xcalloc(pl->ngroups + 1, sizeof(*per_group));

	for (size_t t = 0; t < p->nthreads; t++) {
		const struct pthread *th = &p->threads[t];
		uint32_t run = pl->run_of[th->run];
		double f = time_factor(th, wall_clock);

		cells_add(&c, (struct cell){ pl->group_of[run], run, (double)th->calls,
					     f * (double)th->run_ns, f * (double)th->run_ns, 0,
					     0 }); /* the floor: the runs' spread alone */
		side->nthreads++;
		if (th->has_wait) {
			side->nwait_threads++;
			side->wall_sum_ns = u64_add(side->wall_sum_ns, th->wall_ns);
			side->wait_sum_ns = u64_add(
				side->wait_sum_ns,
				th->runq_wait_ns < th->wall_ns ? th->runq_wait_ns : th->wall_ns);
		}
	}
	for (size_t d = 0; d < p->nruns; d++) {
		uint32_t run = pl->run_of[d];

		cells_add(&walls, (struct cell){ pl->group_of[run], run, 0,
						 (double)p->runs[d]->wall_ns, 0, 0, 0 });
	}
	sorted_cells(&c, pl);
	sorted_cells(&walls, pl);
	estimate_items(&c, pl, g, 0, per_group, pl->ngroups, s);
	memset(&side->total, 0, sizeof(side->total));
	for (size_t k = 0; k < pl->ngroups; k++) {
		g->floor[k] = per_group[k].self_ns;
		side->total.calls = estimate_add(side->total.calls, per_group[k].calls);
		side->total.incl_ns = estimate_add(side->total.incl_ns, per_group[k].incl_ns);
		side->total.self_ns = estimate_add(side->total.self_ns, per_group[k].self_ns);
	}
	side->wall_ns = (struct estimate){ 0, 0 };
	estimate_items(&walls, pl, g, 0, per_group, pl->ngroups, s);
	for (size_t k = 0; k < pl->ngroups; k++)
		side->wall_ns = estimate_add(side->wall_ns, per_group[k].incl_ns);
	free(per_group);
	free(c.v);
	free(walls.v);
}

void runs_typical(const struct profile *p, const struct runs_plan *pl, int wall_clock,
		  struct runs_fig *fns, struct runs_fig *edges, struct runs_side *side)
{
	struct cells c = { NULL, 0, 0 };
	struct scratch s = { NULL, NULL, NULL, 0 };
	struct groups g;

	memset(side, 0, sizeof(*side));
	groups_init(&g, pl);
	side_totals(p, pl, wall_clock, &g, side, &s);
	for (size_t t = 0; t < p->nthreads; t++) {
		const struct pthread *th = &p->threads[t];
		uint32_t run = pl->run_of[th->run];
		double f = time_factor(th, wall_clock);

		for (size_t i = 0; i < th->nfuncs; i++) {
			const struct pstat *st = &th->funcs[i].st;

			cells_add(&c,
				  (struct cell){ th->funcs[i].fn, run, (double)st->calls,
						 f * (double)st->incl_ns, f * (double)st->self_ns,
						 hypot(wait_doubt((double)st->incl_ns, f),
						       f * (double)st->incl_se_ns),
						 hypot(wait_doubt((double)st->self_ns, f),
						       f * (double)st->self_se_ns) });
		}
	}
	sorted_cells(&c, pl);
	estimate_items(&c, pl, &g, 1, fns, p->nfuncs, &s);
	c.n = 0;
	for (size_t t = 0; t < p->nthreads; t++) {
		const struct pthread *th = &p->threads[t];
		uint32_t run = pl->run_of[th->run];
		double f = time_factor(th, wall_clock);

		for (size_t i = 0; i < th->nedges; i++) {
			const struct pfedge *e = &th->edges[i];

			cells_add(&c, (struct cell){ e->edge, run, (double)e->calls,
						     f * (double)e->incl_ns, f * (double)e->self_ns,
						     wait_doubt((double)e->incl_ns, f),
						     wait_doubt((double)e->self_ns, f) });
		}
	}
	sorted_cells(&c, pl);
	estimate_items(&c, pl, &g, 1, edges, p->nedges, &s);
	free(c.v);
	free(s.calls);
	free(s.incl);
	free(s.self);
	groups_release(&g);
}
