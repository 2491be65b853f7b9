/*
 * args_clone.c: functions whose calling convention the optimiser changed,
 * having seen every call: GCC clones dead2 as dead2.constprop.0 or
 * dead2.isra.0 (its plan refuses it: the clone's convention is not the
 * declaration's), Clang keeps the name and drops the unused parameter (the
 * plan reads x where DWARF says it is, and shows `unused` as unknown).
 */
#include <stdio.h>

__attribute__((noinline)) static int dead2(int unused, int x)
{
	return x * 2;
}

int main(int argc, char **argv)
{
	int s = 0;

	(void)argv;
	for (int i = 0; i < 3; i++)
		s += dead2(argc, 20 + i);
	printf("%d\n", s);
	return 0;
}
