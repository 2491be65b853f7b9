/*
 * plugin_fini.c: an instrumented library whose destructor calls its own
 * functions while dlclose unloads it.  Built twice, as libplugin_c.so and
 * libplugin_d.so (-DPLUGIN=c, -DPLUGIN=d): the same code at the same offsets
 * under other names, so that one loaded where the other was has its functions
 * at the same addresses.
 */
#include "e2e.h"

#define CAT2(a, b) a##b
#define CAT(a, b) CAT2(a, b)
#define NAME(suffix) CAT(CAT(plugin_, PLUGIN), suffix)

int NAME(_entry)(int n);

/* Every function writes here, so no call is elided as useless. */
static volatile int sink;

NOINLINE static void NAME(_helper)(int i)
{
	sink += i;
}

__attribute__((destructor)) NOINLINE static void NAME(_fini)(void)
{
	NAME(_helper)(-1);
}

int NAME(_entry)(int n)
{
	for (int i = 0; i < n; i++)
		NAME(_helper)(i);
	return sink;
}
