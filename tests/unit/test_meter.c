/* test_meter.c: unit tests of metering the probes in the running program (meter.h). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "meter.h"
#include "stamp.h"
#include "unit.h"

/* A thread state with `depth` frames in use, metered one call in `period` into
 * `sink` (one meter_sums per kind of call). */
static struct tstate *state(struct frame *frames, uint32_t depth, struct meter_sums *sink,
			    uint32_t period)
{
	struct tstate *t = calloc(1, sizeof(*t));

	CHECK(t != NULL);
	clock_source = CLOCK_SRC_TSC;
	t->stack.base = frames;
	t->stack.depth = depth;
	meter_arm(t, sink, period);
	return t;
}

/* The enter of a metered call of kind `kind` as the probes make it, on top of
 * `t`'s stack: entered at `e0`, its entry timestamp `t1`, the enter probe
 * done at `e2`.  Returns its frame. */
static struct frame *metered_enter(struct tstate *t, uint64_t e0, uint64_t t1, uint64_t e2,
				   enum probe_kind kind)
{
	struct frame *f = &t->stack.base[t->stack.depth];

	t->meter_e0 = e0;
	f->t_enter_ticks = t1;
	t->stack.depth++;
	t->meter_e2 = e2;
	meter_entered(t, kind);
	return f;
}

/* The exit of the call at frame `f`, the top of `t`'s stack: the exit probe
 * begun at `x0`, its exit timestamp `now`, done at `x2`. */
static void metered_exit(struct tstate *t, struct frame *f, uint64_t x0, uint64_t now, uint64_t x2)
{
	t->meter_x0 = x0;
	t->stack.depth--;
	meter_exited(t, f, now, x2);
	CHECK_EQ_U64(t->meter_at, 0);
}

/* One metered call of the -pg -mfentry front-end, both probes (above). */
static void metered_call(struct tstate *t, uint64_t e0, uint64_t t1, uint64_t e2, uint64_t x0,
			 uint64_t now, uint64_t x2)
{
	struct frame *f = metered_enter(t, e0, t1, e2, PROBE_FENTRY);

	CHECK_EQ_U64(t->meter_at, t->stack.depth);
	metered_exit(t, f, x0, now, x2);
}

/* Each part of a metered call lands where meter.h says, before and after each
 * timestamp, in its kind's sums (here the -pg -mfentry front-end's), and nowhere else. */
void test_meter_parts(void)
{
	struct frame frames[4] = { { 0 } };
	struct meter_sums sinks[PROBE_KINDS] = { { 0 } }, *sink = &sinks[PROBE_FENTRY];
	struct tstate *t = state(frames, 1, sinks, 1);

	metered_call(t, 100, 110, 125, 200, 205, 230);
	metered_call(t, 300, 302, 303, 400, 410, 411);
	CHECK_EQ_U64(sink->samples, 2);
	CHECK_EQ_U64(sink->discarded, 0);
	CHECK_EQ_U64(sink->weight, 2 * METER_WEIGHT_ONE); /* every call timed: each counts once */
	CHECK_EQ_U64(sink->ticks[METER_ENTER_OUT], (10 + 2) * METER_WEIGHT_ONE);
	CHECK_EQ_U64(sink->ticks[METER_ENTER_IN], (15 + 1) * METER_WEIGHT_ONE);
	CHECK_EQ_U64(sink->ticks[METER_EXIT_IN], (5 + 10) * METER_WEIGHT_ONE);
	CHECK_EQ_U64(sink->ticks[METER_EXIT_OUT], (25 + 1) * METER_WEIGHT_ONE);
	CHECK(meter_part_mean(sink, METER_ENTER_OUT) == 6.0);
	CHECK(meter_mean(sink, METER_ENTER_IN, METER_EXIT_IN) == 15.5);
	CHECK_EQ_U64(sinks[PROBE_PLAIN].samples + sinks[PROBE_LIBRARY].samples, 0);
	free(t);
}

/* A metered call's enter parts are taken at its entry: the first reads of the
 * calls it makes before it returns (under sampled timing, every lent call's)
 * change nothing of its sample. */
void test_meter_nested_reads(void)
{
	struct frame frames[4] = { { 0 } };
	struct meter_sums sinks[PROBE_KINDS] = { { 0 } }, *sink = &sinks[PROBE_FENTRY];
	struct tstate *t = state(frames, 1, sinks, 1);
	struct frame *f = metered_enter(t, 100, 110, 125, PROBE_FENTRY);

	t->meter_e0 = 150; /* a callee's reads */
	t->meter_e2 = 160;
	metered_exit(t, f, 200, 205, 230);
	CHECK_EQ_U64(sink->samples, 1);
	CHECK_EQ_U64(sink->ticks[METER_ENTER_OUT], 10 * METER_WEIGHT_ONE);
	CHECK_EQ_U64(sink->ticks[METER_ENTER_IN], 15 * METER_WEIGHT_ONE);
	free(t);
}

