/* pages.h: which pages a site has (a report's, a diff's), and writing a whole site. */
#ifndef CALLPROF_PAGES_H
#define CALLPROF_PAGES_H

#include <stddef.h>

#include "render.h"

/* One kind of page; render returns 0, or -1 after printing one line. */
struct page_kind {
	const char *name;
	int (*render)(struct render_ctx *ctx);
};

/* The page kinds of one kind of site, in the order they are rendered. */
struct page_set {
	const struct page_kind *kinds;
	size_t n;
};

/* A report (callprof report), and a diff (callprof diff: ctx->diff set). */
extern const struct page_set pages_report;
extern const struct page_set pages_diff;

/* pages_render runs every page kind of set into ctx->site.  Returns 0, or -1 (message printed). */
int pages_render(struct render_ctx *ctx, const struct page_set *set);

/*
 * pages_write writes a whole site to dir: site_begin, then pages_render with
 * ctx->site and ctx's buffers set up here, then site_commit, or site_abort if
 * anything failed, so dir is either the new site or as it was; on success it
 * prints DIR/index.html (made absolute) for a terminal to open.  Returns an
 * exit status: 0, 1 when dir cannot be used (it is not a site, say), 2 when
 * writing failed; one line printed.
 */
int pages_write(struct render_ctx *ctx, const char *dir, const struct page_set *set);

#endif
