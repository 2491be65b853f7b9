/* render_coverage.c: coverage.html: per module, the functions its symbol table has that no
 * thread called (modules[].uncalled), counted per source file. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cell.h"
#include "fmt.h"
#include "html.h"
#include "layout.h"
#include "render.h"

/* One function of a module: a profiled function (called), or an uncalled one a dump lists. */
struct cov_fn {
	const char *module; /* base name of the module, "" when unknown */
	const char *file;   /* source file, "" when unknown */
	const char *name;
	uint64_t line; /* 0 when unknown */
	int called;
};

/* A module some dump has coverage for (symtab_functions or uncalled present). */
struct cov_module {
	const char *base; /* base name: modules of several dumps with one base name are one */
	const char *path; /* its path in the first dump that has it */
	uint64_t symtab;  /* functions in its symbol table (the most any dump says) */
};

/* Per module and file, as the page counts them. */
struct cov_count {
	size_t called, total;
};

static const char *base_of(const char *path)
{
	const char *slash = path ? strrchr(path, '/') : NULL;

	return slash ? slash + 1 : path ? path : "";
}

static int cmp_cov_fn(const void *a, const void *b)
{
	const struct cov_fn *x = a, *y = b;
	int c = strcmp(x->module, y->module);

	if (!c)
		c = strcmp(x->file, y->file);
	if (!c)
		c = strcmp(x->name, y->name);
	if (!c)
		c = y->called -
		    x->called; /* called first: one called record marks the function called */
	return c;
}

static int cmp_cov_module(const void *a, const void *b)
{
	return strcmp(((const struct cov_module *)a)->base, ((const struct cov_module *)b)->base);
}

/* modules_with_coverage: the modules (by base name, sorted) some dump has coverage for. */
static size_t modules_with_coverage(const struct profile *p, struct cov_module **out)
{
	size_t n = 0, cap = 0, k = 0;
	struct cov_module *m = NULL;

	for (size_t d = 0; d < p->nruns; d++) {
		for (size_t i = 0; i < p->runs[d]->nmodules; i++) {
			const struct run_module *dm = &p->runs[d]->modules[i];

			if (!dm->symtab_functions && !dm->nuncalled)
				continue;
			if (n == cap)
				m = xreallocarray(m, cap = cap ? 2 * cap : 8, sizeof(*m));
			m[n++] = (struct cov_module){ base_of(dm->path), dm->path,
						      dm->symtab_functions };
		}
	}
	if (n)
		qsort(m, n, sizeof(*m), cmp_cov_module);
	for (size_t i = 0; i < n; i++) {
		if (k && !strcmp(m[k - 1].base, m[i].base)) {
			if (m[i].symtab > m[k - 1].symtab)
				m[k - 1].symtab = m[i].symtab;
			continue;
		}
		m[k++] = m[i];
	}
	*out = m;
	return k;
}

/* functions_of: every profiled and every uncalled function, sorted by module, file, name.
 * Library functions are not the program's: their modules have no coverage, and they count
 * nowhere (dumps list no uncalled functions of a library). */
static size_t functions_of(const struct profile *p, struct cov_fn **out)
{
	size_t n = p->nfuncs, k = 0;
	struct cov_fn *f;

	for (size_t d = 0; d < p->nruns; d++)
		for (size_t i = 0; i < p->runs[d]->nmodules; i++)
			n += p->runs[d]->modules[i].nuncalled;
	f = xmalloc((n + 1) * sizeof(*f));
	for (size_t i = 0; i < p->nfuncs; i++) {
		const struct pfunc *pf = &p->funcs[i];

		if (pf->library)
			continue;
		f[k++] = (struct cov_fn){ pf->module ? pf->module : "", pf->file ? pf->file : "",
					  pf->name, pf->line, 1 };
	}
	for (size_t d = 0; d < p->nruns; d++) {
		for (size_t i = 0; i < p->runs[d]->nmodules; i++) {
			const struct run_module *dm = &p->runs[d]->modules[i];

			for (size_t u = 0; u < dm->nuncalled; u++)
				f[k++] = (struct cov_fn){
					base_of(dm->path),
					dm->uncalled[u].file ? dm->uncalled[u].file : "",
					dm->uncalled[u].name, dm->uncalled[u].line, 0
				};
		}
	}
	qsort(f, k, sizeof(*f), cmp_cov_fn);
	*out = f;
	return k;
}

static void td_file(struct buf *out, const char *file)
{
	buf_puts(out, "<td class=\"name\">");
	if (*file)
		html_escape(out, file);
	else
		buf_puts(out, "<span class=\"muted\">(no debug information)</span>");
	buf_puts(out, "</td>");
}

static void file_row(struct buf *out, const char *file, const struct cov_count *c)
{
	buf_puts(out, "<tr>");
	td_file(out, file);
	cell_count(out, c->called);
	cell_count(out, c->total);
	cell_pct(out, c->called, c->total);
	cell_count(out, c->total - c->called);
	buf_puts(out, "</tr>\n");
}

static void uncalled_row(struct buf *out, const struct cov_fn *f)
{
	buf_puts(out, "<tr><td class=\"name\"><code>");
	html_escape(out, f->name[0] ? f->name : "(anonymous)");
	buf_puts(out, "</code></td>");
	cell_file(out, *f->file ? f->file : NULL, f->line);
	buf_puts(out, "</tr>\n");
}

