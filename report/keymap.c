/* keymap.c: open addressing with linear probing, kept under half full. */
#include "keymap.h"

#include <stdlib.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "buf.h"

/*
 * The keys come from a dump, and mix64 alone is a known bijection: a hostile
 * dump could pick a million ids that all land in one run of slots and make
 * loading quadratic.  A seed drawn once per process keys the hash; where a key
 * lands never shows in the output, so reports stay the same from run to run.
 */
static uint64_t keymap_seed;

static uint64_t mix64(uint64_t x)
{
	x ^= keymap_seed;
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ull;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebull;
	return x ^ (x >> 31);
}

void keymap_init(struct keymap *m, size_t expect)
{
	size_t cap = 16;

	if (!keymap_seed && getrandom(&keymap_seed, sizeof(keymap_seed), GRND_NONBLOCK) !=
				    (ssize_t)sizeof(keymap_seed))
		keymap_seed =
			(uint64_t)time(NULL) * UINT64_C(0x9e3779b97f4a7c15) ^ (uint64_t)getpid();
	keymap_seed |= 1; /* drawn: never 0 again */
	while (cap < 2 * expect)
		cap *= 2;
	m->mask = cap - 1;
	m->keys = xmalloc(cap * sizeof(*m->keys));
	m->vals = xcalloc(cap, sizeof(*m->vals));
	m->n = 0;
}

void keymap_release(struct keymap *m)
{
	free(m->keys);
	free(m->vals);
	m->keys = NULL;
	m->vals = NULL;
}

static void keymap_grow(struct keymap *m)
{
	struct keymap old = *m;

	keymap_init(m, old.mask + 1);
	for (size_t i = 0; i <= old.mask; i++) {
		size_t j;
		if (!old.vals[i])
			continue;
		for (j = mix64(old.keys[i]) & m->mask; m->vals[j]; j = (j + 1) & m->mask)
			;
		m->keys[j] = old.keys[i];
		m->vals[j] = old.vals[i];
	}
	m->n = old.n;
	keymap_release(&old);
}

/* The slot holding key, or the empty slot where it belongs. */
static size_t keymap_slot(const struct keymap *m, uint64_t key)
{
	size_t i = mix64(key) & m->mask;

	while (m->vals[i] && m->keys[i] != key)
		i = (i + 1) & m->mask;
	return i;
}

uint32_t keymap_find_or_add(struct keymap *m, uint64_t key, uint32_t next)
{
	size_t i;

	if (2 * (m->n + 1) > m->mask + 1)
		keymap_grow(m);
	i = keymap_slot(m, key);
	if (m->vals[i])
		return m->vals[i] - 1;
	m->keys[i] = key;
	m->vals[i] = next + 1;
	m->n++;
	return next;
}

int keymap_put(struct keymap *m, uint64_t key, uint32_t index)
{
	size_t before = m->n;

	return keymap_find_or_add(m, key, index) == index && m->n > before ? 0 : -1;
}

int64_t keymap_get(const struct keymap *m, uint64_t key)
{
	size_t i = keymap_slot(m, key);

	return m->vals[i] ? (int64_t)m->vals[i] - 1 : -1;
}
