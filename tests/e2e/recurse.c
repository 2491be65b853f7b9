/* recurse.c: direct recursion (fib, a deep count-down) and mutual recursion (is_even/is_odd). */
#include "e2e.h"

static volatile long sink;

NOINLINE static long fib(int n)
{
	return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

NOINLINE static void count_down(int n)
{
	sink += n;
	if (n > 0)
		count_down(n - 1);
}

NOINLINE static int is_odd(unsigned n);

NOINLINE static int is_even(unsigned n)
{
	return n == 0 ? 1 : is_odd(n - 1);
}

NOINLINE static int is_odd(unsigned n)
{
	return n == 0 ? 0 : is_even(n - 1);
}

int main(void)
{
	sink = fib(20);
	count_down(1000);
	sink += is_even(10);
	return sink == 6765 + 500500 + 1 ? 0 : 1;
}
