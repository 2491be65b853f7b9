/* tmpl.c: {{placeholder}} expansion and the cache of loaded templates. */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "assets.h"
#include "tmpl.h"

#define TMPL_CACHE_MAX 16

/* Templates loaded so far: a handful per run, so a short array is enough. */
static struct {
	char *name;
	struct buf text;
} tmpl_cache[TMPL_CACHE_MAX];
static size_t tmpl_ncached;

static const char *tmpl_lookup(const struct tmpl_var *vars, size_t nvars, const char *name,
			       size_t len)
{
	for (size_t i = 0; i < nvars; i++)
		if (strlen(vars[i].name) == len && !memcmp(vars[i].name, name, len))
			return vars[i].value ? vars[i].value : "";
	return "";
}

void tmpl_expand(struct buf *out, const char *text, size_t len, const struct tmpl_var *vars,
		 size_t nvars)
{
	const char *p = text, *end = text + len;

	while (p < end) {
		const char *open = memmem(p, (size_t)(end - p), "{{", 2);
		const char *close;

		if (!open)
			break;
		close = memmem(open + 2, (size_t)(end - open - 2), "}}", 2);
		if (!close)
			break;
		buf_add(out, p, (size_t)(open - p));
		buf_puts(out, tmpl_lookup(vars, nvars, open + 2, (size_t)(close - open - 2)));
		p = close + 2;
	}
	buf_add(out, p, (size_t)(end - p));
}

static const struct buf *tmpl_get(const char *name)
{
	struct buf path = BUF_INIT;
	size_t i;

	for (i = 0; i < tmpl_ncached; i++)
		if (!strcmp(tmpl_cache[i].name, name))
			return &tmpl_cache[i].text;
	if (tmpl_ncached == TMPL_CACHE_MAX)
		return NULL;
	buf_printf(&path, "templates/%s", name);
	buf_init(&tmpl_cache[i].text);
	if (asset_load(path.data, &tmpl_cache[i].text) < 0) {
		buf_release(&tmpl_cache[i].text);
		buf_release(&path);
		return NULL;
	}
	buf_release(&path);
	tmpl_cache[i].name = xstrdup(name);
	tmpl_ncached++;
	return &tmpl_cache[i].text;
}

int tmpl_render(struct buf *out, const char *name, const struct tmpl_var *vars, size_t nvars)
{
	const struct buf *t = tmpl_get(name);

	if (!t)
		return -1;
	tmpl_expand(out, t->data, t->len, vars, nvars);
	return 0;
}

void tmpl_release_cache(void)
{
	for (size_t i = 0; i < tmpl_ncached; i++) {
		free(tmpl_cache[i].name);
		buf_release(&tmpl_cache[i].text);
	}
	tmpl_ncached = 0;
}
