/*
 * hijack.h: catching a call's exit by swapping its return address for a
 * trampoline, for the front-ends whose probe runs only where a call begins:
 * -pg -mfentry (fentry.c) and calls into libraries through patched GOT slots.
 *
 * At the enter, the front-end knows where the call's return address lies
 * (`slot`: the stack word its caller's call instruction wrote; the called
 * function has not run a single instruction of its own yet).  The call is
 * opened through the probe core, {slot, *slot, fn} is pushed on the thread's
 * records (hijack_stack.h) and *slot becomes hijack_trampoline.  The call's
 * `ret` lands there (hijack_fast.c): the trampoline saves the return
 * registers, hijack_exit finds the innermost record of the slot, closes the
 * call through the core, writes the real address back and the trampoline
 * jumps to it.  A call reached by a tail jump from a hijacked one finds its
 * slot holding the trampoline already: its record keeps the trampoline as
 * its return address, and the chain returns through the trampoline once per
 * record.
 *
 * The records are the truth about the stack; the core's frames follow them.
 * - A record is popped when its call returns, or when it is found dead:
 *   its slot no longer holds the trampoline (the unwinder restored it, or a
 *   new call wrote there); a jump or a caught exception abandoned it
 *   (hijack_unwind: nonlocal.c's interposers); a call below it returned (a
 *   returning function has no live callee).  A record that merely looks
 *   dead by address is never popped: a coroutine's stack may lie anywhere.
 * - Only returns on the running context's stack (the thread's own, or a
 *   makecontext context's: context.c keeps records per context), or on the
 *   alternate signal stack, are hijacked.  A call elsewhere (a stack a
 *   coroutine library switched to by itself), or one
 *   whose slot lies above the innermost record on the same stack (a stack
 *   carved out of a frame below), or past the records' room, is counted
 *   without a frame (probe_open_held's PROBE_COUNTED): its count is exact,
 *   it has no time of its own, and its callees attach to its caller.
 * - The unwinder never follows a trampoline address: the trampoline's
 *   unwind information names a personality routine that writes the real
 *   return address back into each slot the unwinder is about to read (C++
 *   exceptions, rethrow, pthread_cancel and pthread_exit, GCC and Clang),
 *   and describes a frame whose return address is 0 (the end of the stack)
 *   while its slot still holds the trampoline, for unwinders that call no
 *   personality (gdb).  backtrace() and _Unwind_Backtrace are interposed:
 *   every live slot holds its real address while they run.  What else reads
 *   its own return address (__builtin_return_address(0) in a hijacked
 *   function) sees callprof_return_trampoline.
 * - A fork child keeps the records (it returns through the same frames);
 *   vfork's child runs with the probes silenced (it shares them).
 * - Everything touching the records runs with the probe held (probe.h).
 *
 * What a front-end provides: an assembly entry that keeps the registers of
 * the probed call it must (arguments), then calls C compiled with
 * -mgeneral-regs-only (fentry.c's flags in the Makefile), so that the fast
 * path below leaves every vector register alone, and with -mstackrealign,
 * since the entry leaves the stack as the probed call found it.  That C calls
 * hijack_enter_fast, whose hijacked calls the entry then finishes (the swap
 * of the return address, at a constant offset from %rsp: HIJACK_FAST_PENDING),
 * and, when it returns HIJACK_FAST_NO, hijack_enter_slow through
 * hijack_call_saved, which saves the whole vector and x87 state around it
 * (cold code calls libc, whose string functions clear the upper halves of
 * the ymm registers that may carry arguments).  The core's sp of such a call
 * is HIJACK_SP(slot): its canonical frame address minus 24 (probe.h).
 */
#ifndef CALLPROF_HIJACK_H
#define CALLPROF_HIJACK_H

#include <stdbool.h>
#include <stdint.h>

#include "compat.h"
#include "hijack_stack.h"
#include "kind.h"
#include "meter.h"
#include "probe.h"
#include "stamp.h"
#include "tstate.h"

/* The exit trampoline; its exported alias callprof_return_trampoline names it
 * to debuggers and dladdr. */
extern const char hijack_trampoline[] __attribute__((visibility("hidden")));
#define HIJACK_TRAMPOLINE ((uintptr_t)hijack_trampoline)

/* The core's sp (probe.h) of a call whose return address is at `slot`. */
#define HIJACK_SP(slot) ((uintptr_t)(slot)-16)

/*
 * Calls fn(a, b, c, state) with every vector, mask and x87 register saved
 * before and restored after (xsave, or fxsave where there is none), and
 * returns what it returns.  `state` is the save area: the fxsave layout's
 * xmm registers are at byte 160 + 16 * i (hijack_saved_xmm).
 */
uintptr_t hijack_call_saved(uintptr_t (*fn)(uintptr_t a, uintptr_t b, uintptr_t c,
					    const void *state),
			    uintptr_t a, uintptr_t b, uintptr_t c);

