/*
 * fib.c: the deep-recursion workload: fib(N), R times.  fib(N) makes
 * 2*fib(N+1)-1 calls (fib(30): 2,692,537), each one a few instructions.
 * usage: fib [N [R]]
 */
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) static long fib(int n)
{
	return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 30;
	int r = argc > 2 ? atoi(argv[2]) : 1;
	long sum = 0;

	for (int i = 0; i < r; i++)
		sum += fib(n);
	printf("%ld\n", sum);
	return 0;
}
