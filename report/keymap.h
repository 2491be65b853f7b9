/* keymap.h: a hash map from 64-bit keys (ids, packed pairs) to dense indexes, for the loader and the analysis. */
#ifndef CALLPROF_KEYMAP_H
#define CALLPROF_KEYMAP_H

#include <stddef.h>
#include <stdint.h>

struct keymap {
	size_t mask; /* capacity - 1; capacity is a power of two */
	uint64_t *keys;
	uint32_t *vals; /* index + 1; 0 marks an empty slot */
	size_t n;       /* keys stored */
};

/* keymap_init: an empty map sized for about `expect` keys (it grows past them). */
void keymap_init(struct keymap *m, size_t expect);
void keymap_release(struct keymap *m);

/* keymap_find_or_add: the index stored for key; if absent stores `next` and returns it. */
uint32_t keymap_find_or_add(struct keymap *m, uint64_t key, uint32_t next);

/* keymap_put: stores key -> index; 0, or -1 if the key is already there. */
int keymap_put(struct keymap *m, uint64_t key, uint32_t index);

/* keymap_get: the index stored for key, or -1. */
int64_t keymap_get(const struct keymap *m, uint64_t key);

#endif
