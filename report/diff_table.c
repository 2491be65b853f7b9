/* diff_table.c: the tables of a diff: the before / after / change columns every table of a diff
 * shares, and the table of every function by change. */
#include <limits.h>
#include <math.h>
#include <stdio.h>

#include "cell.h"
#include "diff.h"
#include "diff_table.h"
#include "fmt.h"
#include "link.h"

void diff_table_head(struct buf *out)
{
	buf_puts(out, "<th data-sort=\"num\">Calls before</th><th data-sort=\"num\">Calls after</th>"
		      "<th data-sort=\"num\">Self before</th><th data-sort=\"num\">Self after</th>"
		      "<th data-sort=\"num\">Self change</th><th data-sort=\"num\">Self %</th>"
		      "<th data-sort=\"num\">Incl. before</th><th data-sort=\"num\">Incl. after</th>"
		      "<th data-sort=\"num\">Incl. change</th><th data-sort=\"num\">Incl. %</th>");
}

static const char *direction(uint64_t before, uint64_t after)
{
	return after > before ? " up" : after < before ? " down" : "";
}

/* td_change: the absolute and the relative change from before to after, two cells. */
static void td_change(struct buf *out, uint64_t before, uint64_t after)
{
	char a[FMT_SIZE];
	uint64_t mag = after >= before ? after - before : before - after;
	long long delta = mag > LLONG_MAX ? LLONG_MAX : (long long)mag;
	double ratio = fmt_change_ratio(before, after);

	buf_printf(out, "<td class=\"num%s\" data-v=\"%lld\">%s</td>", direction(before, after),
		   after >= before ? delta : -delta,
		   fmt_ns_delta(a, before, after));
	/* Sorting wants a number: growth from 0 sorts above any other. */
	buf_printf(out, "<td class=\"num%s\" data-v=\"%.6g\">%s</td>", direction(before, after),
		   isinf(ratio) ? 1e300 : ratio, fmt_change(a, before, after));
}

void diff_table_cells(struct buf *out, const struct pstat *st)
{
	cell_count(out, st[DIFF_BASE].calls);
	cell_count(out, st[DIFF_NEW].calls);
	cell_time(out, st[DIFF_BASE].self_ns);
	cell_time(out, st[DIFF_NEW].self_ns);
	td_change(out, st[DIFF_BASE].self_ns, st[DIFF_NEW].self_ns);
	cell_time(out, st[DIFF_BASE].incl_ns);
	cell_time(out, st[DIFF_NEW].incl_ns);
	td_change(out, st[DIFF_BASE].incl_ns, st[DIFF_NEW].incl_ns);
}

void diff_table_functions(struct buf *out, const struct diff *d, size_t limit)
{
	size_t n = limit && limit < d->nfuncs ? limit : d->nfuncs;

	buf_puts(out, "<div class=\"wide\"><table class=\"profile sortable diff\" id=\"functions-table\">\n"
		      "<thead><tr><th data-sort=\"text\">Function</th>");
	diff_table_head(out);
	buf_puts(out, "</tr></thead>\n<tbody>\n");
	for (size_t i = 0; i < n; i++) {
		uint32_t fn = d->order[i];

		buf_puts(out, "<tr><td class=\"name\">");
		link_diff_fn(out, d, fn, "");
		buf_puts(out, "</td>");
		diff_table_cells(out, d->funcs[fn].st);
		buf_puts(out, "</tr>\n");
	}
	buf_puts(out, "</tbody>\n</table></div>\n");
	if (n < d->nfuncs)
		buf_printf(out, "<p class=\"hidden-note\" id=\"more-functions\">%zu more functions with smaller "
			   "changes: see <a href=\"functions.html\">all functions</a>.</p>\n", d->nfuncs - n);
}
