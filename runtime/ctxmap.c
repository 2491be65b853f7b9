/* ctxmap.c: a thread's execution contexts and their kept shadow stacks (ctxmap.h). */
#include "ctxmap.h"

#include <string.h>
#include <sys/mman.h>

#define CTXMAP_MIN_SLOTS 16u

static size_t map_bytes(size_t slots)
{
	return sizeof(struct ctxmap) + slots * sizeof(struct ctx_entry);
}

static size_t slot_of(const void *key, size_t mask)
{
	return (size_t)(((uint64_t)(uintptr_t)key * 0x9E3779B97F4A7C15ull) >> 32) & mask;
}

/* The slot of `key` in `m`, or where it would go (the first empty or freed slot on its way). */
static struct ctx_entry *slot_find(struct ctxmap *m, const void *key)
{
	struct ctx_entry *free_slot = NULL;

	for (size_t i = slot_of(key, m->mask);; i = (i + 1) & m->mask) {
		struct ctx_entry *e = &m->slots[i];
		if (e->key == key)
			return e;
		if (e->key == CTXMAP_GONE && !free_slot)
			free_slot = e;
		if (!e->key)
			return free_slot ? free_slot : e;
	}
}

/* A map twice as big (or the first), with the entries of `old`; NULL without memory. */
static struct ctxmap *grown(struct ctxmap *old)
{
	size_t live = 0, slots = CTXMAP_MIN_SLOTS;
	struct ctxmap *m;

	for (size_t i = 0; old && i <= old->mask; i++)
		live += old->slots[i].key && old->slots[i].key != CTXMAP_GONE;
	while (slots < 4 * (live + 1))
		slots *= 2;
	m = mmap(NULL, map_bytes(slots), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1,
		 0);
	if (m == MAP_FAILED)
		return NULL;
	m->mask = slots - 1;
	for (size_t i = 0; old && i <= old->mask; i++) {
		const struct ctx_entry *e = &old->slots[i];
		if (e->key && e->key != CTXMAP_GONE) {
			*slot_find(m, e->key) = *e;
			m->used++;
		}
	}
	return m;
}

struct ctx_entry *ctxmap_get(struct ctxmap **map, const void *key, bool add)
{
	struct ctxmap *m = *map;
	struct ctx_entry *e;

	if (m && (e = slot_find(m, key))->key == key)
		return e;
	if (!add)
		return NULL;
	if (!m || 2 * (m->used + 1) > m->mask + 1) {
		struct ctxmap *bigger = grown(m);
		if (!bigger)
			return NULL;
		if (m)
			munmap(m, map_bytes(m->mask + 1));
		*map = m = bigger;
	}
	e = slot_find(m, key);
	if (!e->key)
		m->used++;
	memset(e, 0, sizeof(*e));
	e->key = key;
	return e;
}

void ctxmap_remove(struct ctx_entry *e)
{
	if (e->saved.base)
		shadow_release(&e->saved);
	hijack_stack_release(&e->ret);
	memset(e, 0, sizeof(*e));
	e->key = CTXMAP_GONE;
}

void ctxmap_release(struct ctxmap **map)
{
	struct ctxmap *m = *map;

	for (size_t i = 0; m && i <= m->mask; i++) {
		if (!m->slots[i].key || m->slots[i].key == CTXMAP_GONE)
			continue;
		if (m->slots[i].saved.base)
			shadow_release(&m->slots[i].saved);
		hijack_stack_release(&m->slots[i].ret);
	}
	if (m)
		munmap(m, map_bytes(m->mask + 1));
	*map = NULL;
}

void ctxmap_each_stack(struct ctxmap *map,
		       void (*visit)(struct shadow *s, uint64_t *paused_ticks, void *arg),
		       void *arg)
{
	for (size_t i = 0; map && i <= map->mask; i++) {
		struct ctx_entry *e = &map->slots[i];

		if (e->key && e->key != CTXMAP_GONE && e->saved.base)
			visit(&e->saved, &e->paused_ticks, arg);
	}
}

void ctxmap_each_saved(const struct ctxmap *map,
		       void (*visit)(const struct shadow *s, uint64_t paused_ticks, void *arg),
		       void *arg)
{
	for (size_t i = 0; map && i <= map->mask; i++) {
		const struct ctx_entry *e = &map->slots[i];
		if (e->key && e->key != CTXMAP_GONE && e->saved.base)
			visit(&e->saved, e->paused_ticks, arg);
	}
}
