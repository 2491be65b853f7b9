/*
 * early.c: a program whose shared library (early_lib.c) has an instrumented
 * constructor.  Preloaded, the runtime's own constructor runs after it, so the
 * library's first probe starts the runtime.  Calls: early_init 1,
 * early_work 1, main 1, late 1.
 */
#include "e2e.h"

int early_value(void);

static volatile int sink;

NOINLINE static void late(void)
{
	sink += early_value();
}

int main(void)
{
	late();
	return 0;
}
