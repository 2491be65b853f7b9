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
 * empty name reads "(anonymous)".  A C++ name that name_simplify shortens is
 * written both ways, <span class="nm-short"> and <span class="nm-full">: the
 * style sheet shows the short one unless the page's "full names" box is
 * ticked (static/names.js remembers it across pages).
 */
#define LINK_NAME_MAX 2000
void link_name(struct buf *out, const char *name);

/* link_name_plain: the full name, escaped and cut the same way, as text only (an SVG title). */
void link_name_plain(struct buf *out, const char *name);

/*
 * Function pages live in folders of at most LINK_FN_SHARD pages each,
 * fn/<i / LINK_FN_SHARD>/<i>.html, so a profile of a million functions is not
 * a million files in one folder; link_fn_path writes that path (from the site
 * root) into out (size bytes, 40 are enough).  From a function page the site
 * root is LINK_FN_ROOT.
 */
#define LINK_FN_SHARD 1000
#define LINK_FN_ROOT "../../"
void link_fn_path(char *out, size_t size, uint32_t fn);

/*
 * link_open: <a class="fn" href="ROOTHREF"> for a function called name, with
 * its full name as the title when the page shows it simplified (name.h).
 */
void link_open(struct buf *out, const char *root, const char *href, const char *name);

/*
 * link_fn: <a href="ROOTfn/K/I.html">name</a> with the name escaped (link_name),
 * and what tells it apart when another function has the same name (its
 * file, file:line or offset: pfunc_tell), the full path on hover.
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
