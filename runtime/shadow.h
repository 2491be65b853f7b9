/*
 * shadow.h: the per-thread shadow stack of open activations.
 *
 * base[0] is a sentinel for the thread's root (its node is the tree's root and
 * its stack pointer the highest address), so a probe always has a top frame
 * and a parent frame without testing for an empty stack.
 *
 * Each frame keeps the stack address its enter probe gave (`sp`, defined in
 * probe.h).  Stacks grow down, so a live caller's `sp` is at or above any
 * later probe's (at: a function inlined into it probes from the same
 * physical frame); a frame whose `sp` is below a new probe's is dead:
 * control left it without its exit probe (longjmp, an exception unwound
 * without exit probes) and it is closed before the new event is applied.
 * A dead frame exactly level with the new probe is not caught here; it is
 * closed when an exit of a function below it arrives.
 */
#ifndef CALLPROF_SHADOW_H
#define CALLPROF_SHADOW_H

#include <stdbool.h>
#include <stdint.h>

#include "cct.h"
#include "compat.h"
#include "fold.h"

struct frame {
	uintptr_t fn;           /* function address, as given to the enter probe */
	struct cct_node *node;  /* this activation's node in the thread's tree */
	uint64_t t_enter_ticks; /* when it entered */
	uintptr_t sp;           /* the enter probe's stack address (probe.h): liveness test */
};

struct shadow {
	struct frame *base; /* mmap'ed; base[0] is the root sentinel */
	uint32_t depth;     /* frames in use, sentinel included (>= 1) */
	uint32_t cap;       /* frames mapped */
	uint32_t max_cap;   /* growth limit; past it calls are dropped and counted */
	struct fold fold;   /* its folded calls (fold.h) */
};

/*
 * Marked frames: calls the fast exit path must not close.  Low bits of `sp`
 * say the kind (probe frame addresses are 8-byte aligned) and `fn` holds
 * ~fn, so no exit matches them on the fast path.
 * - transparent: a call that is not recorded (an excluded function, or one
 *   deeper than CALLPROF_MAX_DEPTH).  It carries its caller's node, so its
 *   callees attach to the caller and its time stays there;
 * - folded: a call folded past the node budget (fold.h says where its time
 *   goes: its entry in the stack's fold state).
 */
#define FRAME_TRANSPARENT ((uintptr_t)1)
#define FRAME_FOLDED ((uintptr_t)2)
#define FRAME_MARKS (FRAME_TRANSPARENT | FRAME_FOLDED)
/* Not a mark: an activation whose times are read with fences (tsc-adaptive), so
 * its exit must read the same way.  Below the alignment too, and harmless to
 * the liveness tests: it never carries a frame address past the next one. */
#define FRAME_FENCED ((uintptr_t)4)

static inline CP_NOINSTR bool frame_is_marked(const struct frame *f)
{
	return f->sp & FRAME_MARKS;
}

static inline CP_NOINSTR bool frame_is_transparent(const struct frame *f)
{
	return f->sp & FRAME_TRANSPARENT;
}

static inline CP_NOINSTR bool frame_is_folded(const struct frame *f)
{
	return f->sp & FRAME_FOLDED;
}

/* The function of any frame, marked or not. */
static inline CP_NOINSTR uintptr_t frame_fn(const struct frame *f)
{
	return frame_is_marked(f) ? ~f->fn : f->fn;
}

/* Closes the activation `f` at `now_ticks`, charging its duration to its
 * node and to its caller's node (`parent`, the frame below). */
static inline CP_NOINSTR void frame_close(const struct frame *f, const struct frame *parent,
					  uint64_t now_ticks)
{
	struct cct_node *n = f->node;
	uint64_t d = now_ticks - f->t_enter_ticks;

	n->incl_ticks += d;
	if (d < n->min_ticks)
		n->min_ticks = d;
	if (d > n->max_ticks)
		n->max_ticks = d;
	parent->node->child_ticks += d;
}

/* Sampled timing (stamp.h) chose the clock: a frame entered at tick 0 is an
 * untimed call.  Kept when a program stops the clock (clock.h). */
extern bool frames_sampled;

/* Sampled timing: the top bit of an own-timed call's entry time (never a
 * tick's: 2^63 cycles are centuries); a call timed for its caller's sake has
 * it clear. */
