/*
 * stacktrace.c: what libbacktrace, the library libstdc++'s std::stacktrace is
 * built on, sees in hijacked frames (Debian's GCC 12 has no std::stacktrace
 * itself: its libstdc++ is built without it).  backtrace_full names each
 * frame from the DWARF, as std::stacktrace_entry::description does: the lines
 * are those of an unprofiled run, c, b, a, main, since the unwinder it calls
 * (_Unwind_Backtrace) walks the real stack.  The last line says whether c's
 * own return address is the trampoline (it is, profiled): libbacktrace
 * walked through hijacked frames.
 */
#include <backtrace.h>
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include "e2e.h"

static volatile int sink;
static struct backtrace_state *state;

static int frame(void *data, uintptr_t pc, const char *file, int line, const char *fn)
{
	(void)data;
	(void)pc;
	(void)file;
	(void)line;
	printf("%s\n", fn ? fn : "?");
	return fn && !strcmp(fn, "main"); /* the C library's frames below main vary */
}

static void error(void *data, const char *msg, int errnum)
{
	(void)data;
	fprintf(stderr, "libbacktrace: %s (%d)\n", msg, errnum);
}

NOINLINE static void c(void)
{
	Dl_info d;
	void *ret = __builtin_return_address(0);

	backtrace_full(state, 0, frame, error, NULL);
	printf("return address of c: %s\n",
	       dladdr(ret, &d) && d.dli_sname ? d.dli_sname : "(in the program)");
	sink++;
}

NOINLINE static void b(void)
{
	c();
	sink++;
}

NOINLINE static void a(void)
{
	b();
	sink++;
}

int main(void)
{
	state = backtrace_create_state(NULL, 0, error, NULL);
	a();
	return 0;
}
