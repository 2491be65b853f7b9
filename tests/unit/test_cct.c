/* test_cct.c: unit tests of the calling-context tree (runtime/cct.h): lookup, overflow, budget. */
#include <stddef.h>
#include <stdint.h>

#include "cct.h"
#include "unit.h"

/* Function addresses as ASLR leaves them: a PIE text segment, 16-byte aligned. */
#define TEXT_BASE ((uintptr_t)0x55d4c3a01130u)
#define MANY 1000

static uint64_t count_children(const struct cct_node *n)
{
	uint64_t count = 0;

	for (const struct cct_node *c = n->first_child; c; c = c->next_sibling)
		count++;
	return count;
}

void test_cct_child_created_once(void)
{
	struct cct tree;
	struct cct_node *a, *again, *b;

	cct_init(&tree, 0);
	a = cct_child_get(&tree, &tree.root, TEXT_BASE, TEXT_BASE + 0x80);
	CHECK_NOT_NULL(a);
	CHECK_EQ_U64(a->fn, TEXT_BASE);
	CHECK_EQ_PTR(a->parent, &tree.root);
	CHECK_EQ_U64(a->call_site, TEXT_BASE + 0x80);
	CHECK_EQ_U64(a->calls, 0);
	CHECK_EQ_U64(a->min_ticks, UINT64_MAX);
	CHECK_EQ_U64(tree.nodes, 1);
	CHECK_EQ_PTR(tree.root.first_child, a);

	again = cct_child_get(&tree, &tree.root, TEXT_BASE, TEXT_BASE + 0x99);
	CHECK_EQ_PTR(again, a);
	CHECK_EQ_U64(a->call_site, TEXT_BASE + 0x80); /* the first call site seen stays */
	CHECK_EQ_U64(tree.nodes, 1);

	b = cct_child_get(&tree, &tree.root, TEXT_BASE + 0x40, 0);
	CHECK_NOT_NULL(b);
	CHECK_NE_PTR(b, a);
	CHECK_EQ_U64(tree.nodes, 2);
	CHECK_EQ_PTR(tree.root.first_child, b); /* newest first */
	CHECK_EQ_PTR(b->next_sibling, a);
	CHECK_EQ_PTR(cct_child_get(&tree, &tree.root, TEXT_BASE, 0), a);
	cct_release(&tree);
}

void test_cct_recursion_nests(void)
{
	struct cct tree;
	struct cct_node *n = NULL, *parent;

	cct_init(&tree, 0);
	parent = &tree.root;
	for (int depth = 0; depth < 100; depth++) { /* f calls f calls f ... */
		n = cct_child_get(&tree, parent, TEXT_BASE, 0);
		CHECK_NOT_NULL(n);
		CHECK_NE_PTR(n, parent);
		CHECK_EQ_PTR(n->parent, parent);
		parent = n;
	}
	CHECK_EQ_U64(tree.nodes, 100);
	CHECK_EQ_U64(count_children(&tree.root), 1);
	CHECK_EQ_U64(count_children(n), 0);
	cct_release(&tree);
}

/* MANY children of one node, at addresses `step` apart: each created once, found again. */
static void many_children(struct cct *tree, struct cct_node *parent, uintptr_t step)
{
	struct cct_node *first[MANY];
	uint64_t nodes = tree->nodes;

	for (uintptr_t i = 0; i < MANY; i++) {
		first[i] = cct_child_get(tree, parent, TEXT_BASE + i * step, 0);
		CHECK_NOT_NULL(first[i]);
		CHECK_EQ_U64(first[i]->fn, TEXT_BASE + i * step);
		CHECK_EQ_PTR(first[i]->parent, parent);
	}
	for (uintptr_t i = 0; i < MANY; i++)
		CHECK_EQ_PTR(cct_child_get(tree, parent, TEXT_BASE + i * step, 0), first[i]);
	CHECK_EQ_U64(tree->nodes, nodes + MANY);
	CHECK_EQ_U64(count_children(parent), MANY);
}

void test_cct_many_children_overflow(void)
{
	struct cct tree;

	cct_init(&tree, 0);
	many_children(&tree, &tree.root, 16);
	CHECK_NOT_NULL(tree.ovf);
	/* Past its slots a node keeps every child in the overflow table, slot ones too. */
	CHECK_EQ_U64(tree.ovf_used, MANY);
	CHECK_EQ_U64(tree.root.many, 1);
	CHECK_LE_U64(2 * tree.ovf_used, tree.ovf_mask + 1);
	CHECK_EQ_U64(tree.failed_allocs, 0);
	cct_release(&tree);
}

void test_cct_high_bit_children(void)
{
	struct cct tree;

	cct_init(&tree, 0);
	many_children(&tree, &tree.root, (uintptr_t)1 << 32); /* only the high bits differ */
	cct_release(&tree);
}

