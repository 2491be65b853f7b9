/* render.h: the page kinds of a report site, and the pieces every page is made of. */
#ifndef CALLPROF_RENDER_H
#define CALLPROF_RENDER_H

#include <stddef.h>
#include <stdint.h>

#include "buf.h"
#include "profile.h"
#include "site.h"
#include "tmpl.h"

/*
 * A site is the pages of every kind in page_kinds[], rendered in that order
 * into one struct site.  Each renderer fills a template (templates/NAME.html)
 * with HTML it escaped itself, and render_page() wraps it in page.html (head,
 * Content-Security-Policy, navigation).  Paths inside the site:
 *
 *   index.html            what ran, hottest functions, flat profile, threads
 *   fn/<i>.html           one page per function (i = index in profile.funcs)
 *   tree/all.html         the merged calling-context tree; tree/t<k>.html per thread
 *   tree/callers.html     the merged tree bottom-up: each function, then its callers
 *   flame/all.html        the merged flame graph; flame/t<k>.html per thread; beside each,
 *                         its data (all.data.js, t<k>.data.js) for static/flame.js
 *   thread/t<k>.html      one thread's flat profile (k = index in profile.threads), its
 *                         hottest RENDER_FLAT_PAGE functions
 *   flat/all-<n>.html     page n of the whole run's flat profile, when it has more than
 *                         RENDER_FLAT_PAGE functions (page 1 is on the index)
 *   coverage.html         per module, the functions never called, counted per source file
 *   summary.md            key figures and top functions in Markdown
 *   static/...            style sheet and scripts
 *
 * A diff site (callprof diff) is the pages of diff_page_kinds[] instead:
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
	const struct profile *prof;  /* the profile shown; for a diff, its new side */
	const struct diff *diff;     /* the diff shown (callprof diff), or NULL */
	struct site *site;
	const char *title;      /* --title, or NULL for one made from the program name */
	const char *notes_md;   /* --notes Markdown, or NULL */
	size_t notes_len;
	struct buf summary_md;  /* summary.md, kept for the index */
	struct buf page;        /* scratch: the page being assembled */
	struct buf body;        /* scratch: the body of the page being assembled */
};

/* One kind of page; render returns 0, or -1 after printing one line. */
struct page_kind {
	const char *name;
	int (*render)(struct render_ctx *ctx);
};

/* The renderers, one file each (render_NAME.c). */
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
int render_diff_summary(struct render_ctx *ctx);
int render_diff_index(struct render_ctx *ctx);
int render_diff_function(struct render_ctx *ctx);
int render_diff_functions(struct render_ctx *ctx);
int render_diff_flame(struct render_ctx *ctx);

/* render_site runs every page kind in order.  Returns 0, or -1 (message printed). */
int render_site(struct render_ctx *ctx);

/* render_diff_site does the same for the pages of a diff (ctx->diff set). */
int render_diff_site(struct render_ctx *ctx);

/*
 * render_write writes a whole site to dir: site_begin, then render
 * (render_site or render_diff_site) with ctx->site and ctx's buffers set up
 * here, then site_commit, or site_abort if anything failed, so dir is either
 * the new site or as it was.  Returns an exit status: 0, 1 when dir cannot
 * be used (it is not a site, say), 2 when writing failed; one line printed.
 */
int render_write(struct render_ctx *ctx, const char *dir, int (*render)(struct render_ctx *ctx));

/* render_title: the site title (--title, else "callprof: <program base name>"), not escaped. */
const char *render_title(const struct render_ctx *ctx);

/*
 * render_page expands the template called tmpl with vars into the page body,
 * wraps it in page.html and writes it to path.  root is "" or "../" (how to
 * reach the site root from path), nav the navigation entry to highlight
 * ("index", "tree", "flame", "threads" or ""), title the page title (escaped
 * here).
 */
int render_page(struct render_ctx *ctx, const char *path, const char *root, const char *nav,
		const char *title, const char *tmpl, const struct tmpl_var *vars, size_t nvars);

/*
 * render_name appends a function name escaped, cut after RENDER_NAME_MAX bytes
 * (on a character boundary, with an ellipsis): a name may be a megabyte and
 * appear on a page thousands of times.  Its own page shows it whole.
 */
#define RENDER_NAME_MAX 2000
void render_name(struct buf *out, const char *name);

/* render_fn_link: <a href="ROOTfn/I.html">name</a> with the name escaped (render_name). */
void render_fn_link(struct buf *out, const struct profile *p, uint32_t fn, const char *root);

