/*
 * hijack_stack.h: the per-thread records of hijacked return addresses, as
 * data (each thread's state holds one: tstate.h).  What they mean and who
 * reads and writes them is the hijack module's (hijack.h).
 */
#ifndef CALLPROF_HIJACK_STACK_H
#define CALLPROF_HIJACK_STACK_H

#include <stdint.h>
#include <sys/mman.h>

/* One hijacked return: a call whose return address was swapped for the trampoline. */
struct hijack_rec {
	uintptr_t *slot; /* where its return address is: the stack word its caller's call wrote */
	uintptr_t orig;  /* the return address to go back to (the trampoline itself for a call
			    * reached by a tail jump from a hijacked one: its slot is shared) */
	uintptr_t fn;    /* the call's key in the probe core (probe.h's fn) */
	uintptr_t aux;   /* 0, or a word for the exit hook (hijack_set_exit_hook) */
};

struct hijack_stack {
	struct hijack_rec *base; /* mmap'ed on the thread's first hijack; NULL until then */
	uint32_t depth;          /* records in use, innermost last */
	uint32_t cap;            /* records mapped */
	uint32_t max_cap;        /* growth limit: past it calls are counted without a hijack */
	uintptr_t stack_lo;      /* the thread's own stack, [stack_lo, stack_hi): only returns */
	uintptr_t stack_hi;      /* on it (or on the alternate signal stack) are hijacked; 0 */
				 /* until the thread's first hijack finds it */
	uintptr_t unhooked_hi;   /* while the live slots hold their real return addresses
				  * (backtrace): stack_hi, which is stack_lo meanwhile, so
				  * nothing is hijacked or found dead; else 0 */
};

/* Frees the records' memory (their thread or context is gone): the stack is empty after. */
static inline void hijack_stack_release(struct hijack_stack *h)
{
	if (h->base)
		munmap(h->base, (size_t)h->cap * sizeof(*h->base));
	*h = (struct hijack_stack){ 0 };
}

#endif
