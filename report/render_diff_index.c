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
#include "note.h"
#include "render.h"

#define DIFF_INDEX_EDGES 200 /* edges listed on the index; every one is on its functions' pages */

static void fact(struct buf *out, const char *label, const char *html)
{
	buf_printf(out, "<div><dt>%s</dt><dd>%s</dd></div>\n", label, html);
}

/* side_runs: one side's runs: how many, of how many workloads, and its dumps (folded past a few). */
static void side_runs(struct buf *out, const struct diff *d, int s, const char *label)
{
	const struct runs_plan *pl = &d->plan[s];
	struct buf v = BUF_INIT;
	char a[FMT_SIZE], b[FMT_SIZE];

	if (pl->nruns > 1)
		buf_printf(&v, "%s runs of %s workload%s%s: ", fmt_count(a, pl->nruns),
			   fmt_count(b, pl->ngroups), pl->ngroups == 1 ? "" : "s",
			   pl->nruns == pl->ngroups ? " (one run each: no noise known)" : "");
	note_dumps(&v, &d->side[s]);
	fact(out, label, v.data);
	buf_release(&v);
}

/* with_noise: " ± 1.23 ms" for a time estimate, " ± 1.5" for a count, when its noise is known. */
static void with_noise(struct buf *v, struct estimate e, int count)
{
	char a[FMT_SIZE];

	if (e.se <= 0)
		return;
	if (count)
		buf_printf(v, " \xc2\xb1 %.1f", e.se);
	else
		buf_printf(v, " \xc2\xb1 %s", fmt_ns_f(a, e.se));
}

/* before_after: "1.00 ms ± 12 µs → 2.00 ms ± 15 µs (+1.00 ms, +100.0%)" for a time, or counts when count is set. */
static void before_after(struct buf *out, const char *label, struct estimate before,
			 struct estimate after, int count)
{
	char a[FMT_SIZE], b[FMT_SIZE], c[FMT_SIZE], e[FMT_SIZE];
	uint64_t x = runs_round(before), y = runs_round(after);
	struct buf v = BUF_INIT;

	buf_puts(&v, count ? fmt_count(a, x) : fmt_ns(a, x));
	with_noise(&v, before, count);
	buf_printf(&v, " \xe2\x86\x92 %s", count ? fmt_count(b, y) : fmt_ns(b, y));
	with_noise(&v, after, count);
	if (count)
		buf_printf(&v, " (%s)", fmt_change(e, x, y));
	else
		buf_printf(&v, " (%s, %s)", fmt_ns_delta(c, x, y), fmt_change(e, x, y));
	fact(out, label, v.data);
	buf_release(&v);
}

/* waits: how much of each side's wall time its threads waited for a CPU, and what was done with it. */
static void waits(struct buf *out, const struct diff *d)
{
	const struct runs_side *r = d->runs;
	char a[FMT_SIZE], b[FMT_SIZE];
	struct buf v = BUF_INIT;

	if (!r[0].nwait_threads && !r[1].nwait_threads)
		return;
	buf_printf(&v, "%s of the threads' wall time before, %s after: %s",
		   fmt_pct(a, r[0].wait_sum_ns, r[0].wall_sum_ns),
		   fmt_pct(b, r[1].wait_sum_ns, r[1].wall_sum_ns),
		   d->wall_clock ? "kept in the times (--wall-clock)"
				 : "taken out of the times compared (a loaded machine "
				   "makes code look slower where it was only waiting)");
	fact(out, "Waits for a CPU", v.data);
	buf_release(&v);
}

static void facts(struct buf *out, const struct render_ctx *ctx, const struct diff *d)
{
	const struct profile *n = &d->side[DIFF_NEW];
	const struct run *nd = n->runs[0];
	const struct runs_side *r = d->runs;
	struct buf v = BUF_INIT;
	int runs = d->plan[0].nruns > 1 || d->plan[1].nruns > 1;

	buf_puts(&v, "<code>");
	html_escape(&v, nd->program ? nd->program : nd->argc ? nd->argv[0] : "unknown");
	buf_puts(&v, "</code>");
	fact(out, "Program", v.data);
	if (n->nruns == 1 && d->side[DIFF_BASE].nruns == 1 && nd->argc > 1) {
		buf_reset(&v);
		note_args(&v, nd, ctx->no_argv);
		fact(out, "Arguments", v.data);
	}
	side_runs(out, d, DIFF_BASE, d->side[DIFF_BASE].nruns > 1 ? "Base (merged)" : "Base");
	side_runs(out, d, DIFF_NEW, n->nruns > 1 ? "New (merged)" : "New");
	before_after(out, runs ? "Profiled time (a typical run)" : "Profiled time",
		     r[0].total.self_ns, r[1].total.self_ns, 0);
	before_after(out, runs ? "Wall time (a typical run)" : "Wall time", r[0].wall_ns,
		     r[1].wall_ns, 0);
	before_after(out, runs ? "Calls (a typical run)" : "Calls", r[0].total.calls,
		     r[1].total.calls, 1);
	waits(out, d);
	buf_reset(&v);
	buf_printf(&v,
		   "%zu in both builds, <a href=\"#appeared\">%zu appeared</a>, "
		   "<a href=\"#vanished\">%zu vanished</a>",
		   d->nfuncs - d->nappeared - d->nvanished, d->nappeared, d->nvanished);
	fact(out, "Functions", v.data);
	buf_release(&v);
}

