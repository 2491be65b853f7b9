/*
 * linkage_static.c: the archive's linkage (linkage.h).  The archive does not
 * interpose _longjmp, so this reference is the C library's own: libc.so's in a
 * dynamic program, libc.a's longjmp.o in a static one, whose weak longjmp and
 * siglongjmp then give way to the runtime's.  A statically linked program's
 * own _longjmp calls close their frames at the next probe instead.
 */
#include "linkage.h"

/* Defined by the program's link around the runtime's code (runtime/archive.ld);
 * weak, so a link that somehow lost the section still works (nothing is own). */
extern const char __start_callprof_text[] __attribute__((weak));
extern const char __stop_callprof_text[] __attribute__((weak));

void linkage_setup(void) {}

bool linkage_own_code(uintptr_t addr)
{
	return addr >= (uintptr_t)__start_callprof_text && addr < (uintptr_t)__stop_callprof_text;
}

jump_fn linkage_longjmp(void)
{
	return _longjmp;
}
