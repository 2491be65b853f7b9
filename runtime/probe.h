/*
 * probe.h: the probe core.  Every front-end that opens or closes a call goes
 * through it: hooks.c (-finstrument-functions), hijack.c and fentry.c
 * (-pg -mfentry, whose exits are hijacked returns), and the interposers that
 * close abandoned frames (nonlocal.c).  The fast paths are inline here; every
 * rare case is a call, in tail position, into probe.c, so the compiler keeps
 * no registers across a call in the fast path.
 *
 * A front-end's enter probe does
 *     probe_enter(tstate_self, fn, call_site, sp);
 * and its exit probe
 *     probe_exit(tstate_self, fn);
 * with these arguments:
 *   fn         the function's entry address, the same at its enter and its
 *              exit: the key of its tree node.
 *   call_site  the return address of the call that entered it (an address in
 *              its caller), or 0 when unknown: remembered on the call path's
 *              first call, to name the caller's source line.  -finstrument-
 *              functions passes it as the hook's second argument; a fentry
 *              front-end finds it at the stack pointer on entry; a library-
 *              call trampoline has the return address of the call into the PLT.
 *   sp         a stack address identifying the activation, for the liveness
 *              test (shadow.h): the probe of a function's callee always gives
 *              an sp at or below the function's own, so a frame whose sp is
 *              below a new probe's has been left without its exit probe.  It
 *              is at most the function's canonical frame address (CFA: the
 *              stack pointer before the call into it) minus 24, and 8-byte
 *              aligned (its low 3 bits mark frames, shadow.h).  -finstrument-
 *              functions gives the hook's frame address: the function's stack
 *              pointer at the hook's call minus 16 (return address, saved
 *              frame pointer), so at most CFA - 24; a fentry front-end, which
 *              runs before the prologue, gives CFA - 24.  Front-ends may then
 *              be mixed in one program, and where a longjmp or a catch resumes
 *              with stack pointer S, the frames with sp + SHADOW_PROBE_FRAME < S
 *              are the ones it abandoned.
 *   now        stamp_exit_first()'s value, read once the probe holds the
 *              thread's state (busy set, below), as probe_exit reads it: a
 *              signal handler that ran after an earlier read and before the
 *              hold would have closed calls of its own under this frame, and
 *              its children would then outlast it.
 *
 * The rules, here and nowhere else:
 * - The per-thread busy flag (tstate.busy) is set by the fast path of
 *   probe_enter or probe_exit after it has seen it clear, and cleared by
 *   whoever finishes that probe: the fast path itself, or the probe.c function
 *   it tail-calls (probe_enter_slow, probe_exit_slow and probe_exit_close are
 *   entered with it set and return with it clear).  A probe that finds it set
 *   is inside another probe (a signal handler's) and must not touch this
 *   state: probe_enter_unready and probe_exit_busy run it on the state of the
 *   next signal level (tstate.sig, made on the first need), which has a flag
 *   of its own, so a signal during a signal level's probe goes one level
 *   deeper; past the last level the enter is counted as dropped, and its exit
 *   finds it so (a front-end that holds the probe, below, counts the enter as
 *   dropped).  A thread's first probe (probe_enter_unready with no state)
 *   creates its state busy and clears it as probe_enter_slow does.
 *   Interposers take the state with probe_hold_level, which sets it, and give
 *   it back with probe_release.  A front-end that holds the probe
 *   (probe_hold, probe_hold_enter) clears it with probe_release; the _held
 *   functions in between never touch it.  Nothing else writes it; a thread
 *   that is not profiled has a state that is always busy and off
 *   (probe_silence lends a thread that state for a while).
 * - errno: every function of probe.c saves errno on entry and restores it on
 *   return, so a probe never changes the program's errno, whatever it had to
 *   do (start the runtime, map memory, read the signal stack).  The one
 *   exception, probe_exit_close, is the fast path's own tail under the fenced
 *   and monotonic clocks and for calls that read the CPU clock (a raw system
 *   call), and calls nothing that can set errno.
 * - No lock, no malloc, no libdw, anywhere in a probe: filters are decided
 *   when modules load (verdict.h), thread states are mapped and join the
 *   registry lock-free, start-up (process.h) allocates nothing.
 */
#ifndef CALLPROF_PROBE_H
#define CALLPROF_PROBE_H

#include <stdint.h>

