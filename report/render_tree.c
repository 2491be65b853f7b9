/* render_tree.c: tree/all.html and tree/t<k>.html: the calling-context tree as nested
 * <details> (collapsible without JavaScript), pruned below a threshold. */
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

#define TREE_MIN_SHARE 0.001 /* paths lighter than 0.1% of the whole are hidden ... */
#define TREE_MAX_NODES 3000  /* ... and more if needed to keep a page this small */
#define TREE_MAX_DEPTH 200   /* nesting shown; deeper recursion gets a line instead */
#define TREE_MAX_DEPTH_TEXT "200"
#define TREE_OPEN_SHARE 0.02 /* nodes heavier than this start expanded */

/* One level of the walk: a node and the next of its children to visit. */
struct tree_frame {
	uint32_t node;
	size_t next;
};

/* heap_sift: restores the min-heap h (n weights) below position i. */
static void heap_sift(uint64_t *h, size_t n, size_t i)
{
	for (;;) {
		size_t l = 2 * i + 1, m = i;
		uint64_t x;

		if (l < n && h[l] < h[m])
			m = l;
		if (l + 1 < n && h[l + 1] < h[m])
			m = l + 1;
		if (m == i)
			return;
		x = h[i], h[i] = h[m], h[m] = x;
		i = m;
	}
}

/*
 * kth_weight: the (k+1)-th heaviest node weight of t (t->n > k), with a
 * min-heap of the k+1 heaviest seen so far: a million nodes cost one pass.
 */
static uint64_t kth_weight(const struct ptree *t, size_t k)
{
	uint64_t *h = xmalloc((k + 1) * sizeof(*h)), kth;

	for (size_t i = 0; i <= k; i++)
		h[i] = ptree_weight(t, i);
	for (size_t i = (k + 1) / 2; i-- > 0;)
		heap_sift(h, k + 1, i);
	for (size_t i = k + 1; i < t->n; i++) {
		uint64_t w = ptree_weight(t, i);

		if (w > h[0]) {
			h[0] = w;
			heap_sift(h, k + 1, 0);
		}
	}
	kth = h[0];
	free(h);
	return kth;
}

/* tree_cutoff: the least weight a node needs to be shown (never 0: empty paths stay hidden). */
static uint64_t tree_cutoff(const struct ptree *t, uint64_t whole)
{
	uint64_t cut = (uint64_t)((double)whole * TREE_MIN_SHARE);

	if (t->n > TREE_MAX_NODES) {
		uint64_t w = kth_weight(t, TREE_MAX_NODES);

		if (w < UINT64_MAX && w + 1 > cut)
			cut = w + 1;
	}
	return cut ? cut : 1;
}

static void node_row(struct buf *out, const struct profile *p, const struct ptree *t, uint32_t i,
		     uint64_t whole)
{
	const struct pnode *n = &t->nodes[i];
	int64_t se = pnode_se(n);
	char a[FMT_SIZE], c[FMT_SIZE], d[FMT_SIZE], est[CELL_ESTIMATE_SIZE];

	buf_puts(out, "<span class=\"share\">");
	cell_bar(out, ptree_weight(t, i), whole);
	buf_printf(out, "%s</span> ", fmt_pct(a, ptree_weight(t, i), whole));
	link_fn(out, p, n->fn, "../");
	buf_printf(out, " <span class=\"figs\">%s \xc2\xb7 self %s \xc2\xb7 ",
		   cell_estimate(est, n->incl_ns, (uint64_t)se, se >= 0), fmt_ns(c, n->self_ns));
	if (p->has_cpu && !t->by_calls)
		buf_printf(out, "on a CPU %s \xc2\xb7 ", fmt_ns(a, n->cpu_ns));
	buf_printf(out, "%s call%s</span>", fmt_count(d, n->calls), n->calls == 1 ? "" : "s");
}

/* hidden_line: what a node's children below the cutoff added up to (data-parent: where
 * static/tree.js finds them in the data file to show them). */
