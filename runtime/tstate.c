/* tstate.c: thread state creation, the registry of all threads, thread exit and fork. */
#include "tstate.h"

#include <limits.h>
#include <pthread.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "adapt.h"
#include "clock.h"
#include "filter.h"
#include "options.h"
#include "process.h"

#define STACK_INITIAL_FRAMES 4096u
#define FOLD_NESTING_LOOK 1024 /* frames searched for an open call of a folded function */

__thread struct tstate *tstate_self __attribute__((tls_model("initial-exec")));

/* Guards `registry`; taken only off the hot path (attach, dump, fork). */
static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;
/* Every thread's state, newest first. */
static struct tstate *registry;
/* Its destructor tells us a thread ended. */
static pthread_key_t exit_key;
static bool exit_key_ok;
/* The state of a thread that is not profiled: every probe sees busy and off, and returns. */
static struct tstate tstate_off = { .busy = 1, .off = true };

/* An empty tree whose new nodes start as tsc-adaptive wants them (adapt.h). */
static void tree_init(struct tstate *t)
{
	cct_init(&t->tree, options.max_nodes);
	t->tree.new_fence = clock_source == CLOCK_SRC_TSC_ADAPTIVE ? CCT_FENCE_SAMPLING : CCT_FENCE_PLAIN;
}

struct tstate *tstate_create(void)
{
	struct tstate *t = mmap(NULL, sizeof(*t), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
				-1, 0);

	if (t == MAP_FAILED)
		return NULL;
	tree_init(t);
	if (shadow_init(&t->stack, &t->tree.root,
			STACK_INITIAL_FRAMES < options.max_stack ? STACK_INITIAL_FRAMES : options.max_stack,
			options.max_stack) < 0) {
		munmap(t, sizeof(*t));
		return NULL;
	}
	t->tid = (int)gettid();
	t->is_main = t->tid == getpid();
	t->t_start_ticks = clock_now();
	return t;
}

void tstate_destroy(struct tstate *t)
{
	shadow_release(&t->stack);
	cct_release(&t->tree);
	munmap(t, sizeof(*t));
}

struct tstate *tstate_attach(void)
{
	struct tstate *t;

	/* Probes that run while we set up (a signal handler's) see an off state. */
	tstate_self = &tstate_off;
	process_init();
	if (!process.ready || !(t = tstate_create()))
		return &tstate_off;
	pthread_mutex_lock(&registry_lock);
	t->next = registry;
	registry = t;
	pthread_mutex_unlock(&registry_lock);
	if (exit_key_ok)
		pthread_setspecific(exit_key, t);
	process.probed = true;
	tstate_self = t;
	return t;
}

/* Drops an enter probe at frame address `sp`; its exit will be skipped. */
static void drop_enter(struct tstate *t, uintptr_t sp)
{
	if (!t->dropped_depth)
		t->dropped_sp = sp;
	t->dropped_depth++;
	t->dropped_no_room++;
}

/* True if this enter must be dropped: no room on the stack, or deeper than dropped frames. */
static bool enter_no_room(struct tstate *t, uintptr_t sp)
{
	if (t->dropped_depth && sp >= t->dropped_sp)
		t->dropped_depth = 0; /* control came back above the dropped frames without their exits */
	if (!t->dropped_depth && (t->stack.depth < t->stack.cap || shadow_grow(&t->stack) == 0))
		return false;
	drop_enter(t, sp);
	return true;
}

void tstate_enter_general(struct tstate *t, uintptr_t fn, uintptr_t call_site, uintptr_t sp)
{
	struct shadow *s = &t->stack;
	struct frame *top;
	struct cct_node *node;
	uintptr_t mark = 0;

	if (s->base[s->depth - 1].sp < sp)
		t->resyncs += shadow_pop_dead(s, sp);
	if ((s->depth == s->cap || t->dropped_depth) && enter_no_room(t, sp))
		goto out;
	top = &s->base[s->depth - 1];
	if ((filter_on && !filter_admits(fn)) || (options.max_depth && s->depth > options.max_depth)) {
		node = top->node; /* a transparent frame: see shadow.h */
		mark = FRAME_TRANSPARENT;
	} else if ((node = cct_child_get(&t->tree, top->node, fn, call_site))) {
		node->calls++;
		/* Folded past the budget, inside an open call of the same function.
		 * The look is bounded: deeper nesting still counts its time. */
		if (node->parent != top->node && shadow_has_open(s, fn, FOLD_NESTING_LOOK))
			mark = FRAME_UNTIMED;
	} else {
		drop_enter(t, sp);
		goto out;
	}
	top[1].fn = mark ? ~fn : fn;
	top[1].node = node;
	top[1].sp = sp | mark;
	s->depth++;
	if (mark) /* a marked frame carries no time of its own (a transparent one, its caller's node) */
		top[1].t_enter_ticks = clock_now_enter();
	else
		adapt_stamp_enter(&top[1], node);
out:
	cp_barrier();
	t->busy = 0;
}

