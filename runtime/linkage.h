/*
 * linkage.h: what differs between the shared library and the archive, each
 * linking its own definitions (Makefile): how the runtime reaches the C
 * library where dlsym(RTLD_NEXT) finds nothing, in a program linked
 * statically (-static) with the archive, which has no dynamic symbols.
 *   linkage_shared.c  (the shared library) interposes _longjmp too, and the
 *                     exec and spawn functions (spawn.c, in the shared library
 *                     only: the archive is never preloaded), and has nothing
 *                     more to give: dlsym finds the C library;
 *   linkage_static.c  (the archive) leaves _longjmp to the C library and names
 *                     it, so that a static link brings glibc's longjmp in; its
 *                     code lies inside the program's module, in one section.
 */
#ifndef CALLPROF_LINKAGE_H
#define CALLPROF_LINKAGE_H

#include <stdbool.h>
#include <stdint.h>

#include "nonlocal.h"

/* At start-up (the lifecycle's): looks up what the interposers of this linkage need. */
void linkage_setup(void);

/* The C library's longjmp under a name the runtime does not interpose
 * (_longjmp: in glibc every longjmp is one function), or NULL; the lifecycle
 * gives it to nonlocal_setup. */
jump_fn linkage_longjmp(void);

/* True if `addr` is in the runtime's own code where that code is part of the
 * program's module (the archive: runtime/archive.ld); the shared library is a
 * module of its own, never the program's, and says false. */
bool linkage_own_code(uintptr_t addr);

#endif
