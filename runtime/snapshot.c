/* snapshot.c: reading the threads' trees for a dump, one thread at a time, and their totals. */
#include "snapshot.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "clock.h"
#include "cputime.h"
#include "sampled.h"
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

/* Rows being read for one thread. */
struct row_buf {
	struct snap_row *rows;
	size_t n, cap;
};

static int row_room(struct row_buf *r)
{
	size_t cap = r->cap ? r->cap + r->cap / 4 : 1024;
	struct snap_row *more;

	if (r->n < r->cap)
		return 0;
	if (!(more = realloc(r->rows, cap * sizeof(*more))))
		return -1;
	r->rows = more;
	r->cap = cap;
	return 0;
}

/* The node after `n` in preorder, past its subtree. */
static const struct cct_node *next_over(const struct cct *tree, const struct cct_node *n)
{
	while (!n->next_sibling) {
		n = n->parent;
		if (n == &tree->root)
			return __atomic_load_n(&tree->fold_root.first_child, __ATOMIC_ACQUIRE);
		if (n == &tree->fold_root)
			return NULL;
	}
	return n->next_sibling;
}

/* The function id of `key`: listed now when `listing`, else -1 when the
 * snapshot does not have it; -2 without memory. */
static int64_t row_fn(struct snapshot *s, uintptr_t key, bool listing)
{
	int64_t fn = listing ? fn_id(s, key) : idmap_find(&s->fn_ids, key);

	return fn < 0 && listing ? -2 : fn;
}

/*
 * Appends the rows of `tree` in preorder with their raw figures as they are
 * now, its roots (and the folded roots) under row `root_row` (SNAP_NO_FN for
 * none).  With `listing`, functions are added to the snapshot; without, a
 * node of a function it has not listed is left out with its subtree.  Each
 * node's dump_id is set to its row.  0, or -1 without memory.
 */
static int tree_rows(struct snapshot *s, struct row_buf *r, const struct cct *tree,
		     uint32_t root_row, bool listing)
{
	const struct cct_node *c = cct_first(tree);

	while (c) {
		const struct cct_node *p = c->parent;
		int64_t fn = row_fn(s, c->fn, listing);
		struct snap_row *x;
		if (fn == -2 || row_room(r) < 0)
			return -1;
		if (fn < 0) {
			c = next_over(tree, c);
			continue;
		}
		x = &r->rows[r->n];
		memset(x, 0, sizeof(*x));
		x->node = c;
		((struct cct_node *)c)->dump_id = (uint32_t)r->n;
		x->parent = p == &tree->root || p == &tree->fold_root ? root_row : p->dump_id;
		x->fn = (uint32_t)fn & 0x7fffffff;
		x->comp_root = cct_node_is_folded(tree, c);
		x->calls = c->calls;
		if (frames_sampled && !x->comp_root) { /* inclusive: summed in thread_open */
			x->folded = (double)c->fold_child_ticks;
			x->raw_self = sampled_self(c, &x->self_var) - x->folded;
			x->raw_incl = x->raw_self;
			x->incl_var = x->self_var;
		} else { /* a folded call is timed whole, as every call without sampling */
			x->raw_incl = (double)c->incl_ticks;
			x->raw_self = (double)c->incl_ticks - (double)c->child_ticks -
				      (double)c->fold_child_ticks;
		}
		x->nested = (double)c->nested_ticks;
		x->cpu_incl = (double)c->cpu_ns;
		x->cpu_self = (double)c->cpu_wall_ticks;
		r->n++;
		c = cct_next(tree, c);
	}
	return 0;
}

/* The row of `node` among `n` rows, or -1 if the node has none (made after
 * they were read, or left out). */
static int64_t row_of(const struct snap_row *rows, size_t n, const struct cct_node *node)
{
	return node->dump_id < n && rows[node->dump_id].node == node ? (int64_t)node->dump_id : -1;
}

