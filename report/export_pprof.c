/* export_pprof.c: pprof's profile.proto, gzipped: one sample per call path of each thread, with
 * its calls and self time; functions with file and line; a mapping per module (protobuf-c, zlib). */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <zlib.h>

#include "export.h"
#include "keymap.h"
#include "profile.pb-c.h"

/*
 * Sample values: calls (count) and time (nanoseconds), and with CPU time
 * cpu (nanoseconds: of the time, on a CPU), the path's self time only: pprof adds a path's samples up into inclusive time itself, so an
 * inclusive value would count twice.  Each path of each thread is one sample
 * whose locations run from the leaf up to the root; every function is one
 * location (id = function index + 1) with one line (the function's own).
 * Samples carry the thread as labels ("thread": its name, "tid"), so pprof's
 * -tagfocus picks a thread.  Without a clock the time values are all 0.
 */

typedef Perftools__Profiles__Profile PbProfile;
typedef Perftools__Profiles__Sample PbSample;
typedef Perftools__Profiles__Location PbLocation;
typedef Perftools__Profiles__Line PbLine;
typedef Perftools__Profiles__Function PbFunction;
typedef Perftools__Profiles__Mapping PbMapping;
typedef Perftools__Profiles__ValueType PbValueType;
typedef Perftools__Profiles__Label PbLabel;

/* The string table, each string once. */
struct pb_strings {
	struct keymap index; /* hash of a string -> its index + 1 */
	char **v;
	size_t n, alloc;
};

static uint64_t hash_str(const char *s)
{
	uint64_t h = 1469598103934665603ull;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return h ^ (h >> 29);
}

/*
 * utf8_len: the length of the valid UTF-8 sequence at s, or 0.  profile.proto's
 * strings are proto3 strings, which decoders (Go's among them) refuse unless
 * they are valid UTF-8, so any other byte of a name becomes U+FFFD.
 */
