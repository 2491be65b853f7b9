/* test_compensate.c: unit tests of the compensation arithmetic (runtime/compensate.h) on synthetic trees. */
#include <stddef.h>

#include "compensate.h"
#include "unit.h"

#define NONE COMP_NO_PARENT
/* Plain reads only, at o_in and o_out ticks per call. */
#define PLAIN(o_in, o_out)                    \
	(const struct comp_cost[PROBE_KINDS]) \
	{                                     \
		{                             \
			o_in, o_out, 0, 0, 0  \
		}                             \
	}

/* The example of compensate.h: one call with 10 calls under it, 4 of them its children's. */
void test_compensate_worked_example(void)
{
	struct comp_row rows[] = {
		{ .parent = NONE, .calls = 1, .raw_incl = 100, .raw_child = 60 },
		{ .parent = 0, .calls = 4, .raw_incl = 60, .raw_child = 30 },
		{ .parent = 1, .calls = 6, .raw_incl = 30, .raw_child = 0 },
	};

	CHECK_EQ_U64(compensate_rows(rows, 3, PLAIN(2, 1)), 0);
	CHECK_EQ_U64(rows[0].child_calls, 4);
	CHECK_EQ_U64(rows[0].subtree_calls, 11);
	CHECK_NEAR(rows[0].raw_self, 40, 1e-9);
	CHECK_NEAR(rows[0].incl, 100 - 1 * 2 - 10 * 3, 1e-9);
	CHECK_NEAR(rows[0].self, 40 - 1 * 2 - 4 * 1, 1e-9);
	/* The middle row: 4 calls, 6 under it, all its children. */
	CHECK_NEAR(rows[1].incl, 60 - 4 * 2 - 6 * 3, 1e-9);
	CHECK_NEAR(rows[1].self, 30 - 4 * 2 - 6 * 1, 1e-9);
	/* A leaf pays o_in per call only. */
	CHECK_NEAR(rows[2].incl, 30 - 6 * 2, 1e-9);
	CHECK_NEAR(rows[2].self, 30 - 6 * 2, 1e-9);
}

/*
 * A chain of known true times: each level does 10 ticks of its own work and
 * calls the next once; the probes add o_in inside each call and o_out around
 * it.  Compensation must give back exactly the true times.
 */
void test_compensate_chain(void)
{
	enum { DEPTH = 6 };
	const double own = 10, o_in = 3, o_out = 2;
	struct comp_row rows[DEPTH];
	double raw_below = 0;

	for (int i = DEPTH - 1; i >= 0; i--) {
		/* Raw time of level i: its work, its own o_in, and under it the
		 * next level's raw time plus that call's o_out. */
		double child = i == DEPTH - 1 ? 0 : raw_below + o_out;
		rows[i] = (struct comp_row){ .parent = i ? (uint32_t)(i - 1) : NONE,
					     .calls = 1,
					     .raw_incl = own + o_in + child,
					     .raw_child = i == DEPTH - 1 ? 0 : raw_below };
		raw_below = rows[i].raw_incl;
	}
	CHECK_EQ_U64(compensate_rows(rows, DEPTH, PLAIN(o_in, o_out)), 0);
	for (int i = 0; i < DEPTH; i++) {
		CHECK_NEAR(rows[i].incl, own * (DEPTH - i), 1e-9);
		CHECK_NEAR(rows[i].self, own, 1e-9);
	}
}

/* A function cheaper than the probes: clamped at zero and counted, never negative. */
void test_compensate_clamps(void)
{
	struct comp_row rows[] = {
		{ .parent = NONE, .calls = 1, .raw_incl = 50, .raw_child = 45 },
		{ .parent = 0, .calls = 100, .raw_incl = 45, .raw_child = 0 },
	};

	CHECK_EQ_U64(compensate_rows(rows, 2, PLAIN(1, 1)), 2);
	CHECK_NEAR(rows[1].incl, 0, 0);
	CHECK_NEAR(rows[1].self, 0, 0);
	CHECK_NEAR(rows[0].incl, 0, 0); /* 50 - 1 - 100 * 2 */
	CHECK_NEAR(rows[0].self, 0, 0); /* self never above inclusive */
	CHECK_NEAR(rows[0].raw_self, 5, 1e-9);
}

/* Costs of zero (CALLPROF_COMPENSATE=0, or no clock): the raw figures as they are. */
void test_compensate_off(void)
{
	struct comp_row rows[] = {
		{ .parent = NONE, .calls = 2, .raw_incl = 80, .raw_child = 30 },
		{ .parent = 0, .calls = 3, .raw_incl = 30, .raw_child = 0 },
		{ .parent = NONE,
		  .calls = 1,
		  .raw_incl = 5,
		  .raw_child = 9 }, /* child above parent: raw self 0 */
	};

	CHECK_EQ_U64(compensate_rows(rows, 3, PLAIN(0, 0)), 0);
	CHECK_NEAR(rows[0].incl, 80, 0);
	CHECK_NEAR(rows[0].self, 50, 0);
	CHECK_NEAR(rows[1].self, 30, 0);
	CHECK_NEAR(rows[2].raw_self, 0, 0);
	CHECK_EQ_U64(rows[2].subtree_calls, 1);
}

