/* layout.h: what every page of a site shares: page.html around its body, the title, the navigation. */
#ifndef CALLPROF_LAYOUT_H
#define CALLPROF_LAYOUT_H

#include <stddef.h>

#include "render.h"
#include "tmpl.h"

/* layout_title: the site title (--title, else "callprof: <program base name>"), not escaped. */
const char *layout_title(const struct render_ctx *ctx);

/*
 * layout_page expands the template called tmpl with vars into the page body,
 * wraps it in page.html and writes it to path in ctx->site.  root is "" or
 * "../" (how to reach the site root from path), nav the navigation entry to
 * highlight ("index", "tree", "flame", "threads" or ""), title the page title
 * (escaped here).  Returns 0, or -1 after printing one line.
 */
int layout_page(struct render_ctx *ctx, const char *path, const char *root, const char *nav,
		const char *title, const char *tmpl, const struct tmpl_var *vars, size_t nvars);

#endif
