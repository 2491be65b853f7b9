/* render_callers.c: tree/callers.html: the calling-context tree turned upside down: every
 * function, under it the functions that called it, under each of those its callers, and so on
 * (bottom-up), pruned like the call tree.  Static <details>, searchable by static/tree.js. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cell.h"
#include "flame.h"
#include "fmt.h"
#include "html.h"
#include "layout.h"
#include "link.h"
#include "note.h"
#include "render.h"

#define CALLERS_MIN_SHARE 0.001 /* paths lighter than 0.1% of the whole are hidden ... */
#define CALLERS_MAX_NODES 3000  /* ... and the lightest past this many */
#define CALLERS_MAX_DEPTH 200   /* callers of callers shown */
#define CALLERS_OPEN_SHARE 0.02 /* nodes heavier than this start expanded */
#define CALLERS_ROOT UINT32_MAX /* the key of calls made at the root of a thread */

/*
 * A caller path F <- G <- H stands for the calling-context nodes of F whose
 * parent is a G whose parent is an H: its calls, self time and inclusive
 * time are F's on those nodes (inclusive time counted on the nodes no other
 * node of the path encloses, so recursion never counts twice).  Each path owns a slice of members, one per
 * such node, with the cursor at its deepest caller so far; a path's callers
 * split its slice, so the whole tree needs one array of members.
 */
struct member {
	uint32_t node;   /* the F node */
	uint32_t cursor; /* the node reached going up: the path's last caller */
	uint32_t key;    /* the function calling the cursor, or CALLERS_ROOT (while grouping) */
};

struct rnode {
	uint32_t fn; /* the function of this step, CALLERS_ROOT for "called at a thread's root" */
	uint32_t depth; /* 0 for the functions themselves */
	size_t lo, hi;  /* its members: members[lo .. hi) */
	uint64_t calls, self_ns, incl_ns;
	uint64_t weight;    /* incl_ns, or calls without a clock */
	size_t kids, nkids; /* its callers: kid_idx[kids ..], heaviest first, once expanded */
	int shown;
};

struct callers {
	const struct ptree *t;
	struct member *members;
	uint32_t *same_up; /* per tree node: the nearest ancestor of its function, or UINT32_MAX */
	unsigned char *mark; /* per tree node: scratch, 1 while it is a member of the path summed */
	struct rnode *nodes;
	size_t n, cap;
	uint32_t *kid_idx; /* children lists of expanded nodes */
	size_t nkid, kidcap;
	size_t nroots; /* the functions: nodes[0 .. nroots) */
};

/* same_up: for each node of t, the nearest ancestor running the same function, or
 * UINT32_MAX (free() it): a walk down the tree with the innermost open node of each function. */
static uint32_t *same_up(const struct ptree *t, size_t nfuncs)
{
	uint32_t *order, *pos = flame_order(t, &order);
	uint32_t *path = xmalloc((t->n + 1) * sizeof(*path)),
		 *open = xmalloc((nfuncs + 1) * sizeof(*open));
	uint32_t *up = xmalloc((t->n + 1) * sizeof(*up));
	size_t depth = 0;

	memset(open, 0xff, (nfuncs + 1) * sizeof(*open));
	for (size_t k = 0; k < t->n; k++) {
		uint32_t i = order[k];
		int32_t parent = t->nodes[i].parent;

		while (depth && (parent < 0 || path[depth - 1] != (uint32_t)parent)) {
			uint32_t done = path[--depth];

			open[t->nodes[done].fn] =
				up[done]; /* the enclosing one is innermost again */
		}
		up[i] = open[t->nodes[i].fn];
		open[t->nodes[i].fn] = i;
		path[depth++] = i;
	}
	free(path);
	free(open);
	free(order);
	free(pos);
	return up;
}

/* enclosed: whether another member of the path being summed (marked) encloses node i. */
static int enclosed(const struct callers *c, uint32_t i)
{
	for (uint32_t a = c->same_up[i]; a != UINT32_MAX; a = c->same_up[a])
		if (c->mark[a])
			return 1;
	return 0;
}

static int cmp_member(const void *a, const void *b)
{
	const struct member *x = a, *y = b;

	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return x->node < y->node ? -1 : x->node > y->node;
}

