/* render.c: the table of page kinds and the pieces every page is made of. */
#include <stdio.h>
#include <string.h>

#include "dump.h"
#include "fmt.h"
#include "html.h"
#include "render.h"

/* Every page kind in the order they are rendered: summary.md before the index that shows it. */
static const struct page_kind page_kinds[] = {
	{ "static", render_static },
	{ "summary", render_summary },
	{ "index", render_index },
	{ "function", render_function },
	{ "tree", render_tree },
	{ "callers", render_callers },
	{ "flame", render_flame },
	{ "thread", render_thread },
	{ "flat", render_flat },
	{ "coverage", render_coverage },
};

/* The page kinds of a diff site (callprof diff). */
static const struct page_kind diff_page_kinds[] = {
	{ "static", render_static },
	{ "summary", render_diff_summary },
	{ "index", render_diff_index },
	{ "function", render_diff_function },
	{ "functions", render_diff_functions },
	{ "flame", render_diff_flame },
};

#define RENDER_MAX_TABS 64 /* thread links above a tree or flame graph */

/* One entry of the header navigation: key (what render_page's nav names), label, path from the root. */
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

static int render_kinds(struct render_ctx *ctx, const struct page_kind *kinds, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (kinds[i].render(ctx) < 0)
			return -1;
	return 0;
}

int render_site(struct render_ctx *ctx)
{
	return render_kinds(ctx, page_kinds, sizeof(page_kinds) / sizeof(page_kinds[0]));
}

int render_diff_site(struct render_ctx *ctx)
{
	return render_kinds(ctx, diff_page_kinds, sizeof(diff_page_kinds) / sizeof(diff_page_kinds[0]));
}

int render_write(struct render_ctx *ctx, const char *dir, int (*render)(struct render_ctx *ctx))
{
	struct site site;
	int rc;

	if (site_begin(&site, dir) < 0)
		return 1;
	ctx->site = &site;
	buf_init(&ctx->summary_md);
	buf_init(&ctx->page);
	buf_init(&ctx->body);
	rc = render(ctx);
	if (rc == 0)
		rc = site_commit(&site);
	else
		site_abort(&site);
	buf_release(&ctx->summary_md);
	buf_release(&ctx->page);
	buf_release(&ctx->body);
	tmpl_release_cache();
	ctx->site = NULL;
	return rc < 0 ? 2 : 0;
}

const char *render_title(const struct render_ctx *ctx)
{
	static char title[256];
	const struct dump *d = &ctx->prof->dumps[0];
	const char *prog = d->program ? d->program : d->argc ? d->argv[0] : NULL;
	const char *slash = prog ? strrchr(prog, '/') : NULL;

	if (ctx->title)
		return ctx->title;
	snprintf(title, sizeof(title), "callprof: %s", slash ? slash + 1 : prog ? prog : "profile");
	return title;
}

static void render_nav(struct buf *out, const struct render_ctx *ctx, const char *root, const char *here)
{
	const struct nav_item *items = ctx->diff ? diff_nav_items : nav_items;
	size_t n = ctx->diff ? sizeof(diff_nav_items) / sizeof(diff_nav_items[0])
			     : sizeof(nav_items) / sizeof(nav_items[0]);

	for (size_t i = 0; i < n; i++)
		buf_printf(out, "<a href=\"%s%s\"%s>%s</a>", root, items[i].path,
			   !strcmp(here, items[i].key) ? " class=\"here\" aria-current=\"page\"" : "",
			   items[i].label);
}

int render_page(struct render_ctx *ctx, const char *path, const char *root, const char *nav,
		const char *title, const char *tmpl, const struct tmpl_var *vars, size_t nvars)
{
	struct buf esc_title = BUF_INIT, esc_site = BUF_INIT, navs = BUF_INIT;
	int rc;

	buf_reset(&ctx->body);
	buf_reset(&ctx->page);
	rc = tmpl_render(&ctx->body, tmpl, vars, nvars);
	if (rc == 0) {
		html_escape(&esc_title, title);
		html_escape(&esc_site, render_title(ctx));
		render_nav(&navs, ctx, root, nav);
		struct tmpl_var page_vars[] = {
			{ "title", esc_title.data },
			{ "site_title", esc_site.data },
			{ "root", root },
			{ "nav", navs.data },
			{ "body", ctx->body.data },
			{ "version", CALLPROF_VERSION },
		};
		rc = tmpl_render(&ctx->page, "page.html", page_vars, sizeof(page_vars) / sizeof(page_vars[0]));
	}
	if (rc == 0)
		rc = site_write(ctx->site, path, ctx->page.data, ctx->page.len);
	buf_release(&esc_title);
	buf_release(&esc_site);
	buf_release(&navs);
	return rc;
}

