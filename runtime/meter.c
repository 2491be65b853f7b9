/* meter.c: the cold halves of metering the probes in the running program (meter.h);
 * general registers only, as the fast paths of the hijacking front-ends that call it. */
#include "meter.h"

#include "clock.h"
#include "stamp.h"

struct meter_sums meter_program[PROBE_KINDS];

/* Calls before the next metered one: uniform in [1, 2 * period - 1], so one
 * in `period` on average and never in step with a pattern of the program's. */
static uint32_t next_left(struct tstate *t)
{
	return t->meter_period <= 1
		       ? 1
		       : 1 + stamp_random_below(&t->meter_random, 2 * t->meter_period - 1);
}

void meter_arm(struct tstate *t, struct meter_sums *sink, uint32_t period)
{
	if ((clock_source != CLOCK_SRC_TSC && clock_source != CLOCK_SRC_TSC_SAMPLED) || !period)
		return;
	t->meter_sink = sink;
	t->meter_period = period;
	t->meter_at = 0;
	t->meter_left = next_left(t);
}

void meter_enter_abandoned(struct tstate *t)
{
	/* Unarmed (meter_arm never ran): the count wrapped, and starts over. */
	t->meter_left = t->meter_sink ? next_left(t) : 0;
}

void meter_entered(struct tstate *t, enum probe_kind kind)
{
	const struct frame *f = &t->stack.base[t->stack.depth - 1];

	if (!t->meter_sink) {
		t->meter_left = 0;
		return;
	}
	t->meter_t1 = f->t_enter_ticks;
	if (!t->meter_t1) { /* untimed (sampled timing): no timestamp to split at */
		meter_enter_abandoned(t);
		return;
	}
	t->meter_enter_out = frame_enter_ticks(f) - t->meter_e0;
	t->meter_enter_in = t->meter_e2 - frame_enter_ticks(f);
	t->meter_kind = kind;
	t->meter_at = t->stack.depth;
	t->meter_left = next_left(t);
}

static void add(uint64_t *sum, uint64_t x)
{
	__atomic_add_fetch(sum, x, __ATOMIC_RELAXED);
}

/*
 * The weight of the metered call at frame `f`, in METER_WEIGHT_ONE units:
 * one, except under sampled timing, where a lent call's probes stand in the
 * estimates for as many calls as its caller makes per own-timed one (the
 * dump scales its caller's self time, and its count of lent calls, so:
 * snapshot.c).  Unweighted, the lent calls of a few long own-timed
 * activations (main's, an interpreter loop's), each standing for itself,
 * would count as much as those of the hot callers that stand for 64 each.
 */
static uint64_t weight(const struct frame *f)
{
	const struct cct_node *p = f->node ? f->node->parent : NULL;
	uint64_t timed = p ? cct_timed_calls(p) : 0;

	if (!frames_sampled || !timed || p->calls < timed)
		return METER_WEIGHT_ONE;
	return p->calls * METER_WEIGHT_ONE / timed;
}

void meter_exited(struct tstate *t, const struct frame *f, uint64_t now, uint64_t x2)
{
	uint64_t part[METER_PARTS], w;
	struct meter_sums *sink = t->meter_sink ? &t->meter_sink[t->meter_kind] : NULL;

	t->meter_at = 0;
	/* Another call at the metered one's depth: the metered one left otherwise. */
	if (f->t_enter_ticks != t->meter_t1 || !sink)
		return;
	part[METER_ENTER_OUT] = t->meter_enter_out;
	part[METER_ENTER_IN] = t->meter_enter_in;
	part[METER_EXIT_IN] = now - t->meter_x0;
	part[METER_EXIT_OUT] = x2 - now;
	/* An interrupt, or reads out of order (a part below 0 wraps): no sample. */
	for (unsigned i = 0; i < METER_PARTS; i++)
		if (part[i] > METER_CAP_TICKS) {
			add(&sink->discarded, 1);
			return;
		}
	w = weight(f);
	for (unsigned i = 0; i < METER_PARTS; i++)
		add(&sink->ticks[i], w * part[i]);
	add(&sink->samples, 1);
	add(&sink->weight, w);
}
