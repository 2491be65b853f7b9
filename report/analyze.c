/* analyze.c: merges dumps into one profile and derives what the pages show (see profile.h). */
#define _GNU_SOURCE
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "dump.h"
#include "fmt.h"
#include "fnid.h"
#include "keymap.h"
#include "profile.h"
#include "progress.h"

/* A map from string keys (owned) to an index, for matching functions by name. */
struct strmap {
	size_t mask;
	char **keys;
	uint32_t *vals;
	size_t n;
};

static uint64_t mix64(uint64_t x)
{
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ull;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebull;
	return x ^ (x >> 31);
}

static uint64_t str_hash(const char *s)
{
	uint64_t h = 1469598103934665603ull;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return mix64(h);
}

static void strmap_init(struct strmap *m, size_t expect)
{
	size_t cap = 16;

	while (cap < 2 * expect)
		cap *= 2;
	m->mask = cap - 1;
	m->keys = xcalloc(cap, sizeof(*m->keys));
	m->vals = xcalloc(cap, sizeof(*m->vals));
	m->n = 0;
}

static void strmap_release(struct strmap *m)
{
	for (size_t i = 0; i <= m->mask; i++)
		free(m->keys[i]);
	free(m->keys);
	free(m->vals);
}

static void strmap_grow(struct strmap *m)
{
	struct strmap old = *m;

	strmap_init(m, old.mask + 1);
	for (size_t i = 0; i <= old.mask; i++) {
		if (!old.keys[i])
			continue;
		size_t j = str_hash(old.keys[i]) & m->mask;
		while (m->keys[j])
			j = (j + 1) & m->mask;
		m->keys[j] = old.keys[i];
		m->vals[j] = old.vals[i];
	}
	m->n = old.n;
	free(old.keys);
	free(old.vals);
}

/* strmap_slot: the value stored for key, added as 0 (key copied) when absent. */
static uint32_t *strmap_slot(struct strmap *m, const char *key)
{
	size_t i;

	if (2 * (m->n + 1) > m->mask + 1)
		strmap_grow(m);
	for (i = str_hash(key) & m->mask; m->keys[i]; i = (i + 1) & m->mask)
		if (!strcmp(m->keys[i], key))
			return &m->vals[i];
	m->keys[i] = xstrdup(key);
	m->vals[i] = 0;
	m->n++;
	return &m->vals[i];
}

/* ---- figures ---- */

static const char *base_name(const char *path)
{
	const char *slash = path ? strrchr(path, '/') : NULL;
	return slash ? slash + 1 : path;
}

/* ---- matching functions across dumps ---- */

/* map_functions: fills map[d][i] with the profile function of dumps[d].functions[i] (fnid.h says which are one). */
static void map_functions(struct profile *p, const struct dump *dumps, uint32_t **map)
{
	struct strmap all;
	size_t total = 0, cap = 0;

	for (size_t d = 0; d < p->nruns; d++)
		total += dumps[d].nfunctions;
	strmap_init(&all, total);
	for (size_t d = 0; d < p->nruns; d++) {
		const struct dump *dump = &dumps[d];
		char **keys = fnid_keys(dump);

		map[d] = xmalloc((dump->nfunctions ? dump->nfunctions : 1) * sizeof(**map));
		for (size_t i = 0; i < dump->nfunctions; i++) {
			const struct dump_function *f = &dump->functions[i];
			const struct run_module *m =
				f->module >= 0 ? &dump->run.modules[f->module] : NULL;
			uint32_t idx, *slot = strmap_slot(&all, keys[i]);

			if (!*slot)
				*slot = (uint32_t)p->nfuncs + 1;
			idx = *slot - 1;
			map[d][i] = idx;
			if (idx < p->nfuncs && f->library)
				p->funcs[idx].library = 1;
			if (idx == p->nfuncs) {
				struct pfunc *pf;

				if (p->nfuncs == cap) {
					cap = cap ? 2 * cap : 256;
					p->funcs = xreallocarray(p->funcs, cap, sizeof(*p->funcs));
				}
				pf = memset(&p->funcs[p->nfuncs++], 0, sizeof(*pf));
				pf->name = f->name;
				pf->module = m ? base_name(m->path) : NULL;
				pf->mod = m;
				pf->file = f->file;
				pf->line = f->line;
				pf->library = f->library;
				pf->code = fnid_code(dump, i);
				pf->offset = f->offset;
				pf->has_offset = f->has_offset;
			}
			if (!p->funcs[idx].front_end)
				p->funcs[idx].front_end = f->front_end;
		}
		fnid_keys_free(keys, dump->nfunctions);
	}
	strmap_release(&all);
}