/* add_open's count of open frame `f`, frame `index` of `stack` (not a marked
 * one), under sampled timing:
 * an own-timed one's self time so far (its finished callees' taken off as
 * timed, and its open callee's below), and a timed one's time out of its
 * caller's self time when the caller is own-timed, as frame_close_timed
 * takes it; nothing for an untimed one.  A stopped context's stack (`kept`)
 * has its own-timed frames' sums parked (shadow_park).
 * Inclusive times are summed after (sampled_inclusive). */
static void add_open_sampled(struct snap_row *rows, size_t n, const struct shadow *stack,
			     uint32_t index, const struct frame *f, uint64_t now, bool kept)
{
	uint64_t at = frame_enter_ticks(f);
	double d = now > at ? (double)(now - at) : 0, child;
	int64_t row = row_of(rows, n, f->node), caller = row_of(rows, n, f[-1].node);

	if (!f->t_enter_ticks)
		return;
	if ((f->t_enter_ticks & FRAME_OWN_TIMED) && row >= 0) {
		child = kept ? (double)shadow_parked_child_ticks(stack, index)
			     : (double)__atomic_load_n(&f->node->act_child_ticks, __ATOMIC_RELAXED);
		rows[row].raw_self += d - child;
	}
	if ((f[-1].t_enter_ticks & FRAME_OWN_TIMED) && caller >= 0)
		rows[caller].raw_self -= f->t_enter_ticks & FRAME_LENT_ONE_IN_R
						 ? d * (double)frames_sample_rate
					 : f->t_enter_ticks & FRAME_LENT ? d
									 : 0;
}

/*
 * Counts the open activations of `stack` up to `now`, as if they were closed
 * now, innermost first: a call still running has a duration so far, its
 * node's time and child time of its caller's node (a folded one's, of its
 * charge; a nested folded one's own work only: fold.h).  An open folded
 * call's probes, and a timed one's callees', are in its charge's inclusive
 * time, as when it closes (shadow.c): their count goes to the charge's row's
 * `incl`, which compensate() turns into their cost.  `kept`: the stack of a
 * context that does not run.
 */
static void add_open(struct snap_row *rows, size_t n, const struct shadow *stack, uint64_t now,
		     bool kept)
{
	const struct frame *base = __atomic_load_n(&stack->base, __ATOMIC_ACQUIRE);
	const struct fold_frame *frames = __atomic_load_n(&stack->fold.frames, __ATOMIC_ACQUIRE);
	uint32_t fold_depth = __atomic_load_n(&stack->fold.depth, __ATOMIC_ACQUIRE);
	uint64_t closed = __atomic_load_n(&stack->fold.closed, __ATOMIC_RELAXED);
	double above = 0; /* the open duration of the innermost recorded frame above */

	for (uint32_t i = base ? stack->depth : 1; i-- > 1;) {
		const struct frame *f = &base[i];
		const struct fold_frame *e =
			frame_is_folded(f) ? fold_frame_at(&stack->fold, i) : NULL;
		double d = now > f->t_enter_ticks ? (double)(now - f->t_enter_ticks) : 0, own = d;
		int64_t row = row_of(rows, n, f->node), caller;

		if (frame_is_transparent(f) || (frame_is_folded(f) && !e))
			continue;
		if (frames_sampled && !e) {
			add_open_sampled(rows, n, stack, i, f, now, kept);
			continue;
		}
		if (e && e->nested)
			own = d > (double)e->child_ticks + above
				      ? d - (double)e->child_ticks - above
				      : 0;
		caller = row_of(rows, n, e ? e->charge : f[-1].node);
		if (e &&
		    caller >= 0) { /* itself, the folded frames open above it, those closed in it */
			/* (frames moved since, as a running thread's may: as if the innermost) */
			uintptr_t off = (uintptr_t)e - (uintptr_t)frames;
			uint32_t pos = off < (uintptr_t)fold_depth * sizeof(*e)
					       ? (uint32_t)(off / sizeof(*e))
					       : fold_depth - 1;
			rows[caller].incl +=
				e->nested ? 1
					  : (double)(fold_depth > pos ? fold_depth - pos : 1) +
						    (double)(closed > e->closed_before
								     ? closed - e->closed_before
								     : 0);
		}
		if (row >= 0) {
			rows[row].raw_incl += own;
			rows[row].raw_self += own;
			if (e && e->nested)
				rows[row].nested += own;
		}
		if (caller >= 0) {
			rows[caller].raw_self -= own;
			if (frames_sampled) /* a folded frame's: its charge's (sampled_inclusive) */
				rows[caller].folded += own;
		}
		above = d;
	}
}