void render_name(struct buf *out, const char *name)
{
	size_t len = strlen(name), cut = RENDER_NAME_MAX;
	char more[FMT_SIZE];

	if (!len) {
		buf_puts(out, "(anonymous)");
		return;
	}
	if (len <= RENDER_NAME_MAX) {
		html_escape_n(out, name, len);
		return;
	}
	while (cut && ((unsigned char)name[cut] & 0xc0) == 0x80)
		cut--;
	html_escape_n(out, name, cut);
	buf_printf(out, "\xe2\x80\xa6 (%s bytes more)", fmt_count(more, len - cut));
}

void render_fn_link(struct buf *out, const struct profile *p, uint32_t fn, const char *root)
{
	buf_printf(out, "<a class=\"fn\" href=\"%sfn/%u.html\">", root, fn);
	render_name(out, p->funcs[fn].name);
	buf_puts(out, "</a>");
	if (p->funcs[fn].same_name && p->funcs[fn].file) {
		buf_puts(out, " <span class=\"fn-file\">");
		html_escape(out, pfunc_file_base(&p->funcs[fn]));
		buf_puts(out, "</span>");
	}
}

void render_td_count(struct buf *out, uint64_t n)
{
	char s[FMT_SIZE];

	buf_printf(out, "<td class=\"num\" data-v=\"%llu\">%s</td>", (unsigned long long)n, fmt_count(s, n));
}

void render_td_time(struct buf *out, uint64_t ns)
{
	char s[FMT_SIZE];

	buf_printf(out, "<td class=\"num\" data-v=\"%llu\">%s</td>", (unsigned long long)ns, fmt_ns(s, ns));
}

void render_td_site(struct buf *out, const char *file, uint64_t line)
{
	const char *base;

	if (!file) {
		buf_puts(out, "<td class=\"site muted\">\xe2\x80\x94</td>");
		return;
	}
	base = strrchr(file, '/');
	buf_puts(out, "<td class=\"site\"><span title=\"");
	html_escape(out, file);
	buf_puts(out, "\">");
	html_escape(out, base ? base + 1 : file);
	if (line)
		buf_printf(out, ":%llu", (unsigned long long)line);
	buf_puts(out, "</span></td>");
}

void render_location(struct buf *out, const char *file, uint64_t line, const char *module)
{
	if (file) {
		buf_puts(out, "<code class=\"src\">");
		html_escape(out, file);
		if (line)
			buf_printf(out, ":%llu", (unsigned long long)line);
		buf_puts(out, "</code>");
	} else {
		buf_puts(out, "<span class=\"muted\">no source location (no debug information)</span>");
	}
	if (module) {
		buf_puts(out, " in <code>");
		html_escape(out, module);
		buf_puts(out, "</code>");
	}
}

void render_bar(struct buf *out, uint64_t part, uint64_t whole)
{
	/* Broken dumps can make a part larger than its whole: cap before the cast. */
	double share = fmt_share(part, whole);
	unsigned w = share < 1.0 ? (unsigned)(share * 100.0 + 0.5) : 100;

	buf_printf(out, "<span class=\"bar\"><i class=\"w%u\"></i></span>", w);
}

void render_td_pct(struct buf *out, uint64_t part, uint64_t whole)
{
	char s[FMT_SIZE];

	buf_printf(out, "<td class=\"num pct\" data-v=\"%.6f\">", fmt_share(part, whole));
	render_bar(out, part, whole);
	buf_printf(out, "%s</td>", fmt_pct(s, part, whole));
}

void render_thread_label(struct buf *out, const struct profile *p, size_t t)
{
	const struct pthread *th = &p->threads[t];

	buf_printf(out, "thread %zu (", t + 1);
	if (p->ndumps > 1)
		buf_printf(out, "pid %lld, ", (long long)p->dumps[th->dump].pid);
	buf_printf(out, "tid %lld", (long long)th->tid);
	if (th->name) {
		buf_puts(out, ", ");
		html_escape(out, th->name);
	}
	buf_puts(out, ")");
}

