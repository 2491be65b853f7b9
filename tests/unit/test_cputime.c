/* test_cputime.c: unit tests of CPU time's side stack (shadow.h) and its clock (cputime.h). */
#include <stdint.h>
#include <unistd.h>

#include "cct.h"
#include "clock.h"
#include "cputime.h"
#include "shadow.h"
#include "unit.h"

#define FN ((uintptr_t)0x55d4c3a01130u)
#define NEVER_LONG ((uint64_t)100 << 40) /* ticks: hours */

/* A thread's tree and stack, as a probe sees them, CPU time on; a call is long when it
 * lasts `long_ticks` or more. */
struct fixture {
	struct cct tree;
	struct shadow stack;
};

static void fixture_init(struct fixture *f, uint64_t long_ticks)
{
	clock_init("tsc", false);
	cputime_init(true);
	CHECK_EQ_U64(cputime_on, 1);
	cputime_set_cost((double)long_ticks / 100);
	CHECK_EQ_U64(cputime_long_ticks, long_ticks);
	cct_init(&f->tree, 0);
	f->tree.new_cpu = CCT_CPU_READ;
	CHECK_EQ_U64(shadow_init(&f->stack, &f->tree.root, 64, 64), 0);
}

static void fixture_release(struct fixture *f)
{
	shadow_release(&f->stack);
	cct_release(&f->tree);
}

/* What the enter probe's slow path does: a child of the top frame's node (function
 * FN + k), its CPU interval opened when its node says so, then the frame pushed. */
static struct cct_node *push(struct fixture *f, uintptr_t k)
{
	struct shadow *s = &f->stack;
	struct cct_node *node = cct_child_get(&f->tree, s->base[s->depth - 1].node, FN + k, 0);

	CHECK_NOT_NULL(node);
	node->calls++;
	if (node->cpu & CCT_CPU_READ)
		shadow_cpu_open(s, s->depth);
	s->base[s->depth].fn = FN + k;
	s->base[s->depth].node = node;
	s->base[s->depth].sp = 0x7ff0000000u - 64 * s->depth;
	s->base[s->depth].t_enter_ticks = clock_now();
	s->depth++;
	return node;
}

/* What an exit does off the fast path: the top frame closed now. */
static void pop(struct fixture *f)
{
	struct shadow *s = &f->stack;

	shadow_close_frame(s, s->depth - 1, clock_now());
	s->depth--;
}

static void burn(void)
{
	uint64_t start = cputime_self_ns();
	volatile uint64_t x = 0;

	while (cputime_self_ns() < start + 200000) /* 0.2 ms of CPU time */
		for (int i = 0; i < 1000; i++)
			x += (uint64_t)i;
}

void test_cputime_clock(void)
{
	uint64_t before = cputime_self_ns(), other;

	CHECK_GE_U64(before, 1);
	burn();
	CHECK_GE_U64(cputime_self_ns(), before + 200000);
	CHECK_EQ_U64(cputime_thread_ns((int)gettid(), &other), 0);
	CHECK_GE_U64(other, before + 200000);
	CHECK_EQ_U64(cputime_thread_ns(0, &other), (uint64_t)-1);
}

