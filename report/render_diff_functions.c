/* render_diff_functions.c: functions.html of a diff: every function, biggest change first,
 * written only when there are more than the index shows. */
#include "diff.h"
#include "fmt.h"
#include "render.h"

int render_diff_functions(struct render_ctx *ctx)
{
	const struct diff *d = ctx->diff;
	struct buf table = BUF_INIT;
	char nfuncs[FMT_SIZE];
	int rc;

	if (d->nfuncs <= RENDER_DIFF_INDEX_FUNCS)
		return 0;
	render_diff_functions_table(&table, d, 0);

	struct tmpl_var vars[] = {
		{ "functions", table.data },
		{ "nfuncs", fmt_count(nfuncs, d->nfuncs) },
	};
	rc = render_page(ctx, "functions.html", "", "functions", "All functions", "diff-functions.html", vars,
			 sizeof(vars) / sizeof(vars[0]));
	buf_release(&table);
	return rc;
}
