/* basic.c: straight calls, a loop, calls through a function pointer, a function never called. */
#include "e2e.h"

/* Every function writes here, so no call is elided as useless. */
static volatile int sink;

NOINLINE static void leaf(int i)
{
	sink += i;
}

NOINLINE static void middle(int n)
{
	for (int i = 0; i < n; i++)
		leaf(i);
}

NOINLINE static void top(void)
{
	for (int i = 0; i < 3; i++)
		middle(2);
}

NOINLINE static int add(int a, int b)
{
	return a + b;
}

NOINLINE static int mul(int a, int b)
{
	return a * b;
}

NOINLINE static void never_called(void)
{
	sink = -1;
}

int main(int argc, char **argv)
{
	int (*volatile op)(int, int);

	(void)argv;
	top();
	leaf(100);
	for (int i = 0; i < 5; i++) {
		op = add;
		sink += op(i, 1);
	}
	for (int i = 0; i < 7; i++) {
		op = mul;
		sink += op(i, 2);
	}
	if (argc > 100)
		never_called();
	return 0;
}