void test_cct_overflow_keyed_by_parent(void)
{
	struct cct tree;
	struct cct_node *p, *q;

	cct_init(&tree, 0);
	p = cct_child_get(&tree, &tree.root, TEXT_BASE, 0);
	q = cct_child_get(&tree, &tree.root, TEXT_BASE + 16, 0);
	CHECK_NOT_NULL(p);
	CHECK_NOT_NULL(q);
	for (uintptr_t i = 0; i < 50; i++) { /* the same functions under two parents */
		uintptr_t fn = TEXT_BASE + 0x1000 + 16 * i;
		struct cct_node *under_p = cct_child_get(&tree, p, fn, 0);
		struct cct_node *under_q = cct_child_get(&tree, q, fn, 0);
		CHECK_NOT_NULL(under_p);
		CHECK_NOT_NULL(under_q);
		CHECK_NE_PTR(under_p, under_q);
		CHECK_EQ_PTR(under_p->parent, p);
		CHECK_EQ_PTR(under_q->parent, q);
	}
	for (uintptr_t i = 0; i < 50; i++) {
		uintptr_t fn = TEXT_BASE + 0x1000 + 16 * i;
		CHECK_EQ_PTR(cct_child_get(&tree, p, fn, 0)->parent, p);
		CHECK_EQ_PTR(cct_child_get(&tree, q, fn, 0)->parent, q);
	}
	CHECK_EQ_U64(tree.nodes, 2 + 100);
	cct_release(&tree);
}

/* The longest run of occupied overflow slots: long runs mean a poor hash. */
static uint64_t longest_run(const struct cct *tree)
{
	uint64_t run = 0, best = 0;

	for (size_t i = 0; i <= 2 * tree->ovf_mask + 1; i++) { /* twice round: runs wrap */
		run = tree->ovf[i & tree->ovf_mask].parent ? run + 1 : 0;
		if (run > best)
			best = run;
	}
	return best;
}

/* MANY children `step` apart under the root: the overflow table keeps its runs short. */
static void check_clusters(uintptr_t step)
{
	struct cct tree;

	cct_init(&tree, 0);
	many_children(&tree, &tree.root, step);
	/* A random hash at this load gives runs of a few dozen at most; a hash
	 * blind to the bits that differ puts every child in one run of ~1000. */
	CHECK_LE_U64(longest_run(&tree), 64);
	cct_release(&tree);
}

void test_cct_overflow_clusters_short(void)
{
	check_clusters(16);
	check_clusters(4096);
	check_clusters((uintptr_t)1 << 20);
}

void test_cct_overflow_high_bits(void)
{
	check_clusters((uintptr_t)1 << 28); /* functions 256 MiB apart, e.g. in two modules */
	check_clusters((uintptr_t)1 << 32);
}

/* A chain root > A > B > C filling a budget of 3 nodes. */
static void budget_chain(struct cct *tree, struct cct_node **c)
{
	struct cct_node *a, *b;

	cct_init(tree, 3);
	a = cct_child_get(tree, &tree->root, TEXT_BASE, 0);
	b = cct_child_get(tree, a, TEXT_BASE + 16, 0);
	*c = cct_child_get(tree, b, TEXT_BASE + 32, 0);
	CHECK_NOT_NULL(*c);
	CHECK_EQ_U64(tree->nodes, 3);
	CHECK_EQ_U64(tree->folded_calls, 0);
}

void test_cct_budget_folds_to_edges(void)
{
	struct cct tree;
	struct cct_node *c, *d, *again;

	budget_chain(&tree, &c);
	d = cct_child_get(&tree, c, TEXT_BASE + 48, 0); /* C calls D: past the budget */
	CHECK_NOT_NULL(d);
	CHECK_EQ_U64(d->fn, TEXT_BASE + 48);
	CHECK_NOT_NULL(d->parent);
	CHECK_EQ_U64(d->parent->fn, c->fn);               /* the caller is still C ... */
	CHECK_EQ_PTR(d->parent->parent, &tree.fold_root); /* ... one level below the folded root */
	CHECK(cct_node_is_folded(&tree, d));
	CHECK_EQ_PTR(cct_child_find(&tree, c, TEXT_BASE + 48),
		     NULL); /* the fast path never finds it */
	again = cct_child_get(&tree, c, TEXT_BASE + 48, 0);
	CHECK_EQ_PTR(again, d); /* the same folded node every time */
	CHECK_GE_U64(tree.folded_calls, 1);
	cct_release(&tree);
}

void test_cct_budget_counts_folded_calls(void)
{
	struct cct tree;
	struct cct_node *c;

	budget_chain(&tree, &c);
	for (int i = 0; i < 5; i++) /* five calls of D from C, each folded */
		CHECK_NOT_NULL(cct_child_get(&tree, c, TEXT_BASE + 48, 0));
	CHECK_EQ_U64(tree.folded_calls, 5);
	cct_release(&tree);
}