#include "cct.h"
#include "compat.h"
#include "compensate.h"
#include "kind.h"
#include "meter.h"
#include "options.h"
#include "shadow.h"
#include "stamp.h"
#include "tstate.h"
#include "verdict.h"

/* The slow paths (probe.c), each called in tail position by the fast paths. */
void probe_enter_unready(struct tstate *t, uintptr_t fn, uintptr_t call_site, uintptr_t sp);
void probe_enter_slow(struct tstate *t, uintptr_t fn, uintptr_t call_site, uintptr_t sp);
void probe_exit_slow(struct tstate *t, uintptr_t fn, uint64_t now);
void probe_exit_close(struct tstate *t, struct frame *top, uint64_t now);
void probe_exit_busy(struct tstate *t, uintptr_t fn);

/* True if calls of `fn` are not recorded on `t`: filtered out (transparent
 * frames under -finstrument-functions), or nested deeper than
 * CALLPROF_MAX_DEPTH (or calibration's record_depth).  An undecided verdict
 * is counted.  A table look-up (verdict.h), built with general registers only
 * where the hijacking front-ends call it. */
static inline CP_NOINSTR bool probe_unrecorded(struct tstate *t, uintptr_t fn)
{
	enum verdict v;

	if (options.max_depth && t->stack.depth > options.max_depth)
		return true;
	if (unlikely(t->record_depth) && t->stack.depth >= t->record_depth)
		return true;
	if (!verdict_on || t->unfiltered || (v = verdict_of(fn)) == VERDICT_ADMIT)
		return false;
	if (v == VERDICT_UNDECIDED)
		t->undecided_calls++;
	return true;
}

/*
 * For the hijacking front-ends (-pg -mfentry, library calls), whose calls
 * need no frame when they are not recorded: nothing catches their return.
 * True, having counted the call among the top frame's node's unrecorded calls
 * of kind `kind`, when the call of `fn` whose probe gave `sp` is not recorded
 * and nothing rare stands in the way (dead frames, dropped ones); false,
 * having changed nothing, otherwise.  The probe held.  Its callees attach to
 * the top frame, as they would to a transparent one, and the depth limit
 * still holds: a call under one past it is past it too.
 */
static inline __attribute__((always_inline)) CP_NOINSTR bool
probe_skip_unrecorded_held(struct tstate *t, uintptr_t fn, uintptr_t sp, enum probe_kind kind)
{
	struct frame *top = &t->stack.base[t->stack.depth - 1];

	if (unlikely(top->sp < sp || t->dropped_depth) || !probe_unrecorded(t, fn))
		return false;
	top->node->unrecorded_calls[kind]++;
	return true;
}

/* Opens a call of `fn` on this thread, whose state is `t` (tstate_self). */
static inline __attribute__((always_inline)) CP_NOINSTR void
probe_enter(struct tstate *t, uintptr_t fn, uintptr_t call_site, uintptr_t sp)
{
	struct shadow *s;
	struct frame *top;
	struct cct_node *node;
	bool metered;

	if (unlikely(!t || t->busy)) {
		probe_enter_unready(t, fn, call_site, sp);
		return;
	}
	t->busy = 1;
	cp_barrier();
	s = &t->stack;
	top = &s->base[s->depth - 1];
	metered = meter_enter_begin(t, top);
	if (unlikely(top->sp < sp || s->depth == s->cap || t->dropped_depth))
		goto slow;
	node = cct_child_find(&t->tree, top->node, fn);
	if (likely(node != NULL && !(node->cpu & CCT_CPU_READ))) /* else: cputime.h */
		goto found;
slow:
	probe_enter_slow(t, fn, call_site, sp);
	return;
found:
	node->calls++;
	top[1].fn = fn;
	top[1].node = node;
	top[1].sp = sp;
	s->depth++;
	stamp_enter(&top[1], node); /* last, so the probe's own work falls outside */
	meter_enter_end(t, metered, PROBE_PLAIN);
	cp_barrier();
	t->busy = 0;
}

/* Closes the call of `fn` on this thread, whose state is `t`, now: its time is
 * read first thing once the state is held (see `now` above). */
