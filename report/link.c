/* link.c: names and links: a function's name (escaped, cut when huge), links to function and
 * thread pages, and the tabs between the views of a tree or flame graph. */
#include <stdio.h>
#include <string.h>

#include "diff.h"
#include "fmt.h"
#include "html.h"
#include "link.h"
#include "name.h"
#include "render.h"

#define LINK_MAX_TABS 64 /* thread links above a tree or flame graph */

/* put_cut: name escaped, cut after LINK_NAME_MAX bytes on a character boundary. */
static void put_cut(struct buf *out, const char *name)
{
	size_t len = strlen(name), cut = LINK_NAME_MAX;
	char more[FMT_SIZE];

	if (len <= LINK_NAME_MAX) {
		html_escape_n(out, name, len);
		return;
	}
	while (cut && ((unsigned char)name[cut] & 0xc0) == 0x80)
		cut--;
	html_escape_n(out, name, cut);
	buf_printf(out, "\xe2\x80\xa6 (%s bytes more)", fmt_count(more, len - cut));
}

void link_library(struct buf *out, int library, const char *module)
{
	if (!library)
		return;
	buf_puts(out, " <span class=\"fn-lib\">");
	html_escape(out, module ? module : "library");
	buf_puts(out, "</span>");
}

void link_name_plain(struct buf *out, const char *name)
{
	put_cut(out, *name ? name : "(anonymous)");
}

void link_name(struct buf *out, const char *name)
{
	struct buf simple = BUF_INIT;

	if (!*name) {
		buf_puts(out, "(anonymous)");
		return;
	}
	if (name_simplify(&simple, name)) {
		buf_puts(out, "<span class=\"nm-short\">");
		put_cut(out, simple.data);
		buf_puts(out, "</span><span class=\"nm-full\">");
		put_cut(out, name);
		buf_puts(out, "</span>");
	} else {
		put_cut(out, name);
	}
	buf_release(&simple);
}

void link_open(struct buf *out, const char *href_root, const char *href, const char *name)
{
	struct buf simple = BUF_INIT;

	buf_printf(out, "<a class=\"fn\" href=\"%s%s\"", href_root, href);
	if (name_simplify(&simple, name)) {
		buf_puts(out, " title=\"");
		put_cut(out, name);
		buf_puts(out, "\"");
	}
	buf_puts(out, ">");
	buf_release(&simple);
}

/* tell_span: what tells a function from others of its name (text), its full file on hover. */
static void tell_span(struct buf *out, const char *file, const char *text)
{
	buf_puts(out, " <span class=\"fn-file\"");
	if (file) {
		/* Two util.c in two folders look alike: the full path is on hover. */
		buf_puts(out, " title=\"");
		html_escape(out, file);
		buf_puts(out, "\"");
	}
	buf_puts(out, ">");
	html_escape(out, text);
	buf_puts(out, "</span>");
}

void link_fn(struct buf *out, const struct profile *p, uint32_t fn, const char *root)
{
	const struct pfunc *f = &p->funcs[fn];

	char href[40];

	link_fn_path(href, sizeof(href), fn);
	link_open(out, root, href, f->name);
	link_name(out, f->name);
	buf_puts(out, "</a>");
	link_library(out, f->library, f->module);
	if (f->same_name) {
		struct buf text = BUF_INIT;

		pfunc_tell(&text, f);
		tell_span(out, f->file, text.data);
		buf_release(&text);
	}
}

void link_diff_fn(struct buf *out, const struct diff *d, uint32_t fn, const char *root)
{
	const struct diff_func *f = &d->funcs[fn];
	char href[40];

	link_fn_path(href, sizeof(href), fn);
	link_open(out, root, href, f->name);
	link_name(out, f->name);
	buf_puts(out, "</a>");
	link_library(out, diff_func_library(d, f), f->module);
	if (f->same_name) {
		struct buf text = BUF_INIT;

		diff_func_tell(&text, f);
		tell_span(out, f->file, text.data);
		buf_release(&text);
	}
	if (f->fn[DIFF_BASE] < 0)
		buf_puts(out, " <span class=\"tag new\">new</span>");
	else if (f->fn[DIFF_NEW] < 0)
		buf_puts(out, " <span class=\"tag gone\">gone</span>");
}

void link_fn_path(char *out, size_t size, uint32_t fn)
{
	snprintf(out, size, "fn/%u/%u.html", fn / LINK_FN_SHARD, fn);
}

void link_thread_label(struct buf *out, const struct profile *p, size_t t)
{
	const struct pthread *th = &p->threads[t];

	buf_printf(out, "thread %zu (", t + 1);
	if (p->processes)
		buf_printf(out, "pid %lld, ", (long long)th->pid);
	buf_printf(out, "tid %lld", (long long)th->tid);
	if (th->name) {
		buf_puts(out, ", ");
		html_escape(out, th->name);
	}
	buf_puts(out, ")");
}

void link_thread_page(struct buf *out, const struct profile *p, size_t t, const char *root)
{
	if (!render_thread_has_pages(t)) {
		link_thread_label(out, p, t);
		return;
	}
	buf_printf(out, "<a href=\"%sthread/t%zu.html\">", root, t);
	link_thread_label(out, p, t);
	buf_puts(out, "</a>");
}

/* link_view_tabs: links to the merged tree and every thread's ("here" marks the current one). */
void link_view_tabs(struct buf *out, const struct profile *p, int64_t here)
{
	size_t n = p->nthreads < LINK_MAX_TABS ? p->nthreads : LINK_MAX_TABS;

	if (p->nthreads < 2)
		return;
	buf_printf(out, "<nav class=\"tabs\"><a href=\"all.html\"%s>All threads</a>",
		   here < 0 ? " class=\"here\"" : "");
	for (size_t t = 0; t < n && p->nthreads > 1; t++) {
		buf_printf(out, "<a href=\"t%zu.html\"%s>", t,
			   here == (int64_t)t ? " class=\"here\"" : "");
		link_thread_label(out, p, t);
		buf_puts(out, "</a>");
	}
	if (n < p->nthreads)
		buf_puts(out, "<a href=\"../index.html#threads\">more threads\xe2\x80\xa6</a>");
	buf_printf(out, "</nav>\n");
}
