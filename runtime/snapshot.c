/* snapshot.c: reading every thread's tree for a dump, and the per-function and per-edge totals. */
#include "snapshot.h"

#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "schedstat.h"
#include "shadow.h"

static uint64_t mix64(uint64_t k)
{
	k ^= k >> 33;
	k *= 0xff51afd7ed558ccdull;
	k ^= k >> 33;
	return k;
}

static int idmap_grow(struct snap_idmap *m)
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
static int64_t idmap_get(struct snap_idmap *m, uint64_t key, uint32_t next, bool *added)
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
static int64_t idmap_find(const struct snap_idmap *m, uint64_t key)
{
	if (!m->keys)
		return -1;
	for (size_t i = mix64(key + 1) & m->mask; m->keys[i]; i = (i + 1) & m->mask)
		if (m->keys[i] == key + 1)
			return m->vals[i];
	return -1;
}

static void idmap_release(struct snap_idmap *m)
{
	free(m->keys);
	free(m->vals);
	memset(m, 0, sizeof(*m));
}

static int64_t fn_id(struct snapshot *s, uintptr_t key)
{
	bool added;
	int64_t id = idmap_get(&s->fn_ids, key, (uint32_t)s->nfns, &added);

	if (id < 0 || !added)
		return id;
	if (s->nfns == s->fn_cap) {
		size_t cap = s->fn_cap ? s->fn_cap * 2 : 256;
		uintptr_t *a = realloc(s->fn_key, cap * sizeof(*a));
		if (!a)
			return -1;
		s->fn_key = a;
		s->fn_cap = cap;
	}
	s->fn_key[s->nfns++] = key;
	return id;
}

int64_t snapshot_fn_id(const struct snapshot *s, uintptr_t key)
{
	return idmap_find(&s->fn_ids, key);
}

/* Lists the thread's nodes in preorder with their raw figures, as they are now. */
static struct snap_row *thread_rows(struct snapshot *s, const struct tstate *t, size_t *count)
{
	size_t n = 0, cap = 1024;
	struct snap_row *rows = malloc(cap * sizeof(*rows));
	const struct cct_node *root = &t->tree.root;

	for (const struct cct_node *c = cct_next_preorder(root, root); rows && c;
	     c = cct_next_preorder(c, root)) {
		struct snap_row *x;
		int64_t fn = fn_id(s, c->fn);
		if (fn < 0) {
			free(rows);
			return NULL;
		}
		if (n == cap) {
			struct snap_row *more = realloc(rows, (cap *= 2) * sizeof(*rows));
			if (!more) {
				free(rows);
				return NULL;
			}
			rows = more;
		}
		x = &rows[n];
		memset(x, 0, sizeof(*x));
		x->node = c;
		((struct cct_node *)c)->dump_id = (uint32_t)n;
		x->c.parent = c->parent == root ? SNAP_NO_FN : (uint32_t)c->parent->dump_id;
		x->fn = (uint32_t)fn;
		x->c.calls = c->calls;
		for (unsigned k = 1; k < PROBE_KINDS; k++)
			x->c.kind_calls[k - 1] = cct_kind_calls(c, (enum probe_kind)k);
		x->c.raw_incl = (double)c->incl_ticks;
		x->c.raw_child = (double)c->child_ticks;
		n++;
	}
	*count = n;
	return rows;
}

/* The row of `node` in a snapshot, or -1 if the node was made after it. */
static int64_t row_of(const struct snap_row *rows, size_t n, const struct cct_node *node)
{
	return node->dump_id < n && rows[node->dump_id].node == node ? (int64_t)node->dump_id : -1;
}

/* Counts the thread's open activations up to now: a call still running has a
 * duration so far, charged to its node and as child time to its caller's. */
static void thread_add_open(const struct snapshot *s, struct snap_thread *st)
{
	const struct tstate *t = st->t;
	const struct frame *base = __atomic_load_n(&t->stack.base, __ATOMIC_ACQUIRE);
	uint32_t depth = t->stack.depth;
	const struct cct_node *root = &t->tree.root;

	for (uint32_t i = 1; i < depth; i++) {
		const struct frame *f = &base[i];
		int64_t row = row_of(st->rows, st->n, f->node);
		int64_t caller = f[-1].node == root ? -1 : row_of(st->rows, st->n, f[-1].node);
		double open = s->now_ticks > f->t_enter_ticks ? (double)(s->now_ticks - f->t_enter_ticks) : 0;
		if (frame_is_marked(f) || row < 0)
			continue;
		st->rows[row].c.raw_incl += open;
		if (caller >= 0)
			st->rows[caller].c.raw_child += open;
	}
}

/*
 * Reads every thread's tree first and only then takes the time, so calls that
 * finish while the snapshot reads a running thread are never later than `now`.
 */
