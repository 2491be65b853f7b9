/*
 * libcall.c: the library-call front-end's probes, over the probe core
 * (probe.h): entered from libcall_entry for every call through a patched GOT
 * slot.  The hot path: no lock, no malloc, no system call, no libc.
 */
#include "libcall.h"

#include <cpuid.h>

#include "compat.h"
#include "probe.h"
#include "tstate.h"

/* The vector state libcall_entry saves around the cold path (libcall.h). */
uint32_t libcall_xsave_bytes;
uint64_t libcall_xsave_mask;
uint8_t libcall_xsavec;
bool libcall_on;

/* The xsave components a slow path may change: SSE, AVX, the MPX bounds, the
 * AVX-512 opmask and upper halves (as glibc's lazy binding saves them). */
#define XSAVE_COMPONENTS 0xeeull

/* sp for the probe core: CFA - 24 (probe.h), the CFA being the slot + 8. */
static inline CP_NOINSTR uintptr_t frame_sp(const uintptr_t *slot)
{
	return (uintptr_t)slot - 16;
}

uintptr_t libcall_enter(const struct libstub_entry *e, uintptr_t *slot)
{
	struct tstate *t = tstate_self;

	if (unlikely(!t || t->busy))
		return 0; /* a thread's first probe, or one inside a probe: cold */
	/* Until the return hijack lands, every call is counted only. */
	probe_count(t, e->key, *slot, frame_sp(slot), PROBE_LIBRARY);
	return e->target;
}

uintptr_t libcall_enter_cold(const struct libstub_entry *e, uintptr_t *slot)
{
	probe_count(tstate_self, e->key, *slot, frame_sp(slot), PROBE_LIBRARY);
	return e->target;
}

/* The size, components and instruction of the xsave area (libcall.h). */
static void xsave_setup(void)
{
	unsigned a, b, c, d;
	uint32_t lo, hi;

	if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & bit_OSXSAVE) || __get_cpuid_max(0, NULL) < 0xd)
		return; /* no xsave: no AVX either, the saved xmm are the whole state */
	__asm__ __volatile__("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
	libcall_xsave_mask = ((uint64_t)hi << 32 | lo) & XSAVE_COMPONENTS;
	__cpuid_count(0xd, 0, a, b, c, d);
	libcall_xsave_bytes = (b + 63) & ~63u; /* the standard form's size: the compact one is no larger */
	__cpuid_count(0xd, 1, a, b, c, d);
	libcall_xsavec = (a & 2) != 0;
}

void libcall_setup(void)
{
	xsave_setup();
}

probe_kind_set libcall_kinds(void)
{
	return libcall_on ? 1u << PROBE_LIBRARY : 0;
}
