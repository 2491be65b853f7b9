/* early_lib.c: the library of early.c, with an instrumented constructor. */
#include "e2e.h"

int early_value(void);

static volatile int sink;

NOINLINE static void early_work(void)
{
	sink++;
}

__attribute__((constructor)) NOINLINE static void early_init(void)
{
	early_work();
}

/* Uninstrumented, so the program's calls are its own. */
__attribute__((no_instrument_function)) int early_value(void)
{
	return sink;
}
