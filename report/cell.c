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

	buf_printf(out, "<td class=\"num\" data-v=\"%llu\">%s</td>", (unsigned long long)n, fmt_count(s, n));
}

void cell_time(struct buf *out, uint64_t ns)
{
	char s[FMT_SIZE];

	buf_printf(out, "<td class=\"num\" data-v=\"%llu\">%s</td>", (unsigned long long)ns, fmt_ns(s, ns));
}

/* cell_time_doubtful: a time cell, marked when compensation took more than half of its raw figure. */
int cell_time_doubtful(struct buf *out, uint64_t ns, uint64_t raw_ns, int compensated)
{
	char s[FMT_SIZE], raw[FMT_SIZE];

	if (!compensated || !pstat_doubtful(raw_ns, ns)) {
		cell_time(out, ns);
		return 0;
	}
	buf_printf(out, "<td class=\"num doubtful\" data-v=\"%llu\" title=\"compensation took more than half of "
		   "the raw %s\">%s</td>", (unsigned long long)ns, fmt_ns(raw, raw_ns), fmt_ns(s, ns));
	return 1;
}

void cell_site(struct buf *out, const char *file, uint64_t line)
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
