/*
 * libcall.h: the library-call front-end.  A call an instrumented module makes
 * through a patched GOT slot (got.h) reaches its function's stub (libstub.h),
 * then libcall_entry (libcall_entry.S), which keeps the argument registers and
 * calls libcall_enter (libcall.c): it opens the call, of kind PROBE_LIBRARY,
 * and takes over its return (the shared return hijack, hijack.h), and the
 * entry jumps on to the function with the stack exactly as the caller left
 * it.  Callbacks into instrumented code nest below the library function's
 * node; the trampoline closes the call when it returns.
 *
 * Functions that never return or return twice, switch stacks or read their
 * caller's return address (exit, longjmp, setjmp, vfork, execve, dlsym:
 * LIBSTUB_COUNT_ONLY) are counted without a frame and never followed: calls
 * of kind PROBE_COUNTED, with no time of their own.
 *
 * The nodes library calls open carry LIBCALL_WORD in fe_word (cct.h).
 */
#ifndef CALLPROF_LIBCALL_H
#define CALLPROF_LIBCALL_H

#include <stdbool.h>
#include <stdint.h>

#include "cct.h"
#include "kind.h"
#include "libstub.h"

#define LIBCALL_WORD CCT_FE_LIBRARY

/* The common entry every stub jumps to, with its entry in %r11 (asm). */
void libcall_entry(void);

/* The cold enter of the call through entry `entry` (a struct libstub_entry)
 * returning through the word at `slot`, the vector state saved
 * (hijack_call_saved). */
uintptr_t libcall_enter_cold(uintptr_t entry, uintptr_t slot, uintptr_t unused, const void *state);

/* True once library calls are probed in this process (got_setup). */
extern bool libcall_on;

/* The kinds of call library probes make: PROBE_LIBRARY once they are on. */
probe_kind_set libcall_kinds(void);

#endif