/* mark_same_names says how each function is told from others of its name (fnid_same_levels). */
static void mark_same_names(struct profile *p)
{
	struct fnid_show *v = xmalloc((p->nfuncs + 1) * sizeof(*v));
	int *level = xmalloc((p->nfuncs + 1) * sizeof(*level));

	for (size_t i = 0; i < p->nfuncs; i++)
		v[i] = (struct fnid_show){ p->funcs[i].name, p->funcs[i].file, p->funcs[i].line };
	fnid_same_levels(v, p->nfuncs, level);
	for (size_t i = 0; i < p->nfuncs; i++)
		p->funcs[i].same_name = level[i];
	free(level);
	free(v);
}

void pfunc_tell(struct buf *out, const struct pfunc *f)
{
	fnid_tell(out, f->same_name, f->module, f->file, f->line, f->has_offset, f->offset);
}

void pfunc_put_tell(struct buf *out, const struct pfunc *f, void (*put)(struct buf *, const char *))
{
	fnid_put_tell(out, put, f->same_name, f->module, f->file, f->line, f->has_offset,
		      f->offset);
}

const char *pfunc_file_base(const struct pfunc *f)
{
	return base_name(f->file);
}

/* ---- trees ---- */

static int cmp_nodes(const void *a, const void *b, void *ctx)
{
	const struct ptree *t = ctx;
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	uint64_t wx = ptree_weight(t, x), wy = ptree_weight(t, y);

	if (wx != wy)
		return wx > wy ? -1 : 1;
	if (t->nodes[x].fn != t->nodes[y].fn)
		return t->nodes[x].fn < t->nodes[y].fn ? -1 : 1;
	return x < y ? -1 : x > y;
}

/* A run that measured no time: its clock was off (CALLPROF_CLOCK=none), or stopped before
 * any call (the TSC forbidden at start), as `total`, its tree's time, says. */
static int run_untimed(const struct run *r, uint64_t total)
{
	return (r->clock_source && !strcmp(r->clock_source, "none")) ||
	       (r->has_clock_stopped && total == 0);
}

/* tree_index builds the children lists and the roots of t, heaviest first; a tree of `run`
 * that measured no time (or, with no run, a merged tree of untimed threads: `untimed`)
 * is weighed by calls. */
static void tree_index(struct ptree *t, const struct run *run, int untimed)
{
	size_t *cursor, i;
	uint64_t time_total = 0;

	t->kid_off = xcalloc(t->n + 1, sizeof(*t->kid_off));
	t->nroots = 0;
	for (i = 0; i < t->n; i++) {
		if (t->nodes[i].parent >= 0)
			t->kid_off[t->nodes[i].parent + 1]++;
		else
			t->nroots++, time_total = u64_add(time_total, t->nodes[i].incl_ns);
	}
	for (i = 0; i < t->n; i++)
		t->kid_off[i + 1] += t->kid_off[i];
	t->kids = xmalloc((t->kid_off[t->n] + 1) * sizeof(*t->kids));
	t->roots = xmalloc((t->nroots + 1) * sizeof(*t->roots));
	cursor = xmalloc((t->n + 1) * sizeof(*cursor));
	memcpy(cursor, t->kid_off, (t->n + 1) * sizeof(*cursor));
	t->nroots = 0;
	for (i = 0; i < t->n; i++) {
		if (t->nodes[i].parent >= 0)
			t->kids[cursor[t->nodes[i].parent]++] = (uint32_t)i;
		else
			t->roots[t->nroots++] = (uint32_t)i;
	}
	free(cursor);
	t->by_calls = run ? run_untimed(run, time_total) : untimed;
	t->sub_calls = xmalloc((t->n + 1) * sizeof(*t->sub_calls));
	for (i = 0; i < t->n; i++)
		t->sub_calls[i] = t->nodes[i].calls;
	for (i = t->n; i-- > 0;) /* children come after their parent */
		if (t->nodes[i].parent >= 0)
			t->sub_calls[t->nodes[i].parent] =
				u64_add(t->sub_calls[t->nodes[i].parent], t->sub_calls[i]);
	for (i = 0; i < t->n; i++)
		if (t->kid_off[i + 1] - t->kid_off[i] > 1)
			qsort_r(t->kids + t->kid_off[i], t->kid_off[i + 1] - t->kid_off[i],
				sizeof(*t->kids), cmp_nodes, t);
	qsort_r(t->roots, t->nroots, sizeof(*t->roots), cmp_nodes, t);
	t->total = 0;
	for (i = 0; i < t->nroots; i++)
		t->total = u64_add(t->total, ptree_weight(t, t->roots[i]));
}

