/*
 * returns.c: every kind of return and argument passing through the -pg -mfentry
 * front-end's entry and its return trampoline, checked by the program itself:
 * integers, long double and _Complex long double (x87), float and double,
 * small structs in rax:rdx and xmm0:xmm1, a large struct through the hidden
 * pointer, eight integer and nine double arguments (some on the stack), a
 * variadic function, GCC's nested function (static chain in r10), a chain of
 * tail calls sharing one return slot, values a caller keeps in registers
 * across calls, and 256-bit vector arguments and returns on a thread's very
 * first probe (returns_avx.c).  Prints "ok" and exits 0 when every value is right.
 */
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>

#include "e2e.h"

/* Where every function leaves something, so no call is elided. */
static volatile long sink;
static int failures;

#define CHECK(what, cond)                                  \
	do {                                               \
		if (!(cond)) {                             \
			printf("wrong: %s\n", what);       \
			failures++;                        \
		}                                          \
	} while (0)

NOINLINE static long double twice_ld(long double x)
{
	sink++;
	return x * 2;
}

NOINLINE static _Complex long double swap_cld(_Complex long double z)
{
	sink++;
	return __imag__ z + __real__ z * 1.0il;
}

NOINLINE static float half_f(float x)
{
	sink++;
	return x / 2;
}

NOINLINE static double sum_d(double x, double y)
{
	sink++;
	return x + y;
}

struct two_longs { long a, b; };
struct two_doubles { double x, y; };
struct big { long v[4]; };

NOINLINE static struct two_longs pair_l(long a)
{
	struct two_longs r = { a, a + 1 };

	sink++;
	return r;
}

NOINLINE static struct two_doubles pair_d(double x)
{
	struct two_doubles r = { x, x / 2 };

	sink++;
	return r;
}

NOINLINE static struct big big_of(long a)
{
	struct big r = { { a, a + 1, a + 2, a + 3 } };

	sink++;
	return r;
}

NOINLINE static double many(long a, long b, long c, long d, long e, long f, long g, long h, double x1,
			    double x2, double x3, double x4, double x5, double x6, double x7, double x8,
			    double x9)
{
	sink++;
	return (double)(a + b + c + d + e + f + g + h) + x1 + x2 + x3 + x4 + x5 + x6 + x7 + x8 + x9;
}

NOINLINE static double vsum(int n, ...)
{
	va_list ap;
	double s = 0;

	va_start(ap, n);
	for (int i = 0; i < n; i++)
		s += va_arg(ap, double);
	va_end(ap);
	return s;
}

/* A chain of tail calls at -O2: each jumps to the next, all return through tail2's slot. */
NOINLINE static int leaf(int x)
{
	sink++;
	return x * 3;
}

NOINLINE static int tail(int x)
{
	return leaf(x + 1);
}

NOINLINE static int tail2(int x)
{
	return tail(x + 1);
}

/* Small callees and a caller with many values live across the calls: were the
 * callers to keep them in registers the trampoline uses (GCC's -fipa-ra, which
 * -pg turns off), the sums would come out wrong. */
NOINLINE static long add1(long x)
{
	return x + 1;
}

NOINLINE static long live_across(long a, long b, long c, long d, long e, long f)
{
	long p = add1(a), q = add1(b), r = add1(c), s = add1(d), t = add1(e), u = add1(f);

	return p * 1 + q * 2 + r * 3 + s * 4 + t * 5 + u * 6 + a + b + c + d + e + f;
}

#ifndef __clang__
/* GCC's nested function: its static chain comes in r10. */
NOINLINE static int outer_nested(int base)
{
	NOINLINE int inner(int k)
	{
		return base + k;
	}
	return inner(1) + inner(2);
}
#else
NOINLINE static int outer_nested(int base)
{
	sink++;
	return 2 * base + 3;
}
#endif

/* returns_avx.c: runs on a thread of its own; 0 when its values were right. */
void *avx_thread(void *arg);

int main(void)
{
	pthread_t th;
	void *avx_failures = NULL;
	_Complex long double z = swap_cld(1.5L + 2.5il);
	struct two_longs tl = pair_l(7);
	struct two_doubles td = pair_d(3.0);
	struct big bg = big_of(9);

	CHECK("long double", twice_ld(1.25L) == 2.5L);
	CHECK("complex long double", __real__ z == 2.5L && __imag__ z == 1.5L);
	CHECK("float", half_f(3.0f) == 1.5f);
	CHECK("double", sum_d(1.25, 2.5) == 3.75);
	CHECK("struct in rax:rdx", tl.a == 7 && tl.b == 8);
	CHECK("struct in xmm0:xmm1", td.x == 3.0 && td.y == 1.5);
	CHECK("struct through memory", bg.v[0] == 9 && bg.v[3] == 12);
	CHECK("17 arguments", many(1, 2, 3, 4, 5, 6, 7, 8, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 1.0) == 41.0);
	CHECK("variadic", vsum(3, 1.0, 2.0, 4.5) == 7.5);
	CHECK("tail calls", tail2(1) == 9);
	CHECK("values live across calls", live_across(1, 2, 3, 4, 5, 6) == 21 + 21 + 91);
	CHECK("nested function", outer_nested(10) == 23);
	if (pthread_create(&th, NULL, avx_thread, NULL) != 0 || pthread_join(th, &avx_failures) != 0)
		CHECK("thread", 0);
	CHECK("256-bit vectors on a thread's first probe", avx_failures == NULL);
	if (!failures)
		printf("ok\n");
	return failures != 0;
}
