/*
 * libcall.c: the library-call front-end's hot path: what libcall_entry.S
 * calls for every call through a patched GOT slot.  Built with
 * -mgeneral-regs-only: the call's arguments are still in their registers,
 * vector ones included, and the fast path must leave them all as they are;
 * everything else goes through hijack_call_saved to libcall_cold.c.
 */
#include "libcall.h"

#include "compat.h"
#include "hijack.h"
#include "probe.h"
#include "tstate.h"

/* Called by libcall_entry.S. */
uintptr_t libcall_enter(const struct libstub_entry *e, uintptr_t *slot);

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

uintptr_t libcall_enter(const struct libstub_entry *e, uintptr_t *slot)
{
	struct tstate *t = tstate_self;

	if (likely(!(e->flags & LIBSTUB_COUNT_ONLY))) {
		if (likely(hijack_enter_fast(t, e->key, slot, PROBE_LIBRARY, LIBCALL_WORD)))
			return e->target;
	} else if (count_fast(t, e->key, slot)) {
		return e->target;
	}
	if (hijack_call_saved(libcall_enter_cold, (uintptr_t)e, (uintptr_t)slot, 0))
		hijack_restamp(t, e->key, slot,
			       0); /* the entry time, after the vector state's restoring */
	return e->target;
}
