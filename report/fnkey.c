/* fnkey.c: the key that matches a function across dumps (see fnkey.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "dump.h"
#include "fnkey.h"

/* One function of a module, called (a dump's function) or not (a module's uncalled entry). */
struct fnkey_rec {
	int32_t module;      /* index into the dump's modules, -1 when unknown */
	const char *name;
	const char *file;    /* "" when unknown */
	uint64_t offset;     /* from the module's load address, when has_offset */
	int has_offset;
	size_t fn;           /* index into the dump's functions, or SIZE_MAX for an uncalled one */
};

/* One key with the function it belongs to, to count repeated keys. */
struct fnkey_slot {
	const char *key;
	size_t fn;
};

static const char *base_name(const char *path)
{
	const char *slash = path ? strrchr(path, '/') : NULL;

	return slash ? slash + 1 : path ? path : "";
}

/* parse_offset: a "0x1136" of modules[].uncalled[].offset; 1, or 0 when there is none. */
static int parse_offset(const char *s, uint64_t *out)
{
	char *end;

	if (!s || s[0] != '0' || (s[1] != 'x' && s[1] != 'X') || !s[2])
		return 0;
	errno = 0;
	*out = strtoull(s + 2, &end, 16);
	return !*end && !errno;
}

/* Records of one module and one name and file sort together, by offset. */
static int cmp_rec(const void *a, const void *b)
{
	const struct fnkey_rec *x = a, *y = b;
	int c;

	if (x->module != y->module)
		return x->module < y->module ? -1 : 1;
	if ((c = strcmp(x->name, y->name)) || (c = strcmp(x->file, y->file)))
		return c;
	if (x->has_offset != y->has_offset)
		return x->has_offset ? -1 : 1;
	if (x->offset != y->offset)
		return x->offset < y->offset ? -1 : 1;
	return x->fn < y->fn ? -1 : x->fn > y->fn;
}

static int same_group(const struct fnkey_rec *x, const struct fnkey_rec *y)
{
	return x->module == y->module && !strcmp(x->name, y->name) && !strcmp(x->file, y->file);
}

/* collect: the dump's functions and, for the modules they are in, the uncalled ones. */
static struct fnkey_rec *collect(const struct dump *d, size_t *n)
{
	size_t total = d->nfunctions, k = 0;
	struct fnkey_rec *r;

	for (size_t m = 0; m < d->run.nmodules; m++)
		total += d->run.modules[m].nuncalled;
	r = xmalloc((total + 1) * sizeof(*r));
	for (size_t i = 0; i < d->nfunctions; i++) {
		const struct dump_function *f = &d->functions[i];

		r[k++] = (struct fnkey_rec){ f->module, f->name, f->file ? f->file : "", f->offset, f->has_offset, i };
	}
	for (size_t m = 0; m < d->run.nmodules; m++)
		for (size_t u = 0; u < d->run.modules[m].nuncalled; u++) {
			const struct run_uncalled *x = &d->run.modules[m].uncalled[u];

			struct fnkey_rec *to = &r[k++];

			*to = (struct fnkey_rec){ (int32_t)m, x->name, x->file ? x->file : "", 0, 0, SIZE_MAX };
			to->has_offset = parse_offset(x->offset, &to->offset);
		}
	*n = k;
	return r;
}

/* mark_copies sets copy[i] for each function whose module has several functions of its name and file. */
static void mark_copies(const struct dump *d, char *copy)
{
	size_t n, start = 0;
	struct fnkey_rec *r = collect(d, &n);

	qsort(r, n, sizeof(*r), cmp_rec);
	while (start < n) {
		size_t end = start + 1, distinct = 1;

		for (; end < n && same_group(&r[start], &r[end]); end++)
			if (!r[end].has_offset || r[end].offset != r[end - 1].offset)
				distinct++;
		for (size_t i = start; distinct > 1 && i < end; i++)
			if (r[i].fn != SIZE_MAX)
				copy[r[i].fn] = 1;
		start = end;
	}
	free(r);
}

static int cmp_slot(const void *a, const void *b)
{
	const struct fnkey_slot *x = a, *y = b;
	int c = strcmp(x->key, y->key);

	return c ? c : x->fn < y->fn ? -1 : x->fn > y->fn;
}

/* number_repeats appends "\x1f<n>" to each key: its rank among equal keys, in dump order. */
static void number_repeats(char **keys, size_t n)
{
	struct fnkey_slot *s = xmalloc((n + 1) * sizeof(*s));
	struct buf b = BUF_INIT;
	size_t rank = 0;

	size_t *ranks = xmalloc((n + 1) * sizeof(*ranks));

	for (size_t i = 0; i < n; i++)
		s[i] = (struct fnkey_slot){ keys[i], i };
	qsort(s, n, sizeof(*s), cmp_slot);
	for (size_t i = 0; i < n; i++) {
		rank = i && !strcmp(s[i].key, s[i - 1].key) ? rank + 1 : 0;
		ranks[s[i].fn] = rank;
	}
	for (size_t i = 0; i < n; i++) {
		buf_reset(&b);
		buf_printf(&b, "%s\x1f%zu", keys[i], ranks[i]);
		free(keys[i]);
		keys[i] = xstrdup(b.data);
	}
	free(ranks);
	buf_release(&b);
	free(s);
}

char **fnkey_all(const struct dump *d)
{
	char **keys = xcalloc(d->nfunctions + 1, sizeof(*keys));
	char *copy = xcalloc(d->nfunctions + 1, 1);
	struct buf b = BUF_INIT;

	mark_copies(d, copy);
	for (size_t i = 0; i < d->nfunctions; i++) {
		const struct dump_function *f = &d->functions[i];
		const struct run_module *m = f->module >= 0 ? &d->run.modules[f->module] : NULL;

		buf_reset(&b);
		buf_printf(&b, "%s\x1f%s\x1f%s", base_name(m ? m->path : NULL), f->name, f->file ? f->file : "");
		if (copy[i] && f->has_offset)
			buf_printf(&b, "\x1f%s\x1f" "0x%llx", m && m->build_id ? m->build_id : "",
				   (unsigned long long)f->offset);
		keys[i] = xstrdup(b.data);
	}
	number_repeats(keys, d->nfunctions);
	buf_release(&b);
	free(copy);
	return keys;
}

void fnkey_free(char **keys, size_t n)
{
	for (size_t i = 0; keys && i < n; i++)
		free(keys[i]);
	free(keys);
}
