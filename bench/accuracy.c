/*
 * accuracy.c: phases of known shape for the compensation benchmark.  Each phase
 * is one function called once from main, which times it with clock_gettime and
 * prints "phase_NAME<TAB>ns".  Built once plain (those times are the truth) and
 * once with -finstrument-functions and callprof, from this same source with the
 * same flags; every function is noinline and external so both builds make
 * exactly the same calls.
 */
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#define NOINLINE __attribute__((noinline))

/* Burns `n` dependent multiply-adds on `x` (about 4 cycles each); the asm stops
 * the compiler from shortening the chain.  A macro, not an inline function: an
 * inlined function would get probes of its own in the instrumented build. */
#define BURN(x, n)                                                       \
	for (unsigned burn_i_ = 0; burn_i_ < (n); burn_i_++) {           \
		(x) = (x) * 6364136223846793005ull + 1442695040888963407ull; \
		__asm__ __volatile__("" : "+r"(x));                          \
	}

#define TINY_CALLS 4000000u   /* phase_tiny: a leaf of a few instructions */
#define MEDIUM_CALLS 200000u  /* phase_medium: a leaf of about 100 ns */
#define MEDIUM_BURN 90u
#define HEAVY_CALLS 2000u     /* phase_heavy: a leaf of about 10 us */
#define HEAVY_BURN 9000u
#define NEST_OUTER 20000u     /* phase_nested: outer -> mid -> 10 x inner */
#define NEST_INNER 10u
#define NEST_BURN 30u
#define FIB_N 28              /* phase_recursion: fib(28), 1,028,457 calls */

/* Where every phase leaves its result, so no work can be dropped. */
volatile uint64_t sink;

uint64_t tiny(uint64_t x);
uint64_t medium(uint64_t x);
uint64_t heavy(uint64_t x);
uint64_t nest_inner(uint64_t x);
uint64_t nest_mid(uint64_t x);
uint64_t rec_fib(int n);
void phase_tiny(void);
void phase_medium(void);
void phase_heavy(void);
void phase_nested(void);
void phase_recursion(void);

NOINLINE uint64_t tiny(uint64_t x)
{
	return x ^ (x >> 3);
}

NOINLINE uint64_t medium(uint64_t x)
{
	BURN(x, MEDIUM_BURN);
	return x;
}

NOINLINE uint64_t heavy(uint64_t x)
{
	BURN(x, HEAVY_BURN);
	return x;
}

NOINLINE uint64_t nest_inner(uint64_t x)
{
	BURN(x, NEST_BURN);
	return x;
}

NOINLINE uint64_t nest_mid(uint64_t x)
{
	BURN(x, NEST_BURN);
	for (unsigned i = 0; i < NEST_INNER; i++)
		x = nest_inner(x + i);
	return x;
}

NOINLINE uint64_t rec_fib(int n)
{
	return n < 2 ? (uint64_t)n : rec_fib(n - 1) + rec_fib(n - 2);
}

NOINLINE void phase_tiny(void)
{
	uint64_t x = sink;

	for (unsigned i = 0; i < TINY_CALLS; i++)
		x = tiny(x + i);
	sink = x;
}

NOINLINE void phase_medium(void)
{
	uint64_t x = sink;

	for (unsigned i = 0; i < MEDIUM_CALLS; i++)
		x = medium(x + i);
	sink = x;
}

NOINLINE void phase_heavy(void)
{
	uint64_t x = sink;

	for (unsigned i = 0; i < HEAVY_CALLS; i++)
		x = heavy(x + i);
	sink = x;
}

NOINLINE void phase_nested(void)
{
	uint64_t x = sink;

	for (unsigned i = 0; i < NEST_OUTER; i++)
		x = nest_mid(x + i);
	sink = x;
}

NOINLINE void phase_recursion(void)
{
	sink = rec_fib(FIB_N);
}

/* Times one phase; a macro so the instrumented build adds no function of its own here. */
#define PHASE(f)                                                                         \
	do {                                                                             \
		struct timespec t0_, t1_;                                                \
		clock_gettime(CLOCK_MONOTONIC, &t0_);                                    \
		f();                                                                     \
		clock_gettime(CLOCK_MONOTONIC, &t1_);                                    \
		printf("%s\t%lld\n", #f,                                                 \
		       (long long)(t1_.tv_sec - t0_.tv_sec) * 1000000000ll +             \
			       (t1_.tv_nsec - t0_.tv_nsec));                             \
	} while (0)

int main(void)
{
	PHASE(phase_tiny);
	PHASE(phase_medium);
	PHASE(phase_heavy);
	PHASE(phase_nested);
	PHASE(phase_recursion);
	return 0;
}
