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

/* One metered call as the probes make it: entered at `e0`, its entry timestamp
 * `t1`, the enter probe done at `e2`; the exit probe begun at `x0`, its exit
 * timestamp `now`, done at `x2`. */
static void metered_call(struct tstate *t, uint64_t e0, uint64_t t1, uint64_t e2, uint64_t x0,
			 uint64_t now, uint64_t x2)
{
	struct frame *f = &t->stack.base[t->stack.depth];

	t->meter_e0 = e0;
	f->t_enter_ticks = t1;
	t->stack.depth++;
	t->meter_e2 = e2;
	meter_entered(t, PROBE_FENTRY);
	CHECK_EQ_U64(t->meter_at, t->stack.depth);
	t->meter_x0 = x0;
	t->stack.depth--;
	meter_exited(t, f, now, x2);
	CHECK_EQ_U64(t->meter_at, 0);
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
	CHECK_EQ_U64(sink->ticks[METER_ENTER_OUT], 10 + 2);
	CHECK_EQ_U64(sink->ticks[METER_ENTER_IN], 15 + 1);
	CHECK_EQ_U64(sink->ticks[METER_EXIT_IN], 5 + 10);
	CHECK_EQ_U64(sink->ticks[METER_EXIT_OUT], 25 + 1);
	CHECK_EQ_U64(sinks[PROBE_PLAIN].samples + sinks[PROBE_LIBRARY].samples, 0);
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

	t->meter_e0 = 100;
	frames[1].t_enter_ticks = 110;
	t->stack.depth = 2;
	t->meter_e2 = 120;
	meter_entered(t, PROBE_FENTRY);
	frames[1].t_enter_ticks = 500; /* another call in its place */
	t->meter_x0 = 600;
	t->stack.depth = 1;
	meter_exited(t, &frames[1], 610, 620);
	CHECK_EQ_U64(t->meter_at, 0);
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
	struct meter_sums prog = { .samples = 100, .ticks = { 300, 200, 100, 400 } };
	struct meter_sums loop = { .samples = 80, .ticks = { 160, 160, 80, 240 } };
	double in = -1, out = -1;

	CHECK(meter_extra(&prog, &loop, &in, &out));
	CHECK(in == 0.0);  /* (200 + 100) / 100 - (160 + 80) / 80 */
	CHECK(out == 2.0); /* (300 + 400) / 100 - (160 + 240) / 80 */
	loop.samples = METER_MIN_SAMPLES - 1;
	in = out = -1;
	CHECK(!meter_extra(&prog, &loop, &in, &out));
	CHECK(in == -1 && out == -1);
}

/* Sampled timing: an untimed metered call (entry time 0) gives no sample and
 * starts a new countdown; a timed one's parts are taken at its times with its
 * timing marks off (stamp.h). */
void test_meter_sampled(void)
{
	struct frame frames[4] = { { 0 } };
	struct meter_sums sinks[PROBE_KINDS] = { { 0 } }, *sink = &sinks[PROBE_FENTRY];
	struct tstate *t = state(frames, 1, sinks, 1);

	clock_source = CLOCK_SRC_TSC_SAMPLED;
	meter_arm(t, sinks, 1);
	CHECK(t->meter_sink == sinks);
	t->meter_e0 = 100;
	frames[1].t_enter_ticks = 0;
	t->stack.depth = 2;
	t->meter_e2 = 120;
	meter_entered(t, PROBE_FENTRY);
	CHECK_EQ_U64(t->meter_at, 0);
	CHECK_EQ_U64(t->meter_left, 1);
	t->stack.depth = 1;
	metered_call(t, 100, 110 | FRAME_OWN_TIMED | FRAME_FIRST, 125, 200, 205, 230);
	metered_call(t, 300, 302 | FRAME_LENT_ONE_IN_R, 303, 400, 410, 411);
	CHECK_EQ_U64(sink->samples, 2);
	CHECK_EQ_U64(sink->discarded, 0);
	CHECK_EQ_U64(sink->ticks[METER_ENTER_OUT], 10 + 2);
	CHECK_EQ_U64(sink->ticks[METER_ENTER_IN], 15 + 1);
	CHECK_EQ_U64(sink->ticks[METER_EXIT_IN], 5 + 10);
	CHECK_EQ_U64(sink->ticks[METER_EXIT_OUT], 25 + 1);
	clock_source = CLOCK_SRC_TSC;
	free(t);
}