/* The first signal level of `t` (tstate.h) with calls, or NULL. */
static const struct tstate *signal_levels(const struct tstate *t)
{
	for (const struct tstate *l = __atomic_load_n(&t->sig, __ATOMIC_ACQUIRE); l;
	     l = __atomic_load_n(&l->sig, __ATOMIC_ACQUIRE))
		if (cct_first(&l->tree))
			return l;
	return NULL;
}

/* Adds the `<signal>` row (no node, no calls: its time is its children's),
 * then the rows of the signal levels of `t` from `from` on, below it. */
static int signal_rows(struct snapshot *s, struct row_buf *r, const struct tstate *from,
		       bool listing)
{
	int64_t fn = row_fn(s, SNAP_SIGNAL_KEY, listing);
	uint32_t row = (uint32_t)r->n;

	if (fn == -2 || row_room(r) < 0)
		return -1;
	if (fn < 0)
		return 0;
	memset(&r->rows[row], 0, sizeof(r->rows[row]));
	r->rows[row].parent = SNAP_NO_FN;
	r->rows[row].fn = (uint32_t)fn & 0x7fffffff;
	r->n++;
	for (const struct tstate *l = from; l; l = __atomic_load_n(&l->sig, __ATOMIC_ACQUIRE))
		if (tree_rows(s, r, &l->tree, row, listing) < 0)
			return -1;
	return 0;
}

/* The nodes of every level of `t`. */
static size_t thread_nodes(const struct tstate *t)
{
	size_t n = 0;

	for (const struct tstate *l = t; l; l = __atomic_load_n(&l->sig, __ATOMIC_ACQUIRE))
		n += (size_t)__atomic_load_n(&l->tree.nodes, __ATOMIC_RELAXED) + 1;
	return n;
}

/* Reads the rows of thread `t` (see tree_rows), and below a `<signal>` row
 * those of its signal levels, in an array of the size its trees say (a
 * running thread's may grow meanwhile).  NULL without memory. */
static struct snap_row *thread_rows(struct snapshot *s, const struct tstate *t, bool listing,
				    size_t *count)
{
	size_t nodes = thread_nodes(t);
	struct row_buf r = { malloc((nodes + 64) * sizeof(*r.rows)), 0, nodes + 64 };
	const struct tstate *sig = signal_levels(t);

	*count = 0;
	if (!r.rows || tree_rows(s, &r, &t->tree, SNAP_NO_FN, listing) < 0 ||
	    (sig && signal_rows(s, &r, sig, listing) < 0)) {
		free(r.rows);
		return NULL;
	}
	*count = r.n;
	return r.rows;
}

/* Rows for ctxmap_each_saved. */
struct open_rows {
	struct snap_row *rows;
	size_t n;
};

/* The open calls of a context's stack that does not run count up to when it stopped. */
static void add_open_kept(const struct shadow *s, uint64_t paused_ticks, void *arg)
{
	struct open_rows *o = arg;

	add_open(o->rows, o->n, s, paused_ticks, true);
}

/* Sampled timing: a row's inclusive time is the sum of its subtree's self
 * times and the time of the folded calls charged to them, its variance the
 * sum of theirs (sampled.h); a folded row is timed whole and is no child of
 * its tree parent (fold.h), and the `<signal>` row's time is its children's
 * (thread_open).  Children come after parents: a backward pass. */
