/* test_shadow.c: unit tests of the shadow stack (runtime/shadow.h): closing, liveness, growth. */
#include <stddef.h>
#include <stdint.h>

#include "cct.h"
#include "clock.h"
#include "shadow.h"
#include "unit.h"

#define FN_A ((uintptr_t)0x55d4c3a01130u)
#define FN_B (FN_A + 0x40)
#define FN_C (FN_A + 0x80)

/* A thread's tree and stack, as a probe sees them. */
struct fixture {
	struct cct tree;
	struct shadow stack;
};

static void fixture_init(struct fixture *f, uint32_t cap, uint32_t max_cap)
{
	clock_init("none", false); /* frames the shadow stack closes itself close at time 0 */
	cct_init(&f->tree, 0);
	CHECK_EQ_U64(shadow_init(&f->stack, &f->tree.root, cap, max_cap), 0);
}

static void fixture_release(struct fixture *f)
{
	shadow_release(&f->stack);
	cct_release(&f->tree);
}

/* What the enter probe does: the caller's node gets a child, a frame is pushed. */
static struct frame *push(struct fixture *f, uintptr_t fn, uintptr_t sp, uint64_t t_enter_ticks)
{
	struct shadow *s = &f->stack;
	struct cct_node *node;

	CHECK_LT_U64(s->depth, s->cap);
	node = cct_child_get(&f->tree, s->base[s->depth - 1].node, fn, 0);
	CHECK_NOT_NULL(node);
	node->calls++;
	s->base[s->depth].fn = fn;
	s->base[s->depth].node = node;
	s->base[s->depth].sp = sp;
	s->base[s->depth].t_enter_ticks = t_enter_ticks;
	return &s->base[s->depth++];
}

void test_shadow_init_sentinel(void)
{
	struct fixture f;

	fixture_init(&f, 64, 1024);
	CHECK_EQ_U64(f.stack.depth, 1);
	CHECK_EQ_U64(f.stack.cap, 64);
	CHECK_EQ_U64(f.stack.max_cap, 1024);
	CHECK_EQ_PTR(f.stack.base[0].node, &f.tree.root);
	CHECK_EQ_U64(f.stack.base[0].sp, UINTPTR_MAX);
	CHECK_EQ_U64(shadow_find(&f.stack, 0), 0);
	fixture_release(&f);
}

void test_shadow_close_charges(void)
{
	struct fixture f;
	struct cct_node *a, *b;

	fixture_init(&f, 64, 64);
	a = push(&f, FN_A, 1000, 100)->node;
	b = push(&f, FN_B, 900, 150)->node;
	CHECK_EQ_U64(shadow_close_above(&f.stack, 1, 400), 1); /* B returns at 400 */
	CHECK_EQ_U64(f.stack.depth, 2);
	CHECK_EQ_U64(b->incl_ticks, 250);
	CHECK_EQ_U64(a->child_ticks, 250);
	CHECK_EQ_U64(a->incl_ticks, 0);
	CHECK_EQ_U64(shadow_close_above(&f.stack, 0, 500), 1); /* A returns at 500 */
	CHECK_EQ_U64(f.stack.depth, 1);
	CHECK_EQ_U64(a->incl_ticks, 400);
	CHECK_EQ_U64(f.tree.root.child_ticks, 400);
	CHECK_EQ_U64(shadow_close_above(&f.stack, 0, 600), 0); /* the sentinel stays */
	CHECK_EQ_U64(f.stack.depth, 1);
	fixture_release(&f);
}

void test_shadow_close_min_max(void)
{
	struct fixture f;
	struct cct_node *a = NULL;
	static const uint64_t durations[] = { 50, 20, 90, 40 };

	fixture_init(&f, 64, 64);
	for (size_t i = 0; i < sizeof(durations) / sizeof(durations[0]); i++) {
		a = push(&f, FN_A, 1000, 1000 * i)->node;
		shadow_close_above(&f.stack, 0, 1000 * i + durations[i]);
	}
	CHECK_EQ_U64(a->calls, 4);
	CHECK_EQ_U64(a->incl_ticks, 200);
	CHECK_EQ_U64(a->min_ticks, 20);
	CHECK_EQ_U64(a->max_ticks, 90);
	fixture_release(&f);
}

void test_shadow_pop_dead_below(void)
{
	struct fixture f;

	fixture_init(&f, 64, 64);
	push(&f, FN_A, 1000, 0);
	push(&f, FN_B, 900, 0);
	push(&f, FN_C, 800, 0);
	/* A probe at 850: C's frame (800) lies below it, so C was left without its exit. */
	CHECK_EQ_U64(shadow_pop_dead(&f.stack, 850), 1);
	CHECK_EQ_U64(f.stack.depth, 3);
	CHECK_EQ_U64(f.stack.base[2].fn, FN_B);
	/* A probe at 950 (longjmp back into A): B is dead too. */
	CHECK_EQ_U64(shadow_pop_dead(&f.stack, 950), 1);
	CHECK_EQ_U64(f.stack.depth, 2);
	CHECK_EQ_U64(f.stack.base[1].fn, FN_A);
	/* A probe above everything: every frame is dead. */
	CHECK_EQ_U64(shadow_pop_dead(&f.stack, 5000), 1);
	CHECK_EQ_U64(f.stack.depth, 1);
	fixture_release(&f);
}

