/* shadow.c: the cold half of the shadow stack: mapping, growth, resynchronisation. */
#include "shadow.h"

#include <signal.h>
#include <stddef.h>
#include <string.h>
#include <sys/mman.h>

#include "clock.h"

bool frames_sampled;
uint32_t frames_sample_rate = 1;
uint64_t frames_heavy_ticks = UINT64_MAX;

uint32_t shadow_recorded_below(const struct shadow *s, uint32_t index)
{
	while (index > 0 && frame_is_transparent(&s->base[index]))
		index--;
	return index;
}

struct cct_node *shadow_charge_node(const struct shadow *s, uint32_t index)
{
	const struct fold_frame *e;

	index = shadow_recorded_below(s, index);
	if (frame_is_folded(&s->base[index]) && (e = fold_frame_at(&s->fold, index)) && e->nested)
		return e->charge;
	return s->base[index].node;
}

/*
 * A folded frame closes (fold.h): a timed one's duration is its node's and
 * its charge's child time; a nested one's own work is its node's time, as
 * nested, and its charge's child time.  Either is its caller's callee.
 * Where its probes ran is counted for compensation (compensate.h): its o_out
 * in its caller's self time (and in a nested caller's inclusive time, its
 * own work); its whole cost, and a timed one's callees' whole cost, in its
 * charge's inclusive time, outside the charge's children.
 */
static void close_folded(struct shadow *s, uint32_t index, uint64_t now_ticks)
{
	const struct frame *f = &s->base[index];
	struct fold_frame e, *caller;
	struct cct_node *n = f->node, *caller_node;
	uint64_t d = now_ticks - f->t_enter_ticks, own;
	uint32_t below;

	if (!fold_leave(&s->fold, index, frame_fn(f), &e))
		return;
	below = shadow_recorded_below(s, index - 1);
	caller = fold_top(&s->fold);
	if (caller && caller->index != below)
		caller = NULL;
	caller_node = s->base[below].node;
	caller_node->fold_child_calls++;
	if (caller && caller->nested)
		caller_node->fold_nested_out++;
	e.charge->fold_inner_calls += e.nested ? 1 : s->fold.closed - e.closed_before;
	own = e.nested ? (d > e.child_ticks ? d - e.child_ticks : 0) : d;
	n->incl_ticks += own;
	if (e.nested) {
		n->nested_ticks += own;
	} else {
		if (d < n->min_ticks)
			n->min_ticks = d;
		if (d > n->max_ticks)
			n->max_ticks = d;
	}
	if (frames_sampled) /* its charge's self time is an estimate: this is taken off whole */
		e.charge->fold_child_ticks += own;
	else
		e.charge->child_ticks += own;
	if (caller)
		caller->child_ticks += d;
}

void shadow_close_frame(struct shadow *s, uint32_t index, uint64_t now_ticks)
{
	const struct frame *f = &s->base[index];

	if (now_ticks < frame_enter_ticks(f)) /* never before its entry (clock_stop) */
		now_ticks = frame_enter_ticks(f);
	if (frame_is_folded(f))
		close_folded(s, index, now_ticks);
	else if (!frame_is_marked(f))
		frame_close_any(f, f - 1, now_ticks);
	if (s->cpu_frame >= index && s->cpu_frame)
		shadow_cpu_close(s, index);
}

/* Takes off the entries of frames at or above `index`, and says which is innermost now. */
static void cpu_drop_from(struct shadow *s, uint32_t index)
{
	while (s->cpu_depth && s->cpu[s->cpu_depth - 1].frame >= index)
		s->cpu_depth--;
	s->cpu_frame = s->cpu_depth ? s->cpu[s->cpu_depth - 1].frame : 0;
}

