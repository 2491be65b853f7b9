/* diff.h: two profiles side by side (callprof diff): functions and edges matched across
 * builds, with what changed, ordered by the size of the change. */
#ifndef CALLPROF_DIFF_H
#define CALLPROF_DIFF_H

#include <stddef.h>
#include <stdint.h>

#include "profile.h"

/*
 * Each side is one profile, built by profile_build from one or more dumps
 * (so several processes or runs per side merge as `callprof report` merges
 * them).  A function of one side is the same function on the other side when
 * its module's base name and its demangled name agree; addresses are never
 * compared.  The program's own module counts as one module even under two
 * names (prog-old, prog-new) when each side ran a single program.  Only when a side has several functions of one module and name
 * (static functions of different files) does the source file decide: the
 * file's base name, then its full path in order.  A function only one side
 * has "appeared" (new side only) or "vanished" (base side only).
 *
 * Edges (caller -> callee) match when both their functions match.  Every list
 * is ordered by the size of the change, biggest first: the change in self
 * time (where the time went), then in inclusive time, then in calls.
 *
 * Example: base main -> parse (5 ms) -> lex (3 ms), new main -> parse (9 ms)
 * -> lex (7 ms) and a new tokenize (1 ms): three diff functions are matched,
 * one appeared; lex comes first (self +4 ms), then tokenize (+1 ms).
 */

enum { DIFF_BASE, DIFF_NEW };

struct diff_func {
	int32_t fn[2];          /* index into side[s].funcs, -1 where this side lacks it */
	const char *name;       /* demangled name (the new side's where it has one) */
	const char *module;     /* base name of its module, or NULL */
	const char *file;       /* source file or NULL */
	uint64_t line;          /* 0 when unknown */
	int same_name;          /* another function of the diff has this name: say which file */
	struct pstat st[2];     /* its figures on each side, zero where absent */
	size_t callees, ncallees; /* diff.by_caller[callees ..]: edges out of it */
	size_t callers, ncallers; /* diff.by_callee[callers ..]: edges into it */
	unsigned tripped : 1;   /* diff_gate: its inclusive time grew past the gate */
};

struct diff_edge {
	int32_t caller;         /* diff function index, -1 for a root call */
	uint32_t callee;        /* diff function index */
	struct pstat st[2];     /* calls, incl_ns and self_ns on each side (the rest is 0) */
	const char *call_file;  /* where the first call was made (new side first), or NULL */
	uint64_t call_line;
};

struct diff {
	struct profile side[2];   /* DIFF_BASE and DIFF_NEW */
	size_t nfuncs;
	struct diff_func *funcs;  /* sorted by module and name */
	uint32_t *order;          /* function indices, biggest change first */
	size_t nedges;
	struct diff_edge *edges;
	uint32_t *edge_order;     /* edge indices, biggest change first */
	uint32_t *by_caller;      /* edge indices grouped by caller, biggest change first */
	uint32_t *by_callee;      /* edge indices grouped by callee, biggest change first */
	size_t nappeared, nvanished;
	int gated;                /* diff_gate ran */
	double fail_above_pct;    /* its threshold, percent */
	uint64_t min_ns;          /* changes smaller than this are noise (gate, summary) */
	size_t ntripped;
	uint32_t *tripped;        /* functions that tripped the gate, biggest growth first */
};

/* diff_func_library: f is a library function on the side that has it (the new one first). */
static inline int diff_func_library(const struct diff *d, const struct diff_func *f)
{
	int side = f->fn[DIFF_NEW] >= 0 ? DIFF_NEW : DIFF_BASE;

	return f->fn[side] >= 0 && d->side[side].funcs[f->fn[side]].library;
}

/*
 * diff_build builds both sides from base (nbase dumps) and new (nnew dumps)
 * and matches them.  min_ns is kept for diff_gate and the summary.  Returns
 * 0, or -1 after printing one line (profile_build failed); the dumps must
 * outlive d.
 */
int diff_build(struct diff *d, const struct dump *base, size_t nbase, const struct dump *new_dumps,
	       size_t nnew, uint64_t min_ns);

/*
 * diff_gate marks the functions both sides have whose inclusive time grew by
 * more than pct percent and by more than d->min_ns (from 0, any growth past
 * min_ns counts).  A function that appeared does not trip it: its time shows
 * in its callers'.  Returns how many tripped (d->ntripped).
 */
size_t diff_gate(struct diff *d, double pct);

/* diff_cmp_change: orders two [2]-arrays of figures by the size of their change, biggest first. */
int diff_cmp_change(const struct pstat *x, const struct pstat *y);

/* diff_release frees what d holds (not the dumps). */
void diff_release(struct diff *d);

#endif
