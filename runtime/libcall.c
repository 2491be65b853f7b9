/*
 * libcall.c: the library-call front-end's hot path: what libcall_entry.S
 * calls for every call through a patched GOT slot.  Built with
 * -mgeneral-regs-only: the call's arguments are still in their registers,
 * vector ones included, and the fast path must leave them all as they are;
 * everything else goes through hijack_call_saved to libcall_cold.c.
 */
#include "libcall.h"

#include <signal.h>

#include "compat.h"
#include "hijack.h"
#include "probe.h"
#include "tstate.h"

/* What libcall_enter leaves libcall_entry.S to do (in rax and rdx): jump to
 * `target`; before that, with `busy` not NULL, write the trampoline into the
 * return slot and clear *busy: the probe's release (hijack.h,
 * HIJACK_FAST_PENDING). */
struct libcall_todo {
	uintptr_t target;
	volatile sig_atomic_t *busy;
};

/* Called by libcall_entry.S. */
struct libcall_todo libcall_enter(const struct libstub_entry *e, uintptr_t *slot);

/* A call counted without a frame (LIBSTUB_COUNT_ONLY) on the fast path: false,
 * having changed nothing, when it needs the slow one. */
static inline __attribute__((always_inline)) CP_NOINSTR bool
count_fast(struct tstate *t, uintptr_t fn, uintptr_t *slot)
{
	bool done;

	if (unlikely(!probe_hold(t)))
		return false;
	done = probe_count_fast_held(t, fn, HIJACK_SP(slot));
	probe_release(t);
	return done;
}

struct libcall_todo libcall_enter(const struct libstub_entry *e, uintptr_t *slot)
{
	struct tstate *t = tstate_self;

	if (likely(!(e->flags & LIBSTUB_COUNT_ONLY))) {
		enum hijack_fast fast =
			hijack_enter_fast(t, e->key, slot, PROBE_LIBRARY, LIBCALL_WORD, true);

		if (likely(fast == HIJACK_FAST_PENDING))
			return (struct libcall_todo){ e->target, &t->busy };
		if (fast == HIJACK_FAST_DONE)
			return (struct libcall_todo){ e->target, NULL };
	} else if (count_fast(t, e->key, slot)) {
		return (struct libcall_todo){ e->target, NULL };
	}
	/* The entry time again, after the vector state's restoring; the state read
	 * again too: a thread's first probe makes it in the cold path. */
	if (hijack_call_saved(libcall_enter_cold, (uintptr_t)e, (uintptr_t)slot, 0))
		hijack_restamp(tstate_self, e->key, slot, 0);
	return (struct libcall_todo){ e->target, NULL };
}
