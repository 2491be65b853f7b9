/* estimate.c: medians of repeated runs and their standard errors (see estimate.h). */
#include <math.h>
#include <stdlib.h>

#include "estimate.h"

/* The standard error of a median of n normal values is about sqrt(pi/2) times the mean's. */
#define ESTIMATE_MEDIAN_SE 1.2533141373155003

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double median_sorted(const double *x, size_t n)
{
	return n % 2 ? x[n / 2] : (x[n / 2 - 1] + x[n / 2]) / 2;
}

/* spread_var: the values' sample variance (n >= 2). */
static double spread_var(const double *x, size_t n)
{
	double mean = 0, sum = 0;

	for (size_t i = 0; i < n; i++)
		mean += x[i];
	mean /= (double)n;
	for (size_t i = 0; i < n; i++)
		sum += (x[i] - mean) * (x[i] - mean);
	return sum / (double)(n - 1);
}

struct estimate estimate_of(double *x, size_t n, const double *own_se)
{
	struct estimate e = { 0, 0 };
	double var = 0;

	if (!n)
		return e;
	if (n >= 2)
		var = spread_var(x, n);
	if (own_se) {
		double own = 0;

		for (size_t i = 0; i < n; i++)
			own += own_se[i] * own_se[i];
		own /= (double)n;
		if (own > var)
			var = own;
	}
	qsort(x, n, sizeof(*x), cmp_double);
	e.value = median_sorted(x, n);
	e.se = sqrt(var / (double)n) * (n >= 3 ? ESTIMATE_MEDIAN_SE : 1.0);
	return e;
}

struct estimate estimate_add(struct estimate a, struct estimate b)
{
	struct estimate e = { a.value + b.value, sqrt(a.se * a.se + b.se * b.se) };

	return e;
}

double estimate_noise(struct estimate before, struct estimate after)
{
	return sqrt(before.se * before.se + after.se * after.se);
}

int estimate_beyond_noise(struct estimate before, struct estimate after, double k)
{
	return after.value - before.value > k * estimate_noise(before, after);
}
