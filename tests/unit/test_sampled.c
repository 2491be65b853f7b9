/* test_sampled.c: unit tests of sampled timing's choice of calls (stamp.h) and its estimate (sampled.h). */
#include <stdint.h>
#include <string.h>

#include "options.h"
#include "sampled.h"
#include "stamp.h"
#include "unit.h"

/* What the probes read, which the unit binary does not link otherwise. */
struct options options;
__thread uint64_t stamp_random __attribute__((tls_model("initial-exec")));

#define R 64
#define TRIALS 400

/* A leaf called `calls` times, call i costing cost(i) ticks, through the
 * probes' own choice (stamp_enter's test, stamp_pick_next) and close
 * (frame_close_timed): its estimated self time, variance in *var. */
static double run_leaf(uint64_t calls, uint64_t (*cost)(uint64_t), uint64_t seed, double *var,
		       struct cct_node *n)
{
	struct frame f[2];
	uint64_t now = 1000;

	memset(n, 0, sizeof(*n));
	memset(f, 0, sizeof(f));
	n->min_ticks = UINT64_MAX;
	f[1].node = n;
	f[0].node = n + 1; /* a caller that is not own-timed */
	memset(n + 1, 0, sizeof(*n));
	stamp_random = seed;
	for (uint64_t i = 0; i < calls; i++) {
		n->calls++;
		if (n->sample_left-- == 0) {
			stamp_pick_next(n);
			n->act_child_ticks = 0;
			f[1].t_enter_ticks = now | FRAME_OWN_TIMED;
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

	options.sample_rate = R;
	CHECK_NEAR(run_leaf(CCT_TIMED_FIRST, two_costs_period_2, 1, &var, n),
		   truth(CCT_TIMED_FIRST, two_costs_period_2), 1e-9);
	CHECK_NEAR(var, 0, 1e-9);
	CHECK_EQ_U64(n[0].timed_calls, CCT_TIMED_FIRST);
}

/* A pattern with the sampling's own period: a fixed one-in-R pick would see
 * only the cheap calls, or only the costly ones. */
void test_sampled_period_r_unbiased(void)
{
	double spread, var, t = truth(200000, two_costs_period_r);

	options.sample_rate = R;
	CHECK_NEAR(mean_estimate(200000, two_costs_period_r, &spread, &var) / t, 1, 0.01);
}

void test_sampled_period_2_unbiased(void)
{
	double spread, var, t = truth(200000, two_costs_period_2);

	options.sample_rate = R;
	CHECK_NEAR(mean_estimate(200000, two_costs_period_2, &spread, &var) / t, 1, 0.01);
}

/* The reported variance is the estimates' own spread, within 25%. */
void test_sampled_error_matches_spread(void)
{
	double spread, var;

	options.sample_rate = R;
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

	options.sample_rate = R;
	run_leaf(10, two_costs_period_2, 7, &var, n);
	CHECK_EQ_U64(n[0].timed_calls, 10);
	run_leaf(64000 + CCT_TIMED_FIRST, two_costs_period_2, 7, &var, n);
	later = n[0].timed_calls - CCT_TIMED_FIRST;
	CHECK(n[0].timed_calls <= n[0].calls);
	CHECK(later >= 800 && later <= 1200);
	CHECK_EQ_U64(n[0].sample_calls, later);
}