/*
 * tsc-adaptive: a row's calls are plain or fenced, each kind at its own cost.
 * A loop (1 call, plain) calls a leaf 10 times, 4 of them fenced; true times:
 * the leaf 5 ticks per call, the loop 20 ticks of its own.  Plain reads cost
 * o_in 3, o_out 2; fenced ones 10 and 7.
 */
void test_compensate_mixed_reads(void)
{
	const struct comp_cost plain = { 3, 2, 0, 0, 0 }, fenced = { 10, 7, 0, 0, 0 };
	const struct comp_cost cost[PROBE_KINDS] = {
		[PROBE_PLAIN] = plain, [PROBE_FENCED] = fenced
	};
	double leaf_raw = 6 * (5 + 3) + 4 * (5 + 10);
	double loop_raw = 20 + plain.o_in + leaf_raw + 6 * 2 + 4 * 7;
	struct comp_row rows[] = {
		{ .parent = NONE, .calls = 1, .raw_incl = loop_raw, .raw_child = leaf_raw },
		{ .parent = 0,
		  .calls = 10,
		  .kind_calls[PROBE_FENCED - 1] = 4,
		  .raw_incl = leaf_raw },
	};

	CHECK_EQ_U64(compensate_rows(rows, 2, cost), 0);
	CHECK_NEAR(rows[1].incl, 10 * 5, 1e-9);
	CHECK_NEAR(rows[1].self, 10 * 5, 1e-9);
	CHECK_NEAR(rows[0].incl, 20 + 10 * 5, 1e-9);
	CHECK_NEAR(rows[0].self, 20, 1e-9);
	/* More fenced calls than calls (a count read while it moved) are taken as all of them. */
	rows[1].kind_calls[PROBE_FENCED - 1] = 11;
	compensate_rows(rows, 2, cost);
	CHECK_NEAR(rows[1].incl, leaf_raw - 10 * 10, 1e-9);
}

/*
 * Unrecorded calls (filtered out, too deep) run their probes in their caller's
 * self time: 7 plain ones at 9 ticks each and 2 of -pg -mfentry at 40, made by
 * a leaf that does 50 ticks of work, none of it in calls the tree holds.
 */
void test_compensate_unrecorded(void)
{
	struct comp_cost cost[PROBE_KINDS] = {
		[PROBE_PLAIN] = { 3, 2, 9, 0 }, [PROBE_FENTRY] = { 4, 3, 40, 0 }
	};
	uint64_t unrecorded[PROBE_KINDS] = { [PROBE_PLAIN] = 7, [PROBE_FENTRY] = 2 };
	double own_in, own_out, incl, self, probes = comp_unrecorded(unrecorded, cost);
	double raw = 50 + 7 * 9 + 2 * 40 + 3; /* its work, the unrecorded calls', its own o_in */

	CHECK_NEAR(probes, 7 * 9 + 2 * 40, 1e-9);
	comp_own_costs(1, (uint64_t[PROBE_KINDS - 1]){ 0 }, cost, &own_in, &own_out);
	CHECK_EQ_U64(comp_figures(raw, raw, own_in, probes, 0, probes, &incl, &self), 0);
	CHECK_NEAR(incl, 50, 1e-9);
	CHECK_NEAR(self, 50, 1e-9);
	/* None, or no cost measured: nothing taken. */
	cost[PROBE_PLAIN].unrecorded = 0;
	unrecorded[PROBE_FENTRY] = 0;
	CHECK_NEAR(comp_unrecorded(unrecorded, cost), 0, 1e-9);
}

/*
 * Sampled timing: an untimed call costs 4 ticks in all where a timed one costs
 * o_in 3 and o_out 2, so each of 10 untimed calls takes 1 from its row's o_out
 * (its o_in counts as a timed one's, since the row's time is scaled from
 * those); unmeasured, nothing.
 */
void test_compensate_untimed(void)
{
	struct comp_cost cost[PROBE_KINDS] = {
		[PROBE_PLAIN] = { 3, 2, 0, 4 }, [PROBE_FENTRY] = { 5, 1, 0, 0 }
	};

	CHECK_NEAR(comp_untimed(10, cost, PROBE_PLAIN), -10, 1e-9);
	CHECK_NEAR(comp_untimed(0, cost, PROBE_PLAIN), 0, 1e-9);
	CHECK_NEAR(comp_untimed(10, cost, PROBE_FENTRY), 0, 1e-9);
}