/* A part no probe takes so long (an interrupt), or reads out of order, gives no sample. */
void test_meter_discards(void)
{
	struct frame frames[4] = { { 0 } };
	struct meter_sums sinks[PROBE_KINDS] = { { 0 } }, *sink = &sinks[PROBE_FENTRY];
	struct tstate *t = state(frames, 1, sinks, 1);

	metered_call(t, 100, 110, 120, 200, 200 + METER_CAP_TICKS + 1, 20000);
	metered_call(t, 100, 90, 120, 200, 205, 210); /* its entry read before the meter's */
	CHECK_EQ_U64(sink->samples, 0);
	CHECK_EQ_U64(sink->discarded, 2);
	for (unsigned i = 0; i < METER_PARTS; i++)
		CHECK_EQ_U64(sink->ticks[i], 0);
	free(t);
}

/* An exit at the metered call's depth that is not its own (the metered one left by a
 * longjmp, a new call since) gives no sample and ends the metering of that call. */
void test_meter_other_exit(void)
{
	struct frame frames[4] = { { 0 } };
	struct meter_sums sinks[PROBE_KINDS] = { { 0 } }, *sink = &sinks[PROBE_FENTRY];
	struct tstate *t = state(frames, 1, sinks, 1);

	metered_enter(t, 100, 110, 120, PROBE_FENTRY);
	frames[1].t_enter_ticks = 500; /* another call in its place */
	metered_exit(t, &frames[1], 600, 610, 620);
	CHECK_EQ_U64(sink->samples + sink->discarded, 0);
	free(t);
}

/* The calls between metered ones are uniform in [1, 2 * period - 1]: one in `period`. */
void test_meter_period(void)
{
	struct frame frames[4] = { { 0 } };
	struct meter_sums sinks[PROBE_KINDS] = { { 0 } };
	struct tstate *t;
	uint64_t sum = 0, n = 20000;
	uint32_t lo = UINT32_MAX, hi = 0;

	t = state(frames, 1, sinks, 16);
	t->meter_random = 0x9e3779b97f4a7c15ull; /* a fixed stream: the same draws every run */
	for (uint64_t i = 0; i < n; i++) {
		metered_call(t, 100, 110, 120, 200, 205, 210);
		lo = t->meter_left < lo ? t->meter_left : lo;
		hi = t->meter_left > hi ? t->meter_left : hi;
		sum += t->meter_left;
	}
	CHECK_EQ_U64(lo, 1);
	CHECK_EQ_U64(hi, 31);
	CHECK((double)sum / (double)n > 15.8 && (double)sum / (double)n < 16.2);
	free(t);
}

/* Not armed (another clock, or CALLPROF_METER=0): no sink, and a count that wrapped starts over. */
void test_meter_unarmed(void)
{
	struct frame frames[4] = { { 0 } };
	struct meter_sums sinks[PROBE_KINDS] = { { 0 } };
	struct tstate *t = state(frames, 1, sinks, 0);

	CHECK(t->meter_sink == NULL);
	clock_source = CLOCK_SRC_TSC_ORDERED;
	meter_arm(t, sinks, 16);
	CHECK(t->meter_sink == NULL);
	t->stack.depth = 2;
	meter_entered(t, PROBE_PLAIN);
	CHECK_EQ_U64(t->meter_left, 0);
	CHECK_EQ_U64(t->meter_at, 0);
	free(t);
}

/* What the program's probes cost beyond the loop's: the difference of the means, inside
 * and outside; nothing from fewer than METER_MIN_SAMPLES samples on either side. */
void test_meter_extra(void)
{
	struct meter_sums prog = { .samples = 100, .weight = 100, .ticks = { 300, 200, 100, 400 } };
	struct meter_sums loop = { .samples = 80, .weight = 80, .ticks = { 160, 160, 80, 240 } };
	double in = -1, out = -1;

	CHECK(meter_extra(&prog, &loop, &in, &out));
	CHECK(in == 0.0);  /* (200 + 100) / 100 - (160 + 80) / 80 */
	CHECK(out == 2.0); /* (300 + 400) / 100 - (160 + 240) / 80 */
	loop.samples = METER_MIN_SAMPLES - 1;
	in = out = -1;
	CHECK(!meter_extra(&prog, &loop, &in, &out));
	CHECK(in == -1 && out == -1);
}

/* Sampled timing: the first read is taken, before anything else of the
 * probe's, for a call whose caller is own-timed and will lend it (stamp.h:
 * its first callees, one in R later, every one under a calibration loop), and
 * for no other; the countdown comes after the probe's own timestamp, and a
 * call it comes to with no first read leaves it to the next one that has. */
