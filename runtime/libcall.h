/*
 * libcall.h: the library-call front-end.  A call an instrumented module makes
 * through a patched GOT slot (got.h) reaches its function's stub (libstub.h),
 * then libcall_entry (libcall_entry.S), which saves the argument registers,
 * asks libcall_enter to open the call (kind PROBE_LIBRARY) and to take over its
 * return (the shared return hijack), and jumps on to the function with the
 * stack exactly as the caller left it.  Callbacks into instrumented code nest
 * below the library function's node.
 *
 * Functions that never return or return twice (exit, longjmp, setjmp, vfork,
 * execve: LIBSTUB_COUNT_ONLY) are counted with probe_count and never followed.
 *
 * The vector registers: libcall_entry saves only xmm0-7, with legacy SSE,
 * which leaves the upper halves of ymm/zmm alone, and the runtime is built
 * without AVX; but a slow path may run libc code that ends in vzeroupper
 * (thread attach, a stack that grows), which would destroy __m256 arguments.
 * So libcall_enter runs only the probes' fast paths and returns 0 when any
 * slow path is needed; libcall_entry then saves the whole vector state
 * (xsave) around libcall_enter_cold, which may do anything a probe may.
 */
#ifndef CALLPROF_LIBCALL_H
#define CALLPROF_LIBCALL_H

#include <stdbool.h>
#include <stdint.h>

#include "kind.h"
#include "libstub.h"

/* The common entry every stub jumps to, with its entry in %r11 (asm). */
void libcall_entry(void);

/* Called by libcall_entry with the stub's entry and the address of the
 * caller's return address: the function to jump to, or 0 to go through
 * libcall_enter_cold (with the vector state saved) instead. */
uintptr_t libcall_enter(const struct libstub_entry *e, uintptr_t *slot);
uintptr_t libcall_enter_cold(const struct libstub_entry *e, uintptr_t *slot);

/* How libcall_entry saves the vector state around the cold path (set by
 * libcall_setup from cpuid): bytes of the xsave area (0: fxsave-era machine,
 * nothing beyond the saved xmm to keep), the components, xsavec or xsave. */
extern uint32_t libcall_xsave_bytes;
extern uint64_t libcall_xsave_mask;
extern uint8_t libcall_xsavec;

/* Reads the vector state's size from cpuid, before the first stub is patched
 * in (whoever patches also gives libstub_setup the address of libcall_entry). */
void libcall_setup(void);

/* True once library calls are probed in this process (some slot was patched). */
extern bool libcall_on;

/* The kinds of call library probes make: PROBE_LIBRARY once they are on. */
probe_kind_set libcall_kinds(void);

#endif
