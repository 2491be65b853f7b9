/*
 * adapt.h: CALLPROF_CLOCK=tsc-adaptive, fenced reads where they pay.
 *
 * A plain rdtsc is cheap, but an out-of-order core takes it early: a function
 * that ends in a cache miss or a dependency chain loses that time to its
 * caller, and the probes, run alongside the chain, cost less than calibration
 * measured.  Fenced reads (tsc-ordered) are exact but cost about 2.5 times as
 * much, which only pays where a call does real work.  So every calling
 * context's first ADAPT_SAMPLE_CALLS activations are read with fences; then a
 * context with no callees whose own work per call is at least what plain
 * probes cost keeps fenced reads, and every other one reads plainly.  Each
 * node counts its fenced activations, so compensation subtracts the cost each
 * kind of read really had.
 */
#ifndef CALLPROF_ADAPT_H
#define CALLPROF_ADAPT_H

#include <stdint.h>

#include "cct.h"
#include "clock.h"
#include "compat.h"
#include "shadow.h"

#define ADAPT_SAMPLE_CALLS 16

/* Settles a sampled node's reads, from its sample (cold; once per node). */
void adapt_decide(struct cct_node *n);

struct tstate;
/* The exit probe's end for a fenced frame of tsc-adaptive, and under
 * tsc-ordered and monotonic: closes the top frame `top` of thread state `t`
 * (see adapt_stamp_exit), pops it and clears `busy`.  Out of line, in tail
 * position, so the probe's fast path keeps no registers for it. */
void adapt_exit_close(struct tstate *t, struct frame *top, uint64_t now);

/* The enter probe's timestamp for frame `f` of node `n`, its last act. */
static inline CP_NOINSTR void adapt_stamp_enter(struct frame *f, struct cct_node *n)
{
	enum clock_source src = clock_source;

	if (likely(src == CLOCK_SRC_TSC)) {
		f->t_enter_ticks = clock_tsc_read();
	} else if (src == CLOCK_SRC_NONE) {
		f->t_enter_ticks = 0;
	} else if (src == CLOCK_SRC_TSC_ADAPTIVE) {
		if (n->fence != CCT_FENCE_PLAIN) {
			n->fenced_calls++;
			f->sp |= FRAME_FENCED;
			f->t_enter_ticks = clock_tsc_read_fenced();
		} else {
			f->t_enter_ticks = clock_tsc_read();
		}
	} else {
		f->t_enter_ticks = clock_now_enter();
	}
}

/* The exit timestamp of frame `f`: `now`, read on entering the probe, except for
 * a fenced frame, read only now, behind the fence.  (tsc-adaptive reads nothing on
 * entering the exit probe: a plain read before a fenced one would lengthen the
 * fenced interval by as long as the code before it leaves the plain read waiting;
 * its plain frames read in hooks.c.) */
static inline CP_NOINSTR uint64_t adapt_stamp_exit(const struct frame *f, uint64_t now)
{
	return f->sp & FRAME_FENCED ? clock_tsc_read_after() : now;
}

/* After closing frame `f`: a sampled node that has had its sample is settled. */
static inline CP_NOINSTR void adapt_after_close(const struct frame *f)
{
	struct cct_node *n = f->node;

	if (unlikely(n->fence == CCT_FENCE_SAMPLING && n->fenced_calls >= ADAPT_SAMPLE_CALLS))
		adapt_decide(n);
}

#endif