/* The value xmm register `i` had when hijack_call_saved saved `state`. */
static inline CP_NOINSTR const void *hijack_saved_xmm(const void *state, unsigned i)
{
	return (const char *)state + 160 + 16 * i;
}

/* True when a call returning through `slot` can be hijacked on the fast
 * path: room in the records, the slot on the thread's stack, and the
 * innermost record a live caller's (above, or the same slot: a tail call). */
static inline __attribute__((always_inline)) CP_NOINSTR bool
hijack_fits(const struct hijack_stack *h, uintptr_t *slot)
{
	const struct hijack_rec *r;

	if (unlikely(h->depth == h->cap ||
		     (uintptr_t)slot - h->stack_lo >= h->stack_hi - h->stack_lo))
		return false;
	if (unlikely(!h->depth))
		return true;
	r = &h->base[h->depth - 1];
	return likely(r->slot > slot) || (r->slot == slot && *slot == HIJACK_TRAMPOLINE);
}

/* Pushes the record of a call of `fn` returning through `slot`, whose return
 * address is then to be swapped for the trampoline.  The probe held, the room
 * checked. */
static inline __attribute__((always_inline)) CP_NOINSTR void
hijack_record(struct hijack_stack *h, uintptr_t *slot, uintptr_t fn, uintptr_t aux)
{
	struct hijack_rec *r = &h->base[h->depth++];

	r->slot = slot;
	r->orig = *slot;
	r->fn = fn;
	r->aux = aux;
}

/* The same, and the swap. */
static inline __attribute__((always_inline)) CP_NOINSTR void
hijack_push(struct hijack_stack *h, uintptr_t *slot, uintptr_t fn, uintptr_t aux)
{
	hijack_record(h, slot, fn, aux);
	*slot = HIJACK_TRAMPOLINE;
}

/* What the fast path of an enter did (hijack_enter_fast). */
enum hijack_fast {
	HIJACK_FAST_NO,      /* nothing: the caller takes the slow path */
	HIJACK_FAST_DONE,    /* the call hijacked, or counted as not recorded */
	HIJACK_FAST_PENDING, /* hijacked but for the swap, the probe still held: the
			      * front-end's assembly entry writes the trampoline into
			      * the slot, then releases the probe (below) */
};

/*
 * The fast path of an enter, on this thread (state `t`): a call of `fn`, of
 * kind `kind` (kind.h), returning through `slot`.  Opens it and hijacks its
 * return when nothing rare stands in the way: the probe free, the records
 * fitting, the call path known, and its node marked with the front-end's
 * word `word` (cct.h's fe_word: a node still unmarked, or marked otherwise,
 * takes the slow path, which marks it).  A call that is not recorded
 * (filtered out, too deep) is counted as such here and not hijacked
 * (probe_skip_unrecorded_held).  Returns HIJACK_FAST_NO, having changed
 * nothing, otherwise: the caller then calls hijack_enter_slow through
 * hijack_call_saved.
 *
 * With `pending` (a constant where this is inlined), a hijacked call is left
 * HIJACK_FAST_PENDING: the assembly entry that called the front-end's C swaps
 * the return address itself, with a store at a constant offset from %rsp,
 * and then releases the probe.  The hijacked function's `ret`, mispredicted
 * as every hijacked return is (its return stack names the caller), loads
 * that word back through %rsp: a store through a pointer from C, on a stack
 * realigned with `and`, made that misprediction about 3 ns dearer on this
 * project's AMD hosts (bench/FINDINGS.md).  The probe stays held until the
 * swap, so that no signal handler's probe finds the record with its slot
 * not swapped yet, and takes it for dead.
 */
static inline __attribute__((always_inline)) CP_NOINSTR enum hijack_fast
hijack_enter_fast(struct tstate *t, uintptr_t fn, uintptr_t *slot, enum probe_kind kind,
		  uintptr_t word, bool pending)
{
	uintptr_t sp = HIJACK_SP(slot);
	struct cct_node *node;
	bool metered;

	if (unlikely(!probe_hold(t)))
		return HIJACK_FAST_NO;
	metered = meter_enter_begin(t, &t->stack.base[t->stack.depth - 1]);
	if (unlikely(!(node = probe_find_held(t, fn, sp)))) {
		/* A call not recorded needs no record and no frame: done here. */
		bool skipped = probe_skip_unrecorded_held(t, fn, sp, kind);

		meter_enter_off(t, metered);
		probe_release(t);
		return skipped ? HIJACK_FAST_DONE : HIJACK_FAST_NO;
	}
	if (unlikely(!hijack_fits(&t->ret, slot)) || unlikely(node->fe_word != word)) {
		meter_enter_off(t, metered);
		probe_release(t);
		return HIJACK_FAST_NO;
	}
	if (pending)
		hijack_record(&t->ret, slot, fn, 0);
	else
		hijack_push(&t->ret, slot, fn, 0);
	/* The kind of `word` is the node's own (cct.h): not counted apart.  Both
	 * are constants where this is inlined, so the test costs nothing. */
	probe_push_held(t, node, fn, sp, kind == cct_word_kind(word) ? PROBE_PLAIN : kind);
	meter_enter_end(t, metered, kind);
	if (pending)
		return HIJACK_FAST_PENDING;
	probe_release(t);
	return HIJACK_FAST_DONE;
}

