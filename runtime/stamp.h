/*
 * stamp.h: the clock policy of the probes.  The probe core (probe.h) takes
 * every timestamp through these functions, so no front-end knows the clock
 * modes (CALLPROF_CLOCK; clock.h reads the timers):
 *   tsc           a plain rdtsc on each side: the default;
 *   tsc-ordered   fenced reads, so an interval holds exactly its own work;
 *   tsc-adaptive  plain reads, fenced for the calling contexts that pay for it;
 *   monotonic     CLOCK_MONOTONIC (no invariant TSC);
 *   none          no timer: exact counts and tree only.
 *
 * tsc-adaptive.  A plain rdtsc is cheap, but an out-of-order core takes it
 * early: a function that ends in a cache miss or a dependency chain loses
 * that time to its caller, and the probes, run alongside the chain, cost less
 * than calibration measured.  Fenced reads are exact but cost about 2.5 times
 * as much, which only pays where a call does real work.  So every calling
 * context's first STAMP_SAMPLE_CALLS activations are read with fences; then a
 * context with no callees most of whose sampled calls did own work of at least
 * what plain probes cost keeps fenced reads, and every other one reads plainly
 * (the probe core settles it: probe.c).  Fenced activations are calls of kind
 * PROBE_FENCED (kind.h), so compensation subtracts what each kind costs.
 *
 * Sampled timing (CALLPROF_TIMING=sampled, over plain TSC reads).  Most of a
 * probe's cost is its two clock reads, so most calls read none: each calling
 * context times its first CCT_TIMED_FIRST calls, then one call after a
 * random run of untimed ones, uniform in [0, 2R - 2] (R = CALLPROF_SAMPLE),
 * so one in R on average and never in step with a pattern of the program's.
 * These calls are "own-timed" (FRAME_OWN_TIMED, shadow.h).  An own-timed
 * call times its callees too, "lent" to it, so its self time is its time less
 * theirs: whole (FRAME_LENT) its first CCT_LENT_CALLS callees, every callee
 * still in its own first calls, and every call of a heavy callee (one whose
 * long calls hold much of its time: a recursive call's subtree, a call into
 * an interpreter), and of the rest one in R, standing for R
 * (FRAME_LENT_ONE_IN_R, from a countdown its context keeps across its
 * own-timed calls, so each such callee is lent with chance 1 in R wherever it
 * falls).  Only callee time measured in the same run goes into a self time,
 * never a callee's own-timed call (which times its own callees, and is
 * dearer than an untimed one), and no long call ever counts R times or not at
 * all: most such estimates would miss it.  Any other call is untimed: it is
 * counted and pushed as any other, its entry time 0.  The fields a timed
 * call's enter reads before its clock sit on the node's first line (cct.h):
 * a miss there would land in its interval.  The dump estimates each
 * context's self time from its first calls (exact) and the timed later ones
 * (scaled to all of them), its inclusive time from its subtree, with their
 * standard errors (sampled.h); an untimed call's probes cost less than a
 * timed one's and are calibrated apart (calib.h).
 */
#ifndef CALLPROF_STAMP_H
#define CALLPROF_STAMP_H

#include <stdbool.h>
#include <stdint.h>

#include "cct.h"
#include "clock.h"
#include "compat.h"
#include "kind.h"
#include "shadow.h"

#define STAMP_SAMPLE_CALLS 16

/* Sampled timing's random stream, one per thread (probe.c); 0 until seeded. */
extern __thread uint64_t stamp_random __attribute__((tls_model("initial-exec")));

/* A number uniform in [0, span) from the random stream `*x` (xorshift64*), seeded
 * from the TSC while 0: sampled timing's (stamp_random) or the meter's (meter.h). */
static inline CP_NOINSTR uint32_t stamp_random_below(uint64_t *stream, uint32_t span)
{
	uint64_t x = *stream;

	if (unlikely(!x))
		x = clock_tsc_read() | 1;
	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*stream = x;
	return (uint32_t)(((x * 0x2545F4914F6CDD1Dull) >> 32) * span >> 32);
}

/* Sampled timing: node `n` has a timed call now; picks how many calls go
 * untimed before its next one, and starts the call's running sums.  Its
 * marks: FRAME_FIRST for one of the first. */
