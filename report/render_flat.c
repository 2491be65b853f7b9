/* render_flat.c: flat/all-<n>.html: the pages after the first of the whole run's flat profile
 * when it is too long for one page (the first is on the index).  A thread's page shows its
 * hottest functions only. */
#include <stdio.h>
#include <stdlib.h>

#include "fmt.h"
#include "render.h"

/* flat_pages_write: pages 2.. of fp; label names the list in headings ("all threads"). */
static int flat_pages_write(struct render_ctx *ctx, const struct flat_pages *fp, const char *label,
			    const char *back_label)
{
	struct buf heading = BUF_INIT, flat = BUF_INIT, back = BUF_INIT, title = BUF_INIT;
	char path[64], a[FMT_SIZE], b[FMT_SIZE];
	size_t n = render_flat_npages(fp->nrows);
	int rc = 0;

	buf_printf(&back, "../%s", fp->host);
	for (size_t page = 1; page < n && rc == 0; page++) {
		size_t last = (page + 1) * RENDER_FLAT_PAGE;

		buf_reset(&heading);
		buf_reset(&flat);
		buf_reset(&title);
		buf_printf(&heading, "Flat profile, %s: page %zu of %zu", label, page + 1, n);
		buf_printf(&title, "Flat profile, page %zu (functions %s\xe2\x80\x93%s)", page + 1,
			   fmt_count(a, page * RENDER_FLAT_PAGE + 1), fmt_count(b, last < fp->nrows ? last : fp->nrows));
		render_flat_paged(&flat, ctx->prof, fp, page, "../");
		struct tmpl_var vars[] = {
			{ "heading", heading.data },
			{ "flat", flat.data },
			{ "back", back.data },
			{ "back_label", back_label },
		};
		snprintf(path, sizeof(path), "flat/%s-%zu.html", fp->key, page + 1);
		rc = render_page(ctx, path, "../", "functions", title.data, "flat.html", vars,
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
	struct pfstat *rows = render_merged_rows(p);
	struct flat_pages fp = { rows, p->nfuncs, p->run_ns, "all", "index.html" };
	int rc = flat_pages_write(ctx, &fp, p->nthreads > 1 ? "all threads" : "the whole run", "Overview");

	free(rows);
	return rc;
}
