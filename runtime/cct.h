/*
 * cct.h: the per-thread calling-context tree (CCT).
 *
 * One node per distinct call path from a thread's root.  If main calls a twice
 * and b once, and a calls c each time, the tree is
 *
 *     root ── main (1) ─┬─ a (2) ── c (2)
 *                       └─ b (1)
 *
 * and a call of c from b would get a node of its own under b.  Recursion makes
 * a new node per depth, so a node is never active twice at once and its
 * inclusive time never double-counts; per-function figures are derived at
 * dump time.
 *
 * Finding the child of a node for a function is the probe's one lookup: each
 * node holds a small open-addressing table of CCT_SLOTS children keyed by
 * function address (hashed, since ASLR leaves the low bits nearly constant);
 * a node with more children falls back to a per-tree hash keyed by
 * (parent, fn), which then holds all of its children, so its lookups go
 * straight there (`many`).  Nodes come from a per-thread arena of mmap'ed chunks, never
 * from malloc, and are never freed before the process ends.
 *
 * Only the owning thread writes a tree; the dump reads it.
 */
#ifndef CALLPROF_CCT_H
#define CALLPROF_CCT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "compat.h"
#include "kind.h"

#define CCT_SLOTS 4 /* children kept inline in a node; a power of two */
#define CCT_LINE 64 /* a cache line: nodes are aligned to it */

/* Exact sums of squared durations (sampled timing). */
__extension__ typedef unsigned __int128 cct_wide;

/*
 * The fields a probe touches come first, in two cache lines (the arena aligns
 * every node to 64 bytes): the first holds what a call of the node reads and
 * writes, and what its callees' calls update in it; the second its child
 * table, which a callee's lookup reads.  A call then touches two lines of two
 * nodes, where a program's calls spread over thousands of them (bench/run.sh,
 * section 2c).
 */
struct cct_node {
	uintptr_t fe_word;             /* the front-end's word on this node's calls, set by the
					  * first one it opens: 0 for -finstrument-functions; its
					  * low bits name the front-end (CCT_FE_*), the rest is
					  * that front-end's (fentry.h).  Beside calls: the
					  * -pg -mfentry fast path reads it */
	uint64_t calls;                /* activations entered */
	uint64_t incl_ticks;           /* summed duration of finished activations */
	uint64_t child_ticks;          /* summed duration of its children's activations */
	uint64_t min_ticks, max_ticks; /* shortest and longest finished activation */
	uint32_t sample_left;          /* sampled timing: untimed calls before its next timed one */
	uint32_t many;                 /* slots full: every child is in the overflow table too */
	uint16_t timing;               /* sampled timing: CCT_TIME_*, how its calls are picked */
	uint16_t cpu;                  /* CCT_CPU_READ: its next call reads the CPU clock
					* (cputime.h); the enter fast paths test it */
	uint16_t first_left;           /* sampled timing: of its first CCT_TIMED_FIRST calls, all
					* timed, those not yet entered */
	uint16_t heavy;                /* sampled timing: its long own-timed calls hold much of
					* its time, so an own-timed caller times all its calls
					* (stamp.h).  These two beside sample_left: a timed call
					* reads no other line of its node before its clock */
	uintptr_t slot_fn[CCT_SLOTS];  /* inline child table: key ... */
	struct cct_node *slot_child[CCT_SLOTS]; /* ... and child; slot_fn 0 = empty */
	uintptr_t fn;                           /* function address; 0 for the root */
	struct cct_node *parent;                /* NULL for the root */
	struct cct_node *first_child;           /* children, newest first, for walking */
	uintptr_t call_site;                    /* return address in the caller, first call seen */
	/* Last, clear of the lookup's fields: only probes of other kinds than plain read them. */
	uint64_t kind_calls[PROBE_KINDS -
			    1]; /* activations of each kind but PROBE_PLAIN (index kind - 1) */
	uint32_t fence;         /* CCT_FENCE_*: how tsc-adaptive reads its times (stamp.h) */
	uint32_t
		on_prefix; /* open below folded calls, counted in their thread's fold state (fold.h) */
	uint64_t nested_ticks;     /* of incl_ticks, the time of its nested folded calls (fold.h) */
	uint64_t fold_child_calls; /* folded calls it made: their o_out is in its self time */
	uint64_t fold_nested_out;  /* of those, the ones made from its nested folded activations
					  * (fold.h): their o_out is in its inclusive time too */
	uint64_t fold_inner_calls; /* folded calls it was the charge of, and those inside its timed
					  * ones: their whole probe cost is in its inclusive time */
	uint64_t unrecorded_calls[PROBE_FRONT_KINDS]; /* calls made from its activations that got no
						 * node (filtered out, past CALLPROF_MAX_DEPTH), by
						 * their front-end's kind: their probes' whole cost
						 * is in its self time */
	uint64_t capture_ticks;        /* its calls' capture of their arguments and return values
				 * (args.h), measured on each: what their probes' cold paths took
				 * outside their intervals, so in their caller's time */
	struct cct_node *next_sibling; /* walking only: far from what the probes touch */
	/* Sampled timing (stamp.h): its first CCT_TIMED_FIRST calls are timed,
	 * then about one in options.sample_rate.  incl_ticks, child_ticks (its
	 * callees' time as lent to it), min_ticks and max_ticks are over the timed
	 * activations; the sums past the first calls are the estimate's. */
	uint64_t act_child_ticks;  /* the open timed activation's callees' time so far, as lent */
	uint32_t act_lent;         /* the callees the open timed activation timed whole so far,
				   * heavy ones aside (stamp.h) */
	uint32_t lend_left;        /* its callees past those to go untimed before it times one
				   * standing for R (stamp.h) */
	uint32_t dump_id;          /* scratch for the dump; the probes never touch it */
	uint32_t fence_votes;      /* tsc-adaptive: its sampled calls whose own work paid for
				    * fenced reads (probe.c) */
	uint64_t lent_calls;       /* its calls timed whole for their caller (FRAME_LENT) */
	uint64_t fold_child_ticks; /* its folded callees' time, all of it (fold.h): left out of
				    * the self time estimated from its timed calls */
	uint64_t sample_calls;     /* own-timed calls past the first ones, finished */
	int64_t sample_self;       /* their summed self time (one may be below 0: shadow.h) */
	cct_wide sample_self_sq;   /* their self times squared, summed: the variance */
	/* CPU time (cputime.h): the calls that read the CPU clock, finished. */
	uint64_t cpu_calls;
	uint64_t cpu_ns;         /* their CPU time, ns */
	uint64_t cpu_wall_ticks; /* their wall time, ticks, read with it */
	uint64_t long_ticks;     /* sampled timing: the time of its own-timed calls that lasted
				  * frames_heavy_ticks or more */
};

