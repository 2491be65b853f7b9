/* linkage_shared.c: the shared library's linkage (linkage.h): _longjmp and the
 * exec and spawn functions (spawn.h) interposed, dlsym for the rest. */
#include "linkage.h"

#include <dlfcn.h>
#include <stddef.h>

#include "compat.h"
#include "nonlocal.h"
#include "spawn.h"

/* The real _longjmp, found at start-up (a jump may come from a signal handler). */
static jump_fn real__longjmp;

void linkage_setup(void)
{
	*(void **)&real__longjmp = dlsym(RTLD_NEXT, "_longjmp");
	spawn_setup();
}

jump_fn linkage_longjmp(void)
{
	return NULL;
}

bool linkage_own_code(uintptr_t addr)
{
	(void)addr;
	return false;
}

CP_EXPORT void _longjmp(struct __jmp_buf_tag env[1], int val)
{
	nonlocal_jump(&real__longjmp, "_longjmp", env, val);
}
