/* load_check.c: the checks of the loader: its one-line messages, and the fields of every
 * per-thread record with the checks each goes through, whichever reader found it (load.h). */
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dump.h"
#include "load.h"

#define BIT(k) (UINT64_C(1) << (k))

void load_quote_path(struct buf *out, const char *path)
{
	buf_putc(out, '\'');
	for (; *path; path++)
		buf_putc(out, (unsigned char)*path < 0x20 || *path == 0x7f ? '?' : *path);
	buf_putc(out, '\'');
}

int load_fail(struct load_ctx *c, const char *fmt, ...)
{
	va_list ap;

	buf_reset(c->err);
	va_start(ap, fmt);
	buf_vprintf(c->err, fmt, ap);
	va_end(ap);
	buf_puts(c->err, " in ");
	load_quote_path(c->err, c->path);
	return -1;
}

const char *load_where_format(char *out, size_t size, const struct load_where *w)
{
	snprintf(out, size, "%s.%s[%zu]", w->thread, w->array, w->i);
	return out;
}

/* ---- threads[].functions[]: struct dump_fstat ---- */

/* The fields of a function's figures on a thread, in the order they are read and checked. */
enum {
	FS_FN,
	FS_CALLS,
	FS_INCL,
	FS_SELF,
	FS_RAW_INCL,
	FS_RAW_SELF,
	FS_MIN,
	FS_MAX,
	FS_FENCED,
	FS_FENTRY,
	FS_LIBRARY,
	FS_COUNTED,
	FS_UNRECORDED,
	FS_FENTRY_UNRECORDED,
	FS_LIBRARY_UNRECORDED,
	FS_TIMED,
	FS_INCL_SE,
	FS_SELF_SE,
	FS_CPU_CALLS,
	FS_CPU,
	FS_CPU_SELF,
	FS_CAPTURE,
	FS_NFIELDS
};
_Static_assert(FS_NFIELDS <= LOAD_MAX_FIELDS, "a record's fields are bits of a uint64_t");

#define FSTAT(field) offsetof(struct dump_fstat, st.field)
static const struct load_field fstat_fields[FS_NFIELDS] = {
	[FS_FN] = { "fn", LOAD_FN, LOAD_REQUIRED, offsetof(struct dump_fstat, fn) },
	[FS_CALLS] = { "calls", LOAD_U64, LOAD_REQUIRED, FSTAT(calls) },
	[FS_INCL] = { "inclusive_ns", LOAD_U64, LOAD_REQUIRED, FSTAT(incl_ns) },
	[FS_SELF] = { "self_ns", LOAD_U64, LOAD_REQUIRED, FSTAT(self_ns) },
	[FS_RAW_INCL] = { "raw_inclusive_ns", LOAD_U64, LOAD_OPTIONAL, FSTAT(raw_incl_ns) },
	[FS_RAW_SELF] = { "raw_self_ns", LOAD_U64, LOAD_OPTIONAL, FSTAT(raw_self_ns) },
	[FS_MIN] = { "min_ns", LOAD_U64, LOAD_OPTIONAL, FSTAT(min_ns) },
	[FS_MAX] = { "max_ns", LOAD_U64, LOAD_OPTIONAL, FSTAT(max_ns) },
	[FS_FENCED] = { "fenced_calls", LOAD_U64, LOAD_OPTIONAL, FSTAT(fenced_calls) },
	[FS_FENTRY] = { "fentry_calls", LOAD_U64, LOAD_OPTIONAL, FSTAT(fentry_calls) },
	[FS_LIBRARY] = { "library_calls", LOAD_U64, LOAD_OPTIONAL, FSTAT(library_calls) },
	[FS_COUNTED] = { "counted_calls", LOAD_U64, LOAD_OPTIONAL, FSTAT(counted_calls) },
	[FS_UNRECORDED] = { "unrecorded_calls", LOAD_U64, LOAD_OPTIONAL,
			    FSTAT(unrecorded_calls[UNREC_PLAIN]) },
	[FS_FENTRY_UNRECORDED] = { "fentry_unrecorded_calls", LOAD_U64, LOAD_OPTIONAL,
				   FSTAT(unrecorded_calls[UNREC_FENTRY]) },
	[FS_LIBRARY_UNRECORDED] = { "library_unrecorded_calls", LOAD_U64, LOAD_OPTIONAL,
				    FSTAT(unrecorded_calls[UNREC_LIBRARY]) },
	[FS_TIMED] = { "timed_calls", LOAD_U64, LOAD_OPTIONAL, FSTAT(timed_calls) },
	[FS_INCL_SE] = { "inclusive_se_ns", LOAD_U64, LOAD_OPTIONAL, FSTAT(incl_se_ns) },
	[FS_SELF_SE] = { "self_se_ns", LOAD_U64, LOAD_OPTIONAL, FSTAT(self_se_ns) },
	[FS_CPU_CALLS] = { "cpu_calls", LOAD_U64, LOAD_OPTIONAL, FSTAT(cpu_calls) },
	[FS_CPU] = { "cpu_ns", LOAD_U64, LOAD_OPTIONAL, FSTAT(cpu_ns) },
	[FS_CPU_SELF] = { "cpu_self_ns", LOAD_U64, LOAD_OPTIONAL, FSTAT(cpu_self_ns) },
	[FS_CAPTURE] = { "capture_ns", LOAD_U64, LOAD_OPTIONAL, FSTAT(capture_ns) },
};

