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

/* The uninstrumented twin of calib_leaf_work. */
__attribute__((noinline)) static uint64_t calib_leaf_work_plain(uint64_t x)
{
	CALIB_WORK(x);
	return x;
}

uint64_t calib_loop_work_plain(uint32_t n, uint64_t x)
{
	for (uint32_t i = 0; i < n; i++)
		x = calib_leaf_work_plain(x);
	return x;
}

/* Where the loops leave their results, so no work can be dropped. */
static volatile uint64_t calib_sink;

/* What a measurement drives: an instrumented loop over a leaf, the same loop
 * over the leaf's uninstrumented twin, and, for a leaf that works, the twin
 * loop over an empty leaf, which leaves the work's own time as the difference. */
struct target {
	uint64_t (*probed)(uint32_t n, uint64_t x);
	uint64_t (*plain)(uint32_t n, uint64_t x);
	uint64_t (*empty)(uint32_t n, uint64_t x); /* NULL: the leaf is empty */
	uint32_t rounds, calls;                    /* rounds, and calls per loop */
};

static const struct target empty_leaf = { calib_loop, calib_loop_plain, NULL, CALIB_ROUNDS, CALIB_CALLS };
/* Fewer, shorter rounds: its calls cost about five times as much. */
static const struct target working_leaf = { calib_loop_work, calib_loop_work_plain, calib_loop_plain,
					    9, 1000 };

/* One round's measurements on the private state `t`, in ticks. */
struct round {
	double plain;    /* the uninstrumented loop */
	double empty;    /* the uninstrumented loop over an empty leaf (a working target) */
	double probed;   /* the instrumented loop */
	double leaf;     /* the leaf's own measured time, summed over its calls */
};

/* Runs one round; returns false if the tree is not the expected shape. */
static bool calib_round(struct tstate *t, const struct target *g, struct round *r)
{
	struct cct_node *loop, *leaf;
	uint64_t t0, t1, t2, t3;

	cct_clear_counts(&t->tree);
	t0 = clock_now_enter();
	calib_sink = g->empty ? g->empty(g->calls, t0) : t0;
	t1 = clock_now_enter();
	calib_sink = g->plain(g->calls, t1);
	t2 = clock_now_enter();
	calib_sink = g->probed(g->calls, t2);
	t3 = clock_now_enter();
	loop = t->tree.root.first_child;
	leaf = loop ? loop->first_child : NULL;
	if (!leaf || leaf->calls != g->calls || loop->calls != 1)
		return false;
	r->empty = (double)(t1 - t0);
	r->plain = (double)(t2 - t1);
	r->probed = (double)(t3 - t2);
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
 *   o_in  = the leaf's measured time per call, less its work's own time
 *           (plain loop - empty-leaf loop; none for an empty leaf);
 *   o     = (instrumented loop - plain loop) per call;  o_out = o - o_in.
 * `fence` is how the leaf's calls read the clock (CCT_FENCE_PLAIN or _FENCED).
 * Returns the number of good rounds (0: no figures).
 */
static uint32_t measure(const struct target *g, uint32_t fence, double *o_in_ticks,
			double *o_out_ticks)
{
	struct round best = { 1e300, 1e300, 1e300, 1e300 }, r;
	struct tstate *saved = tstate_self;
	struct tstate *t = tstate_create();
	uint32_t n = 0;

	if (!t)
		return 0;
	tstate_self = t;
	calib_sink = g->probed(g->calls, 0); /* warm the caches and the tree */
	if (t->tree.root.first_child && t->tree.root.first_child->first_child) {
		t->tree.root.first_child->fence = CCT_FENCE_PLAIN;
		t->tree.root.first_child->first_child->fence = fence;
	}
	for (uint32_t i = 0; i < g->rounds; i++) {
		if (!calib_round(t, g, &r))
			continue;
		best.plain = min_double(best.plain, r.plain);
		best.empty = min_double(best.empty, r.empty);
		best.probed = min_double(best.probed, r.probed);
		best.leaf = min_double(best.leaf, r.leaf);
		n++;
	}
	tstate_self = saved;
	tstate_destroy(t);
	if (n) {
		double work = g->empty ? best.plain - best.empty : 0;

		*o_in_ticks = (best.leaf - work) / g->calls;
		if (*o_in_ticks < 0)
			*o_in_ticks = 0;
		*o_out_ticks = (best.probed - best.plain) / g->calls - *o_in_ticks;
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
	calib.rounds = measure(&empty_leaf, CCT_FENCE_PLAIN, &calib.start_o_in_ticks,
			       &calib.start_o_out_ticks);
	if (clock_source == CLOCK_SRC_TSC_ADAPTIVE)
		calib.fenced = measure(&working_leaf, CCT_FENCE_FENCED, &calib.fenced_o_in_ticks,
				       &calib.fenced_o_out_ticks) > 0;
	calib.calls_per_round = CALIB_CALLS;
	calib.cost_ns = clock_mono_ns() - start_ns;
	calib.o_in_ticks = calib.start_o_in_ticks;
	calib.o_out_ticks = calib.start_o_out_ticks;
	calib.done = calib.rounds > 0 && (clock_source != CLOCK_SRC_TSC_ADAPTIVE || calib.fenced);
}

void calib_again(void)
{
	double in, out;

	if (!calib.done || !measure(&empty_leaf, CCT_FENCE_PLAIN, &in, &out))
		return;
	if (calib.fenced) {
		double f_in, f_out;

		if (measure(&working_leaf, CCT_FENCE_FENCED, &f_in, &f_out)) {
			calib.fenced_o_in_ticks = (calib.fenced_o_in_ticks + f_in) / 2;
			calib.fenced_o_out_ticks = (calib.fenced_o_out_ticks + f_out) / 2;
		}
	}
	/* The machine may run the probes faster or slower now than at start-up
	 * (clock frequency, the other core's load): the run sits in between. */
	calib.end_o_in_ticks = in;
	calib.end_o_out_ticks = out;
	calib.o_in_ticks = (calib.start_o_in_ticks + in) / 2;
	calib.o_out_ticks = (calib.start_o_out_ticks + out) / 2;
	calib.again = true;
}
