/* render_diff_index.c: index.html of a diff: what was compared, the gate, every function and
 * the most changed edges by change, and the functions that appeared or vanished. */
#include <stdio.h>

#include "cell.h"
#include "diff.h"
#include "diff_table.h"
#include "fmt.h"
#include "html.h"
#include "layout.h"
#include "link.h"
#include "markdown.h"
#include "render.h"

#define DIFF_INDEX_EDGES 200 /* edges listed on the index; every one is on its functions' pages */

static void fact(struct buf *out, const char *label, const char *html)
{
	buf_printf(out, "<div><dt>%s</dt><dd>%s</dd></div>\n", label, html);
}

/* side_dumps: the dumps of one side, a line each: pid, file, date. */
static void side_dumps(struct buf *out, const struct profile *p, const char *label)
{
	struct buf v = BUF_INIT;

	for (size_t i = 0; i < p->nruns; i++) {
		const struct run *d = p->runs[i];

		buf_puts(&v, i ? "<br>" : "");
		if (d->has_pid)
			buf_printf(&v, "pid %lld \xe2\x80\x94 ", (long long)d->pid);
		buf_puts(&v, "<code class=\"dumpfile\">");
		html_escape(&v, d->path);
		buf_puts(&v, "</code>, <span class=\"date\">");
		html_escape(&v, d->date ? d->date : "date unknown");
		buf_puts(&v, "</span>");
	}
	fact(out, label, v.data);
	buf_release(&v);
}

/* before_after: "1.00 ms → 2.00 ms (+1.00 ms, +100.0%)" for a time, or counts when count is set. */
static void before_after(struct buf *out, const char *label, uint64_t before, uint64_t after, int count)
{
	char a[FMT_SIZE], b[FMT_SIZE], c[FMT_SIZE], d[FMT_SIZE];
	struct buf v = BUF_INIT;

	if (count)
		buf_printf(&v, "%s \xe2\x86\x92 %s (%s)", fmt_count(a, before), fmt_count(b, after),
			   fmt_change(d, before, after));
	else
		buf_printf(&v, "%s \xe2\x86\x92 %s (%s, %s)", fmt_ns(a, before), fmt_ns(b, after),
			   fmt_ns_delta(c, before, after), fmt_change(d, before, after));
	fact(out, label, v.data);
	buf_release(&v);
}

static void facts(struct buf *out, const struct diff *d)
{
	const struct profile *b = &d->side[DIFF_BASE], *n = &d->side[DIFF_NEW];
	const struct run *nd = n->runs[0];
	struct buf v = BUF_INIT;

	buf_puts(&v, "<code>");
	html_escape(&v, nd->program ? nd->program : nd->argc ? nd->argv[0] : "unknown");
	buf_puts(&v, "</code>");
	fact(out, "Program", v.data);
	side_dumps(out, b, b->nruns > 1 ? "Base (merged)" : "Base");
	side_dumps(out, n, n->nruns > 1 ? "New (merged)" : "New");
	before_after(out, "Profiled time", b->run_ns, n->run_ns, 0);
	before_after(out, "Wall time", b->wall_ns, n->wall_ns, 0);
	before_after(out, "Calls", b->calls, n->calls, 1);
	buf_reset(&v);
	buf_printf(&v, "%zu in both builds, <a href=\"#appeared\">%zu appeared</a>, "
		   "<a href=\"#vanished\">%zu vanished</a>", d->nfuncs - d->nappeared - d->nvanished,
		   d->nappeared, d->nvanished);
	fact(out, "Functions", v.data);
	buf_release(&v);
}

/* gate: the verdict of --fail-above, and the functions that tripped it. */
static void gate(struct buf *out, const struct diff *d)
{
	char a[FMT_SIZE], b[FMT_SIZE], c[FMT_SIZE], e[FMT_SIZE];

	if (!d->gated)
		return;
	buf_printf(out, "<section id=\"gate\" class=\"gate %s\">\n<h2>Gate: ", d->ntripped ? "tripped" : "passed");
	if (!d->ntripped) {
		buf_printf(out, "passed</h2>\n<p>No function's inclusive time grew by more than %g%% and %s.</p>\n"
			   "</section>\n", d->fail_above_pct, fmt_ns(a, d->min_ns));
		return;
	}
	buf_printf(out, "%zu function%s tripped it</h2>\n<p>Inclusive time grew by more than %g%% and %s:</p>\n"
		   "<ul>\n", d->ntripped, d->ntripped == 1 ? "" : "s", d->fail_above_pct, fmt_ns(a, d->min_ns));
	for (size_t i = 0; i < d->ntripped; i++) {
		const struct pstat *st = d->funcs[d->tripped[i]].st;

		buf_puts(out, "<li>");
		link_diff_fn(out, d, d->tripped[i], "");
		buf_printf(out, ": %s \xe2\x86\x92 %s (%s, %s)</li>\n", fmt_ns(a, st[0].incl_ns), fmt_ns(b, st[1].incl_ns),
			   fmt_ns_delta(c, st[0].incl_ns, st[1].incl_ns), fmt_change(e, st[0].incl_ns, st[1].incl_ns));
	}
	buf_puts(out, "</ul>\n</section>\n");
}

