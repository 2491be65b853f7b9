/* calib.c: measuring the probes' own cost per kind of call, at start-up and again at the dump. */
#include "calib.h"

#include <string.h>

#include "cct.h"
#include "clock.h"
#include "cputime.h"
#include "compensate.h"
#include "got.h"
#include "libcall.h"
#include "options.h"
#include "probe.h"
#include "stamp.h"
#include "tstate.h"
#include "verdict.h"

#define CALIB_ROUNDS 15
#define CALIB_CALLS 2000

/* How the figures are measured, as the dump says it. */
static const char method[] =
	"a small instrumented leaf (it takes a value and returns one, as real functions do) called "
	"in "
	"loops: o_in is its measured time per call, o_out the rest of the per-call cost over an "
	"uninstrumented twin loop; each the minimum over the rounds; the costs of fenced calls "
	"(tsc-adaptive) likewise on a leaf that works; measured at start-up and, unless the run "
	"lasted less than ten times that took, again at the dump, and the mean of the two used";
/* The same under sampled timing, whose leaf is timed as a lent call is (calib.h). */
static const char method_sampled[] =
	"a small instrumented leaf (it takes a value and returns one, as real functions do) "
	"called in loops; the loop own-timed, each call of the leaf lent whole to it and never "
	"timed for itself, as most timed calls are: o_in is the leaf's measured time per call, "
	"o_out the rest of the per-call cost over an uninstrumented twin loop; an untimed call's "
	"whole cost likewise, the loop own-timed and lending none of its calls; each the minimum "
	"over the rounds; measured at start-up and, unless the run lasted less than ten times "
	"that took, again at the dump, and the mean of the two used";
struct calib calib = { .method = method };

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

/* The leaf the plain twin of calib_loop_lib calls, through a pointer as the probed loop does. */
static uint64_t (*volatile calib_lib_plain_call)(uint64_t x) = calib_leaf_plain;

