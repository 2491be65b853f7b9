/*
 * e2e.h: shared by the end-to-end test programs: keeps every call a real call
 * at -O2 with GCC and Clang, so call counts stay what the source says.
 */
#ifndef CALLPROF_E2E_H
#define CALLPROF_E2E_H

#if defined(__clang__)
#define NOINLINE __attribute__((noinline))
#else
/* noipa: no inlining, cloning (fn.constprop.0) or pure-call elision either. */
#define NOINLINE __attribute__((noinline, noipa))
#endif

#endif
