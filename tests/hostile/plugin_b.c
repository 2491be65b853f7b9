/* plugin_b.c: a second instrumented library, the same shape as plugin_a.c under other names. */
#include "e2e.h"

int plugin_b_entry(int n);

/* Every function writes here, so no call is elided as useless. */
static volatile int sink;

NOINLINE static void plugin_b_helper(int i)
{
	sink += i;
}

int plugin_b_entry(int n)
{
	for (int i = 0; i < n; i++)
		plugin_b_helper(i);
	return sink;
}
