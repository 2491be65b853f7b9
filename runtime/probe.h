/*
 * probe.h: the probe core.  Every front-end that opens or closes a call goes
 * through it: hooks.c (-finstrument-functions), libcall.c (calls into
 * libraries through patched GOT slots), and the interposers that close
 * abandoned frames (nonlocal.c).  The fast paths are inline here; every
 * rare case is a call, in tail position, into probe.c, so the compiler keeps
 * no registers across a call in the fast path.
 *
 * A front-end's enter probe does
 *     probe_enter(tstate_self, fn, call_site, sp);
 * (probe_enter_as for calls of another kind than plain: kind.h; a call whose
 * exit will never be seen is counted with probe_count instead), and its exit
 * probe
 *     uint64_t now = stamp_exit_first();   (its first act: see stamp.h)
 *     probe_exit(tstate_self, fn, now);
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
 *   now        stamp_exit_first()'s value, taken before anything else.
 *
 * The rules, here and nowhere else:
 * - The per-thread busy flag (tstate.busy) is set by the fast path of
 *   probe_enter_fast or probe_exit after it has seen it clear, and cleared by
 *   whoever finishes that probe: the fast path itself (probe_enter_fast also
 *   when it gives up), or the probe.c function probe_exit tail-calls
 *   (probe_exit_slow and probe_exit_close are entered with it set and return
 *   with it clear).  probe_enter_slow and probe_count set it themselves after
 *   seeing it clear, and clear it.  A probe that finds it set is inside
 *   another probe (a signal handler's): probe_enter_unready and probe_count
 *   count the call as dropped and leave the flag alone; probe_exit returns
 *   (its enter was dropped too).  A thread's first probe (probe_enter_unready
 *   or probe_count with no state) creates its state busy and clears it as
 *   probe_enter_slow does.  probe_unwind and probe_unwind_alt set and clear it
 *   themselves.  Nothing else writes it; a thread that is not profiled has a
 *   state that is always busy and off.
 * - errno: every function of probe.c saves errno on entry and restores it on
 *   return, so a probe never changes the program's errno, whatever it had to
 *   do (start the runtime, map memory, read the signal stack).  The one
 *   exception, probe_exit_close, is the fast path's own tail under the fenced
 *   and monotonic clocks and calls nothing that can set errno.
 * - No lock, no malloc, no libdw, anywhere in a probe: filters are decided
 *   when modules load (verdict.h), thread states are mapped and join the
 *   registry lock-free, start-up (process.h) allocates nothing.
 */
#ifndef CALLPROF_PROBE_H
#define CALLPROF_PROBE_H

#include <stdbool.h>
#include <stdint.h>

#include "cct.h"
#include "compat.h"
#include "compensate.h"
#include "kind.h"
#include "shadow.h"
#include "stamp.h"
#include "tstate.h"

/* The slow paths (probe.c), each called in tail position by the fast paths;
 * `kind` is the kind of call an enter makes (kind.h). */
void probe_enter_unready(struct tstate *t, uintptr_t fn, uintptr_t call_site, uintptr_t sp,
			 enum probe_kind kind);
void probe_enter_slow(struct tstate *t, uintptr_t fn, uintptr_t call_site, uintptr_t sp,
		      enum probe_kind kind);
void probe_exit_slow(struct tstate *t, uintptr_t fn, uint64_t now);
void probe_exit_close(struct tstate *t, struct frame *top, uint64_t now);

/*
 * The fast path of an enter of kind `kind`: true when the call is open; false,
 * with nothing changed, when it needs a slow path (probe_enter_slow or
 * probe_enter_unready, with the same arguments).  A front-end whose slow paths
 * must run in another context (the library calls' saves the vector state
 * first: libcall.h) calls this, and the slow path itself when it fails.
 */
