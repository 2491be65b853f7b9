/* diff.h: two profiles side by side (callprof diff): functions and edges matched across
 * builds, with what changed, ordered by the size of the change. */
#ifndef CALLPROF_DIFF_H
#define CALLPROF_DIFF_H

#include <stddef.h>
#include <stdint.h>

#include "profile.h"
#include "runs.h"

/*
 * Each side is one profile, built by profile_build from one or more dumps, and
 * the runs those dumps make (runs.h): the figures compared are those of a
 * typical run of each side -- per workload the median over its repeated runs,
 * added up -- each with its standard error, so one run disturbed by a loaded
 * machine moves nothing and a change can be weighed against the noise.  With
 * one run per side the figures are that run's and the noise is unknown (0).
 * Times have the threads' waits for a CPU taken out unless wall_clock.
 *
 * A function of one side is the same function on the other side when its
 * module's base name and its demangled name agree; addresses are never
 * compared.  The program's own module counts as one module even under two
 * names (prog-old, prog-new) when each side ran a single program.  Only when a
 * side has several functions of one module and name (static functions of
 * different files, or copies of one header's static inline function) does
 * the source file decide: the file's base name, then the copies by fnid.h's
 * rule (the same code first, then line and offset).  A function only one side
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

#define DIFF_NOISE_K \
	3.0 /* standard errors a change must exceed to stand out (callprof diff --noise) */

struct diff_func {
	int32_t fn[2];      /* index into side[s].funcs, -1 where this side lacks it */
	const char *name;   /* demangled name (the new side's where it has one) */
	const char *module; /* base name of its module, or NULL */
	const char *file;   /* source file or NULL */
	uint64_t line;      /* 0 when unknown */
	uint64_t offset; /* of its code (the new side's where it has one); valid when has_offset */
	int has_offset;
	int same_name; /* how to tell it from others of its name (fnid_same_levels) */
	struct pstat
		st[2]; /* a typical run's figures on each side (est rounded), zero where absent */
	struct runs_fig est[2];     /* the same with their standard errors */
	size_t callees, ncallees;   /* diff.by_caller[callees ..]: edges out of it */
	size_t callers, ncallers;   /* diff.by_callee[callers ..]: edges into it */
	unsigned tripped : 1;       /* diff_gate: its inclusive time grew past the gate */
	unsigned tripped_calls : 1; /* diff_gate_calls: its calls grew past the gate */
};

struct diff_edge {
	int32_t caller;  /* diff function index, -1 for a root call */
	uint32_t callee; /* diff function index */
	struct pstat st
		[2]; /* calls, incl_ns and self_ns of a typical run on each side (the rest is 0) */
	struct runs_fig est[2]; /* the same with their standard errors */
	const char *call_file;  /* where the first call was made (new side first), or NULL */
	uint64_t call_line;
	enum psite site; /* why call_file is NULL, where a dump says */
};

/* One side as the command gives it: its dumps and the run directory each came from. */
struct diff_input {
	const struct dump *dumps;
	size_t ndumps;
	const int64_t *dir_run; /* see runs_plan_init; NULL: each dump is a run of its own */
};

struct diff {
	struct profile side[2];   /* DIFF_BASE and DIFF_NEW */
	struct runs_plan plan[2]; /* the runs of each side */
	struct runs_side runs[2]; /* each side as a whole: a typical run's totals, its waits */
	int wall_clock;           /* times as measured, waits for a CPU included */
	size_t nfuncs;
	struct diff_func *funcs; /* sorted by module and name */
	uint32_t *order;         /* function indices, biggest change first */
	size_t nedges;
	struct diff_edge *edges;
	uint32_t *edge_order; /* edge indices, biggest change first */
	uint32_t *by_caller;  /* edge indices grouped by caller, biggest change first */
	uint32_t *by_callee;  /* edge indices grouped by callee, biggest change first */
	size_t nappeared, nvanished;
	int gated;              /* diff_gate ran */
	double fail_above_pct;  /* its threshold, percent */
	double noise_k;         /* ... and how many standard errors a change must exceed */
	int gated_calls;        /* diff_gate_calls ran */
	double calls_above_pct; /* its threshold, percent */
	uint64_t min_ns;        /* changes smaller than this are noise (gate, summary) */
	size_t ntripped;
	uint32_t *
		tripped; /* functions that tripped a gate, biggest growth (time, then calls) first */
};

/* diff_func_library: f is a library function on the side that has it (the new one first). */
static inline int diff_func_library(const struct diff *d, const struct diff_func *f)
{
	int side = f->fn[DIFF_NEW] >= 0 ? DIFF_NEW : DIFF_BASE;

	return f->fn[side] >= 0 && d->side[side].funcs[f->fn[side]].library;
}

/*
 * diff_build builds both sides from in[DIFF_BASE] and in[DIFF_NEW] and
 * matches them.  min_ns is kept for diff_gate and the summary; wall_clock
 * keeps the times as measured (waits for a CPU in them).  Returns 0, or -1
 * after printing one line (profile_build failed); the dumps must outlive d.
 */
int diff_build(struct diff *d, const struct diff_input in[2], uint64_t min_ns, int wall_clock);

/*
 * diff_gate marks the functions both sides have whose inclusive time grew by
 * more than pct percent (from 0, any growth), by more than d->min_ns, and by
 * more than noise_k standard errors of that change (estimate.h; with one run
 * per side the noise is unknown and only the first two count).  A function
 * that appeared does not trip it: its time shows in its callers'.
 *
 * diff_gate_calls marks those whose calls in a typical run grew by more than
 * pct percent (0: any growth) and beyond noise_k standard errors; counts are
 * exact, so on a deterministic workload they never flicker.
 *
 * Each returns how many functions tripped either gate (d->ntripped).
 */
size_t diff_gate(struct diff *d, double pct, double noise_k);
size_t diff_gate_calls(struct diff *d, double pct, double noise_k);

/* diff_noise_k: how many standard errors make a change stand out: the gate's, else the default. */
double diff_noise_k(const struct diff *d);

/* diff_func_tell: what tells f from others of its name, as plain text (fnid_tell). */
void diff_func_tell(struct buf *out, const struct diff_func *f);

/* diff_func_put_tell: the same as " (TELL)" after a name, through put (fnid_put_tell), or nothing. */
void diff_func_put_tell(struct buf *out, const struct diff_func *f,
			void (*put)(struct buf *, const char *));

/* diff_cmp_change: orders two [2]-arrays of figures by the size of their change, biggest first. */
int diff_cmp_change(const struct pstat *x, const struct pstat *y);

/* diff_release frees what d holds (not the dumps). */
void diff_release(struct diff *d);

#endif
