/* test_fold.c: unit tests of the calls folded past the node budget (runtime/fold.h): which are
 * nested, the counted path, and where a folded frame's time goes when it closes. */
#include <stddef.h>
#include <stdint.h>

#include "cct.h"
#include "clock.h"
#include "fold.h"
#include "shadow.h"
#include "unit.h"

#define FN_A ((uintptr_t)0x55d4c3a01130u)
#define FN_B (FN_A + 0x40)
#define FN_C (FN_A + 0x80)
#define FN_X (FN_A + 0xc0)

/* A real chain root > A > B, and root > X > B. */
struct chains {
	struct cct tree;
	struct cct_node *a, *ab, *x, *xb;
};

static void chains_init(struct chains *c)
{
	cct_init(&c->tree, 0);
	c->a = cct_child_get(&c->tree, &c->tree.root, FN_A, 0);
	c->ab = cct_child_get(&c->tree, c->a, FN_B, 0);
	c->x = cct_child_get(&c->tree, &c->tree.root, FN_X, 0);
	c->xb = cct_child_get(&c->tree, c->x, FN_B, 0);
	CHECK_NOT_NULL(c->xb);
}

void test_fold_nested_on_the_path(void)
{
	struct chains c;
	struct fold f;
	struct fold_frame e;

	chains_init(&c);
	fold_init(&f);
	/* Below root > A > B: a folded A is nested, a folded C is not. */
	CHECK_EQ_U64(fold_enter(&f, 3, FN_A, c.ab, c.ab), 1);
	CHECK(fold_leave(&f, 3, FN_A, &e));
	CHECK_EQ_U64(e.nested, 1);
	CHECK_EQ_PTR(e.charge, c.ab);
	CHECK_EQ_U64(fold_enter(&f, 3, FN_C, c.ab, c.ab), 0);
	/* Above that C, another C is nested; after it returns, a C is timed again. */
	CHECK_EQ_U64(fold_enter(&f, 4, FN_C, NULL, c.ab), 1);
	CHECK(fold_leave(&f, 4, FN_C, &e));
	CHECK(fold_leave(&f, 3, FN_C, &e));
	CHECK_EQ_U64(e.nested, 0);
	CHECK_EQ_U64(fold_enter(&f, 3, FN_C, c.ab, c.ab), 0);
	CHECK(fold_leave(&f, 3, FN_C, &e));
	CHECK(!fold_leave(&f, 3, FN_C, &e)); /* no folded frame open any more */
	fold_release(&f);
	cct_release(&c.tree);
}

void test_fold_path_moves(void)
{
	struct chains c;
	struct fold f;
	struct fold_frame e;

	chains_init(&c);
	fold_init(&f);
	CHECK_EQ_U64(fold_enter(&f, 3, FN_C, c.ab, c.ab), 0);
	CHECK(fold_leave(&f, 3, FN_C, &e));
	CHECK_EQ_U64(c.a->on_prefix, 1);
	CHECK_EQ_U64(c.ab->on_prefix, 1);
	/* The stack moved to root > X > B: A is no longer open, X is. */
	CHECK_EQ_U64(fold_enter(&f, 3, FN_A, c.xb, c.xb), 0);
	CHECK(fold_leave(&f, 3, FN_A, &e));
	CHECK_EQ_U64(fold_enter(&f, 3, FN_X, c.xb, c.xb), 1);
	CHECK(fold_leave(&f, 3, FN_X, &e));
	CHECK_EQ_U64(c.a->on_prefix, 0);
	CHECK_EQ_U64(c.ab->on_prefix, 0);
	CHECK_EQ_U64(c.x->on_prefix, 1);
	CHECK_EQ_U64(c.xb->on_prefix, 1);
	/* A stack that stops running takes its marks off; back, it puts them on. */
	fold_suspend(&f);
	CHECK_EQ_U64(c.x->on_prefix, 0);
	CHECK_EQ_U64(c.xb->on_prefix, 0);
	fold_resume(&f);
	CHECK_EQ_U64(c.xb->on_prefix, 1);
	CHECK_EQ_U64(fold_enter(&f, 3, FN_X, NULL, c.xb), 1);
	fold_release(&f);
	cct_release(&c.tree);
}