/*
 * module_tables: the per-file counts (files) and the uncalled functions (uncalled) of
 * the functions f[0..n), which are one module's, sorted by file and name; adds up *all.
 */
static void module_tables(struct buf *files, struct buf *uncalled, const struct cov_fn *f, size_t n,
			  struct cov_count *all)
{
	size_t i = 0, j;

	while (i < n) {
		const char *file = f[i].file;
		struct cov_count c = { 0, 0 };

		for (; i < n && !strcmp(f[i].file, file); i = j) {
			/* One function: the first record says whether any dump called it. */
			for (j = i + 1;
			     j < n && !strcmp(f[j].file, file) && !strcmp(f[j].name, f[i].name);
			     j++)
				;
			c.total++;
			if (f[i].called)
				c.called++;
			else
				uncalled_row(uncalled, &f[i]);
		}
		file_row(files, file, &c);
		all->called += c.called;
		all->total += c.total;
	}
}

static void module_section(struct buf *out, const struct cov_module *m, size_t k,
			   const struct cov_fn *f, size_t n, struct cov_count *all)
{
	struct buf files = BUF_INIT, uncalled = BUF_INIT;
	struct cov_count c = { 0, 0 };
	char a[FMT_SIZE], b[FMT_SIZE], pct[FMT_SIZE];

	module_tables(&files, &uncalled, f, n, &c);
	buf_printf(out, "<section class=\"module\" id=\"m%zu\">\n<h2><code>", k);
	html_escape(out, *m->base ? m->base : "(unknown module)");
	buf_printf(out,
		   "</code> <span class=\"count\" id=\"m%zu-count\" data-called=\"%zu\" "
		   "data-total=\"%zu\">"
		   "%s of %s functions called (%s)</span></h2>\n",
		   k, c.called, c.total, fmt_count(a, c.called), fmt_count(b, c.total),
		   fmt_pct(pct, c.called, c.total));
	buf_puts(out, "<p class=\"where\"><code>");
	html_escape(out, m->path ? m->path : "path unknown");
	buf_printf(out, "</code>; its symbol table has %s functions.</p>\n",
		   fmt_count(a, m->symtab));
	buf_printf(out,
		   "<table class=\"profile sortable\" id=\"m%zu-files\">\n<thead><tr>"
		   "<th data-sort=\"text\">Source file</th><th data-sort=\"num\">Called</th>"
		   "<th data-sort=\"num\">Functions</th><th data-sort=\"num\">Share called</th>"
		   "<th data-sort=\"num\">Never "
		   "called</th></tr></thead>\n<tbody>\n%s</tbody>\n</table>\n",
		   k, files.data);
	if (c.called < c.total)
		buf_printf(out,
			   "<h3>Never called <span class=\"count\">%s</span></h3>\n"
			   "<table class=\"profile sortable\" id=\"m%zu-uncalled\">\n<thead><tr>"
			   "<th data-sort=\"text\">Function</th><th data-sort=\"text\">Declared "
			   "at</th></tr></thead>\n"
			   "<tbody>\n%s</tbody>\n</table>\n",
			   fmt_count(a, c.total - c.called), k, uncalled.data);
	else
		buf_puts(out, "<p class=\"muted\">Every function of this module was called.</p>\n");
	buf_puts(out, "</section>\n");
	all->called += c.called;
	all->total += c.total;
	buf_release(&files);
	buf_release(&uncalled);
}

int render_coverage(struct render_ctx *ctx)
{
	const struct profile *p = ctx->prof;
	struct cov_module *mods;
	struct cov_fn *fns;
	size_t nmods = modules_with_coverage(p, &mods), nfns = functions_of(p, &fns), i = 0;
	struct buf totals = BUF_INIT, body = BUF_INIT;
	struct cov_count all = { 0, 0 };
	char a[FMT_SIZE], b[FMT_SIZE], c[FMT_SIZE];
	int rc;

	for (size_t k = 0; k < nmods; k++) {
		size_t j;
		int cmp = -1;

		/* Functions of modules without coverage come before, between or after: skip them. */
		while (i < nfns && (cmp = strcmp(fns[i].module, mods[k].base)) < 0)
			i++;
		for (j = i; j < nfns && !strcmp(fns[j].module, mods[k].base); j++)
			;
		module_section(&body, &mods[k], k, fns + i, cmp == 0 ? j - i : 0, &all);
		i = j;
	}
	if (nmods)
		buf_printf(&totals,
			   "<p id=\"coverage-total\" data-called=\"%zu\" data-total=\"%zu\">%s of "
			   "%s functions "
			   "called (%s) in %zu module%s.</p>\n",
			   all.called, all.total, fmt_count(a, all.called), fmt_count(b, all.total),
			   fmt_pct(c, all.called, all.total), nmods, nmods == 1 ? "" : "s");
	else
		buf_puts(&totals, "<p class=\"muted\" id=\"coverage-total\">These dumps do not "
				  "list the functions "
				  "of their modules (a runtime older than this report wrote them): "
				  "there is nothing "
				  "to count.</p>\n");

	struct tmpl_var vars[] = {
		{ "totals", totals.data },
		{ "modules", body.data },
	};
	rc = layout_page(ctx, "coverage.html", "", "coverage", "Coverage", "coverage.html", vars,
			 sizeof(vars) / sizeof(vars[0]));
	buf_release(&totals);
	buf_release(&body);
	free(mods);
	free(fns);
	return rc;
}
