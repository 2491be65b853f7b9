/*
 * fentry_cold.c: the -pg -mfentry front-end's cold half: each enter the fast
 * path (fentry.c) leaves, with the vector state saved: a function's first
 * calls, the rare cases of the hijack, and every call of a function whose
 * arguments are captured (args.h).
 */
#include "fentry.h"

#include "args.h"
#include "hijack.h"
#include "kind.h"
#include "probe.h"

uintptr_t fentry_enter_cold(uintptr_t fn, uintptr_t slot_addr, uintptr_t regs, const void *state)
{
	uintptr_t *slot = (uintptr_t *)slot_addr;
	const struct args_plan *plan = args_on ? args_plan_of(fn) : NULL;
	struct tstate *t;
	uintptr_t aux;
	bool hijacked;

	if (!plan || plan->refused)
		return hijack_enter_slow(fn, slot, PROBE_FENTRY, FENTRY_WORD_PLAIN, 0);
	if (!(t = probe_hold_enter()))
		return 0;
	/* A signal handler's call inside a probe runs on a signal level, which
	 * keeps no value profiles: counted and timed there, its values not kept. */
	aux = t->level ? 0 : args_enter(t, plan, slot, (const uintptr_t *)regs, state);
	hijacked = hijack_enter_held(t, fn, slot, PROBE_FENTRY, FENTRY_WORD_CAPTURE, aux);
	probe_release(t);
	return hijacked ? FENTRY_COLD_HIJACKED | FENTRY_COLD_CAPTURED : 0;
}
