/*
 * meter.h: the probes' cost measured in the running program, not only in
 * calibration's private loop (calib.h), whose tree, code and branches sit hot
 * in their caches.  A program's probes find them colder, and how much colder
 * changes from run to run: on this project's VMs, the same Lua run's probes
 * cost 20 ns a call in one run and 25 in the next, while calibration's loop
 * read 20 in both (bench/FINDINGS.md).
 *
 * So one call in about CALLPROF_METER (2048) of a thread's, at random, is
 * metered: its enter probe reads the clock once more on entering and once
 * more before returning, its exit probe likewise, and each probe is split at
 * its own timestamp into the part inside the call's interval and the part
 * outside (o_in and o_out, calib.h).  Calibration meters its loop the same
 * way, so the difference between the two means is what the program's caches
 * and branches add to the probes, the extra reads' own cost cancelling out;
 * the dump's calibration adds it to the plain kind's o_in and o_out, and
 * gives both means.  The reads are plain, as the probe's own: fenced ones
 * would serialize the probe and expose the latency of every miss that the
 * core, unfenced, runs beside other work, and so read more than the probe
 * costs.  Each read is taken inline in the probe, not in cold code, whose
 * own cache misses would count.
 *
 * Every front-end's fast paths are metered, one countdown for all, and each
 * kind of call (kind.h: plain, fentry, library) has its sums, set beside its
 * own calibration target's.  The metered call pays four more clock reads, one
 * call in 2048: about 0.02 ns a call, left in the times.  Only under the
 * plain TSC clock (tsc): the reads split at the probe's own plain timestamps.
 *
 * Under sampled timing (stamp.h) the calls whose probes' parts lie in a
 * measured time are the lent ones: a lent call's o_out lies in its own-timed
 * caller's self time, and a lent call's o_in is an own-timed one's.  An
 * untimed call has no timestamp to split at; an own-timed one made under a
 * caller that reads no clock pays its o_out in no time.  So only lent calls
 * are metered, and not as above: a metered call whose first read followed a
 * branch taken once in 2048 calls would leave the probe's own branches (is
 * the caller own-timed? is this call lent?) to a predictor that had never seen
 * them after that one, and they would be mispredicted where in the unmetered
 * call they are not.  On jq that made a metered lent call's o_out 12 to 16 ns
 * dearer than the calls it stands for, and `main` read 0 (bench/FINDINGS.md).
 * Instead the enter probe reads the first clock for every call its caller will
 * lend (stamp_will_lend, asked before anything else of the probe's: the test
 * the probe makes anyway, on the same frame), and counts the call down only
 * after its own timestamp; a call due that was not read waits for the next
 * one that is.  That read costs every lent call a clock read, in the program
 * and in calibration's loops alike, so calibration charges it.  Each sample
 * weighs as many calls as its caller makes per own-timed one (meter.c), as
 * the estimates weigh its caller's self time.
 *
 * A metered call whose probes leave the fast path (a new call path, a
 * mismatched exit, unwinding) gives no sample; the calls of a signal handler
 * that interrupted a probe (tstate.sig) are not metered.
 *
 * The hot path: a decrement and a test in the enter probe (under sampled
 * timing, a test of the caller's frame as well), a compare and a test in the
 * exit probe; everything else is cold.  meter.c is built with
 * general registers only, as the hijacking front-ends' fast paths that call
 * it (hijack.h); what takes floating point is in meter_stats.c.
 */
#ifndef CALLPROF_METER_H
#define CALLPROF_METER_H

#include <stdbool.h>
#include <stdint.h>

#include "clock.h"
#include "compat.h"
#include "kind.h"
#include "shadow.h"
#include "stamp.h"
#include "tstate.h"

/* The parts of a metered call's probes, each from a meter's read to the
 * probe's own timestamp or back. */
enum meter_part {
	METER_ENTER_OUT, /* enter probe, before the call's entry timestamp: o_out */
	METER_ENTER_IN,  /* enter probe, after it: o_in */
	METER_EXIT_IN,   /* exit probe, before the call's exit timestamp: o_in */
	METER_EXIT_OUT,  /* exit probe, after it: o_out */
	METER_PARTS
};

/* The samples of one place (the program, or calibration's loop). */
struct meter_sums {
	uint64_t samples;   /* metered calls that gave a sample */
	uint64_t discarded; /* ... and that gave one no probe takes so long (an interrupt,
			     * a preemption: a part over METER_CAP_TICKS) */
	uint64_t weight;    /* the samples' weights summed, in METER_WEIGHT_ONE units */
	/* Each part's ticks, each sample's times its weight. */
	uint64_t ticks[METER_PARTS];
};

