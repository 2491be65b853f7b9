/*
 * ctxmap.h: the execution contexts of one thread (makecontext, swapcontext,
 * setcontext: context.c) and the shadow stack each keeps while another runs.
 * A small open-addressing table keyed by the ucontext_t's address, mapped
 * with mmap (context.c fills it from interposers, which must not call malloc
 * behind an instrumented allocator).  Only the owning thread writes it; a dump
 * reads the stacks of a running thread's contexts.
 */
#ifndef CALLPROF_CTXMAP_H
#define CALLPROF_CTXMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hijack_stack.h"
#include "shadow.h"

/* One context the thread has seen. */
struct ctx_entry {
	const void *key;     /* its ucontext_t; NULL: an empty slot, CTXMAP_GONE: a freed one */
	struct shadow saved; /* its shadow stack while it does not run (saved.base NULL: none) */
	struct hijack_stack ret; /* its hijacked returns while it does not run (hijack.h) */
	uint64_t paused_ticks;   /* when it stopped running: its open calls' time stops there */
	bool fresh;              /* made by makecontext and not run since: its stack starts empty */
};

#define CTXMAP_GONE ((const void *)1)

struct ctxmap {
	size_t mask;              /* slots - 1 */
	size_t used;              /* slots holding a key or CTXMAP_GONE */
	struct ctx_entry slots[]; /* mmap'ed with the header */
};

/* The entry of `key` in *map, added (made, or grown) when `add`; NULL if
 * absent, or without memory. */
struct ctx_entry *ctxmap_get(struct ctxmap **map, const void *key, bool add);

/* Forgets the entry `e` and the stack it kept. */
void ctxmap_remove(struct ctx_entry *e);

/* Frees the map and every stack it keeps (a thread's end, a fork child's new profile). */
void ctxmap_release(struct ctxmap **map);

/* Calls `visit` for each stack the map keeps, to change it and when it
 * stopped running (a fork child's new profile). */
void ctxmap_each_stack(struct ctxmap *map,
		       void (*visit)(struct shadow *s, uint64_t *paused_ticks, void *arg),
		       void *arg);

/* Calls `visit` for each stack the map keeps, with when it stopped running. */
void ctxmap_each_saved(const struct ctxmap *map,
		       void (*visit)(const struct shadow *s, uint64_t paused_ticks, void *arg),
		       void *arg);

#endif
