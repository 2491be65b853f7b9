/*
 * tstate.h: per-thread profiler state: the shadow stack, the calling-context
 * tree and the counters of what had to be dropped or resynchronised.
 *
 * A thread gets its state on its first probe (tstate_attach, cold) through an
 * initial-exec TLS pointer.  States are never freed: a finished thread's tree
 * stays in the registry for the dump at process exit.
 */
#ifndef CALLPROF_TSTATE_H
#define CALLPROF_TSTATE_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "cct.h"
#include "shadow.h"

struct tstate {
	struct shadow stack;
	volatile sig_atomic_t busy; /* a probe is running: a probe of a signal handler drops */
	bool off;                   /* profiling is off: every probe returns at once */
	uint32_t dropped_depth;     /* dropped enters whose exits are still to come */
	uintptr_t dropped_sp;       /* frame address of the outermost such enter */
	uint64_t dropped_calls;     /* enters dropped: a probe interrupted by a signal's */
	uint64_t dropped_no_room;   /* enters dropped: stack limit reached or no memory for a node */
	uint64_t resyncs;           /* frames closed without their exit probe */
	uint64_t unmatched_exits;   /* exits with no open frame of their function */
	uint64_t closed_at_exit;    /* frames still open when the thread ended */
	struct cct tree;
	uint64_t t_start_ticks;     /* first probe on the thread */
	uint64_t t_end_ticks;       /* thread end, when finished */
	int tid;
	int exit_rounds;            /* thread-exit destructor rounds seen */
	bool finished;              /* the thread has ended */
	bool is_main;               /* the process's initial thread */
	char name[16];              /* the thread's name when it ended */
	struct tstate *next;        /* registry link, newest first */
};

/* This thread's state; NULL until its first probe. */
extern __thread struct tstate *tstate_self __attribute__((tls_model("initial-exec")));

/* Creates this thread's state (cold: the first probe on a thread).  Never NULL:
 * when profiling is off or no memory is left it is a shared state that is off. */
struct tstate *tstate_attach(void);

/*
 * The probes' slow paths, each called in tail position from hooks.c.
 * tstate_enter_unready: the thread has no state yet, or a probe is running
 * (a signal handler's probe: dropped and counted; its exit returns at once).  tstate_enter_general and
 * tstate_exit_general run with `busy` set and clear it: dead frames, a full
 * stack, a new call path; an exit that is not the top frame's (skipped for a
 * dropped enter, else the frames above its function's are closed first).
 */
void tstate_enter_unready(struct tstate *t, uintptr_t fn, uintptr_t call_site, uintptr_t sp);
void tstate_enter_general(struct tstate *t, uintptr_t fn, uintptr_t call_site, uintptr_t sp);
void tstate_exit_general(struct tstate *t, uintptr_t fn, uint64_t now_ticks);

/* A state outside the registry, for calibration; NULL without memory. */
struct tstate *tstate_create(void);
void tstate_destroy(struct tstate *t);

/* The registry of every state, locked while walked. */
struct tstate *tstate_lock_all(void);
void tstate_unlock_all(void);
/* The registry's head while the caller already holds the lock. */
struct tstate *tstate_lock_all_held(void);

/* Process set-up: the thread-exit key and the fork handlers.  Called once by process_init. */
void tstate_setup(void);

#endif
