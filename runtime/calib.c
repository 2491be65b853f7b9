/* calib.c: measuring the probes' own cost at start-up, and subtracting it at dump time. */
#include "calib.h"

#include "cct.h"
#include "clock.h"
#include "tstate.h"

#define CALIB_ROUNDS 15
#define CALIB_CALLS 2000

struct calib calib;

/* The uninstrumented twin of calib_leaf; the asm keeps the call from being elided. */
__attribute__((noinline)) static uint64_t calib_leaf_plain(uint64_t x)
{
	__asm__ __volatile__("" : "+r"(x));
	return x + 1;
}

uint64_t calib_loop_plain(uint32_t n, uint64_t x)
{
	for (uint32_t i = 0; i < n; i++)
		x = calib_leaf_plain(x);
	return x;
}

/* Where the loops leave their results, so no work can be dropped. */
static volatile uint64_t calib_sink;

/* One round's measurements on the private state `t`, in ticks. */
struct round {
	double plain;    /* the uninstrumented loop */
	double probed;   /* the instrumented loop */
	double leaf;     /* the leaf's own measured time, summed over its calls */
};

/* Runs one round; returns false if the tree is not the expected shape. */
static bool calib_round(struct tstate *t, struct round *r)
{
	struct cct_node *loop, *leaf;
	uint64_t t0, t1, t2;

	cct_clear_counts(&t->tree);
	t0 = clock_now_enter();
	calib_sink = calib_loop_plain(CALIB_CALLS, t0);
	t1 = clock_now_enter();
	calib_sink = calib_loop(CALIB_CALLS, t1);
	t2 = clock_now_enter();
	loop = t->tree.root.first_child;
	leaf = loop ? loop->first_child : NULL;
	if (!leaf || leaf->calls != CALIB_CALLS || loop->calls != 1)
		return false;
	r->plain = (double)(t1 - t0);
	r->probed = (double)(t2 - t1);
	r->leaf = (double)leaf->incl_ticks;
	return true;
}

static double min_double(double a, double b)
{
	return a < b ? a : b;
}

/*
 * Interference (preemption, another process's cache traffic) only ever adds
 * time, so each quantity keeps its minimum over the rounds:
 *   o_in  = the leaf's measured time per call;
 *   o     = (instrumented loop - plain loop) per call;  o_out = o - o_in.
 * Returns the number of good rounds (0: no figures).
 */
static uint32_t measure(double *o_in_ticks, double *o_out_ticks)
{
	struct round best = { 1e300, 1e300, 1e300 }, r;
	struct tstate *saved = tstate_self;
	struct tstate *t = tstate_create();
	uint32_t n = 0;

	if (!t)
		return 0;
	tstate_self = t;
	calib_sink = calib_loop(CALIB_CALLS, 0); /* warm the caches and the tree */
	for (uint32_t i = 0; i < CALIB_ROUNDS; i++) {
		if (!calib_round(t, &r))
			continue;
		best.plain = min_double(best.plain, r.plain);
		best.probed = min_double(best.probed, r.probed);
		best.leaf = min_double(best.leaf, r.leaf);
		n++;
	}
	tstate_self = saved;
	tstate_destroy(t);
	if (n) {
		*o_in_ticks = best.leaf / CALIB_CALLS;
		*o_out_ticks = (best.probed - best.plain) / CALIB_CALLS - *o_in_ticks;
		if (*o_out_ticks < 0)
			*o_out_ticks = 0;
	}
	return n;
}

void calib_run(void)
{
	uint64_t start_ns = clock_mono_ns();

	if (clock_source == CLOCK_SRC_NONE)
		return;
	calib.rounds = measure(&calib.start_o_in_ticks, &calib.start_o_out_ticks);
	calib.calls_per_round = CALIB_CALLS;
	calib.cost_ns = clock_mono_ns() - start_ns;
	calib.o_in_ticks = calib.start_o_in_ticks;
	calib.o_out_ticks = calib.start_o_out_ticks;
	calib.done = calib.rounds > 0;
}

void calib_again(void)
{
	double in, out;

	if (!calib.done || !measure(&in, &out))
		return;
	/* The machine may run the probes faster or slower now than at start-up
	 * (clock frequency, the other core's load): the run sits in between. */
	calib.end_o_in_ticks = in;
	calib.end_o_out_ticks = out;
	calib.o_in_ticks = (calib.start_o_in_ticks + in) / 2;
	calib.o_out_ticks = (calib.start_o_out_ticks + out) / 2;
	calib.again = true;
}
