/*
 * modscan.h: whether instrumented code is loaded: a module whose relocations
 * import the probes (__cyg_profile_func_enter, __fentry__, mcount), or a
 * runtime linked into the program itself.  Read from the modules' dynamic
 * sections, without libdw: cheap enough for start-up and for every dlopen.
 */
#ifndef CALLPROF_MODSCAN_H
#define CALLPROF_MODSCAN_H

#include <stdbool.h>

/* True if a module loaded now calls the probes.  Takes the loader's lock. */
bool modscan_probed_loaded(void);

#endif
