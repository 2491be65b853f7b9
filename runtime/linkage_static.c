/*
 * linkage_static.c: the archive's linkage (linkage.h).  The archive does not
 * interpose _longjmp, so this reference is the C library's own: libc.so's in a
 * dynamic program, libc.a's longjmp.o in a static one, whose weak longjmp and
 * siglongjmp then give way to the runtime's.  A statically linked program's
 * own _longjmp calls close their frames at the next probe instead.
 */
#include "linkage.h"

void linkage_setup(void) {}

jump_fn linkage_longjmp(void)
{
	return _longjmp;
}
