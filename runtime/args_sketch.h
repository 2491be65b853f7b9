/*
 * args_sketch.h: the value profiles of args.h as data, shared by the capture
 * (args_capture.c) and the dump (args_dump.c): per thread and selected
 * function, two space-saving sketches (Metwally, Agrawal and El Abbadi, 2005),
 * of argument tuples and of return values, and how a call's values are encoded.
 *
 * A sketch keeps at most `entries` values with a count each.  A value seen
 * again adds one to its count; a new one takes a free entry, or replaces the
 * entry of least count c, starting from c + 1 with an error of c: every count
 * is at most its error above the value's true count, every value seen more
 * than calls / entries times is kept, and the counts add up to every call.
 * A value is found through an index by its hash (open addressing), and the
 * least counted entry is the root of a min-heap by count, so a call costs the
 * same whatever the bound (args_sketch.c): a selected function whose values
 * never repeat (pointers, say) replaces an entry on every call.
 *
 * Encoding, per scalar of the plan (args.h), in order: 8 bytes (an integer,
 * sign- or zero-extended from its size; a float's or double's bits), 16 bytes
 * for a long double (10 used), and for a C string a status byte, then the
 * pointer's 8 bytes (NULL, unreadable) or a length byte and the bytes (read).
 */
#ifndef CALLPROF_ARGS_SKETCH_H
#define CALLPROF_ARGS_SKETCH_H

#include <stddef.h>
#include <stdint.h>

#include "args.h"

/* A C string's status in a tuple. */
enum { STR_NULL, STR_READ, STR_LONGER, STR_UNREADABLE };

/* One value of a sketch; `data` holds its encoding (the sketch's stride bytes). */
struct sketch_entry {
	uint64_t hash;
	uint64_t count;      /* calls counted for it */
	uint64_t error;      /* of which at most this many were others' */
	uint64_t timed;      /* calls that returned while it held the entry */
	uint64_t incl_ticks; /* their summed time */
	uint64_t min_ticks, max_ticks;
	uint32_t heap_at; /* its place in the sketch's heap */
	uint16_t len;     /* bytes of data */
	unsigned char data[];
};

struct sketch {
	uint32_t n;       /* entries in use */
	uint32_t entries; /* the bound */
	size_t stride;    /* bytes of one entry */
	char *base;       /* the entries, `stride` bytes apart */
	uint32_t mask;    /* the index's slots, less one (a power of two, less one) */
	uint32_t *index;  /* by hash: an entry's number + 1, 0 for a free slot */
	uint32_t *heap;   /* the entries in use by count, least first (a binary heap) */
};

static inline struct sketch_entry *sketch_at(const struct sketch *k, uint32_t i)
{
	return (struct sketch_entry *)(void *)(k->base + (size_t)i * k->stride);
}

/* The bytes a sketch of `entries` entries of `stride` bytes takes, and
 * sketch_init's making one of them in `mem` (zeroed, 8-byte aligned). */
size_t sketch_bytes(uint32_t entries, size_t stride);
void sketch_init(struct sketch *k, uint32_t entries, size_t stride, void *mem);

/* The first entry of hash `hash`, or NULL. */
struct sketch_entry *sketch_find(const struct sketch *k, uint64_t hash);

/* Counts one more call of the value `data` (`len` bytes at most the stride's
 * room, hash `hash`). */
void sketch_count(struct sketch *k, const unsigned char *data, uint16_t len, uint64_t hash);

/* Empties it. */
void sketch_clear(struct sketch *k);

/* One thread's value profile of one selected function. */
struct vprof {
	const struct args_plan *plan;
	uint64_t calls;   /* calls captured */
	uint64_t returns; /* returns whose value was captured */
	struct sketch tuples;
	struct sketch rets;
};

/* A thread's value profiles, by plan id. */
struct args_thread {
	uint32_t cap;
	struct vprof **by_plan;
};

/* The bound, CALLPROF_ARGS_ENTRIES (args_capture.c). */
extern uint32_t args_entries;

/* Every plan made so far, by id (args_plan.c). */
struct args_plan *const *args_plans(uint32_t *n);

#endif
