/*
 * fentry_code.c: reading -pg -mfentry code (fentry.h): where a function's
 * call of __fentry__ ends, the address its nodes are keyed by.  Cold, and
 * below everything that asks (filters, argument plans, the dump).
 */
#include "fentry.h"

/* The instructions a -pg -mfentry function may start with, before its call of
 * __fentry__: endbr64 (-fcf-protection), and push %r10 (GCC's nested functions). */
static const unsigned char endbr64[] = { 0xf3, 0x0f, 0x1e, 0xfa };
static const unsigned char push_r10[] = { 0x41, 0x52 };

/* True if the code at `p` is `bytes` (n of them). */
static bool code_is(const unsigned char *p, const unsigned char *bytes, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i] != bytes[i])
			return false;
	return true;
}

uintptr_t fentry_call_end(uintptr_t fn)
{
	const unsigned char *p = (const unsigned char *)fn;

	if (code_is(p, endbr64, sizeof(endbr64)))
		p += sizeof(endbr64);
	if (code_is(p, push_r10, sizeof(push_r10)))
		p += sizeof(push_r10);
	if (p[0] == 0xe8) /* call rel32: direct, or through the PLT */
		return (uintptr_t)p + 5;
	if ((p[0] == 0xff && p[1] == 0x15) ||
	    (p[0] == 0x67 && p[1] == 0xe8)) /* through the GOT, or relaxed */
		return (uintptr_t)p + 6;
	return 0;
}
