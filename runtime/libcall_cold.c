/*
 * libcall_cold.c: the library-call front-end's cold half: each enter that
 * leaves the fast path (libcall.c), with the vector state saved; and what the
 * rest of the runtime asks of the front-end.
 */
#include "libcall.h"

#include "hijack.h"
#include "probe.h"
#include "tstate.h"

bool libcall_on;

uintptr_t libcall_enter_cold(uintptr_t entry, uintptr_t slot_addr, uintptr_t unused,
			     const void *state)
{
	const struct libstub_entry *e = (const struct libstub_entry *)entry;
	uintptr_t *slot = (uintptr_t *)slot_addr;
	struct tstate *t;

	(void)unused;
	(void)state;
	if (!(e->flags & LIBSTUB_COUNT_ONLY))
		return hijack_enter_slow(e->key, slot, PROBE_LIBRARY, LIBCALL_WORD, 0);
	if ((t = probe_hold_enter())) { /* never followed: counted without a frame */
		probe_open_held(t, e->key, *slot, HIJACK_SP(slot), PROBE_LIBRARY, false);
		probe_release(t);
	}
	return 0;
}

probe_kind_set libcall_kinds(void)
{
	return libcall_on ? 1u << PROBE_LIBRARY : 0;
}
