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
#include "cputime.h"
#include "handoff.h"
#include "options.h"

#define STACK_INITIAL_FRAMES 4096u
#define SIGNAL_STACK_FRAMES 256u /* a signal level's first room: handlers are shallow */

__thread struct tstate *tstate_self __attribute__((tls_model("initial-exec")));

/* Keeps apart those who walk or rewrite every state; joining takes no lock. */
static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;
/* Every thread's state, newest first; pushed with compare-and-swap. */
static struct tstate *registry;
/* Its destructor tells us a thread ended. */
static pthread_key_t exit_key;
static bool exit_key_ok;
/* The state of a thread once its profile is handed to the process: every
 * probe sees busy and off, and returns (it has ended). */
static struct tstate tstate_ended = { .busy = 1, .off = true };

static void tree_init(struct tstate *t, uint32_t node_state)
{
	cct_init(&t->tree, options.max_nodes);
	t->tree.new_fence = node_state;
	t->tree.new_cpu = cputime_on ? CCT_CPU_READ : CCT_CPU_SKIP;
}

/* A state whose stack starts with room for `frames` frames. */
static struct tstate *state_create(uint32_t node_state, uint32_t frames)
{
	struct tstate *t =
		mmap(NULL, sizeof(*t), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (t == MAP_FAILED)
		return NULL;
	tree_init(t, node_state);
	if (shadow_init(&t->stack, &t->tree.root,
			frames < options.max_stack ? frames : options.max_stack,
			options.max_stack) < 0) {
		munmap(t, sizeof(*t));
		return NULL;
	}
	t->tid = (int)gettid();
	t->is_main = t->tid == getpid();
	t->t_start_ticks = clock_now();
	t->thread = t;
	return t;
}

struct tstate *tstate_create(uint32_t node_state)
{
	return state_create(node_state, STACK_INITIAL_FRAMES);
}

struct tstate *tstate_create_signal(const struct tstate *t)
{
	struct tstate *s = state_create(t->tree.new_fence, SIGNAL_STACK_FRAMES);