static inline __attribute__((always_inline)) CP_NOINSTR bool
probe_enter_fast(struct tstate *t, uintptr_t fn, uintptr_t call_site, uintptr_t sp, enum probe_kind kind)
{
	struct shadow *s;
	struct frame *top;
	struct cct_node *node;

	(void)call_site; /* only a new node keeps it */
	if (unlikely(!t || t->busy))
		return false;
	t->busy = 1;
	cp_barrier();
	s = &t->stack;
	top = &s->base[s->depth - 1];
	if (unlikely(top->sp < sp || s->depth == s->cap || t->dropped_depth))
		goto slow;
	node = cct_child_find(&t->tree, top->node, fn);
	if (unlikely(node == NULL))
		goto slow;
	node->calls++;
	if (kind != PROBE_PLAIN) /* a library call's node is plain to the clock policy (probe.c) */
		node->kind_calls[kind - 1]++;
	top[1].fn = fn;
	top[1].node = node;
	top[1].sp = sp;
	s->depth++;
	stamp_enter(&top[1], node); /* last, so the probe's own work falls outside */
	cp_barrier();
	t->busy = 0;
	return true;
slow:
	cp_barrier();
	t->busy = 0;
	return false;
}

/* Opens a call of `fn` of kind `kind` on this thread, whose state is `t`. */
static inline __attribute__((always_inline)) CP_NOINSTR void
probe_enter_as(struct tstate *t, uintptr_t fn, uintptr_t call_site, uintptr_t sp, enum probe_kind kind)
{
	if (likely(probe_enter_fast(t, fn, call_site, sp, kind)))
		return;
	if (unlikely(!t || t->busy))
		probe_enter_unready(t, fn, call_site, sp, kind);
	else
		probe_enter_slow(t, fn, call_site, sp, kind);
}

/* Opens a call of `fn` on this thread, whose state is `t` (tstate_self). */
static inline __attribute__((always_inline)) CP_NOINSTR void
probe_enter(struct tstate *t, uintptr_t fn, uintptr_t call_site, uintptr_t sp)
{
	probe_enter_as(t, fn, call_site, sp, PROBE_PLAIN);
}

/*
 * Counts a call of `fn` of kind `kind` without opening a frame: for functions
 * that never return or return twice (exit, longjmp, setjmp, vfork: libcall.h),
 * and calls a front-end cannot follow to their end.  The call is counted in
 * the node under the innermost live frame (frames dead below `sp` are closed
 * first, filters apply), and keeps no time; callees it has attach to its
 * caller.  Out of line: such calls are rare.
 */
void probe_count(struct tstate *t, uintptr_t fn, uintptr_t call_site, uintptr_t sp, enum probe_kind kind);

/* Closes the call of `fn` on this thread, whose state is `t`, at `now`. */
static inline __attribute__((always_inline)) CP_NOINSTR void probe_exit(struct tstate *t, uintptr_t fn,
									 uint64_t now)
{
	struct shadow *s;
	struct frame *top;

	if (unlikely(!t || t->busy))
		return; /* no state yet, or inside another probe: its enter was dropped too */
	t->busy = 1;
	cp_barrier();
	s = &t->stack;
	top = &s->base[s->depth - 1];
	if (unlikely(top->fn != fn || t->dropped_depth)) {
		probe_exit_slow(t, fn, now);
		return;
	}
	if (!stamp_close(top, now)) {
		probe_exit_close(t, top, now);
		return;
	}
	s->depth--;
	cp_barrier();
	t->busy = 0;
}

/*
 * For the interposers of non-local exits (nonlocal.c), on this thread:
 * probe_unwind closes the frames of functions that ran below `sp`, where a
 * longjmp or a caught exception resumes (see sp above); probe_unwind_alt, for
 * a jump out of a signal handler running on the alternate stack [lo, hi),
 * first closes the handler's frames (on that stack), then unwinds to `target`.
 */
void probe_unwind(uintptr_t sp);
void probe_unwind_alt(uintptr_t lo, uintptr_t hi, uintptr_t target);

/* The calibrated cost of one call of each kind, in ticks (calib.c sets it
 * after measuring): tsc-adaptive weighs a context's own work against it. */
void probe_set_costs(const struct comp_cost cost[PROBE_KINDS]);

#endif
