/*
 * context.c: the front-end for execution contexts (makecontext, swapcontext,
 * setcontext): each context runs on a shadow stack of its own, so calls on a
 * coroutine's stack attach to its own frames wherever that stack lies (in a
 * live function's frame: the liveness test would take the frames below for
 * dead), and a stack that does not run keeps its calls open but its time
 * stopped.  A context made by makecontext starts with an empty stack (its
 * function is a root call); one it does not know (getcontext's) is a jump
 * within the running stack, as longjmp is.  Under the front-ends that hijack
 * returns (hijack.h), each context keeps its records of hijacked returns
 * too, bounded by its own stack, and takes them along when it runs.
 */
#include <dlfcn.h>
#include <errno.h>
#include <stdarg.h>
#include <string.h>
#include <ucontext.h>

#include "clock.h"
#include "compat.h"
#include "ctxmap.h"
#include "options.h"
#include "probe.h"
#include "shadow.h"
#include "tstate.h"

#define CONTEXT_FRAMES 256u /* a new context's first room: coroutines are shallow */
#define CONTEXT_ARGS 16     /* makecontext arguments passed on; more are not */

typedef int (*swap_fn)(ucontext_t *, const ucontext_t *);
typedef int (*set_fn)(const ucontext_t *);
typedef void (*make_fn)(ucontext_t *, void (*)(void), int, ...);

/* The real functions, found on first use. */
static swap_fn real_swap;
static set_fn real_set;
static make_fn real_make;

static void *next_symbol(const char *name)
{
	return dlsym(RTLD_NEXT, name);
}

/* Installs `s` as the running stack of `t`: the depth last, so a dump
 * reading it meanwhile sees a short stack rather than a wrong one. */
static void install(struct tstate *t, const struct shadow *s)
{
	__atomic_store_n(&t->stack.depth, 1, __ATOMIC_RELEASE);
	t->stack.cap = s->cap;
	t->stack.max_cap = s->max_cap;
	t->stack.fold = s->fold;
	__atomic_store_n(&t->stack.base, s->base, __ATOMIC_RELEASE);
	__atomic_store_n(&t->stack.depth, s->depth, __ATOMIC_RELEASE);
}

/* The running stack of `t` stops, kept by `e` from `now`; with no `e`, its
 * context is gone for good: its open calls close now (resynced) and it is freed. */
static void stack_out(struct tstate *t, struct ctx_entry *e, uint64_t now)
{
	fold_suspend(&t->stack.fold);
	if (e) {
		if (e->saved.base) /* an older stack it kept, never resumed */
			shadow_release(&e->saved);
		shadow_park(&t->stack);
		e->saved = t->stack;
		hijack_stack_release(&e->ret);
		e->ret = t->ret;
		e->paused_ticks = now;
		e->fresh = false;
	} else {
		t->resyncs += shadow_close_above(&t->stack, 0, now);
		shadow_release(&t->stack);
		hijack_stack_release(&t->ret); /* its calls never return */
	}
	memset(&t->stack, 0, sizeof(t->stack));
	memset(&t->ret, 0, sizeof(t->ret));
}

/* The stacks kept by `e` (of calls, and of hijacked returns), taken from it
 * with its open calls' times moved on by the time it stopped, into *s and *r;
 * or, for a context not run yet (or none), new empty ones, the hijacked
 * returns' on the context's own stack `ucp` (one that runs is the only place
 * its calls return through).  False without memory. */
static bool stack_take(struct tstate *t, struct ctx_entry *e, const ucontext_t *ucp, uint64_t now,
		       struct shadow *s, struct hijack_stack *r)
{
	*r = e ? e->ret : (struct hijack_stack){ 0 };
	if (e)
		memset(&e->ret, 0, sizeof(e->ret));
	if (!r->stack_hi && e && e->fresh && ucp->uc_stack.ss_size) {
		r->stack_lo = (uintptr_t)ucp->uc_stack.ss_sp;
		r->stack_hi = r->stack_lo + ucp->uc_stack.ss_size;
	}
	*s = e ? e->saved : (struct shadow){ 0 };
	if (s->base) {
		uint64_t stopped = now > e->paused_ticks ? now - e->paused_ticks : 0;
		for (uint32_t i = 1; i < s->depth; i++)
			if (s->base[i].t_enter_ticks)
				s->base[i].t_enter_ticks += stopped;
		memset(&e->saved, 0, sizeof(e->saved));
	} else if (shadow_init(s, &t->tree.root, CONTEXT_FRAMES, options.max_stack) < 0) {
		if (e)
			e->ret = *r; /* kept as it was */
		return false;
	}
	if (e)
		e->fresh = false;
	return true;
}

/* `s` and `r` run on `t`: after stack_out, which parked the stack that stopped. */
static void stack_put(struct tstate *t, struct shadow *s, const struct hijack_stack *r)
{
	shadow_unpark(s);
	t->ret = *r;
	install(t, s);
	fold_resume(&t->stack.fold);
}

/* True if `ucp` is a context whose stack `t` keeps or is to make (else it is
 * getcontext's, on the running stack). */
