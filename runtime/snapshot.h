/*
 * snapshot.h: what a dump reads from the threads, and the totals it derives.
 * snapshot_take copies every thread's tree into rows (preorder, raw ticks),
 * then takes the time and counts the calls still open up to it; nothing of
 * the live state is read after that.  snapshot_totals derives one thread's
 * compensated rows and its per-function and per-edge totals.  Cold: runs at
 * exit or on callprof_dump(); allocates with malloc.
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

/* One tree node as read: its function's id, and its figures (compensate.h). */
struct snap_row {
	const struct cct_node *node;
	uint32_t fn;               /* function id: index into snapshot.fn_key */
	uint32_t edge;             /* edge id, set by snapshot_totals */
	struct comp_row c;         /* parent row (SNAP_NO_FN for a root call), calls, times in ticks */
};

/* One thread as read. */
struct snap_thread {
	const struct tstate *t;
	struct snap_row *rows;     /* preorder: a parent before its children */
	size_t n;
	uint64_t wait_ns;          /* how long it waited for a CPU up to the snapshot (schedstat.h) */
	bool has_wait;             /* ... where the kernel says, for a thread still running */
};

/* A growable open-addressing map from a 64-bit key to a dense index. */
struct snap_idmap {
	uint64_t *keys;            /* key + 1; 0 marks an empty slot */
	uint32_t *vals;
	size_t mask, used;
};

struct snapshot {
	struct snap_thread *threads; /* oldest first */
	size_t nthreads;
	uint64_t now_ticks;          /* when it was taken: open calls count up to here */
	uintptr_t *fn_key;           /* function id -> its nodes' key (an address, or a
				      * retired key: cct.h) */
	size_t nfns, fn_cap;
	struct snap_idmap fn_ids;    /* key -> function id */
};

/* Totals of one function, or of one caller -> callee edge, on one thread (ticks). */
struct snap_total {
	uint64_t calls;
	uint64_t kind_calls[PROBE_KINDS - 1]; /* of those, the calls of each kind but PROBE_PLAIN */
	double incl, self, raw_incl, raw_self;
	uint64_t min_ticks, max_ticks;
	uint32_t active;             /* activations open on the current path, while summing */
	uint32_t caller, callee;     /* edges only: function ids (caller SNAP_NO_FN for roots) */
};

struct snap_totals {
	struct snap_total *fns;      /* by function id (snapshot.nfns of them) */
	struct snap_total *edges;
	size_t nedges;
	uint64_t clamped;            /* rows with a compensated figure clamped at zero */
};

/* Reads the threads of the list `newest` (newest first, linked by `next`,
 * left as it is).  Returns 0, or -1 without memory. */
int snapshot_take(struct snapshot *s, const struct tstate *newest);

void snapshot_release(struct snapshot *s);

/* The function id of node key `key`, or -1 when no row has it. */
int64_t snapshot_fn_id(const struct snapshot *s, uintptr_t key);

/* Compensates the rows of thread `i` with the cost per call of each kind
 * (zeros: none) and sums its totals into `out`.  Returns 0, or -1 without
 * memory (then `out` holds nothing to release). */
int snapshot_totals(struct snapshot *s, size_t i, const struct comp_cost cost[PROBE_KINDS],
		    struct snap_totals *out);

void snap_totals_release(struct snap_totals *t);

#endif
