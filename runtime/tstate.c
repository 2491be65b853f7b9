/* tstate.c: thread states: creation, the registry of all threads, thread end, and a fork child's restart. */
#include "tstate.h"

#include <limits.h>
#include <pthread.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "altstack.h"
#include "clock.h"
#include "options.h"

#define STACK_INITIAL_FRAMES 4096u

__thread struct tstate *tstate_self __attribute__((tls_model("initial-exec")));

/* Keeps apart those who walk or rewrite every state; joining takes no lock. */
static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;
/* Every thread's state, newest first; pushed with compare-and-swap. */
static struct tstate *registry;
/* Its destructor tells us a thread ended. */
static pthread_key_t exit_key;
static bool exit_key_ok;

static void tree_init(struct tstate *t, uint32_t node_state)
{
	cct_init(&t->tree, options.max_nodes);
	t->tree.new_fence = node_state;
}

struct tstate *tstate_create(uint32_t node_state)
{
	struct tstate *t = mmap(NULL, sizeof(*t), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
				-1, 0);

	if (t == MAP_FAILED)
		return NULL;
	tree_init(t, node_state);
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
	if (t->ret.base)
		munmap(t->ret.base, (size_t)t->ret.cap * sizeof(*t->ret.base));
	shadow_release(&t->stack);
	cct_release(&t->tree);
	munmap(t, sizeof(*t));
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
	syscall(SYS_prctl, PR_GET_NAME, t->name, 0, 0, 0); /* not prctl(): the runtime's (sandbox.c) */
	t->finished = true;
	altstack_release();
}

void tstate_setup(void)
{
	exit_key_ok = pthread_key_create(&exit_key, thread_ended) == 0;
}

void tstate_register(struct tstate *t)
{
	struct tstate *head = __atomic_load_n(&registry, __ATOMIC_RELAXED);

	do
		t->next = head;
	while (!__atomic_compare_exchange_n(&registry, &head, t, true, __ATOMIC_RELEASE, __ATOMIC_RELAXED));
	if (exit_key_ok)
		pthread_setspecific(exit_key, t);
}

struct tstate *tstate_lock_all(void)
{
	pthread_mutex_lock(&registry_lock);
	return __atomic_load_n(&registry, __ATOMIC_ACQUIRE);
}

void tstate_unlock_all(void)
{
	pthread_mutex_unlock(&registry_lock);
}

void tstate_clear(struct tstate *t, uint64_t now_ticks)
{
	cct_clear_counts(&t->tree);
	for (uint32_t i = 1; i < t->stack.depth; i++)
		t->stack.base[i].t_enter_ticks = now_ticks;
	t->dropped_calls = t->dropped_no_room = t->resyncs = 0;
	t->unmatched_exits = t->closed_at_exit = t->undecided_calls = t->dropped_at_end = 0;
	t->t_start_ticks = now_ticks;
}

/* The one call the fresh node `n` counts for the open activation `f` is of
 * the kind its calls were: fenced, or its front-end's (kind.h). */
static void carry_kind(struct cct_node *n, const struct frame *f)
{
	n->fe_word = f->node->fe_word;
	if (f->sp & FRAME_FENCED) {
		n->kind_calls[PROBE_FENCED - 1] = 1;
		return;
	}
	for (unsigned k = 1; k < PROBE_KINDS; k++)
		if (k != PROBE_FENCED && f->node->kind_calls[k - 1]) {
			n->kind_calls[k - 1] = 1;
			return;
		}
}

/* The forking thread keeps its open frames, but in a fresh tree: each open
 * activation counts once, from the fork on. */
static void restart(struct tstate *t, uint32_t node_state, uint64_t now)
{
	struct cct old = t->tree;
	struct cct_node *parent;

	tree_init(t, node_state);
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
		carry_kind(n, f);
		f->node = n;
		f->t_enter_ticks = now;
		parent = n;
	}
	cct_release(&old);
	t->dropped_calls = t->dropped_no_room = t->resyncs = t->unmatched_exits = 0;
	t->closed_at_exit = t->undecided_calls = t->dropped_at_end = 0;
	t->tid = (int)gettid();
	t->is_main = true;
	t->t_start_ticks = now;
	t->next = NULL;
}

void tstate_fork_child(struct tstate *self, uint32_t node_state, uint64_t now_ticks)
{
	__atomic_store_n(&registry, NULL, __ATOMIC_RELAXED); /* the other threads do not exist here */
	if (self && !self->off) {
		restart(self, node_state, now_ticks);
		__atomic_store_n(&registry, self, __ATOMIC_RELEASE);
	}
	pthread_mutex_unlock(&registry_lock);
}