/* td_time_doubtful: a time cell, marked when compensation took more than half of its raw figure. */
static int td_time_doubtful(struct buf *out, uint64_t ns, uint64_t raw_ns, int compensated)
{
	char s[FMT_SIZE], raw[FMT_SIZE];

	if (!compensated || !pstat_doubtful(raw_ns, ns)) {
		render_td_time(out, ns);
		return 0;
	}
	buf_printf(out, "<td class=\"num doubtful\" data-v=\"%llu\" title=\"compensation took more than half of "
		   "the raw %s\">%s</td>", (unsigned long long)ns, fmt_ns(raw, raw_ns), fmt_ns(s, ns));
	return 1;
}

void render_flat_table(struct buf *out, const struct profile *p, const struct pfstat *rows,
		       size_t nrows, uint64_t run_ns, const char *root, const char *id, size_t limit)
{
	size_t n = limit && limit < nrows ? limit : nrows;
	int doubtful = 0;

	buf_printf(out, "<table class=\"profile sortable\" id=\"%s\">\n<thead><tr>"
		   "<th data-sort=\"text\">Function</th>"
		   "<th data-sort=\"num\">Calls</th>"
		   "<th data-sort=\"num\" class=\"sorted\" aria-sort=\"descending\">Self</th>"
		   "<th data-sort=\"num\">Self %%</th>"
		   "<th data-sort=\"num\">Inclusive</th>"
		   "<th data-sort=\"num\">Incl. %%</th>"
		   "<th data-sort=\"num\">Avg / call</th>"
		   "</tr></thead>\n<tbody>\n", id);
	for (size_t i = 0; i < n; i++) {
		const struct pstat *st = &rows[i].st;

		buf_puts(out, "<tr><td class=\"name\">");
		render_fn_link(out, p, rows[i].fn, root);
		buf_puts(out, "</td>");
		render_td_count(out, st->calls);
		doubtful |= td_time_doubtful(out, st->self_ns, st->raw_self_ns, p->compensated);
		render_td_pct(out, st->self_ns, run_ns);
		doubtful |= td_time_doubtful(out, st->incl_ns, st->raw_incl_ns, p->compensated);
		render_td_pct(out, st->incl_ns, run_ns);
		render_td_time(out, st->calls ? st->incl_ns / st->calls : 0);
		buf_puts(out, "</tr>\n");
	}
	buf_puts(out, "</tbody>\n</table>\n");
	if (doubtful)
		buf_puts(out, "<p class=\"hidden-note\" id=\"doubtful-note\">Times underlined with dots lost more than "
			      "half of their raw figure to compensation: the probes cost about as much as the code "
			      "measured, so treat them with care (hover for the raw figure).</p>\n");
	if (n < nrows)
		buf_printf(out, "<p class=\"hidden-note\">%zu more functions below these, each with less self "
			   "time.</p>\n", nrows - n);
}

void render_fold_note(struct buf *out, const struct profile *p, int64_t thread)
{
	uint64_t folded = 0, dropped = 0;
	size_t nfolded = 0, first = thread < 0 ? 0 : (size_t)thread;
	size_t end = thread < 0 ? p->nthreads : first + 1;
	char a[FMT_SIZE], b[FMT_SIZE];

	for (size_t t = first; t < end; t++) {
		const uint64_t *n = p->threads[t].src->counters;

		folded = u64_add(folded, n[DC_FOLDED_CALLS]);
		dropped = u64_add(dropped, n[DC_DROPPED_CALLS]);
		nfolded += n[DC_FOLDED_CALLS] != 0;
	}
	if (!folded && !dropped)
		return;
	buf_puts(out, "<p class=\"pruned\" id=\"folded\">");
	if (folded && thread >= 0) {
		const struct pthread *th = &p->threads[thread];

		buf_printf(out, "This thread's call tree reached its node budget (%s nodes): %s calls were "
			   "folded to one level of context, so their paths are missing here (their counts are "
			   "exact on the function pages)", fmt_count(a, th->src->counters[DC_MAX_NODES]),
			   fmt_count(b, folded));
		if (th->folded_first_fn >= 0) {
			buf_puts(out, "; the first to be folded was a call to ");
			render_fn_link(out, p, (uint32_t)th->folded_first_fn, "../");
		}
		buf_puts(out, ". ");
	} else if (folded) {
		buf_printf(out, "The call %s of %zu thread%s reached %s node budget: %s calls were folded "
			   "to one level of context, so their paths are missing here (their counts are exact on the "
			   "function pages; <a href=\"../index.html#threads\">the threads</a> say where). ",
			   nfolded == 1 ? "tree" : "trees", nfolded, nfolded == 1 ? "" : "s",
			   nfolded == 1 ? "its" : "their", fmt_count(a, folded));
	}
	if (dropped)
		buf_printf(out, "%s calls were not recorded at all (dropped in signal handlers or for lack of "
			   "room). ", fmt_count(a, dropped));
	buf_puts(out, "</p>\n");
}

