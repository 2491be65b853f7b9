/*
 * fentry.h: the -pg -mfentry front-end (fentry_entry.S, fentry.c, fentry_cold.c):
 * __fentry__ opens each call through the probe core and hijacks its return
 * (hijack.h); the trampoline closes it.  Calls of this front-end are of kind
 * PROBE_FENTRY (kind.h), and the nodes it opens carry the word
 * CCT_FE_FENTRY in fe_word (cct.h): FENTRY_WORD_PLAIN for a function whose
 * arguments are not captured, FENTRY_WORD_CAPTURE for one they are.
 *
 * The probe core's key of a -pg -mfentry function (probe.h's fn, its nodes'
 * fn) is not the function's first byte but the address just after its call of
 * __fentry__, which the probe has for free (finding the first byte from it
 * means decoding the call, endbr64 before it, a push of r10 in a nested
 * function: a nanosecond a call).  What is keyed by function start is keyed by
 * this address too when the function is -pg -mfentry code (the filters'
 * verdicts, the argument plans), and the dump names a key by the symbol that
 * holds it.
 */
#ifndef CALLPROF_FENTRY_H
#define CALLPROF_FENTRY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cct.h"

#define FENTRY_WORD_PLAIN CCT_FE_FENTRY
#define FENTRY_WORD_CAPTURE (CCT_FE_FENTRY | 4)

/*
 * The key of the -pg -mfentry function at `fn`: the address just after the
 * call of __fentry__ it starts with (after endbr64, and GCC's push of a nested
 * function's static chain), or 0 when it does not start with a call: it is
 * not -pg -mfentry code.  Reads the function's first bytes: for code that is
 * loaded (fentry_code.c).
 */
uintptr_t fentry_call_end(uintptr_t fn);

/*
 * The cold enter of a call of `fn` returning through the word at `slot`, with
 * the argument registers `regs` as fentry_entry.S saved them (rdi rsi rdx rcx r8
 * r9 rax r10) and the vector state saved in `state` (hijack_call_saved).
 * Returns 0, or FENTRY_COLD_HIJACKED when the return was hijacked, with
 * FENTRY_COLD_CAPTURED when the call's arguments were captured (args.h).
 */
#define FENTRY_COLD_HIJACKED 1u
#define FENTRY_COLD_CAPTURED 2u
uintptr_t fentry_enter_cold(uintptr_t fn, uintptr_t slot, uintptr_t regs, const void *state);

#endif
