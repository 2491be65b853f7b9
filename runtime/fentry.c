/*
 * fentry.c: the -pg -mfentry front-end's hot path: what __fentry__ (fentry_entry.S)
 * calls at the start of every function.  Built with -mgeneral-regs-only: the
 * function's arguments are still in their registers, vector ones included,
 * and the fast path must leave them all as they are; everything else goes
 * through hijack_call_saved to fentry_cold.c.
 */
#include <stdint.h>
#include <string.h>

#include "compat.h"
#include "fentry.h"
#include "hijack.h"
#include "kind.h"
#include "tstate.h"

/* Called by fentry_entry.S. */
void fentry_enter(uintptr_t *slot, uintptr_t after, const uintptr_t *regs);

/*
 * The function whose first instruction called __fentry__, from the address
 * just after that call: `e8 rel32` (5 bytes: a call through the PLT, or
 * direct), `ff 15 rel32` (6: through the GOT, GCC's -fpic and PIE code), or
 * `67 e8 rel32` (6: the same relaxed by the linker when __fentry__ is in the
 * same module, the static archive).  A 0x67 before a direct call is taken
 * for the prefix only if the call lands on __fentry__ itself.
 */
static inline __attribute__((always_inline)) uintptr_t fentry_fn(uintptr_t after)
{
	const unsigned char *p = (const unsigned char *)after;
	int32_t rel;

	if (unlikely(p[-5] != 0xe8))
		return after - 6;
	if (unlikely(p[-6] == 0x67)) {
		memcpy(&rel, p - 4, sizeof(rel));
		if (after + (uintptr_t)(intptr_t)rel == (uintptr_t)fentry_entry)
			return after - 6;
	}
	return after - 5;
}

void fentry_enter(uintptr_t *slot, uintptr_t after, const uintptr_t *regs)
{
	uintptr_t fn = fentry_fn(after);

	if (likely(hijack_enter_fast(tstate_self, fn, slot, PROBE_FENTRY, FENTRY_WORD_PLAIN)))
		return;
	hijack_call_saved(fentry_enter_cold, fn, (uintptr_t)slot, (uintptr_t)regs);
}
