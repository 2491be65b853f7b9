/* fold.c: the open calls of each function while calls are folded past the node budget (fold.h). */
#include "fold.h"

#include <string.h>
#include <sys/mman.h>

#define COUNTS_MIN 256u /* slots of the first count table; a power of two */
#define FRAMES_MIN 256u /* entries of the first side stack */

static void *map_bytes(size_t bytes)
{
	void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

static size_t slot_of(uintptr_t fn, size_t mask)
{
	return (size_t)(((uint64_t)fn * 0x9E3779B97F4A7C15ull) >> 32) & mask;
}

void fold_init(struct fold *f)
{
	memset(f, 0, sizeof(*f));
}

void fold_release(struct fold *f)
{
	if (f->counts)
		munmap(f->counts, (f->mask + 1) * sizeof(*f->counts));
	if (f->frames)
		munmap(f->frames, (size_t)f->cap * sizeof(*f->frames));
	fold_init(f);
}

/* The slot of `fn`: its own, or the empty one where it belongs. */
static struct fold_count *count_slot(struct fold_count *table, size_t mask, uintptr_t fn)
{
	size_t i = slot_of(fn, mask);

	while (table[i].fn && table[i].fn != fn)
		i = (i + 1) & mask;
	return &table[i];
}

/* Doubles the count table (or makes it).  Slots are never emptied: a
 * function keeps its slot at 0 open, and there are no more of them than
 * functions.  0, or -1 without memory. */
static int counts_grow(struct fold *f)
{
	size_t slots = f->counts ? (f->mask + 1) * 2 : COUNTS_MIN;
	struct fold_count *table = map_bytes(slots * sizeof(*table));

	if (!table)
		return -1;
	for (size_t i = 0; f->counts && i <= f->mask; i++)
		if (f->counts[i].fn)
			*count_slot(table, slots - 1, f->counts[i].fn) = f->counts[i];
	if (f->counts)
		munmap(f->counts, (f->mask + 1) * sizeof(*f->counts));
	f->counts = table;
	f->mask = slots - 1;
	return 0;
}

/* Adds `delta` to the open calls of `fn`.  0, or -1 without memory. */
static int count_add(struct fold *f, uintptr_t fn, int delta)
{
	struct fold_count *c;

	if ((!f->counts || 2 * (f->used + 1) > f->mask + 1) && counts_grow(f) < 0)
		return -1;
	c = count_slot(f->counts, f->mask, fn);
	if (!c->fn) {
		c->fn = fn;
		f->used++;
	}
	c->open += (uint64_t)(int64_t)delta;
	return 0;
}

static bool is_open(const struct fold *f, uintptr_t fn)
{
	const struct fold_count *c = f->counts ? count_slot(f->counts, f->mask, fn) : NULL;

	return c && c->fn && c->open;
}

/* The key a node's function is counted under: its address, also once retired. */
static uintptr_t node_fn(const struct cct_node *n)
{
	return cct_key_address(n->fn);
}

/*
 * Counts the path of `top` (its ancestors, itself included) in place of the
 * one counted so far: marks and counts the nodes above their lowest common
 * ancestor on the new path, then unmarks and uncounts those on the old.
 */
static int prefix_move(struct fold *f, struct cct_node *top)
{
	struct cct_node *n, *common;

	for (n = top; n->parent && !n->on_prefix; n = n->parent) {
		if (count_add(f, node_fn(n), 1) < 0)
			return -1;
		n->on_prefix = 1;
	}
	common = n;
	for (n = f->prefix; n && n != common && n->parent; n = n->parent) {
		count_add(f, node_fn(n), -1); /* its slot exists: no allocation */
		n->on_prefix = 0;
	}
	f->prefix = top;
	return 0;
}

/* Room for one more folded frame.  The old side stack stays mapped (a dump
 * may be reading it), as the shadow stack's does.  0, or -1 without memory. */
static int frames_room(struct fold *f)
{
	uint32_t cap = f->cap ? f->cap * 2 : FRAMES_MIN;
	struct fold_frame *frames;

	if (f->depth < f->cap)
		return 0;
	if (!(frames = map_bytes((size_t)cap * sizeof(*frames))))
		return -1;
	if (f->depth)
		memcpy(frames, f->frames, (size_t)f->depth * sizeof(*frames));
	__atomic_store_n(&f->frames, frames, __ATOMIC_RELEASE);
	f->cap = cap;
	return 0;
}

int fold_enter(struct fold *f, uint32_t index, uintptr_t fn, struct cct_node *real_top,
	       struct cct_node *charge)
{
	struct fold_frame *e;
	int nested;

	if (frames_room(f) < 0)
		return -1;
	if (!f->broken && real_top && prefix_move(f, real_top) < 0)
		f->broken = true;
	nested = f->broken || is_open(f, fn);
	if (!f->broken && count_add(f, fn, 1) < 0)
		f->broken = true, nested = 1;
	e = &f->frames[f->depth];
	e->index = index;
	e->nested = (uint32_t)nested;
	e->charge = charge;
	e->child_ticks = 0;
	e->closed_before = f->closed;
	__atomic_store_n(&f->depth, f->depth + 1, __ATOMIC_RELEASE);
	return nested;
}

bool fold_leave(struct fold *f, uint32_t index, uintptr_t fn, struct fold_frame *out)
{
	while (f->depth && f->frames[f->depth - 1].index > index)
		f->depth--; /* cannot happen: frames close innermost first */
	if (!f->depth || f->frames[f->depth - 1].index != index)
		return false;
	*out = f->frames[f->depth - 1];
	__atomic_store_n(&f->depth, f->depth - 1, __ATOMIC_RELEASE);
	f->closed++;
	if (!f->broken)
		count_add(f, fn, -1);
	return true;
}

const struct fold_frame *fold_frame_at(const struct fold *f, uint32_t index)
{
	const struct fold_frame *frames = __atomic_load_n(&f->frames, __ATOMIC_ACQUIRE);
	uint32_t lo = 0, hi = __atomic_load_n(&f->depth, __ATOMIC_ACQUIRE);

	while (lo < hi) { /* entries are sorted by index */
		uint32_t mid = (lo + hi) / 2;
		if (frames[mid].index < index)
			lo = mid + 1;
		else if (frames[mid].index > index)
			hi = mid;
		else
			return &frames[mid];
	}
	return NULL;
}

struct fold_frame *fold_top(struct fold *f)
{
	return f->depth ? &f->frames[f->depth - 1] : NULL;
}

void fold_suspend(struct fold *f)
{
	if (!f->prefix)
		return;
	for (struct cct_node *n = f->prefix; n->parent; n = n->parent) {
		count_add(f, node_fn(n), -1);
		n->on_prefix = 0;
	}
	f->suspended = f->prefix;
	f->prefix = NULL;
}

void fold_resume(struct fold *f)
{
	if (f->suspended && !f->broken && prefix_move(f, f->suspended) < 0)
		f->broken = true;
	f->suspended = NULL;
}
