/*
 * modscan.h: whether instrumented code is loaded: a module whose relocations
 * import the probes (__cyg_profile_func_enter, __fentry__, mcount), or a
 * runtime linked into the program itself.  Read from the modules' dynamic
 * sections, without libdw: cheap enough for start-up and for every dlopen.
 */
#ifndef CALLPROF_MODSCAN_H
#define CALLPROF_MODSCAN_H

#include <stdbool.h>
#include <stdint.h>

/* True if a module loaded now calls the probes.  Takes the loader's lock. */
bool modscan_probed_loaded(void);

/* True if the loaded module holding `addr` calls the probes, or if no loaded
 * module holds it (one unloaded since: it did).  A module whose function was
 * only named by another's probe (clang probes the C library's inline wrappers,
 * atoi among them, under their library's address) does not.  Takes the
 * loader's lock. */
bool modscan_module_probed(uintptr_t addr);

#endif
