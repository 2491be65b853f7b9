/*
 * wide.c: the wide workload: a driver calls 128 distinct small leaf functions,
 * R times over (R*129 calls, plus main).  128 children under one calling
 * context is past any small inline child table, so this exercises the
 * profiler's child lookup where it cannot be a one-slot hit.
 * usage: wide [R]
 */
#include <stdio.h>
#include <stdlib.h>

/* What the leaves write, so they cannot be folded away. */
static volatile unsigned long sink;

#define LEAF(i) __attribute__((noinline)) static void leaf_##i(void) { sink += i; }
#define L8(a) LEAF(a##0) LEAF(a##1) LEAF(a##2) LEAF(a##3) LEAF(a##4) LEAF(a##5) LEAF(a##6) LEAF(a##7)
L8(1) L8(2) L8(3) L8(4) L8(5) L8(6) L8(7) L8(8) L8(9) L8(10) L8(11) L8(12) L8(13) L8(14) L8(15) L8(16)

#define C8(a) leaf_##a##0(); leaf_##a##1(); leaf_##a##2(); leaf_##a##3(); \
	leaf_##a##4(); leaf_##a##5(); leaf_##a##6(); leaf_##a##7();

__attribute__((noinline)) static void drive(void)
{
	C8(1) C8(2) C8(3) C8(4) C8(5) C8(6) C8(7) C8(8)
	C8(9) C8(10) C8(11) C8(12) C8(13) C8(14) C8(15) C8(16)
}

int main(int argc, char **argv)
{
	long r = argc > 1 ? atol(argv[1]) : 40000;

	for (long i = 0; i < r; i++)
		drive();
	printf("%lu\n", sink);
	return 0;
}
