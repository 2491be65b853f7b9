/* render_flat.c: flat/all-<n>.html: the pages after the first of the whole run's flat profile
 * when it is too long for one page (the first is on the index).  A thread's page shows its
 * hottest functions only. */
#include <stdio.h>
#include <stdlib.h>

#include "fmt.h"
#include "layout.h"
#include "pager.h"
#include "render.h"
#include "table.h"

/* flat_pages_write: pages 2.. of pg; label names the list in headings ("all threads"). */
static int flat_pages_write(struct render_ctx *ctx, const struct pager *pg, const char *label,
			    const char *back_label)
{
	struct buf heading = BUF_INIT, flat = BUF_INIT, back = BUF_INIT, title = BUF_INIT;
	char path[64], a[FMT_SIZE], b[FMT_SIZE];
	size_t n = pager_npages(pg->nrows);
	int rc = 0;

	buf_printf(&back, "../%s", pg->host);
	for (size_t page = 1; page < n && rc == 0; page++) {
		size_t last = (page + 1) * PAGER_ROWS;

		buf_reset(&heading);
		buf_reset(&flat);
		buf_reset(&title);
		buf_printf(&heading, "Flat profile, %s: page %zu of %zu", label, page + 1, n);
		buf_printf(&title, "Flat profile, page %zu (functions %s\xe2\x80\x93%s)", page + 1,
			   fmt_count(a, page * PAGER_ROWS + 1),
			   fmt_count(b, last < pg->nrows ? last : pg->nrows));
		pager_flat(&flat, ctx->prof, pg, page, "../");
		struct tmpl_var vars[] = {
			{ "heading", heading.data },
			{ "flat", flat.data },
			{ "back", back.data },
			{ "back_label", back_label },
		};
		snprintf(path, sizeof(path), "flat/%s-%zu.html", pg->key, page + 1);
		rc = layout_page(ctx, path, "../", "functions", title.data, "flat.html", vars,
				 sizeof(vars) / sizeof(vars[0]));
	}
	buf_release(&heading);
	buf_release(&flat);
	buf_release(&back);
	buf_release(&title);
	return rc;
}

int render_flat(struct render_ctx *ctx)
{
	const struct profile *p = ctx->prof;
	struct pfstat *rows = table_flat_rows(p);
	struct pager pg = { rows, p->nfuncs, p->run_ns, "all", "index.html" };
	int rc = flat_pages_write(ctx, &pg, p->nthreads > 1 ? "all threads" : "the whole run",
				  "Overview");

	free(rows);
	return rc;
}
