/* pages.c: the page kinds of a report site and of a diff site, one table each in the order they
 * are rendered, and writing a whole site. */
#define _GNU_SOURCE
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

#include "pages.h"
#include "site.h"
#include "tmpl.h"

/* Every page kind of a report in the order they are rendered: summary.md before the index that shows it. */
static const struct page_kind report_kinds[] = {
	{ "static", render_static }, { "summary", render_summary },
	{ "index", render_index },   { "function", render_function },
	{ "tree", render_tree },     { "callers", render_callers },
	{ "flame", render_flame },   { "thread", render_thread },
	{ "flat", render_flat },     { "coverage", render_coverage },
};

/* The page kinds of a diff site (callprof diff). */
static const struct page_kind diff_kinds[] = {
	{ "static", render_static },
	{ "summary", render_diff_summary },
	{ "index", render_diff_index },
	{ "function", render_diff_function },
	{ "functions", render_diff_functions },
	{ "flame", render_diff_flame },
};

const struct page_set pages_report = { report_kinds,
				       sizeof(report_kinds) / sizeof(report_kinds[0]) };
const struct page_set pages_diff = { diff_kinds, sizeof(diff_kinds) / sizeof(diff_kinds[0]) };

int pages_render(struct render_ctx *ctx, const struct page_set *set)
{
	for (size_t i = 0; i < set->n; i++)
		if (set->kinds[i].render(ctx) < 0)
			return -1;
	return 0;
}

/* print_index: DIR/index.html with DIR made absolute, for a terminal to open. */
static void print_index(const char *dir)
{
	char abs[PATH_MAX];

	if (realpath(dir, abs))
		printf("%s/index.html\n", abs);
	else
		printf("%s/index.html\n", dir);
}

int pages_write(struct render_ctx *ctx, const char *dir, const struct page_set *set)
{
	struct site site;
	int rc;

	if (site_begin(&site, dir) < 0)
		return 1;
	ctx->site = &site;
	buf_init(&ctx->summary_md);
	buf_init(&ctx->page);
	buf_init(&ctx->body);
	rc = pages_render(ctx, set);
	if (rc == 0)
		rc = site_commit(&site);
	else
		site_abort(&site);
	buf_release(&ctx->summary_md);
	buf_release(&ctx->page);
	buf_release(&ctx->body);
	tmpl_release_cache();
	ctx->site = NULL;
	if (rc == 0)
		print_index(dir);
	return rc < 0 ? 2 : 0;
}