/* Whether a node's next call reads the CPU clock (cputime.h): CCT_CPU_READ
 * set, or never (calibration's trees, whose loops must time the probes only). */
#define CCT_CPU_SKIP 0u
#define CCT_CPU_READ 1u
#define CCT_CPU_NEVER 2u

/* Sampled timing: the calls of a node that are all timed, before sampling;
 * the callees an own-timed call times for its self time (stamp.h). */
#define CCT_TIMED_FIRST 64
#define CCT_LENT_CALLS 64

/* Sampled timing: the own-timed calls of node `n`, the first ones entered and
 * the later ones finished. */
static inline uint64_t cct_timed_calls(const struct cct_node *n)
{
	return (uint64_t)(CCT_TIMED_FIRST - n->first_left) + n->sample_calls;
}

/* How a node's calls are picked for timing under sampled timing. */
#define CCT_TIME_SAMPLE 0u /* the first ones, then at random */
#define CCT_TIME_ALWAYS 1u /* every one (calibration) */
#define CCT_TIME_NEVER 2u  /* none (calibration) */
#define CCT_TIME_ALONE 3u  /* every one, timing none of its callees (calibration) */

/* A -pg -mfentry node's key is the end of the call of __fentry__ its function
 * starts with, at most this many bytes in (fentry.h). */
#define CCT_FE_FENTRY_KEY_SPAN 16

/* The front-end of a node's calls (fe_word & CCT_FE_MASK). */
#define CCT_FE_MASK ((uintptr_t)3)
#define CCT_FE_FINSTRUMENT ((uintptr_t)0)
#define CCT_FE_FENTRY ((uintptr_t)1)
#define CCT_FE_LIBRARY ((uintptr_t)2)

/* The kind (kind.h) of a node's calls that were counted as no other: the
 * kind of its front-end's word (fe_word), PROBE_FENTRY for -pg -mfentry
 * nodes, PROBE_PLAIN for the others.  No probe counts those apart;
 * cct_kind_calls derives them. */
static inline CP_NOINSTR enum probe_kind cct_word_kind(uintptr_t word)
{
	return (word & CCT_FE_MASK) == CCT_FE_FENTRY ? PROBE_FENTRY : PROBE_PLAIN;
}

static inline CP_NOINSTR enum probe_kind cct_base_kind(const struct cct_node *n)
{
	return cct_word_kind(n->fe_word);
}