/* A record's CPU figures beside the wall ones they are part of. */
struct cpu_figs {
	uint64_t calls, incl_ns, self_ns;
	uint64_t *cpu_calls, *cpu_ns, *cpu_self_ns;
};

/* cpu_finish: all of a record's time counts as on a CPU when its dump measured none
 * (!has_cpu); else cpu_ns comes with cpu_self_ns, and no CPU figure is above its wall one. */
static int cpu_finish(struct load_ctx *c, const struct cpu_figs *f, int has_cpu, int has_cpu_self,
		      const struct load_where *w)
{
	char where[96];

	if (!has_cpu) {
		*f->cpu_ns = f->incl_ns;
		*f->cpu_self_ns = f->self_ns;
	} else if (!has_cpu_self) {
		return load_fail(c, "cpu_ns without cpu_self_ns at %s",
				 load_where_format(where, sizeof(where), w));
	}
	if (*f->cpu_calls > f->calls || *f->cpu_ns > f->incl_ns || *f->cpu_self_ns > f->self_ns)
		return load_fail(c,
				 "cpu_calls, cpu_ns or cpu_self_ns above calls, inclusive_ns or "
				 "self_ns at %s",
				 load_where_format(where, sizeof(where), w));
	return 0;
}

/*
 * fstat_finish: raw figures default to the compensated ones; min and max
 * count only together.  More fenced, fentry, library and counted calls than
 * calls is a damaged dump (each is some of its calls, each call of one kind),
 * which no runtime writes.
 */
static int fstat_finish(struct load_ctx *c, void *record, uint64_t present,
			const struct load_where *w)
{
	struct pstat *st = &((struct dump_fstat *)record)->st;
	char where[96];

	if (!(present & BIT(FS_RAW_INCL)))
		st->raw_incl_ns = st->incl_ns;
	if (!(present & BIT(FS_RAW_SELF)))
		st->raw_self_ns = st->self_ns;
	st->has_minmax = (present & BIT(FS_MIN)) && (present & BIT(FS_MAX));
	st->has_fenced = (present & BIT(FS_FENCED)) != 0;
	st->has_timed = (present & BIT(FS_TIMED)) != 0;
	st->has_cpu = (present & BIT(FS_CPU)) != 0;
	if (cpu_finish(c,
		       &(struct cpu_figs){ st->calls, st->incl_ns, st->self_ns, &st->cpu_calls,
					   &st->cpu_ns, &st->cpu_self_ns },
		       st->has_cpu, (present & BIT(FS_CPU_SELF)) != 0, w) < 0)
		return -1;
	if (st->timed_calls > st->calls)
		return load_fail(c, "timed_calls %llu is more than calls %llu at %s.timed_calls",
				 (unsigned long long)st->timed_calls, (unsigned long long)st->calls,
				 load_where_format(where, sizeof(where), w));
	if (st->fenced_calls > st->calls)
		return load_fail(c, "fenced_calls %llu is more than calls %llu at %s.fenced_calls",
				 (unsigned long long)st->fenced_calls,
				 (unsigned long long)st->calls,
				 load_where_format(where, sizeof(where), w));
	if (u64_add(u64_add(u64_add(st->fenced_calls, st->fentry_calls), st->library_calls),
		    st->counted_calls) > st->calls)
		return load_fail(c,
				 "fenced_calls, fentry_calls, library_calls and counted_calls add "
				 "up to more than "
				 "calls %llu at %s",
				 (unsigned long long)st->calls,
				 load_where_format(where, sizeof(where), w));
	return 0;
}

const struct load_record_kind load_fstat_kind = { "functions", sizeof(struct dump_fstat),
						  fstat_fields, FS_NFIELDS, fstat_finish };

/* ---- threads[].edges[]: struct dump_edge ---- */

enum {
	ES_CALLER,
	ES_CALLEE,
	ES_CALLS,
	ES_INCL,
	ES_SELF,
	ES_FILE,
	ES_LINE,
	ES_SITE,
	ES_CPU_CALLS,
	ES_CPU,
	ES_CPU_SELF,
	ES_NFIELDS
};