/*
 * After hijack_call_saved(hijack_enter_slow...) returned true: its restoring of
 * the vector state came after the call's entry time was read, so it is read
 * again (from the fast path's C: nothing saved).  The probe free, the call's
 * frame on top.  Not when a signal handler's calls ran on top of it since the
 * probe was free (hijack_enter_held left the frame above it empty, sp 0):
 * they are its callees, inside its time.  `began`, when not 0, is when the
 * cold path began (a call whose arguments were captured, args.h): what it
 * took up to the entry time goes to the node's capture_ticks.
 */
static inline __attribute__((always_inline)) CP_NOINSTR void
hijack_restamp(struct tstate *t, uintptr_t fn, uintptr_t *slot, uint64_t began)
{
	struct frame *top;

	if (unlikely(!probe_hold(t)))
		return;
	top = &t->stack.base[t->stack.depth - 1];
	if (top->fn == fn && (top->sp & ~(uintptr_t)7) == HIJACK_SP(slot) &&
	    t->stack.depth < t->stack.cap && !top[1].sp) {
		top->t_enter_ticks = stamp_enter_again(top);
		if (began) {
			uint64_t entered = top->t_enter_ticks ? frame_enter_ticks(top)
							      : stamp_enter_read(); /* untimed */
			top->node->capture_ticks += entered > began ? entered - began : 0;
		}
	}
	probe_release(t);
}

/*
 * Every case of an enter (the vector state saved): the thread's first probe,
 * records to map or grow or found dead, a return that cannot be hijacked
 * (counted without a frame), a new call path.  A node the call opens that is
 * not marked yet gets `word`; the record gets `aux` (0: no exit hook).
 * Returns true when the return was hijacked.  hijack_enter_held is the same
 * with the probe held already (probe_hold_enter: a front-end that records more
 * of the call in the same probe), which it leaves held.
 */
bool hijack_enter_slow(uintptr_t fn, uintptr_t *slot, enum probe_kind kind, uintptr_t word,
		       uintptr_t aux);
bool hijack_enter_held(struct tstate *t, uintptr_t fn, uintptr_t *slot, enum probe_kind kind,
		       uintptr_t word, uintptr_t aux);

/*
 * The exit hook: called, the probe held and the vector state saved, for a
 * record whose aux is not 0 when its call returns, before the core closes
 * it: `rec` is the record, `regs` the trampoline's saved rax and rdx,
 * `state` hijack_call_saved's area (xmm0, xmm1, st0), `now` the exit time.
 * One per process (the argument capture's); set before any such record.
 */
typedef void (*hijack_exit_hook)(struct tstate *t, const struct hijack_rec *rec,
				 const uintptr_t regs[2], const void *state, uint64_t now);
void hijack_set_exit_hook(hijack_exit_hook hook);

/* Called by the trampoline with the slot its call returned through and its
 * saved rax and rdx: closes the call, returns where to go (hijack_fast.c). */
uintptr_t hijack_exit(uintptr_t *slot, const uintptr_t regs[2]);

/* The slow exit and the personality routine (hijack.c), which hijack_fast.c
 * reaches through these pointers: hijack.c sets them before the first hijack,
 * so the hot half names nothing of the cold one.  The slow exit's `slot` has
 * HIJACK_EXIT_HELD set when hijack_exit holds this thread's probe and the
 * call's record tops its stack, `now` read then; otherwise the slow exit
 * finds the record's level, holds it and reads the time itself. */
#define HIJACK_EXIT_HELD ((uintptr_t)1)
typedef uintptr_t (*hijack_exit_slow_fn)(uintptr_t slot, uintptr_t regs, uintptr_t now,
					 const void *state);
extern hijack_exit_slow_fn hijack_exit_slow;
extern void *hijack_personality_fn;

/*
 * For the interposers of non-local exits (nonlocal.c), on this thread: the
 * records of calls a longjmp or a caught exception abandons, below `sp`
 * where it resumes (as probe_unwind), are popped; hijack_unwind_alt first
 * pops those on the alternate stack [lo, hi) a jump leaves.  Both also close
 * the core's frames (probe_unwind, probe_unwind_alt).
 */
void hijack_unwind(uintptr_t sp);
void hijack_unwind_alt(uintptr_t lo, uintptr_t hi, uintptr_t target);

/* The real return address of a call returning through `slot` on this thread:
 * *slot, or the one its record keeps while the slot holds the trampoline (for
 * the runtime's own interposers reached through a hijacked call, which need
 * their caller: dlwatch.c). */
uintptr_t hijack_return_address(const uintptr_t *slot);

/* Looks up the real backtrace and _Unwind_Backtrace; at start-up. */
void hijack_setup(void);

#endif