static void hidden_line(struct buf *out, const struct ptree *t, const uint32_t *pos, uint32_t i,
			uint64_t cut, int deep)
{
	size_t count = 0;
	uint64_t weight = 0;
	char a[FMT_SIZE];

	for (size_t k = t->kid_off[i]; k < t->kid_off[i + 1]; k++) {
		uint32_t kid = t->kids[k];

		if (deep || ptree_weight(t, kid) < cut) {
			count++;
			weight = u64_add(weight, ptree_weight(t, kid));
		}
	}
	if (!count)
		return;
	buf_printf(
		out,
		"<li class=\"hidden\" data-parent=\"%u\">%zu more callee%s %s (%s in all)</li>\n",
		pos[i], count, count == 1 ? "" : "s",
		deep ? "nested too deep to show" : "below the threshold",
		t->by_calls ? fmt_count(a, weight) : fmt_ns(a, weight));
}

/* next_kid: the next child of f to show, or -1. */
static int64_t next_kid(const struct ptree *t, struct tree_frame *f, uint64_t cut)
{
	size_t k = t->kid_off[f->node] + f->next;

	if (k >= t->kid_off[f->node + 1] || ptree_weight(t, t->kids[k]) < cut)
		return -1;
	f->next++;
	return t->kids[k];
}

/* open_node: a leaf's whole row (returns 0), or the opening of a node with children (1);
 * data-n is its place in the data file (flame_order). */
static int open_node(struct buf *out, const struct profile *p, const struct ptree *t,
		     const uint32_t *pos, uint32_t i, uint64_t whole)
{
	if (t->kid_off[i + 1] == t->kid_off[i]) {
		buf_printf(out, "<li class=\"leaf\" data-n=\"%u\"><span class=\"row\">", pos[i]);
		node_row(out, p, t, i, whole);
		buf_puts(out, "</span></li>\n");
		return 0;
	}
	buf_printf(out, "<li data-n=\"%u\"><details%s><summary>", pos[i],
		   (double)ptree_weight(t, i) >= TREE_OPEN_SHARE * (double)whole ? " open" : "");
	node_row(out, p, t, i, whole);
	buf_puts(out, "</summary>\n<ul>\n");
	return 1;
}

/* tree_html: the shown part of t as nested lists; returns how many nodes it showed, *deep
 * whether the depth limit hid some. */
static size_t tree_html(struct buf *out, const struct profile *p, const struct ptree *t,
			uint64_t whole, uint64_t cut, int *deep)
{
	struct tree_frame *stack = xmalloc((TREE_MAX_DEPTH + 1) * sizeof(*stack));
	uint32_t *pos = flame_order(t, NULL);
	size_t shown = 0;

	buf_printf(out, "<ul class=\"tree\" id=\"tree\" data-whole=\"%llu\">\n",
		   (unsigned long long)whole);
	for (size_t r = 0; r < t->nroots && ptree_weight(t, t->roots[r]) >= cut; r++) {
		size_t depth = 0;

		shown++;
		if (!open_node(out, p, t, pos, t->roots[r], whole))
			continue;
		stack[0] = (struct tree_frame){ t->roots[r], 0 };
		for (;;) {
			struct tree_frame *f = &stack[depth];
			int64_t kid = depth < TREE_MAX_DEPTH ? next_kid(t, f, cut) : -1;

			if (kid >= 0) {
				shown++;
				if (open_node(out, p, t, pos, (uint32_t)kid, whole))
					stack[++depth] = (struct tree_frame){ (uint32_t)kid, 0 };
				continue;
			}
			if (depth >= TREE_MAX_DEPTH)
				*deep = 1;
			hidden_line(out, t, pos, f->node, cut, depth >= TREE_MAX_DEPTH);
			buf_puts(out, "</ul>\n</details></li>\n");
			if (depth == 0)
				break;
			depth--;
		}
	}
	buf_puts(out, "</ul>\n");
	free(pos);
	free(stack);
	return shown;
}

