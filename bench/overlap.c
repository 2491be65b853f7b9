/*
 * overlap.c: what the probes really cost, and where a leaf's time lands, as the
 * kind and size of the leaf's work change.  Each leaf is called in a loop from
 * one driver function per leaf (`x = leaf(x + i)`, 200,000 calls or as many as
 * the first argument says), and the best of 7 loops is printed as
 * "LEAF<TAB>ns per call".  Built plain and instrumented from this
 * source with the same flags, the difference is what the probes cost in that
 * code; the instrumented build's dump shows how much of the leaf's time the
 * profile gives the leaf.  Three kinds of work:
 *   lat_N  one dependency chain of N multiply-adds (about 1.1 ns each here): the
 *          core waits, so an out-of-order core can run the probes alongside it;
 *   thr_N  N rounds of four independent chains of cheap operations (about as
 *          long): the core is busy;
 *   miss   one load that misses every cache (a random permutation of 64 MiB).
 * lat_0 is the loop's turn and the call alone.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define NOINLINE __attribute__((noinline))
#define REPS 7

static unsigned calls = 200000; /* per loop; the first argument changes it */

/* Dependent multiply-adds, about 1.1 ns each here; the asm keeps the chain whole. */
#define LAT(x, n)                                                            \
	for (unsigned lat_i_ = 0; lat_i_ < (n); lat_i_++) {                  \
		(x) = (x) * 6364136223846793005ull + 1442695040888963407ull; \
		__asm__ __volatile__("" : "+r"(x));                          \
	}
/* Four independent xor-shift-add chains: the integer units stay busy. */
#define THR(x, n)                                                                             \
	do {                                                                                  \
		uint64_t a_ = (x), b_ = (x) + 1, c_ = (x) + 2, d_ = (x) + 3;                  \
		for (unsigned thr_i_ = 0; thr_i_ < (n); thr_i_++) {                           \
			a_ = (a_ ^ (a_ >> 7)) + thr_i_;                                       \
			b_ = (b_ ^ (b_ << 9)) + thr_i_;                                       \
			c_ = (c_ ^ (c_ >> 5)) + thr_i_;                                       \
			d_ = (d_ ^ (d_ << 3)) + thr_i_;                                       \
			__asm__ __volatile__("" : "+r"(a_), "+r"(b_), "+r"(c_), "+r"(d_));    \
		}                                                                             \
		(x) = a_ ^ b_ ^ c_ ^ d_;                                                      \
	} while (0)

#define WALK_SLOTS (1u << 24) /* 64 MiB of uint32_t: far past every cache */
static uint32_t *walk;

/* Where the loops leave their results, so no work can be dropped. */
volatile uint64_t sink;

#define LEAVES(n)                                                     \
	uint64_t lat_##n(uint64_t x);                                 \
	uint64_t thr_##n(uint64_t x);                                 \
	NOINLINE uint64_t lat_##n(uint64_t x) { LAT(x, n); return x; } \
	NOINLINE uint64_t thr_##n(uint64_t x) { THR(x, n); return x; }
LEAVES(4)
LEAVES(16)
LEAVES(32)
LEAVES(128)

/* No work: the loop's turn and the call alone. */
uint64_t lat_0(uint64_t x);
NOINLINE uint64_t lat_0(uint64_t x)
{
	__asm__ __volatile__("" : "+r"(x));
	return x;
}

uint64_t miss(uint64_t x);
NOINLINE uint64_t miss(uint64_t x)
{
	return walk[x & (WALK_SLOTS - 1)];
}

__attribute__((no_instrument_function)) static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* One driver per leaf, so each leaf has one caller of its own in the profile.  A
 * macro, not a function taking a pointer: the call must be direct in both builds. */
#define DRIVER(f)                                                                \
	void drive_##f(void);                                                    \
	NOINLINE void drive_##f(void)                                            \
	{                                                                        \
		uint64_t x = sink;                                               \
		double best = 1e300;                                             \
		for (int r = 0; r < REPS; r++) {                                 \
			double t0 = now_ns(), t;                                 \
			for (unsigned i = 0; i < calls; i++)                     \
				x = f(x + i);                                    \
			t = (now_ns() - t0) / calls;                             \
			if (t < best)                                            \
				best = t;                                        \
		}                                                                \
		sink = x;                                                        \
		printf("%s\t%.2f\n", #f, best);                                  \
	}
DRIVER(lat_0)
DRIVER(lat_4)
DRIVER(lat_16)
DRIVER(lat_32)
DRIVER(lat_128)
DRIVER(thr_4)
DRIVER(thr_16)
DRIVER(thr_32)
DRIVER(thr_128)
DRIVER(miss)

/* A random cyclic permutation (Sattolo's algorithm), so every load of the walk misses. */
__attribute__((no_instrument_function)) static void walk_init(void)
{
	uint64_t seed = 88172645463325252ull;

	walk = malloc(WALK_SLOTS * sizeof *walk);
	if (!walk) {
		perror("overlap: malloc");
		exit(1);
	}
	for (uint32_t i = 0; i < WALK_SLOTS; i++)
		walk[i] = i;
	for (uint32_t i = WALK_SLOTS - 1; i > 0; i--) {
		uint32_t j, t;

		seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17;
		j = (uint32_t)(seed % i);
		t = walk[i], walk[i] = walk[j], walk[j] = t;
	}
}

int main(int argc, char **argv)
{
	if (argc > 1 && atoi(argv[1]) > 0)
		calls = (unsigned)atoi(argv[1]);
	walk_init();
	drive_lat_0();
	drive_lat_4();
	drive_lat_16();
	drive_lat_32();
	drive_lat_128();
	drive_thr_4();
	drive_thr_16();
	drive_thr_32();
	drive_thr_128();
	drive_miss();
	return 0;
}
