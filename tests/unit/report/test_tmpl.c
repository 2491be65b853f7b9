/* test_tmpl.c: {{placeholder}} templates (report/tmpl.c) and where they come from (report/assets.c). */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "assets.h"
#include "check.h"
#include "tmpl.h"

/* expand: text expanded with vars into a fresh buffer (freed at exit). */
static const char *expand(const char *text, const struct tmpl_var *vars, size_t nvars)
{
	static struct buf b;

	buf_release(&b);
	tmpl_expand(&b, text, strlen(text), vars, nvars);
	return b.data;
}

void test_tmpl_expands(void)
{
	const struct tmpl_var vars[] = { { "title", "T" },
					 { "body", "<p>x</p>" },
					 { "t", "short" } };

	CHECK_STR(expand("<h1>{{title}}</h1>{{body}}", vars, 3), "<h1>T</h1><p>x</p>");
	CHECK_STR(expand("{{title}}{{title}}", vars, 3), "TT");
	CHECK_STR(expand("{{t}}/{{title}}", vars, 3), "short/T"); /* a name is matched whole */
	CHECK_STR(expand("no placeholders", vars, 3), "no placeholders");
	CHECK_STR(expand("", vars, 3), "");
}

void test_tmpl_unknown_and_null_empty(void)
{
	const struct tmpl_var vars[] = { { "gone", NULL } };

	CHECK_STR(expand("[{{gone}}][{{unknown}}][{{}}]", vars, 1), "[][][]");
}

void test_tmpl_unclosed_copied(void)
{
	const struct tmpl_var vars[] = { { "a", "A" } };

	CHECK_STR(expand("{{a}} and {{a", vars, 1), "A and {{a");
	CHECK_STR(expand("x }} {{ y", vars, 1), "x }} {{ y");
}

void test_tmpl_values_not_expanded(void)
{
	const struct tmpl_var vars[] = { { "a", "{{b}}" }, { "b", "B" } };

	CHECK_STR(expand("{{a}}", vars, 2),
		  "{{b}}"); /* a value is inserted as it is, never read again */
}

void test_tmpl_render_builtin(void)
{
	struct buf out = BUF_INIT;
	const struct tmpl_var vars[] = { { "heading", "H" },
					 { "flat", "<table></table>" },
					 { "back", "../index.html" },
					 { "back_label", "Overview" } };

	CHECK(tmpl_render(&out, "flat.html", vars, 4) == 0);
	CHECK(strstr(out.data, "<a href=\"../index.html\">Overview</a>") != NULL);
	CHECK(strstr(out.data, "<h1>H</h1>") != NULL);
	CHECK(strstr(out.data, "{{") == NULL);
	tmpl_release_cache();
	buf_release(&out);
}

void test_tmpl_render_override(void)
{
	char dir[] = "/tmp/callprof-unit-XXXXXX", path[64];
	struct buf out = BUF_INIT;
	const struct tmpl_var vars[] = { { "heading", "H" } };
	FILE *f;

	CHECK_NOT_NULL(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/flat.html", dir);
	f = fopen(path, "w");
	CHECK_NOT_NULL(f);
	fputs("restyled {{heading}}", f);
	fclose(f);
	asset_override_dir(dir);
	CHECK(tmpl_render(&out, "flat.html", vars, 1) == 0);
	CHECK_STR(out.data, "restyled H");
	buf_reset(&out);
	/* A template the directory lacks comes from the built-in ones. */
	CHECK(tmpl_render(&out, "tree.html", vars, 1) == 0);
	CHECK(out.len > 0 && strstr(out.data, "restyled") == NULL);
	tmpl_release_cache();
	unlink(path);
	rmdir(dir);
	buf_release(&out);
}

void test_tmpl_render_unknown(void)
{
	struct buf out = BUF_INIT;
	char said[256], path[64];
	int saved, rc;

	saved = redirect(STDERR_FILENO, scratch_path(path, sizeof(path), "err"));
	rc = tmpl_render(&out, "no-such-template.html", NULL, 0);
	restore(STDERR_FILENO, saved);
	CHECK(rc == -1);
	CHECK_EQ_U64(out.len, 0);
	CHECK_STR(slurp(path, said, sizeof(said)),
		  "callprof: no built-in asset 'templates/no-such-template.html'\n");
	unlink(path);
	buf_release(&out);
}
