/* assets.h: templates and static files, embedded at build time, optionally overridden at run time. */
#ifndef CALLPROF_ASSETS_H
#define CALLPROF_ASSETS_H

#include <stddef.h>

#include "buf.h"

/* One embedded file; data is followed by a NUL byte not counted in size. */
struct asset {
	const char *name;          /* path in the source tree: "templates/page.html" */
	const unsigned char *data; /* contents */
	size_t size;               /* bytes */
};

/* The table written by report/gen-assets.sh (build/gen/assets.S). */
extern const struct asset assets_table[];
extern const size_t assets_count;

/* asset_find: the embedded asset called name, or NULL. */
const struct asset *asset_find(const char *name);

/*
 * asset_override_dir: from now on asset_load() prefers DIR/<base name> (e.g.
 * DIR/page.html for "templates/page.html", DIR/style.css for
 * "static/style.css") when that file exists.  dir is borrowed, not copied.
 */
void asset_override_dir(const char *dir);

/*
 * asset_load replaces out's contents with the asset called name.
 * Returns 0, or -1 after printing one line to stderr (unreadable override,
 * unknown name).
 */
int asset_load(const char *name, struct buf *out);

#endif