#define FRAME_OWN_TIMED ((uint64_t)1 << 63)

/* When frame `f` entered, its mark taken off. */
static inline CP_NOINSTR uint64_t frame_enter_ticks(const struct frame *f)
{
	return f->t_enter_ticks & ~FRAME_OWN_TIMED;
}

/* Sampled timing: closes the timed activation `f` at `now_ticks`: an
 * own-timed one's time, self time (its callees' time so far taken off) and,
 * past its node's first calls, the sums its self time's estimate takes; its time as its
 * caller's callee's when the caller (`parent`) is own-timed. */
static inline CP_NOINSTR void frame_close_timed(const struct frame *f, const struct frame *parent,
						uint64_t now_ticks)
{
	struct cct_node *n = f->node;
	uint64_t d = now_ticks - frame_enter_ticks(f);

	if (f->t_enter_ticks & FRAME_OWN_TIMED) {
		uint64_t self = d > n->act_child_ticks ? d - n->act_child_ticks : 0;

		n->incl_ticks += d;
		n->child_ticks += d - self;
		if (d < n->min_ticks)
			n->min_ticks = d;
		if (d > n->max_ticks)
			n->max_ticks = d;
		if (n->timed_calls >
		    CCT_TIMED_FIRST) { /* integers: the hijacking exits use no SSE */
			n->sample_calls++;
			n->sample_self += self;
			n->sample_self_sq += (cct_wide)self * self;
		}
	}
	if (parent->t_enter_ticks & FRAME_OWN_TIMED)
		parent->node->act_child_ticks += d;
}

/* Closes frame `f` (not a marked one) at `now_ticks` off the fast path: as
 * frame_close, or under sampled timing as its timed or untimed call. */
static inline CP_NOINSTR void frame_close_any(const struct frame *f, const struct frame *parent,
					      uint64_t now_ticks)
{
	if (!frames_sampled)
		frame_close(f, parent, now_ticks);
	else if (f->t_enter_ticks)
		frame_close_timed(f, parent, now_ticks);
}

/* Closes frame `index` of `s` at `now_ticks`, leaving depth alone: a plain
 * frame as frame_close does, a folded one as fold.h says; a transparent one
 * adds no time (cold). */
void shadow_close_frame(struct shadow *s, uint32_t index, uint64_t now_ticks);

/* The node that the time of a call made from frame `index` of `s` is child
 * time of: the frame's node, looking through transparent frames (they carry
 * their caller's node) and nested folded ones (fold.h). */
struct cct_node *shadow_charge_node(const struct shadow *s, uint32_t index);

/* The innermost frame at or below `index` that is not transparent. */
uint32_t shadow_recorded_below(const struct shadow *s, uint32_t index);

/* Maps the stack with room for `cap` frames, growable up to `max_cap`,
 * with the root sentinel for `root`.  Returns 0, or -1 if nothing could be mapped. */
int shadow_init(struct shadow *s, struct cct_node *root, uint32_t cap, uint32_t max_cap);

/* Doubles the room (cold).  Returns 0, or -1 at the limit or without memory. */
int shadow_grow(struct shadow *s);

/* Closes, at `now_ticks`, every frame above index `keep` (exclusive). Returns how many. */
uint32_t shadow_close_above(struct shadow *s, uint32_t keep, uint64_t now_ticks);

/* Closes the frames strictly below `sp`, a new probe's (probe.h): dead ones. Returns how many. */
uint32_t shadow_pop_dead(struct shadow *s, uintptr_t sp);

/* How far a frame's `sp` lies below the stack pointer of its function, at
 * least (probe.h): the -finstrument-functions hook's return address and saved
 * frame pointer. */
#define SHADOW_PROBE_FRAME 16

/* Closes, at `now_ticks`, the frames of functions whose stack pointer was
 * below `sp`: where a longjmp or a caught exception resumes.  Returns how many. */
uint32_t shadow_unwind_to(struct shadow *s, uintptr_t sp, uint64_t now_ticks);

/* The index of the innermost frame of `fn`, or 0 if none is open. */
uint32_t shadow_find(const struct shadow *s, uintptr_t fn);

void shadow_release(struct shadow *s);

#endif
