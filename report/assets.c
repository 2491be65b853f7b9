/* assets.c: looks up embedded assets and the --templates overrides. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "assets.h"

/* Directory given with --templates, or NULL. */
static const char *override_dir;

const struct asset *asset_find(const char *name)
{
	for (size_t i = 0; i < assets_count; i++)
		if (!strcmp(assets_table[i].name, name))
			return &assets_table[i];
	return NULL;
}

void asset_override_dir(const char *dir)
{
	override_dir = dir;
}

/* read_file replaces out's contents with the file at path: 0, 1 if absent, -1 on error. */
static int read_file(const char *path, struct buf *out)
{
	FILE *f = fopen(path, "rb");
	char chunk[65536];
	size_t n;
	int err;

	if (!f)
		return errno == ENOENT ? 1 : -1;
	buf_reset(out);
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
		buf_add(out, chunk, n);
	err = ferror(f);
	fclose(f);
	return err ? -1 : 0;
}

int asset_load(const char *name, struct buf *out)
{
	const struct asset *a;

	if (override_dir) {
		const char *base = strrchr(name, '/');
		struct buf path = BUF_INIT;
		int rc;

		buf_printf(&path, "%s/%s", override_dir, base ? base + 1 : name);
		rc = read_file(path.data, out);
		if (rc < 0)
			fprintf(stderr, "callprof: cannot read '%s': %s\n", path.data,
				strerror(errno));
		buf_release(&path);
		if (rc <= 0)
			return rc;
	}
	a = asset_find(name);
	if (!a) {
		fprintf(stderr, "callprof: no built-in asset '%s'\n", name);
		return -1;
	}
	buf_reset(out);
	buf_add(out, a->data, a->size);
	return 0;
}