static inline CP_NOINSTR uint64_t stamp_pick_next(struct cct_node *n)
{
	uint64_t first = n->first_left ? FRAME_FIRST : 0;

	/* its first call: where the lending of its callees starts */
	if (n->first_left == CCT_TIMED_FIRST)
		n->lend_left = stamp_random_below(&stamp_random, 2 * frames_sample_rate - 1);
	n->act_child_ticks = 0;
	n->act_lent = 0;
	if (unlikely(n->timing == CCT_TIME_ALONE)) { /* past lending whole, lending none */
		n->act_lent = CCT_LENT_CALLS;
		n->lend_left = UINT32_MAX;
	}
	n->first_left = (uint16_t)(n->first_left - !!first);
	if (n->timing != CCT_TIME_SAMPLE || n->first_left)
		n->sample_left = n->timing == CCT_TIME_NEVER ? UINT32_MAX : 0;
	else
		n->sample_left = stamp_random_below(&stamp_random, 2 * frames_sample_rate - 1);
	return FRAME_OWN_TIMED | first;
}

/* Sampled timing: true when the own-timed activation of `caller` lends its
 * next callee whatever that callee (stamp_lend: a heavy callee, or one in its
 * first calls, is lent besides). */
static inline CP_NOINSTR bool stamp_lends_next(const struct cct_node *caller)
{
	return caller->act_lent < CCT_LENT_CALLS || caller->lend_left == 0 ||
	       caller->timing == CCT_TIME_ALWAYS;
}

/* Sampled timing: true when the call about to be made under frame `caller`
 * will be lent to it whatever its callee.  The enter probe asks before it
 * looks the callee up, so that the meter can read its first clock for such a
 * call with no branch of its own in front (meter.h). */
static inline CP_NOINSTR bool stamp_will_lend(const struct frame *caller)
{
	return unlikely(caller->t_enter_ticks & FRAME_OWN_TIMED) && stamp_lends_next(caller->node);
}

/* Sampled timing: how a call of node `n`, timed as `how` for itself, made
 * by an own-timed call of `caller` is lent to it (FRAME_LENT,
 * FRAME_LENT_ONE_IN_R; 0: not).  A caller whose every call is timed (a
 * calibration loop: CCT_TIME_ALWAYS) is lent every call whole. */
static inline CP_NOINSTR uint64_t stamp_lend(struct cct_node *caller, struct cct_node *n,
					     uint64_t how)
{
	bool whole = n->heavy || (how & FRAME_FIRST) || caller->timing == CCT_TIME_ALWAYS;

	if (whole || caller->act_lent < CCT_LENT_CALLS) {
		/* Lent for its own sake (heavy, or in its first calls) by a caller that
		 * lends its next callee nothing: the enter probe took no first read
		 * (stamp_will_lend), so it reads the clock here, as every lent call does
		 * once before its timestamp, and costs what calibration charges it. */
		if (unlikely(!stamp_lends_next(caller)))
			(void)clock_tsc_read();
		caller->act_lent += !whole;
		n->lent_calls++;
		return FRAME_LENT;
	}
	if (caller->lend_left-- == 0) {
		caller->lend_left = stamp_random_below(&stamp_random, 2 * frames_sample_rate - 1);
		return FRAME_LENT_ONE_IN_R;
	}
	return 0;
}

/* Sampled timing: how the call of node `n` entering at frame `f` is timed
 * (FRAME_OWN_TIMED, FRAME_LENT: shadow.h), 0 for untimed; the enter probe's
 * choice, before it reads the clock. */
static inline CP_NOINSTR uint64_t stamp_sampled_how(struct frame *f, struct cct_node *n)
{
	uint64_t how = 0;

	if (unlikely(n->sample_left-- == 0))
		how = stamp_pick_next(n);
	if (unlikely(f[-1].t_enter_ticks & FRAME_OWN_TIMED))
		how |= stamp_lend(f[-1].node, n, how);
	return how;
}

