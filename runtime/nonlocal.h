/*
 * nonlocal.h: non-local exits.  longjmp (and its siblings) and a caught C++
 * exception resume a function higher on the stack without the exit probes of
 * the functions in between (Clang runs none while unwinding).  The runtime
 * interposes them and closes the abandoned frames where control lands, so
 * later calls attach to the right parent.
 */
#ifndef CALLPROF_NONLOCAL_H
#define CALLPROF_NONLOCAL_H

/* Looks up the real functions; at start-up, since longjmp may come from a signal handler. */
void nonlocal_setup(void);

#endif
