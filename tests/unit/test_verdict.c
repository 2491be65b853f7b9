/* test_verdict.c: unit tests of the filters' verdict tables (runtime/verdict.h). */
#include <stdint.h>

#include "unit.h"
#include "verdict.h"

static const uintptr_t lo[] = { 0x1000, 0x5000 }, hi[] = { 0x2000, 0x6000 };

/* A module's functions get their own verdicts, the unnamed ones the module's,
 * and addresses outside every module none yet. */
void test_verdict_module_and_functions(void)
{
	int id = verdict_module_add(lo, hi, 2, true);

	CHECK(id >= 0);
	CHECK_EQ_U64(verdict_set(id, 0x1100, false), 0);
	CHECK_EQ_U64(verdict_set(id, 0x5100, true), 0);
	/* Not published yet: only the functions with a verdict of their own have one. */
	CHECK_EQ_U64(verdict_of(0x1100), VERDICT_EXCLUDE);
	CHECK_EQ_U64(verdict_of(0x1200), VERDICT_UNDECIDED);
	verdict_module_publish(id);
	CHECK_EQ_U64(verdict_of(0x1100), VERDICT_EXCLUDE);
	CHECK_EQ_U64(verdict_of(0x5100), VERDICT_ADMIT);
	CHECK_EQ_U64(verdict_of(0x1200), VERDICT_ADMIT);
	CHECK_EQ_U64(verdict_of(0x5fff), VERDICT_ADMIT);
	CHECK_EQ_U64(verdict_of(0x2000), VERDICT_UNDECIDED);
	CHECK_EQ_U64(verdict_of(0x9000), VERDICT_UNDECIDED);
}

/* A dropped module's verdicts no longer apply; a module loaded at its place
 * later gets its own, and takes the free id. */
void test_verdict_drop_and_reload(void)
{
	int a = verdict_module_add(lo, hi, 1, true), b;

	verdict_set(a, 0x1100, false);
	verdict_module_publish(a);
	verdict_module_drop(a);
	CHECK_EQ_U64(verdict_of(0x1100), VERDICT_UNDECIDED);
	CHECK_EQ_U64(verdict_of(0x1200), VERDICT_UNDECIDED);
	b = verdict_module_add(lo, hi, 1, false);
	CHECK_EQ_U64(b, a);
	verdict_set(b, 0x1300, true);
	verdict_module_publish(b);
	CHECK_EQ_U64(verdict_of(0x1100), VERDICT_EXCLUDE);
	CHECK_EQ_U64(verdict_of(0x1300), VERDICT_ADMIT);
}

/* The function table grows past its first size and keeps every verdict. */
void test_verdict_many_functions(void)
{
	static const uintptr_t big_lo[] = { 0x100000 }, big_hi[] = { 0x900000 };
	int id = verdict_module_add(big_lo, big_hi, 1, false);

	for (uintptr_t f = 0x100000; f < 0x100000 + 20000 * 16; f += 16)
		CHECK_EQ_U64(verdict_set(id, f, (f >> 4) % 3 == 0), 0);
	verdict_module_publish(id);
	for (uintptr_t f = 0x100000; f < 0x100000 + 20000 * 16; f += 16)
		CHECK_EQ_U64(verdict_of(f), (f >> 4) % 3 == 0 ? VERDICT_ADMIT : VERDICT_EXCLUDE);
	CHECK_EQ_U64(verdict_of(0x100008), VERDICT_EXCLUDE);
}
