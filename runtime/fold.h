/*
 * fold.h: the calls folded past the node budget (cct.h), on one shadow stack.
 *
 * A folded call's node sits under the folded root with one level of context
 * (caller -> callee), so the tree no longer shows whether the call is nested
 * inside another call of its function, which would then count its time twice
 * in that function's inclusive time.  So a folded call is *timed* when no other
 * call of its function is open on the stack: its duration is its node's, as
 * for any call.  A *nested* one (its function is open below it) keeps only its
 * own work, its duration less its callees', as its node's time, counted apart
 * (cct_node.nested_ticks, the dump's nested_ns) so that function and edge
 * totals leave it out of their inclusive time; its callees' durations and its
 * own work are child time of its `charge`, the innermost timed call below it,
 * as if they had been its children.  Each call's time then counts once: self
 * times add up to the thread's time, every function gets its own work as self
 * time, and no self time exceeds its inclusive time.
 *
 * Knowing whether a function is open costs O(1) per folded call, amortised:
 * - the fast path never finds a folded node (cct.h), so a folded frame and
 *   every frame above it are pushed and closed on the slow path, which counts
 *   the open folded frames of each function in a small hash (fn -> open);
 * - the frames below the first folded one are call paths of the tree: the
 *   ancestors of the top one's node.  They are in the hash too, their nodes
 *   marked (cct_node.on_prefix); when a folded call starts above another real
 *   node, only the path between the two nodes is walked, no longer than the
 *   calls and returns the program made between them.
 *
 * Example, A and B calling each other past the budget: A (a real path, timed)
 * > B (folded, timed: no B open) > A (folded, nested: A is open) > B (nested)
 * > leaf (folded, timed).  The first B is the charge of the frames above it:
 * leaf's duration and the nested A's and B's own work are its child time, and
 * that work is also the time of their rows, counted as nested.
 *
 * Only the owning thread writes; a dump reads `frames` of a running thread.
 */
#ifndef CALLPROF_FOLD_H
#define CALLPROF_FOLD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cct.h"

/* Open calls of one function (key: its code address; 0: an empty slot). */
struct fold_count {
	uintptr_t fn;
	uint64_t open;
};

/* An open folded frame. */
struct fold_frame {
	uint32_t index;          /* its frame's index in the shadow stack */
	uint32_t nested;         /* its function was open below it: only its own work is its time */
	struct cct_node *charge; /* whose child time its duration (a timed one), or its own work
				  * and its callees' durations (a nested one), are */
	uint64_t child_ticks;    /* durations of its callees that have returned */
	uint64_t
		closed_before; /* the stack's folded calls closed before it started (struct fold) */
};

struct fold {
	struct fold_count *counts; /* mmap'ed, linear probing; NULL until the first folded call */
	size_t mask, used;
	struct fold_frame *frames; /* mmap'ed; innermost last */
	uint32_t depth, cap;
	uint64_t closed;         /* folded calls closed so far: those a frame's duration holds
				    * (a dump reads it, and `frames`, of a running thread) */
	struct cct_node *prefix; /* the real node whose path is counted; NULL: none */
	struct cct_node *
		suspended; /* while its stack does not run (a context switch): the prefix to count again */
	bool broken; /* no memory: every folded call from now on is nested */
};

/* Empty, allocating nothing. */
void fold_init(struct fold *f);

/* Frees what `f` holds; empty again.  The nodes it marked are not touched
 * (their tree is being released, or they are cleared by the caller). */
void fold_release(struct fold *f);

/*
 * A folded call of `fn` opens at frame `index`.  `real_top` is the node of
 * the innermost frame below it that is not transparent when no folded frame
 * is open (the path its ancestors form is counted), NULL otherwise; `charge`
 * is where its time goes (see struct fold_frame).  Returns 1 if it is nested
 * (no time), 0 if it is timed, -1 without memory (the call cannot be kept).
 */
int fold_enter(struct fold *f, uint32_t index, uintptr_t fn, struct cct_node *real_top,
	       struct cct_node *charge);

/* The folded frame at `index` closes: fills *out and forgets it (and any
 * above it).  False if `index` is no open folded frame. */
bool fold_leave(struct fold *f, uint32_t index, uintptr_t fn, struct fold_frame *out);

/* The open folded frame at `index`, or NULL. */
const struct fold_frame *fold_frame_at(const struct fold *f, uint32_t index);

/* The innermost open folded frame, or NULL. */
struct fold_frame *fold_top(struct fold *f);

/* The stack of `f` stops running (another context takes the thread): the
 * marks of its counted path come off the tree, which the next stack to run
 * shares; fold_resume puts them back when it runs again. */
void fold_suspend(struct fold *f);
void fold_resume(struct fold *f);

#endif
