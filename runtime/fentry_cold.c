/*
 * fentry_cold.c: the -pg -mfentry front-end's cold half: each enter that
 * leaves the fast path (fentry.c), with the vector state saved.
 */
#include "fentry.h"

#include "hijack.h"
#include "kind.h"

uintptr_t fentry_enter_cold(uintptr_t fn, uintptr_t slot, uintptr_t regs, const void *state)
{
	(void)regs;
	(void)state;
	return hijack_enter_slow(fn, (uintptr_t *)slot, PROBE_FENTRY, FENTRY_WORD_PLAIN, 0);
}
