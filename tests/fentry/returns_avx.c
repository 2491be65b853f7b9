/*
 * returns_avx.c: 256-bit vector arguments and returns (built with -mavx), on a
 * thread whose first probe they pass through: a thread's first probe creates
 * its state, and cold code that calls libc clears the upper halves of the ymm
 * registers unless the front-end saves them.
 */
#include <immintrin.h>
#include <stdint.h>

#include "e2e.h"

void *avx_thread(void *arg);

NOINLINE static __m256d vadd(__m256d a, __m256d b)
{
	return _mm256_add_pd(a, b);
}

NOINLINE static double vtotal(__m256d v)
{
	double d[4];

	_mm256_storeu_pd(d, v);
	return d[0] + d[1] + d[2] + d[3];
}

/* Not probed itself, so vadd is this thread's first probe. */
__attribute__((no_instrument_function)) void *avx_thread(void *arg)
{
	__m256d s = vadd(_mm256_set_pd(4, 3, 2, 1), _mm256_set_pd(40, 30, 20, 10));

	(void)arg;
	return vtotal(s) == 110.0 && vtotal(vadd(s, s)) == 220.0 ? NULL : (void *)(uintptr_t)1;
}