static int tree_page(struct render_ctx *ctx, const struct ptree *t, uint64_t run_ns, int64_t thread)
{
	const struct profile *p = ctx->prof;
	uint64_t whole = t->by_calls || !run_ns ? t->total : run_ns;
	uint64_t cut = tree_cutoff(t, whole);
	struct buf heading = BUF_INIT, title = BUF_INIT, lede = BUF_INIT, tabs = BUF_INIT,
		   tree = BUF_INIT;
	char path[48], data[48], a[FMT_SIZE], b[FMT_SIZE], c[FMT_SIZE], d[FMT_SIZE];
	size_t shown;
	int rc, deep = 0;

	buf_puts(&heading, "Call tree \xe2\x80\x94 ");
	if (thread < 0)
		buf_puts(&heading, p->nthreads > 1 ? "all threads" : "the whole run");
	else
		link_thread_label(&heading, p, (size_t)thread);
	link_view_tabs(&tabs, p, thread);
	shown = tree_html(&tree, p, t, whole, cut, &deep);
	buf_printf(
		&lede,
		"<p class=\"lede\">One row per distinct call path, heaviest first: inclusive time, "
		"self time and calls of that path. Percentages are of %s%s. "
		"Click a row to fold or unfold it; names lead to the function pages.</p>\n",
		t->by_calls ? "all calls (this dump has no times)" : "the run, ",
		t->by_calls ? "" : fmt_ns(a, whole));
	if (shown < t->n)
		buf_printf(&lede,
			   "<p class=\"pruned\" id=\"pruned\">Showing %s of %s call paths: %s "
			   "paths lighter "
			   "than %s%s each%s are hidden; a line under each parent says how much"
			   "<span class=\"js-only\" hidden> and shows them</span>.</p>\n",
			   fmt_count(a, shown), fmt_count(b, t->n), fmt_count(c, t->n - shown),
			   t->by_calls ? fmt_count(d, cut) : fmt_ns(d, cut),
			   t->by_calls ? " calls" : "",
			   deep ? ", or nested deeper than " TREE_MAX_DEPTH_TEXT " levels," : "");
	else if (!t->n)
		buf_puts(&lede, "<p class=\"pruned\">The tree is empty: no instrumented function "
				"ran.</p>\n");
	note_fold(&lede, p, thread);

	struct tmpl_var vars[] = {
		{ "heading", heading.data },
		{ "lede", lede.data },
		{ "tabs", tabs.data },
		{ "tree", tree.data },
		{ "data", data },
		{ "views", "<p class=\"views\">Also: <a href=\"callers.html\">the callers "
			   "tree</a>, bottom-up: "
			   "every function with the paths that called it.</p>\n" },
	};
	/* The page title is plain text: the label is escaped HTML, so strip nothing and reuse words. */
	buf_puts(&title, thread < 0 ? "Call tree" : "Call tree, thread ");
	if (thread >= 0)
		buf_printf(&title, "%lld", (long long)thread + 1);
	/* The flame graph's data file holds the whole tree: the page shows hidden paths from it. */
	if (thread < 0) {
		snprintf(path, sizeof(path), "tree/all.html");
		snprintf(data, sizeof(data), "../flame/all.data.js");
	} else {
		snprintf(path, sizeof(path), "tree/t%lld.html", (long long)thread);
		snprintf(data, sizeof(data), "../flame/t%lld.data.js", (long long)thread);
	}
	rc = layout_page(ctx, path, "../", "tree", title.data, "tree.html", vars,
			 sizeof(vars) / sizeof(vars[0]));
	buf_release(&heading);
	buf_release(&title);
	buf_release(&lede);
	buf_release(&tabs);
	buf_release(&tree);
	return rc;
}

int render_tree(struct render_ctx *ctx)
{
	const struct profile *p = ctx->prof;
	int rc = tree_page(ctx, &p->tree, p->run_ns, -1);

	for (size_t t = 0; t < p->nthreads && render_thread_has_pages(t) && rc == 0; t++)
		rc = tree_page(ctx, &p->threads[t].tree, p->threads[t].run_ns, (int64_t)t);
	return rc;
}