static void *memdup(const void *src, size_t size)
{
	return memcpy(xmalloc(size), src, size);
}

static void tree_release(struct ptree *t)
{
	free(t->nodes);
	free(t->kid_off);
	free(t->kids);
	free(t->roots);
	free(t->sub_calls);
}

int64_t pnode_se(const struct pnode *n)
{
	return n->timed_calls < n->calls ? (int64_t)(sqrt(n->incl_var) + 0.5) : -1;
}

void profile_cpu_tree(const struct ptree *t, struct ptree *out)
{
	memset(out, 0, sizeof(*out));
	out->n = t->n;
	out->nodes = xmalloc((t->n + 1) * sizeof(*out->nodes));
	for (size_t i = 0; i < t->n; i++) {
		out->nodes[i] = t->nodes[i];
		out->nodes[i].incl_ns = out->nodes[i].self_ns = t->nodes[i].cpu_self_ns;
	}
	for (size_t i = t->n; i-- > 0;) /* children come after their parent */
		if (t->nodes[i].parent >= 0)
			out->nodes[t->nodes[i].parent].incl_ns = u64_add(
				out->nodes[t->nodes[i].parent].incl_ns, out->nodes[i].incl_ns);
	for (size_t i = 0; i < t->n; i++) {
		struct pnode *n = &out->nodes[i];

		n->cpu_ns = n->incl_ns;
		/* An estimate's CPU time is its wall time times an on-CPU share taken as exact:
		 * the same relative error. */
		if (t->nodes[i].incl_ns) {
			double share = (double)n->incl_ns / (double)t->nodes[i].incl_ns;

			n->incl_var *= share * share;
		}
	}
	tree_index(out, NULL, t->by_calls);
}

void profile_tree_release(struct ptree *t)
{
	tree_release(t);
	memset(t, 0, sizeof(*t));
}

/* merge_trees: the merged tree, each distinct path of functions one node. */
static void merge_trees(struct profile *p)
{
	struct ptree *m = &p->tree;
	struct keymap paths;
	size_t cap = 1024, expect = 0;
	int untimed;

	if (p->nthreads == 1) {
		/* One thread: the merged tree is a copy of that thread's tree, index and all. */
		const struct ptree *t = &p->threads[0].tree;

		*m = *t;
		m->nodes = memdup(t->nodes, (t->n + 1) * sizeof(*m->nodes));
		m->kid_off = memdup(t->kid_off, (t->n + 1) * sizeof(*m->kid_off));
		m->kids = memdup(t->kids, (t->kid_off[t->n] + 1) * sizeof(*m->kids));
		m->roots = memdup(t->roots, (t->nroots + 1) * sizeof(*m->roots));
		m->sub_calls = memdup(t->sub_calls, (t->n + 1) * sizeof(*m->sub_calls));
		return;
	}
	for (size_t i = 0; i < p->nthreads; i++)
		expect += p->threads[i].tree.n;
	keymap_init(&paths, expect);
	m->nodes = xmalloc(cap * sizeof(*m->nodes));
	for (size_t ti = 0; ti < p->nthreads; ti++) {
		const struct ptree *t = &p->threads[ti].tree;
		uint32_t *to = xmalloc((t->n + 1) * sizeof(*to)); /* thread node -> merged node */

		for (size_t i = 0; i < t->n; i++) {
			const struct pnode *n = &t->nodes[i];
			int64_t parent = n->parent >= 0 ? (int64_t)to[n->parent] : -1;
			uint64_t key = ((uint64_t)(parent + 1) << 32) | n->fn;
			uint32_t k = keymap_find_or_add(&paths, key, (uint32_t)m->n);

			if (k == m->n) {
				if (m->n == cap)
					m->nodes = xreallocarray(m->nodes, cap *= 2,
								 sizeof(*m->nodes));
				m->nodes[m->n++] =
					(struct pnode){ .parent = (int32_t)parent, .fn = n->fn };
			}
			m->nodes[k].calls = u64_add(m->nodes[k].calls, n->calls);
			m->nodes[k].incl_ns = u64_add(m->nodes[k].incl_ns, n->incl_ns);
			m->nodes[k].self_ns = u64_add(m->nodes[k].self_ns, n->self_ns);
			m->nodes[k].cpu_ns = u64_add(m->nodes[k].cpu_ns, n->cpu_ns);
			m->nodes[k].cpu_self_ns = u64_add(m->nodes[k].cpu_self_ns, n->cpu_self_ns);
			m->nodes[k].timed_calls = u64_add(m->nodes[k].timed_calls, n->timed_calls);
			m->nodes[k].incl_var += n->incl_var; /* estimates of separate runs add */
			to[i] = k;
		}
		free(to);
	}
	keymap_release(&paths);
	untimed = p->nthreads > 0;
	for (size_t ti = 0; ti < p->nthreads; ti++)
		untimed &= p->threads[ti].tree.by_calls;
	tree_index(m, NULL, untimed);
}

