/* render_diff_summary.c: summary.md of a diff: what was compared, the gate, the top
 * regressions and improvements, what appeared or vanished (for CI job summaries). */
#include <stdio.h>

#include "diff.h"
#include "fmt.h"
#include "layout.h"
#include "link.h"
#include "markdown.h"
#include "render.h"

#define DIFF_SUMMARY_TOP 10   /* regressions and improvements listed */
#define DIFF_SUMMARY_NAMES 10 /* appeared or vanished functions named */

static void md_name(struct buf *md, const struct diff *d, uint32_t fn)
{
	const struct diff_func *f = &d->funcs[fn];

	md_name_short(md, f->name);
	diff_func_put_tell(md, f, md_text);
}

/* md_side: "`prog args`: 5 runs of 2 workloads, 12 dumps; a typical run: 8.00 ms profiled, 1,234 calls". */
static void md_side(struct buf *md, const struct diff *d, int s, int no_argv)
{
	const struct profile *p = &d->side[s];
	const struct runs_plan *pl = &d->plan[s];
	const struct runs_side *r = &d->runs[s];
	const struct run *dp = p->runs[0];
	char a[FMT_SIZE], b[FMT_SIZE];

	md_command(md, dp, no_argv);
	if (pl->nruns > 1)
		buf_printf(md, " and others: %zu runs of %zu workload%s (%zu dumps); a typical run",
			   pl->nruns, pl->ngroups, pl->ngroups == 1 ? "" : "s", p->nruns);
	else if (p->nruns > 1)
		buf_printf(md, " (%zu dumps merged)", p->nruns);
	buf_printf(md, ": %s profiled, %s call%s\n", fmt_ns(a, runs_round(r->total.self_ns)),
		   fmt_count(b, runs_round(r->total.calls)),
		   runs_round(r->total.calls) == 1 ? "" : "s");
}

static void md_figures(struct buf *md, const struct diff *d, int no_argv)
{
	char x[FMT_SIZE], y[FMT_SIZE], z[FMT_SIZE], w[FMT_SIZE];
	uint64_t before = runs_round(d->runs[0].total.self_ns),
		 after = runs_round(d->runs[1].total.self_ns);

	buf_puts(md, "- Base: ");
	md_side(md, d, DIFF_BASE, no_argv);
	buf_puts(md, "- New: ");
	md_side(md, d, DIFF_NEW, no_argv);
	buf_printf(md, "- Profiled time: %s \xe2\x86\x92 %s (%s, %s)\n", fmt_ns(x, before),
		   fmt_ns(y, after), fmt_ns_delta(z, before, after), fmt_change(w, before, after));
	buf_printf(md, "- Functions: %zu in both, %zu appeared, %zu vanished\n",
		   d->nfuncs - d->nappeared - d->nvanished, d->nappeared, d->nvanished);
	if (!d->gated && !d->gated_calls)
		return;
	buf_puts(md, "- Gate (");
	if (d->gated)
		buf_printf(md, "inclusive time up by more than %g%% and %s", d->fail_above_pct,
			   fmt_ns(x, d->min_ns));
	if (d->gated_calls)
		buf_printf(md, "%scalls up by more than %g%%", d->gated ? ", or " : "",
			   d->calls_above_pct);
	if (d->plan[0].nruns > d->plan[0].ngroups || d->plan[1].nruns > d->plan[1].ngroups)
		buf_printf(md, ", beyond %g\xc3\x97 the noise", d->noise_k);
	buf_puts(md, "): ");
	if (!d->ntripped) {
		buf_puts(md, "passed\n");
		return;
	}
	buf_printf(md, "**%zu function%s tripped it**: ", d->ntripped, d->ntripped == 1 ? "" : "s");
	for (size_t i = 0; i < d->ntripped && i < DIFF_SUMMARY_NAMES; i++) {
		buf_puts(md, i ? ", " : "");
		md_name(md, d, d->tripped[i]);
	}
	if (d->ntripped > DIFF_SUMMARY_NAMES)
		buf_printf(md, " and %zu more", d->ntripped - DIFF_SUMMARY_NAMES);
	buf_puts(md, "\n");
}