static inline __attribute__((always_inline)) CP_NOINSTR void probe_exit(struct tstate *t,
									uintptr_t fn)
{
	struct shadow *s;
	struct frame *top;
	uint64_t now;
	bool metered;

	if (unlikely(!t || t->busy)) {
		probe_exit_busy(t, fn); /* no state yet, or inside another probe */
		return;
	}
	t->busy = 1;
	cp_barrier();
	metered = meter_exit_begin(t);
	now = stamp_exit_first();
	s = &t->stack;
	top = &s->base[s->depth - 1];
	if (unlikely(top->fn != fn || t->dropped_depth)) {
		probe_exit_slow(t, fn, now);
		return;
	}
	/* Out of line: a call that read the CPU clock (cputime.h), or one the clock closes so. */
	if (unlikely(s->cpu_frame >= s->depth - 1) || !stamp_close(top, &now)) {
		probe_exit_close(t, top, now);
		return;
	}
	s->depth--;
	meter_exit_end(t, metered, top, now);
	cp_barrier();
	t->busy = 0;
}

/*
 * The held probe, for front-ends that do more inside one probe than open or
 * close a call (hijack.h: the return-address records of -pg -mfentry and of
 * library calls).  Such a front-end holds the probe itself: probe_hold sets
 * the busy flag when it finds it clear (false: no state yet, or inside
 * another probe), probe_release clears it, and in between the front-end opens
 * and closes calls with the _held functions below, which never touch it.
 */
static inline __attribute__((always_inline)) CP_NOINSTR bool probe_hold(struct tstate *t)
{
	if (unlikely(!t || t->busy))
		return false;
	t->busy = 1;
	cp_barrier();
	return true;
}

static inline __attribute__((always_inline)) CP_NOINSTR void probe_release(struct tstate *t)
{
	cp_barrier();
	t->busy = 0;
}

/*
 * This thread's state, held, for an enter that probe_hold could not take: a
 * thread's first probe creates the state (as probe_enter_unready does); an
 * enter inside another probe (a signal handler's) gets the state of the
 * signal level below it, held (tstate.level > 0), as probe_enter_unready
 * runs it there.  NULL when the enter is dropped (past the last level:
 * counted, as probe_enter counts it) or the thread is not profiled.  Saves
 * errno.
 */
struct tstate *probe_hold_enter(void);

/*
 * The fast path of opening a call of `fn` with the probe held: the node of
 * `fn` under the top frame when nothing rare stands in the way (a dead frame,
 * a full stack, dropped frames, a new call path), else NULL, having changed
 * nothing.  probe_push_held then opens the call.
 */
static inline __attribute__((always_inline)) CP_NOINSTR struct cct_node *
probe_find_held(struct tstate *t, uintptr_t fn, uintptr_t sp)
{
	struct shadow *s = &t->stack;
	struct frame *top = &s->base[s->depth - 1];

	struct cct_node *node;

	if (unlikely(top->sp < sp || s->depth == s->cap || t->dropped_depth))
		return NULL;
	node = cct_child_find(&t->tree, top->node, fn);
	return likely(node != NULL && !(node->cpu & CCT_CPU_READ)) ? node : NULL; /* cputime.h */
}

/* Opens the call of `fn` at `node` (probe_find_held's), a call counted apart
 * as one of kind `kind` unless that is PROBE_PLAIN or its times are read with
 * fences; a front-end passes PROBE_PLAIN for the kind of its word, which the
 * node's fe_word already says (cct_word_kind). */
static inline __attribute__((always_inline)) CP_NOINSTR void
probe_push_held(struct tstate *t, struct cct_node *node, uintptr_t fn, uintptr_t sp,
		enum probe_kind kind)
{
	struct shadow *s = &t->stack;
	struct frame *f = &s->base[s->depth];

	node->calls++;
	if (kind != PROBE_PLAIN && !stamp_fences(node))
		node->kind_calls[kind - 1]++;
	f->fn = fn;
	f->node = node;
	f->sp = sp;
	s->depth++;
	stamp_enter(f, node); /* last, so the probe's own work falls outside */
}

/*
 * The fast path of counting a call of `fn` without a frame (probe_open_held
 * with `framed` false), the probe held: its node under the top frame gets
 * the call, of kind PROBE_COUNTED.  False, having changed nothing, when
 * anything rare stands in the way (as probe_find_held).
 */
static inline __attribute__((always_inline)) CP_NOINSTR bool
probe_count_fast_held(struct tstate *t, uintptr_t fn, uintptr_t sp)
{
	struct cct_node *node = probe_find_held(t, fn, sp);

	if (unlikely(!node))
		return false;
	node->calls++;
	node->kind_calls[PROBE_COUNTED - 1]++;
	return true;
}

/* What probe_open_held did with a call. */
enum probe_opened {
	PROBE_FRAMED,   /* a frame was pushed: its exit must come (probe_close_held) */
	PROBE_FRAMELESS /* counted without a frame, or dropped: no exit must come */
};