/* The activations of `n` of kind `k`: those of its front-end's kind are all
 * its activations of no kind counted apart. */
static inline CP_NOINSTR uint64_t cct_kind_calls(const struct cct_node *n, enum probe_kind k)
{
	uint64_t others = 0;

	if (k != cct_base_kind(n))
		return k == PROBE_PLAIN ? 0 : n->kind_calls[k - 1];
	for (unsigned i = 0; i < PROBE_KINDS - 1; i++)
		others += n->kind_calls[i];
	return others < n->calls ? n->calls - others : 0;
}

/* An overflow entry: the key inline, so a probe compares without touching the node. */
struct cct_ovf_entry {
	const struct cct_node *parent; /* NULL: empty */
	uintptr_t fn;
	struct cct_node *node;
};

/* How a node's activations read the clock under tsc-adaptive (stamp.h); always
 * plain under every other clock. */
#define CCT_FENCE_PLAIN 0u
#define CCT_FENCE_SAMPLING 1u
#define CCT_FENCE_FENCED 2u

struct cct {
	struct cct_node root; /* virtual root: the thread's root calls are its children */
	struct cct_node
		fold_root; /* virtual root of the calls folded past the budget (cct_child_get_slow) */
	uint32_t new_fence; /* the fence state new nodes start in */
	uint32_t new_cpu;   /* CCT_CPU_*: whether new nodes' first call reads the CPU clock */
	void *chunks;       /* arena: newest mapped chunk, each links the one before */
	char *chunk_next;   /* arena: next free byte of the newest chunk */
	char *chunk_end;
	size_t chunk_bytes;        /* size of the next chunk to map; doubles up to a cap */
	struct cct_ovf_entry *ovf; /* overflow children, linear probing on (parent, fn) */
	size_t ovf_mask;           /* slots - 1; 0 while ovf is unallocated */
	unsigned ovf_shift;        /* 64 - log2(slots): the hash's top bits index the table */
	size_t ovf_used;
	uint64_t nodes;            /* nodes allocated, root excluded */
	uint64_t max_nodes;        /* budget; past it new paths fold to one level of context */
	uint64_t folded_calls;     /* calls whose path was folded because of the budget */
	uint64_t failed_allocs;    /* calls dropped because no memory could be mapped */
	uintptr_t folded_first_fn; /* the first function whose path was folded, for the report */
};

static inline CP_NOINSTR unsigned cct_slot_hash(uintptr_t fn)
{
	/* Fibonacci hashing: the top bits of the product mix every address bit. */
	return (unsigned)(((uint64_t)fn * 0x9E3779B97F4A7C15ull) >> 62);
}

/* True if `n` is a folded call's node: a child of a folded root (cct_child_get_slow). */
static inline CP_NOINSTR bool cct_node_is_folded(const struct cct *tree, const struct cct_node *n)
{
	return n->parent && n->parent->parent == &tree->fold_root;
}

/*
 * Functions of a library that was unloaded keep their nodes under a retired
 * key, so a library later mapped at the same address gets nodes of its own:
 * the top bit (never set in a user-space address), a generation, the address.
 */
#define CCT_RETIRED_BIT ((uintptr_t)1 << 63)
#define CCT_ADDRESS_BITS 47
#define CCT_ADDRESS_MASK (((uintptr_t)1 << CCT_ADDRESS_BITS) - 1)

static inline CP_NOINSTR uintptr_t cct_retired_key(uintptr_t address, uint64_t generation)
{
	return CCT_RETIRED_BIT | (uintptr_t)(generation & 0xFFFF) << CCT_ADDRESS_BITS |
	       (address & CCT_ADDRESS_MASK);
}

static inline CP_NOINSTR bool cct_key_is_retired(uintptr_t key)
{
	return key & CCT_RETIRED_BIT;
}

/* The code address a node key stands for. */
static inline CP_NOINSTR uintptr_t cct_key_address(uintptr_t key)
{
	return cct_key_is_retired(key) ? key & CCT_ADDRESS_MASK : key;
}

/* The generation of a retired key, as cct_retired_key kept it. */
static inline CP_NOINSTR uint64_t cct_key_generation(uintptr_t key)
{
	return (key & ~CCT_RETIRED_BIT) >> CCT_ADDRESS_BITS;
}

/* Gives `node` of `tree` the key `key` in place, in its parent's slots or the
 * overflow table too.  Only for the functions of a library being unloaded: no
 * thread is calling them. */
void cct_node_rekey(struct cct *tree, struct cct_node *node, uintptr_t key);

