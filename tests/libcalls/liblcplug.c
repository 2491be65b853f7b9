/* liblcplug.c: the instrumented library dl.c loads and unloads; it needs liblcu.so. */
#include <stdlib.h>
#include <string.h>

#include "e2e.h"

void plug_work(void);
void u_work(char *dst, const char *src);

static char *volatile kept;
static volatile size_t len;

void plug_work(void)
{
	char buf[32];

	kept = strdup("plugin");
	len = strlen(kept);
	u_work(buf, kept);
	free(kept);
}
