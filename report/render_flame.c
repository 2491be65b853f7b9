/* render_flame.c: flame/all.html and flame/t<k>.html: the calling-context tree as a flame graph
 * (flame.h), a static picture that static/flame.js makes interactive from <page>.data.js beside it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "flame.h"
#include "fmt.h"
#include "html.h"
#include "layout.h"
#include "link.h"
#include "note.h"
#include "render.h"

/* The page names of a flame graph: "all" or "t<k>", and "-cpu" for CPU time's. */
static void page_name(char *out, size_t size, int64_t thread, int cpu)
{
	if (thread < 0)
		snprintf(out, size, "all%s", cpu ? "-cpu" : "");
	else
		snprintf(out, size, "t%lld%s", (long long)thread, cpu ? "-cpu" : "");
}

/* With CPU time, the switch between a flame graph of wall time and one of CPU time. */
static void time_switch(struct buf *out, int64_t thread, int cpu)
{
	char wall_page[32], cpu_page[32];

	page_name(wall_page, sizeof(wall_page), thread, 0);
	page_name(cpu_page, sizeof(cpu_page), thread, 1);
	buf_puts(out, "<p class=\"time-switch\" id=\"time-switch\">Time: ");
	if (cpu)
		buf_printf(out,
			   "<a href=\"%s.html\" id=\"to-wall\">wall</a> &middot; "
			   "<strong>on a CPU</strong> (off-CPU time, blocked or waiting, left out)",
			   wall_page);
	else
		buf_printf(out,
			   "<strong>wall</strong> &middot; <a href=\"%s.html\" "
			   "id=\"to-cpu\">on a CPU</a>",
			   cpu_page);
	buf_puts(out, "</p>\n");
}

static int flame_page(struct render_ctx *ctx, const struct ptree *t, uint64_t run_ns,
		      int64_t thread, int cpu)
{
	const struct profile *p = ctx->prof;
	struct flame_view v = { p, t,   t->by_calls || !run_ns ? t->total : run_ns, NULL, NULL, 0,
				0, !cpu };
	struct buf heading = BUF_INIT, title = BUF_INIT, lede = BUF_INIT, tabs = BUF_INIT;
	struct buf svg = BUF_INIT, data = BUF_INIT;
	char path[48], name[32], data_name[40], a[FMT_SIZE], b[FMT_SIZE];
	size_t hidden;
	int rc;

	buf_puts(&heading,
		 cpu ? "Flame graph of CPU time \xe2\x80\x94 " : "Flame graph \xe2\x80\x94 ");
	if (thread < 0)
		buf_puts(&heading, p->nthreads > 1 ? "all threads" : "the whole run");
	else
		link_thread_label(&heading, p, (size_t)thread);
	link_view_tabs(&tabs, p, thread);
	hidden = flame_svg(&svg, &v);
	if (p->has_cpu && !t->by_calls)
		time_switch(&lede, thread, cpu);
	buf_printf(&lede,
		   "<p class=\"lede\">Each box is a call path: its width is its share of %s, "
		   "its callees sit below it, heaviest on the left. <span "
		   "id=\"flame-static-hint\">Hover for "
		   "figures, click for the function's page.</span></p>\n",
		   t->by_calls ? "all calls (this dump has no times)"
		   : cpu       ? "the time on a CPU"
			       : "the time");
	if (hidden)
		buf_printf(&lede,
			   "<p class=\"pruned\" id=\"pruned\">%s of %s call paths are too narrow "
			   "to draw "
			   "(under %.2f%% of the width) or nested deeper than %d levels<span "
			   "class=\"js-only\" hidden>: "
			   "zoom in to see them</span>.</p>\n",
			   fmt_count(a, hidden), fmt_count(b, t->n),
			   100.0 * FLAME_MIN_WIDTH / FLAME_WIDTH, FLAME_MAX_DEPTH);
	note_fold(&lede, p, thread);
	page_name(name, sizeof(name), thread, cpu);
	snprintf(data_name, sizeof(data_name), "%s.data.js", name);

	struct tmpl_var vars[] = {
		{ "heading", heading.data }, { "lede", lede.data },
		{ "tabs", tabs.data },       { "legend", "" },
		{ "data", data_name },       { "svg", svg.data },
	};
	buf_puts(&title, thread < 0 ? "Flame graph" : "Flame graph, thread ");
	if (thread >= 0)
		buf_printf(&title, "%lld", (long long)thread + 1);
	if (cpu)
		buf_puts(&title, ", CPU time");
	snprintf(path, sizeof(path), "flame/%s", data_name);
	flame_data(&data, &v);
	rc = site_write(ctx->site, path, data.data, data.len);
	snprintf(path, sizeof(path), "flame/%s.html", name);
	if (rc == 0)
		rc = layout_page(ctx, path, "../", "flame", title.data, "flame.html", vars,
				 sizeof(vars) / sizeof(vars[0]));
	buf_release(&heading);
	buf_release(&title);
	buf_release(&lede);
	buf_release(&tabs);
	buf_release(&svg);
	buf_release(&data);
	return rc;
}

/* The flame graphs of tree t: of wall time, and with CPU time of CPU time too. */
static int flame_pages(struct render_ctx *ctx, const struct ptree *t, uint64_t run_ns,
		       uint64_t cpu_run_ns, int64_t thread)
{
	struct ptree cpu;
	int rc = flame_page(ctx, t, run_ns, thread, 0);

	if (rc < 0 || !ctx->prof->has_cpu || t->by_calls)
		return rc;
	profile_cpu_tree(t, &cpu);
	rc = flame_page(ctx, &cpu, cpu_run_ns, thread, 1);
	profile_tree_release(&cpu);
	return rc;
}

int render_flame(struct render_ctx *ctx)
{
	const struct profile *p = ctx->prof;
	int rc = flame_pages(ctx, &p->tree, p->run_ns, p->cpu_run_ns, -1);

	for (size_t t = 0; t < p->nthreads && render_thread_has_pages(t) && rc == 0; t++)
		rc = flame_pages(ctx, &p->threads[t].tree, p->threads[t].run_ns,
				 p->threads[t].cpu_run_ns, (int64_t)t);
	return rc;
}
