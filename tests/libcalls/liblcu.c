/* liblcu.c: an uninstrumented library, loaded and unloaded with liblcplug.so; its memcpy is never probed. */
#include <string.h>

void u_work(char *dst, const char *src);

static volatile size_t len = 7;

void u_work(char *dst, const char *src)
{
	memcpy(dst, src, len);
}