static size_t utf8_len(const unsigned char *s)
{
	size_t len = s[0] < 0x80                    ? 1
		     : s[0] >= 0xc2 && s[0] <= 0xdf ? 2
		     : s[0] >= 0xe0 && s[0] <= 0xef ? 3
		     : s[0] >= 0xf0 && s[0] <= 0xf4 ? 4
						    : 0;

	for (size_t i = 1; i < len; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	if ((len == 3 && s[0] == 0xe0 && s[1] < 0xa0) ||
	    (len == 3 && s[0] == 0xed && s[1] >= 0xa0) ||
	    (len == 4 && s[0] == 0xf0 && s[1] < 0x90) || (len == 4 && s[0] == 0xf4 && s[1] >= 0x90))
		return 0; /* overlong, a surrogate, or past U+10FFFF */
	return len;
}

static char *utf8_copy(const char *s)
{
	struct buf b = BUF_INIT;

	while (*s) {
		size_t n = utf8_len((const unsigned char *)s);

		if (n)
			buf_add(&b, s, n);
		else
			buf_puts(&b, "\xef\xbf\xbd");
		s += n ? n : 1;
	}
	return buf_detach(&b, NULL);
}

/*
 * str_id: the index of s in the table, added if new.  Strings are matched
 * by hash and then compared: a second string with the same hash is added
 * again (a repeat in the table is allowed, only wasteful).
 */
static int64_t str_id(struct pb_strings *t, const char *s)
{
	int64_t at = keymap_get(&t->index, hash_str(s));

	if (at > 0 && !strcmp(t->v[at - 1], s))
		return at - 1;
	if (t->n == t->alloc)
		t->v = xreallocarray(t->v, t->alloc = t->alloc ? 2 * t->alloc : 64, sizeof(*t->v));
	t->v[t->n] = utf8_copy(s);
	if (at < 0)
		keymap_put(&t->index, hash_str(s), (uint32_t)t->n + 1);
	return (int64_t)t->n++;
}

/* Everything the message points to, allocated in arrays freed at the end. */
struct pb_build {
	PbProfile prof;
	struct pb_strings strs;
	PbValueType types[3], period_type;
	PbValueType *type_ptrs[3];
	PbFunction *funcs;
	PbFunction **func_ptrs;
	PbLine *lines;
	PbLine **line_ptrs;
	PbLocation *locs;
	PbLocation **loc_ptrs;
	PbMapping *maps;
	PbMapping **map_ptrs;
	PbLabel *labels;      /* two per thread */
	PbLabel **label_ptrs; /* two per thread */
	size_t *nlabels;      /* per thread: how many of its two it has */
	int64_t comments[2];
};

/* mapping_of: the mapping id of function f's module (0: none), adding the module's mapping if new. */
static uint64_t mapping_of(struct pb_build *b, const struct pfunc *f, size_t *nmaps)
{
	const char *path = f->mod && f->mod->path ? f->mod->path : f->module;
	const char *build_id = f->mod && f->mod->build_id ? f->mod->build_id : "";
	int64_t name, id;

	if (!path)
		return 0;
	name = str_id(&b->strs, path);
	id = str_id(&b->strs, build_id);
	for (size_t m = 0; m < *nmaps; m++)
		if (b->maps[m].filename == name && b->maps[m].build_id == id)
			return b->maps[m].id;
	perftools__profiles__mapping__init(&b->maps[*nmaps]);
	b->maps[*nmaps].id = *nmaps + 1;
	b->maps[*nmaps].filename = name;
	b->maps[*nmaps].build_id = id;
	b->maps[*nmaps].has_functions = 1;
	b->maps[*nmaps].has_filenames = 1;
	b->maps[*nmaps].has_line_numbers = 1;
	b->map_ptrs[*nmaps] = &b->maps[*nmaps];
	return ++*nmaps;
}

/* add_functions: a function, a line and a location per profile function; mappings per module. */
static void add_functions(const struct export_ctx *x, struct pb_build *b)
{
	const struct profile *p = x->prof;
	size_t n = p->nfuncs, nmaps = 0;

	b->funcs = xcalloc(n + 1, sizeof(*b->funcs));
	b->func_ptrs = xcalloc(n + 1, sizeof(*b->func_ptrs));
	b->lines = xcalloc(n + 1, sizeof(*b->lines));
	b->line_ptrs = xcalloc(n + 1, sizeof(*b->line_ptrs));
	b->locs = xcalloc(n + 1, sizeof(*b->locs));
	b->loc_ptrs = xcalloc(n + 1, sizeof(*b->loc_ptrs));
	b->maps = xcalloc(n + 1, sizeof(*b->maps));
	b->map_ptrs = xcalloc(n + 1, sizeof(*b->map_ptrs));
	for (size_t i = 0; i < n; i++) {
		const struct pfunc *f = &p->funcs[i];

		perftools__profiles__function__init(&b->funcs[i]);
		b->funcs[i].id = i + 1;
		b->funcs[i].name = str_id(&b->strs, x->labels[i]);
		b->funcs[i].system_name = str_id(&b->strs, f->name);
		b->funcs[i].filename = f->file ? str_id(&b->strs, f->file) : 0;
		b->funcs[i].start_line = (int64_t)f->line;
		b->func_ptrs[i] = &b->funcs[i];
		perftools__profiles__line__init(&b->lines[i]);
		b->lines[i].function_id = i + 1;
		b->lines[i].line = (int64_t)f->line;
		b->line_ptrs[i] = &b->lines[i];
		perftools__profiles__location__init(&b->locs[i]);
		b->locs[i].id = i + 1;
		b->locs[i].mapping_id = mapping_of(b, f, &nmaps);
		b->locs[i].n_line = 1;
		b->locs[i].line = &b->line_ptrs[i];
		b->loc_ptrs[i] = &b->locs[i];
	}
	b->prof.n_function = b->prof.n_location = n;
	b->prof.function = b->func_ptrs;
	b->prof.location = b->loc_ptrs;
	b->prof.n_mapping = nmaps;
	b->prof.mapping = b->map_ptrs;
}

/* thread_labels: "thread" (its name, when it has one) and "tid", shared by the thread's samples. */
static size_t thread_labels(struct pb_build *b, const struct pthread *th, size_t t)
{
	size_t n = 0;

	if (th->name) {
		perftools__profiles__label__init(&b->labels[2 * t]);
		b->labels[2 * t].key = str_id(&b->strs, "thread");
		b->labels[2 * t].str = str_id(&b->strs, th->name);
		b->label_ptrs[2 * t + n++] = &b->labels[2 * t];
	}
	perftools__profiles__label__init(&b->labels[2 * t + 1]);
	b->labels[2 * t + 1].key = str_id(&b->strs, "tid");
	b->labels[2 * t + 1].num = th->tid;
	b->label_ptrs[2 * t + n++] = &b->labels[2 * t + 1];
	return n;
}

static void add_labels(const struct profile *p, struct pb_build *b)
{
	b->labels = xcalloc(2 * p->nthreads + 1, sizeof(*b->labels));
	b->label_ptrs = xcalloc(2 * p->nthreads + 1, sizeof(*b->label_ptrs));
	b->nlabels = xcalloc(p->nthreads + 1, sizeof(*b->nlabels));
	for (size_t t = 0; t < p->nthreads; t++)
		b->nlabels[t] = thread_labels(b, &p->threads[t], t);
}

/* start_nanos: the run's start_time ("2026-01-02T03:04:05Z") in ns since the epoch, or 0. */
static int64_t start_nanos(const struct run *r)
{
	struct tm tm;
	const char *end;

	memset(&tm, 0, sizeof(tm));
	if (!r || !r->date || !(end = strptime(r->date, "%Y-%m-%dT%H:%M:%SZ", &tm)) || *end)
		return 0;
	return (int64_t)timegm(&tm) * 1000000000;
}

static void add_header(const struct export_ctx *x, struct pb_build *b)
{
	const struct profile *p = x->prof;
	const struct run *r = p->nruns ? p->runs[0] : NULL;
	struct buf text = BUF_INIT;

	static const char *const types[3][2] = { { "calls", "count" },
						 { "time", "nanoseconds" },
						 { "cpu", "nanoseconds" } };

	str_id(&b->strs, ""); /* string_table[0] */
	b->prof.n_sample_type = p->has_cpu ? 3 : 2;
	for (size_t k = 0; k < b->prof.n_sample_type; k++) {
		perftools__profiles__value_type__init(&b->types[k]);
		b->types[k].type = str_id(&b->strs, types[k][0]);
		b->types[k].unit = str_id(&b->strs, types[k][1]);
		b->type_ptrs[k] = &b->types[k];
	}
	b->prof.sample_type = b->type_ptrs;
	b->prof.default_sample_type = b->types[1].type;
	perftools__profiles__value_type__init(&b->period_type);
	b->period_type.type = b->types[1].type;
	b->period_type.unit = b->types[1].unit;
	b->prof.period_type = &b->period_type;
	b->prof.period = 1;
	b->prof.time_nanos = start_nanos(r);
	b->prof.duration_nanos = (int64_t)p->wall_ns;
	buf_printf(&text, "callprof %s", x->version);
	if (p->nruns > 1)
		buf_printf(&text, ", %zu dumps merged", p->nruns);
	b->comments[0] = str_id(&b->strs, text.data);
	b->prof.n_comment = 1;
	if (r && r->argc) {
		buf_reset(&text);
		run_args(&text, r, 0,
			 RUN_ARGS_MAX); /* cut as the site cuts them: an argv may be megabytes */
		b->comments[b->prof.n_comment++] = str_id(&b->strs, text.data);
	}
	b->prof.comment = b->comments;
	buf_release(&text);
}

/* A gzip stream into a buffer (zlib). */
struct gz {
	z_stream z;
	struct buf *out;
};

static int gz_init(struct gz *g, struct buf *out)
{
	memset(g, 0, sizeof(*g));
	g->out = out;
	if (deflateInit2(&g->z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8,
			 Z_DEFAULT_STRATEGY) == Z_OK)
		return 0;
	fprintf(stderr, "callprof export: cannot start zlib\n");
	return -1;
}

/* gz_put compresses len bytes (all of them: chunks below 1 GiB), and the end of the stream when last. */
static int gz_put(struct gz *g, const void *data, size_t len, int last)
{
	int rc;

	g->z.next_in = (Bytef *)(uintptr_t)data;
	g->z.avail_in = (uInt)len;
	do {
		buf_grow(g->out, 1 << 16);
		g->z.next_out = (Bytef *)g->out->data + g->out->len;
		g->z.avail_out = (uInt)(g->out->alloc - g->out->len - 1);
		rc = deflate(&g->z, last ? Z_FINISH : Z_NO_FLUSH);
		g->out->len = g->out->alloc - 1 - g->z.avail_out;
	} while (rc == Z_OK && (g->z.avail_in || g->z.avail_out == 0 || last));
	if (rc == (last ? Z_STREAM_END : Z_OK) || (!last && rc == Z_BUF_ERROR && !g->z.avail_in))
		return 0;
	fprintf(stderr, "callprof export: zlib failed to compress the profile\n");
	return -1;
}

/* put_varint: v as a protobuf varint at p; returns its length. */
static size_t put_varint(uint8_t *p, uint64_t v)
{
	size_t n = 0;

	do {
		p[n++] = (uint8_t)((v & 0x7f) | (v > 0x7f ? 0x80 : 0));
		v >>= 7;
	} while (v);
	return n;
}

/*
 * put_samples compresses one Profile.sample field per tree node of every
 * thread, each packed on its own: a message's fields may come in any order
 * and a repeated field's elements apart, so the samples need not all be in
 * memory at once (a million paths of depth 70 would be 70 million location
 * ids).
 */
static int put_samples(const struct profile *p, const struct pb_build *b, struct gz *g)
{
	size_t depth = 0;
	uint64_t *ids;
	uint8_t *packed = NULL;
	size_t cap = 0;
	int rc = 0;

	for (size_t t = 0; t < p->nthreads; t++)
		if (p->threads[t].tree.n > depth)
			depth = p->threads[t].tree.n;
	ids = xmalloc((depth + 1) * sizeof(*ids));
	for (size_t t = 0; t < p->nthreads && !rc; t++) {
		const struct ptree *tr = &p->threads[t].tree;

		for (size_t i = 0; i < tr->n && !rc; i++) {
			PbSample sm;
			int64_t values[3] = { (int64_t)tr->nodes[i].calls,
					      (int64_t)tr->nodes[i].self_ns,
					      (int64_t)tr->nodes[i].cpu_self_ns };
			size_t len, head;

			perftools__profiles__sample__init(&sm);
			sm.location_id = ids;
			for (int64_t k = (int64_t)i; k >= 0; k = tr->nodes[k].parent)
				ids[sm.n_location_id++] = tr->nodes[k].fn + 1;
			sm.value = values;
			sm.n_value = b->prof.n_sample_type;
			sm.label = (PbLabel **)&b->label_ptrs[2 * t];
			sm.n_label = b->nlabels[t];
			len = perftools__profiles__sample__get_packed_size(&sm);
			if (len + 16 > cap)
				packed = xrealloc(packed, cap = 2 * (len + 16));
			packed[0] = 2 << 3 | 2; /* field 2 (sample), length-delimited */
			head = 1 + put_varint(packed + 1, len);
			perftools__profiles__sample__pack(&sm, packed + head);
			rc = gz_put(g, packed, head + len, 0);
		}
	}
	free(packed);
	free(ids);
	return rc;
}

static void build_release(struct pb_build *b)
{
	for (size_t i = 0; i < b->strs.n; i++)
		free(b->strs.v[i]);
	free(b->strs.v);
	keymap_release(&b->strs.index);
	free(b->funcs);
	free(b->func_ptrs);
	free(b->lines);
	free(b->line_ptrs);
	free(b->locs);
	free(b->loc_ptrs);
	free(b->maps);
	free(b->map_ptrs);
	free(b->labels);
	free(b->label_ptrs);
	free(b->nlabels);
}

static int write_pprof(const struct export_ctx *x, struct buf *out)
{
	struct pb_build b;
	struct gz g;
	uint8_t *packed;
	size_t len;
	int rc;

	memset(&b, 0, sizeof(b));
	perftools__profiles__profile__init(&b.prof);
	keymap_init(&b.strs.index, 256);
	add_header(x, &b);
	add_functions(x, &b);
	add_labels(x->prof, &b);
	b.prof.n_string_table = b.strs.n;
	b.prof.string_table = b.strs.v;
	len = perftools__profiles__profile__get_packed_size(&b.prof);
	packed = xmalloc(len + 1);
	perftools__profiles__profile__pack(&b.prof, packed);
	rc = gz_init(&g, out);
	if (rc == 0) {
		rc = gz_put(&g, packed, len, 0);
		if (rc == 0)
			rc = put_samples(x->prof, &b, &g);
		if (rc == 0)
			rc = gz_put(&g, NULL, 0, 1);
		deflateEnd(&g.z);
	}
	free(packed);
	build_release(&b);
	return rc;
}

const struct export_format export_pprof = { "pprof", "pprof profile.proto", write_pprof };