/* md_change: one function's line in a list of regressions or improvements. */
static void md_change(struct buf *md, const struct diff *d, uint32_t fn, size_t rank)
{
	const struct pstat *st = d->funcs[fn].st;
	char a[FMT_SIZE], b[FMT_SIZE], c[FMT_SIZE], e[FMT_SIZE];

	buf_printf(md, "%zu. ", rank);
	md_name(md, d, fn);
	if (d->funcs[fn].fn[DIFF_BASE] < 0 || d->funcs[fn].fn[DIFF_NEW] < 0)
		buf_puts(md, d->funcs[fn].fn[DIFF_BASE] < 0 ? " (appeared)" : " (vanished)");
	buf_printf(md, " \xe2\x80\x94 self %s \xe2\x86\x92 %s (%s, %s)", fmt_ns(a, st[0].self_ns),
		   fmt_ns(b, st[1].self_ns), fmt_ns_delta(c, st[0].self_ns, st[1].self_ns),
		   fmt_change(e, st[0].self_ns, st[1].self_ns));
	buf_printf(md, "; inclusive %s \xe2\x86\x92 %s (%s)", fmt_ns(a, st[0].incl_ns),
		   fmt_ns(b, st[1].incl_ns), fmt_change(c, st[0].incl_ns, st[1].incl_ns));
	buf_printf(md, "; calls %s \xe2\x86\x92 %s\n", fmt_count(a, st[0].calls),
		   fmt_count(b, st[1].calls));
}

/* md_changes: the functions whose self time grew (up) or shrank by more than min_ns, biggest first. */
/* stands_out: f's self time moved (up, or down) by more than min_ns and beyond the runs' noise. */
static int stands_out(const struct diff *d, const struct diff_func *f, int up)
{
	uint64_t before = f->st[DIFF_BASE].self_ns, after = f->st[DIFF_NEW].self_ns;
	uint64_t by = up ? after - before : before - after;

	if (up ? after <= before : before <= after)
		return 0;
	return by > d->min_ns &&
	       (double)by > diff_noise_k(d) * estimate_noise(f->est[DIFF_BASE].self_ns,
							     f->est[DIFF_NEW].self_ns);
}

/* md_changes: the functions whose self time grew (up) or shrank beyond min_ns and the noise, biggest first. */
static void md_changes(struct buf *md, const struct diff *d, int up)
{
	size_t n = 0;
	char a[FMT_SIZE];
	int noise = d->plan[0].nruns > d->plan[0].ngroups || d->plan[1].nruns > d->plan[1].ngroups;

	for (size_t i = 0; i < d->nfuncs && n < DIFF_SUMMARY_TOP; i++)
		if (stands_out(d, &d->funcs[d->order[i]], up))
			md_change(md, d, d->order[i], ++n);
	if (!n)
		buf_printf(md, "No function's self time %s by more than %s%s.\n",
			   up ? "grew" : "shrank", fmt_ns(a, d->min_ns),
			   noise ? " beyond the noise of the runs" : "");
}

/* md_names: the functions only one side has (side: the one that has them). */
static void md_names(struct buf *md, const struct diff *d, int side, size_t count)
{
	size_t n = 0;

	buf_printf(md, "- %s (%zu): ", side == DIFF_NEW ? "Appeared" : "Vanished", count);
	for (size_t i = 0; i < d->nfuncs && n < DIFF_SUMMARY_NAMES; i++) {
		const struct diff_func *f = &d->funcs[d->order[i]];

		if (f->fn[!side] >= 0)
			continue;
		buf_puts(md, n++ ? ", " : "");
		md_name(md, d, d->order[i]);
	}
	if (count > n)
		buf_printf(md, " and %zu more", count - n);
	buf_puts(md, count ? "\n" : "none\n");
}

int render_diff_summary(struct render_ctx *ctx)
{
	const struct diff *d = ctx->diff;
	struct buf *md = &ctx->summary_md;

	buf_reset(md);
	buf_puts(md, "# ");
	md_text(md, layout_title(ctx));
	buf_puts(md, "\n\n");
	md_figures(md, d, ctx->no_argv);
	buf_puts(md, "\n## Top regressions (self time)\n\n");
	md_changes(md, d, 1);
	buf_puts(md, "\n## Top improvements (self time)\n\n");
	md_changes(md, d, 0);
	buf_puts(md, "\n## Appeared and vanished\n\n");
	md_names(md, d, DIFF_NEW, d->nappeared);
	md_names(md, d, DIFF_BASE, d->nvanished);
	buf_puts(md, "\nThe full diff is in `index.html` beside this file.\n");
	return site_write(ctx->site, "summary.md", md->data, md->len);
}
