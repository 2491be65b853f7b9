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
#include "cputime.h"
#include "fold.h"

struct frame {
	uintptr_t fn;           /* function address, as given to the enter probe */
	struct cct_node *node;  /* this activation's node in the thread's tree */
	uint64_t t_enter_ticks; /* when it entered */
	uintptr_t sp;           /* the enter probe's stack address (probe.h): liveness test */
};

/* An open call that read the CPU clock (cputime.h), and when: frames have no
 * word to spare, so these stand beside them, innermost last. */
struct shadow_cpu {
	uint32_t frame;  /* its frame's index */
	uint64_t cpu_ns; /* the thread's CPU time at its entry */
	uint64_t ticks;  /* the wall clock then, read with it */
};

#define SHADOW_CPU_OPEN 32 /* open calls that read the CPU clock; calls past them do not */

/* Sampled timing: an own-timed activation's running sums, kept on its node
 * (cct_node.act_child_ticks, act_lent) since a node has one open activation
 * on a running stack.  Contexts break that: a stack that stops (context.c)
 * may leave one open where another context then opens one of the same node
 * (two coroutines running one function), so a stopped stack parks its own
 * here and gets them back when it runs again (shadow_park, shadow_unpark). */
struct shadow_parked {
	uint32_t frame;       /* the own-timed frame's index */
	uint32_t lent;        /* its node's act_lent */
	uint64_t child_ticks; /* its node's act_child_ticks */
};

#define SHADOW_PARKED 32 /* own-timed frames a stopped stack parks, innermost first */

