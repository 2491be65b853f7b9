/* run.h: what a dump says about the run as a whole and about its threads' health: filled by the
 * loader, shown by the pages as it is (struct profile points at it). */
#ifndef CALLPROF_RUN_H
#define CALLPROF_RUN_H

#include <stddef.h>
#include <stdint.h>

#include "pstat.h"

/*
 * These structs hold a dump's own facts, which nothing merges: its program
 * and arguments, its clock and calibration, its warnings, its modules.  The
 * loader fills one struct run per dump (dump.h); a profile keeps a pointer to
 * each (profile.h), so the pages read them without knowing how a dump is
 * stored.  Optional keys the dump does not have are flagged with has_* and
 * read as 0 / NULL.  All strings belong to the run (run_release frees them).
 */

/* A function a module has but no thread called (modules[].uncalled[]). */
struct run_uncalled {
	char *name;
	char *file;                          /* NULL without debug information */
	uint64_t line;                       /* 0 when unknown */
	char *offset;                        /* "0x1136" from the module's load address, or NULL */
	unsigned name_nul : 1, file_nul : 1; /* as dump_function's (dump.h) */
};

/* What the library probes did to an instrumented module's jump slots (modules[].library_calls). */
struct run_libcalls {
	uint64_t slots, probed; /* its jump slots, and those pointed at a library probe */
	size_t nlazy;
	char **lazy; /* functions whose slot was still lazily bound: their calls not probed */
	size_t nthrough;
	char **through_got; /* functions called through a GOT entry, not a jump slot: not probed */
};

struct run_module {
	char *path;                /* module path; NULL when the dump has none */
	char *build_id;            /* hex build-id or NULL */
	uint64_t symtab_functions; /* functions in its symbol table, 0 when absent */
	size_t nuncalled;
	struct run_uncalled *uncalled;
	int has_libcalls; /* the dump has library_calls for it */
	struct run_libcalls libcalls;
};

/* One side of a metering: its metered calls and their probes' mean cost inside
 * the callee and outside. */
struct run_metered_side {
	uint64_t samples;
	double in_ns, out_ns;
};

/* What one kind of call's probes cost in the program beyond calibration's loop
 * (calibration.metered and its kin): the program's side less the loop's. */
struct run_metered {
	struct run_metered_side program, loop;
	unsigned has : 1;
};
#define RUN_METERED_KINDS 3 /* plain, fentry, library: load_header.c's keys */
extern const char *const run_metered_keys[RUN_METERED_KINDS];

