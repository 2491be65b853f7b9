/* arch.h: the few machine-specific facts the runtime needs, with stubs elsewhere. */
#ifndef CALLPROF_ARCH_H
#define CALLPROF_ARCH_H

#include <stdint.h>

#include "compat.h"

#if defined(__x86_64__) && defined(__GLIBC__)
/*
 * The stack pointer a jmp_buf will restore.  glibc keeps it mangled in slot 6
 * (JB_RSP): rotated left by 17 bits after an xor with the pointer guard at
 * %fs:0x30.  Returns 0 where that is not known.
 */
static inline CP_NOINSTR uintptr_t arch_jmpbuf_sp(const void *env)
{
	uintptr_t guard, v = ((const uintptr_t *)env)[6];

	__asm__("mov %%fs:0x30, %0" : "=r"(guard));
	v = (v >> 17) | (v << (64 - 17));
	return v ^ guard;
}
#else
static inline CP_NOINSTR uintptr_t arch_jmpbuf_sp(const void *env)
{
	(void)env;
	return 0;
}
#endif

#endif