void test_shadow_pop_dead_level_live(void)
{
	struct fixture f;

	fixture_init(&f, 64, 64);
	push(&f, FN_A, 1000, 0);
	push(&f, FN_B, 900, 0);
	/* A probe level with B's frame (a function inlined into B) leaves B open. */
	CHECK_EQ_U64(shadow_pop_dead(&f.stack, 900), 0);
	CHECK_EQ_U64(f.stack.depth, 3);
	/* Deeper probes leave everything open. */
	CHECK_EQ_U64(shadow_pop_dead(&f.stack, 700), 0);
	CHECK_EQ_U64(f.stack.depth, 3);
	fixture_release(&f);
}

void test_shadow_pop_dead_keeps_sentinel(void)
{
	struct fixture f;

	fixture_init(&f, 64, 64);
	push(&f, FN_A, 1000, 0);
	CHECK_EQ_U64(shadow_pop_dead(&f.stack, UINTPTR_MAX), 1);
	CHECK_EQ_U64(f.stack.depth, 1);
	CHECK_EQ_PTR(f.stack.base[0].node, &f.tree.root);
	CHECK_EQ_U64(shadow_pop_dead(&f.stack, UINTPTR_MAX), 0);
	CHECK_EQ_U64(f.stack.depth, 1);
	fixture_release(&f);
}

void test_shadow_find_innermost(void)
{
	struct fixture f;

	fixture_init(&f, 64, 64);
	push(&f, FN_A, 1000, 0);
	push(&f, FN_B, 900, 0);
	push(&f, FN_A, 800, 0); /* A again, recursively through B */
	CHECK_EQ_U64(shadow_find(&f.stack, FN_A), 3);
	CHECK_EQ_U64(shadow_find(&f.stack, FN_B), 2);
	CHECK_EQ_U64(shadow_find(&f.stack, FN_C), 0);
	fixture_release(&f);
}

void test_shadow_grow_keeps_frames(void)
{
	struct fixture f;
	struct cct_node *nodes[3];

	fixture_init(&f, 4, 16);
	nodes[0] = push(&f, FN_A, 1000, 10)->node;
	nodes[1] = push(&f, FN_B, 900, 20)->node;
	nodes[2] = push(&f, FN_C, 800, 30)->node;
	CHECK_EQ_U64(f.stack.depth, 4);
	CHECK_EQ_U64(shadow_grow(&f.stack), 0);
	CHECK_EQ_U64(f.stack.cap, 8);
	CHECK_EQ_U64(f.stack.depth, 4);
	CHECK_EQ_PTR(f.stack.base[0].node, &f.tree.root);
	CHECK_EQ_U64(f.stack.base[0].sp, UINTPTR_MAX);
	for (unsigned i = 0; i < 3; i++) {
		CHECK_EQ_PTR(f.stack.base[i + 1].node, nodes[i]);
		CHECK_EQ_U64(f.stack.base[i + 1].sp, 1000 - 100 * i);
		CHECK_EQ_U64(f.stack.base[i + 1].t_enter_ticks, 10 * (i + 1));
	}
	for (unsigned i = 0; i < 4; i++) /* the new room is usable */
		push(&f, FN_A, 700 - 100 * i, 0);
	CHECK_EQ_U64(f.stack.depth, 8);
	CHECK_EQ_U64(shadow_find(&f.stack, FN_C), 3);
	fixture_release(&f);
}

void test_shadow_grow_limit(void)
{
	struct fixture f;

	fixture_init(&f, 4, 16);
	CHECK_EQ_U64(shadow_grow(&f.stack), 0);
	CHECK_EQ_U64(shadow_grow(&f.stack), 0);
	CHECK_EQ_U64(f.stack.cap, 16);
	CHECK_EQ_U64((uint64_t)(int64_t)shadow_grow(&f.stack), (uint64_t)(int64_t)-1);
	CHECK_EQ_U64(f.stack.cap, 16);
	fixture_release(&f);

	fixture_init(&f, 8, 4); /* a limit below the start: no growth at all */
	CHECK_EQ_U64(f.stack.max_cap, 8);
	CHECK_EQ_U64((uint64_t)(int64_t)shadow_grow(&f.stack), (uint64_t)(int64_t)-1);
	CHECK_EQ_U64(f.stack.cap, 8);
	fixture_release(&f);
}