/* ---- threads ---- */

static int cmp_fstat_self(const void *a, const void *b)
{
	const struct pfstat *x = a, *y = b;

	if (x->st.self_ns != y->st.self_ns)
		return x->st.self_ns > y->st.self_ns ? -1 : 1;
	if (x->st.incl_ns != y->st.incl_ns)
		return x->st.incl_ns > y->st.incl_ns ? -1 : 1;
	if (x->st.calls != y->st.calls)
		return x->st.calls > y->st.calls ? -1 : 1;
	return x->fn < y->fn ? -1 : x->fn > y->fn;
}

static void build_thread(struct profile *p, struct pthread *pt, size_t d,
			 const struct dump_thread *t, const uint32_t *map)
{
	uint64_t self_total = 0, raw_total = 0;

	pt->run = d;
	pt->pid = t->has_pid ? t->pid : p->runs[d]->pid;
	p->processes |= p->nruns > 1 || t->has_pid;
	memcpy(pt->counters, t->counters, sizeof(pt->counters));
	pt->running = t->running;
	pt->tid = t->tid;
	pt->name = t->name;
	pt->wall_ns = t->wall_ns;
	pt->runq_wait_ns = t->runq_wait_ns;
	pt->has_wait = t->has_wait;
	pt->folded_first_fn = t->folded_first_fn >= 0 ? (int32_t)map[t->folded_first_fn] : -1;
	pt->nfuncs = t->nfuncs;
	pt->funcs = xmalloc((t->nfuncs + 1) * sizeof(*pt->funcs));
	for (size_t i = 0; i < t->nfuncs; i++) {
		pt->funcs[i].fn = map[t->funcs[i].fn];
		const struct pstat *st = &t->funcs[i].st;

		pt->funcs[i].st = *st;
		pt->calls = u64_add(pt->calls, st->calls);
		pt->cpu_run_ns = u64_add(pt->cpu_run_ns, st->cpu_self_ns);
		p->has_cpu |= st->has_cpu;
		self_total = u64_add(self_total, st->self_ns);
		raw_total = u64_add(raw_total, st->raw_self_ns);
		/* Without calibration.compensated, raw figures that differ tell the same. */
		if (p->runs[d]->compensated < 0 &&
		    (st->raw_self_ns != st->self_ns || st->raw_incl_ns != st->incl_ns))
			p->compensated = 1;
	}
	qsort(pt->funcs, pt->nfuncs, sizeof(*pt->funcs), cmp_fstat_self);
	pt->run_ns = self_total;
	pt->raw_run_ns = t->wall_ns > raw_total ? t->wall_ns : raw_total;
	pt->tree.n = t->nnodes;
	pt->tree.nodes = xmalloc((t->nnodes + 1) * sizeof(*pt->tree.nodes));
	for (size_t i = 0; i < t->nnodes; i++) {
		const struct dump_node *n = &t->nodes[i];

		pt->tree.nodes[i] =
			(struct pnode){ .parent = n->parent,
					.fn = map[n->fn],
					.calls = n->calls,
					.incl_ns = n->incl_ns,
					.self_ns = n->self_ns,
					.cpu_ns = n->cpu_ns,
					.cpu_self_ns = n->cpu_self_ns,
					.timed_calls = n->timed_calls,
					.incl_var = (double)n->incl_se_ns * (double)n->incl_se_ns };
	}
	tree_index(&pt->tree, p->runs[d], 0);
}

/* ---- edges ---- */

static enum psite site_kind(const char *site)
{
	if (site && !strcmp(site, "inlined"))
		return PSITE_INLINED;
	return site && !strcmp(site, "outside") ? PSITE_OUTSIDE : PSITE_LINE;
}

