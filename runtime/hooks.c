/*
 * hooks.c: the hot path, alone: the two probes GCC and Clang call from every
 * function built with -finstrument-functions.  No lock, no malloc, no system
 * call here; everything rare is a call into a cold function.
 */
#include <stdint.h>

#include "clock.h"
#include "compat.h"
#include "shadow.h"
#include "tstate.h"

CP_EXPORT void __cyg_profile_func_enter(void *fn, void *call_site);
CP_EXPORT void __cyg_profile_func_exit(void *fn, void *call_site);

void __cyg_profile_func_enter(void *fn, void *call_site)
{
	struct tstate *t = tstate_self;
	uintptr_t sp = (uintptr_t)__builtin_frame_address(0);
	struct shadow *s;
	struct frame *top;
	struct cct_node *node;

	if (unlikely(!t))
		t = tstate_attach();
	if (unlikely(t->busy)) {
		tstate_drop_probe(t, true);
		return;
	}
	t->busy = 1;
	cp_barrier();
	s = &t->stack;
	if (unlikely(s->base[s->depth - 1].sp < sp))
		t->resyncs += shadow_pop_dead(s, sp);
	if (unlikely(s->depth == s->cap || t->dropped_depth) && tstate_enter_no_room(t, sp))
		goto out;
	top = &s->base[s->depth - 1];
	node = cct_child_get(&t->tree, top->node, (uintptr_t)fn, (uintptr_t)call_site);
	if (unlikely(!node)) {
		tstate_drop_enter(t, sp);
		goto out;
	}
	node->calls++;
	top[1].fn = (uintptr_t)fn;
	top[1].node = node;
	top[1].sp = sp;
	s->depth++;
	top[1].t_enter_ticks = clock_now(); /* last, so the probe's own work falls outside */
out:
	cp_barrier();
	t->busy = 0;
}

void __cyg_profile_func_exit(void *fn, void *call_site)
{
	uint64_t now = clock_now(); /* first, so the probe's own work falls outside */
	struct tstate *t = tstate_self;
	struct shadow *s;
	struct frame *top;

	(void)call_site;
	if (unlikely(!t))
		return;
	if (unlikely(t->busy)) {
		tstate_drop_probe(t, false);
		return;
	}
	t->busy = 1;
	cp_barrier();
	s = &t->stack;
	top = &s->base[s->depth - 1];
	if (unlikely(top->fn != (uintptr_t)fn || t->dropped_depth)) {
		top = tstate_exit_mismatch(t, (uintptr_t)fn, now);
		if (!top)
			goto out;
	}
	frame_close(top, top - 1, now);
	s->depth--;
out:
	cp_barrier();
	t->busy = 0;
}
