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

/*
 * GCC's nested functions (their static chain comes in r10) call __fentry__
 * between `push %r10` and `pop %r10`: the word __fentry__ finds above its own
 * return address is the saved r10, the return slot the next one, and the
 * function starts at the push, 2 bytes before the call.
 */
#define POP_R10 0x5a41 /* 41 5a, little-endian */
#define PUSH_R10_BYTES 2
/* -fcf-protection puts endbr64 (f3 0f 1e fa) before the call: the function starts there. */
#define ENDBR64 0xfa1e0ff3u
#define ENDBR64_BYTES 4

void fentry_enter(uintptr_t *slot, uintptr_t after, const uintptr_t *regs)
{
	uintptr_t fn = fentry_fn(after);
	uint16_t next;
	uint32_t before;

	memcpy(&next, (const void *)after, sizeof(next));
	if (unlikely(next == POP_R10)) {
		slot++;
		fn -= PUSH_R10_BYTES;
	}
	memcpy(&before, (const void *)(fn - ENDBR64_BYTES), sizeof(before));
	if (unlikely(before == ENDBR64))
		fn -= ENDBR64_BYTES;

	if (likely(hijack_enter_fast(tstate_self, fn, slot, PROBE_FENTRY, FENTRY_WORD_PLAIN)))
		return;
	if (hijack_call_saved(fentry_enter_cold, fn, (uintptr_t)slot, (uintptr_t)regs))
		hijack_restamp(tstate_self, fn, slot);
}
