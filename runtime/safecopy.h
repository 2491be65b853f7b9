/*
 * safecopy.h: reading a C string through a pointer that may be bad, without
 * crashing the program: a byte-copy loop whose one load, if it faults, is
 * resumed past by a SIGSEGV/SIGBUS handler that recognises it by its address
 * (a user-space exception table) and hands every other fault to the program's
 * own handler, or the default action.  While the handler is installed, the
 * interposed sigaction() (endsig.c) asks safecopy_sigaction first, so a
 * handler the program sets later becomes the one it chains to instead of
 * replacing it.  About 40 ns
 * for 32 bytes; a fault costs a signal's delivery.
 */
#ifndef CALLPROF_SAFECOPY_H
#define CALLPROF_SAFECOPY_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>

/* What safecopy_string did. */
struct safecopy_result {
	size_t n;     /* bytes copied, the terminating NUL included if one was met */
	size_t fault; /* 1 if reading stopped at a byte that cannot be read */
};

/* Copies at most `max` bytes of the string at `src` into `dst`, up to and
 * including its NUL.  Safe for any `src` once safecopy_setup has run. */
struct safecopy_result safecopy_string(char *dst, const char *src, size_t max);

/* Installs the handler, once.  False if it could not be (then safecopy_string
 * must not be given a pointer that may be bad).  Cold. */
bool safecopy_setup(void);

/* True once the handler is installed. */
bool safecopy_ready(void);

/*
 * For the interposed sigaction: true when `sig` is one the handler stands in
 * front of (SIGSEGV, SIGBUS, once installed), having done the program's
 * sigaction on the program's action it keeps (its result in *rc); false when
 * the real sigaction is the one to call.  Async-signal-safe.
 */
bool safecopy_sigaction(int sig, const struct sigaction *act, struct sigaction *old, int *rc);

#endif
