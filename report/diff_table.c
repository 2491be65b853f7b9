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
	buf_puts(out, "<th data-sort=\"num\">Calls</th><th data-sort=\"num\">Self</th>"
		      "<th data-sort=\"num\">Self change</th><th data-sort=\"num\">Inclusive</th>"
		      "<th data-sort=\"num\">Incl. change</th>");
}

static const char *direction(uint64_t before, uint64_t after)
{
	return after > before ? " up" : after < before ? " down" : "";
}

/* td_pair: "before → after" in one cell, sorted by after (data-v), before in data-before. */
static void td_pair(struct buf *out, uint64_t before, uint64_t after, int count)
{
	char a[FMT_SIZE], b[FMT_SIZE];

	buf_printf(out,
		   "<td class=\"num pair\" data-v=\"%llu\" data-before=\"%llu\">%s \xe2\x86\x92 "
		   "%s</td>",
		   (unsigned long long)after, (unsigned long long)before,
		   count ? fmt_count(a, before) : fmt_ns(a, before),
		   count ? fmt_count(b, after) : fmt_ns(b, after));
}

/*
 * td_change: the absolute and the relative change from before to after in
 * one cell (the signed exact change in data-v, the ratio in data-ratio); a
 * change within k standard errors of the runs' noise is marked "noise".
 */
static void td_change(struct buf *out, uint64_t before, uint64_t after, struct estimate eb,
		      struct estimate ea, double k)
{
	char a[FMT_SIZE], b[FMT_SIZE];
	uint64_t mag = after >= before ? after - before : before - after;
	long long delta = mag > LLONG_MAX ? LLONG_MAX : (long long)mag;
	double ratio = fmt_change_ratio(before, after), noise = estimate_noise(eb, ea);
	int within = noise > 0 && (double)mag <= k * noise;

	buf_printf(out, "<td class=\"num change%s%s\" data-v=\"%lld\" data-ratio=\"%.6g\"",
		   direction(before, after), within ? " noise" : "",
		   after >= before ? delta : -delta, isinf(ratio) ? 1e300 : ratio);
	if (noise > 0)
		buf_printf(out, " title=\"%s the noise of the runs: \xc2\xb1%s\"",
			   within ? "within" : "beyond", fmt_ns_f(b, noise));
	buf_printf(out, ">%s <small>%s</small></td>", fmt_ns_delta(a, before, after),
		   fmt_change(b, before, after));
}

void diff_table_cells(struct buf *out, const struct pstat *st, const struct runs_fig *est, double k)
{
	td_pair(out, st[DIFF_BASE].calls, st[DIFF_NEW].calls, 1);
	td_pair(out, st[DIFF_BASE].self_ns, st[DIFF_NEW].self_ns, 0);
	td_change(out, st[DIFF_BASE].self_ns, st[DIFF_NEW].self_ns, est[DIFF_BASE].self_ns,
		  est[DIFF_NEW].self_ns, k);
	td_pair(out, st[DIFF_BASE].incl_ns, st[DIFF_NEW].incl_ns, 0);
	td_change(out, st[DIFF_BASE].incl_ns, st[DIFF_NEW].incl_ns, est[DIFF_BASE].incl_ns,
		  est[DIFF_NEW].incl_ns, k);
}

void diff_table_functions(struct buf *out, const struct diff *d, size_t limit)
{
	size_t n = limit && limit < d->nfuncs ? limit : d->nfuncs;

	buf_puts(out, "<div class=\"wide\"><table class=\"profile sortable diff\" "
		      "id=\"functions-table\">\n"
		      "<thead><tr><th data-sort=\"text\">Function</th>");
	diff_table_head(out);
	buf_puts(out, "</tr></thead>\n<tbody>\n");
	for (size_t i = 0; i < n; i++) {
		uint32_t fn = d->order[i];

		buf_puts(out, "<tr><td class=\"name\">");
		link_diff_fn(out, d, fn, "");
		buf_puts(out, "</td>");
		diff_table_cells(out, d->funcs[fn].st, d->funcs[fn].est, diff_noise_k(d));
		buf_puts(out, "</tr>\n");
	}
	buf_puts(out, "</tbody>\n</table></div>\n");
	if (n < d->nfuncs)
		buf_printf(out,
			   "<p class=\"hidden-note\" id=\"more-functions\">%zu more functions with "
			   "smaller "
			   "changes: see <a href=\"functions.html\">all functions</a>.</p>\n",
			   d->nfuncs - n);
}