/* Nested calls each read the CPU clock on both sides: the inner one's time is in the outer one's. */
void test_cputime_nested(void)
{
	struct fixture f;
	struct cct_node *outer, *inner;

	fixture_init(&f, NEVER_LONG); /* no call is long: each node reads once */
	outer = push(&f, 1);
	burn();
	inner = push(&f, 2);
	CHECK_EQ_U64(f.stack.cpu_depth, 2);
	CHECK_EQ_U64(f.stack.cpu_frame, 2);
	burn();
	pop(&f);
	CHECK_EQ_U64(f.stack.cpu_frame, 1);
	pop(&f);
	CHECK_EQ_U64(f.stack.cpu_frame, 0);
	CHECK_EQ_U64(f.stack.cpu_depth, 0);
	CHECK_EQ_U64(outer->cpu_calls, 1);
	CHECK_EQ_U64(inner->cpu_calls, 1);
	CHECK_GE_U64(inner->cpu_ns, 200000);
	CHECK_GE_U64(outer->cpu_ns, inner->cpu_ns + 200000);
	CHECK_GE_U64(outer->cpu_wall_ticks, inner->cpu_wall_ticks);
	/* Short calls: the next ones read nothing. */
	CHECK_EQ_U64(outer->cpu, CCT_CPU_SKIP);
	CHECK_EQ_U64(inner->cpu, CCT_CPU_SKIP);
	push(&f, 1);
	CHECK_EQ_U64(f.stack.cpu_depth, 0);
	pop(&f);
	CHECK_EQ_U64(outer->calls, 2);
	CHECK_EQ_U64(outer->cpu_calls, 1);
	fixture_release(&f);
}

/* A call that lasts long makes its node's next call read the CPU clock (frame_lasted),
 * unless the node never reads it (calibration's); one that reads it and is long keeps it. */
void test_cputime_long_calls(void)
{
	struct fixture f;
	struct cct_node *n;
	struct frame *top;

	fixture_init(&f, 1); /* every call is long */
	n = push(&f, 1);
	pop(&f);
	CHECK_EQ_U64(n->cpu, CCT_CPU_READ);
	n->cpu = CCT_CPU_SKIP;
	push(&f, 1);
	CHECK_EQ_U64(f.stack.cpu_depth, 0);
	top = &f.stack.base[f.stack.depth - 1];
	frame_close(top, top - 1, top->t_enter_ticks + 5);
	f.stack.depth--;
	CHECK_EQ_U64(n->cpu, CCT_CPU_READ);
	n->cpu = CCT_CPU_NEVER;
	push(&f, 1);
	top = &f.stack.base[f.stack.depth - 1];
	frame_close(top, top - 1, top->t_enter_ticks + 5);
	f.stack.depth--;
	CHECK_EQ_U64(n->cpu, CCT_CPU_NEVER);
	CHECK_EQ_U64(n->cpu_calls, 1);
	fixture_release(&f);
}

/* Frames dropped without a close leave entries behind: the next open or close at or below
 * them takes them off uncounted.  Past SHADOW_CPU_OPEN open intervals, calls read nothing. */
void test_cputime_stale_and_full(void)
{
	struct fixture f;
	struct cct_node *a, *b, *c, *deep[SHADOW_CPU_OPEN + 8];

	fixture_init(&f, NEVER_LONG);
	a = push(&f, 1);
	b = push(&f, 2);
	f.stack.depth--; /* b dropped: no close */
	c = push(&f, 3);
	CHECK_EQ_U64(f.stack.cpu_depth, 2);
	pop(&f);
	pop(&f);
	CHECK_EQ_U64(a->cpu_calls, 1);
	CHECK_EQ_U64(b->cpu_calls, 0);
	CHECK_EQ_U64(c->cpu_calls, 1);
	push(&f, 1);
	a->cpu = CCT_CPU_READ;
	push(&f, 4);
	f.stack.depth--; /* dropped */
	pop(&f);         /* a's close takes the stale entry off first */
	CHECK_EQ_U64(f.stack.cpu_depth, 0);
	CHECK_EQ_U64(a->calls, 2);
	for (uintptr_t k = 0; k < SHADOW_CPU_OPEN + 8; k++)
		deep[k] = push(&f, 10 + k);
	CHECK_EQ_U64(f.stack.cpu_depth, SHADOW_CPU_OPEN);
	for (uintptr_t k = 0; k < SHADOW_CPU_OPEN + 8; k++)
		pop(&f);
	for (uintptr_t k = 0; k < SHADOW_CPU_OPEN + 8; k++)
		CHECK_EQ_U64(deep[k]->cpu_calls, k < SHADOW_CPU_OPEN ? 1u : 0u);
	CHECK_EQ_U64(f.stack.cpu_depth, 0);
	fixture_release(&f);
}