/* The time a callee's interval begins, as the enter probe reads it. */
static inline CP_NOINSTR uint64_t stamp_enter_read(void)
{
	if (likely(clock_source == CLOCK_SRC_TSC || clock_source == CLOCK_SRC_TSC_ADAPTIVE ||
		   clock_source == CLOCK_SRC_TSC_SAMPLED))
		return clock_tsc_read(); /* tsc-adaptive's fenced nodes: see stamp_enter */
	if (clock_source == CLOCK_SRC_NONE)
		return 0;
	if (clock_source == CLOCK_SRC_TSC_ORDERED)
		return clock_tsc_read_fenced();
	return clock_mono_ns();
}

/* True if the activations of `n` read their times with fences (tsc-adaptive):
 * calls of kind PROBE_FENCED, whatever their front-end. */
static inline CP_NOINSTR bool stamp_fences(const struct cct_node *n)
{
	return clock_source == CLOCK_SRC_TSC_ADAPTIVE && n->fence != CCT_FENCE_PLAIN;
}

/*
 * The exit probe's first act once it holds the thread's state (probe.h: not
 * before, or a signal handler run in between would hang calls longer than
 * their caller's under it), so the rest of the probe's work falls outside the
 * callee's interval: the time it ends, or 0 where the policy reads later
 * (none: no clock; tsc-adaptive: once the frame is known, see stamp_close).
 */
static inline CP_NOINSTR uint64_t stamp_exit_first(void)
{
	if (likely(clock_source == CLOCK_SRC_TSC))
		return clock_tsc_read();
	if (clock_source == CLOCK_SRC_NONE || clock_source == CLOCK_SRC_TSC_ADAPTIVE ||
	    clock_source == CLOCK_SRC_TSC_SAMPLED)
		return 0;
	if (clock_source == CLOCK_SRC_TSC_ORDERED)
		return clock_tsc_read_after();
	return clock_mono_ns();
}

/* The enter probe's last act: the entry time of frame `f` of node `n`. */
static inline CP_NOINSTR void stamp_enter(struct frame *f, struct cct_node *n)
{
	enum clock_source src = clock_source;

	if (likely(src == CLOCK_SRC_TSC)) {
		f->t_enter_ticks = clock_tsc_read();
	} else if (src == CLOCK_SRC_TSC_SAMPLED) {
		uint64_t how = stamp_sampled_how(f, n);

		f->t_enter_ticks = how ? clock_tsc_read() | how : 0; /* 0: untimed */
	} else if (src == CLOCK_SRC_NONE) {
		f->t_enter_ticks = 0;
	} else if (src == CLOCK_SRC_TSC_ADAPTIVE) {
		if (n->fence != CCT_FENCE_PLAIN) {
			n->kind_calls[PROBE_FENCED - 1]++;
			f->sp |= FRAME_FENCED;
			f->t_enter_ticks = clock_tsc_read_fenced();
		} else {
			f->t_enter_ticks = clock_tsc_read();
		}
	} else {
		f->t_enter_ticks = stamp_enter_read();
	}
}

/* The entry time of the marked frame `f` (shadow.h), read plainly: under
 * sampled timing a transparent one stands for its caller's activation, whose
 * callees are timed when it is own-timed. */
static inline CP_NOINSTR void stamp_enter_marked(struct frame *f)
{
	f->t_enter_ticks = stamp_enter_read();
	if (frame_is_transparent(f))
		f->t_enter_ticks |= f[-1].t_enter_ticks & FRAME_OWN_TIMED;
}

/* The entry time of frame `f` read again, the same way: its enter's cold path
 * went on after stamp_enter (restoring the vector state: hijack.h).  An
 * untimed call (or any, without a clock) stays at 0. */
static inline CP_NOINSTR uint64_t stamp_enter_again(const struct frame *f)
{
	if (!f->t_enter_ticks)
		return 0;
	return f->sp & FRAME_FENCED ? clock_tsc_read_fenced()
				    : stamp_enter_read() | (f->t_enter_ticks & FRAME_TIMING);
}

/*
 * Closes the top frame `top` at the exit probe's fast path, with `*now` from
 * stamp_exit_first: true when done, false when the frame must be closed out
 * of line (probe_exit_close: fenced frames, tsc-ordered, monotonic).  A time
 * read here (sampled timing: a timed call's) goes to *now, for the meter.
 */