/* add_node: a caller path over members[lo .. hi) (already grouped), with its figures summed. */
static size_t add_node(struct callers *c, uint32_t fn, uint32_t depth, size_t lo, size_t hi)
{
	struct rnode *r;

	if (c->n == c->cap)
		c->nodes = xreallocarray(c->nodes, c->cap = c->cap ? 2 * c->cap : 1024,
					 sizeof(*c->nodes));
	r = &c->nodes[c->n];
	memset(r, 0, sizeof(*r));
	r->fn = fn, r->depth = depth, r->lo = lo, r->hi = hi;
	for (size_t k = lo; k < hi; k++)
		c->mark[c->members[k].node] = 1;
	for (size_t k = lo; k < hi; k++) {
		const struct pnode *n = &c->t->nodes[c->members[k].node];

		r->calls = u64_add(r->calls, n->calls);
		r->self_ns = u64_add(r->self_ns, n->self_ns);
		if (!enclosed(c, c->members[k].node))
			r->incl_ns = u64_add(r->incl_ns, n->incl_ns);
	}
	for (size_t k = lo; k < hi; k++)
		c->mark[c->members[k].node] = 0;
	r->weight = c->t->by_calls ? r->calls : r->incl_ns;
	return c->n++;
}

static int cmp_weight(const void *a, const void *b, void *arg)
{
	const struct callers *c = arg;
	const struct rnode *x = &c->nodes[*(const uint32_t *)a],
			   *y = &c->nodes[*(const uint32_t *)b];

	if (x->weight != y->weight)
		return x->weight > y->weight ? -1 : 1;
	return x->fn < y->fn ? -1 : x->fn > y->fn;
}

/* expand: the callers of path r, made from its members grouped by the function above each cursor. */
static void expand(struct callers *c, size_t r)
{
	size_t lo = c->nodes[r].lo, hi = c->nodes[r].hi, first = c->nkid;
	uint32_t depth = c->nodes[r].depth + 1;

	if (c->nodes[r].fn == CALLERS_ROOT)
		return;
	for (size_t k = lo; k < hi; k++) {
		int32_t up = c->t->nodes[c->members[k].cursor].parent;

		c->members[k].key = up < 0 ? CALLERS_ROOT : c->t->nodes[up].fn;
		if (up >= 0)
			c->members[k].cursor = (uint32_t)up;
	}
	qsort(c->members + lo, hi - lo, sizeof(*c->members), cmp_member);
	for (size_t k = lo; k < hi;) {
		size_t end = k;

		while (end < hi && c->members[end].key == c->members[k].key)
			end++;
		if (c->nkid == c->kidcap)
			c->kid_idx = xreallocarray(c->kid_idx,
						   c->kidcap = c->kidcap ? 2 * c->kidcap : 1024,
						   sizeof(*c->kid_idx));
		c->kid_idx[c->nkid++] = (uint32_t)add_node(c, c->members[k].key, depth, k, end);
		k = end;
	}
	if (c->nkid - first == 1 && c->nodes[c->kid_idx[first]].fn == CALLERS_ROOT) {
		c->nkid =
			first; /* only ever called at a thread's root (main): no callers to show */
		c->n--;
	}
	c->nodes[r].kids = first;
	c->nodes[r].nkids = c->nkid - first;
	qsort_r(c->kid_idx + first, c->nkid - first, sizeof(*c->kid_idx), cmp_weight, c);
}

/* A max-heap of paths by weight: the next to show is the heaviest not yet shown. */
struct heap {
	uint32_t *v;
	size_t n;
};