struct shadow {
	struct frame *base; /* mmap'ed; base[0] is the root sentinel */
	uint32_t depth;     /* frames in use, sentinel included (>= 1) */
	uint32_t cap;       /* frames mapped */
	uint32_t max_cap;   /* growth limit; past it calls are dropped and counted */
	uint32_t cpu_frame; /* the innermost frame in cpu[], or 0: the exit fast paths test it */
	uint32_t cpu_depth; /* entries of cpu[] in use */
	struct fold fold;   /* its folded calls (fold.h) */
	struct shadow_cpu cpu[SHADOW_CPU_OPEN];
	uint32_t parked; /* entries of park[] in use while the stack does not run */
	struct shadow_parked park[SHADOW_PARKED];
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

/* A call of node `n` lasted `d` ticks: a long one makes its next call read
 * the CPU clock (cputime.h). */
static inline CP_NOINSTR void frame_lasted(struct cct_node *n, uint64_t d)
{
	if (unlikely(d >= cputime_long_ticks) && !(n->cpu & CCT_CPU_NEVER))
		n->cpu = CCT_CPU_READ;
}

/* Closes the activation `f` at `now_ticks`, charging its duration to its
 * node and to its caller's node (`parent`, the frame below). */
static inline CP_NOINSTR void frame_close(const struct frame *f, const struct frame *parent,
					  uint64_t now_ticks)
{
	struct cct_node *n = f->node;
	uint64_t d = now_ticks - f->t_enter_ticks;

	frame_lasted(n, d);
	n->incl_ticks += d;
	if (d < n->min_ticks)
		n->min_ticks = d;
	if (d > n->max_ticks)
		n->max_ticks = d;
	parent->node->child_ticks += d;
}

/* Sampled timing (stamp.h) chose the clock: a frame entered at tick 0 is an
 * untimed call.  Kept when a program stops the clock (clock.h).  R: a
 * context's later calls are timed one in frames_sample_rate. */
extern bool frames_sampled;
extern uint32_t frames_sample_rate;

/* Sampled timing: an own-timed call this long is a long one; a context whose
 * long calls hold at least 1 / 2^FRAME_HEAVY_SHARE_SHIFT of its own-timed
 * calls' time is heavy (cct_node.heavy, stamp.h).  UINT64_MAX until
 * calibration sets it. */
extern uint64_t frames_heavy_ticks;
#define FRAME_HEAVY_SHARE_SHIFT 3

/* Sampled timing: the top bit of an own-timed call's entry time (never a
 * tick's: 2^61 cycles are decades), and of a transparent frame's in an
 * own-timed call (its callees are that call's); the next of a call timed for
 * its caller's self time whole, the next of one timed for it standing for R
 * calls (stamp.h). */
#define FRAME_OWN_TIMED ((uint64_t)1 << 63)
#define FRAME_LENT ((uint64_t)1 << 62)
#define FRAME_LENT_ONE_IN_R ((uint64_t)1 << 61)
#define FRAME_FIRST ((uint64_t)1 << 60)
#define FRAME_LENDING (FRAME_LENT | FRAME_LENT_ONE_IN_R)
#define FRAME_TIMING (FRAME_OWN_TIMED | FRAME_LENDING | FRAME_FIRST)

/* When frame `f` entered, its marks taken off. */
static inline CP_NOINSTR uint64_t frame_enter_ticks(const struct frame *f)
{
	return f->t_enter_ticks & ~FRAME_TIMING;
}

/* Sampled timing: what the timed call entered at `t_enter_ticks`, of `d`
 * ticks, takes out of its caller's self time: all of it, or R times it, as it
 * was lent (stamp.h); nothing if it was not. */
static inline CP_NOINSTR uint64_t frame_lent_ticks(uint64_t t_enter_ticks, uint64_t d)
{
	if (t_enter_ticks & FRAME_LENT)
		return d;
	return t_enter_ticks & FRAME_LENT_ONE_IN_R ? d * frames_sample_rate : 0;
}

/* Sampled timing: closes the timed activation `f` at `now_ticks`.  An
 * own-timed one: its time; its self time, its callees' taken off as they were
 * lent (which may leave it below 0 in one call, and right on average); past
 * its node's first calls, the sums the estimate takes.  A lent one's time goes
 * to its caller's callees' (frame_lent_ticks). */
static inline CP_NOINSTR void frame_close_timed(const struct frame *f, const struct frame *parent,
						uint64_t now_ticks)
{
	struct cct_node *n = f->node;
	uint64_t d = now_ticks - frame_enter_ticks(f);
	int64_t self;

	if (parent->t_enter_ticks & FRAME_OWN_TIMED)
		parent->node->act_child_ticks += frame_lent_ticks(f->t_enter_ticks, d);
	frame_lasted(n, d);
	if (!(f->t_enter_ticks & FRAME_OWN_TIMED))
		return;
	self = (int64_t)d - (int64_t)n->act_child_ticks;
	n->incl_ticks += d;
	if (unlikely(d >= frames_heavy_ticks))
		n->long_ticks += d;
	n->heavy = n->long_ticks && n->long_ticks >= n->incl_ticks >> FRAME_HEAVY_SHARE_SHIFT;
	n->child_ticks += n->act_child_ticks;
	if (d < n->min_ticks)
		n->min_ticks = d;
	if (d > n->max_ticks)
		n->max_ticks = d;
	if (!(f->t_enter_ticks & FRAME_FIRST)) { /* integers: the hijacking exits use no SSE */
		uint64_t size = self < 0 ? (uint64_t)-self : (uint64_t)self;

		n->sample_calls++;
		n->sample_self += self;
		n->sample_self_sq += (cct_wide)size * size;
	}
}

/* Restarts open frame `f`'s time at `now_ticks` (a counts reset, a fork's
 * fresh tree), keeping its sampled-timing marks; an untimed one stays so. */
static inline CP_NOINSTR void frame_restart(struct frame *f, uint64_t now_ticks)
{
	if (!frames_sampled || f->t_enter_ticks)
		f->t_enter_ticks = (f->t_enter_ticks & FRAME_TIMING) | now_ticks;
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
 * adds no time; and its CPU interval, if it has one (cold). */
void shadow_close_frame(struct shadow *s, uint32_t index, uint64_t now_ticks);

/* CPU time (cputime.h), cold.  shadow_cpu_open: the call about to be pushed
 * as frame `index` reads the CPU clock, before its enter reads the wall clock
 * (so neither read is in its time); entries of frames at or above it, left
 * behind by frames dropped without a close, go.  shadow_cpu_close: frame
 * `index`, just closed, reads it too, and its node settles whether its next
 * call reads it.  shadow_cpu_restart: the open intervals start again now (a
 * fork's child, whose CPU clock starts at 0; a counts reset). */
void shadow_cpu_open(struct shadow *s, uint32_t index);
void shadow_cpu_close(struct shadow *s, uint32_t index);
void shadow_cpu_restart(struct shadow *s);

/* The node that the time of a call made from frame `index` of `s` is child
 * time of: the frame's node, looking through transparent frames (they carry
 * their caller's node) and nested folded ones (fold.h). */
struct cct_node *shadow_charge_node(const struct shadow *s, uint32_t index);

/* Sampled timing, for a stack that stops running (context.c): shadow_park
 * keeps its innermost SHADOW_PARKED own-timed frames' running sums (frames
 * deeper than those keep none: their nodes' sums go on as another context
 * leaves them); shadow_unpark, as it runs again, puts them back on their
 * nodes; shadow_park_restart starts them again, empty, with their frames (a
 * fork child's fresh tree).  shadow_parked_child_ticks: the callees' time
 * parked for frame `index` so far, or 0 (the dump of a stopped stack). */
void shadow_park(struct shadow *s);
void shadow_unpark(struct shadow *s);
void shadow_park_restart(struct shadow *s);
uint64_t shadow_parked_child_ticks(const struct shadow *s, uint32_t index);

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
