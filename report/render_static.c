/* render_static.c: copies the style sheet and scripts (everything under static/) into the site. */
#include <string.h>

#include "assets.h"
#include "render.h"

int render_static(struct render_ctx *ctx)
{
	struct buf data = BUF_INIT;
	int rc = 0;

	for (size_t i = 0; i < assets_count && rc == 0; i++) {
		const char *name = assets_table[i].name;

		if (strncmp(name, "static/", 7))
			continue;
		rc = asset_load(name, &data);
		if (rc == 0)
			rc = site_write(ctx->site, name, data.data, data.len);
	}
	buf_release(&data);
	return rc;
}
