/* fnid.c: the merge key of each function of a dump, from its source and, for twins, its code
 * (see fnid.h). */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "dump.h"
#include "fnid.h"

/* One function of a module as twins are counted: a called one (fn >= 0) or an uncalled one. */
struct twin {
	int32_t module;
	const char *name, *file; /* file "" when unknown */
	int nul; /* name_nul + 2 * file_nul: escaped names are not the names they read as */
	uint64_t line;
	uint64_t offset; /* valid when has_offset */
	int has_offset;
	int64_t fn; /* index into dump.functions, -1 for modules[].uncalled */
};

static const char *or_empty(const char *s)
{
	return s ? s : "";
}

static const char *base_name(const char *path)
{
	const char *slash = path ? strrchr(path, '/') : NULL;

	return slash ? slash + 1 : path;
}

static int cmp_source(const struct twin *x, const struct twin *y)
{
	int c;

	if (x->module != y->module)
		return x->module < y->module ? -1 : 1;
	if (x->nul != y->nul)
		return x->nul < y->nul ? -1 : 1;
	c = strcmp(x->name, y->name);
	return c ? c : strcmp(x->file, y->file);
}

static int cmp_twin(const void *a, const void *b)
{
	const struct twin *x = a, *y = b;
	int c = cmp_source(x, y);

	if (c)
		return c;
	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	return x->fn < y->fn ? -1 : x->fn > y->fn;
}

/* Entries of one function sort together: by source, then code (those without one last), a called one first. */
static int cmp_code(const void *a, const void *b)
{
	const struct twin *x = a, *y = b;
	int c = cmp_source(x, y);

	if (c)
		return c;
	if (x->has_offset != y->has_offset)
		return x->has_offset ? -1 : 1;
	if (x->offset != y->offset)
		return x->offset < y->offset ? -1 : 1;
	return x->fn > y->fn ? -1 : x->fn < y->fn;
}

/*
 * twins_list: every function of every module of d, called or not, each once,
 * sorted by source and line.  A function can be listed twice: a merged dump
 * keeps a module's uncalled entries that another input called (dump.h's
 * dump_merge); an uncalled entry at the offset of a listed function is that
 * function.
 */
static struct twin *twins_list(const struct dump *d, size_t *count)
{
	size_t n = d->nfunctions, k = 0, kept = 0;
	struct twin *t;

	for (size_t m = 0; m < d->run.nmodules; m++)
		n += d->run.modules[m].nuncalled;
	t = xmalloc((n + 1) * sizeof(*t));
	for (size_t i = 0; i < d->nfunctions; i++) {
		const struct dump_function *f = &d->functions[i];

		t[k++] = (struct twin){ f->module,         f->name,
					or_empty(f->file), f->name_nul + 2 * f->file_nul,
					f->line,           f->offset,
					f->has_offset,     (int64_t)i };
	}
	for (size_t m = 0; m < d->run.nmodules; m++) {
		const struct run_module *mod = &d->run.modules[m];

		for (size_t u = 0; u < mod->nuncalled; u++) {
			struct twin *to = &t[k++];
			const struct run_uncalled *x = &mod->uncalled[u];

			*to = (struct twin){ (int32_t)m,
					     x->name,
					     or_empty(x->file),
					     x->name_nul + 2 * x->file_nul,
					     x->line,
					     0,
					     0,
					     -1 };
			to->has_offset = run_parse_offset(x->offset, &to->offset);
		}
	}
	qsort(t, k, sizeof(*t), cmp_code);
	for (size_t i = 0; i < k; i++)
		if (!kept || t[i].fn >= 0 || !t[i].has_offset || cmp_source(&t[kept - 1], &t[i]) ||
		    !t[kept - 1].has_offset || t[kept - 1].offset != t[i].offset)
			t[kept++] = t[i];
	qsort(t, kept, sizeof(*t), cmp_twin);
	*count = kept;
	return t;
}

const char *fnid_code(const struct dump *d, size_t fn)
{
	int32_t m = d->functions[fn].module;

	if (m < 0)
		return NULL;
	return d->run.modules[m].build_id ? d->run.modules[m].build_id : d->run.modules[m].path;
}

/* key_of: the key of function t->fn, given how many functions share its source (same) and its line (same_line). */
static char *key_of(const struct dump *d, const struct twin *t, size_t same, size_t same_line)
{
	const struct dump_function *f = &d->functions[t->fn];
	const char *mod = f->module >= 0 ? base_name(d->run.modules[f->module].path) : NULL;
	const char *code = fnid_code(d, (size_t)t->fn);
	struct buf key = BUF_INIT;

	buf_printf(&key, "%s\x1f%s\x1f%s", or_empty(mod), f->name, t->file);
	if (t->nul) /* escaped: apart from a name that reads the same */
		buf_printf(&key, "\x1f\\0%d", t->nul);
	if (same > 1)
		buf_printf(&key, "\x1fL%llu", (unsigned long long)f->line);
	if (same_line > 1 && f->has_offset)
		buf_printf(&key, "\x1f@%s+0x%llx", or_empty(code), (unsigned long long)f->offset);
	return buf_detach(&key, NULL);
}

