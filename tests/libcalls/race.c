/*
 * race.c: threads calling through a GOT while it is patched.  liblcracer.so
 * (instrumented) starts a thread from its constructor, inside dlopen, that
 * calls strlen through the library's own jump slot as fast as it can while
 * the runtime's dlopen points that slot at the library probe.  Once dlopen
 * has returned, the thread makes exactly 100000 more calls.  Every call's
 * result is checked.  Prints "calls TOTAL wrong WRONG".
 */
#include <dlfcn.h>
#include <stdio.h>

#include "e2e.h"

int main(int argc, char **argv)
{
	void *h;
	void (*go)(void);
	long (*finish)(long *wrong);
	long total, wrong = 0;

	if (argc < 2)
		return 2;
	if (!(h = dlopen(argv[1], RTLD_NOW))) {
		fprintf(stderr, "%s\n", dlerror());
		return 1;
	}
	*(void **)&go = dlsym(h, "racer_go");
	*(void **)&finish = dlsym(h, "racer_finish");
	go();
	total = finish(&wrong);
	printf("calls %ld wrong %ld\n", total, wrong);
	return wrong != 0;
}