static void merge_edges(struct profile *p, const struct dump *dumps, uint32_t **map)
{
	struct keymap pairs;
	size_t cap = 256, th = 0;

	keymap_init(&pairs, 1024);
	p->edges = xmalloc(cap * sizeof(*p->edges));
	for (size_t d = 0; d < p->nruns; d++) {
		for (size_t ti = 0; ti < dumps[d].nthreads; ti++, th++) {
			const struct dump_thread *t = &dumps[d].threads[ti];
			struct pthread *pt = &p->threads[th];

			pt->nedges = t->nedges;
			pt->edges = xmalloc((t->nedges + 1) * sizeof(*pt->edges));
			for (size_t i = 0; i < t->nedges; i++) {
				const struct dump_edge *e = &t->edges[i];
				int64_t caller = e->caller >= 0 ? (int64_t)map[d][e->caller] : -1;
				uint32_t callee = map[d][e->callee];
				uint64_t key = ((uint64_t)(caller + 1) << 32) | callee;
				uint32_t k = keymap_find_or_add(&pairs, key, (uint32_t)p->nedges);

				if (k == p->nedges) {
					if (p->nedges == cap)
						p->edges = xreallocarray(p->edges, cap *= 2,
									 sizeof(*p->edges));
					p->edges[p->nedges++] =
						(struct pedge){ .caller = (int32_t)caller,
								.callee = callee,
								.call_file = e->call_file,
								.call_line = e->call_line,
								.site = site_kind(e->site) };
				}
				pt->edges[i] =
					(struct pfedge){ k, e->calls, e->incl_ns, e->self_ns };
				p->edges[k].calls = u64_add(p->edges[k].calls, e->calls);
				p->edges[k].incl_ns = u64_add(p->edges[k].incl_ns, e->incl_ns);
				p->edges[k].self_ns = u64_add(p->edges[k].self_ns, e->self_ns);
				p->edges[k].cpu_ns = u64_add(p->edges[k].cpu_ns, e->cpu_ns);
			}
		}
	}
	keymap_release(&pairs);
}

/* ---- grouping by function ---- */

static int cmp_edges(const void *a, const void *b, void *ctx)
{
	const struct pedge *e = ctx;
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	if (e[x].incl_ns != e[y].incl_ns)
		return e[x].incl_ns > e[y].incl_ns ? -1 : 1;
	if (e[x].calls != e[y].calls)
		return e[x].calls > e[y].calls ? -1 : 1;
	return x < y ? -1 : x > y;
}

/*
 * group: the items 0..n-1 with owner[i] >= 0, grouped by owner (a function
 * index) and sorted within a group by cmp; each function's range is stored
 * through its off/cnt fields (offsetof into struct pfunc).
 */
static uint32_t *group(struct profile *p, size_t n, const int64_t *owner, size_t off_field,
		       size_t cnt_field, int (*cmp)(const void *, const void *, void *), void *ctx)
{
	size_t *start = xcalloc(p->nfuncs + 1, sizeof(*start));
	uint32_t *out;
	size_t f, i;

	for (i = 0; i < n; i++)
		if (owner[i] >= 0)
			start[owner[i] + 1]++;
	for (f = 0; f < p->nfuncs; f++)
		start[f + 1] += start[f];
	out = xmalloc((start[p->nfuncs] + 1) * sizeof(*out));
	for (f = 0; f < p->nfuncs; f++) {
		*(size_t *)((char *)&p->funcs[f] + off_field) = start[f];
		*(size_t *)((char *)&p->funcs[f] + cnt_field) = 0;
	}
	for (i = 0; i < n; i++) {
		if (owner[i] < 0)
			continue;
		size_t *cnt = (size_t *)((char *)&p->funcs[owner[i]] + cnt_field);
		out[start[owner[i]] + (*cnt)++] = (uint32_t)i;
	}
	for (f = 0; f < p->nfuncs; f++)
		qsort_r(out + start[f], start[f + 1] - start[f], sizeof(*out), cmp, ctx);
	free(start);
	return out;
}

static void group_edges_and_nodes(struct profile *p)
{
	size_t n = p->nedges > p->tree.n ? p->nedges : p->tree.n;
	int64_t *owner = xmalloc((n + 1) * sizeof(*owner));

	for (size_t i = 0; i < p->nedges; i++)
		owner[i] = p->edges[i].caller;
	p->by_caller = group(p, p->nedges, owner, offsetof(struct pfunc, callees),
			     offsetof(struct pfunc, ncallees), cmp_edges, p->edges);
	for (size_t i = 0; i < p->nedges; i++)
		owner[i] = p->edges[i].callee;
	p->by_callee = group(p, p->nedges, owner, offsetof(struct pfunc, callers),
			     offsetof(struct pfunc, ncallers), cmp_edges, p->edges);
	for (size_t i = 0; i < p->tree.n; i++)
		owner[i] = p->tree.nodes[i].fn;
	p->fn_nodes = group(p, p->tree.n, owner, offsetof(struct pfunc, nodes),
			    offsetof(struct pfunc, nnodes), cmp_nodes, &p->tree);
	free(owner);
}

