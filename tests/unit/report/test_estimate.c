/* test_estimate.c: medians of repeated runs and their standard errors (report/estimate.c). */
#include <math.h>

#include "check.h"
#include "estimate.h"

void test_estimate_median_and_error(void)
{
	double x[] = { 13, 10, 50, 12, 11 }, two[] = { 4, 8 }, one[] = { 7 };
	struct estimate e = estimate_of(x, 5, NULL);

	CHECK_NEAR(e.value, 12, 1e-12); /* the disturbed 50 does not move it */
	/* s = 17.254 (sample), times sqrt(pi/2) / sqrt(5) */
	CHECK_NEAR(e.se, sqrt(297.7) * 1.2533141373155003 / sqrt(5), 1e-9);
	e = estimate_of(two, 2, NULL);
	CHECK_NEAR(e.value, 6, 1e-12);                /* the median of two is their mean, */
	CHECK_NEAR(e.se, sqrt(8.0) / sqrt(2), 1e-12); /* with the mean's error */
	e = estimate_of(one, 1, NULL);
	CHECK_NEAR(e.value, 7, 1e-12);
	CHECK_NEAR(e.se, 0, 1e-12); /* one run: the noise is unknown */
}

void test_estimate_own_errors_plug_in(void)
{
	double one[] = { 7 }, se_one[] = { 0.5 }, x[] = { 10, 10, 10 }, se[] = { 3, 3, 3 };
	struct estimate e = estimate_of(one, 1, se_one);

	CHECK_NEAR(e.se, 0.5, 1e-12); /* a sampled run has a noise of its own */
	e = estimate_of(x, 3, se);
	CHECK_NEAR(e.value, 10, 1e-12);
	CHECK_NEAR(e.se, 3 * 1.2533141373155003 / sqrt(3),
		   1e-9); /* larger than the runs' spread (0) */
}

void test_estimate_add_and_noise(void)
{
	struct estimate a = { 12, 3 }, b = { 5, 4 }, sum = estimate_add(a, b), zero = { 10, 0 };

	CHECK_NEAR(sum.value, 17, 1e-12);
	CHECK_NEAR(sum.se, 5, 1e-12); /* variances add */
	CHECK_NEAR(estimate_noise(a, b), 5, 1e-12);
	CHECK(!estimate_beyond_noise(a, (struct estimate){ 26, 4 }, 3)); /* +14 against 3 x 5 */
	CHECK(estimate_beyond_noise(a, (struct estimate){ 28, 4 }, 3));  /* +16 */
	CHECK(estimate_beyond_noise(zero, (struct estimate){ 10.5, 0 },
				    3)); /* no noise known: any growth */
	CHECK(!estimate_beyond_noise(zero, zero, 3));
}
