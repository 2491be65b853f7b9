/*
 * dl.c: `dl DIR` loads DIR/libplugin_a.so, calls it and unloads it, 5 times.
 * `dl DIR swap` then loads and unloads DIR/libplugin_b.so and libplugin_a.so
 * in turn, 3 times each, so that each may take the other's place in memory.
 * `dl DIR twice` opens libplugin_a.so twice and calls it after each of the two
 * dlcloses but the last: the first unloads nothing.  `dl DIR fini` loads,
 * calls and unloads libplugin_c.so, whose destructor calls its functions, then
 * libplugin_d.so, the same code that may land where it was; it prints whether
 * it did.  Every plugin function must be named in the dump, with its library's path.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

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

/* Opens DIR/libplugin_a.so twice: a dlclose of one handle leaves it loaded. */
NOINLINE static int opened_twice(const char *dir)
{
	char path[4096];
	int (*fn)(int);
	void *h1, *h2;

	snprintf(path, sizeof(path), "%s/libplugin_a.so", dir);
	if (!(h1 = dlopen(path, RTLD_NOW | RTLD_LOCAL)) || !(h2 = dlopen(path, RTLD_NOW | RTLD_LOCAL)))
		return -1;
	*(void **)&fn = dlsym(h2, "plugin_a_entry");
	if (!fn)
		return -1;
	sink += fn(2);
	if (dlclose(h1) != 0)
		return -1;
	sink += fn(2);
	return dlclose(h2);
}

/* Loads and unloads DIR/libplugin_NAME.so, whose destructor runs at its
 * dlclose; its entry's address goes to *entry. */
NOINLINE static int with_destructor(const char *dir, const char *name, void **entry)
{
	char path[4096], sym[64];
	int (*fn)(int);
	void *h;

	snprintf(path, sizeof(path), "%s/libplugin_%s.so", dir, name);
	snprintf(sym, sizeof(sym), "plugin_%s_entry", name);
	if (!(h = dlopen(path, RTLD_NOW | RTLD_LOCAL)))
		return -1;
	*(void **)&fn = dlsym(h, sym);
	if (!fn)
		return -1;
	*entry = *(void **)&fn;
	sink += fn(2);
	return dlclose(h);
}

int main(int argc, char **argv)
{
	void *c_entry, *d_entry;

	if (argc < 2)
		return 1;
	if (argc > 2 && !strcmp(argv[2], "twice"))
		return opened_twice(argv[1]) ? 4 : 0;
	if (argc > 2 && !strcmp(argv[2], "fini")) {
		if (with_destructor(argv[1], "c", &c_entry) || with_destructor(argv[1], "d", &d_entry))
			return 5;
		printf("same_place %d\n", c_entry == d_entry);
		return 0;
	}
	for (int i = 0; i < 5; i++)
		if (call_plugin(argv[1], "plugin_a", "plugin_a_entry", 2) != 0)
			return 2;
	for (int i = 0; i < 3 && argc > 2; i++)
		if (call_plugin(argv[1], "plugin_b", "plugin_b_entry", 3) != 0 ||
		    call_plugin(argv[1], "plugin_a", "plugin_a_entry", 2) != 0)
			return 3;
	return 0;
}
