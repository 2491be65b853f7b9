/* test_pstat.c: adding up a function's figures over threads and dumps (report/pstat.c). */
#include "check.h"
#include "pstat.h"

void test_pstat_add_saturates(void)
{
	struct pstat to = { .calls = UINT64_MAX - 1, .incl_ns = 10, .self_ns = UINT64_MAX };
	struct pstat from = {
		.calls = 5, .incl_ns = 20, .self_ns = 1, .raw_incl_ns = 3, .fenced_calls = 2
	};

	pstat_add(&to, &from);
	CHECK_EQ_U64(to.calls, UINT64_MAX); /* stops at the largest value instead of wrapping */
	CHECK_EQ_U64(to.incl_ns, 30);
	CHECK_EQ_U64(to.self_ns, UINT64_MAX);
	CHECK_EQ_U64(to.raw_incl_ns, 3);
	CHECK_EQ_U64(to.fenced_calls, 2);
	CHECK(!to.has_fenced);
	CHECK_EQ_U64(u64_add(UINT64_MAX, UINT64_MAX), UINT64_MAX);
	CHECK_EQ_U64(u64_add(1, 2), 3);
}

void test_pstat_add_min_max(void)
{
	struct pstat to = { 0 }, a = { .calls = 2, .min_ns = 5, .max_ns = 9, .has_minmax = 1 };
	struct pstat b = { .calls = 1, .min_ns = 3, .max_ns = 4, .has_minmax = 1, .has_fenced = 1 };
	struct pstat none = { .calls = 0, .min_ns = 1, .max_ns = 100, .has_minmax = 1 };

	pstat_add(&to, &a);
	CHECK(to.has_minmax && to.min_ns == 5 && to.max_ns == 9);
	pstat_add(&to, &b);
	CHECK(to.min_ns == 3 && to.max_ns == 9);
	CHECK(to.has_fenced);
	pstat_add(&to, &none); /* no calls: its min and max mean nothing */
	CHECK(to.min_ns == 3 && to.max_ns == 9);
	CHECK_EQ_U64(to.calls, 3);
}
