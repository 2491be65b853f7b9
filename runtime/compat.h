/* compat.h: small compiler helpers shared by every runtime file. */
#ifndef CALLPROF_COMPAT_H
#define CALLPROF_COMPAT_H

#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)
#define CP_EXPORT __attribute__((visibility("default")))
#define CP_NOINSTR __attribute__((no_instrument_function))
#define CP_COLD __attribute__((cold, noinline))
/* Orders the probe's busy flag against its body for a signal handler on the same thread. */
#define cp_barrier() __asm__ __volatile__("" ::: "memory")

#endif
