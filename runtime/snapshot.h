/*
 * snapshot.h: what a dump reads from the threads, and the totals it derives,
 * one thread at a time so that its memory stays a fraction of the trees'.
 * snapshot_take lists the threads and the functions of their trees, and
 * copies the rows of the threads that may still change while the dump runs
 * (those still running, but the one dumping), then takes the time; the
 * others' trees stand still and are read when written.  snapshot_thread gives
 * one thread's rows (preorder, compensated) with its per-function and
 * per-edge totals.  Cold: runs at exit or on callprof_dump(); allocates with
 * malloc.
 */
#ifndef CALLPROF_SNAPSHOT_H
#define CALLPROF_SNAPSHOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cct.h"
#include "compensate.h"
#include "kind.h"
#include "tstate.h"

#define SNAP_NO_FN COMP_NO_PARENT /* the caller of a thread's root calls; no parent row */

/* One tree node as read, 104 bytes: the dump holds one per node of one thread. */
struct snap_row {
	const struct cct_node
		*node;          /* for the rest: kinds of calls (at most `calls`), min, max, call
				      * site, fold counts */
	uint32_t parent;        /* its parent's row, or SNAP_NO_FN for a root */
	uint32_t fn : 31;       /* function id: index into snapshot.fn_key */
	uint32_t comp_root : 1; /* compensated as a root: a folded row (fold.h) */
	uint64_t calls;
	double raw_incl, raw_self; /* ticks; raw_self is raw_incl less its children's (may dip
				      * below 0 while open calls are added: read it with snap_raw_self) */
	double nested;             /* of raw_incl, the ticks of nested folded calls (fold.h) */
	double incl, self;         /* compensated ticks (before: incl counts the probes of open
				      * folded calls in its time, self is scratch) */
	double incl_var, self_var; /* sampled timing: the variances of its estimates (sampled.h) */
	double folded; /* sampled timing: its folded callees' time (fold.h), outside its estimated
			* self time, inside its inclusive one */
	double cpu_incl, cpu_self; /* CPU time (cputime.h), compensated ticks: inclusive, its
				    * share of `incl` that its calls which read the CPU clock had
				    * (all of it without any); self, that less its children's.
				    * Before: those calls' CPU ns and wall ticks, summed */
};

/* The raw self time of a row. */
static inline double snap_raw_self(const struct snap_row *x)
{
	return x->raw_self > 0 ? x->raw_self : 0;
}

/* One thread of a snapshot: its state, and its rows when taken up front. */
struct snap_thread {
	const struct tstate *t;
	struct snap_row *rows; /* NULL: read when written (snapshot_thread) */
	size_t n;
	uint64_t wait_ns; /* how long it waited for a CPU up to the snapshot (schedstat.h) */
	bool has_wait;    /* ... where the kernel says, for a thread still running */
};

/* A growable open-addressing map from a 64-bit key to a dense index. */
struct snap_idmap {
	uint64_t *keys; /* key + 1; 0 marks an empty slot */
	uint32_t *vals;
	size_t mask, used;
};

struct snapshot {
	struct snap_thread *threads; /* oldest first */
	size_t nthreads;
	uint64_t now_ticks; /* when it was taken: open calls count up to here */
	uintptr_t *fn_key;  /* function id -> its nodes' key (an address, a
				      * retired key: cct.h, or SNAP_SIGNAL_KEY) */
	size_t nfns, fn_cap;
	struct snap_idmap fn_ids; /* key -> function id */
};

/* The key of the `<signal>` row under which a thread's tree of signal
 * handlers that interrupted a probe hangs (tstate.h): no code address. */
#define SNAP_SIGNAL_KEY ((uintptr_t)1)

/* Totals of one function, or of one caller -> callee edge, on one thread (ticks). */
struct snap_total {
	uint64_t calls;
	uint64_t kind_calls[PROBE_KINDS - 1]; /* of those, the calls of each kind but PROBE_PLAIN */
	uint64_t unrecorded_calls[PROBE_FRONT_KINDS]; /* calls its activations made that were not
						 * recorded, by their front-end's kind */
	double incl, self, raw_incl, raw_self;
	double cpu_incl, cpu_self; /* CPU time (cputime.h), compensated ticks */
	uint64_t cpu_calls;        /* ... read by these calls */
	uint64_t capture_ticks;    /* its calls' capture of their arguments (cct_node's) */
	uint64_t timed_calls;      /* sampled timing: the calls timed */
	double incl_var, self_var; /* sampled timing: the variances of the estimates */
	uint64_t min_ticks, max_ticks;
	const struct cct_node
		*site;   /* edges only: its first row's node with a call site (its first call's
				      * return address) */
	uint32_t active; /* activations open on the current path, while summing */
	uint32_t caller, callee; /* edges only: function ids (caller SNAP_NO_FN for roots) */
};

/* One thread as the dump writes it. */
struct snap_totals {
	struct snap_row *rows; /* preorder: a parent before its children */
	size_t n;
	struct snap_total *fns; /* by function id (snapshot.nfns of them) */
	struct snap_total *edges;
	size_t nedges;
	uint64_t *kinds;  /* a thread still calling while it is read: its rows' calls of each kind
			  * but plain (PROBE_KINDS - 1 a row), read once; NULL: read from the nodes */
	uint64_t clamped; /* rows with a compensated figure clamped at zero */
	bool has_nested;  /* a row has time of nested folded calls */
};

/* The calls of kind k + 1 (kind.h) of row i of `t`, at most its calls, the
 * same each time it is asked: a thread that goes on calling while it is read
 * has them read once (snapshot_thread). */
static inline uint64_t snap_kind_calls(const struct snap_totals *t, size_t i, unsigned k)
{
	const struct snap_row *x = &t->rows[i];
	uint64_t n;

	if (t->kinds)
		return t->kinds[i * (PROBE_KINDS - 1) + k];
	n = x->node ? cct_kind_calls(x->node, (enum probe_kind)(k + 1)) : 0;
	return n < x->calls ? n : x->calls;
}

/* Reads the threads of the list `newest` (newest first, linked by `next`,
 * left as it is).  Returns 0, or -1 without memory. */
int snapshot_take(struct snapshot *s, const struct tstate *newest);

void snapshot_release(struct snapshot *s);

/* The function id of node key `key`, or -1 when no row has it. */
int64_t snapshot_fn_id(const struct snapshot *s, uintptr_t key);

/* The rows of thread `i`, compensated with the cost per call of each kind
 * (zeros: none), and its totals, into `out`; the rows taken up front pass to
 * `out`.  Nodes of functions the snapshot has not listed (made since it was
 * taken) are left out, with what is below them.  Returns 0, or -1 without
 * memory (then `out` holds nothing to release). */
int snapshot_thread(struct snapshot *s, size_t i, const struct comp_cost cost[PROBE_KINDS],
		    struct snap_totals *out);

void snap_totals_release(struct snap_totals *t);

#endif
