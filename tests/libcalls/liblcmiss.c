/* liblcmiss.c: an instrumented library with a call of a function nothing defines, never made. */
#include <string.h>

#include "e2e.h"

int miss_present(const char *s);
void miss_absent(void);
void lc_defined_nowhere(void);

int miss_present(const char *s)
{
	return (int)strlen(s);
}

void miss_absent(void)
{
	lc_defined_nowhere();
}
