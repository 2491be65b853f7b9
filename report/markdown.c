/* markdown.c: Markdown out (escaping) and in (cmark); the only file that includes cmark. */
#include <stdlib.h>
#include <string.h>

#include <cmark.h>

#include "link.h"
#include "markdown.h"
#include "name.h"
#include "run.h"

void md_render_html(struct buf *out, const char *md, size_t len)
{
	/* Safe is cmark's default since 0.29; say it anyway for older ones. */
	char *html = cmark_markdown_to_html(md, len, CMARK_OPT_DEFAULT | CMARK_OPT_SAFE);

	if (html) {
		buf_puts(out, html);
		free(html);
	}
}

/* md_code_n: md_code for the first len bytes of s. */
static void md_code_n(struct buf *out, const char *s, size_t len)
{
	size_t run = 0, longest = 0, i;
	int pad;

	for (i = 0; i < len; i++) {
		run = s[i] == '`' ? run + 1 : 0;
		if (run > longest)
			longest = run;
	}
	/* CommonMark strips one space from each side when both are there: pad if an edge could merge. */
	pad = len && (s[0] == '`' || s[0] == ' ' || s[len - 1] == '`' || s[len - 1] == ' ');
	for (i = 0; i <= longest; i++)
		buf_putc(out, '`');
	if (pad)
		buf_putc(out, ' ');
	for (i = 0; i < len; i++)
		buf_putc(out, (unsigned char)s[i] < 0x20 ? ' ' : s[i]);
	if (pad)
		buf_putc(out, ' ');
	for (i = 0; i <= longest; i++)
		buf_putc(out, '`');
}

void md_code(struct buf *out, const char *s)
{
	md_code_n(out, s, strlen(s));
}

void md_code_cut(struct buf *out, const char *s, size_t max)
{
	size_t len = strlen(s), cut = max;

	if (len <= max) {
		md_code_n(out, s, len);
		return;
	}
	while (cut && ((unsigned char)s[cut] & 0xc0) == 0x80)
		cut--;
	md_code_n(out, s, cut);
	buf_printf(out, "\xe2\x80\xa6 (%zu bytes more)", len - cut);
}

/*
 * md_escapes: c at s[i] would mean something to Markdown (CommonMark, and the
 * autolinks of GitHub's flavour): emphasis, code, links, HTML, tables; a URL
 * scheme ("x://"), "www." and e-mail autolinks; a block marker at the start.
 * Plain punctuation elsewhere stays as it is, so "callprof: demo.c" reads so
 * in the raw file too.
 */
static int md_escapes(const char *s, size_t i)
{
	unsigned char c = (unsigned char)s[i];

	if (c >= 0x80)
		return 0;
	if (strchr("\\`*_[]<>&|~#@", c))
		return 1;
	if (c == ':')
		return s[i + 1] == '/' && s[i + 2] == '/';
	if (c == '!')
		return s[i + 1] == '[';
	if (c == '.' && i >= 3 && !strncmp(s + i - 3, "www", 3))
		return 1;
	return i == 0 && strchr(".-+=>", c) && c;
}

void md_text(struct buf *out, const char *s)
{
	for (size_t i = 0; s[i]; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c < 0x20) {
			buf_putc(out, ' ');
			continue;
		}
		if (md_escapes(s, i))
			buf_putc(out, '\\');
		buf_putc(out, (char)c);
	}
}

void md_name_short(struct buf *out, const char *name)
{
	struct buf simple = BUF_INIT;

	if (!*name) {
		md_code(out, "(anonymous)");
		return;
	}
	name_simplify(&simple, name);
	md_code_cut(out, simple.data, LINK_NAME_MAX);
	buf_release(&simple);
}

void md_command(struct buf *out, const struct run *r, int no_argv)
{
	struct buf cmd = BUF_INIT;
	const char *prog = r->argc ? r->argv[0] : r->program ? r->program : r->path;

	buf_puts(&cmd, prog ? prog : "unknown");
	if (r->argc > 1 && !no_argv) {
		buf_putc(&cmd, ' ');
		run_args(&cmd, r, 1, RUN_ARGS_MAX);
	}
	md_code(out, cmd.data);
	buf_release(&cmd);
}