/* The fields of one caller -> callee edge (a null caller: a root call). */
#define EDGE(field) offsetof(struct dump_edge, field)
static const struct load_field edge_fields[ES_NFIELDS] = {
	[ES_CALLER] = { "caller", LOAD_FN, LOAD_OPTIONAL, EDGE(caller) },
	[ES_CALLEE] = { "callee", LOAD_FN, LOAD_REQUIRED, EDGE(callee) },
	[ES_CALLS] = { "calls", LOAD_U64, LOAD_REQUIRED, EDGE(calls) },
	[ES_INCL] = { "inclusive_ns", LOAD_U64, LOAD_REQUIRED, EDGE(incl_ns) },
	[ES_SELF] = { "self_ns", LOAD_U64, LOAD_OPTIONAL, EDGE(self_ns) },
	[ES_FILE] = { "call_file", LOAD_STR, LOAD_OPTIONAL, EDGE(call_file) },
	[ES_LINE] = { "call_line", LOAD_U64, LOAD_OPTIONAL, EDGE(call_line) },
	[ES_SITE] = { "site", LOAD_STR, LOAD_OPTIONAL, EDGE(site) },
	[ES_CPU_CALLS] = { "cpu_calls", LOAD_U64, LOAD_OPTIONAL, EDGE(cpu_calls) },
	[ES_CPU] = { "cpu_ns", LOAD_U64, LOAD_OPTIONAL, EDGE(cpu_ns) },
	[ES_CPU_SELF] = { "cpu_self_ns", LOAD_U64, LOAD_OPTIONAL, EDGE(cpu_self_ns) },
};

/* edge_finish: an edge's CPU figures, as a function's (fstat_finish). */
static int edge_finish(struct load_ctx *c, void *record, uint64_t present,
		       const struct load_where *w)
{
	struct dump_edge *e = record;

	e->has_cpu = (present & BIT(ES_CPU)) != 0;
	return cpu_finish(c,
			  &(struct cpu_figs){ e->calls, e->incl_ns, e->self_ns, &e->cpu_calls,
					      &e->cpu_ns, &e->cpu_self_ns },
			  e->has_cpu, (present & BIT(ES_CPU_SELF)) != 0, w);
}

const struct load_record_kind load_edge_kind = { "edges", sizeof(struct dump_edge), edge_fields,
						 ES_NFIELDS, edge_finish };

/* ---- the checks ---- */

/* store: checks one present value of field f and stores it into record. */
static int store(struct load_ctx *c, const struct load_field *f, const struct load_cell *cell,
		 const struct load_where *w, const struct keymap *fns, char *record)
{
	char where[96];
	int64_t index;

	switch (f->kind) {
	case LOAD_U64:
		if (cell->n < 0)
			return load_fail(c, "expected a non-negative integer, not %lld, at %s.%s",
					 (long long)cell->n,
					 load_where_format(where, sizeof(where), w), f->key);
		*(uint64_t *)(record + f->offset) = (uint64_t)cell->n;
		return 0;
	case LOAD_FN:
		index = keymap_get(fns, (uint64_t)cell->n);
		if (index < 0)
			return load_fail(c, "function id %lld is not in functions[] at %s.%s",
					 (long long)cell->n,
					 load_where_format(where, sizeof(where), w), f->key);
		*(int32_t *)(record + f->offset) = (int32_t)index;
		return 0;
	case LOAD_STR: *(char **)(record + f->offset) = xstrdup(cell->s); return 0;
	}
	return load_fail(c, "field %s of an unknown kind", f->key);
}

int load_record(struct load_ctx *c, const struct load_record_kind *kind,
		const struct load_reader *r, const struct load_where *w, const struct keymap *fns,
		void *record)
{
	uint64_t present = 0;
	char where[96];

	for (size_t k = 0; k < kind->nfields; k++) {
		const struct load_field *f = &kind->fields[k];
		struct load_cell cell = { 0, 0, NULL };

		if (r->cell(c, r->src, f, k, w, &cell) < 0)
			return -1;
		if (cell.present) {
			present |= BIT(k);
			if (store(c, f, &cell, w, fns, record) < 0)
				return -1;
		} else if (f->need == LOAD_REQUIRED) {
			return load_fail(c, "missing key \"%s\" at %s", f->key,
					 load_where_format(where, sizeof(where), w));
		} else if (f->kind == LOAD_FN) {
			*(int32_t *)((char *)record + f->offset) = -1;
		}
	}
	return kind->finish ? kind->finish(c, record, present, w) : 0;
}

void load_record_keys(const struct load_record_kind *kind, const char **names,
		      struct rowscan_keys *keys)
{
	keys->names = names;
	keys->n = kind->nfields;
	keys->strings = 0;
	for (size_t k = 0; k < kind->nfields; k++) {
		names[k] = kind->fields[k].key;
		if (kind->fields[k].kind == LOAD_STR)
			keys->strings |= BIT(k);
	}
}
