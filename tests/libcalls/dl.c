/*
 * dl.c: dlopen and dlclose of an instrumented library, 100 times.  Each time
 * plug_work calls strdup and free (libc) and u_work, in liblcu.so, an
 * uninstrumented library loaded and unloaded with it; u_work calls memcpy,
 * a library calling another library, never probed.  A library function
 * whose library was unloaded keeps its name.  strlen (an IFUNC) is called
 * by main and by plug_work, through two modules' slots: one function.
 * Calls: main 1, plug_work 100, strdup 100, free 100, u_work 100, memcpy 0,
 * strlen 200 (100 from main, 100 from plug_work).
 */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include "e2e.h"

static const char *volatile word = "word"; /* strlen stays a call */
static volatile size_t len;

int main(int argc, char **argv)
{
	for (int i = 0; i < 100; i++) {
		void *h = dlopen(argv[1], RTLD_LAZY);
		void (*work)(void);

		if (!h) {
			fprintf(stderr, "%s\n", dlerror());
			return 1;
		}
		*(void **)&work = dlsym(h, "plug_work");
		work();
		len = strlen(word);
		dlclose(h);
	}
	return argc < 2;
}
