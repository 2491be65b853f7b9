/*
 * nonlocal.h: non-local exits.  longjmp (and its siblings) and a caught C++
 * exception resume a function higher on the stack without the exit probes of
 * the functions in between (Clang runs none while unwinding).  The runtime
 * interposes them and closes the abandoned frames where control lands, so
 * later calls attach to the right parent.
 */
#ifndef CALLPROF_NONLOCAL_H
#define CALLPROF_NONLOCAL_H

#include <setjmp.h>

typedef void (*jump_fn)(struct __jmp_buf_tag *, int) __attribute__((noreturn));

/* Looks up the real functions; at start-up, since longjmp may come from a signal handler.
 * `fallback`: the C library's longjmp where dlsym finds none (linkage.h), or NULL. */
void nonlocal_setup(jump_fn fallback);

/* An interposed jump: closes the frames it abandons, then jumps with the real
 * function `*real` (looked up by `name` if not yet). */
__attribute__((noreturn)) void nonlocal_jump(jump_fn *real, const char *name,
					     struct __jmp_buf_tag *env, int val);

#endif
