/*
 * hooks.c: the hot path, alone: the two probes GCC and Clang call from every
 * function built with -finstrument-functions.  No lock, no malloc, no system
 * call here.  The fast path is a leaf: every rare case (first probe of a
 * thread, a probe inside a probe, dead frames, a full stack, a new call path,
 * a mismatched exit) is a tail call into tstate.c, so the compiler keeps no
 * registers across calls.
 */
#include <stdint.h>

#include "adapt.h"
#include "cct.h"
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
	struct cct_node *parent, *node;

	if (unlikely(!t || t->busy)) {
		tstate_enter_unready(t, (uintptr_t)fn, (uintptr_t)call_site, sp);
		return;
	}
	t->busy = 1;
	cp_barrier();
	s = &t->stack;
	top = &s->base[s->depth - 1];
	parent = top->node;
	if (unlikely(top->sp < sp || s->depth == s->cap || t->dropped_depth))
		goto slow;
	node = cct_child_find(&t->tree, parent, (uintptr_t)fn);
	if (likely(node != NULL))
		goto found;
slow:
	tstate_enter_general(t, (uintptr_t)fn, (uintptr_t)call_site, sp);
	return;
found:
	node->calls++;
	top[1].fn = (uintptr_t)fn;
	top[1].node = node;
	top[1].sp = sp;
	s->depth++;
	adapt_stamp_enter(&top[1], node); /* last, so the probe's own work falls outside */
	cp_barrier();
	t->busy = 0;
}

void __cyg_profile_func_exit(void *fn, void *call_site)
{
	/* First, so the probe's own work falls outside; tsc-adaptive reads below. */
	uint64_t now = clock_now_exit();
	struct tstate *t = tstate_self;
	struct shadow *s;
	struct frame *top;
	enum clock_source src;

	(void)call_site;
	if (unlikely(!t || t->busy))
		return; /* no state yet, or inside another probe: its enter was dropped too */
	t->busy = 1;
	cp_barrier();
	s = &t->stack;
	top = &s->base[s->depth - 1];
	if (unlikely(top->fn != (uintptr_t)fn || t->dropped_depth)) {
		if (clock_source == CLOCK_SRC_TSC_ADAPTIVE) /* it has not read the clock yet */
			now = clock_now();
		tstate_exit_general(t, (uintptr_t)fn, now);
		return;
	}
	src = clock_source;
	if (likely(src == CLOCK_SRC_TSC)) {
		frame_close(top, top - 1, now);
	} else if (src == CLOCK_SRC_NONE) {
		; /* without a clock only the counts matter */
	} else if (src == CLOCK_SRC_TSC_ADAPTIVE && !(top->sp & FRAME_FENCED)) {
		frame_close(top, top - 1, clock_tsc_read()); /* a plain node's: see adapt.h */
	} else {
		adapt_exit_close(t, top, now);
		return;
	}
	s->depth--;
	cp_barrier();
	t->busy = 0;
}
