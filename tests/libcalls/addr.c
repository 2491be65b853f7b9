/*
 * addr.c: a function's address is the same in every module with library
 * probes on (only jump slots are patched; an address taken comes from a
 * GOT entry that is not one), and a library calling another library is not
 * probed.  The program takes &memcpy and also calls memcpy 10 times: in a
 * PIE both go through one GOT entry, so those calls are listed as not probed
 * (through_got); in a non-PIE program the calls go through its PLT and are
 * probed.  liblccopy.so (not instrumented) calls memcpy from lib_copy, 50
 * times: never counted.  Prints "EQUAL" when the addresses agree.
 * Calls: main 1, lib_copy 50, lib_memcpy_address 1, memcpy 0 (PIE) or 10.
 */
#include <stdio.h>
#include <string.h>

#include "e2e.h"

void *lib_memcpy_address(void);
void lib_copy(char *dst, const char *src, size_t n);

static void *(*volatile mine)(void *, const void *, size_t);
static volatile size_t len = 16;

int main(void)
{
	char a[32], b[32] = "address equality";

	mine = memcpy; /* taken in code: through a GOT entry in a PIE */
	for (int i = 0; i < 10; i++)
		memcpy(a, b, len);
	for (int i = 0; i < 50; i++)
		lib_copy(a, b, len);
	puts((void *)mine == lib_memcpy_address() ? "EQUAL" : "DIFFERENT");
	return 0;
}
