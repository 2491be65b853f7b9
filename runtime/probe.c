/*
 * probe.c: every slow path of the probe core (probe.h): a thread's first
 * probe, a probe inside a probe, dead frames, a full stack, a new call path,
 * filters, the node budget, a mismatched exit, a closing that the clock
 * policy keeps out of line, and the frames a non-local exit abandons.
 */
#include "probe.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>

#include "altstack.h"
#include "clock.h"
#include "options.h"
#include "process.h"
#include "schedstat.h"
#include "verdict.h"

#define SIGNAL_LEVELS 4 /* a thread's own state and the signal levels below it (tstate.sig) */

probe_kind_set probe_kinds_seen;
__thread uint64_t stamp_random __attribute__((tls_model("initial-exec")));
/* What one call of each kind costs (probe_set_costs); unknown until calibrated. */
static struct comp_cost costs[PROBE_KINDS];
static bool costs_known;
/* The state of a thread that is not profiled: every probe sees busy and off, and returns. */
static struct tstate tstate_off = { .busy = 1, .off = true };
/* This thread's state while its first probe creates the real one: probes
 * that run meanwhile (a signal handler's) count themselves in attach_dropped. */
static struct tstate tstate_attaching = { .busy = 1, .off = true };
/* The state of a thread whose own state could not be made (no memory): its
 * probes count themselves in process.lost_calls. */
static struct tstate tstate_lost = { .busy = 1, .off = true };
static __thread uint64_t attach_dropped __attribute__((tls_model("initial-exec")));

void probe_set_costs(const struct comp_cost cost[PROBE_KINDS])
{
	for (unsigned k = 0; k < PROBE_KINDS; k++)
		costs[k] = cost[k];
	costs_known = true;
}

/* tsc-adaptive: the own work of a leaf's sampled activation, `ticks` long, pays
 * for fenced reads: at least what plain probes cost. */
static bool pays_for_fences(uint64_t ticks)
{
	return (double)ticks - costs[PROBE_FENCED].o_in >=
	       costs[PROBE_PLAIN].o_in + costs[PROBE_PLAIN].o_out;
}

/*
 * tsc-adaptive: settles a sampled node's reads, from its sample (stamp.h).
 * A context with callees reads plainly: its callees' reads are what time
 * them, and fencing it would only add cost.  A leaf is never recursive
 * through its node, so every sampled activation has finished by now.  A leaf
 * keeps fenced reads when most of its sampled calls paid for them: a mean
 * would let a few long ones decide (the first call's cold caches and page
 * faults, an interrupt, a preemption on a loaded machine).
 */
static void settle(struct cct_node *n)
{
	uint64_t sampled = n->kind_calls[PROBE_FENCED - 1];

	if (n->first_child || !costs_known || 2 * (uint64_t)n->fence_votes <= sampled)
		n->fence = CCT_FENCE_PLAIN;
	else
		n->fence = CCT_FENCE_FENCED;
}

static void close_late(struct tstate *t, struct frame *top, uint64_t now)
{
	struct cct_node *n = top->node;

	now = stamp_exit_late(top, now);
	/* Never before its entry: a probe that read the TSC as the program forbade it (clock.h). */
	if (now < frame_enter_ticks(top))
		now = frame_enter_ticks(top);
	if (n->fence == CCT_FENCE_SAMPLING && costs_known && !n->first_child &&
	    pays_for_fences(now - frame_enter_ticks(top)))
		n->fence_votes++;
	frame_close_any(top, top - 1, now);
	if (stamp_sampled(n))
		settle(n);
	if (t->stack.cpu_frame >= t->stack.depth - 1)
		shadow_cpu_close(&t->stack, t->stack.depth - 1);
	t->stack.depth--;
}

void probe_exit_close(struct tstate *t, struct frame *top, uint64_t now)
{
	close_late(t, top, now);
	cp_barrier();
	t->busy = 0;
}