void shadow_cpu_open(struct shadow *s, uint32_t index)
{
	struct shadow_cpu *e;
	uint64_t cpu_ns;

	cpu_drop_from(s, index);
	if (s->cpu_depth == SHADOW_CPU_OPEN || !(cpu_ns = cputime_self_ns()))
		return;
	e = &s->cpu[s->cpu_depth];
	e->frame = index;
	e->cpu_ns = cpu_ns;
	e->ticks = clock_now();
	s->cpu_depth++;
	s->cpu_frame = index;
}

void shadow_cpu_close(struct shadow *s, uint32_t index)
{
	const struct shadow_cpu *e;
	struct cct_node *n = s->base[index].node;
	uint64_t ticks, cpu_ns, wall;

	cpu_drop_from(s, index + 1); /* left by frames dropped without a close */
	if (s->cpu_frame != index)
		return;
	e = &s->cpu[s->cpu_depth - 1];
	ticks = clock_now();
	cpu_ns = cputime_self_ns();
	wall = ticks > e->ticks ? ticks - e->ticks : 0;
	if (cpu_ns >= e->cpu_ns && !frame_is_marked(&s->base[index])) {
		n->cpu_calls++;
		n->cpu_ns += cpu_ns - e->cpu_ns;
		n->cpu_wall_ticks += wall;
		if (!(n->cpu & CCT_CPU_NEVER))
			n->cpu = wall >= cputime_long_ticks ? CCT_CPU_READ : CCT_CPU_SKIP;
	}
	cpu_drop_from(s, index);
}

void shadow_cpu_restart(struct shadow *s)
{
	uint64_t cpu_ns = cputime_self_ns(), ticks = clock_now();

	cpu_drop_from(s, s->depth);
	for (uint32_t i = 0; i < s->cpu_depth; i++) {
		s->cpu[i].cpu_ns = cpu_ns;
		s->cpu[i].ticks = ticks;
	}
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
	s->cpu_depth = s->cpu_frame = 0;
	s->base[0].fn = 0;
	s->base[0].node = root;
	s->base[0].t_enter_ticks = 0;
	s->base[0].sp = UINTPTR_MAX;
	fold_init(&s->fold);
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
		shadow_close_frame(s, s->depth, now_ticks);
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

uint32_t shadow_find(const struct shadow *s, uintptr_t fn)
{
	for (uint32_t i = s->depth - 1; i > 0; i--)
		if (frame_fn(&s->base[i]) == fn)
			return i;
	return 0;
}

void shadow_park(struct shadow *s)
{
	uint32_t k = 0;

	for (uint32_t i = frames_sampled ? s->depth : 1; i-- > 1 && k < SHADOW_PARKED;) {
		const struct frame *f = &s->base[i];

		if (f->t_enter_ticks & FRAME_OWN_TIMED)
			s->park[k++] = (struct shadow_parked){ i, f->node->act_lent,
							       f->node->act_child_ticks };
	}
	s->parked = k;
}

/* Outermost first: a transparent frame parks its caller's node again, with
 * the same sums. */
void shadow_unpark(struct shadow *s)
{
	for (uint32_t k = s->parked; k-- > 0;) {
		struct cct_node *n = s->base[s->park[k].frame].node;

		n->act_lent = s->park[k].lent;
		n->act_child_ticks = s->park[k].child_ticks;
	}
	s->parked = 0;
}

void shadow_park_restart(struct shadow *s)
{
	uint32_t kept = 0;

	for (uint32_t k = 0; k < s->parked; k++)
		if (s->park[k].frame < s->depth)
			s->park[kept++] = (struct shadow_parked){ s->park[k].frame, 0, 0 };
	s->parked = kept;
}

uint64_t shadow_parked_child_ticks(const struct shadow *s, uint32_t index)
{
	for (uint32_t k = 0; k < s->parked && k < SHADOW_PARKED; k++)
		if (s->park[k].frame == index)
			return s->park[k].child_ticks;
	return 0;
}

void shadow_release(struct shadow *s)
{
	if (s->base)
		munmap(s->base, (size_t)s->cap * sizeof(struct frame));
	fold_release(&s->fold);
	s->base = NULL;
	s->depth = s->cap = 0;
}
