/* render_diff_functions.c: functions.html of a diff: every function, biggest change first,
 * written only when there are more than the index shows. */
#include "diff.h"
#include "diff_table.h"
#include "fmt.h"
#include "layout.h"
#include "render.h"

int render_diff_functions(struct render_ctx *ctx)
{
	const struct diff *d = ctx->diff;
	struct buf table = BUF_INIT;
	char nfuncs[FMT_SIZE];
	int rc;

	if (d->nfuncs <= DIFF_TABLE_INDEX_FUNCS)
		return 0;
	diff_table_functions(&table, d, 0);

	struct tmpl_var vars[] = {
		{ "functions", table.data },
		{ "nfuncs", fmt_count(nfuncs, d->nfuncs) },
	};
	rc = layout_page(ctx, "functions.html", "", "functions", "All functions",
			 "diff-functions.html", vars, sizeof(vars) / sizeof(vars[0]));
	buf_release(&table);
	return rc;
}