/* Drops an enter probe at frame address `sp`, counted in *why; its exit will be skipped. */
static void drop_enter(struct tstate *t, uintptr_t sp, uint64_t *why)
{
	if (!t->dropped_depth)
		t->dropped_sp = sp;
	t->dropped_depth++;
	(*why)++;
}

/* True if this enter takes a new call path while the last dump reads the trees:
 * they must not grow meanwhile (process.ending).  Existing paths still count,
 * and calibration's private state (unfiltered), which the dump itself drives
 * to measure the probes again, grows as it needs. */
static bool new_path_at_end(struct tstate *t, struct cct_node *parent, uintptr_t fn)
{
	return unlikely(__atomic_load_n(&process.ending, __ATOMIC_RELAXED)) && !t->unfiltered &&
	       !cct_child_find(&t->tree, parent, fn);
}

/* True if this enter must be dropped: no room on the stack, or deeper than dropped frames. */
static bool enter_no_room(struct tstate *t, uintptr_t sp)
{
	if (t->dropped_depth && sp >= t->dropped_sp)
		t->dropped_depth =
			0; /* control came back above the dropped frames without their exits */
	if (!t->dropped_depth && (t->stack.depth < t->stack.cap || shadow_grow(&t->stack) == 0))
		return false;
	drop_enter(t, sp, &t->dropped_no_room);
	return true;
}

/* A folded call of `fn` opens on top of `t`'s stack: decides whether it is
 * nested (fold.h).  0, or -1 when it cannot be kept. */
static int enter_folded(struct tstate *t, uintptr_t fn)
{
	struct shadow *s = &t->stack;
	uint32_t top = s->depth - 1;
	struct cct_node *real_top =
		s->fold.depth ? NULL : s->base[shadow_recorded_below(s, top)].node;

	return fold_enter(&s->fold, s->depth, fn, real_top, shadow_charge_node(s, top)) < 0 ? -1
											    : 0;
}

/*
 * True for the -finstrument-functions probe of a function built with
 * -pg -mfentry too: it comes right after the -pg -mfentry probe opened the
 * call (the top frame, of the same function, from that front-end, whose key
 * lies a few bytes into the function: cct.h), which counts it; this one is a
 * transparent frame, so the call counts once.
 */
static bool probed_twice(const struct frame *top, uintptr_t fn)
{
	return (top->node->fe_word & CCT_FE_MASK) == CCT_FE_FENTRY && top->fn > fn &&
	       top->fn - fn <= CCT_FE_FENTRY_KEY_SPAN;
}

/* Pushes the call of `fn` at `node` whose probe gave `sp`, a frame marked
 * `mark` (shadow.h), on the enter's slow path: the enter's last act.  A marked
 * frame reads plainly (a transparent one has no time: its caller's node); a
 * node whose next call reads the CPU clock reads it first (cputime.h). */
static void push_frame(struct shadow *s, uintptr_t fn, struct cct_node *node, uintptr_t sp,
		       uintptr_t mark)
{
	struct frame *f = &s->base[s->depth];

	f->fn = mark ? ~fn : fn;
	f->node = node;
	f->sp = sp | mark;
	if (mark) {
		/* Sampled timing: a folded call is charged a lent call's o_in and o_out
		 * (compensate.h), and a lent call's enter reads the clock once more first
		 * (the meter's read: meter.h); a folded one reads it too. */
		if (frames_sampled && (mark & FRAME_FOLDED))
			(void)clock_tsc_read();
		s->depth++;
		stamp_enter_marked(f);
		return;
	}
	if (node->cpu & CCT_CPU_READ)
		shadow_cpu_open(s, s->depth);
	s->depth++;
	stamp_enter(f, node);
}

