/* pager.c: a flat profile too long for one page, PAGER_ROWS rows a page, with the pager that
 * links its pages. */
#include <stdio.h>

#include "buf.h"
#include "fmt.h"
#include "pager.h"
#include "table.h"

size_t pager_npages(size_t nrows)
{
	return nrows ? (nrows + PAGER_ROWS - 1) / PAGER_ROWS : 1;
}

/* page_link: the address of page k of pg, from root. */
static void page_link(struct buf *out, const struct pager *pg, size_t k, const char *root)
{
	if (k == 0)
		buf_printf(out, "%s%s#flat", root, pg->host);
	else
		buf_printf(out, "%sflat/%s-%zu.html", root, pg->key, k + 1);
}

/* pager_nav: "Functions 1,001-2,000 of 10,000 by self time; pages: 1 2 3". */
static void pager_nav(struct buf *out, const struct pager *pg, size_t page, const char *root)
{
	size_t n = pager_npages(pg->nrows), first = page * PAGER_ROWS;
	size_t last = first + PAGER_ROWS < pg->nrows ? first + PAGER_ROWS : pg->nrows;
	char a[FMT_SIZE], b[FMT_SIZE], c[FMT_SIZE];

	buf_printf(out,
		   "<nav class=\"pager\"><span>Functions %s\xe2\x80\x93%s of %s, by self time "
		   "(sorting and the filter work within a page). Pages:</span>",
		   fmt_count(a, first + 1), fmt_count(b, last), fmt_count(c, pg->nrows));
	for (size_t k = 0; k < n; k++) {
		if (k == page) {
			buf_printf(out, " <strong aria-current=\"page\">%zu</strong>", k + 1);
			continue;
		}
		buf_puts(out, " <a href=\"");
		page_link(out, pg, k, root);
		buf_printf(out, "\">%zu</a>", k + 1);
	}
	buf_puts(out, "</nav>\n");
}

void pager_flat(struct buf *out, const struct profile *p, const struct pager *pg, size_t page,
		const char *root)
{
	size_t first = page * PAGER_ROWS;

	if (pg->nrows <= PAGER_ROWS) {
		table_flat(out, p, pg->rows, pg->nrows, pg->run_ns, root, "flat-table", 0);
		return;
	}
	pager_nav(out, pg, page, root);
	table_flat(out, p, pg->rows + first, pg->nrows - first, pg->run_ns, root, "flat-table",
		   PAGER_ROWS);
}