struct run {
	char *path;    /* the dump file as named on the command line */
	char *date;    /* "start_time" (or "date"), else the file's mtime, local time */
	char *program; /* program.path or NULL */
	size_t argc;
	char **argv; /* program.argv, argc strings */
	int64_t pid;
	char *clock_source; /* "tsc", "monotonic", "none" ... or NULL */
	uint64_t ticks_per_second;
	uint64_t sample_rate; /* clock.sample_rate: sampled timing's one call in R timed; 0: every
			       * call timed (clock.timing "all", or not said) */
	uint64_t timed_first; /* clock.timed_first: each context's calls all timed first */
	double per_call_ns;   /* calibration: probe cost per call */
	double o_in_ns, o_out_ns; /* calibration: the part inside / outside the callee */
	double fenced_o_in_ns,
		fenced_o_out_ns; /* calibration under tsc-adaptive: the same for a fenced read */
	double fentry_o_in_ns,
		fentry_o_out_ns; /* calibration of the -pg -mfentry front-end's calls */
	double library_o_in_ns,
		library_o_out_ns; /* calibration: the same for a call a library probe followed */
	double unrecorded_ns[UNREC_KINDS]; /* calibration: a call not recorded, whole, per
					    * front-end (pstat.h); valid where has_unrecorded */
	unsigned has_unrecorded;           /* bit k: unrecorded_ns[k] was given */
	double untimed_ns; /* calibration under sampled timing: a call left untimed, whole (its
			    * probes are in no figure, only in the run); valid when has_untimed */
	/* calibration.metered (plain calls), fentry_metered, library_metered: what each
	 * kind's probes cost in the program beyond calibration's loop. */
	struct run_metered metered[RUN_METERED_KINDS];
	uint64_t wall_ns;
	unsigned has_pid : 1, has_per_call : 1, has_o_in : 1, has_o_out : 1, has_wall : 1;
	unsigned has_fenced_o_in : 1, has_fenced_o_out : 1, has_fentry_o_in : 1,
		has_fentry_o_out : 1;
	unsigned has_library_o_in : 1, has_library_o_out : 1, has_untimed : 1;
	char *library_probes; /* "on", "off", "unavailable" (the static archive), or NULL: an older dump */
	int compensated;          /* calibration.compensated: 1, 0, or -1 when absent */
	uint64_t clamped_figures; /* compensated figures clamped at 0 */
	uint64_t
		threads_lost; /* threads the runtime could not profile (no memory for their state) */
	uint64_t lost_calls;  /* the calls those threads made */
	size_t nwarnings;
	char **warnings;           /* free-text lines the runtime left in "warnings" */
	char *cut_short;           /* cut_short.name: the signal that ended the run, or NULL */
	char *clock_note;          /* clock.note: why the clock is not the one asked for, or NULL */
	uint64_t clock_stopped_ns; /* clock.stopped_ns: when the program stopped the clock */
	uint64_t refused_dumps;    /* callprof_dump() calls refused in a signal handler */
	unsigned has_clock_stopped : 1;
	size_t nmodules;
	struct run_module *modules;
};

/* Counters a thread may carry (dump-format.md, "Per thread"); 0 when absent. */
enum run_counter {
	RUN_DROPPED_CALLS,   /* calls not recorded (signal, no room) */
	RUN_RESYNCED_FRAMES, /* activations closed without their exit probe */
	RUN_UNMATCHED_EXITS, /* exit probes with no open activation */
	RUN_CLOSED_AT_EXIT,  /* activations open when the thread ended */
	RUN_OPEN_FRAMES,     /* activations open at the dump */
	RUN_FOLDED_CALLS,    /* calls folded to one level of context (node budget) */
	RUN_DROPPED_IN_SIGNAL, /* of the dropped calls: a signal handler's probe interrupted another */
	RUN_DROPPED_NO_ROOM, /* of the dropped calls: shadow-stack limit or no memory */
	RUN_TREE_NODES,      /* nodes of the thread's call tree, as the runtime counted them */
	RUN_MAX_NODES,       /* the node budget, when calls were folded */
	RUN_DROPPED_AT_END,  /* of the dropped calls: new call paths after the last dump began */
	RUN_UNDECIDED_CALLS, /* calls not recorded: their module's filter verdicts were not made yet */
	RUN_COUNTERS
};

/* The JSON key of each counter, in enum order ("dropped_calls", ...). */
extern const char *const run_counter_keys[RUN_COUNTERS];

/*
 * run_args appends r's arguments argv[first..] joined by spaces, as plain
 * text, cut after max_bytes (on a character boundary) with
 * " … (N bytes more)": a program's arguments may be megabytes, and a page or
 * a job summary should not be.  RUN_ARGS_MAX is what the pages show.
 */
#define RUN_ARGS_MAX 1000
struct buf;
void run_args(struct buf *out, const struct run *r, size_t first, size_t max_bytes);

/* run_program_base: the base name of r's program (its path, else argv[0]), or NULL. */
const char *run_program_base(const struct run *r);

/* run_release frees what r holds and empties it. */
void run_release(struct run *r);

/* run_parse_offset reads a code offset as the dump writes it ("0x1136"): 1 and *out, or 0 when s is NULL or no such number. */
int run_parse_offset(const char *s, uint64_t *out);

#endif