uint64_t calib_loop_lib_plain(uint32_t n, uint64_t x)
{
	uint64_t (*leaf)(uint64_t) = calib_lib_plain_call;

	for (uint32_t i = 0; i < n; i++)
		x = leaf(x);
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

/* The target each kind of call is measured on.  Fenced calls: a leaf that
 * works, as tsc-adaptive fences only such leaves; fewer, shorter rounds, since
 * its calls cost about five times as much. */
static const struct target targets[PROBE_KINDS] = {
	[PROBE_PLAIN] = { calib_loop, calib_loop_plain, NULL, CALIB_ROUNDS, CALIB_CALLS },
	[PROBE_FENCED] = { calib_loop_work, calib_loop_work_plain, calib_loop_plain, 9, 1000 },
	[PROBE_LIBRARY] = { calib_loop_lib, calib_loop_lib_plain, NULL, CALIB_ROUNDS, CALIB_CALLS },
	[PROBE_FENTRY] = { calib_loop_fentry, calib_loop_plain, NULL, CALIB_ROUNDS, CALIB_CALLS },
};

/* The kinds measured only once some call was of them: they cost nothing to
 * programs that never make such calls. */
#define CALIB_LATE_KINDS (1u << PROBE_FENTRY)

/* One round's measurements on the private state `t`, in ticks. */
struct round {
	double plain;  /* the uninstrumented loop */
	double empty;  /* the uninstrumented loop over an empty leaf (a working target) */
	double probed; /* the instrumented loop */
	double leaf;   /* the leaf's own measured time, summed over its calls */
};

/* Makes every call of the loop on `t` (its tree warmed by a first loop) timed,
 * of the plain kind, and its leaf's of kind `kind`: under sampled timing each
 * of the leaf's calls lent whole to the loop (stamp_lend) and never own-timed. */
static void timed_loop(struct tstate *t, enum probe_kind kind)
{
	struct cct_node *loop = t->tree.root.first_child;

	if (!loop || !loop->first_child)
		return;
	stamp_force_kind(loop, PROBE_PLAIN);
	stamp_force_kind(loop->first_child, kind);
	if (frames_sampled)
		stamp_force_untimed(loop->first_child);
}

/* Runs one round; returns false if the tree is not the expected shape. */
static bool calib_round(struct tstate *t, const struct target *g, struct round *r)
{
	struct cct_node *loop, *leaf;
	uint64_t t0, t1, t2, t3;

	cct_clear_counts(&t->tree);
	t0 = stamp_enter_read();
	calib_sink = g->empty ? g->empty(g->calls, t0) : t0;
	t1 = stamp_enter_read();
	calib_sink = g->plain(g->calls, t1);
	t2 = stamp_enter_read();
	calib_sink = g->probed(g->calls, t2);
	t3 = stamp_enter_read();
	loop = t->tree.root.first_child;
	leaf = loop ? loop->first_child : NULL;
	if (!leaf || leaf->calls != g->calls || loop->calls != 1)
		return false;
	r->empty = (double)(t1 - t0);
	r->plain = (double)(t2 - t1);
	r->probed = (double)(t3 - t2);
	r->leaf = frames_sampled ? (double)loop->child_ticks /* lent to it */
				 : (double)leaf->incl_ticks;
	return true;
}

static double min_double(double a, double b)
{
	return a < b ? a : b;
}

/* A private thread state for measuring, or NULL: unfiltered, its calls never
 * reading the CPU clock (a loop's long call would read it on the next round). */
static struct tstate *calib_state(void)
{
	struct tstate *t = tstate_create(stamp_new_node_state());

	if (t) {
		t->unfiltered = true;
		t->tree.new_cpu = CCT_CPU_NEVER;
	}
	return t;
}

/*
 * Interference (preemption, another process's cache traffic) only ever adds
 * time, so each quantity keeps its minimum over the rounds:
 *   o_in  = the leaf's measured time per call, less its work's own time
 *           (plain loop - empty-leaf loop; none for an empty leaf);
 *   o     = (instrumented loop - plain loop) per call;  o_out = o - o_in.
 * The leaf's calls are of kind `kind`, the loop's plain.
 * Returns the number of good rounds (0: no figures).
 */
static uint32_t measure(enum probe_kind kind, double *o_in_ticks, double *o_out_ticks)
{
	const struct target *g = &targets[kind];
	struct round best = { 1e300, 1e300, 1e300, 1e300 }, r;
	struct tstate *saved = tstate_self;
	struct tstate *t = calib_state();
	uint32_t n = 0;

	if (!t)
		return 0;
	tstate_self = t;
	calib_sink = g->probed(g->calls, 0); /* warm the caches and the tree */
	timed_loop(t, kind);
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

/* Calibration's calls per metered one: enough samples in a few rounds, and
 * still few enough that the meter's branches go as in the program's probes.
 * Rounds of the target's loop metered: about 1,200 samples of each kind.  The
 * loop is timed as calibration's own (timed_loop), so the difference is what
 * the figures it corrects miss: under sampled timing, whose meter takes lent
 * calls only (meter.h), every call of the leaf is lent, and the branches that
 * a lent call takes seldom in a program are taken every time.  Each round
 * costs a run about 0.1 ms a kind.  Only at the dump, and only for the kinds
 * the program gave enough samples of: the loop's figures serve nothing else,
 * and a short run, which meters too few of its calls, is spared them. */
#define METER_CALIB_PERIOD 16
#define METER_CALIB_ROUNDS 10

/* Meters kind k's probes on its target's loop, into its meter_loop (meter.h):
 * the kinds the meter takes in the program (not fenced ones, never metered). */
static void measure_meter(unsigned k)
{
	const struct target *g = &targets[k];
	struct meter_sums sinks[PROBE_KINDS] = { { 0 } };
	struct meter_sums *loop = &calib.kind[k].meter_loop;
	struct tstate *saved = tstate_self;
	struct tstate *t;

	if (k == PROBE_FENCED || !g->probed || !(t = calib_state()))
		return;
	tstate_self = t;
	calib_sink = g->probed(g->calls, 0); /* warm the caches and the tree */
	timed_loop(t, (enum probe_kind)k);
	meter_arm(t, sinks, METER_CALIB_PERIOD);
	for (uint32_t i = 0; i < METER_CALIB_ROUNDS; i++)
		calib_sink = g->probed(g->calls, i);
	tstate_self = saved;
	tstate_destroy(t);
	/* The leaf's calls are of kind k; the loop's own, of its front-end's, left out. */
	loop->samples += sinks[k].samples;
	loop->discarded += sinks[k].discarded;
	loop->weight += sinks[k].weight;
	for (unsigned i = 0; i < METER_PARTS; i++)
		loop->ticks[i] += sinks[k].ticks[i];
}

/* True when some call of kind k may go unrecorded: filters, or a depth limit.  A
 * library function a filter leaves out is not probed at all (its GOT slot is left
 * alone): only the depth limit leaves library calls unrecorded. */
static bool unrecorded_possible(unsigned k)
{
	return options.max_depth || (verdict_on && k != PROBE_LIBRARY);
}

/* Fewer and shorter rounds than the recorded calls': an unrecorded call of
 * a library or -pg -mfentry function takes the slow exit, about a microsecond. */
#define UNRECORDED_ROUNDS 5
#define UNRECORDED_CALLS 400

/* The calls whose whole cost measure_whole takes: unrecorded, or untimed ones. */
enum whole { WHOLE_UNRECORDED, WHOLE_UNTIMED };

/* True if the loop's round `loop` went as measure_whole wants it. */
static bool whole_round_good(const struct cct_node *loop, enum probe_kind kind, enum whole what)
{
	const struct cct_node *leaf = loop ? loop->first_child : NULL;

	if (!loop || loop->calls != 1)
		return false;
	if (what == WHOLE_UNRECORDED)
		return !leaf && loop->unrecorded_calls[kind] == UNRECORDED_CALLS;
	return leaf && leaf->calls == UNRECORDED_CALLS && !cct_timed_calls(leaf);
}

/*
 * The whole cost of a call of `kind` that is not recorded (or, `what`, not
 * timed), in ticks: the target's instrumented loop with its leaf left
 * unrecorded (record_depth), the leaf's probes running in the loop's time on
 * their slow paths (or its calls all left untimed), less the plain loop; each
 * the minimum over the rounds.  Returns the good rounds (0: no figure).
 * Fenced calls are never unrecorded (a transparent frame reads plainly) nor
 * untimed: none for them.
 */
static uint32_t measure_whole(enum probe_kind kind, enum whole what, double *ticks)
{
	const struct target *g = &targets[kind];
	double plain = 1e300, probed = 1e300;
	struct tstate *saved = tstate_self;
	struct tstate *t;
	uint32_t n = 0;

	if (kind == PROBE_FENCED || !g->probed || !(t = calib_state()))
		return 0;
	/* Unrecorded: deeper than the root's sentinel and the loop, so the leaf. */
	if (what == WHOLE_UNRECORDED)
		t->record_depth = 2;
	tstate_self = t;
	calib_sink = g->probed(UNRECORDED_CALLS, 0); /* warm the caches and the tree */
	if (what == WHOLE_UNTIMED && t->tree.root.first_child &&
	    t->tree.root.first_child->first_child) {
		/* The loop own-timed, lending none of its calls: an untimed call's
		 * cost lies in a measured time only inside an own-timed caller, and
		 * there its probe asks whether it is lent (stamp_lend): 1-3 ns
		 * more than under an untimed caller (bench/FINDINGS.md). */
		stamp_force_alone(t->tree.root.first_child);
		stamp_force_untimed(t->tree.root.first_child->first_child);
	}
	for (uint32_t i = 0; i < UNRECORDED_ROUNDS; i++) {
		uint64_t t0, t1, t2;

		cct_clear_counts(&t->tree);
		t0 = stamp_enter_read();
		calib_sink = g->plain(UNRECORDED_CALLS, t0);
		t1 = stamp_enter_read();
		calib_sink = g->probed(UNRECORDED_CALLS, t1);
		t2 = stamp_enter_read();
		if (!whole_round_good(t->tree.root.first_child, kind, what))
			continue;
		plain = min_double(plain, (double)(t1 - t0));
		probed = min_double(probed, (double)(t2 - t1));
		n++;
	}
	tstate_self = saved;
	tstate_destroy(t);
	if (n)
		*ticks = probed > plain ? (probed - plain) / UNRECORDED_CALLS : 0;
	return n;
}

/* Measures the unrecorded calls' cost of kind k (when some call may go
 * unrecorded), and the untimed calls' (under sampled timing), each as the
 * mean with an earlier measurement when `again`. */
static void calib_whole(unsigned k, bool again)
{
	struct calib_cost *c = &calib.kind[k];
	double ticks;

	if (unrecorded_possible(k) && measure_whole((enum probe_kind)k, WHOLE_UNRECORDED, &ticks)) {
		c->unrecorded_ticks =
			again && c->unrecorded_measured ? (c->unrecorded_ticks + ticks) / 2 : ticks;
		c->unrecorded_measured = true;
	}
	if (frames_sampled && measure_whole((enum probe_kind)k, WHOLE_UNTIMED, &ticks)) {
		c->untimed_ticks =
			again && c->untimed_measured ? (c->untimed_ticks + ticks) / 2 : ticks;
		c->untimed_measured = true;
	}
}

struct comp_cost calib_comp_cost(const struct calib_cost *c)
{
	return (struct comp_cost){ c->o_in_ticks, c->o_out_ticks, c->unrecorded_ticks,
				   c->untimed_ticks, calib.cpu_read_ticks };
}

/*
 * What a call that reads the CPU clock pays for it (cputime.h): the system
 * call and a wall clock read beside it, on each side.  The median of rounds
 * of a few such pairs: the least would take a round no preemption touched,
 * but these reads enter the kernel, where a round may find it slow or fast.
 */
static double measure_cpu_read(void)
{
	enum { ROUNDS = 31, PAIRS = 4 };
	double round[ROUNDS];

	for (unsigned i = 0; i < ROUNDS; i++) {
		uint64_t t0 = clock_now(), sink = 0;

		for (unsigned j = 0; j < PAIRS; j++)
			sink += cputime_self_ns() + clock_now() + cputime_self_ns() + clock_now();
		calib_sink = sink;
		round[i] = (double)(clock_now() - t0) / PAIRS;
	}
	for (unsigned i = 1; i < ROUNDS; i++) /* insertion sort: 31 figures */
		for (unsigned j = i; j > 0 && round[j - 1] > round[j]; j--) {
			double x = round[j];
			round[j] = round[j - 1];
			round[j - 1] = x;
		}
	return round[ROUNDS / 2];
}

/* Gives the probes the costs compensation uses (tsc-adaptive weighs them). */
static void publish(void)
{
	struct comp_cost cost[PROBE_KINDS];

	for (unsigned k = 0; k < PROBE_KINDS; k++)
		cost[k] = calib_comp_cost(&calib.kind[k]);
	probe_set_costs(cost);
}

/* Points calib_lib_call at a stub of the leaf; false when there is none. */
static bool lib_stub_ready(void)
{
	uintptr_t stub = got_calibration_stub((uintptr_t)calib_leaf_plain);

	memcpy(&calib_lib_call, &stub,
	       sizeof(stub)); /* an address of code, as a function pointer */
	return stub != 0;
}

/* Measures the late kinds some call used and nothing measured yet, once. */
static void calib_late(void)
{
	probe_kind_set late = __atomic_load_n(&probe_kinds_seen, __ATOMIC_RELAXED) &
			      CALIB_LATE_KINDS & ~calib.kinds;

	for (unsigned k = 0; k < PROBE_KINDS; k++) {
		struct calib_cost *c = &calib.kind[k];
		if (!(late & 1u << k))
			continue;
		c->measured = measure((enum probe_kind)k, &c->start_o_in_ticks,
				      &c->start_o_out_ticks) > 0;
		c->o_in_ticks = c->end_o_in_ticks = c->start_o_in_ticks;
		c->o_out_ticks = c->end_o_out_ticks = c->start_o_out_ticks;
		calib_whole(k, false);
		calib.kinds |= 1u << k;
	}
}

void calib_run(void)
{
	uint64_t start_ns;
	bool all = true;

	calib.ran = true;
	if (clock_source == CLOCK_SRC_NONE)
		return;
	if (frames_sampled)
		calib.method = method_sampled;
	start_ns = clock_mono_ns();
	calib.kinds = stamp_kinds() | libcall_kinds();
	if ((calib.kinds & 1u << PROBE_LIBRARY) && !lib_stub_ready())
		calib.kinds &= ~(1u << PROBE_LIBRARY);
	for (unsigned k = 0; k < PROBE_KINDS; k++) {
		struct calib_cost *c = &calib.kind[k];
		uint32_t rounds;
		if (!(calib.kinds & 1u << k))
			continue;
		rounds = measure((enum probe_kind)k, &c->start_o_in_ticks, &c->start_o_out_ticks);
		c->measured = rounds > 0;
		c->o_in_ticks = c->start_o_in_ticks;
		c->o_out_ticks = c->start_o_out_ticks;
		calib_whole(k, false);
		all = all && c->measured;
		if (k == PROBE_PLAIN)
			calib.rounds = rounds;
	}
	calib.calls_per_round = CALIB_CALLS;
	if (calib.kind[PROBE_PLAIN].measured)
		stamp_set_heavy(calib.kind[PROBE_PLAIN].o_in_ticks +
				calib.kind[PROBE_PLAIN].o_out_ticks);
	if (cputime_on) {
		calib.cpu_read_ticks = measure_cpu_read();
		cputime_set_cost(calib.cpu_read_ticks);
	}
	calib_late(); /* when the first calibration is the dump's */
	calib.done_ns = clock_mono_ns();
	calib.cost_ns = calib.done_ns - start_ns;
	calib.done = all;
	if (calib.done)
		publish();
}

/* A kind's probes cost the program more than the loop, where the program's
 * tree, code and branches are colder (meter.h): `c`, the kind's cost, takes
 * what they were metered to add, each part kept at 0 or more. */
static void add_metered(struct calib_cost *c, const struct meter_sums *program)
{
	c->meter_program = *program;
	c->metered = meter_extra(&c->meter_program, &c->meter_loop, &c->metered_in_ticks,
				 &c->metered_out_ticks);
	if (!c->metered)
		return;
	c->o_in_ticks =
		c->o_in_ticks + c->metered_in_ticks > 0 ? c->o_in_ticks + c->metered_in_ticks : 0;
	c->o_out_ticks = c->o_out_ticks + c->metered_out_ticks > 0
				 ? c->o_out_ticks + c->metered_out_ticks
				 : 0;
}

/* The machine may run the probes faster or slower now than at start-up
 * (clock frequency, the other core's load): the run sits in between. */
/*
 * A run shorter than CALIB_AGAIN_RUNS times what calibration took at start-up
 * is not measured again: its probes cannot have cost more than it lasted, so
 * a second measurement would refine a small correction by a fraction of it,
 * and lengthen the whole run by a tenth or more (fib(1): 2.5 ms of 16).
 */
#define CALIB_AGAIN_RUNS 10

static bool worth_again(void)
{
	return clock_mono_ns() - calib.done_ns >= CALIB_AGAIN_RUNS * calib.cost_ns;
}

void calib_again(void)
{
	double in[PROBE_KINDS], out[PROBE_KINDS];
	probe_kind_set before = calib.kinds;
	bool again;

	if (!calib.done)
		return;
	calib_late();
	again = worth_again(); /* else the start-up figures stand; the meter's below still count */
	for (unsigned k = 0; k < PROBE_KINDS; k++)
		if (again && (before & 1u << k) && !measure((enum probe_kind)k, &in[k], &out[k]))
			return;
	for (unsigned k = 0; k < PROBE_KINDS; k++) {
		struct calib_cost *c = &calib.kind[k];
		if (!(before & 1u << k))
			continue;
		if (!again) { /* an earlier dump of this short run may have added its meter's */
			c->o_in_ticks = c->start_o_in_ticks;
			c->o_out_ticks = c->start_o_out_ticks;
			continue;
		}
		c->end_o_in_ticks = in[k];
		c->end_o_out_ticks = out[k];
		c->o_in_ticks = (c->start_o_in_ticks + in[k]) / 2;
		c->o_out_ticks = (c->start_o_out_ticks + out[k]) / 2;
		calib_whole(k, true);
	}
	for (unsigned k = 0; k < PROBE_KINDS; k++)
		if (calib.kinds & 1u << k && calib.kind[k].measured) {
			if (meter_enough(&meter_program[k]))
				measure_meter(k);
			add_metered(&calib.kind[k], &meter_program[k]);
		}
	calib.again = again;
	publish();
}
