/*
 * bt.c: what code that reads its own return addresses sees in a hijacked
 * frame.  backtrace() and _Unwind_Backtrace walk the real stack (callprof
 * interposes them), so the lines they print are those of an unprofiled run;
 * __builtin_return_address(0) is the trampoline, callprof_return_trampoline,
 * in a profiled run (the last line, which the test compares apart).
 */
#include <dlfcn.h>
#include <execinfo.h>
#include <stdio.h>
#include <unwind.h>

#include "e2e.h"

/* The name of the function holding `addr`, for lines that do not depend on addresses. */
static const char *name_of(void *addr)
{
	Dl_info d;

	return dladdr(addr, &d) && d.dli_sname ? d.dli_sname : "?";
}

static _Unwind_Reason_Code count_frame(struct _Unwind_Context *ctx, void *arg)
{
	(void)ctx;
	++*(int *)arg;
	return _URC_NO_REASON;
}

NOINLINE static void c(void)
{
	void *buf[64];
	int n = backtrace(buf, 64), frames = 0;

	printf("backtrace: %d frames:", n);
	for (int i = 0; i < n && i < 4; i++)
		printf(" %s", name_of(buf[i]));
	printf("\n");
	_Unwind_Backtrace(count_frame, &frames);
	printf("_Unwind_Backtrace: %d frames\n", frames);
}

NOINLINE static void b(void)
{
	void *ra = __builtin_return_address(0);

	c();
	printf("return address of b: %s\n", name_of(ra));
}

NOINLINE void a(void);
NOINLINE void a(void)
{
	b();
	__asm__ __volatile__("");
}

int main(void)
{
	a();
	a(); /* again: the slots were hijacked again after the first backtrace */
	return 0;
}