static void edges(struct buf *out, const struct diff *d)
{
	size_t n = d->nedges < DIFF_INDEX_EDGES ? d->nedges : DIFF_INDEX_EDGES;

	buf_puts(out, "<div class=\"wide\"><table class=\"profile sortable diff\" id=\"edges-table\">\n"
		      "<thead><tr><th data-sort=\"text\">Caller</th><th data-sort=\"text\">Callee</th>");
	diff_table_head(out);
	buf_puts(out, "</tr></thead>\n<tbody>\n");
	for (size_t i = 0; i < n; i++) {
		const struct diff_edge *e = &d->edges[d->edge_order[i]];

		buf_puts(out, "<tr><td class=\"name\">");
		if (e->caller >= 0)
			link_diff_fn(out, d, (uint32_t)e->caller, "");
		else
			buf_puts(out, "<span class=\"muted\">(thread root)</span>");
		buf_puts(out, "</td><td class=\"name\">");
		link_diff_fn(out, d, e->callee, "");
		buf_puts(out, "</td>");
		diff_table_cells(out, e->st);
		buf_puts(out, "</tr>\n");
	}
	buf_puts(out, "</tbody>\n</table></div>\n");
	if (n < d->nedges)
		buf_printf(out, "<p class=\"hidden-note\">%zu more pairs with smaller changes: each function's "
			   "page lists all of its own.</p>\n", d->nedges - n);
}

/* one_side: the functions only side has (appeared: DIFF_NEW, vanished: DIFF_BASE), with its figures. */
static void one_side(struct buf *out, const struct diff *d, int side, const char *id)
{
	size_t n = 0;

	buf_printf(out, "<table class=\"profile sortable\" id=\"%s\">\n<thead><tr><th data-sort=\"text\">Function</th>"
		   "<th data-sort=\"num\">Calls</th><th data-sort=\"num\">Self</th><th data-sort=\"num\">Inclusive</th>"
		   "</tr></thead>\n<tbody>\n", id);
	for (size_t i = 0; i < d->nfuncs; i++) {
		const struct diff_func *f = &d->funcs[d->order[i]];

		if (f->fn[!side] >= 0)
			continue;
		buf_puts(out, "<tr><td class=\"name\">");
		link_diff_fn(out, d, d->order[i], "");
		buf_puts(out, "</td>");
		cell_count(out, f->st[side].calls);
		cell_time(out, f->st[side].self_ns);
		cell_time(out, f->st[side].incl_ns);
		buf_puts(out, "</tr>\n");
		n++;
	}
	buf_puts(out, "</tbody>\n</table>\n");
	if (!n) {
		buf_reset(out);
		buf_printf(out, "<p class=\"muted\" id=\"%s\">None.</p>\n", id);
	}
}

int render_diff_index(struct render_ctx *ctx)
{
	const struct diff *d = ctx->diff;
	enum { HEADING, FACTS, GATE, FUNCS, EDGES, APPEARED, VANISHED, SUMMARY, NPARTS };
	struct buf parts[NPARTS];
	char nfuncs[FMT_SIZE], nedges[FMT_SIZE], nappeared[FMT_SIZE], nvanished[FMT_SIZE];
	int rc;

	for (size_t i = 0; i < NPARTS; i++)
		buf_init(&parts[i]);
	html_escape(&parts[HEADING], layout_title(ctx));
	facts(&parts[FACTS], d);
	gate(&parts[GATE], d);
	diff_table_functions(&parts[FUNCS], d, DIFF_TABLE_INDEX_FUNCS);
	edges(&parts[EDGES], d);
	one_side(&parts[APPEARED], d, DIFF_NEW, "appeared-table");
	one_side(&parts[VANISHED], d, DIFF_BASE, "vanished-table");
	md_render_html(&parts[SUMMARY], ctx->summary_md.data, ctx->summary_md.len);

	struct tmpl_var vars[] = {
		{ "heading", parts[HEADING].data },
		{ "facts", parts[FACTS].data },
		{ "gate", parts[GATE].data },
		{ "summary", parts[SUMMARY].data },
		{ "functions", parts[FUNCS].data },
		{ "nfuncs", fmt_count(nfuncs, d->nfuncs) },
		{ "edges", parts[EDGES].data },
		{ "nedges", fmt_count(nedges, d->nedges) },
		{ "appeared", parts[APPEARED].data },
		{ "nappeared", fmt_count(nappeared, d->nappeared) },
		{ "vanished", parts[VANISHED].data },
		{ "nvanished", fmt_count(nvanished, d->nvanished) },
	};
	rc = layout_page(ctx, "index.html", "", "index", "Overview", "diff.html", vars,
			 sizeof(vars) / sizeof(vars[0]));
	for (size_t i = 0; i < NPARTS; i++)
		buf_release(&parts[i]);
	return rc;
}
