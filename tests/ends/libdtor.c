/*
 * libdtor.c: an instrumented library whose destructor calls lib_work() 3 times;
 * lib_entry() calls it once.  Linked or dlopen()ed and never closed, its
 * destructor runs at exit, before or after the runtime's dump.
 */
#include "e2e.h"

static volatile int sink;

NOINLINE void lib_work(void);
NOINLINE void lib_work(void)
{
	sink++;
}

void lib_entry(void);
void lib_entry(void)
{
	lib_work();
}

__attribute__((destructor)) static void lib_fini(void)
{
	for (int i = 0; i < 3; i++)
		lib_work();
}