/* group_threads: fn_threads, each function's figures per thread, by self time (then thread order). */
static void group_threads(struct profile *p)
{
	size_t total = 0, f;
	size_t *cursor = xcalloc(p->nfuncs + 1, sizeof(*cursor));

	for (size_t t = 0; t < p->nthreads; t++)
		for (size_t i = 0; i < p->threads[t].nfuncs; i++)
			cursor[p->threads[t].funcs[i].fn + 1]++, total++;
	for (f = 0; f < p->nfuncs; f++) {
		cursor[f + 1] += cursor[f];
		p->funcs[f].threads = cursor[f];
		p->funcs[f].nthreads = cursor[f + 1] - cursor[f];
	}
	p->fn_threads = xmalloc((total + 1) * sizeof(*p->fn_threads));
	for (size_t t = 0; t < p->nthreads; t++) {
		for (size_t i = 0; i < p->threads[t].nfuncs; i++) {
			const struct pfstat *s = &p->threads[t].funcs[i];
			struct pfstat *to = &p->fn_threads[cursor[s->fn]++];

			to->fn = (uint32_t)t;
			to->st = s->st;
			pstat_add(&p->funcs[s->fn].st, &s->st);
		}
	}
	for (f = 0; f < p->nfuncs; f++)
		if (p->funcs[f].nthreads > 1)
			qsort(p->fn_threads + p->funcs[f].threads, p->funcs[f].nthreads,
			      sizeof(*p->fn_threads), cmp_fstat_self);
	free(cursor);
}

/* ---- orderings and totals ---- */

static int cmp_fn_self(const void *a, const void *b, void *ctx)
{
	const struct pfunc *f = ctx;
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	if (f[x].st.self_ns != f[y].st.self_ns)
		return f[x].st.self_ns > f[y].st.self_ns ? -1 : 1;
	if (f[x].st.incl_ns != f[y].st.incl_ns)
		return f[x].st.incl_ns > f[y].st.incl_ns ? -1 : 1;
	if (f[x].st.calls != f[y].st.calls)
		return f[x].st.calls > f[y].st.calls ? -1 : 1;
	return x < y ? -1 : x > y;
}

static int cmp_fn_incl(const void *a, const void *b, void *ctx)
{
	const struct pfunc *f = ctx;
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	if (f[x].st.incl_ns != f[y].st.incl_ns)
		return f[x].st.incl_ns > f[y].st.incl_ns ? -1 : 1;
	return cmp_fn_self(a, b, ctx);
}

/* The functions a and b point at, most `key` first, then as by_self. */
static int cmp_key_then_self(const void *a, const void *b, void *ctx,
			     uint64_t (*key)(const struct pstat *))
{
	const struct pfunc *f = ctx;
	uint64_t vx = key(&f[*(const uint32_t *)a].st), vy = key(&f[*(const uint32_t *)b].st);

	return vx != vy ? (vx > vy ? -1 : 1) : cmp_fn_self(a, b, ctx);
}

static uint64_t cpu_self_of(const struct pstat *st)
{
	return st->cpu_self_ns;
}

static int cmp_fn_cpu_self(const void *a, const void *b, void *ctx)
{
	return cmp_key_then_self(a, b, ctx, cpu_self_of);
}

static int cmp_fn_off_cpu_self(const void *a, const void *b, void *ctx)
{
	return cmp_key_then_self(a, b, ctx, pstat_off_cpu_self);
}

/* The functions in order by `cmp`, a new array. */
static uint32_t *ordered(const struct profile *p, int (*cmp)(const void *, const void *, void *))
{
	uint32_t *order = xmalloc((p->nfuncs + 1) * sizeof(*order));

	for (size_t i = 0; i < p->nfuncs; i++)
		order[i] = (uint32_t)i;
	qsort_r(order, p->nfuncs, sizeof(*order), cmp, p->funcs);
	return order;
}

static void order_functions(struct profile *p)
{
	p->by_self = ordered(p, cmp_fn_self);
	p->by_incl = ordered(p, cmp_fn_incl);
	if (p->has_cpu) {
		p->by_cpu_self = ordered(p, cmp_fn_cpu_self);
		p->by_off_cpu_self = ordered(p, cmp_fn_off_cpu_self);
	}
}

/* How many of a dump's calls read the clock with fences (tsc-adaptive), were
 * the -pg -mfentry front-end's, were followed by a library probe, or were
 * counted without a time of their own. */
static void dump_kind_calls(const struct dump *dump, uint64_t *fenced, uint64_t *fentry,
			    uint64_t *library, uint64_t *counted)
{
	*fenced = *fentry = *library = *counted = 0;
	for (size_t i = 0; i < dump->nthreads; i++)
		for (size_t k = 0; k < dump->threads[i].nfuncs; k++) {
			const struct pstat *st = &dump->threads[i].funcs[k].st;
			*fenced = u64_add(*fenced, st->fenced_calls);
			*fentry = u64_add(*fentry, st->fentry_calls);
			*library = u64_add(*library, st->library_calls);
			*counted = u64_add(*counted, st->counted_calls);
		}
}

