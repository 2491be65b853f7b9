/*
 * dlmiss.c: a library that needs lazy binding: liblcmiss.so calls a function
 * nothing defines, from a function never called.  dlopen(RTLD_LAZY) must
 * still load it with library probes on (the runtime's dlopen asks for
 * RTLD_NOW, and falls back to the program's mode when that fails); its slot
 * for the missing function is listed as lazily bound, its call of strlen
 * (bound on its first call) too, and nothing is probed there.
 * Calls: main 1, miss_present 1 (through dlsym).  Exits 1 when dlopen failed.
 */
#include <dlfcn.h>
#include <stdio.h>

#include "e2e.h"

int main(int argc, char **argv)
{
	void *h = argc > 1 ? dlopen(argv[1], RTLD_LAZY) : NULL;
	int (*present)(const char *);

	if (!h) {
		fprintf(stderr, "%s\n", dlerror());
		return 1;
	}
	*(void **)&present = dlsym(h, "miss_present");
	return present("text") == 4 ? 0 : 2;
}
