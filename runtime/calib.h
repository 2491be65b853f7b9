/*
 * calib.h: the measured cost of the probes themselves, for compensation.
 *
 * For a call of g from f, part of the probe cost falls inside g's own
 * interval (o_in: after g's entry timestamp, before its exit timestamp) and
 * part outside it but inside f's (o_out).  calib_run() measures both, for
 * each kind of call the clock makes (kind.h), by driving the real probes
 * (hooks.c, through the probe core) over a private instrumented function, on
 * a private thread state that no filter applies to; the lifecycle runs it
 * at start-up and again at the dump.  A call that is not recorded (filtered
 * out, deeper than CALLPROF_MAX_DEPTH) still runs its probes, on their slow
 * paths, all in its caller's time: that whole cost is measured apart, on the
 * same target with its leaf left unrecorded.  Under sampled timing an untimed
 * call's probes, which read no clock, are measured apart the same way, on the
 * target with its leaf's calls all left untimed; and o_in and o_out are those
 * of a lent call (stamp.h), timed for its own-timed caller but not for itself:
 * the timed callees whose o_out lies in an own-timed caller's self time, and
 * whose o_in it takes out with them, are nearly all such (a call is own-timed
 * one time in R), and an own-timed call's probes, which also pick its next
 * sample, cost a few nanoseconds more (bench/FINDINGS.md).  A lent call reads
 * the clock once more on entering (the meter's first read: meter.h), in the
 * loop as in the program: its o_out holds that read.
 */
#ifndef CALLPROF_CALIB_H
#define CALLPROF_CALIB_H

#include <stdbool.h>
#include <stdint.h>

#include "compensate.h"
#include "kind.h"
#include "meter.h"

/* One kind's cost per call, in ticks. */
struct calib_cost {
	bool measured;
	double o_in_ticks;  /* inside the callee's interval: what compensation uses */
	double o_out_ticks; /* outside the callee's, inside the caller's */
	double start_o_in_ticks, start_o_out_ticks; /* as measured at start-up */
	double end_o_in_ticks, end_o_out_ticks;     /* as measured at dump time (when `again`) */
	bool unrecorded_measured;
	double unrecorded_ticks; /* a call of this kind not recorded (filtered out, too deep):
				  * its probes' whole cost, in its caller's time */
	bool untimed_measured;
	double untimed_ticks; /* sampled timing: an untimed call's probes' whole cost */
	/* Its probes metered (meter.h): in calibration's loop, at each dump whose
	 * program had enough samples; in the program, as the dump found them; and,
	 * when both had enough (`metered`), what the program's cost beyond the
	 * loop's, which o_in_ticks and o_out_ticks include. */
	struct meter_sums meter_loop, meter_program;
	bool metered;
	double metered_in_ticks, metered_out_ticks;
};

struct calib {
	bool ran;             /* calib_run was called */
	bool done;            /* every kind the clock makes was measured; false: no figures
				  * (clock none, or no round had the expected shape) */
	bool again;           /* measured again at dump time too */
	probe_kind_set kinds; /* the kinds measured */
	struct calib_cost kind[PROBE_KINDS];
	uint32_t rounds; /* measurement rounds of plain calls that counted */
	uint32_t calls_per_round;
	uint64_t cost_ns;      /* time calibration took at start-up */
	uint64_t done_ns;      /* when it ended (clock_mono_ns) */
	double cpu_read_ticks; /* a call's two reads of the CPU clock and of the wall clock
				* beside them (cputime.h); 0: CPU time off */
	const char *method;    /* how the figures were measured, for the dump */
};

extern struct calib calib;

/* The costs of one kind as compensation takes them. */
struct comp_cost calib_comp_cost(const struct calib_cost *c);

/* Measures o_in and o_out of every kind the clock makes (cold; about a
 * millisecond), and gives them to the probes (probe_set_costs).  Needs the
 * process started (process.h). */
void calib_run(void);

/* Measures them again (at dump time) and uses the mean of both measurements,
 * unless the run was too short for that to be worth its cost (calib.c:
 * `again` stays false), to which each kind adds what its probes were metered
 * to cost in the program beyond calibration's loop (meter.h).
 * The kinds of a front-end some call used (probe_kinds_seen: -pg -mfentry),
 * not measured at start-up since no call was known to need them, are
 * measured now, once. */
void calib_again(void);

/* The instrumented target (calib_target.c, the one instrumented file of the
 * runtime): calls calib_leaf `n` times, threading `x` through. */
uint64_t calib_loop(uint32_t n, uint64_t x);
/* The same built with -pg -mfentry (calib_target_fentry.c), for calls of kind PROBE_FENTRY. */
uint64_t calib_loop_fentry(uint32_t n, uint64_t x);
/* The same loop over an uninstrumented twin of the leaf: the cost without probes. */
uint64_t calib_loop_plain(uint32_t n, uint64_t x);

/* A leaf with work of its own, for the fenced reads' costs: tsc-adaptive fences
 * only leaves that work, and how much of a fenced probe's cost shows depends on
 * whether the core has work to run beside the probe's first loads.  The work is
 * a chain of dependent multiply-adds, the same in both twins. */
#define CALIB_WORK(x)                                                      \
	for (int calib_i_ = 0; calib_i_ < 32; calib_i_++) {                \
		(x) = (x)*6364136223846793005ull + 1442695040888963407ull; \
		__asm__ __volatile__("" : "+r"(x));                        \
	}
uint64_t calib_loop_work(uint32_t n, uint64_t x);
uint64_t calib_loop_work_plain(uint32_t n, uint64_t x);

/* The library calls' cost (kind.h): calib_loop_lib calls the uninstrumented
 * leaf through the stub calib_lib_call points at (a library probe), the plain
 * twin calls it through a plain pointer. */
extern uint64_t (*calib_lib_call)(uint64_t x);
uint64_t calib_loop_lib(uint32_t n, uint64_t x);
uint64_t calib_loop_lib_plain(uint32_t n, uint64_t x);

#endif
