/* test_sampled.c: unit tests of sampled timing's choice of calls (stamp.h) and its estimate (sampled.h). */
#include <stdint.h>
#include <string.h>

#include "sampled.h"
#include "stamp.h"
#include "unit.h"

/* What the probes read, which the unit binary does not link otherwise. */
__thread uint64_t stamp_random __attribute__((tls_model("initial-exec")));

#define R 64
#define TRIALS 400

/* A leaf called `calls` times, call i costing cost(i) ticks, through the
 * probes' own choice (stamp_sampled_how) and close (frame_close_timed), on a
 * clock of its own: its estimated self time, variance in *var. */
static double run_leaf(uint64_t calls, uint64_t (*cost)(uint64_t), uint64_t seed, double *var,
		       struct cct_node *n)
{
	struct frame f[2];
	uint64_t now = 1000;

	memset(n, 0, sizeof(*n));
	memset(f, 0, sizeof(f));
	n->min_ticks = UINT64_MAX;
	n->first_left = CCT_TIMED_FIRST;
	f[1].node = n;
	f[0].node = n + 1; /* a caller that is not own-timed */
	memset(n + 1, 0, sizeof(*n));
	stamp_random = seed;
	for (uint64_t i = 0; i < calls; i++) {
		uint64_t how;

		n->calls++;
		if ((how = stamp_sampled_how(&f[1], n))) {
			f[1].t_enter_ticks = now | how;
			frame_close_timed(&f[1], &f[0], now + cost(i));
		}
		now += cost(i);
	}
	return sampled_self(n, var);
}

static uint64_t two_costs_period_r(uint64_t i)
{
	return i % R == 0 ? 5000 : 10; /* one call in R is costly: in step with the rate */
}

static uint64_t two_costs_period_2(uint64_t i)
{
	return i % 2 ? 300 : 20;
}

static double truth(uint64_t calls, uint64_t (*cost)(uint64_t))
{
	double sum = 0;

	for (uint64_t i = 0; i < calls; i++)
		sum += (double)cost(i);
	return sum;
}

/* The mean of TRIALS estimates, each from its own random stream, and the
 * estimates' spread and mean reported variance. */
static double mean_estimate(uint64_t calls, uint64_t (*cost)(uint64_t), double *spread,
			    double *mean_var)
{
	struct cct_node n[2];
	double sum = 0, sq = 0, vars = 0, var, e;

	for (uint64_t t = 0; t < TRIALS; t++) {
		e = run_leaf(calls, cost, 0x9E3779B97F4A7C15ull * (t + 1), &var, n);
		sum += e;
		sq += e * e;
		vars += var;
	}
	*spread = sq / TRIALS - (sum / TRIALS) * (sum / TRIALS);
	*mean_var = vars / TRIALS;
	return sum / TRIALS;
}

void test_sampled_few_calls_exact(void)
{
	struct cct_node n[2];
	double var;

	frames_sample_rate = R;
	CHECK_NEAR(run_leaf(CCT_TIMED_FIRST, two_costs_period_2, 1, &var, n),
		   truth(CCT_TIMED_FIRST, two_costs_period_2), 1e-9);
	CHECK_NEAR(var, 0, 1e-9);
	CHECK_EQ_U64(cct_timed_calls(&n[0]), CCT_TIMED_FIRST);
}

/* A pattern with the sampling's own period: a fixed one-in-R pick would see
 * only the cheap calls, or only the costly ones. */
void test_sampled_period_r_unbiased(void)
{
	double spread, var, t = truth(200000, two_costs_period_r);

	frames_sample_rate = R;
	CHECK_NEAR(mean_estimate(200000, two_costs_period_r, &spread, &var) / t, 1, 0.01);
}

void test_sampled_period_2_unbiased(void)
{
	double spread, var, t = truth(200000, two_costs_period_2);

	frames_sample_rate = R;
	CHECK_NEAR(mean_estimate(200000, two_costs_period_2, &spread, &var) / t, 1, 0.01);
}

/* The reported variance is the estimates' own spread, within 25%. */
void test_sampled_error_matches_spread(void)
{
	double spread, var;

	frames_sample_rate = R;
	mean_estimate(100000, two_costs_period_r, &spread, &var);
	CHECK_NEAR(var / spread, 1, 0.25);
	mean_estimate(100000, two_costs_period_2, &spread, &var);
	CHECK_NEAR(var / spread, 1, 0.25);
}