/* gate_rule: what the gates ask, as a sentence's middle: "inclusive time grew by more than 25% and 5.00 ms". */
static void gate_rule(struct buf *out, const struct diff *d)
{
	char a[FMT_SIZE];
	int noise = d->plan[0].nruns > d->plan[0].ngroups || d->plan[1].nruns > d->plan[1].ngroups;

	if (d->gated)
		buf_printf(out, "inclusive time grew by more than %g%% and %s", d->fail_above_pct,
			   fmt_ns(a, d->min_ns));
	if (d->gated && d->gated_calls)
		buf_puts(out, ", or ");
	if (d->gated_calls)
		buf_printf(out, "calls grew by more than %g%%", d->calls_above_pct);
	if (noise)
		buf_printf(out, ", beyond %g times the noise of the medians compared", d->noise_k);
}

/* gate: the verdict of --fail-above and --fail-on-calls, and the functions that tripped them. */
static void gate(struct buf *out, const struct diff *d)
{
	char a[FMT_SIZE], b[FMT_SIZE], c[FMT_SIZE], e[FMT_SIZE];

	if (!d->gated && !d->gated_calls)
		return;
	buf_printf(out, "<section id=\"gate\" class=\"gate %s\">\n<h2>Gate: ",
		   d->ntripped ? "tripped" : "passed");
	if (!d->ntripped) {
		buf_puts(out, "passed</h2>\n<p>No function's ");
		gate_rule(out, d);
		buf_puts(out, ".</p>\n</section>\n");
		return;
	}
	buf_printf(out, "%zu function%s tripped it</h2>\n<p>A function's ", d->ntripped,
		   d->ntripped == 1 ? "" : "s");
	gate_rule(out, d);
	buf_puts(out, ":</p>\n<ul>\n");
	for (size_t i = 0; i < d->ntripped; i++) {
		const struct diff_func *f = &d->funcs[d->tripped[i]];
		const struct pstat *st = f->st;

		buf_puts(out, "<li>");
		link_diff_fn(out, d, d->tripped[i], "");
		if (f->tripped)
			buf_printf(out, ": inclusive %s \xe2\x86\x92 %s (%s, %s)",
				   fmt_ns(a, st[0].incl_ns), fmt_ns(b, st[1].incl_ns),
				   fmt_ns_delta(c, st[0].incl_ns, st[1].incl_ns),
				   fmt_change(e, st[0].incl_ns, st[1].incl_ns));
		if (f->tripped_calls)
			buf_printf(out, "%s calls %s \xe2\x86\x92 %s (%s)", f->tripped ? ";" : ":",
				   fmt_count(a, st[0].calls), fmt_count(b, st[1].calls),
				   fmt_change(e, st[0].calls, st[1].calls));
		buf_puts(out, "</li>\n");
	}
	buf_puts(out, "</ul>\n</section>\n");
}

static void edges(struct buf *out, const struct diff *d)
{
	size_t n = d->nedges < DIFF_INDEX_EDGES ? d->nedges : DIFF_INDEX_EDGES;

	buf_puts(out,
		 "<div class=\"wide\"><table class=\"profile sortable diff\" id=\"edges-table\">\n"
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
		diff_table_cells(out, e->st, e->est, diff_noise_k(d));
		buf_puts(out, "</tr>\n");
	}
	buf_puts(out, "</tbody>\n</table></div>\n");
	if (n < d->nedges)
		buf_printf(out,
			   "<p class=\"hidden-note\">%zu more pairs with smaller changes: each "
			   "function's "
			   "page lists all of its own.</p>\n",
			   d->nedges - n);
}

/* one_side: the functions only side has (appeared: DIFF_NEW, vanished: DIFF_BASE), with its figures. */
static void one_side(struct buf *out, const struct diff *d, int side, const char *id)
{
	size_t n = 0;

	buf_printf(out,
		   "<table class=\"profile sortable\" id=\"%s\">\n<thead><tr><th "
		   "data-sort=\"text\">Function</th>"
		   "<th data-sort=\"num\">Calls</th><th data-sort=\"num\">Self</th><th "
		   "data-sort=\"num\">Inclusive</th>"
		   "</tr></thead>\n<tbody>\n",
		   id);
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
	facts(&parts[FACTS], ctx, d);
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
