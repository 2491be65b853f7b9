/* fuzz_load.c: libFuzzer target for the dump reader: every input is read as a dump; one that
 * loads is analysed and rendered (alone, and merged with itself) into a site kept in memory. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dump.h"
#include "pages.h"
#include "profile.h"
#include "render.h"
#include "site.h"
#include "tmpl.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The site writer, replaced: pages are counted, never written (site.c is not linked). */
int site_begin(struct site *s, const char *dir)
{
	memset(s, 0, sizeof(*s));
	s->dir = xstrdup(dir);
	return 0;
}

int site_write(struct site *s, const char *relpath, const void *data, size_t len)
{
	(void)relpath;
	/* Touch the first and last byte, so ASan sees a page that was not built right. */
	if (len && ((const char *)data)[0] == '\0' && ((const char *)data)[len - 1] == '\1')
		s->bytes++;
	s->files++;
	s->bytes += len;
	return 0;
}

int site_commit(struct site *s)
{
	free(s->dir);
	memset(s, 0, sizeof(*s));
	return 0;
}

void site_abort(struct site *s)
{
	site_commit(s);
}

static void render(const struct dump *dumps, size_t n)
{
	struct profile prof;
	struct site site;
	struct render_ctx ctx = {
		.prof = &prof, .site = &site, .notes_md = "*notes*", .notes_len = 7
	};

	if (profile_build(&prof, dumps, n) < 0)
		return;
	buf_init(&ctx.summary_md);
	buf_init(&ctx.page);
	buf_init(&ctx.body);
	site_begin(&site, "fuzz-site");
	if (pages_render(&ctx, &pages_report) == 0)
		site_commit(&site);
	else
		site_abort(&site);
	buf_release(&ctx.summary_md);
	buf_release(&ctx.page);
	buf_release(&ctx.body);
	profile_release(&prof);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);
	struct dump d[2];
	struct buf err = BUF_INIT;

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	if (dump_parse(&d[0], "fuzz.json", text, size, &err) == 0) {
		render(d, 1);
		d[1] = d[0];
		render(d, 2);
		dump_release(&d[0]);
	} else if (!err.len || err.len > 600 || memchr(err.data, '\n', err.len)) {
		/* A refusal is one short line, always, whatever the dump holds. */
		abort();
	}
	buf_release(&err);
	free(text);
	return 0;
}