/* The body of probe_enter_slow, with busy set; clears it. */
static void enter_slow(struct tstate *t, uintptr_t fn, uintptr_t call_site, uintptr_t sp)
{
	struct shadow *s = &t->stack;
	struct frame *top;
	struct cct_node *node;
	uintptr_t mark = 0;

	if (s->base[s->depth - 1].sp < sp)
		t->resyncs += shadow_pop_dead(s, sp);
	if ((s->depth == s->cap || t->dropped_depth) && enter_no_room(t, sp))
		goto out;
	top = &s->base[s->depth - 1];
	if (probe_unrecorded(t, fn) || probed_twice(top, fn)) {
		node = top->node; /* a transparent frame: see shadow.h */
		mark = FRAME_TRANSPARENT;
		node->unrecorded_calls[PROBE_PLAIN]++;
	} else if (new_path_at_end(t, top->node, fn)) {
		drop_enter(t, sp, &t->dropped_at_end);
		goto out;
	} else if ((node = cct_child_get(&t->tree, top->node, fn, call_site))) {
		mark = cct_node_is_folded(&t->tree, node) ? FRAME_FOLDED : 0;
		if (mark && enter_folded(t, fn) < 0) {
			drop_enter(t, sp, &t->dropped_no_room);
			goto out;
		}
		node->calls++;
	} else {
		drop_enter(t, sp, &t->dropped_no_room);
		goto out;
	}
	push_frame(s, fn, node, sp, mark);
out:
	cp_barrier();
	t->busy = 0;
}

void probe_enter_slow(struct tstate *t, uintptr_t fn, uintptr_t call_site, uintptr_t sp)
{
	int saved_errno = errno;

	meter_enter_off(t, t->meter_left == 0); /* a metered call the fast path gave up */
	enter_slow(t, fn, call_site, sp);
	errno = saved_errno;
}

/*
 * This thread's state, created and registered, busy; or the off state; or
 * NULL while start-up is under way on this very thread (the probe is then
 * dropped, and the next one tries again).  Probes that run meanwhile see a
 * busy state and count themselves as dropped.
 */
static struct tstate *attach(void)
{
	struct tstate *t;
	int started;

	tstate_self = &tstate_attaching;
	cp_barrier();
	started = process_start();
	if (started < 0) {
		attach_dropped++; /* this probe */
		tstate_self = NULL;
		return NULL;
	}
	if (!started) {
		tstate_self = &tstate_off;
		return &tstate_off;
	}
	if (!(t = tstate_create(stamp_new_node_state()))) {
		__atomic_add_fetch(&process.threads_lost, 1, __ATOMIC_RELAXED);
		__atomic_add_fetch(&process.lost_calls, 1, __ATOMIC_RELAXED); /* this probe */
		tstate_self = &tstate_lost;
		return &tstate_lost;
	}
	t->busy = 1;
	cp_barrier();
	tstate_self = t;
	cp_barrier();
	/* The thread that ran start-up waited for a CPU meanwhile (calibration, on a
	 * loaded machine), and again, likely, at this attach's system calls: its
	 * profile begins after both, once, read before its start time. */
	if (t->tid == process.start_wait_tid && schedstat_wait_ns(t->tid, &t->wait_base_ns) == 0)
		t->t_start_ticks = clock_now();
	t->dropped_calls += attach_dropped;
	attach_dropped = 0;
	tstate_register(t);
	meter_arm(t, meter_program, options.meter_period);
	process.probed = true;
	altstack_ensure(); /* a stack overflow's SIGSEGV can still write the profile */
	return t;
}

/*
 * The state for the probes of a signal handler that interrupted a probe on
 * `t` (tstate.sig), made on first need with every signal held off, so none
 * lands while it is made (mmap and sigprocmask are async-signal-safe).  NULL
 * past the last level, or when it could not be made.
 */
static struct tstate *signal_level(struct tstate *t)
{
	struct tstate *s = __atomic_load_n(&t->sig, __ATOMIC_ACQUIRE);
	sigset_t all, old;

