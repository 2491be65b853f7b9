/*
 * mixed.c: one program, two front-ends: this file is built with -pg -mfentry,
 * mixed_fi.c with -finstrument-functions.  Calls cross from one to the other
 * and back (main > fe_outer > fi_middle > fe_leaf, and fi_middle > fi_leaf),
 * and a longjmp crosses both kinds of frame: one tree per thread, exact edges.
 */
#include <setjmp.h>
#include <stdio.h>

#include "e2e.h"
#include "mixed.h"

static jmp_buf env;
static volatile int sink;

NOINLINE int fe_leaf(int x)
{
	sink += x;
	return x + 1;
}

NOINLINE void fe_jump(void)
{
	longjmp(env, 1);
}

NOINLINE static int fe_outer(int i)
{
	return fi_middle(i) + 1;
}

NOINLINE static void fe_catcher(void)
{
	if (!setjmp(env))
		fi_deep(3);
	fe_leaf(0);
}

int main(void)
{
	int s = 0;

	for (int i = 0; i < 100; i++)
		s += fe_outer(i);
	for (int i = 0; i < 10; i++)
		fe_catcher();
	printf("%d\n", s);
	return 0;
}