static void sampled_inclusive(struct snap_row *rows, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (rows[i].comp_root) /* a folded row: timed whole */
			continue;
		rows[i].raw_incl = snap_raw_self(&rows[i]) + rows[i].folded;
		rows[i].incl_var = rows[i].self_var;
	}
	for (size_t i = n; i-- > 0;) {
		const struct snap_row *x = &rows[i];

		if (x->parent == SNAP_NO_FN || x->comp_root)
			continue;
		rows[x->parent].raw_incl += x->raw_incl;
		rows[x->parent].incl_var += x->incl_var;
	}
}

/* The CPU intervals open on `stack` (cputime.h), of a thread whose CPU time
 * is now `cpu_ns`, up to `now`: added to their rows' sums.  (A context that
 * does not run keeps none: context.c.) */
static void add_open_cpu(struct snap_row *rows, size_t n, const struct shadow *stack,
			 uint64_t cpu_ns, uint64_t now)
{
	const struct frame *base = __atomic_load_n(&stack->base, __ATOMIC_ACQUIRE);
	uint32_t depth = __atomic_load_n(&stack->depth, __ATOMIC_ACQUIRE);
	uint32_t open = __atomic_load_n(&stack->cpu_depth, __ATOMIC_ACQUIRE);

	for (uint32_t k = 0; base && k < open && k < SHADOW_CPU_OPEN; k++) {
		const struct shadow_cpu *e = &stack->cpu[k];
		int64_t row;

		if (e->frame == 0 || e->frame >= depth || frame_is_marked(&base[e->frame]) ||
		    (row = row_of(rows, n, base[e->frame].node)) < 0 || cpu_ns < e->cpu_ns)
			continue;
		rows[row].cpu_incl += (double)(cpu_ns - e->cpu_ns);
		rows[row].cpu_self += now > e->ticks ? (double)(now - e->ticks) : 0;
	}
}

/* The CPU time of thread `t` now, ns; 0 when the kernel will not tell. */
static uint64_t thread_cpu_now(const struct tstate *t)
{
	uint64_t ns = 0;

	if (t->tid == (int)gettid())
		return cputime_self_ns();
	return cputime_thread_ns(t->tid, &ns) == 0 ? ns : 0;
}

/* Counts the open calls of thread `t`, whose rows are `rows`, up to `now`
 * (its stopped contexts' up to when they stopped); then the `<signal>` row's
 * time is its children's. */
static void thread_open(const struct tstate *t, struct snap_row *rows, size_t n, uint64_t now)
{
	struct open_rows o = { rows, n };
	size_t sig = n;
	uint64_t cpu_ns = cputime_on && !t->finished ? thread_cpu_now(t) : 0;

	for (const struct tstate *l = t; l; l = __atomic_load_n(&l->sig, __ATOMIC_ACQUIRE)) {
		add_open(rows, n, &l->stack, now, false);
		if (cpu_ns)
			add_open_cpu(rows, n, &l->stack, cpu_ns, now);
	}
	ctxmap_each_saved(t->contexts, add_open_kept, &o);
	if (frames_sampled)
		sampled_inclusive(rows, n);
	for (size_t i = 0; i < n; i++) {
		if (!rows[i].node) {
			sig = i;
			rows[i].raw_incl = rows[i].raw_self = 0;
		} else if (sig < n && rows[i].parent == sig) {
			rows[sig].raw_incl += rows[i].raw_incl;
			rows[i].comp_root = 1; /* the `<signal>` row has no probes to share */
		}
	}
}

/* Lists the functions of every level of `t` in the snapshot. 0, or -1 without memory. */
static int list_functions(struct snapshot *s, const struct tstate *t)
{
	if (signal_levels(t) && fn_id(s, SNAP_SIGNAL_KEY) < 0)
		return -1;
	for (const struct tstate *l = t; l; l = __atomic_load_n(&l->sig, __ATOMIC_ACQUIRE))
		for (const struct cct_node *c = cct_first(&l->tree); c; c = cct_next(&l->tree, c))
			if (fn_id(s, c->fn) < 0)
				return -1;
	return 0;
}

/* True if the tree of `t` may change while the dump runs: a thread still
 * running, other than the one dumping (whose tree stands still meanwhile). */
static bool may_change(const struct tstate *t)
{
	return !t->finished && t->tid != (int)gettid();
}

