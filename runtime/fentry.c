/*
 * fentry.c: the -pg -mfentry front-end's hot path: what __fentry__ (fentry_entry.S)
 * calls at the start of every function.  Built with -mgeneral-regs-only: the
 * function's arguments are still in their registers, vector ones included,
 * and the fast path must leave them all as they are; everything else goes
 * through hijack_call_saved to fentry_cold.c.
 */
#include <signal.h>
#include <stdint.h>
#include <string.h>

#include "args.h"
#include "compat.h"
#include "fentry.h"
#include "hijack.h"
#include "kind.h"
#include "stamp.h"
#include "tstate.h"

/* What fentry_enter leaves fentry_entry.S to do (in rax and rdx): with `busy`
 * not NULL, write the trampoline into the return slot, FENTRY_SLOT_NEXT: the
 * word above it (a nested function's), and then clear *busy: the probe's
 * release (hijack.h, HIJACK_FAST_PENDING). */
struct fentry_todo {
	uintptr_t slot_next;
	volatile sig_atomic_t *busy;
};
#define FENTRY_SLOT_NEXT 1

/* Called by fentry_entry.S. */
struct fentry_todo fentry_enter(uintptr_t *slot, uintptr_t after, const uintptr_t *regs);

/*
 * GCC's nested functions (their static chain comes in r10) call __fentry__
 * between `push %r10` and `pop %r10`: the word __fentry__ finds above its own
 * return address is the saved r10, and the return slot the next one.
 */
#define POP_R10 0x5a41 /* 41 5a, little-endian */

/* `after`, just after the call in the function, is the call's key (fentry.h). */
struct fentry_todo fentry_enter(uintptr_t *slot, uintptr_t after, const uintptr_t *regs)
{
	struct tstate *t = tstate_self;
	uintptr_t fn = after, cold, next_slot = 0;
	enum hijack_fast fast;
	uint64_t began;
	uint16_t next;

	memcpy(&next, (const void *)after, sizeof(next));
	if (unlikely(next == POP_R10)) {
		slot++;
		next_slot = FENTRY_SLOT_NEXT;
	}

	fast = hijack_enter_fast(t, fn, slot, PROBE_FENTRY, FENTRY_WORD_PLAIN, true);
	if (likely(fast == HIJACK_FAST_PENDING))
		return (struct fentry_todo){ next_slot, &t->busy };
	if (fast == HIJACK_FAST_DONE)
		return (struct fentry_todo){ 0, NULL };
	/* A capture's cold path is timed (cct_node.capture_ticks), any other's not. */
	began = args_on ? stamp_enter_read() : 0;
	cold = hijack_call_saved(fentry_enter_cold, fn, (uintptr_t)slot, (uintptr_t)regs);
	if (cold) /* read again: a thread's first probe makes its state in the cold path */
		hijack_restamp(tstate_self, fn, slot, cold & FENTRY_COLD_CAPTURED ? began : 0);
	return (struct fentry_todo){ 0, NULL };
}
