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

static int flame_page(struct render_ctx *ctx, const struct ptree *t, uint64_t run_ns,
		      int64_t thread)
{
	const struct profile *p = ctx->prof;
	struct flame_view v = {
		p, t, t->by_calls || !run_ns ? t->total : run_ns, NULL, NULL, 0, 0
	};
	struct buf heading = BUF_INIT, title = BUF_INIT, lede = BUF_INIT, tabs = BUF_INIT;
	struct buf svg = BUF_INIT, data = BUF_INIT;
	char path[48], data_name[32], a[FMT_SIZE], b[FMT_SIZE];
	size_t hidden;
	int rc;

	buf_puts(&heading, "Flame graph \xe2\x80\x94 ");
	if (thread < 0)
		buf_puts(&heading, p->nthreads > 1 ? "all threads" : "the whole run");
	else
		link_thread_label(&heading, p, (size_t)thread);
	link_view_tabs(&tabs, p, thread);
	hidden = flame_svg(&svg, &v);
	buf_printf(&lede,
		   "<p class=\"lede\">Each box is a call path: its width is its share of %s, "
		   "its callees sit below it, heaviest on the left. <span "
		   "id=\"flame-static-hint\">Hover for "
		   "figures, click for the function's page.</span></p>\n",
		   t->by_calls ? "all calls (this dump has no times)" : "the time");
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
	if (thread < 0)
		snprintf(data_name, sizeof(data_name), "all.data.js");
	else
		snprintf(data_name, sizeof(data_name), "t%lld.data.js", (long long)thread);

	struct tmpl_var vars[] = {
		{ "heading", heading.data }, { "lede", lede.data },
		{ "tabs", tabs.data },       { "legend", "" },
		{ "data", data_name },       { "svg", svg.data },
	};
	buf_puts(&title, thread < 0 ? "Flame graph" : "Flame graph, thread ");
	if (thread >= 0)
		buf_printf(&title, "%lld", (long long)thread + 1);
	snprintf(path, sizeof(path), "flame/%s", data_name);
	flame_data(&data, &v);
	rc = site_write(ctx->site, path, data.data, data.len);
	snprintf(path, sizeof(path), "flame/%.*s.html", (int)(strlen(data_name) - 8), data_name);
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

int render_flame(struct render_ctx *ctx)
{
	const struct profile *p = ctx->prof;
	int rc = flame_page(ctx, &p->tree, p->run_ns, -1);

	for (size_t t = 0; t < p->nthreads && render_thread_has_pages(t) && rc == 0; t++)
		rc = flame_page(ctx, &p->threads[t].tree, p->threads[t].run_ns, (int64_t)t);
	return rc;
}