void test_cct_budget_names_first_folded(void)
{
	struct cct tree;
	struct cct_node *c;

	budget_chain(&tree, &c);
	CHECK_NOT_NULL(cct_child_get(&tree, c, TEXT_BASE + 48, 0)); /* D is the first folded */
	CHECK_EQ_U64(tree.folded_first_fn, TEXT_BASE + 48);
	cct_release(&tree);
}

void test_cct_budget_new_root_call_not_folded(void)
{
	struct cct tree;
	struct cct_node *c;

	budget_chain(&tree, &c);
	/* A new root call past the budget has no context to lose: nothing is folded. */
	CHECK_NOT_NULL(cct_child_get(&tree, &tree.root, TEXT_BASE + 64, 0));
	CHECK_EQ_U64(tree.folded_calls, 0);
	cct_release(&tree);
}

void test_cct_budget_bounds_depth(void)
{
	struct cct tree;
	struct cct_node *n;

	budget_chain(&tree, &n);
	for (uintptr_t i = 0; i < 200; i++) { /* a deep chain of new functions past the budget */
		n = cct_child_get(&tree, n, TEXT_BASE + 0x1000 + 16 * i, 0);
		CHECK_NOT_NULL(n);
		CHECK(n->parent == &tree.root || n->parent->parent == &tree.fold_root);
	}
	/* One node per function under the root, one per edge below it. */
	CHECK_LE_U64(tree.nodes, 3 + 2 * 201);
	cct_release(&tree);
}

void test_cct_clear_counts_keeps_shape(void)
{
	struct cct tree;
	struct cct_node *a, *b, *c;

	cct_init(&tree, 0);
	a = cct_child_get(&tree, &tree.root, TEXT_BASE, 0);
	b = cct_child_get(&tree, a, TEXT_BASE + 16, 0);
	c = cct_child_get(&tree, a, TEXT_BASE + 32, 0);
	for (struct cct_node *n = &tree.root; n; n = n == &tree.root ? a
						     : n == a        ? b
						     : n == b        ? c
								     : NULL) {
		n->calls = 7;
		n->incl_ticks = 1000;
		n->child_ticks = 400;
		n->min_ticks = 10;
		n->max_ticks = 900;
	}
	tree.folded_calls = 3;
	cct_clear_counts(&tree);
	for (struct cct_node *n = &tree.root; n; n = n == &tree.root ? a
						     : n == a        ? b
						     : n == b        ? c
								     : NULL) {
		CHECK_EQ_U64(n->calls, 0);
		CHECK_EQ_U64(n->incl_ticks, 0);
		CHECK_EQ_U64(n->child_ticks, 0);
		CHECK_EQ_U64(n->max_ticks, 0);
		CHECK_EQ_U64(n->min_ticks, UINT64_MAX);
	}
	CHECK_EQ_U64(tree.folded_calls, 0);
	CHECK_EQ_U64(tree.nodes, 3);
	CHECK_EQ_PTR(cct_child_get(&tree, &tree.root, TEXT_BASE, 0), a);
	CHECK_EQ_PTR(cct_child_get(&tree, a, TEXT_BASE + 16, 0), b);
	CHECK_EQ_PTR(cct_child_get(&tree, a, TEXT_BASE + 32, 0), c);
	CHECK_EQ_U64(tree.nodes, 3);
	cct_release(&tree);
}

void test_cct_slot_hash_in_range(void)
{
	for (uintptr_t i = 0; i < 100000; i++)
		CHECK_LT_U64(cct_slot_hash(TEXT_BASE + i * 16), CCT_SLOTS);
	CHECK_LT_U64(cct_slot_hash(0), CCT_SLOTS);
	CHECK_LT_U64(cct_slot_hash(UINTPTR_MAX), CCT_SLOTS);
}

/* 64 addresses `step` apart: each inline slot gets a fair share (16 of 64 ideally). */
static void check_spread(uintptr_t base, uintptr_t step)
{
	uint64_t per_slot[CCT_SLOTS] = { 0 };

	for (uintptr_t i = 0; i < 64; i++)
		per_slot[cct_slot_hash(base + i * step)]++;
	for (unsigned s = 0; s < CCT_SLOTS; s++)
		CHECK_GE_U64(per_slot[s], 64 / CCT_SLOTS / 4);
}

void test_cct_slot_hash_spreads_16(void)
{
	check_spread(TEXT_BASE, 16);
	check_spread(0x401000, 16);        /* a non-PIE executable */
	check_spread(0x7f3a9c2e4a60u, 16); /* a shared library */
}

void test_cct_slot_hash_spreads_pages(void)
{
	check_spread(TEXT_BASE, 4096);
	check_spread(0x7f3a9c2e4000u, 4096);
}

void test_cct_slot_hash_spreads_high(void)
{
	check_spread(TEXT_BASE, (uintptr_t)1 << 32);
	check_spread(0x1130,
		     (uintptr_t)1 << 40); /* the same offset in differently placed modules */
	check_spread(0x1130, (uintptr_t)1 << 28);
}
