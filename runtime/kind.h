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
	PROBE_PLAIN,  /* the default: a plain clock read each side (or none) */
	PROBE_FENCED, /* tsc-adaptive's fenced reads (stamp.h) */
	PROBE_LIBRARY, /* a call into a library through a patched GOT slot (libcall.h): its
			* stub, the saved registers and the return trampoline cost more */
	PROBE_KINDS
};

/* The dump's name of each kind, in enum order. */
#define PROBE_KIND_NAMES { "plain", "fenced", "library" }

/* A set of kinds, as bits (1u << kind). */
typedef unsigned probe_kind_set;

#endif
