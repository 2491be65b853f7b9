/* cct.c: the cold half of the calling-context tree: node allocation, the overflow table, budget. */
#include "cct.h"

#include <stddef.h>
#include <string.h>
#include <sys/mman.h>

#define CHUNK_MIN_BYTES ((size_t)64 << 10)
#define CHUNK_MAX_BYTES ((size_t)64 << 20)
#define OVF_MIN_SLOTS ((size_t)1024)

/* Every arena chunk starts with this header, so cct_release can unmap the chain; a
 * cache line long, so the nodes after it start on lines of their own. */
struct chunk_hdr {
	struct chunk_hdr *prev;
	size_t bytes;
	char pad[CCT_LINE - sizeof(struct chunk_hdr *) - sizeof(size_t)];
};
_Static_assert(sizeof(struct chunk_hdr) == CCT_LINE, "nodes start on a line");
_Static_assert(sizeof(struct cct_node) % CCT_LINE == 0, "every node starts on a line");
_Static_assert(offsetof(struct cct_node, slot_fn) == CCT_LINE,
	       "a call's fields fill the first line, the child table the second");

static void *map_bytes(size_t bytes)
{
	void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	return p == MAP_FAILED ? NULL : p;
}

void cct_init(struct cct *tree, uint64_t max_nodes)
{
	memset(tree, 0, sizeof(*tree));
	tree->chunk_bytes = CHUNK_MIN_BYTES;
	tree->max_nodes = max_nodes;
	tree->root.min_ticks = UINT64_MAX;
	tree->fold_root.min_ticks = UINT64_MAX;
}

void cct_release(struct cct *tree)
{
	struct chunk_hdr *c = tree->chunks;

	while (c) {
		struct chunk_hdr *prev = c->prev;
		munmap(c, c->bytes);
		c = prev;
	}
	if (tree->ovf)
		munmap(tree->ovf, (tree->ovf_mask + 1) * sizeof(*tree->ovf));
	memset(tree, 0, sizeof(*tree));
}

static struct cct_node *node_alloc(struct cct *tree)
{
	struct cct_node *n;

	if ((size_t)(tree->chunk_end - tree->chunk_next) < sizeof(*n)) {
		size_t bytes = tree->chunk_bytes;
		struct chunk_hdr *c = map_bytes(bytes);
		if (!c)
			return NULL;
		c->bytes = bytes;
		c->prev = tree->chunks;
		tree->chunks = c;
		tree->chunk_next = (char *)(c + 1);
		tree->chunk_end = (char *)c + bytes;
		if (tree->chunk_bytes < CHUNK_MAX_BYTES)
			tree->chunk_bytes *= 2;
	}
	n = (struct cct_node *)(void *)tree->chunk_next;
	tree->chunk_next += sizeof(*n);
	return n; /* fresh mmap'ed memory is zero */
}

/* The overflow entry holding (parent, fn), or the empty one where it belongs. */
static struct cct_ovf_entry *ovf_entry(struct cct *tree, const struct cct_node *parent,
				       uintptr_t fn)
{
	size_t i = (size_t)(cct_ovf_hash(parent, fn) >> tree->ovf_shift);

	while (tree->ovf[i].parent && !(tree->ovf[i].parent == parent && tree->ovf[i].fn == fn))
		i = (i + 1) & tree->ovf_mask;
	return &tree->ovf[i];
}

/* Doubles the overflow table (or creates it); keeps the load under one half. */
static int ovf_grow(struct cct *tree)
{
	size_t old_slots = tree->ovf ? tree->ovf_mask + 1 : 0;
	size_t slots = old_slots ? old_slots * 2 : OVF_MIN_SLOTS;
	struct cct_ovf_entry *old = tree->ovf;
	struct cct_ovf_entry *table = map_bytes(slots * sizeof(*table));
	unsigned bits = 0;

	if (!table)
		return -1;
	while (((size_t)1 << bits) < slots)
		bits++;
	tree->ovf = table;
	tree->ovf_mask = slots - 1;
	tree->ovf_shift = 64 - bits;
	for (size_t i = 0; i < old_slots; i++)
		if (old[i].parent)
			*ovf_entry(tree, old[i].parent, old[i].fn) = old[i];
	if (old)
		munmap(old, old_slots * sizeof(*old));
	return 0;
}

/* Adds (parent, fn) -> node to the overflow table.  0, or -1 without memory
 * (the node then stays allocated but unreachable: harmless). */
static int ovf_add(struct cct *tree, const struct cct_node *parent, uintptr_t fn,
		   struct cct_node *node)
{
	struct cct_ovf_entry *e;

	if ((!tree->ovf || 2 * (tree->ovf_used + 1) > tree->ovf_mask + 1) && ovf_grow(tree) < 0) {
		tree->failed_allocs++;
		return -1;
	}
	e = ovf_entry(tree, parent, fn);
	e->fn = fn;
	e->node = node;
	/* Release: the key becomes visible last, so a reader never sees half an entry. */
	__atomic_store_n(&e->parent, parent, __ATOMIC_RELEASE);
	tree->ovf_used++;
	return 0;
}

