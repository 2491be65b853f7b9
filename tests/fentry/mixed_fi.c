/* mixed_fi.c: the -finstrument-functions half of mixed.c. */
#include "e2e.h"
#include "mixed.h"

static volatile int sink;

NOINLINE static int fi_leaf(int x)
{
	sink += x;
	return x;
}

NOINLINE int fi_middle(int i)
{
	return fe_leaf(i) + fi_leaf(i);
}

NOINLINE void fi_deep(int n)
{
	if (n == 0)
		fe_jump();
	else
		fi_deep(n - 1);
	sink++;
}
