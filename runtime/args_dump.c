/*
 * args_dump.c: the value profiles of args.h in the dump: each selected
 * function's threads' sketches merged into one of the same bound, and its
 * values written as text, typed by the plan.  Cold: runs at the dump.
 */
#include "args.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args_sketch.h"

#define VALUE_TEXT 1024 /* bytes of one value as text, at most */

/* One merged value: an entry of some thread's sketch, with the others' counts added. */
struct merged {
	const struct sketch_entry *e;
	uint64_t count, error, timed, incl_ticks, min_ticks, max_ticks;
};

/* ---- text ------------------------------------------------------------------------ */

struct out {
	char s[VALUE_TEXT];
	size_t n;
};

static void outf(struct out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void outf(struct out *o, const char *fmt, ...)
{
	va_list ap;
	int k;

	if (o->n >= sizeof(o->s) - 1)
		return;
	va_start(ap, fmt);
	k = vsnprintf(o->s + o->n, sizeof(o->s) - o->n, fmt, ap);
	va_end(ap);
	if (k > 0)
		o->n = o->n + (size_t)k < sizeof(o->s) ? o->n + (size_t)k : sizeof(o->s) - 1;
}

/* A double as its shortest text that reads back the same. */
static void out_double(struct out *o, double d)
{
	char buf[64];

	for (int digits = 6; digits <= 17; digits++) {
		snprintf(buf, sizeof(buf), "%.*g", digits, d);
		if (strtod(buf, NULL) == d || isnan(d))
			break;
	}
	outf(o, "%s", buf);
}

static void out_long_double(struct out *o, long double d)
{
	char buf[80];

	for (int digits = 6; digits <= 21; digits++) {
		snprintf(buf, sizeof(buf), "%.*Lg", digits, d);
		if (strtold(buf, NULL) == d || isnan(d))
			break;
	}
	outf(o, "%s", buf);
}

/* One byte of a quoted string or char, C's escapes for the rest. */
static void out_char(struct out *o, unsigned char c, char quote)
{
	if (c == '\\' || c == (unsigned char)quote)
		outf(o, "\\%c", c);
	else if (c == '\n')
		outf(o, "\\n");
	else if (c == '\t')
		outf(o, "\\t");
	else if (c < 0x20 || c >= 0x7f)
		outf(o, "\\x%02x", c);
	else
		outf(o, "%c", c);
}

static const char *enum_name(const struct args_scalar *s, int64_t v)
{
	for (uint32_t i = 0; i < s->nenums; i++)
		if (s->enums[i].value == v)
			return s->enums[i].name;
	return NULL;
}

static bool enum_signed(const struct args_scalar *s)
{
	for (uint32_t i = 0; i < s->nenums; i++)
		if (s->enums[i].value < 0)
			return true;
	return false;
}

/* Writes the scalar `s` encoded at data[*at], and moves *at past it. */
static void out_scalar(struct out *o, const struct args_scalar *s, const unsigned char *data,
		       size_t *at)
{
	uint64_t v;
	float f;
	double d;
	long double ld;
	const char *name;

	if (s->show == ARGS_LDOUBLE) {
		if (!data[*at + 15] && s->where == ARGS_ST0)
			outf(o, "?");
		memcpy(&ld, data + *at, 10);
		if (data[*at + 15] || s->where != ARGS_ST0)
			out_long_double(o, ld);
		*at += 16;
		return;
	}
	if (s->show == ARGS_STRING) {
		unsigned char status = data[(*at)++];
		if (status == STR_NULL || status == STR_UNREADABLE) {
			memcpy(&v, data + *at, sizeof(v));
			*at += sizeof(v);
			if (status == STR_NULL)
				outf(o, "NULL");
			else
				outf(o, "0x%llx <unreadable>", (unsigned long long)v);
			return;
		}
		size_t len = data[(*at)++];
		outf(o, "\"");
		for (size_t i = 0; i < len; i++)
			out_char(o, data[*at + i], '"');
		outf(o, status == STR_LONGER ? "\"..." : "\"");
		*at += len;
		return;
	}
	memcpy(&v, data + *at, sizeof(v));
	*at += sizeof(v);
	switch (s->show) {
	case ARGS_SIGNED: outf(o, "%lld", (long long)v); return;
	case ARGS_UNSIGNED: outf(o, "%llu", (unsigned long long)v); return;
	case ARGS_BOOL: outf(o, v ? "true" : "false"); return;
	case ARGS_CHAR:
		outf(o, "'");
		out_char(o, (unsigned char)v, '\'');
		outf(o, "'");
		return;
	case ARGS_ENUM: {
		int64_t sv = (int64_t)v;
		if (enum_signed(s) && s->size < 8 && (v >> (8 * s->size - 1) & 1))
			sv = (int64_t)(v | ~(((uint64_t)1 << (8 * s->size)) - 1));
		if ((name = enum_name(s, sv)))
			outf(o, "%s", name);
		else
			outf(o, "%lld", (long long)sv);
		return;
	}
	case ARGS_POINTER:
		if (v)
			outf(o, "0x%llx", (unsigned long long)v);
		else
			outf(o, "NULL");
		return;
	case ARGS_FLOAT:
		memcpy(&f, &v, sizeof(f));
		out_double(o, f);
		return;
	case ARGS_DOUBLE:
		memcpy(&d, &v, sizeof(d));
		out_double(o, d);
		return;
	default: outf(o, "?");
	}
}

/* Writes the value `val` of a plan whose scalars' encodings start at data[*at]. */
static void out_value(struct out *o, const struct args_plan *p, const struct args_value *val,
		      const unsigned char *data, size_t *at)
{
	if (val->unknown) {
		outf(o, "?");
		return;
	}
	if (!val->n) {
		outf(o, "<%s>", val->type ? val->type : "?");
		return;
	}
	if (val->aggregate)
		outf(o, "{");
	for (uint16_t i = 0; i < val->n; i++) {
		const struct args_scalar *s = &p->scalars[val->first + i];
		if (val->aggregate)
			outf(o, "%s%s=", i ? ", " : "", s->member ? s->member : "?");
		out_scalar(o, s, data, at);
	}
	if (val->aggregate)
		outf(o, "}");
}

/* ---- merging ---------------------------------------------------------------------- */

static int by_hash(const void *a, const void *b)
{
	const struct merged *x = a, *y = b;

	return x->e->hash < y->e->hash ? -1 : x->e->hash > y->e->hash;
}

static int by_count(const void *a, const void *b)
{
	const struct merged *x = a, *y = b;

	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	return x->incl_ticks > y->incl_ticks ? -1 : x->incl_ticks < y->incl_ticks;
}

static bool same_value(const struct sketch_entry *a, const struct sketch_entry *b)
{
	return a->hash == b->hash && a->len == b->len && !memcmp(a->data, b->data, a->len);
}

/*
 * The entries of sketch `which` (0: tuples, 1: return values) of plan `p` over
 * the threads, equal values merged, the `args_entries` most counted first:
 * a malloc'ed array (*n entries), NULL if none.
 */
static struct merged *merge(const struct args_plan *p, const struct tstate *const *threads,
			    size_t nthreads, int which, size_t *n)
{
	size_t total = 0, k = 0;
	struct merged *m;

	*n = 0;
	for (size_t i = 0; i < nthreads; i++) {
		const struct args_thread *a = __atomic_load_n(&threads[i]->args, __ATOMIC_ACQUIRE);
		const struct vprof *v = a && p->id < a->cap ? a->by_plan[p->id] : NULL;
		if (v)
			total += which ? v->rets.n : v->tuples.n;
	}
	if (!total || !(m = malloc(total * sizeof(*m))))
		return NULL;
	for (size_t i = 0; i < nthreads; i++) {
		const struct args_thread *a = __atomic_load_n(&threads[i]->args, __ATOMIC_ACQUIRE);
		const struct vprof *v = a && p->id < a->cap ? a->by_plan[p->id] : NULL;
		const struct sketch *s = v ? (which ? &v->rets : &v->tuples) : NULL;
		for (uint32_t j = 0; s && j < s->n && k < total; j++) {
			const struct sketch_entry *e = sketch_at(s, j);
			m[k++] = (struct merged){ e,           e->count,      e->error,
						  e->timed,    e->incl_ticks, e->min_ticks,
						  e->max_ticks };
		}
	}
	qsort(m, k, sizeof(*m), by_hash);
	total = k;
	k = 0;
	for (size_t i = 0; i < total; i++) {
		if (k && same_value(m[k - 1].e, m[i].e)) {
			struct merged *x = &m[k - 1];
			x->count += m[i].count;
			x->error += m[i].error;
			x->timed += m[i].timed;
			x->incl_ticks += m[i].incl_ticks;
			if (m[i].min_ticks < x->min_ticks)
				x->min_ticks = m[i].min_ticks;
			if (m[i].max_ticks > x->max_ticks)
				x->max_ticks = m[i].max_ticks;
			continue;
		}
		m[k++] = m[i];
	}
	qsort(m, k, sizeof(*m), by_count);
	*n = k < args_entries ? k : args_entries;
	return m;
}

/* ---- writing ----------------------------------------------------------------------- */

static void write_signature(struct jsonw *w, const struct args_plan *p)
{
	jsonw_key(w, "params");
	jsonw_array_begin(w);
	for (uint16_t i = 0; i < p->nparams; i++) {
		jsonw_object_begin(w);
		jsonw_key(w, "name");
		jsonw_string(w, p->params[i].name);
		jsonw_key(w, "type");
		jsonw_string(w, p->params[i].type);
		jsonw_object_end(w);
	}
	jsonw_array_end(w);
	jsonw_key(w, "variadic");
	jsonw_bool(w, p->variadic);
	jsonw_key(w, "returns");
	jsonw_string(w, p->ret.type);
}

/* The calls of plan `p` counted on the threads, and those whose return value was read. */
static void totals(const struct args_plan *p, const struct tstate *const *threads, size_t nthreads,
		   uint64_t *calls, uint64_t *returns)
{
	*calls = *returns = 0;
	for (size_t i = 0; i < nthreads; i++) {
		const struct args_thread *a = __atomic_load_n(&threads[i]->args, __ATOMIC_ACQUIRE);
		const struct vprof *v = a && p->id < a->cap ? a->by_plan[p->id] : NULL;
		if (v) {
			*calls += v->calls;
			*returns += v->returns;
		}
	}
}

static void write_tuples(struct jsonw *w, const struct args_plan *p, const struct merged *m,
			 size_t n, uint64_t (*ns)(const void *, double), const void *ctx)
{
	jsonw_key(w, "tuples");
	jsonw_array_begin(w);
	for (size_t i = 0; i < n; i++) {
		size_t at = 0;
		jsonw_object_begin(w);
		jsonw_key(w, "values");
		jsonw_array_begin(w);
		for (uint16_t k = 0; k < p->nparams; k++) {
			struct out o = { "", 0 };
			out_value(&o, p, &p->params[k], m[i].e->data, &at);
			jsonw_string(w, o.s);
		}
		jsonw_array_end(w);
		jsonw_key(w, "calls");
		jsonw_uint(w, m[i].count);
		jsonw_key(w, "error");
		jsonw_uint(w, m[i].error);
		jsonw_key(w, "timed_calls");
		jsonw_uint(w, m[i].timed);
		jsonw_key(w, "inclusive_ns");
		jsonw_uint(w, ns(ctx, (double)m[i].incl_ticks));
		jsonw_key(w, "min_ns");
		jsonw_uint(w, m[i].timed ? ns(ctx, (double)m[i].min_ticks) : 0);
		jsonw_key(w, "max_ns");
		jsonw_uint(w, ns(ctx, (double)m[i].max_ticks));
		jsonw_object_end(w);
	}
	jsonw_array_end(w);
}

static void write_returned(struct jsonw *w, const struct args_plan *p, const struct merged *m,
			   size_t n)
{
	jsonw_key(w, "returned");
	jsonw_array_begin(w);
	for (size_t i = 0; i < n; i++) {
		size_t at = 0;
		struct out o = { "", 0 };
		out_value(&o, p, &p->ret, m[i].e->data, &at);
		jsonw_object_begin(w);
		jsonw_key(w, "value");
		jsonw_string(w, o.s);
		jsonw_key(w, "calls");
		jsonw_uint(w, m[i].count);
		jsonw_key(w, "error");
		jsonw_uint(w, m[i].error);
		jsonw_object_end(w);
	}
	jsonw_array_end(w);
}

/* The plan that selected the function of key `address` (retired: of a library unloaded since). */
static const struct args_plan *plan_for(uintptr_t address, bool retired)
{
	uint32_t n;
	struct args_plan *const *all = args_plans(&n);

	for (uint32_t i = n; i > 0; i--)
		if (all[i - 1]->key == address && all[i - 1]->unloaded == retired)
			return all[i - 1];
	return NULL;
}

void args_dump_function(struct jsonw *w, uintptr_t address, bool retired,
			const struct tstate *const *threads, size_t nthreads,
			uint64_t (*ns)(const void *ctx, double ticks), const void *ctx)
{
	const struct args_plan *p = args_on ? plan_for(address, retired) : NULL;
	struct merged *m;
	size_t n;
	uint64_t calls, returns;

	if (!p)
		return;
	jsonw_key(w, "args");
	jsonw_object_begin(w);
	if (p->refused) {
		jsonw_key(w, "refused");
		jsonw_string(w, p->refused);
		jsonw_object_end(w);
		return;
	}
	write_signature(w, p);
	totals(p, threads, nthreads, &calls, &returns);
	jsonw_key(w, "entries");
	jsonw_uint(w, args_entries);
	jsonw_key(w, "calls");
	jsonw_uint(w, calls);
	m = merge(p, threads, nthreads, 0, &n);
	write_tuples(w, p, m, n, ns, ctx);
	free(m);
	if (p->ret.type) {
		jsonw_key(w, "returned_calls");
		jsonw_uint(w, returns);
		m = merge(p, threads, nthreads, 1, &n);
		write_returned(w, p, m, n);
		free(m);
	}
	jsonw_object_end(w);
}