/*
 * Opens a call of `fn` in any case, the probe held: probe_enter's slow path
 * (dead frames, a new call path, filters, the node budget), with one
 * difference.  Where probe_enter drops a call for want of room on the stack
 * (its exit then skipped), this counts it under the caller's node as a call
 * of kind PROBE_COUNTED, with no frame and no time of its own; and so when
 * `framed` is false (the front-end cannot catch this call's exit).  A call
 * that is not recorded gets no frame either (PROBE_FRAMELESS): it is counted
 * among the top frame's node's unrecorded calls, as probe_skip_unrecorded_held
 * does on the fast path.  `kind` is
 * the front-end's kind of call (kind.h), made known to the dump here; a
 * frame's node counts it apart (as probe_push_held) unless it is the kind of
 * the node's fe_word (cct_word_kind: derived, cct.h).  Saves errno.
 * probe_open_marked_held is the same, and a node it opens that has no fe_word
 * yet gets `word` first.
 */
enum probe_opened probe_open_held(struct tstate *t, uintptr_t fn, uintptr_t call_site, uintptr_t sp,
				  enum probe_kind kind, bool framed);
enum probe_opened probe_open_marked_held(struct tstate *t, uintptr_t fn, uintptr_t call_site,
					 uintptr_t sp, enum probe_kind kind, uintptr_t word,
					 bool framed);

/*
 * Closes the call of `fn` whose enter gave `sp`, at `now` (stamp_exit_first's,
 * read with the probe held), the probe held.  For front-ends whose exits are certain (a hijacked return:
 * its function has no live callee left): frames above its own are closed,
 * calls dropped below it are forgotten, and when no frame matches (the
 * liveness test closed it already) the exit is counted as unmatched.
 * probe_close_fast_held is its fast path: false, having changed nothing, when
 * the call is not the top frame or its times are read with fences.
 */
void probe_close_held(struct tstate *t, uintptr_t fn, uintptr_t sp, uint64_t now);

/* (*now: stamp_close's.) */
static inline __attribute__((always_inline)) CP_NOINSTR bool
probe_close_fast_held(struct tstate *t, uintptr_t fn, uintptr_t sp, uint64_t *now)
{
	struct shadow *s = &t->stack;
	struct frame *top = &s->base[s->depth - 1];

	if (unlikely(top->fn != fn || (top->sp ^ sp) > (FRAME_FENCED | FRAME_MARKS) ||
		     t->dropped_depth || (top->sp & FRAME_FENCED) || s->cpu_frame >= s->depth - 1))
		return false;
	if (!stamp_close(top, now)) /* tsc-ordered, monotonic: `now` is the read they want */
		frame_close_any(top, top - 1, *now);
	s->depth--;
	return true;
}

/*
 * Silences this thread's probes until probe_unsilence(the value returned):
 * vfork's child borrows its parent's thread, memory and thread state, which
 * it must leave as they were; a thread writing a dump runs the program's
 * instrumented allocator, whose calls are no part of the program's profile.
 */
struct tstate *probe_silence(void);
void probe_unsilence(struct tstate *saved);

/*
 * For the interposers of non-local exits (nonlocal.c), on this thread:
 * probe_unwind closes the frames of functions that ran below `sp`, where a
 * longjmp or a caught exception resumes (see sp above); probe_unwind_alt, for
 * a jump out of a signal handler running on the alternate stack [lo, hi),
 * first closes the handler's frames (on that stack), then unwinds to `target`.
 */
void probe_unwind(uintptr_t sp);
void probe_unwind_alt(uintptr_t lo, uintptr_t hi, uintptr_t target);

/* For an unwinder resuming in the frame whose canonical frame address is
 * `cfa` (the stack pointer before the call into it), of the function that
 * starts at `fn`: closes the frames of the functions it called. */
void probe_unwind_frame(uintptr_t cfa, uintptr_t fn);

/* This thread's state for an interposer (non-local exits, context
 * switches): the signal level its code runs on, set busy; NULL when it has
 * none, is not profiled, or is inside a probe with no signal level to use.
 * probe_release clears busy. */
struct tstate *probe_hold_level(void);

/* The calibrated cost of one call of each kind, in ticks (calib.c sets it
 * after measuring): tsc-adaptive weighs a context's own work against it. */
void probe_set_costs(const struct comp_cost cost[PROBE_KINDS]);

#endif