int snapshot_take(struct snapshot *s, const struct tstate *newest)
{
	size_t n = 0;

	memset(s, 0, sizeof(*s));
	for (const struct tstate *t = newest; t; t = t->next)
		n++;
	if (!(s->threads = calloc(n ? n : 1, sizeof(*s->threads))))
		return -1;
	s->nthreads = n;
	for (const struct tstate *t = newest; t; t = t->next)
		s->threads[--n].t = t; /* oldest first */
	for (size_t i = 0; i < s->nthreads; i++)
		if (!(s->threads[i].rows = thread_rows(s, s->threads[i].t, &s->threads[i].n)))
			goto out_release;
	s->now_ticks = clock_now();
	for (size_t i = 0; i < s->nthreads; i++) {
		struct snap_thread *st = &s->threads[i];

		thread_add_open(s, st);
		st->has_wait = !st->t->finished && schedstat_wait_ns(st->t->tid, &st->wait_ns) == 0;
	}
	return 0;
out_release:
	snapshot_release(s);
	return -1;
}

void snapshot_release(struct snapshot *s)
{
	for (size_t i = 0; s->threads && i < s->nthreads; i++)
		free(s->threads[i].rows);
	free(s->threads);
	free(s->fn_key);
	idmap_release(&s->fn_ids);
	memset(s, 0, sizeof(*s));
}

/* Self times, call counts of children and descendants, and compensation, per row. */
static uint64_t thread_compensate(struct snap_thread *st, const struct comp_cost cost[PROBE_KINDS])
{
	struct comp_row *rows = malloc((st->n ? st->n : 1) * sizeof(*rows));
	uint64_t clamped;

	if (!rows) { /* no memory for the copy: raw figures, uncompensated */
		for (size_t i = 0; i < st->n; i++) {
			struct comp_row *x = &st->rows[i].c;
			x->raw_self = x->raw_incl > x->raw_child ? x->raw_incl - x->raw_child : 0;
			x->incl = x->raw_incl;
			x->self = x->raw_self;
		}
		return 0;
	}
	for (size_t i = 0; i < st->n; i++)
		rows[i] = st->rows[i].c;
	clamped = compensate_rows(rows, st->n, cost);
	for (size_t i = 0; i < st->n; i++)
		st->rows[i].c = rows[i];
	free(rows);
	return clamped;
}

static void total_add(struct snap_total *a, const struct snap_row *x, bool outermost)
{
	a->calls += x->c.calls;
	for (unsigned k = 0; k < PROBE_KINDS - 1; k++)
		a->kind_calls[k] += x->c.kind_calls[k];
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
 * activations only: a row adds its time unless an ancestor on its path is
 * the same function (or the same caller->callee edge).
 */
static struct snap_total *thread_edges(struct snap_thread *st, struct snap_total *fns, size_t *nedges)
{
	struct snap_idmap ids = { 0 };
	struct snap_total *edges = NULL;
	size_t ne = 0, cap = 0, depth = 0;
	struct snap_row *rows = st->rows;
	uint32_t *path = malloc((st->n + 1) * sizeof(*path));

	for (size_t i = 0; path && i < st->n; i++) {
		struct snap_row *x = &rows[i];
		uint32_t caller = x->c.parent == SNAP_NO_FN ? SNAP_NO_FN : rows[x->c.parent].fn;
		bool added;
		int64_t e;

		while (depth && path[depth - 1] != x->c.parent) { /* leave finished subtrees */
			struct snap_row *y = &rows[path[--depth]];
			fns[y->fn].active--;
			edges[y->edge].active--;
		}
		e = idmap_get(&ids, (uint64_t)caller << 32 | x->fn, (uint32_t)ne, &added);
		if (e < 0)
			break;
		if (added) {
			if (ne == cap) {
				struct snap_total *more = realloc(edges, (cap = cap ? cap * 2 : 256) * sizeof(*edges));
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
		total_add(&fns[x->fn], x, fns[x->fn].active == 0);
		total_add(&edges[e], x, edges[e].active == 0);
		fns[x->fn].active++;
		edges[e].active++;
		path[depth++] = (uint32_t)i;
	}
	free(path);
	idmap_release(&ids);
	*nedges = ne;
	return edges;
}

int snapshot_totals(struct snapshot *s, size_t i, const struct comp_cost cost[PROBE_KINDS],
		    struct snap_totals *out)
{
	struct snap_thread *st = &s->threads[i];

	memset(out, 0, sizeof(*out));
	if (!(out->fns = calloc(s->nfns ? s->nfns : 1, sizeof(*out->fns))))
		return -1;
	for (size_t k = 0; k < s->nfns; k++)
		out->fns[k].min_ticks = UINT64_MAX;
	out->clamped = thread_compensate(st, cost);
	out->edges = thread_edges(st, out->fns, &out->nedges);
	if (st->n && !out->edges) {
		snap_totals_release(out);
		return -1;
	}
	return 0;
}

void snap_totals_release(struct snap_totals *t)
{
	free(t->fns);
	free(t->edges);
	memset(t, 0, sizeof(*t));
}