/* A frame pushed as the probe core pushes it (folded ones marked, with their fold entry). */
static struct frame *push(struct shadow *s, struct cct_node *node, uintptr_t fn, uint64_t t_enter,
			  int folded, struct cct_node *real_top)
{
	struct frame *f = &s->base[s->depth];

	f->fn = folded ? ~fn : fn;
	f->node = node;
	f->sp = (1000 - 16 * s->depth) | (folded ? FRAME_FOLDED : 0);
	f->t_enter_ticks = t_enter;
	if (folded)
		CHECK_GE_U64((uint64_t)fold_enter(&s->fold, s->depth, fn, real_top,
						  shadow_charge_node(s, s->depth - 1)),
			     0);
	s->depth++;
	return f;
}

/*
 * A (real, at 0) > B (folded, timed, 10) > A (folded, nested, 20) > C
 * (folded, timed, 30-40); the nested A returns at 50, B at 60, A at 70.
 * C's duration and the nested A's own work (50 - 20 - 10) are child time of
 * B, the charge; that work is also the nested A's node's time, as nested.
 * Each folded call's o_out is in its caller's self time (B's in A's, the
 * nested A's in B's, C's in the nested A's, which is its inclusive time too);
 * the whole cost of B, the nested A and C is in A's inclusive time, and of
 * the nested A and C in B's.
 */
void test_fold_close_charges(void)
{
	struct cct tree;
	struct shadow s;
	struct cct_node *a, *b, *a2, *c;

	clock_init("none", false);
	cct_init(&tree, 1);
	CHECK_EQ_U64(shadow_init(&s, &tree.root, 64, 64), 0);
	a = cct_child_get(&tree, &tree.root, FN_A, 0);
	CHECK_NOT_NULL(cct_child_get(&tree, a, FN_C, 0)); /* fills the budget */
	b = cct_child_get(&tree, cct_child_get(&tree, a, FN_C, 0), FN_B, 0);
	CHECK(cct_node_is_folded(&tree, b));
	a2 = cct_child_get(&tree, b, FN_A, 0);
	c = cct_child_get(&tree, a2, FN_C, 0);
	CHECK(cct_node_is_folded(&tree, a2) && cct_node_is_folded(&tree, c));
	push(&s, a, FN_A, 0, 0, NULL);
	push(&s, b, FN_B, 10, 1, a);
	push(&s, a2, FN_A, 20, 1, NULL);
	push(&s, c, FN_C, 30, 1, NULL);
	CHECK_EQ_U64(fold_frame_at(&s.fold, 2)->nested, 0);
	CHECK_EQ_U64(fold_frame_at(&s.fold, 3)->nested, 1);
	CHECK_EQ_PTR(fold_frame_at(&s.fold, 4)->charge, b);
	CHECK_EQ_U64(shadow_close_above(&s, 3, 40), 1);
	CHECK_EQ_U64(shadow_close_above(&s, 2, 50), 1);
	CHECK_EQ_U64(shadow_close_above(&s, 1, 60), 1);
	CHECK_EQ_U64(shadow_close_above(&s, 0, 70), 1);
	CHECK_EQ_U64(c->incl_ticks, 10);
	CHECK_EQ_U64(a2->incl_ticks, 20);
	CHECK_EQ_U64(a2->nested_ticks, 20);
	CHECK_EQ_U64(b->incl_ticks, 50);
	CHECK_EQ_U64(b->child_ticks, 30);
	CHECK_EQ_U64(a->fold_child_calls, 1);
	CHECK_EQ_U64(b->fold_child_calls, 1);
	CHECK_EQ_U64(a2->fold_child_calls, 1);
	CHECK_EQ_U64(c->fold_child_calls, 0);
	CHECK_EQ_U64(a2->fold_nested_out, 1);
	CHECK_EQ_U64(a->fold_nested_out + b->fold_nested_out + c->fold_nested_out, 0);
	CHECK_EQ_U64(a->fold_inner_calls, 3);
	CHECK_EQ_U64(b->fold_inner_calls, 2);
	CHECK_EQ_U64(a2->fold_inner_calls + c->fold_inner_calls, 0);
	CHECK_EQ_U64(a->child_ticks, 50);
	CHECK_EQ_U64(a->incl_ticks, 70);
	shadow_release(&s);
	cct_release(&tree);
}