size_t render_flat_npages(size_t nrows)
{
	return nrows ? (nrows + RENDER_FLAT_PAGE - 1) / RENDER_FLAT_PAGE : 1;
}

/* flat_page_link: the address of page k of fp, from root. */
static void flat_page_link(struct buf *out, const struct flat_pages *fp, size_t k, const char *root)
{
	if (k == 0)
		buf_printf(out, "%s%s#flat", root, fp->host);
	else
		buf_printf(out, "%sflat/%s-%zu.html", root, fp->key, k + 1);
}

/* flat_pager: "Functions 1,001-2,000 of 10,000 by self time; pages: 1 2 3". */
static void flat_pager(struct buf *out, const struct flat_pages *fp, size_t page, const char *root)
{
	size_t n = render_flat_npages(fp->nrows), first = page * RENDER_FLAT_PAGE;
	size_t last = first + RENDER_FLAT_PAGE < fp->nrows ? first + RENDER_FLAT_PAGE : fp->nrows;
	char a[FMT_SIZE], b[FMT_SIZE], c[FMT_SIZE];

	buf_printf(out, "<nav class=\"pager\"><span>Functions %s\xe2\x80\x93%s of %s, by self time "
		   "(sorting and the filter work within a page). Pages:</span>", fmt_count(a, first + 1),
		   fmt_count(b, last), fmt_count(c, fp->nrows));
	for (size_t k = 0; k < n; k++) {
		if (k == page) {
			buf_printf(out, " <strong aria-current=\"page\">%zu</strong>", k + 1);
			continue;
		}
		buf_puts(out, " <a href=\"");
		flat_page_link(out, fp, k, root);
		buf_printf(out, "\">%zu</a>", k + 1);
	}
	buf_puts(out, "</nav>\n");
}

void render_flat_paged(struct buf *out, const struct profile *p, const struct flat_pages *fp,
		       size_t page, const char *root)
{
	size_t first = page * RENDER_FLAT_PAGE;

	if (fp->nrows <= RENDER_FLAT_PAGE) {
		render_flat_table(out, p, fp->rows, fp->nrows, fp->run_ns, root, "flat-table", 0);
		return;
	}
	flat_pager(out, fp, page, root);
	render_flat_table(out, p, fp->rows + first, fp->nrows - first, fp->run_ns, root, "flat-table",
			  RENDER_FLAT_PAGE);
}

struct pfstat *render_merged_rows(const struct profile *p)
{
	struct pfstat *rows = xmalloc((p->nfuncs + 1) * sizeof(*rows));

	for (size_t i = 0; i < p->nfuncs; i++) {
		rows[i].fn = p->by_self[i];
		rows[i].st = p->funcs[p->by_self[i]].st;
	}
	return rows;
}

void render_thread_page_link(struct buf *out, const struct profile *p, size_t t, const char *root)
{
	if (!render_thread_has_pages(t)) {
		render_thread_label(out, p, t);
		return;
	}
	buf_printf(out, "<a href=\"%sthread/t%zu.html\">", root, t);
	render_thread_label(out, p, t);
	buf_puts(out, "</a>");
}

/* render_view_tabs: links to the merged tree and every thread's ("here" marks the current one). */
void render_view_tabs(struct buf *out, const struct profile *p, int64_t here)
{
	size_t n = p->nthreads < RENDER_MAX_TABS ? p->nthreads : RENDER_MAX_TABS;

	if (p->nthreads < 2)
		return;
	buf_printf(out, "<nav class=\"tabs\"><a href=\"all.html\"%s>All threads</a>",
		   here < 0 ? " class=\"here\"" : "");
	for (size_t t = 0; t < n && p->nthreads > 1; t++) {
		buf_printf(out, "<a href=\"t%zu.html\"%s>", t, here == (int64_t)t ? " class=\"here\"" : "");
		render_thread_label(out, p, t);
		buf_puts(out, "</a>");
	}
	if (n < p->nthreads)
		buf_puts(out, "<a href=\"../index.html#threads\">more threads\xe2\x80\xa6</a>");
	buf_printf(out, "</nav>\n");
}