	if (s || t->sig_making || t->level + 1 >= SIGNAL_LEVELS)
		return s;
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	t->sig_making = 1;
	if ((s = tstate_create_signal(t))) {
		__atomic_store_n(&t->sig, s, __ATOMIC_RELEASE);
		t->sig_making = 0; /* left set on failure: no other attempt */
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return s;
}

/* An enter inside a probe on `t`, busy (a signal handler's): on the next
 * signal level, or counted as dropped. */
static void enter_busy(struct tstate *t, uintptr_t fn, uintptr_t call_site, uintptr_t sp)
{
	int saved_errno = errno;
	struct tstate *s = signal_level(t);

	errno = saved_errno;
	if (s)
		probe_enter(s, fn, call_site, sp);
	else
		__atomic_add_fetch(&t->thread->dropped_calls, 1, __ATOMIC_RELAXED);
}

void probe_exit_busy(struct tstate *t, uintptr_t fn)
{
	struct tstate *s;

	if (t && !t->off && (s = __atomic_load_n(&t->sig, __ATOMIC_ACQUIRE)))
		probe_exit(s, fn); /* its enter went there, or was dropped */
}

void probe_enter_unready(struct tstate *t, uintptr_t fn, uintptr_t call_site, uintptr_t sp)
{
	int saved_errno;

	if (t == &tstate_attaching) {
		attach_dropped++; /* a signal handler's probe while this thread attaches */
		return;
	}
	if (t == &tstate_lost) {
		__atomic_add_fetch(&process.lost_calls, 1, __ATOMIC_RELAXED);
		return;
	}
	if (t) {
		if (!t->off)
			enter_busy(t, fn, call_site,
				   sp); /* a signal handler's probe inside another probe */
		return;
	}
	saved_errno = errno;
	t = attach();
	if (t && !t->off)
		enter_slow(t, fn, call_site, sp);
	errno = saved_errno;
}

/* The body of probe_exit_slow, with busy set; clears it. */
static void exit_slow(struct tstate *t, uintptr_t fn, uint64_t now)
{
	uint32_t k;

	now = stamp_exit_resolve(now);
	if (t->dropped_depth) {
		t->dropped_depth--;
		goto out;
	}
	k = shadow_find(&t->stack, fn);
	if (!k) {
		t->unmatched_exits++;
		goto out;
	}
	t->resyncs += shadow_close_above(&t->stack, k, now);
	shadow_close_frame(&t->stack, k, now);
	t->stack.depth = k;
out:
	cp_barrier();
	t->busy = 0;
}

void probe_exit_slow(struct tstate *t, uintptr_t fn, uint64_t now)
{
	int saved_errno = errno;

	exit_slow(t, fn, now);
	errno = saved_errno;
}

struct tstate *probe_hold_enter(void)
{
	struct tstate *t = tstate_self;
	int saved_errno;

	if (t == &tstate_attaching) {
		attach_dropped++; /* a signal handler's probe while this thread attaches */
		return NULL;
	}
	if (t) {
		if (probe_hold(t))
			return t;
		if (t->off)
			return NULL;
		saved_errno = errno;
		while ((t = signal_level(t)) && !probe_hold(t)) /* a handler's, inside a probe */
			;
		errno = saved_errno;
		if (!t)
			__atomic_add_fetch(&tstate_self->dropped_calls, 1, __ATOMIC_RELAXED);
		return t;
	}
	saved_errno = errno;
	t = attach();
	errno = saved_errno;
	return t && !t->off ? t : NULL; /* the off state stays busy: nothing to release */
}

/* Makes the kind `kind` known to the dump (once per kind: other threads read the word). */
static void kind_seen(enum probe_kind kind)
{
	probe_kind_set bit = 1u << kind;

	if (!(__atomic_load_n(&probe_kinds_seen, __ATOMIC_RELAXED) & bit))
		__atomic_or_fetch(&probe_kinds_seen, bit, __ATOMIC_RELAXED);
}

/* Counts a call of `fn` that gets no frame, under the top frame's node; one of
 * kind `kind` that is not recorded, in that node's unrecorded calls. */
static void count_frameless(struct tstate *t, uintptr_t fn, uintptr_t call_site,
			    enum probe_kind kind, uintptr_t word)
{
	struct frame *top = &t->stack.base[t->stack.depth - 1];
	struct cct_node *node;