/* Timed calls: at least the first ones where there were that many, never more
 * than the calls, and about one in R after them. */
void test_sampled_timed_bounds(void)
{
	struct cct_node n[2];
	double var;
	uint64_t later;

	frames_sample_rate = R;
	run_leaf(10, two_costs_period_2, 7, &var, n);
	CHECK_EQ_U64(cct_timed_calls(&n[0]), 10);
	run_leaf(64000 + CCT_TIMED_FIRST, two_costs_period_2, 7, &var, n);
	later = cct_timed_calls(&n[0]) - CCT_TIMED_FIRST;
	CHECK(cct_timed_calls(&n[0]) <= n[0].calls);
	CHECK(later >= 800 && later <= 1200);
	CHECK_EQ_U64(n[0].sample_calls, later);
}

/* A callee's cost: one call in 50 is 250 times dearer. */
static uint64_t callee_cost(uint64_t j)
{
	return j % 50 == 0 ? 5000 : 20;
}

/* A callee's cost that varies little: 20 to 22 ticks. */
static uint64_t callee_even(uint64_t j)
{
	return 20 + j % 3;
}

/*
 * A caller called `calls` times, doing 50 ticks of its own work a call around
 * `k` calls of a callee costing cost(j) ticks for its j-th call, both through
 * the probes' own choice and close: the caller's estimated self time; the
 * callee's in *callee.
 */
static double run_caller(uint64_t calls, unsigned k, uint64_t (*cost)(uint64_t), uint64_t seed,
			 double *callee)
{
	struct cct_node n[3]; /* the root, the caller, the callee */
	struct frame f[3];
	uint64_t now = 1000, j = 0;
	double var;

	memset(n, 0, sizeof(n));
	memset(f, 0, sizeof(f));
	for (unsigned i = 0; i < 3; i++) {
		f[i].node = &n[i];
		n[i].first_left = CCT_TIMED_FIRST;
	}
	stamp_random = seed;
	for (uint64_t i = 0; i < calls; i++) {
		uint64_t how;

		n[1].calls++;
		how = stamp_sampled_how(&f[1], &n[1]);
		f[1].t_enter_ticks = how ? now | how : 0;
		now += 25;
		for (unsigned c = 0; c < k; c++, j++) {
			uint64_t callee_how;

			n[2].calls++;
			callee_how = stamp_sampled_how(&f[2], &n[2]);
			f[2].t_enter_ticks = callee_how ? now | callee_how : 0;
			if (callee_how)
				frame_close_timed(&f[2], &f[1], now + cost(j));
			now += cost(j);
		}
		now += 25;
		if (how)
			frame_close_timed(&f[1], &f[0], now);
	}
	*callee = sampled_self(&n[2], &var);
	return sampled_self(&n[1], &var);
}

/* The mean over `trials` runs of run_caller of the caller's and the callee's
 * self time, each over its truth. */
static void caller_means(uint64_t calls, unsigned k, uint64_t (*cost)(uint64_t), unsigned trials,
			 double *caller, double *callee)
{
	double truth_callee = 0, c;

	for (uint64_t j = 0; j < calls * k; j++)
		truth_callee += (double)cost(j);
	*caller = *callee = 0;
	for (unsigned t = 0; t < trials; t++) {
		*caller += run_caller(calls, k, cost, 0xD1B54A32D192ED03ull * (t + 1), &c) /
			   (50.0 * (double)calls) / trials;
		*callee += c / truth_callee / trials;
	}
}

/*
 * A caller with few callees a call times them all for itself (lent): its self
 * time is exact whatever they cost.  With more callees than it lends whole,
 * it times one of the rest in R, which stands for R: right on average, and as
 * noisy as the callees' costs make it, so that case takes callees of even
 * cost, one call in 2 timed.  Bounds: about 4 standard errors of the mean of
 * the trials (the streams are fixed: the results never change).
 */
void test_sampled_caller_self(void)
{
	double caller, callee;

	frames_sample_rate = 8;
	caller_means(20000, 3, callee_cost, 20, &caller, &callee);
	CHECK_NEAR(caller, 1, 1e-9);
	CHECK_NEAR(callee, 1, 0.06);
	frames_sample_rate = 2;
	caller_means(2000, 200, callee_even, 40, &caller, &callee);
	CHECK_NEAR(caller, 1, 0.1);
	CHECK_NEAR(callee, 1, 0.01);
}