/*
 * Reads the trees that may change first and only then takes the time, so
 * calls that finish while the snapshot reads a running thread are never
 * later than `now`.
 */
int snapshot_take(struct snapshot *s, const struct tstate *newest)
{
	size_t n = 0;

	memset(s, 0, sizeof(*s));
	for (const struct tstate *t = newest; t; t = t->next)
		n += !t->runtime_own;
	if (!(s->threads = calloc(n ? n : 1, sizeof(*s->threads))))
		return -1;
	s->nthreads = n;
	for (const struct tstate *t = newest; t; t = t->next)
		if (!t->runtime_own)
			s->threads[--n].t = t; /* oldest first */
	for (size_t i = 0; i < s->nthreads; i++) {
		struct snap_thread *st = &s->threads[i];
		if (!may_change(st->t)) {
			if (list_functions(s, st->t) < 0)
				goto out_release;
			continue;
		}
		st->rows = thread_rows(s, st->t, true, &st->n);
		if (!st->rows)
			goto out_release;
	}
	/* The waits are read before the clock: reading one is a system call, whose
	 * return is where a loaded machine preempts this thread, and that wait
	 * must fall inside the wall time it is taken out of. */
	for (size_t i = 0; i < s->nthreads; i++) {
		struct snap_thread *st = &s->threads[i];

		st->has_wait = !st->t->finished && schedstat_wait_ns(st->t->tid, &st->wait_ns) == 0;
		/* Only the wait since the thread's profile began is in its wall time. */
		st->wait_ns -=
			st->wait_ns < st->t->wait_base_ns ? st->wait_ns : st->t->wait_base_ns;
	}
	s->now_ticks = clock_now();
	for (size_t i = 0; i < s->nthreads; i++)
		if (s->threads[i].rows)
			thread_open(s->threads[i].t, s->threads[i].rows, s->threads[i].n,
				    s->now_ticks);
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

/*
 * Sampled timing: what the untimed calls of row i add to its o_out
 * (comp_untimed).  Its parent's self time is estimated from the parent's
 * own-timed calls, scaled to all of them (its calls per own-timed one); in
 * those, this row's calls were timed when lent (stamp.h), and otherwise read
 * no clock.  So of its calls, as many as it was lent, scaled, count as timed;
 * the rest, less the counted ones (no time to take), as untimed, of the kind
 * of its front-end's calls.
 */
static double row_untimed(const struct snap_totals *tot, size_t i,
			  const struct comp_cost cost[PROBE_KINDS])
{
	const struct snap_row *x = &tot->rows[i];
	const struct cct_node *c = x->node, *p;
	double timed, scale;
	enum probe_kind k;

	if (!frames_sampled || !c || x->comp_root || x->parent == SNAP_NO_FN ||
	    !(p = tot->rows[x->parent].node))
		return 0;
	scale = cct_timed_calls(p) ? (double)p->calls / (double)cct_timed_calls(p) : 1;
	timed = (double)c->lent_calls * scale + (double)snap_kind_calls(tot, i, PROBE_COUNTED - 1);
	k = (c->fe_word & CCT_FE_MASK) == CCT_FE_LIBRARY ? PROBE_LIBRARY : cct_base_kind(c);
	return timed < (double)x->calls
		       ? comp_untimed((uint64_t)((double)x->calls - timed), cost, k)
		       : 0;
}

/*
 * Compensated times of every row, in one backward pass over the preorder
 * (children after parents): a row's `incl` and `self` first gather its
 * children's probe costs and o_out (compensate.h), then hold its figures.
 * What its calls' reads of the CPU clock and the capture of their arguments
 * cost (measured: cct_node.capture_ticks) lies outside their intervals, in
 * the caller's: both count with the row's o_out.
 */
static uint64_t compensate(struct snap_totals *tot, const struct comp_cost cost[PROBE_KINDS])
{
	struct snap_row *rows = tot->rows;
	size_t n = tot->n;
	uint64_t clamped = 0;

	for (size_t i = 0; i < n;
	     i++) { /* incl: the count of open folded calls' probes (add_open) */
		rows[i].incl =
			comp_folded((uint64_t)rows[i].incl, 0, cost,
				    rows[i].node ? cct_base_kind(rows[i].node) : PROBE_PLAIN);
		rows[i].self = 0;
	}
	for (size_t i = n; i-- > 0;) {
		struct snap_row *x = &rows[i];
		const struct cct_node *c = x->node;
		double own_in, own_out, hidden, below = x->incl, child_out = x->self;
		uint64_t kinds[PROBE_KINDS - 1];

		for (unsigned k = 0; k < PROBE_KINDS - 1; k++)
			kinds[k] = snap_kind_calls(tot, i, k);
		comp_own_costs(x->calls, kinds, cost, &own_in, &own_out);
		own_out += row_untimed(tot, i, cost);
		if (c)
			own_out += (double)c->cpu_calls * cost[cct_base_kind(c)].cpu_read +
				   (double)c->capture_ticks;
		hidden = c ? comp_hidden(c->fold_child_calls, cost, cct_base_kind(c)) : 0;
		if (c) {
			double unrecorded = comp_unrecorded(c->unrecorded_calls, cost);

			below += comp_folded(c->fold_inner_calls, c->fold_nested_out, cost,
					     cct_base_kind(c)) +
				 unrecorded;
			hidden += unrecorded;
		}
		clamped += comp_figures(x->raw_incl, snap_raw_self(x), own_in, below, child_out,
					hidden, &x->incl, &x->self);
		if (x->parent != SNAP_NO_FN && !x->comp_root) {
			rows[x->parent].incl += below + own_in + own_out;
			rows[x->parent].self += own_out;
		}
	}
	return clamped;
}

/* The `<signal>` row's compensated time is its children's (it has no probes). */
static void signal_figures(struct snap_row *rows, size_t n)
{
	size_t sig = n;

	for (size_t i = 0; i < n; i++) {
		if (!rows[i].node) {
			sig = i;
			rows[i].incl = rows[i].self = 0;
		} else if (sig < n && rows[i].parent == sig) {
			rows[sig].incl += rows[i].incl;
		}
	}
}

/*
 * CPU time (cputime.h) of every row, from its sums (tree_rows, add_open_cpu),
 * once compensated.  What the calls that read the CPU clock spent off the CPU
 * (wall less CPU time) is measured, and is no probe's: the probes run on the
 * CPU.  So a row with such calls has as off-CPU time its raw inclusive time
 * times their off-CPU share.  Of that, what its children with such calls do
 * not account for is spread over its self time and its other children in
 * proportion to their time, as preemption falls (a long wait in its own code
 * is a library call of its own, with library probes); a row without such
 * calls (short, or folded) gets its share of its parent's that way, a root
 * none.  Its CPU time is its compensated time less its off-CPU time, and so
 * for its self time.  `ns_per_tick` converts the CPU clock's ns.  0, or -1
 * without memory.
 */
static int cpu_figures(struct snap_row *rows, size_t n, double ns_per_tick)
{
	double *spread = calloc(n ? 2 * n : 1, sizeof(*spread)); /* [2i]: children's off-CPU time
								   * measured, [2i + 1]: the
								   * others' time, then the share */

	if (!spread)
		return -1;
	for (size_t i = 0; i < n; i++) { /* cpu_incl: the measured off-CPU time, or -1 */
		struct snap_row *x = &rows[i];
		double wall = x->cpu_self, cpu = x->cpu_incl / ns_per_tick;
		double off = wall > cpu ? x->raw_incl * (wall - cpu) / wall : 0;

		x->cpu_incl = wall > 0 ? (off < x->incl ? off : x->incl) : -1;
	}
	for (size_t i = n; i-- > 0;) {
		const struct snap_row *x = &rows[i];

		if (x->parent == SNAP_NO_FN || x->comp_root)
			continue;
		if (x->cpu_incl >= 0)
			spread[2 * x->parent] += x->cpu_incl;
		else
			spread[2 * x->parent + 1] += x->incl;
	}
	for (size_t i = 0; i < n; i++) { /* parents first: a child takes its parent's share */
		struct snap_row *x = &rows[i];
		double off = x->cpu_incl, rest, share;

		if (off < 0) {
			share = x->parent == SNAP_NO_FN || x->comp_root ? 0
									: spread[2 * x->parent + 1];
			off = share * x->incl;
		}
		rest = off - spread[2 * i];
		share = rest > 0 && x->self + spread[2 * i + 1] > 0
				? rest / (x->self + spread[2 * i + 1])
				: 0;
		spread[2 * i + 1] = share < 1 ? share : 1;
		x->cpu_incl = x->incl > off ? x->incl - off : 0;
		x->cpu_self = x->self * (1 - spread[2 * i + 1]);
		x->cpu_self = x->cpu_self < x->cpu_incl ? x->cpu_self : x->cpu_incl;
	}
	free(spread);
	return 0;
}

static void total_add(struct snap_total *a, const struct snap_totals *tot, size_t i, bool outermost)
{
	const struct snap_row *x = &tot->rows[i];

	a->calls += x->calls;
	a->cpu_self += x->cpu_self;
	for (unsigned k = 0; k < PROBE_KINDS - 1; k++)
		a->kind_calls[k] += snap_kind_calls(tot, i, k);
	a->self += x->self;
	a->raw_self += snap_raw_self(x);
	a->self_var += x->self_var;
	if (outermost) { /* the time of nested folded calls is inside an outer one's */
		double own = x->incl > x->nested ? x->incl - x->nested : 0;

		a->cpu_incl += x->incl > 0 ? own * (x->cpu_incl / x->incl) : 0;
		a->incl += own;
		a->raw_incl += x->raw_incl > x->nested ? x->raw_incl - x->nested : 0;
		a->incl_var += x->incl_var;
	}
	if (!x->node)
		return;
	a->timed_calls += cct_timed_calls(x->node);
	a->cpu_calls += x->node->cpu_calls;
	a->capture_ticks += x->node->capture_ticks;
	for (unsigned k = 0; k < PROBE_FRONT_KINDS; k++)
		a->unrecorded_calls[k] += x->node->unrecorded_calls[k];
	if (x->node->min_ticks < a->min_ticks)
		a->min_ticks = x->node->min_ticks;
	if (x->node->max_ticks > a->max_ticks)
		a->max_ticks = x->node->max_ticks;
	if (!a->site && x->node->call_site)
		a->site = x->node;
}

/* The edge `caller` -> `callee` in `out`, added when new; -1 without memory. */
static int64_t edge_of(struct snap_idmap *ids, struct snap_totals *out, size_t *cap,
		       uint32_t caller, uint32_t callee)
{
	bool added;
	int64_t e = idmap_get(ids, (uint64_t)caller << 32 | callee, (uint32_t)out->nedges, &added);

	if (e < 0 || !added)
		return e;
	if (out->nedges == *cap) {
		size_t more_cap = *cap ? *cap * 2 : 256;
		struct snap_total *more = realloc(out->edges, more_cap * sizeof(*more));
		if (!more)
			return -1;
		out->edges = more;
		*cap = more_cap;
	}
	memset(&out->edges[e], 0, sizeof(out->edges[e]));
	out->edges[e].min_ticks = UINT64_MAX;
	out->edges[e].caller = caller;
	out->edges[e].callee = callee;
	out->nedges++;
	return e;
}

/*
 * Per-function and per-edge totals.  Inclusive time counts outermost
 * activations only: a row adds its time unless an ancestor on its path is
 * the same function (or the same caller->callee edge).  0, or -1 without memory.
 */
static int thread_totals(struct snap_totals *out)
{
	struct snap_idmap ids = { 0 };
	size_t cap = 0, depth = 0, path_cap = 1024;
	const struct snap_row *rows = out->rows;
	struct {
		uint32_t row, edge;
	} *path = malloc(path_cap * sizeof(*path));
	int rc = path ? 0 : -1;

	for (size_t i = 0; path && i < out->n; i++) {
		const struct snap_row *x = &rows[i];
		uint32_t caller = x->parent == SNAP_NO_FN ? SNAP_NO_FN : rows[x->parent].fn;
		int64_t e;

		while (depth && path[depth - 1].row != x->parent) { /* leave finished subtrees */
			depth--;
			out->fns[rows[path[depth].row].fn].active--;
			out->edges[path[depth].edge].active--;
		}
		if (depth == path_cap) {
			void *more = realloc(path, (path_cap *= 2) * sizeof(*path));
			if (!more) {
				rc = -1;
				break;
			}
			path = more;
		}
		if ((e = edge_of(&ids, out, &cap, caller, x->fn)) < 0) {
			rc = -1;
			break;
		}
		total_add(&out->fns[x->fn], out, i, out->fns[x->fn].active == 0);
		total_add(&out->edges[e], out, i, out->edges[e].active == 0);
		out->fns[x->fn].active++;
		out->edges[e].active++;
		path[depth].row = (uint32_t)i;
		path[depth++].edge = (uint32_t)e;
	}
	free(path);
	idmap_release(&ids);
	return rc;
}

/*
 * A thread still calling while its rows are read moves its nodes' counts of
 * calls of each kind: they are read once here, each kind at most what is
 * left of the row's calls (as compensation cuts them down, in kind order),
 * the node's own front-end's kind the rest, so compensation, the totals and
 * the rows written agree.  0, or -1 without memory.
 */
static int freeze_kinds(struct snap_totals *out)
{
	const size_t w = PROBE_KINDS - 1;

	if (!(out->kinds = calloc(out->n ? out->n * w : 1, sizeof(*out->kinds))))
		return -1;
	for (size_t i = 0; i < out->n; i++) {
		const struct snap_row *x = &out->rows[i];
		enum probe_kind base;
		uint64_t left = x->calls;

		if (!x->node)
			continue;
		base = cct_base_kind(x->node);
		for (unsigned k = 1; k < PROBE_KINDS; k++) {
			uint64_t c = __atomic_load_n(&x->node->kind_calls[k - 1], __ATOMIC_RELAXED);

			if (k == base)
				continue;
			c = c < left ? c : left;
			out->kinds[i * w + k - 1] = c;
			left -= c;
		}
		if (base != PROBE_PLAIN)
			out->kinds[i * w + base - 1] = left;
	}
	return 0;
}

int snapshot_thread(struct snapshot *s, size_t i, const struct comp_cost cost[PROBE_KINDS],
		    struct snap_totals *out)
{
	struct snap_thread *st = &s->threads[i];

	memset(out, 0, sizeof(*out));
	if (st->rows) {
		out->rows = st->rows;
		out->n = st->n;
		st->rows = NULL;
		st->n = 0;
	} else {
		out->rows = thread_rows(s, st->t, false, &out->n);
		if (!out->rows)
			return -1;
		thread_open(st->t, out->rows, out->n, s->now_ticks);
	}
	if (!(out->fns = calloc(s->nfns ? s->nfns : 1, sizeof(*out->fns))))
		goto out_release;
	for (size_t k = 0; k < s->nfns; k++)
		out->fns[k].min_ticks = UINT64_MAX;
	if (may_change(st->t) && freeze_kinds(out) < 0)
		goto out_release;
	out->clamped = compensate(out, cost);
	signal_figures(out->rows, out->n);
	if (cputime_on && cpu_figures(out->rows, out->n, 1e9 / clock_ticks_per_second()) < 0)
		goto out_release;
	for (size_t k = 0; k < out->n && !out->has_nested; k++)
		out->has_nested = out->rows[k].nested > 0;
	if (thread_totals(out) < 0)
		goto out_release;
	return 0;
out_release:
	snap_totals_release(out);
	return -1;
}

void snap_totals_release(struct snap_totals *t)
{
	free(t->kinds);
	free(t->rows);
	free(t->fns);
	free(t->edges);
	memset(t, 0, sizeof(*t));
}
