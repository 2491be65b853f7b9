/*
 * hijack_fast.c: the hot half of the return hijack (hijack.h): the exit a
 * hijacked return takes through the trampoline, and the one-time probe of
 * how hijack_call_saved saves the vector state.  Built with
 * -mgeneral-regs-only: nothing here touches a vector or x87 register, which
 * may hold the function's return value (and the upper halves of ymm0 and
 * ymm1 only survive code that never executes a VEX instruction).
 */
#include <cpuid.h>
#include <stdint.h>

#include "compat.h"
#include "hijack.h"
#include "probe.h"
#include "stamp.h"
#include "tstate.h"

/* Bits of XCR0 kept by hijack_call_saved (hijack_tramp.S's SAVE_COMPONENTS), the
 * bytes its area has, and the value of hijack_save_mask that means fxsave. */
#define SAVE_COMPONENTS 0xe7u
#define SAVE_BYTES 4096u
#define SAVE_FXSAVE_ONLY (1u << 31)

/* What hijack_call_saved passes xsave (hijack_tramp.S); 0 until hijack_save_init. */
unsigned hijack_save_mask;

/* Called by hijack_tramp.S. */
void hijack_save_init(void);
uintptr_t hijack_exit_slow(uintptr_t slot, uintptr_t regs, uintptr_t now, const void *state);

static uint64_t read_xcr0(void)
{
	uint32_t lo, hi;

	__asm__ __volatile__("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
	return (uint64_t)hi << 32 | lo;
}

/* xsave where the processor and kernel have it and the kept components fit the
 * area at their offsets; else fxsave (no upper halves to keep there anyway). */
void hijack_save_init(void)
{
	unsigned a, b, c, d, mask = SAVE_FXSAVE_ONLY;

	if (__get_cpuid(1, &a, &b, &c, &d) && (c & bit_XSAVE) && (c & bit_OSXSAVE)) {
		unsigned want = (unsigned)read_xcr0() & SAVE_COMPONENTS;
		unsigned fits = 1;
		for (unsigned i = 2; i < 8; i++) {
			if (!(want & 1u << i))
				continue;
			__cpuid_count(0xd, i, a, b, c, d);
			fits &= a + b <= SAVE_BYTES; /* size + offset */
		}
		if (fits)
			mask = want;
	}
	__atomic_store_n(&hijack_save_mask, mask, __ATOMIC_RELAXED);
}

uintptr_t hijack_exit(uintptr_t *slot, const uintptr_t regs[2])
{
	uint64_t now = stamp_exit_first();
	struct tstate *t = tstate_self;

	if (likely(probe_hold(t))) {
		struct hijack_stack *h = &t->ret;
		struct hijack_rec *r = h->depth ? &h->base[h->depth - 1] : NULL;

		if (likely(r && r->slot == slot && !r->aux) &&
		    likely(probe_close_fast_held(t, r->fn, HIJACK_SP(slot), now))) {
			uintptr_t orig = r->orig;

			h->depth--;
			*slot = orig;
			probe_release(t);
			return orig;
		}
		probe_release(t);
	}
	return hijack_call_saved(hijack_exit_slow, (uintptr_t)slot, (uintptr_t)regs, now);
}
