/* link.h: names and links on the pages: functions, threads, and the views of a tree or flame graph. */
#ifndef CALLPROF_LINK_H
#define CALLPROF_LINK_H

#include <stddef.h>
#include <stdint.h>

#include "buf.h"
#include "profile.h"

struct diff;

/*
 * link_name appends a function name escaped, cut after LINK_NAME_MAX bytes
 * (on a character boundary, with an ellipsis): a name may be a megabyte and
 * appear on a page thousands of times.  Its own page shows it whole.  An
 * empty name reads "(anonymous)".
 */
#define LINK_NAME_MAX 2000
void link_name(struct buf *out, const char *name);

/*
 * link_library: for a library function (library set), the base name of its
 * module as a label after its name: " <span class="fn-lib">libc.so.6</span>".
 */
void link_library(struct buf *out, int library, const char *module);

/*
 * link_fn: <a href="ROOTfn/I.html">name</a> with the name escaped (link_name),
 * labelled with its module when it is a library function (link_library),
 * and the base name of its file when another function has the same name.
 * root is "" or "../": how to reach the site root from the page.
 */
void link_fn(struct buf *out, const struct profile *p, uint32_t fn, const char *root);

/*
 * link_diff_fn: the same for function fn of a diff, whose file shows in full
 * on hover, tagged "new" or "gone" when only one side has it.
 */
void link_diff_fn(struct buf *out, const struct diff *d, uint32_t fn, const char *root);

/* link_thread_label: "thread 2 (tid 4243, worker)" escaped, for headings and links. */
void link_thread_label(struct buf *out, const struct profile *p, size_t t);

/* link_thread_page: the thread's label, linked to its page (from root) when it has one. */
void link_thread_page(struct buf *out, const struct profile *p, size_t t, const char *root);

/*
 * link_view_tabs: links to the merged view ("all.html") and each thread's
 * ("t<k>.html") of a tree or flame graph; here is the thread shown, -1 for all.
 * Nothing when there is one thread.
 */
void link_view_tabs(struct buf *out, const struct profile *p, int64_t here);

#endif
