/* render_summary.c: summary.md, the run's key figures and top functions in Markdown
 * (for CI job summaries; the index shows it too). */
#include <stdio.h>
#include <string.h>

#include "fmt.h"
#include "layout.h"
#include "link.h"
#include "markdown.h"
#include "render.h"

#define SUMMARY_TOP 10 /* functions listed by self and by inclusive time */

static void summary_program(struct buf *md, const struct profile *p, int no_argv)
{
	const struct run *d = p->runs[0];

	buf_puts(md, "- Program: ");
	md_command(md, d, no_argv);
	if (p->nruns > 1)
		buf_printf(md, " (%zu dumps merged)", p->nruns);
	else if (d->has_pid)
		buf_printf(md, " (pid %lld)", (long long)d->pid);
	buf_puts(md, "\n");
}

static void summary_figures(struct buf *md, const struct profile *p)
{
	char a[FMT_SIZE], b[FMT_SIZE], c[FMT_SIZE], a2[FMT_SIZE];

	buf_printf(md, "- Wall time: %s; %zu thread%s, %s function%s, %s call%s\n",
		   fmt_ns(a, p->wall_ns), p->nthreads, p->nthreads == 1 ? "" : "s",
		   fmt_count(b, p->nfuncs), p->nfuncs == 1 ? "" : "s", fmt_count(c, p->calls),
		   p->calls == 1 ? "" : "s");
	if (p->has_cpu)
		buf_printf(md,
			   "- On a CPU: %s of the %s profiled (%s); off it (blocked, asleep, "
			   "waiting to run): %s\n",
			   fmt_ns(a, p->cpu_run_ns), fmt_ns(b, p->run_ns),
			   fmt_pct(c, p->cpu_run_ns, p->run_ns),
			   fmt_ns(a2, p->run_ns - p->cpu_run_ns));
	if (p->has_overhead)
		buf_printf(md,
			   "- Instrumentation: about %s, %s of the run (calls \xc3\x97 calibrated "
			   "probe cost)\n",
			   fmt_ns_f(a, p->overhead_ns),
			   fmt_pct(b, (uint64_t)p->overhead_ns, p->raw_run_ns));
}

static void summary_list(struct buf *md, const struct profile *p, const uint32_t *order,
			 int by_self)
{
	char a[FMT_SIZE], b[FMT_SIZE], c[FMT_SIZE];
	size_t n = p->nfuncs < SUMMARY_TOP ? p->nfuncs : SUMMARY_TOP;

	for (size_t i = 0; i < n; i++) {
		const struct pfunc *f = &p->funcs[order[i]];
		uint64_t main_ns = by_self ? f->st.self_ns : f->st.incl_ns;

		buf_printf(md, "%zu. ", i + 1);
		md_name_short(md, f->name);
		pfunc_put_tell(md, f, md_text);
		buf_printf(md, " \xe2\x80\x94 %s %s (%s), %s call%s\n",
			   by_self ? "self" : "inclusive", fmt_ns(a, main_ns),
			   fmt_pct(b, main_ns, p->run_ns), fmt_count(c, f->st.calls),
			   f->st.calls == 1 ? "" : "s");
	}
	if (!n)
		buf_puts(md, "No function ran.\n");
}

int render_summary(struct render_ctx *ctx)
{
	const struct profile *p = ctx->prof;
	struct buf *md = &ctx->summary_md;

	buf_reset(md);
	buf_puts(md, "# ");
	md_text(md, layout_title(ctx));
	buf_puts(md, "\n\n");
	summary_program(md, p, ctx->no_argv);
	summary_figures(md, p);
	buf_puts(md, "\n## Top functions by self time\n\n");
	summary_list(md, p, p->by_self, 1);
	buf_puts(md, "\n## Top functions by inclusive time\n\n");
	summary_list(md, p, p->by_incl, 0);
	buf_puts(md, "\nThe full report is in `index.html` beside this file.\n");
	return site_write(ctx->site, "summary.md", md->data, md->len);
}
