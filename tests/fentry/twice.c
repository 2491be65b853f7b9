/*
 * twice.c: built with -finstrument-functions and -pg -mfentry both: each
 * function is probed by both front-ends, and must count once.
 */
#include <stdio.h>

#include "e2e.h"

NOINLINE static int f(int x)
{
	return x + 1;
}

NOINLINE static int g(int x)
{
	return f(x) * 2;
}

int main(void)
{
	int s = 0;

	for (int i = 0; i < 10; i++)
		s += g(i);
	printf("%d\n", s);
	return s != 110;
}
