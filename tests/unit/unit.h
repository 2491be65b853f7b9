/*
 * unit.h: the unit tests' list and typed assertions.  Each test is a
 * function test_NAME(void) listed in UNIT_TESTS; main.c runs each in its own
 * process.  A failed CHECK prints "FAIL file:line: what" and ends that process.
 */
#ifndef CALLPROF_UNIT_H
#define CALLPROF_UNIT_H

#include <inttypes.h>
#include <stdint.h>

#define UNIT_TESTS(T)                          \
	T(cct_child_created_once)              \
	T(cct_recursion_nests)                 \
	T(cct_many_children_overflow)          \
	T(cct_high_bit_children)               \
	T(cct_overflow_keyed_by_parent)        \
	T(cct_overflow_clusters_short)         \
	T(cct_overflow_high_bits)              \
	T(cct_budget_folds_to_edges)           \
	T(cct_budget_counts_folded_calls)      \
	T(cct_budget_names_first_folded)       \
	T(cct_budget_new_root_call_not_folded) \
	T(cct_budget_bounds_depth)             \
	T(cct_clear_counts_keeps_shape)        \
	T(cct_slot_hash_in_range)              \
	T(cct_slot_hash_spreads_16)            \
	T(cct_slot_hash_spreads_pages)         \
	T(cct_slot_hash_spreads_high)          \
	T(shadow_init_sentinel)                \
	T(shadow_close_charges)                \
	T(shadow_close_min_max)                \
	T(shadow_pop_dead_below)               \
	T(shadow_pop_dead_level_live)          \
	T(shadow_pop_dead_keeps_sentinel)      \
	T(shadow_find_innermost)               \
	T(shadow_grow_keeps_frames)            \
	T(shadow_grow_limit)                   \
	T(shadow_unwind_to)                    \
	T(shadow_park)                         \
	T(fold_nested_on_the_path)             \
	T(fold_path_moves)                     \
	T(fold_close_charges)                  \
	T(cputime_clock)                       \
	T(cputime_nested)                      \
	T(cputime_long_calls)                  \
	T(cputime_stale_and_full)              \
	T(compensate_worked_example)           \
	T(compensate_chain)                    \
	T(compensate_clamps)                   \
	T(compensate_off)                      \
	T(compensate_mixed_reads)              \
	T(compensate_unrecorded)               \
	T(compensate_untimed)                  \
	T(sampled_few_calls_exact)             \
	T(sampled_period_r_unbiased)           \
	T(sampled_period_2_unbiased)           \
	T(sampled_error_matches_spread)        \
	T(sampled_timed_bounds)                \
	T(sampled_caller_self)                 \
	T(sampled_heavy_callee)                \
	T(sampled_alone_lends_none)            \
	T(meter_parts)                         \
	T(meter_nested_reads)                  \
	T(meter_discards)                      \
	T(meter_other_exit)                    \
	T(meter_period)                        \
	T(meter_unarmed)                       \
	T(meter_sampled)                       \
	T(meter_weight)                        \
	T(meter_extra)                         \
	T(verdict_module_and_functions)        \
	T(verdict_drop_and_reload)             \
	T(verdict_many_functions)              \
	T(sketch_replaces_least)               \
	T(sketch_same_hash)                    \
	T(sketch_stream)

/* A binary built with UNIT_LIST="file.h" runs the tests that file lists instead (tests/unit/report/). */
#ifdef UNIT_LIST
#undef UNIT_TESTS
#include UNIT_LIST
#endif

#define UNIT_DECLARE(name) void test_##name(void);
UNIT_TESTS(UNIT_DECLARE)

/* Reports a failed check and ends the test's process. */
__attribute__((noreturn, format(printf, 3, 4))) void unit_fail(const char *file, int line,
							       const char *fmt, ...);

/* Doubles compared to within `eps`. */
#define CHECK_NEAR(a, b, eps)                                                                \
	do {                                                                                 \
		double a_ = (a), b_ = (b);                                                   \
		if (a_ - b_ > (eps) || b_ - a_ > (eps))                                      \
			unit_fail(__FILE__, __LINE__, "%s == %s: %g vs %g", #a, #b, a_, b_); \
	} while (0)

#define CHECK(cond)                                                        \
	do {                                                               \
		if (!(cond))                                               \
			unit_fail(__FILE__, __LINE__, "CHECK(%s)", #cond); \
	} while (0)

#define CHECK_CMP_U64(a, op, b)                                                                 \
	do {                                                                                    \
		uint64_t unit_a_ = (uint64_t)(a), unit_b_ = (uint64_t)(b);                      \
		if (!(unit_a_ op unit_b_))                                                      \
			unit_fail(__FILE__, __LINE__, "%s " #op " %s: %" PRIu64 " vs %" PRIu64, \
				  #a, #b, unit_a_, unit_b_);                                    \
	} while (0)

#define CHECK_EQ_U64(a, b) CHECK_CMP_U64(a, ==, b)
#define CHECK_NE_U64(a, b) CHECK_CMP_U64(a, !=, b)
#define CHECK_LE_U64(a, b) CHECK_CMP_U64(a, <=, b)
#define CHECK_LT_U64(a, b) CHECK_CMP_U64(a, <, b)
#define CHECK_GE_U64(a, b) CHECK_CMP_U64(a, >=, b)

#define CHECK_CMP_PTR(a, op, b)                                                                   \
	do {                                                                                      \
		const void *unit_a_ = (const void *)(a), *unit_b_ = (const void *)(b);            \
		if (!(unit_a_ op unit_b_))                                                        \
			unit_fail(__FILE__, __LINE__, "%s " #op " %s: %p vs %p", #a, #b, unit_a_, \
				  unit_b_);                                                       \
	} while (0)

#define CHECK_EQ_PTR(a, b) CHECK_CMP_PTR(a, ==, b)
#define CHECK_NE_PTR(a, b) CHECK_CMP_PTR(a, !=, b)
#define CHECK_NOT_NULL(a) CHECK_CMP_PTR(a, !=, NULL)

#endif
