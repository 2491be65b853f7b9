/* liblccopy.c: an uninstrumented library for addr.c whose own memcpy calls are never probed. */
#include <string.h>

void lib_copy(char *dst, const char *src, size_t n);

void lib_copy(char *dst, const char *src, size_t n)
{
	memcpy(dst, src, n);
}
