/* liblcaddr.c: an uninstrumented library for addr.c: &memcpy as it sees it. */
#include <string.h>

void *lib_memcpy_address(void);

static void *(*volatile theirs)(void *, const void *, size_t);

void *lib_memcpy_address(void)
{
	theirs = memcpy;
	return (void *)theirs;
}
