/*
 * gmon.c: gprof's start-up and exit functions, made inert.  A program linked
 * with -pg (as `cc -pg -mfentry prog.c` does in one step) starts through
 * gcrt1.o, whose start-up calls __monstartup and registers _mcleanup with
 * atexit: glibc's would start a SIGPROF timer and write gmon.out into the
 * working directory at exit.  callprof's come first (preloaded, linked, or in
 * the static archive), so neither happens.
 */
#include "compat.h"

CP_EXPORT void __monstartup(unsigned long lowpc, unsigned long highpc);
CP_EXPORT void monstartup(unsigned long lowpc, unsigned long highpc);
CP_EXPORT void _mcleanup(void);

void __monstartup(unsigned long lowpc, unsigned long highpc)
{
	(void)lowpc;
	(void)highpc;
}

void monstartup(unsigned long lowpc, unsigned long highpc)
{
	(void)lowpc;
	(void)highpc;
}

void _mcleanup(void) {}
