/* test_sketch.c: unit tests of the value profiles' space-saving sketch (runtime/args_sketch.h):
 * what it keeps and counts, and its index found whole through every replacement. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "args_sketch.h"
#include "unit.h"

#define STRIDE ((sizeof(struct sketch_entry) + 8 + 7) / 8 * 8) /* one 8-byte value */

static void sketch_new(struct sketch *k, uint32_t entries)
{
	void *mem = calloc(1, sketch_bytes(entries, STRIDE));

	CHECK_NOT_NULL(mem);
	sketch_init(k, entries, STRIDE, mem);
}

/* Counts the value v, hashed by `hash` (the capture's hash, or one made to collide). */
static void count(struct sketch *k, uint64_t v, uint64_t hash)
{
	unsigned char data[8];

	memcpy(data, &v, sizeof(v));
	sketch_count(k, data, sizeof(data), hash);
}

static uint64_t value_of(const struct sketch_entry *e)
{
	uint64_t v;

	memcpy(&v, e->data, sizeof(v));
	return v;
}

/* The entry holding v, or NULL. */
static const struct sketch_entry *entry_of(const struct sketch *k, uint64_t v)
{
	for (uint32_t i = 0; i < k->n; i++)
		if (value_of(sketch_at(k, i)) == v)
			return sketch_at(k, i);
	return NULL;
}

/* Every entry in use is what sketch_find finds by its hash (hashes unique), the
 * heap's root counts least, and the counts add up to `calls`. */
static void check_whole(const struct sketch *k, uint64_t calls)
{
	uint64_t sum = 0, least = UINT64_MAX;

	for (uint32_t i = 0; i < k->n; i++) {
		const struct sketch_entry *e = sketch_at(k, i);
		CHECK_EQ_PTR(sketch_find(k, e->hash), e);
		CHECK_EQ_U64(k->heap[e->heap_at], i);
		sum += e->count;
		if (e->count < least)
			least = e->count;
	}
	CHECK_EQ_U64(sum, calls);
	if (k->n)
		CHECK_EQ_U64(sketch_at(k, k->heap[0])->count, least);
}

/* A value seen again adds to its count; a new one past the bound takes the entry
 * of least count c, at c + 1 with an error of c. */
void test_sketch_replaces_least(void)
{
	struct sketch k;

	sketch_new(&k, 3);
	for (int i = 0; i < 3; i++)
		count(&k, 10, 1010);
	count(&k, 20, 2020);
	count(&k, 20, 2020);
	count(&k, 30, 3030);
	count(&k, 40, 4040); /* replaces 30 (count 1) */
	CHECK_EQ_U64(k.n, 3);
	CHECK_EQ_PTR(entry_of(&k, 30), NULL);
	CHECK_EQ_PTR(sketch_find(&k, 3030), NULL);
	CHECK_EQ_U64(entry_of(&k, 40)->count, 2);
	CHECK_EQ_U64(entry_of(&k, 40)->error, 1);
	count(&k, 50, 5050); /* replaces 40 or 20 (both count 2) */
	CHECK_EQ_U64(entry_of(&k, 10)->count, 3);
	CHECK_EQ_U64(entry_of(&k, 50)->count, 3);
	CHECK_EQ_U64(entry_of(&k, 50)->error, 2);
	check_whole(&k, 8);
	free(k.base);
}

/* Two values of the same hash are kept apart (the data decides); sketch_find gives the first. */
void test_sketch_same_hash(void)
{
	struct sketch k;

	sketch_new(&k, 4);
	count(&k, 1, 77);
	count(&k, 2, 77);
	count(&k, 2, 77);
	CHECK_EQ_U64(k.n, 2);
	CHECK_EQ_U64(entry_of(&k, 1)->count, 1);
	CHECK_EQ_U64(entry_of(&k, 2)->count, 2);
	CHECK_EQ_PTR(sketch_find(&k, 77), entry_of(&k, 1));
	free(k.base);
}

/* The hash of v in test_sketch_stream: a third of the values differ only in
 * bits the index's home slot does not depend on, so they crowd one run. */
static uint64_t crowded_hash(uint64_t v)
{
	return v % 3 == 0 ? v << 40 | 1 : (v * 0xff51afd7ed558ccdull) | 1;
}

/*
 * A million values, most of them seldom seen again, a third of their hashes
 * sharing one home slot:
 * after every replacement the index still finds each entry, a value seen more
 * than calls / entries times is kept, and each count is within its error of
 * the truth.
 */
void test_sketch_stream(void)
{
	enum { ENTRIES = 16, CALLS = 1000000 };
	struct sketch k;
	uint64_t heavy = 0, seed = 12345;

	sketch_new(&k, ENTRIES);
	for (uint64_t i = 0; i < CALLS; i++) {
		uint64_t v;

		seed = seed * 6364136223846793005ull + 1442695040888963407ull;
		if (i % 5 == 0) {
			v = 7; /* a fifth of the calls */
			heavy++;
		} else {
			v = 1000 + (seed >> 20) % 4096; /* crowded */
		}
		count(&k, v, crowded_hash(v));
		if (i % 9973 == 0)
			check_whole(&k, i + 1);
	}
	check_whole(&k, CALLS);
	CHECK_NOT_NULL(entry_of(&k, 7));
	CHECK_GE_U64(entry_of(&k, 7)->count, heavy);
	CHECK_LE_U64(entry_of(&k, 7)->count - entry_of(&k, 7)->error, heavy);
	sketch_clear(&k);
	CHECK_EQ_U64(k.n, 0);
	CHECK_EQ_PTR(sketch_find(&k, crowded_hash(7)), NULL);
	count(&k, 7, 7);
	check_whole(&k, 1);
	free(k.base);
}
