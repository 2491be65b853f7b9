/* plugrp.c: the library dlrunpath.c loads by its bare name, with an instrumented constructor. */
#include "e2e.h"

int plugrp_entry(void);

static volatile int sink;

NOINLINE static void plugrp_init_work(void)
{
	sink++;
}

__attribute__((constructor)) NOINLINE static void plugrp_init(void)
{
	plugrp_init_work();
}

int plugrp_entry(void)
{
	return 7;
}