/* The overflow table's hash of (parent, fn): the top bits are used. */
static inline CP_NOINSTR uint64_t cct_ovf_hash(const struct cct_node *parent, uintptr_t fn)
{
	return ((uint64_t)(uintptr_t)parent * 0x9E3779B97F4A7C15ull ^ (uint64_t)fn) *
	       0xD6E8FEB86659FD93ull;
}

/* The overflow entry for (parent, fn), or NULL.  For nodes with more children
 * than their inline slots hold; the probe calls it without leaving the fast path. */
static inline CP_NOINSTR struct cct_node *cct_ovf_find(const struct cct *tree,
						       const struct cct_node *parent, uintptr_t fn)
{
	const struct cct_ovf_entry *table = tree->ovf;
	size_t i;

	if (!table)
		return NULL;
	for (i = (size_t)(cct_ovf_hash(parent, fn) >> tree->ovf_shift);;
	     i = (i + 1) & tree->ovf_mask) {
		if (table[i].parent == parent && table[i].fn == fn)
			return table[i].node;
		if (!table[i].parent)
			return NULL;
	}
}

/* The existing child of `parent` for `fn`, or NULL: the probe's lookup. */
static inline CP_NOINSTR struct cct_node *
cct_child_find(const struct cct *tree, const struct cct_node *parent, uintptr_t fn)
{
	unsigned h = cct_slot_hash(fn);

	if (unlikely(parent->many))
		return cct_ovf_find(tree, parent, fn);
#pragma GCC unroll 4
	for (unsigned i = 0; i < CCT_SLOTS; i++) {
		unsigned s = (h + i) & (CCT_SLOTS - 1);
		if (likely(parent->slot_fn[s] == fn))
			return parent->slot_child[s];
		if (!parent->slot_fn[s])
			return NULL;
	}
	return NULL;
}

/* Creates `tree` empty, with a node budget (0 = unlimited). */
void cct_init(struct cct *tree, uint64_t max_nodes);

/* Frees every chunk and table of `tree`. */
void cct_release(struct cct *tree);

/* The slow path of cct_child_get: the overflow table, or a new node, or past
 * the budget a folded one (cct_node_is_folded; its parent is then not
 * `parent`).  Counts each folded call in folded_calls.  Returns NULL only when
 * no memory could be mapped. */
struct cct_node *cct_child_get_slow(struct cct *tree, struct cct_node *parent, uintptr_t fn,
				    uintptr_t call_site);

/* The child of `parent` for function `fn`, created on first sight (with
 * `call_site` remembered).  O(1) in the common case: an inline-slot hit. */
static inline CP_NOINSTR struct cct_node *cct_child_get(struct cct *tree, struct cct_node *parent,
							uintptr_t fn, uintptr_t call_site)
{
	struct cct_node *n = cct_child_find(tree, parent, fn);

	return likely(n != NULL) ? n : cct_child_get_slow(tree, parent, fn, call_site);
}

/* The node after `n` in a preorder walk of the subtree under `root`, or NULL
 * at its end.  Safe while the owning thread adds nodes: they are published whole. */
static inline CP_NOINSTR struct cct_node *cct_next_preorder(const struct cct_node *n,
							    const struct cct_node *root)
{
	struct cct_node *c = __atomic_load_n(&n->first_child, __ATOMIC_ACQUIRE);

	if (c)
		return c;
	while (n != root && !n->next_sibling)
		n = n->parent;
	return n == root ? NULL : n->next_sibling;
}

/* Every node of `tree` but its two roots, in preorder: the thread's call paths,
 * then the folded ones.  Safe while the owning thread adds nodes, as
 * cct_next_preorder. */
static inline CP_NOINSTR struct cct_node *cct_first(const struct cct *tree)
{
	struct cct_node *c = __atomic_load_n(&tree->root.first_child, __ATOMIC_ACQUIRE);

	return c ? c : __atomic_load_n(&tree->fold_root.first_child, __ATOMIC_ACQUIRE);
}

static inline CP_NOINSTR struct cct_node *cct_next(const struct cct *tree, const struct cct_node *n)
{
	struct cct_node *c = __atomic_load_n(&n->first_child, __ATOMIC_ACQUIRE);

	if (c)
		return c;
	while (!n->next_sibling) {
		n = n->parent;
		if (n == &tree->root)
			return __atomic_load_n(&tree->fold_root.first_child, __ATOMIC_ACQUIRE);
		if (n == &tree->fold_root)
			return NULL;
	}
	return n->next_sibling;
}

/* Zeroes every count and time of the tree, keeping its shape. */
void cct_clear_counts(struct cct *tree);

#endif