static bool known(struct tstate *t, const ucontext_t *ucp)
{
	const struct ctx_entry *e = ctxmap_get(&t->contexts, ucp, false);

	return e && (e->saved.base || e->fresh || e->ret.base);
}

/* A switch to a context on the running stack: a jump up it, as longjmp (nonlocal.c). */
static void jump_within(struct tstate *t, const ucontext_t *ucp)
{
	uintptr_t target = (uintptr_t)ucp->uc_mcontext.gregs[REG_RSP];

	if (target > (uintptr_t)__builtin_frame_address(0))
		t->resyncs += shadow_unwind_to(&t->stack, target, clock_now());
}

/* `t` switches from its running context, to be kept in `oucp` (NULL: left
 * for good), to `ucp`. */
static void switch_to(struct tstate *t, const ucontext_t *oucp, const ucontext_t *ucp)
{
	uint64_t now = stamp_enter_read();
	struct ctx_entry *out = NULL;
	struct hijack_stack in_ret;
	struct shadow in;

	if (!known(t, ucp)) {
		jump_within(t, ucp);
		return;
	}
	/* Without memory to keep the running stack, or to make the new one, the
	 * stacks stay as they are (the switch is then a jump, as before). */
	if (oucp && !(out = ctxmap_get(&t->contexts, oucp, true)))
		return;
	if (!stack_take(t, ctxmap_get(&t->contexts, ucp, false), ucp, now, &in, &in_ret))
		return;
	if (!oucp && t->ctx_current && (out = ctxmap_get(&t->contexts, t->ctx_current, false))) {
		ctxmap_remove(out); /* its context is left for good */
		out = NULL;
	}
	stack_out(t, out, now);
	stack_put(t, &in, &in_ret);
	t->ctx_current = ucp;
}

/*
 * Control came back to `oucp`, saved by a swapcontext: through one of ours,
 * which put its stack back already; or when the context that ran ended
 * (its function returned to uc_link) or left (glibc's own setcontext): that
 * one's stack goes, and oucp's runs again.
 */
static void came_back(struct tstate *t, const ucontext_t *oucp)
{
	uint64_t now = stamp_enter_read();
	struct ctx_entry *e;

	struct hijack_stack back_ret;
	struct shadow back;

	if (t->ctx_current == oucp || !known(t, oucp) ||
	    !stack_take(t, ctxmap_get(&t->contexts, oucp, false), oucp, now, &back, &back_ret))
		return;
	if (t->ctx_current && (e = ctxmap_get(&t->contexts, t->ctx_current, false)))
		ctxmap_remove(e);
	stack_out(t, NULL, now);
	stack_put(t, &back, &back_ret);
	t->ctx_current = oucp;
}

/* This thread's own state for a switch (signal levels keep their one stack), held; or NULL. */
static struct tstate *hold_own(void)
{
	struct tstate *t = probe_hold_level();

	if (t && t->level) {
		probe_release(t);
		return NULL;
	}
	return t;
}

CP_EXPORT int swapcontext(ucontext_t *oucp, const ucontext_t *ucp);
int swapcontext(ucontext_t *oucp, const ucontext_t *ucp)
{
	int rc, saved_errno = errno;
	struct tstate *t;

	if (!real_swap)
		*(void **)&real_swap = next_symbol("swapcontext");
	if ((t = hold_own())) {
		switch_to(t, oucp, ucp);
		probe_release(t);
	}
	errno = saved_errno;
	rc = real_swap(oucp, ucp);
	saved_errno = errno;
	if ((t = hold_own())) {
		came_back(t, oucp);
		probe_release(t);
	}
	errno = saved_errno;
	return rc;
}

CP_EXPORT int setcontext(const ucontext_t *ucp);
int setcontext(const ucontext_t *ucp)
{
	int saved_errno = errno;
	struct tstate *t;

	if (!real_set)
		*(void **)&real_set = next_symbol("setcontext");
	if ((t = hold_own())) {
		switch_to(t, NULL, ucp);
		probe_release(t);
	}
	errno = saved_errno;
	return real_set(ucp);
}

CP_EXPORT void makecontext(ucontext_t *ucp, void (*func)(void), int argc, ...);
void makecontext(ucontext_t *ucp, void (*func)(void), int argc, ...)
{
	long a[CONTEXT_ARGS] = { 0 };
	int saved_errno = errno;
	struct ctx_entry *e;
	struct tstate *t;
	va_list ap;

	va_start(ap, argc);
	for (int i = 0; i < argc && i < CONTEXT_ARGS; i++)
		a[i] = va_arg(ap, long);
	va_end(ap);
	if (!real_make)
		*(void **)&real_make = next_symbol("makecontext");
	if ((t = hold_own())) {
		if ((e = ctxmap_get(&t->contexts, ucp, true))) {
			if (e->saved.base) /* a context made again: its old stack goes */
				shadow_release(&e->saved);
			hijack_stack_release(&e->ret);
			memset(&e->saved, 0, sizeof(e->saved));
			e->fresh = true;
		}
		probe_release(t);
	}
	errno = saved_errno;
	real_make(ucp, func, argc, a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9],
		  a[10], a[11], a[12], a[13], a[14], a[15]);
}