	if (probe_unrecorded(t, fn)) {
		top->node->unrecorded_calls[kind]++;
		return;
	}
	node = cct_child_get(&t->tree, top->node, fn, call_site);
	if (!node) {
		t->dropped_no_room++;
		return;
	}
	node->calls++;
	node->kind_calls[PROBE_COUNTED - 1]++;
	if (!node->fe_word)
		node->fe_word = word;
	kind_seen(PROBE_COUNTED);
}

/* The body of probe_open_held. */
static enum probe_opened open_held(struct tstate *t, uintptr_t fn, uintptr_t call_site,
				   uintptr_t sp, enum probe_kind kind, uintptr_t word, bool framed)
{
	struct shadow *s = &t->stack;
	struct frame *top;
	struct cct_node *node;
	uintptr_t mark = 0;

	if (s->base[s->depth - 1].sp < sp)
		t->resyncs += shadow_pop_dead(s, sp);
	if (t->dropped_depth && sp >= t->dropped_sp)
		t->dropped_depth =
			0; /* control came back above the dropped frames without their exits */
	if (framed && (t->dropped_depth || (s->depth == s->cap && shadow_grow(s) < 0)))
		framed = false;
	if (!framed) {
		count_frameless(t, fn, call_site, kind, word);
		return PROBE_FRAMELESS;
	}
	top = &s->base[s->depth - 1];
	if (probe_unrecorded(t, fn)) { /* no frame: probe_skip_unrecorded_held */
		top->node->unrecorded_calls[kind]++;
		return PROBE_FRAMELESS;
	} else if (new_path_at_end(t, top->node, fn)) {
		t->dropped_at_end++;
		return PROBE_FRAMELESS;
	} else if ((node = cct_child_get(&t->tree, top->node, fn, call_site))) {
		mark = cct_node_is_folded(&t->tree, node) ? FRAME_FOLDED : 0;
		if (mark && enter_folded(t, fn) < 0) {
			t->dropped_no_room++;
			return PROBE_FRAMELESS;
		}
		node->calls++;
		if (!node->fe_word)
			node->fe_word = word;
		if (kind != PROBE_PLAIN) {
			if (kind != cct_base_kind(node) && !stamp_fences(node))
				node->kind_calls[kind - 1]++;
			kind_seen(kind);
		}
	} else {
		t->dropped_no_room++;
		return PROBE_FRAMELESS;
	}
	push_frame(s, fn, node, sp, mark);
	return PROBE_FRAMED;
}

enum probe_opened probe_open_held(struct tstate *t, uintptr_t fn, uintptr_t call_site, uintptr_t sp,
				  enum probe_kind kind, bool framed)
{
	return probe_open_marked_held(t, fn, call_site, sp, kind, 0, framed);
}

enum probe_opened probe_open_marked_held(struct tstate *t, uintptr_t fn, uintptr_t call_site,
					 uintptr_t sp, enum probe_kind kind, uintptr_t word,
					 bool framed)
{
	int saved_errno = errno;
	enum probe_opened opened = open_held(t, fn, call_site, sp, kind, word, framed);

	errno = saved_errno;
	return opened;
}

/* The index of the frame of the call of `fn` whose probe gave `sp`, or 0. */
static uint32_t frame_at(const struct shadow *s, uintptr_t fn, uintptr_t sp)
{
	for (uint32_t i = s->depth - 1; i > 0; i--)
		if (frame_fn(&s->base[i]) == fn && (s->base[i].sp & ~(uintptr_t)7) == sp)
			return i;
	return 0;
}

void probe_close_held(struct tstate *t, uintptr_t fn, uintptr_t sp, uint64_t now)
{
	int saved_errno = errno;
	struct frame *top;
	uint32_t k;

	t->dropped_depth = 0; /* the calls dropped below this one are over */
	k = frame_at(&t->stack, fn, sp);
	if (!k) {
		t->unmatched_exits++;
		goto out;
	}
	top = &t->stack.base[k];
	if (k == t->stack.depth - 1 && !frame_is_marked(top)) {
		close_late(t, top, now);
		goto out;
	}
	now = stamp_exit_resolve(now);
	t->resyncs += shadow_close_above(&t->stack, k, now);
	shadow_close_frame(&t->stack, k, now);
	t->stack.depth = k;
out:
	errno = saved_errno;
}

struct tstate *probe_silence(void)
{
	struct tstate *t = tstate_self;