void test_meter_sampled(void)
{
	struct cct_node caller = { 0 };
	struct frame frames[4] = { { 0 } };
	struct meter_sums sinks[PROBE_KINDS] = { { 0 } };
	struct tstate *t = state(frames, 1, sinks, 1);

	clock_source = CLOCK_SRC_TSC_SAMPLED;
	frames_sampled = true;
	meter_arm(t, sinks, 1);
	CHECK(t->meter_sink == sinks);
	frames[0].node = &caller;
	frames[0].t_enter_ticks = 1000; /* untimed: lends nothing */
	t->meter_e0 = 7;
	CHECK(!meter_enter_begin(t, &frames[0]));
	CHECK_EQ_U64(t->meter_e0, 7);
	frames[0].t_enter_ticks = 1000 | FRAME_OWN_TIMED;
	caller.act_lent = CCT_LENT_CALLS - 1; /* its first callees: lent */
	CHECK(meter_enter_begin(t, &frames[0]));
	caller.act_lent = CCT_LENT_CALLS;
	caller.lend_left = 3; /* later ones: one in R, not this one */
	CHECK(!meter_enter_begin(t, &frames[0]));
	caller.lend_left = 0;
	CHECK(meter_enter_begin(t, &frames[0]));
	caller.lend_left = 3;
	caller.timing = CCT_TIME_ALWAYS; /* a calibration loop: every call */
	CHECK(meter_enter_begin(t, &frames[0]));
	/* Due with no first read: the next call is due, and gives the sample if read. */
	t->meter_left = 1;
	t->stack.depth = 2;
	frames[1].t_enter_ticks = 0;
	meter_enter_end(t, false, PROBE_PLAIN);
	CHECK_EQ_U64(t->meter_left, 1);
	CHECK_EQ_U64(t->meter_at, 0);
	frames[1].t_enter_ticks = 500 | FRAME_LENT;
	t->meter_e0 = 490;
	meter_enter_end(t, true, PROBE_PLAIN);
	CHECK_EQ_U64(t->meter_at, 2);
	CHECK_EQ_U64(t->meter_enter_out, 10);
	/* A read call the countdown does not come to is not metered. */
	t->meter_at = 0;
	t->meter_left = 5;
	meter_enter_end(t, true, PROBE_PLAIN);
	CHECK_EQ_U64(t->meter_left, 4);
	CHECK_EQ_U64(t->meter_at, 0);
	/* A fast path that gives up after a read counted nothing down: nothing to undo. */
	meter_enter_off(t, true);
	CHECK_EQ_U64(t->meter_left, 4);
	/* An untimed call metered (no timestamp to split at): no sample, a new countdown. */
	t->stack.depth = 1;
	metered_enter(t, 100, 0, 120, PROBE_PLAIN);
	CHECK_EQ_U64(t->meter_at, 0);
	CHECK_EQ_U64(t->meter_left, 1);
	CHECK_EQ_U64(sinks[PROBE_PLAIN].samples + sinks[PROBE_PLAIN].discarded, 0);
	frames_sampled = false;
	clock_source = CLOCK_SRC_TSC;
	free(t);
}

/* Sampled timing: a sample weighs as many calls as its caller makes per
 * own-timed one (the scale of its caller's self time in the dump); a call
 * with no caller node, or one whose caller has no timed call yet, once. */
void test_meter_weight(void)
{
	struct cct_node caller = { 0 }, callee = { 0 };
	struct frame frames[4] = { { 0 } };
	struct meter_sums sinks[PROBE_KINDS] = { { 0 } }, *sink = &sinks[PROBE_PLAIN];
	struct tstate *t = state(frames, 1, sinks, 1);

	clock_source = CLOCK_SRC_TSC_SAMPLED;
	frames_sampled = true;
	meter_arm(t, sinks, 1);
	callee.parent = &caller;
	caller.calls = 640;
	caller.first_left = 0; /* its 64 first calls timed, and 16 later ones: 640 / 80 */
	caller.sample_calls = 16;
	frames[1].node = &callee;
	metered_exit(t, metered_enter(t, 100, 110 | FRAME_LENT, 120, PROBE_PLAIN), 200, 210, 230);
	CHECK_EQ_U64(sink->weight, 8 * METER_WEIGHT_ONE);
	CHECK_EQ_U64(sink->ticks[METER_EXIT_OUT], 20 * 8 * METER_WEIGHT_ONE);
	frames[1].node = NULL;
	metered_exit(t, metered_enter(t, 300, 310 | FRAME_LENT, 320, PROBE_PLAIN), 400, 410, 420);
	CHECK_EQ_U64(sink->samples, 2);
	CHECK_EQ_U64(sink->weight, 9 * METER_WEIGHT_ONE);
	CHECK(meter_part_mean(sink, METER_EXIT_OUT) == (20.0 * 8 + 10) / 9);
	frames_sampled = false;
	clock_source = CLOCK_SRC_TSC;
	free(t);
}
