/*
 * args.c: functions whose arguments and return values CALLPROF_ARGS captures,
 * each called with known values, so the dump's value profiles can be checked
 * exactly: integers of every width and sign (the last two on the stack),
 * enums, bool, char, float and double, C strings (valid, NULL, longer than
 * the 32 bytes kept, pointing at memory that cannot be read and at an address
 * nothing is mapped at), structs in
 * registers, eight integer arguments, a variadic function, recursion, and
 * return values of each kind.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

#include "e2e.h"

enum color { RED, GREEN = 5, BLUE = -2 };
struct pair { int a; double b; };     /* rdi-class and xmm-class halves */
struct two { long x, y; };            /* two integer registers */
struct twod { double x, y; };         /* two vector registers */
struct big { long v[4]; };            /* returned in memory */

static volatile long sink;


NOINLINE long widths(signed char sc, unsigned char uc, short s, unsigned short us, int i, unsigned u, long l,
		     unsigned long long ull)
{
	sink++; /* not pure: both calls happen */
	return sc + uc + s + us + i + (long)u + l + (long)ull;
}

NOINLINE int misc(enum color c, bool b, char ch, float f, double d, const char *str)
{
	sink += c + b + ch + (long)f + (long)d + (str ? 1 : 0);
	return c;
}

NOINLINE double structs(struct pair p, struct two t)
{
	return p.a + p.b + (double)(t.x + t.y);
}

NOINLINE int vformat(const char *fmt, int n, ...)
{
	va_list ap;
	int s = 0;

	va_start(ap, n);
	for (int i = 0; i < n; i++)
		s += va_arg(ap, int);
	va_end(ap);
	return s + (fmt ? fmt[0] : 0);
}

NOINLINE long fact(int n)
{
	return n <= 1 ? 1 : n * fact(n - 1);
}

NOINLINE enum color ret_enum(int k) { return k ? BLUE : GREEN; }
NOINLINE bool ret_bool(int k) { return k > 0; }
NOINLINE char ret_char(int k) { return (char)('a' + k); }
NOINLINE float ret_float(int k) { return (float)k / 4; }
NOINLINE double ret_double(int k) { return k * 1.5; }
NOINLINE long double ret_ldouble(int k) { return (long double)k / 8; }
NOINLINE struct two ret_two(int k) { struct two t = { k, -k }; return t; }
NOINLINE struct twod ret_twod(int k) { struct twod t = { k + 0.5, k - 0.5 }; return t; }
NOINLINE struct big ret_big(int k) { struct big b = { { k, k, k, k } }; return b; }
NOINLINE const char *ret_str(int k) { return k ? "yes" : NULL; }
NOINLINE void ret_void(int k) { sink += k; }

int main(void)
{
	long page = sysconf(_SC_PAGESIZE);
	/* Memory that cannot be read: reading it faults (SIGSEGV). */
	char *sealed = mmap(NULL, (size_t)page, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	struct pair p = { 3, 4.5 };
	struct two t = { 10, 20 };
	long s = 0;

	s += widths(-1, 200, -300, 60000, -70000, 4000000000u, -5000000000l, 18000000000000000000ull);
	s += widths(-1, 200, -300, 60000, -70000, 4000000000u, -5000000000l, 18000000000000000000ull);
	s += misc(GREEN, true, 'x', 1.25f, 2.5, "hello");
	s += misc(BLUE, false, '\n', -0.5f, -1.0, NULL);
	s += misc(RED, true, 'A', 0.0f, 1e100, sealed);
	s += misc(RED, true, 'A', 0.0f, 1e100, (const char *)16);
	s += misc(7, false, '"', 3.0f, 0.1, "a string longer than the thirty-two bytes kept");
	s += (long)structs(p, t);
	s += vformat("xy", 3, 1, 2, 3);
	s += fact(5);
	for (int k = 0; k < 3; k++) {
		struct two r2 = ret_two(k);
		struct twod rd = ret_twod(k);
		struct big rb = ret_big(k);
		const char *rs = ret_str(k);
		s += ret_enum(k) + ret_bool(k) + ret_char(k) + (long)ret_float(k) + (long)ret_double(k) +
		     (long)ret_ldouble(k) + r2.x + (long)rd.x + rb.v[0] + (rs ? 1 : 0);
		ret_void(k);
	}
	printf("%ld\n", s);
	return 0;
}
