/*
 * tstate.h: per-thread profiler state (the shadow stack, the calling-context
 * tree, the counters of what had to be dropped or resynchronised) and the
 * registry of every thread's state.
 *
 * A thread gets its state on its first probe (probe.c) through an
 * initial-exec TLS pointer.  When it ends, it hands a packed copy of its
 * profile to the registry in its place and frees its state (handoff.h), so
 * the dump at process exit still has it.  Joining the registry
 * takes no lock, so a probe can do it anywhere (a signal handler, a thread
 * the dump is running on); the lock only keeps apart those who walk or
 * rewrite every state (the dump, dlclose, callprof_reset, fork).
 */
#ifndef CALLPROF_TSTATE_H
#define CALLPROF_TSTATE_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "cct.h"
#include "ctxmap.h"
#include "hijack_stack.h"
#include "shadow.h"

struct args_thread;
struct meter_sums;

struct tstate {
	struct shadow stack;
	volatile sig_atomic_t busy; /* a probe is running: see probe.h for who sets and clears it */
	uint32_t meter_left;        /* calls before the next metered one (meter.h) */
	uint32_t meter_at;          /* the depth of the metered call's frame, or 0 */
	bool off;                   /* profiling is off: every probe returns at once */
	bool unfiltered;        /* CALLPROF_INCLUDE/EXCLUDE do not apply (calibration's state) */
	uint32_t record_depth;  /* calibration's: calls at this depth of the stack or deeper are
				 * not recorded (0: no such limit) */
	uint32_t dropped_depth; /* dropped enters whose exits are still to come */
	uintptr_t dropped_sp;   /* frame address of the outermost such enter */
	uint64_t
		dropped_calls; /* enters dropped: a signal handler's probe inside a probe or thread attach */
	uint64_t dropped_no_room; /* enters dropped: stack limit reached or no memory for a node */
	uint64_t resyncs;         /* frames closed without their exit probe */
	uint64_t unmatched_exits; /* exits with no open frame of their function */
	uint64_t closed_at_exit;  /* frames still open when the thread ended */
	uint64_t
		undecided_calls; /* calls not recorded: their module's filter verdicts were not made yet */
	uint64_t dropped_at_end; /* enters dropped: a new call path after the last dump began */
	struct cct tree;
	struct hijack_stack ret; /* hijacked return addresses (hijack.h) */
	struct args_thread
		*args;          /* value profiles of the functions CALLPROF_ARGS selects (args.h) */
	uint64_t t_start_ticks; /* first probe on the thread */
	uint64_t wait_base_ns;  /* its CPU wait (schedstat.h) at t_start_ticks, where known */
	uint64_t t_end_ticks;   /* thread end, when finished */
	int tid;
	int exit_rounds;     /* thread-exit destructor rounds seen */
	bool finished;       /* the thread has ended */
	bool is_main;        /* the process's initial thread */
	bool runtime_own;    /* the runtime's own thread (dumper.c): in no profile, though
				     * library probes may have seen it start (AddressSanitizer's
				     * thread start calls libraries) */
	char name[16];       /* the thread's name when it ended */
	struct tstate *next; /* registry link, newest first */
	/* Signal handlers that interrupt a probe (busy) keep their calls in a state
	 * of their own, one per level of nesting, made on first need (probe.c) and
	 * reached from here only; the dump shows their trees under `<signal>`. */
	struct tstate *sig;    /* the next level's state, or NULL */
	struct tstate *thread; /* the thread's own state (level 0): where drops are counted */
	uint32_t level;        /* 0: the thread's own state; n: handlers n levels into probes */
	volatile sig_atomic_t
		sig_making; /* the next level's state is being made (or could not be) */
	/* The metered call's reads (meter.h), and where its sample goes (NULL: not metered).
	 * meter_e0 and meter_e2 are any enter's that read them (under sampled timing, every
	 * lent call's: its callees' overwrite them), so its enter's parts are kept apart. */
	uint64_t meter_e0, meter_t1, meter_e2, meter_x0;
	uint64_t meter_enter_out, meter_enter_in;
	struct meter_sums *meter_sink; /* one per kind of call (kind.h) */
	uint32_t meter_period;
	uint32_t meter_kind;   /* the metered call's kind */
	uint64_t meter_random; /* the stream that picks the metered calls (stamp_random_below) */
	/* Execution contexts (context.c): the stack of each that does not run. */
	struct ctxmap *contexts; /* NULL until the first makecontext or swapcontext */
	const void *ctx_current; /* the ucontext_t of the running context; NULL: the thread's own */
};

/* This thread's state; NULL until its first probe. */
extern __thread struct tstate *tstate_self __attribute__((tls_model("initial-exec")));

/* Creates a state for this thread, outside the registry, its tree's new nodes
 * in state `node_state` (cct.new_fence).  Maps its memory (never malloc).
 * NULL without memory. */
struct tstate *tstate_create(uint32_t node_state);

/* Creates the state for the signal handlers that interrupt a probe on `t`,
 * one level deeper, outside the registry (t->sig reaches it).  Maps its
 * memory: async-signal-safe.  NULL without memory. */
struct tstate *tstate_create_signal(const struct tstate *t);

/* Frees `t` and the states of its signal levels. */
void tstate_destroy(struct tstate *t);

/* Creates the thread-exit key.  Once, at start-up (process.c). */
void tstate_setup(void);

/* Adds `t`, this thread's state, to the registry and watches for the
 * thread's end.  Lock-free: never waits. */
void tstate_register(struct tstate *t);

/* The registry of every state, newest first, locked against the other
 * walkers until tstate_unlock_all.  States registered meanwhile are not in
 * the list returned. */
struct tstate *tstate_lock_all(void);
void tstate_unlock_all(void);

/* Zeroes the counts and times of `t`; its open frames count from `now_ticks`. */
void tstate_clear(struct tstate *t, uint64_t now_ticks);

/* In a fork child, with the registry locked by the forking thread: the
 * registry becomes `self` alone (NULL: empty), its open frames kept in a
 * fresh tree with no calls (the parent counted their entries), timed from
 * `now_ticks`; then the lock is released. */
void tstate_fork_child(struct tstate *self, uint32_t node_state, uint64_t now_ticks);

#endif