void tstate_enter_unready(struct tstate *t, uintptr_t fn, uintptr_t call_site, uintptr_t sp)
{
	if (!t)
		t = tstate_attach();
	if (t->busy) {
		if (!t->off)
			t->dropped_calls++; /* a signal handler's probe inside another probe */
		return;
	}
	t->busy = 1;
	cp_barrier();
	tstate_enter_general(t, fn, call_site, sp);
}

void tstate_exit_general(struct tstate *t, uintptr_t fn, uint64_t now_ticks)
{
	uint32_t k;

	if (t->dropped_depth) {
		t->dropped_depth--;
		goto out;
	}
	k = shadow_find(&t->stack, fn);
	if (!k) {
		t->unmatched_exits++;
		goto out;
	}
	t->resyncs += shadow_close_above(&t->stack, k, now_ticks);
	frame_close_any(&t->stack.base[k], &t->stack.base[k - 1], now_ticks);
	t->stack.depth = k;
out:
	cp_barrier();
	t->busy = 0;
}

struct tstate *tstate_lock_all(void)
{
	pthread_mutex_lock(&registry_lock);
	return registry;
}

struct tstate *tstate_lock_all_held(void)
{
	return registry;
}

void tstate_unlock_all(void)
{
	pthread_mutex_unlock(&registry_lock);
}

/*
 * The exit key's destructor, on the ending thread, after its C++ thread_local
 * destructors.  Other keys' destructors may still run instrumented code: glibc
 * calls destructors again while values are set again, so we re-arm ours for
 * the last of those rounds and finish then.
 */
static void thread_ended(void *arg)
{
	struct tstate *t = arg;
	uint64_t now = clock_now();

	if (++t->exit_rounds < PTHREAD_DESTRUCTOR_ITERATIONS && pthread_setspecific(exit_key, t) == 0)
		return;
	t->closed_at_exit += shadow_close_above(&t->stack, 0, now);
	t->t_end_ticks = now;
	prctl(PR_GET_NAME, t->name, 0, 0, 0);
	t->finished = true;
}

/* In a fork child the forking thread keeps its open frames, but in a fresh tree:
 * each open activation counts once, from the fork on. */
static void tstate_restart(struct tstate *t)
{
	struct cct old = t->tree;
	uint64_t now = clock_now();
	struct cct_node *parent;

	tree_init(t);
	parent = &t->tree.root;
	t->stack.base[0].node = parent;
	for (uint32_t i = 1; i < t->stack.depth; i++) {
		struct frame *f = &t->stack.base[i];
		struct cct_node *n;
		if (frame_is_transparent(f)) {
			f->node = parent;
			continue;
		}
		/* An untimed frame becomes plain: the fresh tree has room for its path. */
		f->fn = frame_fn(f);
		f->sp &= ~FRAME_MARKS;
		n = cct_child_get(&t->tree, parent, f->fn, f->node->call_site);
		if (!n) {
			t->stack.depth = i;
			break;
		}
		n->calls = 1;
		f->node = n;
		f->t_enter_ticks = now;
		parent = n;
	}
	cct_release(&old);
	t->dropped_calls = t->dropped_no_room = t->resyncs = t->unmatched_exits = 0;
	t->closed_at_exit = 0;
	t->tid = (int)gettid();
	t->is_main = true;
	t->t_start_ticks = now;
	t->next = NULL;
}

static void fork_prepare(void) { pthread_mutex_lock(&registry_lock); }
static void fork_parent(void) { pthread_mutex_unlock(&registry_lock); }

static void fork_child(void)
{
	struct tstate *self = tstate_self;

	pthread_mutex_unlock(&registry_lock);
	registry = NULL; /* the other threads do not exist here */
	process_forked();
	if (self && !self->off) {
		tstate_restart(self);
		registry = self;
	}
}

void tstate_setup(void)
{
	exit_key_ok = pthread_key_create(&exit_key, thread_ended) == 0;
	pthread_atfork(fork_prepare, fork_parent, fork_child);
}