static void heap_push(struct heap *h, const struct callers *c, uint32_t r)
{
	size_t i = h->n++;

	while (i && c->nodes[h->v[(i - 1) / 2]].weight < c->nodes[r].weight) {
		h->v[i] = h->v[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	h->v[i] = r;
}

static uint32_t heap_pop(struct heap *h, const struct callers *c)
{
	uint32_t top = h->v[0], last = h->v[--h->n];
	size_t i = 0;

	for (;;) {
		size_t l = 2 * i + 1, m = l;

		if (l >= h->n)
			break;
		if (l + 1 < h->n && c->nodes[h->v[l + 1]].weight > c->nodes[h->v[l]].weight)
			m = l + 1;
		if (c->nodes[h->v[m]].weight <= c->nodes[last].weight)
			break;
		h->v[i] = h->v[m];
		i = m;
	}
	if (h->n)
		h->v[i] = last;
	return top;
}

/* roots: one path per function that ran, its members all the function's nodes. */
static void roots(struct callers *c)
{
	const struct ptree *t = c->t;

	for (size_t i = 0; i < t->n; i++)
		c->members[i] = (struct member){ (uint32_t)i, (uint32_t)i, t->nodes[i].fn };
	qsort(c->members, t->n, sizeof(*c->members), cmp_member);
	for (size_t k = 0; k < t->n;) {
		size_t end = k;

		while (end < t->n && c->members[end].key == c->members[k].key)
			end++;
		add_node(c, c->members[k].key, 0, k, end);
		k = end;
	}
	c->nroots = c->n;
}

/* grow: shows the heaviest paths, best first, until they get lighter than cut or too many;
 * returns how many it showed. */
static size_t grow(struct callers *c, uint64_t cut)
{
	struct heap h = { NULL, 0 };
	size_t shown = 0, cap = c->nroots + 1;

	h.v = xmalloc(cap * sizeof(*h.v));
	for (size_t r = 0; r < c->nroots; r++)
		heap_push(&h, c, (uint32_t)r);
	while (h.n && shown < CALLERS_MAX_NODES) {
		uint32_t r = heap_pop(&h, c);

		if (c->nodes[r].weight < cut)
			break;
		c->nodes[r].shown = 1;
		shown++;
		if (c->nodes[r].depth >= CALLERS_MAX_DEPTH)
			continue;
		expand(c, r);
		if (h.n + c->nodes[r].nkids > cap)
			h.v = xreallocarray(h.v, cap = 2 * (h.n + c->nodes[r].nkids), sizeof(*h.v));
		for (size_t k = 0; k < c->nodes[r].nkids; k++)
			heap_push(&h, c, c->kid_idx[c->nodes[r].kids + k]);
	}
	free(h.v);
	return shown;
}

/* ---- the page ---- */

static void row(struct buf *out, const struct profile *p, const struct rnode *r, uint64_t whole)
{
	char a[FMT_SIZE], b[FMT_SIZE], c[FMT_SIZE], d[FMT_SIZE];

	buf_puts(out, "<span class=\"share\">");
	cell_bar(out, r->weight, whole);
	buf_printf(out, "%s</span> ", fmt_pct(a, r->weight, whole));
	if (r->fn == CALLERS_ROOT)
		buf_puts(out, "<span class=\"muted\">(the root of a thread: no instrumented "
			      "caller)</span>");
	else
		link_fn(out, p, r->fn, "../");
	buf_printf(out, " <span class=\"figs\">%s \xc2\xb7 self %s \xc2\xb7 %s call%s</span>",
		   fmt_ns(b, r->incl_ns), fmt_ns(c, r->self_ns), fmt_count(d, r->calls),
		   r->calls == 1 ? "" : "s");
}

/* hidden: what the callers of r that are not shown add up to. */
static void hidden(struct buf *out, const struct callers *c, const struct rnode *r)
{
	size_t count = 0;
	uint64_t weight = 0;
	char a[FMT_SIZE];

	for (size_t k = 0; k < r->nkids; k++) {
		const struct rnode *kid = &c->nodes[c->kid_idx[r->kids + k]];

		if (!kid->shown) {
			count++;
			weight = u64_add(weight, kid->weight);
		}
	}
	if (r->depth >= CALLERS_MAX_DEPTH)
		buf_puts(out, "<li class=\"hidden\">callers further up are not shown</li>\n");
	if (count)
		buf_printf(out,
			   "<li class=\"hidden\">%zu more caller%s below the threshold (%s in "
			   "all)</li>\n",
			   count, count == 1 ? "" : "s",
			   c->t->by_calls ? fmt_count(a, weight) : fmt_ns(a, weight));
}

/* has_callers: whether some call of path r came from an instrumented function (before expand). */
static int has_callers(const struct callers *c, const struct rnode *r)
{
	for (size_t k = r->lo; k < r->hi; k++)
		if (c->t->nodes[c->members[k].cursor].parent >= 0)
			return 1;
	return 0;
}

/* path_html: path r and the shown paths above it, as nested lists (recursion bounded by
 * CALLERS_MAX_DEPTH). */
static void path_html(struct buf *out, const struct profile *p, const struct callers *c, size_t r,
		      uint64_t whole)
{
	const struct rnode *n = &c->nodes[r];
	int more = n->nkids > 0 || (n->depth >= CALLERS_MAX_DEPTH && has_callers(c, n));

	if (!more || n->fn == CALLERS_ROOT) {
		buf_puts(out, "<li class=\"leaf\"><span class=\"row\">");
		row(out, p, n, whole);
		buf_puts(out, "</span></li>\n");
		return;
	}
	buf_printf(out, "<li><details%s><summary>",
		   (double)n->weight >= CALLERS_OPEN_SHARE * (double)whole && n->depth < 3 ? " open"
											   : "");
	row(out, p, n, whole);
	buf_puts(out, "</summary>\n<ul>\n");
	for (size_t k = 0; k < n->nkids; k++)
		if (c->nodes[c->kid_idx[n->kids + k]].shown)
			path_html(out, p, c, c->kid_idx[n->kids + k], whole);
	hidden(out, c, n);
	buf_puts(out, "</ul>\n</details></li>\n");
}

static int cmp_root(const void *a, const void *b, void *arg)
{
	const struct callers *c = arg;
	const struct rnode *x = &c->nodes[*(const uint32_t *)a],
			   *y = &c->nodes[*(const uint32_t *)b];

	if (x->self_ns != y->self_ns)
		return x->self_ns > y->self_ns ? -1 : 1;
	return cmp_weight(a, b, arg);
}

/* callers_html: the shown functions by self time, each with its callers; returns how many
 * functions were left out. */
static size_t callers_html(struct buf *out, const struct profile *p, struct callers *c,
			   uint64_t whole)
{
	uint32_t *order = xmalloc((c->nroots + 1) * sizeof(*order));
	size_t left = 0;

	for (size_t r = 0; r < c->nroots; r++)
		order[r] = (uint32_t)r;
	qsort_r(order, c->nroots, sizeof(*order), cmp_root, c);
	buf_printf(out, "<ul class=\"tree\" id=\"tree\" data-whole=\"%llu\">\n",
		   (unsigned long long)whole);
	for (size_t r = 0; r < c->nroots; r++) {
		if (c->nodes[order[r]].shown)
			path_html(out, p, c, order[r], whole);
		else
			left++;
	}
	buf_puts(out, "</ul>\n");
	free(order);
	return left;
}

int render_callers(struct render_ctx *ctx)
{
	const struct profile *p = ctx->prof;
	const struct ptree *t = &p->tree;
	uint64_t whole = t->by_calls || !p->run_ns ? t->total : p->run_ns;
	uint64_t cut = (uint64_t)((double)whole * CALLERS_MIN_SHARE);
	struct callers c = { .t = t,
			     .members = xmalloc((t->n + 1) * sizeof(struct member)),
			     .same_up = same_up(t, p->nfuncs),
			     .mark = xcalloc(t->n + 1, 1) };
	struct buf lede = BUF_INIT, tree = BUF_INIT;
	char a[FMT_SIZE], b[FMT_SIZE], d[FMT_SIZE];
	size_t shown, left;
	int rc;

	roots(&c);
	shown = grow(&c, cut ? cut : 1);
	left = callers_html(&tree, p, &c, whole);
	buf_printf(&lede,
		   "<p class=\"lede\">Bottom-up: every function, and under it the functions that "
		   "called "
		   "it, each with their own callers below. A row's figures are the function's own "
		   "(the one at "
		   "the top of its branch) when called through that path: its inclusive time (a "
		   "recursive call "
		   "within another of the same path counted once), self time and calls. Functions "
		   "come by self time, "
		   "callers by inclusive time; percentages are of %s%s.</p>\n",
		   t->by_calls ? "all calls (this dump has no times)" : "the run, ",
		   t->by_calls ? "" : fmt_ns(a, whole));
	if (shown < c.n || left)
		buf_printf(&lede,
			   "<p class=\"pruned\" id=\"pruned\">Showing the %s heaviest caller "
			   "paths: lighter "
			   "ones (under %s%s) are hidden, %s function%s entirely; a line under "
			   "each row says how "
			   "much.</p>\n",
			   fmt_count(a, shown), t->by_calls ? fmt_count(b, cut) : fmt_ns(b, cut),
			   t->by_calls ? " calls" : "", fmt_count(d, left), left == 1 ? "" : "s");
	note_fold(&lede, p, -1);

	struct tmpl_var vars[] = {
		{ "heading", "Callers tree \xe2\x80\x94 bottom-up" },
		{ "lede", lede.data },
		{ "views", "<p class=\"views\">Also: <a href=\"all.html\">the call tree</a>, "
			   "top-down.</p>\n" },
		{ "tree", tree.data },
	};
	rc = layout_page(ctx, "tree/callers.html", "../", "tree", "Callers tree", "tree.html", vars,
			 sizeof(vars) / sizeof(vars[0]));
	buf_release(&lede);
	buf_release(&tree);
	free(c.members);
	free(c.same_up);
	free(c.mark);
	free(c.nodes);
	free(c.kid_idx);
	return rc;
}
