/*
 * altstack.h: an alternate signal stack for each profiled thread that has
 * none, so that a stack overflow's SIGSEGV still reaches the handler that
 * writes the profile (endsig.h).  A thread that sets its own keeps it.
 */
#ifndef CALLPROF_ALTSTACK_H
#define CALLPROF_ALTSTACK_H

#include <stdbool.h>

/* Set at start-up when the ending signals are handled (CALLPROF_ON_SIGNAL). */
extern bool altstack_wanted;

/* Gives this thread an alternate signal stack if it has none and one is wanted.
 * Cold: a thread's first probe; maps memory, makes system calls, keeps errno. */
void altstack_ensure(void);

/* At this thread's end: unmaps the stack it was given, if it still uses it. */
void altstack_release(void);

#endif