/* What the probes of a dump's unrecorded calls cost (taken out of their callers' times). */
static double dump_unrecorded_ns(const struct dump *dump)
{
	double ns = 0;

	for (unsigned k = 0; k < UNREC_KINDS; k++)
		if ((dump->run.has_unrecorded >> k) & 1)
			ns += (double)dump_unrecorded_calls(dump, k) * dump->run.unrecorded_ns[k];
	return ns;
}

static int cmp_modules(const void *a, const void *b)
{
	const struct pmodule *x = a, *y = b;

	if (x->self_ns != y->self_ns)
		return x->self_ns > y->self_ns ? -1 : 1;
	if (!x->name || !y->name)
		return !x->name - !y->name;
	return strcmp(x->name, y->name);
}

/* The functions added up per module (base name), heaviest first. */
static void group_modules(struct profile *p)
{
	struct strmap ids;

	strmap_init(&ids, 16);
	p->modules = xcalloc(p->nfuncs + 1, sizeof(*p->modules));
	for (size_t i = 0; i < p->nfuncs; i++) {
		const struct pfunc *f = &p->funcs[i];
		uint32_t *slot = strmap_slot(&ids, f->module ? f->module : "");
		struct pmodule *m;

		if (!*slot) {
			*slot = (uint32_t)++p->nmodules;
			p->modules[*slot - 1] = (struct pmodule){ .name = f->module, .library = 1 };
		}
		m = &p->modules[*slot - 1];
		m->self_ns = u64_add(m->self_ns, f->st.self_ns);
		m->calls = u64_add(m->calls, f->st.calls);
		m->nfuncs++;
		if (!f->library)
			m->library = 0;
	}
	qsort(p->modules, p->nmodules, sizeof(*p->modules), cmp_modules);
	strmap_release(&ids);
}

static void totals(struct profile *p, const struct dump *dumps)
{
	size_t t = 0;
	double o_in = 0, calls_with_cost = 0, plain_ns = 0, fenced_ns = 0, fenced_calls = 0;
	double library_ns = 0, library_calls = 0;
	double fentry_ns = 0, fentry_calls = 0, fentry_o_in = 0, unrecorded_ns = 0;

	p->library_probes = -1;
	for (size_t d = 0; d < p->nruns; d++) {
		const struct dump *dump = &dumps[d];
		const struct run *run = &dump->run;
		uint64_t calls = 0, fenced, fentry, lib, counted;

		if (run->library_probes)
			p->library_probes =
				!strcmp(run->library_probes, "on") || p->library_probes == 1;
		double cost;

		for (size_t i = 0; i < dump->nthreads; i++, t++) {
			calls = u64_add(calls, p->threads[t].calls);
			p->run_ns = u64_add(p->run_ns, p->threads[t].run_ns);
			p->cpu_run_ns = u64_add(p->cpu_run_ns, p->threads[t].cpu_run_ns);
			p->raw_run_ns = u64_add(p->raw_run_ns, p->threads[t].raw_run_ns);
		}
		p->calls = u64_add(p->calls, calls);
		dump_kind_calls(dump, &fenced, &fentry, &lib, &counted);
		p->library_calls = u64_add(p->library_calls, lib);
		p->clamped = u64_add(p->clamped, run->clamped_figures);
		if (run->compensated > 0)
			p->compensated = 1;
		if (run->wall_ns > p->wall_ns)
			p->wall_ns = run->wall_ns;
		if (run->has_o_in && run->has_o_out)
			cost = run->o_in_ns + run->o_out_ns;
		else if (run->has_per_call)
			cost = run->per_call_ns;
		else
			continue;
		p->has_overhead = 1;
		calls_with_cost += (double)calls;
		plain_ns += (double)calls * cost;
		if (run->has_o_in)
			o_in += (double)calls * run->o_in_ns;
		dump_kind_calls(dump, &fenced, &fentry, &lib, &counted);
		if (run->has_fenced_o_in && run->has_fenced_o_out) {
			/* tsc-adaptive: its fenced calls cost their own figure, not the plain one */
			fenced_calls += (double)fenced;
			fenced_ns += (double)fenced *
				     (run->fenced_o_in_ns + run->fenced_o_out_ns - cost);
		}
		if (run->has_fentry_o_in && run->has_fentry_o_out) {
			/* -pg -mfentry: its calls cost their own figure too */
			fentry_calls += (double)fentry;
			fentry_ns += (double)fentry *
				     (run->fentry_o_in_ns + run->fentry_o_out_ns - cost);
			fentry_o_in += (double)fentry * run->fentry_o_in_ns;
		}
		if (run->has_library_o_in &&
		    run->has_library_o_out) { /* the same for library calls */
			library_calls += (double)lib;
			library_ns +=
				(double)lib * (run->library_o_in_ns + run->library_o_out_ns - cost);
		}
		plain_ns -=
			(double)counted * cost; /* counted without a time: nothing was subtracted */
		if (run->has_untimed) /* sampled timing: calls that read no clock cost less */
			plain_ns += (double)dump_untimed_calls(dump) * (run->untimed_ns - cost);
		unrecorded_ns += dump_unrecorded_ns(dump);
	}
	p->overhead_ns = plain_ns + fenced_ns + fentry_ns + library_ns + unrecorded_ns;
	if (p->overhead_ns < 0)
		p->overhead_ns = 0;
	/* Absurd calibration figures must not overflow the conversions to whole nanoseconds. */
	if (p->overhead_ns > PROFILE_MAX_NS)
		p->overhead_ns = PROFILE_MAX_NS;
	if (calls_with_cost > 0) {
		p->probe_ns = plain_ns / calls_with_cost;
		p->o_in_ns =
			o_in / calls_with_cost < p->probe_ns ? o_in / calls_with_cost : p->probe_ns;
	}
	if (fenced_calls > 0)
		p->fenced_probe_ns = p->probe_ns + fenced_ns / fenced_calls;
	if (library_calls > 0)
		p->library_probe_ns = p->probe_ns + library_ns / library_calls;
	if (fentry_calls > 0) {
		p->fentry_probe_ns = p->probe_ns + fentry_ns / fentry_calls;
		p->fentry_o_in_ns = fentry_o_in / fentry_calls;
	}
}