void test_shadow_unwind_to(void)
{
	struct fixture f;

	fixture_init(&f, 64, 64);
	push(&f, FN_A, 1000, 0);
	push(&f, FN_B, 900, 0);
	push(&f, FN_C, 800, 0);
	/* Execution resumes with the stack pointer at 910: C (800) is gone, B (900) lives. */
	CHECK_EQ_U64(shadow_unwind_to(&f.stack, 910, 0), 1);
	CHECK_EQ_U64(f.stack.depth, 3);
	CHECK_EQ_U64(f.stack.base[2].fn, FN_B);
	/* Resuming far above: everything but the sentinel goes. */
	CHECK_EQ_U64(shadow_unwind_to(&f.stack, 100000, 0), 2);
	CHECK_EQ_U64(f.stack.depth, 1);
	fixture_release(&f);
}

/* Sampled timing: two contexts' stacks (one tree) each open an own-timed call
 * of one node, taking turns; each call's callees' time must be its own when
 * it closes, whatever the other's took meanwhile (shadow_park). */
void test_shadow_park(void)
{
	struct fixture a, b;
	struct frame *fa, *fb, *child;
	struct cct_node *n;

	fixture_init(&a, 64, 64);
	b.tree = a.tree; /* unused: b's frames take a's tree, as contexts share their thread's */
	CHECK_EQ_U64(shadow_init(&b.stack, &a.tree.root, 64, 64), 0);
	frames_sampled = true;
	frames_sample_rate = 4;

	/* Context a: the call opens own-timed, and lends a callee 30 ticks. */
	fa = push(&a, FN_A, 1000, 100 | FRAME_OWN_TIMED | FRAME_FIRST);
	n = fa->node;
	n->act_child_ticks = 0;
	n->act_lent = 0;
	child = push(&a, FN_B, 900, 110 | FRAME_LENT);
	frame_close_timed(child, fa, 140);
	a.stack.depth--;
	n->act_lent = 1;
	CHECK_EQ_U64(n->act_child_ticks, 30);
	shadow_park(&a.stack);
	CHECK_EQ_U64(a.stack.parked, 1);
	CHECK_EQ_U64(shadow_parked_child_ticks(&a.stack, 1), 30);

	/* Context b runs: its call of the same node starts its sums again (as
	 * stamp_pick_next does) and lends a callee 1000 ticks. */
	fb = &b.stack.base[b.stack.depth++];
	*fb = (struct frame){ .fn = FN_A,
			      .node = n,
			      .sp = 1000,
			      .t_enter_ticks = 200 | FRAME_OWN_TIMED | FRAME_FIRST };
	n->calls++;
	n->act_child_ticks = 0;
	n->act_lent = 0;
	child = &b.stack.base[b.stack.depth++];
	*child = (struct frame){ .fn = FN_C,
				 .node = cct_child_get(&a.tree, n, FN_C, 0),
				 .sp = 900,
				 .t_enter_ticks = 210 | FRAME_LENT };
	frame_close_timed(child, fb, 1210);
	b.stack.depth--;
	n->act_lent = 3;
	shadow_park(&b.stack);
	CHECK_EQ_U64(b.stack.parked, 1);
	CHECK_EQ_U64(shadow_parked_child_ticks(&b.stack, 1), 1000);

	/* a runs again and its call closes: its own callee's 30 ticks only. */
	shadow_unpark(&a.stack);
	CHECK_EQ_U64(a.stack.parked, 0);
	CHECK_EQ_U64(n->act_child_ticks, 30);
	CHECK_EQ_U64(n->act_lent, 1);
	frame_close_timed(fa, &a.stack.base[0], 300);
	a.stack.depth--;
	CHECK_EQ_U64(n->child_ticks, 30);
	CHECK_EQ_U64(n->incl_ticks, 200);

	/* Then b's: its 1000. */
	shadow_unpark(&b.stack);
	CHECK_EQ_U64(n->act_child_ticks, 1000);
	CHECK_EQ_U64(n->act_lent, 3);
	frame_close_timed(fb, &b.stack.base[0], 1300);
	CHECK_EQ_U64(n->child_ticks, 1030);
	CHECK_EQ_U64(n->incl_ticks, 1300);

	/* A fork child's fresh tree: parked sums start again, frames gone go. */
	b.stack.depth = 2;
	shadow_park(&b.stack);
	CHECK_EQ_U64(shadow_parked_child_ticks(&b.stack, 1), 1000);
	shadow_park_restart(&b.stack);
	CHECK_EQ_U64(b.stack.parked, 1);
	CHECK_EQ_U64(shadow_parked_child_ticks(&b.stack, 1), 0);
	b.stack.depth = 1;
	shadow_park_restart(&b.stack);
	CHECK_EQ_U64(b.stack.parked, 0);

	frames_sampled = false;
	shadow_release(&b.stack);
	fixture_release(&a);
}