/* A sample's weight that counts it once (meter.c: a weight has this resolution). */
#define METER_WEIGHT_ONE 16u

/* A part longer than this was interrupted: some microseconds at any TSC rate
 * (known only later), where a probe's part takes tens of nanoseconds. */
#define METER_CAP_TICKS 8192u

/* The program's samples, every thread's (cold atomic adds), per kind of call. */
extern struct meter_sums meter_program[PROBE_KINDS];

/* Starts metering the calls on `t` (a thread's state, or calibration's), into
 * `sink` (one meter_sums per kind of call), one in `period` on average (a
 * period of 1: every call).  Nothing happens unless the clock is the plain TSC
 * (sampled or not). */
void meter_arm(struct tstate *t, struct meter_sums *sink, uint32_t period);

/* The samples a place needs before its means are taken (meter_extra). */
#define METER_MIN_SAMPLES 64

/* Whether a place's samples are enough for its means to be taken. */
static inline CP_NOINSTR bool meter_enough(const struct meter_sums *m)
{
	return m->samples >= METER_MIN_SAMPLES;
}

/* meter_stats.c.  The mean of part `p` of one place's metered probes,
 * weighted, in ticks. */
double meter_part_mean(const struct meter_sums *m, enum meter_part p);

/* The means of parts `a` and `b`, summed. */
double meter_mean(const struct meter_sums *m, enum meter_part a, enum meter_part b);

/* What the program's probes cost beyond the loop's, inside a call's interval
 * (`in`) and outside it (`out`), in ticks; false, leaving them, when either
 * has fewer than METER_MIN_SAMPLES samples. */
bool meter_extra(const struct meter_sums *program, const struct meter_sums *loop, double *in,
		 double *out);

/* The cold halves: the enter probe of a metered call of kind `kind` is done
 * (the frame it pushed is on top, meter_e2 read); the exit probe of one is
 * done (`f`, its frame, just popped; `now`, its exit timestamp; `x2`, read
 * after). */
void meter_entered(struct tstate *t, enum probe_kind kind);
void meter_exited(struct tstate *t, const struct frame *f, uint64_t now, uint64_t x2);

/* A metered enter that left the fast path: no sample, a new countdown. */
void meter_enter_abandoned(struct tstate *t);

/* For an enter probe's fast path that gives up (the call goes to its slow
 * path, or needs no frame), `read` from meter_enter_begin: a metered one is
 * abandoned (under sampled timing none was counted down yet). */
static inline CP_NOINSTR void meter_enter_off(struct tstate *t, bool read)
{
	if (unlikely(read) && !frames_sampled)
		meter_enter_abandoned(t);
}

/* At the top of the enter probe's fast path, the state held, `caller` the
 * frame the call is made under: true when the meter's first read is taken,
 * for meter_enter_end.  Under every call timed, for the call the countdown
 * comes to; under sampled timing, for every call `caller` will lend. */
static inline CP_NOINSTR bool meter_enter_begin(struct tstate *t, const struct frame *caller)
{
	if (frames_sampled) {
		if (!stamp_will_lend(caller))
			return false;
	} else if (likely(--t->meter_left != 0)) {
		return false;
	}
	t->meter_e0 = clock_tsc_read();
	return true;
}

/* At the end of the enter probe's fast path, its frame pushed and stamped:
 * a call of kind `kind`, `read` from meter_enter_begin.  Under sampled
 * timing the countdown is here, after the probe's own branches; a call it
 * comes to with no first read leaves it to the next one. */
static inline CP_NOINSTR void meter_enter_end(struct tstate *t, bool read, enum probe_kind kind)
{
	if (frames_sampled) {
		if (likely(--t->meter_left != 0))
			return;
		if (!read) {
			t->meter_left = 1;
			return;
		}
	} else if (likely(!read)) {
		return;
	}
	t->meter_e2 = clock_tsc_read(); /* here, not in meter_entered's cold code */
	meter_entered(t, kind);
}

/* At the top of the exit probe's fast path, the state held: true when this
 * exit may close the metered call (its first read taken), for meter_exit_end. */
static inline CP_NOINSTR bool meter_exit_begin(struct tstate *t)
{
	if (likely(t->meter_at != t->stack.depth))
		return false;
	t->meter_x0 = clock_tsc_read();
	return true;
}

/* At the end of the exit probe's fast path, its frame `f` popped. */
static inline CP_NOINSTR void meter_exit_end(struct tstate *t, bool metered, const struct frame *f,
					     uint64_t now)
{
	if (unlikely(metered))
		meter_exited(t, f, now, clock_tsc_read());
}

#endif