char **fnid_keys(const struct dump *d)
{
	size_t n, i, j;
	struct twin *t = twins_list(d, &n);
	char **keys = xcalloc(d->nfunctions + 1, sizeof(*keys));

	for (i = 0; i < n; i = j) {
		size_t k, l;

		for (j = i + 1; j < n && !cmp_source(&t[i], &t[j]); j++)
			;
		for (k = i; k < j; k = l) {
			for (l = k + 1; l < j && t[l].line == t[k].line; l++)
				;
			for (size_t x = k; x < l; x++)
				if (t[x].fn >= 0)
					keys[t[x].fn] = key_of(d, &t[x], j - i, l - k);
		}
	}
	free(t);
	/* Keys still equal (twins without offsets, or one function listed twice): "\x1f#k" in functions[] order. */
	str_number_repeats(keys, d->nfunctions, "\x1f#", 0, 0);
	return keys;
}

void fnid_keys_free(char **keys, size_t n)
{
	for (size_t i = 0; keys && i < n; i++)
		free(keys[i]);
	free(keys);
}

int fnid_cmp_copies(uint64_t line_a, uint64_t offset_a, uint64_t line_b, uint64_t offset_b)
{
	if (line_a != line_b)
		return line_a < line_b ? -1 : 1;
	return offset_a < offset_b ? -1 : offset_a > offset_b;
}

/* ---- telling them apart on the pages ---- */

static int cmp_show(const void *a, const void *b, void *ctx)
{
	const struct fnid_show *v = ctx;
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	int c = strcmp(v[x].name, v[y].name);

	if (!c)
		c = strcmp(or_empty(base_name(v[x].file)), or_empty(base_name(v[y].file)));
	if (!c)
		c = strcmp(or_empty(v[x].file), or_empty(v[y].file));
	if (!c && v[x].line != v[y].line)
		c = v[x].line < v[y].line ? -1 : 1;
	return c ? c : x < y ? -1 : x > y;
}

/* same_at: a and b share what depth compares: the name (0), the file's base name (1), its path (2), the line (3). */
static int same_at(const struct fnid_show *a, const struct fnid_show *b, int depth)
{
	return !strcmp(a->name, b->name) &&
	       (depth < 1 || !strcmp(or_empty(base_name(a->file)), or_empty(base_name(b->file)))) &&
	       (depth < 2 || !strcmp(or_empty(a->file), or_empty(b->file))) &&
	       (depth < 3 || a->line == b->line);
}

void fnid_same_levels(const struct fnid_show *v, size_t n, int *level)
{
	uint32_t *idx = xmalloc((n + 1) * sizeof(*idx));

	for (size_t i = 0; i < n; i++) {
		idx[i] = (uint32_t)i;
		level[i] = FNID_SHOW_NONE;
	}
	qsort_r(idx, n, sizeof(*idx), cmp_show, (void *)v);
	/* Sorted by name, file base name, path and line, those sharing each are one stretch of idx. */
	for (int depth = 0; depth < 4; depth++) {
		for (size_t i = 0, j; i < n; i = j) {
			for (j = i + 1; j < n && same_at(&v[idx[i]], &v[idx[j]], depth); j++)
				;
			for (size_t k = i; j - i > 1 && k < j; k++)
				level[idx[k]] = depth + 1;
		}
	}
	free(idx);
}

void fnid_tell(struct buf *out, int level, const char *module, const char *file, uint64_t line,
	       int has_offset, uint64_t offset)
{
	if (level == FNID_SHOW_NONE)
		return;
	if (file) {
		buf_puts(out, level == FNID_SHOW_PATH ? file : base_name(file));
		if (level >= FNID_SHOW_LINE && line)
			buf_printf(out, ":%llu", (unsigned long long)line);
	} else {
		buf_puts(out, module ? module : "unknown module");
	}
	if ((level >= FNID_SHOW_CODE || (!file && level >= FNID_SHOW_PATH)) && has_offset)
		buf_printf(out, " @0x%llx", (unsigned long long)offset);
}

void fnid_put_tell(struct buf *out, void (*put)(struct buf *, const char *), int level,
		   const char *module, const char *file, uint64_t line, int has_offset,
		   uint64_t offset)
{
	struct buf tell = BUF_INIT;

	if (level == FNID_SHOW_NONE)
		return;
	fnid_tell(&tell, level, module, file, line, has_offset, offset);
	buf_puts(out, " (");
	put(out, tell.data);
	buf_putc(out, ')');
	buf_release(&tell);
}
