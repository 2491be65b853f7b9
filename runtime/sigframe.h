/*
 * sigframe.h: whether this thread runs a signal handler now, for the API
 * calls that must refuse there (callprof_dump: a dump needs malloc, libdw
 * and the runtime's locks, which the interrupted code may hold).  A handler
 * on the alternate stack is one; else the stack above is searched for the
 * frame the kernel pushes for a handler: the C library's restorer as the
 * return address, then a ucontext and a siginfo that check out.
 */
#ifndef CALLPROF_SIGFRAME_H
#define CALLPROF_SIGFRAME_H

#include <stdbool.h>

/* True if a signal handler's frame is live on this thread (cold: scans the stack). */
bool sigframe_in_handler(void);

#endif
