/*
 * args_sketch.c: the space-saving sketch of args_sketch.h.  Finding a value
 * is a probe of the index (linear probing, at most half full), keeping the
 * least counted entry at hand a min-heap: a hit moves its entry down the
 * heap, a new value past the bound takes the root's entry, whose old value
 * leaves the index (backward-shift deletion: no tombstones to pile up when
 * every call brings a new value).
 */
#include "args_sketch.h"

#include <stdbool.h>
#include <string.h>

/* The index's slots for `entries` entries: a power of two, at least twice as many. */
static uint32_t slots_for(uint32_t entries)
{
	uint32_t slots = 8;

	while (slots < 2 * (uint64_t)entries)
		slots *= 2;
	return slots;
}

static size_t round8(size_t bytes)
{
	return (bytes + 7) / 8 * 8;
}

size_t sketch_bytes(uint32_t entries, size_t stride)
{
	return (size_t)entries * stride + round8((size_t)slots_for(entries) * sizeof(uint32_t)) +
	       round8((size_t)entries * sizeof(uint32_t));
}

void sketch_init(struct sketch *k, uint32_t entries, size_t stride, void *mem)
{
	uint32_t slots = slots_for(entries);
	char *p = mem;

	k->n = 0;
	k->entries = entries;
	k->stride = stride;
	k->base = p;
	p += (size_t)entries * stride;
	k->mask = slots - 1;
	k->index = (uint32_t *)(void *)p;
	p += round8((size_t)slots * sizeof(uint32_t));
	k->heap = (uint32_t *)(void *)p;
}

void sketch_clear(struct sketch *k)
{
	k->n = 0;
	memset(k->index, 0, ((size_t)k->mask + 1) * sizeof(uint32_t));
}

/* The slot a hash starts its probe at (Fibonacci hashing: every bit of it counts). */
static uint32_t home(const struct sketch *k, uint64_t hash)
{
	return (uint32_t)((hash * 0x9e3779b97f4a7c15ull) >> 32) & k->mask;
}

static uint64_t count_at(const struct sketch *k, uint32_t heap_i)
{
	return sketch_at(k, k->heap[heap_i])->count;
}

static void heap_put(struct sketch *k, uint32_t heap_i, uint32_t entry)
{
	k->heap[heap_i] = entry;
	sketch_at(k, entry)->heap_at = heap_i;
}

/* Moves the heap's i-th entry down while a child counts less. */
static void sift_down(struct sketch *k, uint32_t i)
{
	uint32_t entry = k->heap[i];
	uint64_t count = sketch_at(k, entry)->count;

	for (;;) {
		uint32_t c = 2 * i + 1;

		if (c >= k->n)
			break;
		if (c + 1 < k->n && count_at(k, c + 1) < count_at(k, c))
			c++;
		if (count_at(k, c) >= count)
			break;
		heap_put(k, i, k->heap[c]);
		i = c;
	}
	heap_put(k, i, entry);
}

/* Moves the heap's i-th entry up while its parent counts more. */
static void sift_up(struct sketch *k, uint32_t i)
{
	uint32_t entry = k->heap[i];
	uint64_t count = sketch_at(k, entry)->count;

	while (i > 0 && count_at(k, (i - 1) / 2) > count) {
		heap_put(k, i, k->heap[(i - 1) / 2]);
		i = (i - 1) / 2;
	}
	heap_put(k, i, entry);
}

static void index_add(struct sketch *k, uint32_t entry)
{
	uint32_t i = home(k, sketch_at(k, entry)->hash);

	while (k->index[i])
		i = (i + 1) & k->mask;
	k->index[i] = entry + 1;
}

/* Takes `entry` out of the index, moving back the entries after it in its run
 * that may no longer be found past the hole. */
static void index_remove(struct sketch *k, uint32_t entry)
{
	uint32_t i = home(k, sketch_at(k, entry)->hash), j;

	while (k->index[i] != entry + 1)
		i = (i + 1) & k->mask;
	for (j = i;;) {
		uint32_t h;

		j = (j + 1) & k->mask;
		if (!k->index[j])
			break;
		h = home(k, sketch_at(k, k->index[j] - 1)->hash);
		/* It stays when its home lies cyclically in (i, j]. */
		if (i <= j ? i < h && h <= j : i < h || h <= j)
			continue;
		k->index[i] = k->index[j];
		i = j;
	}
	k->index[i] = 0;
}

struct sketch_entry *sketch_find(const struct sketch *k, uint64_t hash)
{
	for (uint32_t i = home(k, hash); k->index[i]; i = (i + 1) & k->mask) {
		struct sketch_entry *e = sketch_at(k, k->index[i] - 1);
		if (e->hash == hash)
			return e;
	}
	return NULL;
}

void sketch_count(struct sketch *k, const unsigned char *data, uint16_t len, uint64_t hash)
{
	struct sketch_entry *e;
	uint32_t entry;
	bool fresh = k->n < k->entries;

	for (uint32_t i = home(k, hash); k->index[i]; i = (i + 1) & k->mask) {
		e = sketch_at(k, k->index[i] - 1);
		if (e->hash == hash && e->len == len && !memcmp(e->data, data, len)) {
			e->count++;
			sift_down(k, e->heap_at);
			return;
		}
	}
	if (fresh) {
		entry = k->n++;
		e = sketch_at(k, entry);
		e->count = 1;
		e->error = 0;
	} else {
		entry = k->heap[0];
		e = sketch_at(k, entry);
		index_remove(k, entry);
		e->error = e->count;
		e->count++;
	}
	e->hash = hash;
	e->timed = e->incl_ticks = e->max_ticks = 0;
	e->min_ticks = UINT64_MAX;
	e->len = len;
	memcpy(e->data, data, len);
	index_add(k, entry);
	if (fresh) {
		heap_put(k, entry, entry); /* last in the heap, then up */
		sift_up(k, entry);
	} else {
		sift_down(k, 0);
	}
}
