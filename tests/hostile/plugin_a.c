/* plugin_a.c: an instrumented shared library that dl.c loads and unloads. */
#include "e2e.h"

int plugin_a_entry(int n);

/* Every function writes here, so no call is elided as useless. */
static volatile int sink;

NOINLINE static void plugin_a_helper(int i)
{
	sink += i;
}

int plugin_a_entry(int n)
{
	for (int i = 0; i < n; i++)
		plugin_a_helper(i);
	return sink;
}
