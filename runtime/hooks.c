/*
 * hooks.c: the -finstrument-functions front-end: the two probes GCC and Clang
 * call from every function built with -finstrument-functions, over the probe
 * core (probe.h).  The hot path: no lock, no malloc, no system call.
 */
#include <stdint.h>

#include "compat.h"
#include "probe.h"
#include "tstate.h"

CP_EXPORT void __cyg_profile_func_enter(void *fn, void *call_site);
CP_EXPORT void __cyg_profile_func_exit(void *fn, void *call_site);

/* sp: this hook's frame address, 16 below the function's stack pointer at the call (probe.h). */
void __cyg_profile_func_enter(void *fn, void *call_site)
{
	probe_enter(tstate_self, (uintptr_t)fn, (uintptr_t)call_site,
		    (uintptr_t)__builtin_frame_address(0));
}

void __cyg_profile_func_exit(void *fn, void *call_site)
{
	(void)call_site;
	probe_exit(tstate_self, (uintptr_t)fn);
}
