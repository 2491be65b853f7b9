/* layout.c: what every page shares: page.html around its body, the title, the header navigation. */
#include <stdio.h>
#include <string.h>

#include "html.h"
#include "layout.h"
#include "site.h"

/* One entry of the header navigation: key (what layout_page's nav names), label, path from the root. */
struct nav_item {
	const char *key, *label, *path;
};

/* The header navigation of a report. */
static const struct nav_item nav_items[] = {
	{ "index", "Overview", "index.html" },
	{ "functions", "Functions", "index.html#flat" },
	{ "tree", "Call tree", "tree/all.html" },
	{ "flame", "Flame graph", "flame/all.html" },
	{ "threads", "Threads", "index.html#threads" },
	{ "summary", "summary.md", "summary.md" },
};

/* The header navigation of a diff. */
static const struct nav_item diff_nav_items[] = {
	{ "index", "Overview", "index.html" },
	{ "functions", "Functions", "index.html#functions" },
	{ "edges", "Calls", "index.html#edges" },
	{ "changes", "Appeared and vanished", "index.html#changes" },
	{ "flame", "Flame graph", "flame/all.html" },
	{ "summary", "summary.md", "summary.md" },
};

const char *layout_title(const struct render_ctx *ctx)
{
	static char title[256];
	const struct run *d = ctx->prof->runs[0];
	const char *prog = d->program ? d->program : d->argc ? d->argv[0] : NULL;
	const char *slash = prog ? strrchr(prog, '/') : NULL;

	if (ctx->title)
		return ctx->title;
	snprintf(title, sizeof(title), "callprof: %s", slash ? slash + 1 : prog ? prog : "profile");
	return title;
}

/* nav_links: the header navigation of a report or a diff, from root, with the entry here highlighted. */
static void nav_links(struct buf *out, const struct render_ctx *ctx, const char *root,
		      const char *here)
{
	const struct nav_item *items = ctx->diff ? diff_nav_items : nav_items;
	size_t n = ctx->diff ? sizeof(diff_nav_items) / sizeof(diff_nav_items[0])
			     : sizeof(nav_items) / sizeof(nav_items[0]);

	for (size_t i = 0; i < n; i++)
		buf_printf(out, "<a href=\"%s%s\"%s>%s</a>", root, items[i].path,
			   !strcmp(here, items[i].key) ? " class=\"here\" aria-current=\"page\""
						       : "",
			   items[i].label);
}

int layout_page(struct render_ctx *ctx, const char *path, const char *root, const char *nav,
		const char *title, const char *tmpl, const struct tmpl_var *vars, size_t nvars)
{
	struct buf esc_title = BUF_INIT, esc_site = BUF_INIT, navs = BUF_INIT;
	int rc;

	buf_reset(&ctx->body);
	buf_reset(&ctx->page);
	rc = tmpl_render(&ctx->body, tmpl, vars, nvars);
	if (rc == 0) {
		html_escape(&esc_title, title);
		html_escape(&esc_site, layout_title(ctx));
		nav_links(&navs, ctx, root, nav);
		struct tmpl_var page_vars[] = {
			{ "title", esc_title.data },
			{ "site_title", esc_site.data },
			{ "root", root },
			{ "nav", navs.data },
			{ "body", ctx->body.data },
			{ "version", CALLPROF_VERSION },
		};
		rc = tmpl_render(&ctx->page, "page.html", page_vars,
				 sizeof(page_vars) / sizeof(page_vars[0]));
	}
	if (rc == 0)
		rc = site_write(ctx->site, path, ctx->page.data, ctx->page.len);
	buf_release(&esc_title);
	buf_release(&esc_site);
	buf_release(&navs);
	return rc;
}
