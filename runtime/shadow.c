/* shadow.c: the cold half of the shadow stack: mapping, growth, resynchronisation. */
#include "shadow.h"

#include <signal.h>
#include <stddef.h>
#include <string.h>
#include <sys/mman.h>

#include "clock.h"

void frame_close_any(const struct frame *f, const struct frame *parent, uint64_t now_ticks)
{
	if (!frame_is_marked(f)) /* never before its entry (clock_stop) */
		frame_close(f, parent, now_ticks < f->t_enter_ticks ? f->t_enter_ticks : now_ticks);
}

int shadow_init(struct shadow *s, struct cct_node *root, uint32_t cap, uint32_t max_cap)
{
	void *p = mmap(NULL, (size_t)cap * sizeof(struct frame), PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return -1;
	s->base = p;
	s->cap = cap;
	s->max_cap = max_cap < cap ? cap : max_cap;
	s->depth = 1;
	s->base[0].fn = 0;
	s->base[0].node = root;
	s->base[0].t_enter_ticks = 0;
	s->base[0].sp = UINTPTR_MAX;
	return 0;
}

/*
 * The old stack stays mapped (and is leaked: at most the size of the new one):
 * a dump reading a running thread's stack must never touch unmapped memory.
 */
int shadow_grow(struct shadow *s)
{
	uint32_t cap = s->cap * 2 < s->max_cap ? s->cap * 2 : s->max_cap;
	void *p;

	if (cap <= s->cap)
		return -1;
	p = mmap(NULL, (size_t)cap * sizeof(struct frame), PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return -1;
	memcpy(p, s->base, (size_t)s->depth * sizeof(struct frame));
	__atomic_store_n(&s->base, (struct frame *)p, __ATOMIC_RELEASE);
	s->cap = cap;
	return 0;
}

uint32_t shadow_close_above(struct shadow *s, uint32_t keep, uint64_t now_ticks)
{
	uint32_t closed = 0;

	while (s->depth > keep + 1) {
		s->depth--;
		if (frame_is_transparent(&s->base[s->depth]))
			continue;
		frame_close_any(&s->base[s->depth], &s->base[s->depth - 1], now_ticks);
		closed++;
	}
	return closed;
}

/* True while this thread runs a signal handler on its alternate stack. */
static bool on_alt_stack(void)
{
	stack_t ss;

	return sigaltstack(NULL, &ss) == 0 && (ss.ss_flags & SS_ONSTACK);
}

uint32_t shadow_pop_dead(struct shadow *s, uintptr_t sp)
{
	uint32_t keep = s->depth - 1;

	/* A handler on an alternate stack probes from another region: addresses
	 * there say nothing about the frames of the interrupted code. */
	if (on_alt_stack())
		return 0;

	while (s->base[keep].sp < sp) /* the sentinel's sp stops the walk */
		keep--;
	return shadow_close_above(s, keep, clock_now());
}

uint32_t shadow_unwind_to(struct shadow *s, uintptr_t sp, uint64_t now_ticks)
{
	uint32_t keep = s->depth - 1;

	while (keep > 0 && s->base[keep].sp + SHADOW_PROBE_FRAME < sp)
		keep--;
	return shadow_close_above(s, keep, now_ticks);
}

bool shadow_has_open(const struct shadow *s, uintptr_t fn, uint32_t limit)
{
	for (uint32_t i = s->depth - 1; i > 0 && limit; i--, limit--)
		if (frame_fn(&s->base[i]) == fn)
			return true;
	return false;
}

uint32_t shadow_find(const struct shadow *s, uintptr_t fn)
{
	for (uint32_t i = s->depth - 1; i > 0; i--)
		if (frame_fn(&s->base[i]) == fn)
			return i;
	return 0;
}

void shadow_release(struct shadow *s)
{
	if (s->base)
		munmap(s->base, (size_t)s->cap * sizeof(struct frame));
	s->base = NULL;
	s->depth = s->cap = 0;
}
