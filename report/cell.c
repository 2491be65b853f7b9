/* cell.c: table cells: counts, times, shares with a bar, call sites; numbers right-aligned with
 * their exact value in data-v, for sorting and for tests. */
#include <stdio.h>
#include <string.h>

#include "cell.h"
#include "fmt.h"
#include "html.h"
#include "pstat.h"

void cell_count(struct buf *out, uint64_t n)
{
	char s[FMT_SIZE];

	buf_printf(out, "<td class=\"num\" data-v=\"%llu\">%s</td>", (unsigned long long)n,
		   fmt_count(s, n));
}

void cell_time(struct buf *out, uint64_t ns)
{
	char s[FMT_SIZE];

	buf_printf(out, "<td class=\"num\" data-v=\"%llu\">%s</td>", (unsigned long long)ns,
		   fmt_ns(s, ns));
}

/* cell_time_doubtful: a time cell, marked when compensation took more than half of its raw figure. */
int cell_time_doubtful(struct buf *out, uint64_t ns, uint64_t raw_ns, int compensated)
{
	char s[FMT_SIZE], raw[FMT_SIZE];

	if (!compensated || !pstat_doubtful(raw_ns, ns)) {
		cell_time(out, ns);
		return 0;
	}
	buf_printf(out,
		   "<td class=\"num doubtful\" data-v=\"%llu\" title=\"compensation took more than "
		   "half of "
		   "the raw %s\">%s</td>",
		   (unsigned long long)ns, fmt_ns(raw, raw_ns), fmt_ns(s, ns));
	return 1;
}

/* Why a call site names no line: the word shown, the reason (on hover), and the legend's words for it. */
#define WHY_INLINED                                                                         \
	"the callee was inlined into its caller, so its probe got the caller's own return " \
	"address, which lies in the caller's caller: no line is named rather than a wrong one"
#define WHY_OUTSIDE                                                                            \
	"the call came from code that is not the caller's: a callback through uninstrumented " \
	"code (a comparator called by libc's qsort, a library's callback), charged to the "    \
	"nearest "                                                                             \
	"instrumented function still running"
#define WHY_ROOT "no instrumented function was running to call it"
#define WHY_NO_LINE                                                                            \
	"no line information for the call: its module has no debug information there, or the " \
	"dump does not say"
static const struct {
	const char *shown, *title, *legend;
} missing_site[CELL_SITES] = {
	[CELL_SITE_INLINED] = { "inlined", "Inlined: " WHY_INLINED ".",
				"<b>inlined</b>: " WHY_INLINED },
	[CELL_SITE_OUTSIDE] = { "other code", "Other code: " WHY_OUTSIDE ".",
				"<b>other code</b>: " WHY_OUTSIDE },
	[CELL_SITE_ROOT] = { "\xe2\x80\x94", "A root call: " WHY_ROOT ".",
			     "<b>\xe2\x80\x94</b> on a root call: " WHY_ROOT },
	[CELL_SITE_NO_LINE] = { "\xe2\x80\x94", "No line: " WHY_NO_LINE ".",
				"<b>\xe2\x80\x94</b> elsewhere: " WHY_NO_LINE },
};

void cell_file(struct buf *out, const char *file, uint64_t line)
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

unsigned cell_site(struct buf *out, const char *file, uint64_t line, enum psite site, int root)
{
	int kind;

	if (file) {
		cell_file(out, file, line);
		return 0;
	}
	kind = root                    ? CELL_SITE_ROOT
	       : site == PSITE_INLINED ? CELL_SITE_INLINED
	       : site == PSITE_OUTSIDE ? CELL_SITE_OUTSIDE
				       : CELL_SITE_NO_LINE;
	buf_printf(out, "<td class=\"site muted\" title=\"%s\">%s</td>", missing_site[kind].title,
		   missing_site[kind].shown);
	return 1u << kind;
}

void cell_site_legend(struct buf *out, unsigned kinds)
{
	const char *sep = "";

	if (!kinds)
		return;
	buf_puts(out, "<p class=\"note site-legend\">Call sites without a line: ");
	for (int k = 0; k < CELL_SITES; k++) {
		if (!(kinds & (1u << k)))
			continue;
		buf_printf(out, "%s%s", sep, missing_site[k].legend);
		sep = "; ";
	}
	buf_puts(out, ".</p>\n");
}

void cell_bar(struct buf *out, uint64_t part, uint64_t whole)
{
	/* Broken dumps can make a part larger than its whole: cap before the cast. */
	double share = fmt_share(part, whole);
	unsigned w = share < 1.0 ? (unsigned)(share * 100.0 + 0.5) : 100;

	buf_printf(out, "<span class=\"bar\"><i class=\"w%u\"></i></span>", w);
}

void cell_pct(struct buf *out, uint64_t part, uint64_t whole)
{
	char s[FMT_SIZE];

	buf_printf(out, "<td class=\"num pct\" data-v=\"%.6f\">", fmt_share(part, whole));
	cell_bar(out, part, whole);
	buf_printf(out, "%s</td>", fmt_pct(s, part, whole));
}

const char *cell_estimate(char *out, uint64_t ns, uint64_t se_ns, int estimated)
{
	char a[FMT_SIZE], b[FMT_SIZE], c[FMT_SIZE];

	if (!estimated)
		snprintf(out, CELL_ESTIMATE_SIZE, "%s", fmt_ns(a, ns));
	else
		snprintf(
			out, CELL_ESTIMATE_SIZE,
			"<span class=\"est\" title=\"an estimate: standard error %s (%s)\">&asymp; "
			"%s</span>",
			fmt_ns(b, se_ns), fmt_pct(c, se_ns, ns), fmt_ns(a, ns));
	return out;
}
