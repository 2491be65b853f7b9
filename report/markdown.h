/* markdown.h: writing Markdown safely, and rendering it to HTML with cmark (safe mode). */
#ifndef CALLPROF_MARKDOWN_H
#define CALLPROF_MARKDOWN_H

#include <stddef.h>

#include "buf.h"

/*
 * md_render_html appends the HTML for len bytes of Markdown to out.  Raw HTML
 * in the input is dropped and unsafe link schemes (javascript: ...) are
 * removed: notes and summaries never put markup of their own into a page.
 */
void md_render_html(struct buf *out, const char *md, size_t len);

/* md_code appends s as an inline code span that shows every character of s verbatim. */
void md_code(struct buf *out, const char *s);

/*
 * md_code_cut does the same for at most max bytes of s (cut on a character
 * boundary), followed by "… (N bytes more)" when s is longer: a name may be a
 * megabyte long.
 */
void md_code_cut(struct buf *out, const char *s, size_t max);

/*
 * md_name_short: a function name as a code span, shortened as the pages show
 * it (name_simplify) and cut after LINK_NAME_MAX bytes.
 */
void md_name_short(struct buf *out, const char *name);

/*
 * md_command: a dump's command line as a code span, its arguments cut after
 * RUN_ARGS_MAX bytes (run_args), or the program alone when no_argv.
 */
struct run;
void md_command(struct buf *out, const struct run *r, int no_argv);

/*
 * md_text appends s as plain text: what Markdown (and GitHub's autolinks) would
 * read as markup is backslash-escaped, other punctuation left as it is;
 * control characters become spaces.
 */
void md_text(struct buf *out, const char *s);

#endif