	tstate_self = &tstate_off;
	return t;
}

void probe_unsilence(struct tstate *saved)
{
	tstate_self = saved;
}

struct tstate *probe_hold_level(void)
{
	struct tstate *t = tstate_self;

	if (t && t->off)
		return NULL; /* the off, attaching, lost and ended states */
	while (t && t->busy) /* in a signal handler that interrupted a probe: its level */
		t = __atomic_load_n(&t->sig, __ATOMIC_ACQUIRE);
	if (!t)
		return NULL;
	t->busy = 1;
	cp_barrier();
	return t;
}

void probe_unwind(uintptr_t sp)
{
	int saved_errno = errno;
	struct tstate *t = sp ? probe_hold_level() : NULL;

	if (t) {
		t->resyncs += shadow_unwind_to(&t->stack, sp, clock_now());
		probe_release(t);
	}
	errno = saved_errno;
}

void probe_unwind_alt(uintptr_t lo, uintptr_t hi, uintptr_t target)
{
	int saved_errno = errno;
	struct tstate *t = probe_hold_level();
	uint32_t keep;

	if (t) {
		for (keep = t->stack.depth - 1; keep > 0; keep--)
			if (t->stack.base[keep].sp < lo || t->stack.base[keep].sp >= hi)
				break;
		t->resyncs += shadow_close_above(&t->stack, keep, clock_now());
		t->resyncs += shadow_unwind_to(&t->stack, target, clock_now());
		probe_release(t);
	}
	errno = saved_errno;
}

/*
 * The frames with a stack address below cfa - SHADOW_PROBE_FRAME belong to
 * the function whose frame it is, if it was instrumented, and to those it
 * called: its caller's probe is at least that high (probe.h).  The outermost
 * of them is its own if its function is `fn`: that one stays open, and so do
 * the functions inlined into it, level with it.
 */
void probe_unwind_frame(uintptr_t cfa, uintptr_t fn)
{
	int saved_errno = errno;
	struct tstate *t = cfa ? probe_hold_level() : NULL;
	struct shadow *s;
	uint32_t k;
	uintptr_t below;

	if (!t) {
		errno = saved_errno;
		return;
	}
	s = &t->stack;
	below = cfa - SHADOW_PROBE_FRAME;
	for (k = s->depth; k > 1 && (s->base[k - 1].sp & ~FRAME_MARKS & ~FRAME_FENCED) < below; k--)
		;
	/* k: the outermost frame below, if any (k < depth) */
	if (k < s->depth && frame_fn(&s->base[k]) == fn)
		below = s->base[k].sp & ~FRAME_MARKS & ~FRAME_FENCED;
	for (k = s->depth - 1; k > 0 && (s->base[k].sp & ~FRAME_MARKS & ~FRAME_FENCED) < below; k--)
		;
	t->resyncs += shadow_close_above(s, k, clock_now());
	probe_release(t);
	errno = saved_errno;
}
