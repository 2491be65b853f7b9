/* pstat.h: the figures of one function over a set of calls, as a dump gives them per thread and
 * as a profile adds them up over threads and dumps. */
#ifndef CALLPROF_PSTAT_H
#define CALLPROF_PSTAT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/*
 * u64_add: a + b, saturating at UINT64_MAX.  Every figure is below 2^63 as
 * loaded, but sums over functions, threads and dumps of a hostile dump are
 * not: they stop at the largest value rather than wrap to a small one.
 */
static inline uint64_t u64_add(uint64_t a, uint64_t b)
{
	return a + b < a ? UINT64_MAX : a + b;
}

/* The front-ends whose calls a filter or depth limit may leave unrecorded, and the
 * prefix of their dump keys: unrecorded_calls, fentry_unrecorded_calls, ... */
enum unrec_kind { UNREC_PLAIN, UNREC_FENTRY, UNREC_LIBRARY, UNREC_KINDS };

/* The dump key of front-end k's unrecorded `what` ("calls", "ns"): unrecorded_calls,
 * fentry_unrecorded_ns, ... */
static inline const char *unrec_key(char *buf, size_t size, unsigned k, const char *what)
{
	static const char *const prefix[UNREC_KINDS] = { "", "fentry_", "library_" };

	snprintf(buf, size, "%sunrecorded_%s", prefix[k], what);
	return buf;
}

/*
 * Figures of one function over some set of calls.  A new per-function figure
 * goes here, into the loader's table of fields (load_check.c) and into
 * pstat_add.
 */
struct pstat {
	uint64_t calls;
	uint64_t incl_ns, self_ns; /* compensated */
	uint64_t raw_incl_ns,
		raw_self_ns;     /* as measured; equal to the above when the dump has no raw_* */
	uint64_t min_ns, max_ns; /* shortest and longest call; valid when has_minmax */
	uint64_t fenced_calls;   /* of the calls, those read with fences; valid when has_fenced */
	uint64_t library_calls;  /* of the calls, those a library probe followed (its own cost) */
	uint64_t fentry_calls;   /* of the calls, those the -pg -mfentry front-end timed (0 when the
					      * dump does not say) */
	uint64_t counted_calls;  /* of the calls, those counted without a time of their own (past
					      * the stack limit, on a coroutine's stack: -pg -mfentry) */
	uint64_t unrecorded_calls[UNREC_KINDS]; /* calls it made that were not recorded (filtered
						 * out, too deep), by front-end: not among its
						 * calls; their probes ran in its self time */
	uint64_t timed_calls; /* sampled timing: of the calls, those its estimate was taken from
			       * (own-timed); valid when has_timed */
	uint64_t incl_se_ns, self_se_ns; /* sampled timing: the standard errors of the
					  * estimates (of the raw and compensated figures alike) */
	uint64_t cpu_calls;              /* of the calls, those that read the CPU clock */
	uint64_t cpu_ns, cpu_self_ns;    /* of incl_ns and self_ns, the time on a CPU (the rest
					  * blocked, asleep or preempted): equal to them when the
					  * dump does not say */
	uint64_t capture_ns; /* what capturing its calls' arguments cost (CALLPROF_ARGS), outside
			      * its times, taken out of its callers'; 0: none */
	unsigned has_minmax : 1;
	unsigned has_fenced : 1; /* the dump said how many calls were fenced (tsc-adaptive) */
	unsigned has_timed : 1;  /* the times are sampled timing's estimates (dump-format.md) */
	unsigned has_cpu : 1;    /* the dump measured CPU time (dump-format.md, "CPU time") */
};

/* pstat_off_cpu_self: the self time its own code spent off a CPU (blocked, asleep, waiting to
 * run): the loader keeps cpu_self_ns at most self_ns. */
static inline uint64_t pstat_off_cpu_self(const struct pstat *st)
{
	return st->self_ns - st->cpu_self_ns;
}

/* pstat_add adds the figures of from to those of to (saturating; min and max where both have
 * them; standard errors as independent errors add, the root of their squares' sum). */
void pstat_add(struct pstat *to, const struct pstat *from);

/*
 * pstat_doubtful: compensation took more than half of a raw figure: the probes
 * cost about as much as the code measured, so the figure is least trustworthy.
 */
static inline int pstat_doubtful(uint64_t raw_ns, uint64_t ns)
{
	return raw_ns > ns && raw_ns - ns > raw_ns / 2;
}

#endif
