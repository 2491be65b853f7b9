/* table.c: the flat profile table (function, calls, self, inclusive, shares, average), on the
 * index, the thread pages and the pages of a long flat profile. */
#include <stdlib.h>

#include "buf.h"
#include "cell.h"
#include "link.h"
#include "table.h"

void table_flat(struct buf *out, const struct profile *p, const struct pfstat *rows, size_t nrows,
		uint64_t run_ns, const char *root, const char *id, size_t limit)
{
	size_t n = limit && limit < nrows ? limit : nrows;
	int doubtful = 0;

	buf_printf(out,
		   "<table class=\"profile sortable\" id=\"%s\">\n<thead><tr>"
		   "<th data-sort=\"text\">Function</th>"
		   "<th data-sort=\"num\">Calls</th>"
		   "<th data-sort=\"num\" class=\"sorted\" aria-sort=\"descending\">Self</th>"
		   "<th data-sort=\"num\">Self %%</th>"
		   "<th data-sort=\"num\">Inclusive</th>"
		   "<th data-sort=\"num\">Incl. %%</th>"
		   "<th data-sort=\"num\">Avg / call</th>%s"
		   "</tr></thead>\n<tbody>\n",
		   id,
		   p->has_cpu ? "<th data-sort=\"num\">CPU self</th>"
				"<th data-sort=\"num\">Off-CPU self</th>"
			      : "");
	for (size_t i = 0; i < n; i++) {
		const struct pstat *st = &rows[i].st;

		buf_puts(out, "<tr><td class=\"name\">");
		link_fn(out, p, rows[i].fn, root);
		buf_puts(out, "</td>");
		cell_count(out, st->calls);
		doubtful |= cell_time_doubtful(out, st->self_ns, st->raw_self_ns, p->compensated);
		cell_pct(out, st->self_ns, run_ns);
		doubtful |= cell_time_doubtful(out, st->incl_ns, st->raw_incl_ns, p->compensated);
		cell_pct(out, st->incl_ns, run_ns);
		cell_time(out, st->calls ? st->incl_ns / st->calls : 0);
		if (p->has_cpu) {
			cell_time(out, st->cpu_self_ns);
			cell_time(out, pstat_off_cpu_self(st));
		}
		buf_puts(out, "</tr>\n");
	}
	buf_puts(out, "</tbody>\n</table>\n");
	if (doubtful)
		buf_puts(out,
			 "<p class=\"hidden-note\" id=\"doubtful-note\">Times underlined with dots "
			 "lost more than "
			 "half of their raw figure to compensation: the probes cost about as much "
			 "as the code "
			 "measured, so treat them with care (hover for the raw figure).</p>\n");
	if (n < nrows)
		buf_printf(out,
			   "<p class=\"hidden-note\">%zu more functions below these, each with "
			   "less self "
			   "time.</p>\n",
			   nrows - n);
}

struct pfstat *table_flat_rows(const struct profile *p)
{
	struct pfstat *rows = xmalloc((p->nfuncs + 1) * sizeof(*rows));

	for (size_t i = 0; i < p->nfuncs; i++) {
		rows[i].fn = p->by_self[i];
		rows[i].st = p->funcs[p->by_self[i]].st;
	}
	return rows;
}