static inline CP_NOINSTR bool stamp_close(const struct frame *top, uint64_t *now)
{
	enum clock_source src = clock_source;

	if (likely(src == CLOCK_SRC_TSC))
		frame_close(top, top - 1, *now);
	else if (src == CLOCK_SRC_TSC_SAMPLED) {
		if (top->t_enter_ticks) {
			*now = clock_tsc_read(); /* read now, as tsc-adaptive */
			frame_close_timed(top, top - 1, *now);
		}
	} else if (src == CLOCK_SRC_NONE)
		; /* without a clock only the counts matter */
	else if (src == CLOCK_SRC_TSC_ADAPTIVE && !(top->sp & FRAME_FENCED))
		frame_close(top, top - 1,
			    clock_tsc_read()); /* a plain node's: read now, see above */
	else
		return false;
	return true;
}

/* `now` from stamp_exit_first for an exit off the fast path: read if it was
 * put off (0, under the clocks that put it off). */
static inline CP_NOINSTR uint64_t stamp_exit_resolve(uint64_t now)
{
	return !now && (clock_source == CLOCK_SRC_TSC_ADAPTIVE ||
			clock_source == CLOCK_SRC_TSC_SAMPLED)
		       ? clock_now()
		       : now;
}

/*
 * The exit time of frame `f` closed out of line: `now`, except for a fenced
 * frame, read only now, behind the fence, and a time put off (0: a call that
 * reads the CPU clock, which closes out of line under any clock), read now.
 * (tsc-adaptive reads nothing on entering the exit probe: a plain read before
 * a fenced one would lengthen the fenced interval by as long as the code
 * before it leaves the plain read waiting.)
 */
static inline CP_NOINSTR uint64_t stamp_exit_late(const struct frame *f, uint64_t now)
{
	if (f->sp & FRAME_FENCED && !clock_stopped)
		return clock_tsc_read_after();
	return stamp_exit_resolve(now);
}

/* The state a new tree's nodes start in (cct.new_fence). */
static inline CP_NOINSTR uint32_t stamp_new_node_state(void)
{
	return clock_source == CLOCK_SRC_TSC_ADAPTIVE ? CCT_FENCE_SAMPLING : CCT_FENCE_PLAIN;
}

/* True when `n` has had its sample and is to be settled (after a close). */
static inline CP_NOINSTR bool stamp_sampled(const struct cct_node *n)
{
	return unlikely(n->fence == CCT_FENCE_SAMPLING &&
			n->kind_calls[PROBE_FENCED - 1] >= STAMP_SAMPLE_CALLS);
}

/* Sampled timing: a timed call costs `timed_call_ticks` (calibration), so a
 * heavy context's calls (cct_node.heavy) are those timing costs at most one
 * part in STAMP_HEAVY_FACTOR of. */
#define STAMP_HEAVY_FACTOR 64
static inline CP_NOINSTR void stamp_set_heavy(double timed_call_ticks)
{
	double ticks = timed_call_ticks * STAMP_HEAVY_FACTOR;

	if (frames_sampled)
		frames_heavy_ticks = ticks >= 1 ? (uint64_t)ticks : 1;
}

/* Makes the calls of node `n` be of kind `k` from now on, each timed
 * (calibration). */
static inline CP_NOINSTR void stamp_force_kind(struct cct_node *n, enum probe_kind k)
{
	n->fence = k == PROBE_FENCED ? CCT_FENCE_FENCED : CCT_FENCE_PLAIN;
	n->timing = CCT_TIME_ALWAYS;
}

/* Makes none of the calls of node `n` timed from now on (calibration, under
 * sampled timing; the counts are cleared after). */
static inline CP_NOINSTR void stamp_force_untimed(struct cct_node *n)
{
	n->timing = CCT_TIME_NEVER;
}

/* Makes every call of node `n` own-timed from now on, with none of its
 * callees timed: each takes the path an own-timed call's callee takes when
 * it is not lent (calibration, under sampled timing). */
static inline CP_NOINSTR void stamp_force_alone(struct cct_node *n)
{
	n->timing = CCT_TIME_ALONE;
}

/* The kinds of call this clock makes. */
static inline CP_NOINSTR probe_kind_set stamp_kinds(void)
{
	return 1u << PROBE_PLAIN |
	       (clock_source == CLOCK_SRC_TSC_ADAPTIVE ? 1u << PROBE_FENCED : 0);
}

#endif
