/*
 * gmon.c: a program linked with -pg, whose start-up (gcrt1.o) calls
 * __monstartup and registers _mcleanup: glibc's would start a SIGPROF timer
 * and write gmon.out at exit, callprof's do neither.  Prints the SigCgt line
 * of /proc/self/status: the signals with a handler.
 */
#include <stdio.h>
#include <string.h>

#include "e2e.h"

NOINLINE static int work(int i)
{
	return i * 2;
}

int main(void)
{
	char line[256];
	FILE *f = fopen("/proc/self/status", "r");
	int s = 0;

	for (int i = 0; i < 100; i++)
		s += work(i);
	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, "SigCgt:", 7))
			fputs(line, stdout);
	if (f)
		fclose(f);
	return s != 9900;
}