static struct cct_node *node_new(struct cct *tree, struct cct_node *parent, uintptr_t fn,
				 uintptr_t call_site)
{
	struct cct_node *n = node_alloc(tree);

	if (!n)
		return NULL;
	n->fn = fn;
	n->parent = parent;
	n->min_ticks = UINT64_MAX;
	n->call_site = call_site;
	n->fence = tree->new_fence;
	n->first_left = CCT_TIMED_FIRST;
	n->cpu = (uint16_t)tree->new_cpu;
	/* Prepend: constant time however many children the parent has. */
	n->next_sibling = parent->first_child;
	/* Release: a dump walking the tree from another thread sees a whole node. */
	__atomic_store_n(&parent->first_child, n, __ATOMIC_RELEASE);
	tree->nodes++;
	return n;
}

/* The child of `parent` for `fn` from the slots or the overflow table, created
 * when absent, whatever the budget.  NULL only without memory. */
static struct cct_node *child_find_or_add(struct cct *tree, struct cct_node *parent, uintptr_t fn,
					  uintptr_t call_site)
{
	unsigned h = cct_slot_hash(fn);
	struct cct_node *n = cct_child_find(tree, parent, fn);

	if (n)
		return n;
	n = node_new(tree, parent, fn, call_site);
	if (!n) {
		tree->failed_allocs++;
		return NULL;
	}
	for (unsigned i = 0; i < CCT_SLOTS; i++) {
		unsigned s = (h + i) & (CCT_SLOTS - 1);
		if (!parent->slot_fn[s]) {
			parent->slot_child[s] = n;
			parent->slot_fn[s] = fn;
			return n;
		}
	}
	if (!parent->many) {
		/* The first child past the slots: the slot children join the overflow
		 * table, so lookups under this node go to one place. */
		for (unsigned i = 0; i < CCT_SLOTS; i++)
			if (ovf_add(tree, parent, parent->slot_fn[i], parent->slot_child[i]) < 0)
				return NULL;
		__atomic_store_n(&parent->many, 1, __ATOMIC_RELEASE);
	}
	return ovf_add(tree, parent, fn, n) < 0 ? NULL : n;
}

/*
 * Past the node budget a new call path is not recorded in full: the call
 * attaches to the node for (caller function -> fn) under the folded root's
 * node for the caller, one level of context, so function and edge counts stay
 * exact.  Paths of one or two levels lose nothing and are created as they
 * are; the nodes a fold adds are bounded by the number of distinct edges.
 * Folded nodes live apart from the thread's call paths (under fold_root), so
 * a probe's fast path never finds them: a folded call and every call below it
 * take the slow path, which keeps their figures true (fold.h).
 */
struct cct_node *cct_child_get_slow(struct cct *tree, struct cct_node *parent, uintptr_t fn,
				    uintptr_t call_site)
{
	struct cct_node *fold, *n;

	if ((n = cct_ovf_find(tree, parent, fn)))
		return n;
	if (!tree->max_nodes || tree->nodes < tree->max_nodes || parent == &tree->root ||
	    parent->parent == &tree->root)
		return child_find_or_add(tree, parent, fn, call_site);
	fold = child_find_or_add(tree, &tree->fold_root, parent->fn, 0);
	if (!fold)
		return NULL;
	if (!tree->folded_calls)
		tree->folded_first_fn = fn;
	tree->folded_calls++;
	return child_find_or_add(tree, fold, fn, call_site);
}

void cct_node_rekey(struct cct *tree, struct cct_node *node, uintptr_t key)
{
	struct cct_node *parent = node->parent;
	struct cct_ovf_entry *e;

	for (unsigned i = 0; parent && i < CCT_SLOTS; i++)
		if (parent->slot_child[i] == node)
			parent->slot_fn[i] = key;
	/* An overflow entry stays where the old key hashed: lookups of the old
	 * key now pass over it, and ovf_grow rehashes it under the new one. */
	if (parent && tree->ovf && (e = ovf_entry(tree, parent, node->fn))->parent)
		e->fn = key;
	node->fn = key;
}

static void clear_node(struct cct_node *n)
{
	n->calls = n->incl_ticks = n->child_ticks = n->max_ticks = 0;
	n->nested_ticks = n->fold_child_calls = n->fold_nested_out = n->fold_inner_calls = 0;
	memset(n->kind_calls, 0, sizeof(n->kind_calls));
	memset(n->unrecorded_calls, 0, sizeof(n->unrecorded_calls));
	n->min_ticks = UINT64_MAX;
	n->act_child_ticks = n->lent_calls = n->sample_calls = 0;
	n->first_left = CCT_TIMED_FIRST;
	n->act_lent = n->heavy = 0;
	n->lend_left = 0;
	n->long_ticks = n->capture_ticks = 0;
	n->sample_self = 0;
	n->fold_child_ticks = 0;
	n->sample_self_sq = 0;
	n->cpu_calls = n->cpu_ns = n->cpu_wall_ticks = 0;
	n->sample_left = n->timing == CCT_TIME_NEVER ? UINT32_MAX : 0;
}

void cct_clear_counts(struct cct *tree)
{
	clear_node(&tree->root);
	clear_node(&tree->fold_root);
	for (struct cct_node *n = cct_first(tree); n; n = cct_next(tree, n))
		clear_node(n);
	tree->folded_calls = 0;
	tree->failed_allocs = 0;
}
