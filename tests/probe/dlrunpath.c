/*
 * dlrunpath.c: dlopen of a bare library name found through the program's own
 * DT_RUNPATH, with the runtime's dlopen interposed: the library must be found
 * as if the program had called the real dlopen (whose search path is its
 * caller's).  The library's instrumented constructor runs inside dlopen,
 * before filters can be decided for it.  Exits 0 when the library loaded.
 * Calls: main 1, load 1, plugrp_entry 1; without filters plugrp_init 1 and
 * plugrp_init_work 1 (with filters these two are undecided: not recorded, counted).
 */
#include <dlfcn.h>
#include <stdio.h>

#include "e2e.h"

NOINLINE static int load(void)
{
	int (*entry)(void);
	void *h = dlopen("libplugrp.so", RTLD_NOW);

	if (!h) {
		fprintf(stderr, "dlopen: %s\n", dlerror());
		return 1;
	}
	*(void **)&entry = dlsym(h, "plugrp_entry");
	return entry && entry() == 7 ? 0 : 2;
}

int main(void)
{
	return load();
}
