/* liblcvec.c: functions taking and returning __m256d, for vec.c (built with -mavx). */
#include <immintrin.h>

double vsum(__m256d v);
__m256d vtwice(__m256d v);

double vsum(__m256d v)
{
	double a[4];

	_mm256_storeu_pd(a, v);
	return a[0] + a[1] + a[2] + a[3];
}

__m256d vtwice(__m256d v)
{
	return _mm256_add_pd(v, v);
}
