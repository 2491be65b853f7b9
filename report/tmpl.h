/* tmpl.h: the tiny template mechanism: templates/NAME with {{placeholders}}. */
#ifndef CALLPROF_TMPL_H
#define CALLPROF_TMPL_H

#include <stddef.h>

#include "buf.h"

/* One placeholder's value: inserted as is, so it must already be HTML (renderers escape). */
struct tmpl_var {
	const char *name;  /* placeholder name without braces: "title" for {{title}} */
	const char *value; /* HTML text to insert; NULL counts as "" */
};

/*
 * tmpl_expand appends text (len bytes) to out with each {{name}} replaced by
 * the value of the var called name.  A placeholder no var names expands to
 * nothing, so a restyled template may leave figures out; text without a
 * closing "}}" is copied as it is.
 */
void tmpl_expand(struct buf *out, const char *text, size_t len, const struct tmpl_var *vars,
		 size_t nvars);

/*
 * tmpl_render expands the template asset "templates/NAME" (loaded once, see
 * asset_load for --templates) into out.  Returns 0, or -1 after printing one
 * line when the template cannot be loaded.
 */
int tmpl_render(struct buf *out, const char *name, const struct tmpl_var *vars, size_t nvars);

/* tmpl_release_cache frees the templates loaded so far. */
void tmpl_release_cache(void);

#endif
