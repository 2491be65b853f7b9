/* test_keymap.c: the id -> index map of the loader and the analysis (report/keymap.c). */
#include <stdint.h>

#include "check.h"
#include "keymap.h"

void test_keymap_put_get(void)
{
	struct keymap m;

	keymap_init(&m, 4);
	CHECK(keymap_put(&m, 42, 0) == 0);
	CHECK(keymap_put(&m, 7, 1) == 0);
	CHECK(keymap_get(&m, 42) == 0);
	CHECK(keymap_get(&m, 7) == 1);
	CHECK(keymap_get(&m, 8) == -1);
	CHECK_EQ_U64(m.n, 2);
	keymap_release(&m);
}

void test_keymap_put_refuses_duplicates(void)
{
	struct keymap m;

	keymap_init(&m, 0);
	CHECK(keymap_put(&m, 5, 3) == 0);
	CHECK(keymap_put(&m, 5, 9) == -1);
	CHECK(keymap_put(&m, 5, 3) == -1); /* the same pair twice is a duplicate id too */
	CHECK(keymap_get(&m, 5) == 3);
	CHECK_EQ_U64(m.n, 1);
	keymap_release(&m);
}

void test_keymap_find_or_add(void)
{
	struct keymap m;

	keymap_init(&m, 0);
	CHECK_EQ_U64(keymap_find_or_add(&m, 100, 0), 0);
	CHECK_EQ_U64(keymap_find_or_add(&m, 200, 1), 1);
	CHECK_EQ_U64(keymap_find_or_add(&m, 100, 2), 0); /* present: its index, next unused */
	CHECK_EQ_U64(m.n, 2);
	keymap_release(&m);
}

void test_keymap_grows(void)
{
	struct keymap m;
	const uint32_t n = 100000;

	keymap_init(&m, 1);
	/* Keys with the same low bits, as packed (parent, fn) pairs have. */
	for (uint32_t i = 0; i < n; i++)
		CHECK(keymap_put(&m, (uint64_t)i << 32, i) == 0);
	CHECK_EQ_U64(m.n, n);
	CHECK_LT_U64(2 * m.n, m.mask + 1); /* kept under half full */
	for (uint32_t i = 0; i < n; i++)
		if (keymap_get(&m, (uint64_t)i << 32) != (int64_t)i)
			unit_fail(__FILE__, __LINE__, "key %u lost after growing", i);
	CHECK(keymap_get(&m, 1) == -1);
	keymap_release(&m);
}

void test_keymap_extreme_keys(void)
{
	struct keymap m;

	keymap_init(&m, 2);
	CHECK(keymap_put(&m, 0, 10) == 0);
	CHECK(keymap_put(&m, UINT64_MAX, 11) == 0);
	CHECK(keymap_put(&m, (uint64_t)INT64_MIN, 12) == 0);
	CHECK(keymap_get(&m, 0) == 10);
	CHECK(keymap_get(&m, UINT64_MAX) == 11);
	CHECK(keymap_get(&m, (uint64_t)INT64_MIN) == 12);
	keymap_release(&m);
}
