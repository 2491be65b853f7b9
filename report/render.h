/* render.h: the renderers, one file per page kind (render_NAME.c), and what they render from. */
#ifndef CALLPROF_RENDER_H
#define CALLPROF_RENDER_H

#include <stddef.h>

#include "buf.h"
#include "profile.h"
#include "site.h"

/*
 * A site is the pages of every kind of a page set (pages.h), rendered in
 * order into one struct site.  Each renderer fills a template
 * (templates/NAME.html) with HTML it escaped itself, and layout_page()
 * wraps it in page.html (head, Content-Security-Policy, navigation).  The
 * pieces pages share have files of their own: layout.h, link.h, cell.h,
 * table.h, pager.h, note.h, diff_table.h.  Paths inside a report site:
 *
 *   index.html            what ran, hottest functions, flat profile, threads
 *   fn/<i>.html           one page per function (i = index in profile.funcs)
 *   tree/all.html         the merged calling-context tree; tree/t<k>.html per thread
 *   tree/callers.html     the merged tree bottom-up: each function, then its callers
 *   flame/all.html        the merged flame graph; flame/t<k>.html per thread; beside each,
 *                         its data (all.data.js, t<k>.data.js) for static/flame.js
 *   thread/t<k>.html      one thread's flat profile (k = index in profile.threads), its
 *                         hottest PAGER_ROWS functions
 *   flat/all-<n>.html     page n of the whole run's flat profile, when it has more than
 *                         PAGER_ROWS functions (page 1 is on the index)
 *   coverage.html         per module, the functions never called, counted per source file
 *   summary.md            key figures and top functions in Markdown
 *   static/...            style sheet and scripts
 *
 * A diff site (callprof diff):
 *
 *   index.html            what was compared, the gate, every function and edge by change
 *   fn/<i>.html           one page per diff function (i = index in diff.funcs)
 *   functions.html        every function, when there are too many for the index
 *   flame/all.html        the new profile's flame graph coloured by change (all.data.js beside it)
 *   summary.md            top regressions and improvements in Markdown
 *
 * Every link is relative: pages one folder down use root "../".
 */

struct diff;

struct render_ctx {
	const struct profile *prof; /* the profile shown; for a diff, its new side */
	const struct diff *diff;    /* the diff shown (callprof diff), or NULL */
	struct site *site;
	const char *title;    /* --title, or NULL for one made from the program name */
	const char *notes_md; /* --notes Markdown, or NULL */
	int no_argv;          /* --no-argv: the programs' arguments are left out */
	size_t notes_len;
	struct buf summary_md; /* summary.md, kept for the index */
	struct buf page;       /* scratch: the page being assembled */
	struct buf body;       /* scratch: the body of the page being assembled */
};

/* The renderers of a report; each returns 0, or -1 after printing one line. */
int render_static(struct render_ctx *ctx);
int render_summary(struct render_ctx *ctx);
int render_index(struct render_ctx *ctx);
int render_function(struct render_ctx *ctx);
int render_tree(struct render_ctx *ctx);
int render_callers(struct render_ctx *ctx);
int render_flame(struct render_ctx *ctx);
int render_thread(struct render_ctx *ctx);
int render_flat(struct render_ctx *ctx);
int render_coverage(struct render_ctx *ctx);

/* The renderers of a diff (ctx->diff set). */
int render_diff_summary(struct render_ctx *ctx);
int render_diff_index(struct render_ctx *ctx);
int render_diff_function(struct render_ctx *ctx);
int render_diff_functions(struct render_ctx *ctx);
int render_diff_flame(struct render_ctx *ctx);

/*
 * The first RENDER_MAX_THREADS threads have pages of their own (thread/t<k>,
 * tree/t<k>, flame/t<k>); past them a dump of a hundred thousand tiny threads
 * would make a site of millions of files, so the others are counted in the
 * whole run's figures and the index says so.
 */
#define RENDER_MAX_THREADS 1000
static inline int render_thread_has_pages(size_t t)
{
	return t < RENDER_MAX_THREADS;
}

#endif
