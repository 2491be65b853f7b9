/*
 * dl.c: `dl DIR` loads DIR/libplugin_a.so, calls it and unloads it, 5 times.
 * `dl DIR swap` then loads and unloads DIR/libplugin_b.so and libplugin_a.so
 * in turn, 3 times each, so that each may take the other's place in memory.
 * Every plugin function must be named in the dump, with its library's path.
 */
#include <dlfcn.h>
#include <stdio.h>

#include "e2e.h"

/* Every function writes here, so no call is elided as useless. */
static volatile int sink;

NOINLINE static int call_plugin(const char *dir, const char *name, const char *entry, int n)
{
	char path[4096];
	int (*fn)(int);
	void *h;

	snprintf(path, sizeof(path), "%s/lib%s.so", dir, name);
	if (!(h = dlopen(path, RTLD_NOW | RTLD_LOCAL)))
		return -1;
	*(void **)&fn = dlsym(h, entry);
	if (!fn)
		return -1;
	sink += fn(n);
	return dlclose(h);
}

int main(int argc, char **argv)
{
	if (argc < 2)
		return 1;
	for (int i = 0; i < 5; i++)
		if (call_plugin(argv[1], "plugin_a", "plugin_a_entry", 2) != 0)
			return 2;
	for (int i = 0; i < 3 && argc > 2; i++)
		if (call_plugin(argv[1], "plugin_b", "plugin_b_entry", 3) != 0 ||
		    call_plugin(argv[1], "plugin_a", "plugin_a_entry", 2) != 0)
			return 3;
	return 0;
}
