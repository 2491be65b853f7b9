/* render_diff_function.c: fn/<i>.html of a diff, one page per function: its figures before
 * and after, and how the time of each of its callees and callers changed. */
#include <stdio.h>

#include "cell.h"
#include "diff.h"
#include "diff_table.h"
#include "fmt.h"
#include "html.h"
#include "layout.h"
#include "link.h"
#include "note.h"
#include "render.h"

static void status(struct buf *out, const struct diff *d, const struct diff_func *f)
{
	char a[FMT_SIZE];

	if (f->fn[DIFF_BASE] < 0)
		buf_puts(out, "<p class=\"status new\">Only the new build ran it: it appeared "
			      "(new, or renamed).</p>\n");
	else if (f->fn[DIFF_NEW] < 0)
		buf_puts(out, "<p class=\"status gone\">Only the base build ran it: it vanished "
			      "(removed, renamed, "
			      "or no longer called).</p>\n");
	if (f->tripped)
		buf_printf(out,
			   "<p class=\"status tripped\">Its inclusive time grew by more than %g%% "
			   "and %s%s: "
			   "it tripped the gate.</p>\n",
			   d->fail_above_pct, fmt_ns(a, d->min_ns),
			   estimate_noise(f->est[0].incl_ns, f->est[1].incl_ns) > 0
				   ? ", beyond the noise"
				   : "");
	if (f->tripped_calls)
		buf_printf(out,
			   "<p class=\"status tripped\">Its calls grew by more than %g%%: it "
			   "tripped the gate.</p>\n",
			   d->calls_above_pct);
}

/* tile: one figure before and after, with the noise of the change where runs gave one; count: a count, not a time. */
static void tile(struct buf *out, const char *id, const char *label, uint64_t before,
		 uint64_t after, int count, struct estimate est_before, struct estimate est_after)
{
	double noise = estimate_noise(est_before, est_after);

	char a[FMT_SIZE], b[FMT_SIZE], c[FMT_SIZE];

	buf_printf(out, "<div><dt>%s</dt><dd id=\"%s\" data-before=\"%llu\" data-after=\"%llu\">",
		   label, id, (unsigned long long)before, (unsigned long long)after);
	if (count)
		buf_printf(out, "%s \xe2\x86\x92 %s", fmt_count(a, before), fmt_count(b, after));
	else
		buf_printf(out, "%s \xe2\x86\x92 %s", fmt_ns(a, before), fmt_ns(b, after));
	buf_printf(out, "</dd><dd class=\"note\">%s", fmt_change(a, before, after));
	if (!count)
		buf_printf(out, ", %s", fmt_ns_delta(c, before, after));
	if (noise > 0 && count)
		buf_printf(out, "; noise \xc2\xb1%.1f", noise);
	else if (noise > 0)
		buf_printf(out, "; noise \xc2\xb1%s", fmt_ns_f(c, noise));
	buf_puts(out, "</dd></div>\n");
}

static void figures(struct buf *out, const struct diff_func *f)
{
	const struct pstat *st = f->st;

	tile(out, "fig-calls", "Calls", st[0].calls, st[1].calls, 1, f->est[0].calls,
	     f->est[1].calls);
	tile(out, "fig-self", "Self", st[0].self_ns, st[1].self_ns, 0, f->est[0].self_ns,
	     f->est[1].self_ns);
	tile(out, "fig-incl", "Inclusive", st[0].incl_ns, st[1].incl_ns, 0, f->est[0].incl_ns,
	     f->est[1].incl_ns);
}

/* edge_table: the edges list[0..n) of one function, the other end of each linked (callees: to the callee). */
static void edge_table(struct buf *out, const struct diff *d, const uint32_t *list, size_t n,
		       int callees)
{
	const char *id = callees ? "callees" : "callers";
	unsigned sites = 0;

	if (!n) {
		buf_printf(out, "<p class=\"muted\">%s</p>\n",
			   callees ? "It calls no instrumented function in either build."
				   : "No recorded callers.");
		return;
	}
	buf_printf(
		out,
		"<div class=\"wide\"><table class=\"profile sortable diff\" id=\"%s\">\n<thead><tr>"
		"<th data-sort=\"text\">%s</th>",
		id, callees ? "Callee" : "Caller");
	diff_table_head(out);
	buf_puts(out, "<th data-sort=\"text\">Call site</th></tr></thead>\n<tbody>\n");
	for (size_t i = 0; i < n; i++) {
		const struct diff_edge *e = &d->edges[list[i]];

		buf_puts(out, "<tr><td class=\"name\">");
		if (callees)
			link_diff_fn(out, d, e->callee, LINK_FN_ROOT);
		else if (e->caller >= 0)
			link_diff_fn(out, d, (uint32_t)e->caller, LINK_FN_ROOT);
		else
			buf_puts(out, "<span class=\"muted\">(thread root)</span>");
		buf_puts(out, "</td>");
		diff_table_cells(out, e->st, e->est, diff_noise_k(d));
		sites |= cell_site(out, e->call_file, e->call_line, e->site, e->caller < 0);
		buf_puts(out, "</tr>\n");
	}
	buf_puts(out, "</tbody>\n</table></div>\n");
	cell_site_legend(out, sites);
}

static int render_one(struct render_ctx *ctx, uint32_t fn, struct buf parts[6])
{
	const struct diff *d = ctx->diff;
	const struct diff_func *f = &d->funcs[fn];
	char path[48];
	enum { NAME, LOCATION, STATUS, FIGURES, CALLEES, CALLERS };

	for (int i = 0; i < 6; i++)
		buf_reset(&parts[i]);
	html_escape(&parts[NAME], f->name[0] ? f->name : "(anonymous)");
	note_location(&parts[LOCATION], f->file, f->line, f->module);
	status(&parts[STATUS], d, f);
	figures(&parts[FIGURES], f);
	edge_table(&parts[CALLEES], d, d->by_caller + f->callees, f->ncallees, 1);
	edge_table(&parts[CALLERS], d, d->by_callee + f->callers, f->ncallers, 0);

	struct tmpl_var vars[] = {
		{ "root", LINK_FN_ROOT },
		{ "name", parts[NAME].data },
		{ "location", parts[LOCATION].data },
		{ "status", parts[STATUS].data },
		{ "figures", parts[FIGURES].data },
		{ "callees", parts[CALLEES].data },
		{ "callers", parts[CALLERS].data },
	};
	link_fn_path(path, sizeof(path), fn);
	return layout_page(ctx, path, LINK_FN_ROOT, "functions", f->name, "diff-function.html",
			   vars, sizeof(vars) / sizeof(vars[0]));
}

int render_diff_function(struct render_ctx *ctx)
{
	struct buf parts[6];
	int rc = 0;

	for (int i = 0; i < 6; i++)
		buf_init(&parts[i]);
	for (size_t fn = 0; fn < ctx->diff->nfuncs && rc == 0; fn++)
		rc = render_one(ctx, (uint32_t)fn, parts);
	for (int i = 0; i < 6; i++)
		buf_release(&parts[i]);
	return rc;
}