/* Table cells: numbers right-aligned, the exact value in data-v for sorting and tests. */
void render_td_count(struct buf *out, uint64_t n);
void render_td_time(struct buf *out, uint64_t ns);
void render_td_pct(struct buf *out, uint64_t part, uint64_t whole); /* with a bar */

/* render_location: where a function is declared, "file.c:42 in module", or a note that
 * there is no debug information; every part escaped. */
void render_location(struct buf *out, const char *file, uint64_t line, const char *module);

/* render_td_site: a call site cell, "file.c:42" (the full path on hover), or a dash when unknown. */
void render_td_site(struct buf *out, const char *file, uint64_t line);

/* render_bar: a horizontal bar of part / whole (CSS classes, no inline style: the CSP forbids it). */
void render_bar(struct buf *out, uint64_t part, uint64_t whole);

/* render_thread_label: "thread 2 (tid 4243, worker)" escaped, for headings and links. */
void render_thread_label(struct buf *out, const struct profile *p, size_t t);

/*
 * The first RENDER_MAX_THREADS threads have pages of their own (thread/t<k>,
 * tree/t<k>, flame/t<k>); past them a dump of a hundred thousand tiny threads
 * would make a site of millions of files, so the others are counted in the
 * whole run's figures and the index says so.  render_thread_page_link writes
 * the thread's label, linked to its page (from root) when it has one.
 */
#define RENDER_MAX_THREADS 1000
static inline int render_thread_has_pages(size_t t)
{
	return t < RENDER_MAX_THREADS;
}
void render_thread_page_link(struct buf *out, const struct profile *p, size_t t, const char *root);

/*
 * A flat profile too long for one page is paged, RENDER_FLAT_PAGE rows a page:
 * page 1 sits on its host page (the index), the others are flat/KEY-N.html
 * (render_flat.c), and each shows a pager linking them all.
 */
#define RENDER_FLAT_PAGE 1000
struct flat_pages {
	const struct pfstat *rows; /* every row, hottest first */
	size_t nrows;
	uint64_t run_ns;           /* the 100% figure */
	const char *key;           /* names the pages: "all" for the whole run */
	const char *host;          /* page 1, from the site root: "index.html" */
};

/* render_flat_npages: how many pages nrows rows take (at least 1). */
size_t render_flat_npages(size_t nrows);

/* render_flat_paged: page (0-based) of fp: its table, with a pager when there are several pages. */
void render_flat_paged(struct buf *out, const struct profile *p, const struct flat_pages *fp,
		       size_t page, const char *root);

/* render_merged_rows: every function of the profile with its merged figures, by self time (free() it). */
struct pfstat *render_merged_rows(const struct profile *p);

/*
 * render_fold_note: for a tree or flame graph page of thread (-1 for all
 * threads), a paragraph saying what the runtime folded or dropped there, so
 * the page is missing those paths; nothing when it did neither.
 */
void render_fold_note(struct buf *out, const struct profile *p, int64_t thread);

/*
 * render_view_tabs: links to the merged view ("all.html") and each thread's
 * ("t<k>.html") of a tree or flame graph; here is the thread shown, -1 for all.
 */
void render_view_tabs(struct buf *out, const struct profile *p, int64_t here);

/*
 * render_flat_table: the flat profile table (function, calls, self, self %,
 * inclusive, inclusive %, average), one row per rows[i] (a pfstat: fn and its
 * figures), sorted by self time as given; run_ns is the 100% figure.  id is
 * the table's HTML id, limit the most rows to show (0 for all).
 */
void render_flat_table(struct buf *out, const struct profile *p, const struct pfstat *rows,
		       size_t nrows, uint64_t run_ns, const char *root, const char *id, size_t limit);

/*
 * Pieces of diff pages (render_diff.c).  render_diff_fn_link: a link to a diff
 * function's page, like render_fn_link.  render_diff_head and render_diff_cells:
 * the columns every table of a diff shares, for one pair of figures st[2]
 * (base, new): calls before and after, self before, after, change and relative
 * change, the same for inclusive time.  Changes carry class "up" (grew) or
 * "down" (shrank) and the signed exact value in data-v.
 */
void render_diff_fn_link(struct buf *out, const struct diff *d, uint32_t fn, const char *root);
void render_diff_head(struct buf *out);
void render_diff_cells(struct buf *out, const struct pstat *st);

/*
 * render_diff_functions_table: every function of the diff, biggest change
 * first, at most limit rows (0: all) and then a line linking functions.html,
 * the page of them all.  Links are from the site root.
 */
#define RENDER_DIFF_INDEX_FUNCS 1000 /* functions on a diff's index; past that, functions.html */
void render_diff_functions_table(struct buf *out, const struct diff *d, size_t limit);

#endif
