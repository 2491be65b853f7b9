/*
 * kind.h: the kinds of probe whose costs are calibrated apart.  A call is of
 * one kind (how its probes ran: plain clock reads, fenced ones, ...); each
 * tree node counts its calls of every kind but the first, compensation
 * subtracts each kind's own cost, and the dump names the kinds by `name`.
 *
 * Adding a kind: an enumerator before PROBE_KINDS and its row in
 * PROBE_KIND_NAMES, the stamp policy that makes calls of it (stamp.h), and
 * its calibration target (calib.c).  The dump then writes `<name>_calls` per
 * function and `<name>_o_in_ns`, `<name>_o_out_ns` in its calibration.
 */
#ifndef CALLPROF_KIND_H
#define CALLPROF_KIND_H

enum probe_kind {
	PROBE_PLAIN,   /* the default: a plain clock read each side (or none) */
	PROBE_FENCED,  /* tsc-adaptive's fenced reads (stamp.h) */
	PROBE_FENTRY,  /* plain reads by the -pg -mfentry front-end, whose exit is a
			* hijacked return (fentry.c, hijack.h) */
	PROBE_LIBRARY, /* a call into a library through a patched GOT slot (libcall.h):
			* its stub's and the return trampoline's work cost more */
	PROBE_COUNTED, /* counted without a frame, so with no time of their own (a
			* call whose return could not be hijacked): never calibrated,
			* their probes' cost stays in the caller's time */
	PROBE_KINDS
};

/* The dump's name of each kind, in enum order. */
#define PROBE_KIND_NAMES                                          \
	{                                                         \
		"plain", "fenced", "fentry", "library", "counted" \
	}

/* The kinds below this one are those of the front-ends' calls (PROBE_FENCED
 * the plain front-end's under tsc-adaptive): what a call not recorded is
 * counted by (cct.h's unrecorded_calls).  Calls of kind PROBE_COUNTED are
 * always recorded. */
#define PROBE_FRONT_KINDS (PROBE_LIBRARY + 1)

/* A set of kinds, as bits (1u << kind). */
typedef unsigned probe_kind_set;

/* The kinds some call of this process was of, besides the clock's (stamp_kinds):
 * the front-ends that make them add their bit the first time they do (cold). */
extern probe_kind_set probe_kinds_seen;

#endif
