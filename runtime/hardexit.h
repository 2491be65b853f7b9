/*
 * hardexit.h: _exit and _Exit, interposed by the shared library and the
 * archive alike: a program that ends by them (to skip its destructors, from a
 * signal handler, in a fork child) has its profile written first (endsig.h),
 * then ends as it asked.  In a program linked statically, the C library's own
 * exit() and abort() end through them too, after the profile is written or
 * with nothing to write: they then only end.
 */
#ifndef CALLPROF_HARDEXIT_H
#define CALLPROF_HARDEXIT_H

/* At start-up: finds the C library's own, which a vfork child or a signal
 * handler could not look up then (the loader's lock). */
void hardexit_setup(void);

#endif