int profile_build(struct profile *p, const struct dump *dumps, size_t ndumps)
{
	uint32_t **map = xcalloc(ndumps, sizeof(*map));
	size_t t = 0, nthreads = 0, nfuncs = 0, nnodes = 0;
	char a[FMT_SIZE], b[FMT_SIZE];

	memset(p, 0, sizeof(*p));
	p->runs = xmalloc((ndumps + 1) * sizeof(*p->runs));
	p->nruns = ndumps;
	for (size_t d = 0; d < ndumps; d++)
		p->runs[d] = &dumps[d].run;
	for (size_t d = 0; d < ndumps; d++) {
		nthreads += dumps[d].nthreads;
		nfuncs += dumps[d].nfunctions;
		for (size_t i = 0; i < dumps[d].nthreads; i++)
			nnodes += dumps[d].threads[i].nnodes;
	}
	/* Indices are 32 bits (a tree node is 48 bytes: 2^31 of them would not fit anyway). */
	if (nfuncs >= INT32_MAX || nnodes >= INT32_MAX) {
		fprintf(stderr,
			"callprof: the dumps are too large to merge (%zu functions, %zu tree "
			"nodes)\n",
			nfuncs, nnodes);
		free(map);
		profile_release(p);
		return -1;
	}
	progress_note("analysing %s functions, %s call paths", fmt_count(a, nfuncs),
		      fmt_count(b, nnodes));
	map_functions(p, dumps, map);
	mark_same_names(p);
	p->threads = xcalloc(nthreads, sizeof(*p->threads));
	p->nthreads = nthreads;
	for (size_t d = 0; d < ndumps; d++)
		for (size_t i = 0; i < dumps[d].nthreads; i++)
			build_thread(p, &p->threads[t++], d, &dumps[d].threads[i], map[d]);
	merge_edges(p, dumps, map);
	merge_trees(p);
	group_threads(p);
	group_edges_and_nodes(p);
	order_functions(p);
	group_modules(p);
	profile_args(p, dumps, map);
	totals(p, dumps);
	for (size_t d = 0; d < ndumps; d++)
		free(map[d]);
	free(map);
	progress_end();
	return 0;
}

void profile_release(struct profile *p)
{
	profile_args_release(p);
	free(p->runs);
	free(p->funcs);
	free(p->by_self);
	free(p->by_incl);
	free(p->by_cpu_self);
	free(p->by_off_cpu_self);
	free(p->modules);
	free(p->edges);
	free(p->by_caller);
	free(p->by_callee);
	free(p->fn_nodes);
	free(p->fn_threads);
	for (size_t i = 0; i < p->nthreads; i++) {
		free(p->threads[i].funcs);
		free(p->threads[i].edges);
		tree_release(&p->threads[i].tree);
	}
	free(p->threads);
	tree_release(&p->tree);
	memset(p, 0, sizeof(*p));
}