	if (s) {
		s->thread = t->thread;
		s->level = t->level + 1;
		s->unfiltered = t->unfiltered;
	}
	return s;
}

void tstate_destroy(struct tstate *t)
{
	while (t) {
		struct tstate *next = t->sig;
		hijack_stack_release(&t->ret);
		ctxmap_release(&t->contexts);
		shadow_release(&t->stack);
		cct_release(&t->tree);
		munmap(t, sizeof(*t));
		t = next;
	}
}

/*
 * The exit key's destructor, on the ending thread, after its C++ thread_local
 * destructors.  Other keys' destructors may still run instrumented code: glibc
 * calls destructors again while values are set again, so we re-arm ours for
 * the last of those rounds and finish then.
 */
/* Puts `copy` in the registry in place of `old`; with the registry locked,
 * so only threads joining it, at its head, change it meanwhile. */
static void registry_replace(struct tstate *old, struct tstate *copy)
{
	struct tstate *head = __atomic_load_n(&registry, __ATOMIC_ACQUIRE);

	copy->next = old->next;
	if (head == old && __atomic_compare_exchange_n(&registry, &head, copy, false,
						       __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
		return;
	for (struct tstate *p = head; p; p = p->next)
		if (p->next == old) {
			__atomic_store_n(&p->next, copy, __ATOMIC_RELEASE);
			return;
		}
}

/*
 * The thread, which has ended, hands its profile to the process (handoff.h)
 * and frees its state; without memory for the copy, it frees its stack only.
 * Its probes are dropped from now on.
 */
static void hand_off(struct tstate *t)
{
	struct tstate *copy;

	t->busy = 1; /* a signal handler's probes are dropped: off, no signal level made */
	t->off = true;
	tstate_lock_all();
	if ((copy = handoff_copy(t)))
		registry_replace(t, copy);
	else
		shadow_release(&t->stack);
	t->stack.depth = 1;
	tstate_unlock_all();
	if (!copy)
		return;
	tstate_self = &tstate_ended;
	tstate_destroy(t);
}

static void thread_ended(void *arg)
{
	struct tstate *t = arg;
	uint64_t now = clock_now();

	if (++t->exit_rounds < PTHREAD_DESTRUCTOR_ITERATIONS &&
	    pthread_setspecific(exit_key, t) == 0)
		return;
	for (struct tstate *l = t; l; l = l->sig)
		t->closed_at_exit += shadow_close_above(&l->stack, 0, now);
	t->t_end_ticks = now;
	syscall(SYS_prctl, PR_GET_NAME, t->name, 0, 0,
		0); /* not prctl(): the runtime's (sandbox.c) */
	t->finished = true;
	altstack_release();
	hand_off(t);
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
	while (!__atomic_compare_exchange_n(&registry, &head, t, true, __ATOMIC_RELEASE,
					    __ATOMIC_RELAXED));
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
	if (t->sig)
		tstate_clear(t->sig, now_ticks);
	cct_clear_counts(&t->tree);
	for (uint32_t i = 1; i < t->stack.depth; i++)
		frame_restart(&t->stack.base[i], now_ticks);
	shadow_cpu_restart(&t->stack);
	t->dropped_calls = t->dropped_no_room = t->resyncs = 0;
	t->unmatched_exits = t->closed_at_exit = t->undecided_calls = t->dropped_at_end = 0;
	t->t_start_ticks = now_ticks;
}

struct rebase_arg {
	struct tstate *t;
	uint64_t now;
};

/* The open frames of stack `s` move to the fresh tree of `t`: their nodes
 * count no call (the parent counted their entries), and their time runs from
 * `now`, so the child's calls attach below them; each keeps its front-end's
 * word (so its kind of call, kind.h).  The old tree is still there to read. */
static void rebase(struct tstate *t, struct shadow *s, uint64_t now)
{
	struct cct_node *parent = &t->tree.root;

	fold_release(&s->fold); /* the fresh tree has room: nothing is folded */
	s->base[0].node = parent;
	for (uint32_t i = 1; i < s->depth; i++) {
		struct frame *f = &s->base[i];
		struct cct_node *n;
		if (frame_is_transparent(f)) {
			f->node = parent;
			continue;
		}
		/* A folded frame becomes plain: the fresh tree has room for its path
		 * (unless the stack is deeper than the budget: its top is let go). */
		f->fn = frame_fn(f);
		f->sp &= ~FRAME_MARKS;
		n = cct_child_get(&t->tree, parent, f->fn, f->node->call_site);
		if (!n || cct_node_is_folded(&t->tree, n)) {
			s->depth = i;
			break;
		}
		n->fe_word = f->node->fe_word;
		f->node = n;
		frame_restart(f, now);
		parent = n;
	}
	shadow_cpu_restart(s);
	shadow_park_restart(s);
}

static void rebase_saved(struct shadow *s, uint64_t *paused_ticks, void *arg)
{
	const struct rebase_arg *a = arg;

	rebase(a->t, s, a->now);
	*paused_ticks = a->now;
}

/* The forking thread keeps its open frames, those of the context that runs
 * and of the others it keeps, in a fresh tree (rebase). */
static void restart(struct tstate *t, uint32_t node_state, uint64_t now)
{
	struct cct old = t->tree;
	struct rebase_arg a = { t, now };

	tree_init(t, node_state);
	rebase(t, &t->stack, now);
	ctxmap_each_stack(t->contexts, rebase_saved, &a);
	cct_release(&old);
	tstate_destroy(t->sig); /* a fresh profile: the handlers' trees go too */
	t->sig = NULL;
	t->sig_making = 0;
	t->dropped_calls = t->dropped_no_room = t->resyncs = t->unmatched_exits = 0;
	t->closed_at_exit = t->undecided_calls = t->dropped_at_end = 0;
	t->tid = (int)gettid();
	t->is_main = true;
	t->t_start_ticks = now;
	t->wait_base_ns = 0; /* a new task: the kernel's count starts at the fork */
	t->next = NULL;
}

void tstate_fork_child(struct tstate *self, uint32_t node_state, uint64_t now_ticks)
{
	__atomic_store_n(&registry, NULL,
			 __ATOMIC_RELAXED); /* the other threads do not exist here */
	handoff_forget_all();
	if (self && !self->off) {
		restart(self, node_state, now_ticks);
		__atomic_store_n(&registry, self, __ATOMIC_RELEASE);
	}
	pthread_mutex_unlock(&registry_lock);
}