/*
 * A recursive sort's shape: each call of the caller makes `light` cheap calls
 * of one callee (20 ticks), then two calls of another that each run a long
 * subtree (100000 ticks), where a call of the caller is 50 ticks of its own.
 * Past its first CCT_LENT_CALLS callees the heavy calls would count R times
 * or not at all, so most estimates would miss them and read the caller's self
 * time far too high; a heavy callee (most of its time in long calls) is lent
 * whole, and every trial's estimate, not only their mean, is within 2%.
 */
static double run_sorter(uint64_t calls, unsigned light, uint64_t seed)
{
	struct cct_node n[4]; /* the root, the caller, the light and the heavy callee */
	struct frame f[3];
	uint64_t now = 1000;
	double var;

	memset(n, 0, sizeof(n));
	memset(f, 0, sizeof(f));
	for (unsigned i = 0; i < 4; i++)
		n[i].first_left = CCT_TIMED_FIRST;
	f[0].node = &n[0];
	f[1].node = &n[1];
	stamp_random = seed;
	for (uint64_t i = 0; i < calls; i++) {
		uint64_t how;

		n[1].calls++;
		how = stamp_sampled_how(&f[1], &n[1]);
		f[1].t_enter_ticks = how ? now | how : 0;
		now += 25;
		for (unsigned c = 0; c < light + 2; c++) {
			struct cct_node *callee = c < light ? &n[2] : &n[3];
			uint64_t cost = c < light ? 20 : 100000, callee_how;

			f[2].node = callee;
			callee->calls++;
			callee_how = stamp_sampled_how(&f[2], callee);
			f[2].t_enter_ticks = callee_how ? now | callee_how : 0;
			if (callee_how)
				frame_close_timed(&f[2], &f[1], now + cost);
			now += cost;
		}
		now += 25;
		if (how)
			frame_close_timed(&f[1], &f[0], now);
	}
	CHECK_EQ_U64(n[3].heavy, frames_heavy_ticks != UINT64_MAX);
	CHECK(!n[2].heavy);
	return sampled_self(&n[1], &var);
}

void test_sampled_heavy_callee(void)
{
	unsigned off = 0;

	frames_sample_rate = R;
	frames_heavy_ticks = 1000;
	for (unsigned t = 0; t < 20; t++)
		CHECK_NEAR(run_sorter(20000, CCT_LENT_CALLS, 0xA0761D6478BD642Full * (t + 1)) /
				   (50.0 * 20000),
			   1, 0.02);
	frames_heavy_ticks = UINT64_MAX; /* no callee is heavy: the estimates go wrong */
	for (unsigned t = 0; t < 20; t++) {
		double e = run_sorter(20000, CCT_LENT_CALLS, 0xA0761D6478BD642Full * (t + 1)) /
			   (50.0 * 20000);

		off += e < 0 || e > 2;
	}
	CHECK(off >= 15);
}

/* Calibration's untimed loop (CCT_TIME_ALONE): every call of the caller is
 * own-timed, and none of its callees' calls is lent to it or timed for
 * itself, past its first ones included, while each still asks (stamp_lend),
 * as an untimed callee of an own-timed call does. */
void test_sampled_alone_lends_none(void)
{
	struct cct_node n[3]; /* the root, the loop, its leaf */
	struct frame f[3];

	memset(n, 0, sizeof(n));
	memset(f, 0, sizeof(f));
	for (unsigned i = 0; i < 3; i++) {
		f[i].node = &n[i];
		n[i].first_left = CCT_TIMED_FIRST;
	}
	frames_sample_rate = 4;
	stamp_random = 11;
	n[1].timing = CCT_TIME_ALONE;
	n[2].timing = CCT_TIME_NEVER;
	n[2].sample_left = UINT32_MAX;
	for (unsigned round = 0; round < 200; round++) {
		uint64_t how = stamp_sampled_how(&f[1], &n[1]);

		CHECK(how & FRAME_OWN_TIMED);
		f[1].t_enter_ticks = 1000 | how;
		for (unsigned c = 0; c < 400; c++) {
			CHECK(!stamp_will_lend(&f[1]));
			CHECK_EQ_U64(stamp_sampled_how(&f[2], &n[2]), 0);
		}
	}
	CHECK_EQ_U64(n[2].lent_calls, 0);
	CHECK_EQ_U64(n[1].act_lent, CCT_LENT_CALLS);
}
