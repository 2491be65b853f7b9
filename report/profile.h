/* profile.h: the analysed profile: one or more dumps merged, with the figures the pages show. */
#ifndef CALLPROF_PROFILE_H
#define CALLPROF_PROFILE_H

#include <stddef.h>
#include <stdint.h>

#include "pstat.h"
#include "run.h"

struct dump;

/*
 * profile_build merges dumps into one profile.  A function is the same
 * function in every thread and every dump when its module's base name, its
 * name and its source file agree (so several runs or forked children of one
 * program merge; two static functions of one name in different files do not),
 * and copies of one static function in one file are told apart by their line
 * and their code's offset (fnid.h).
 *
 * Views: the merged profile (every thread of every dump) and one view per
 * thread.  Times add up over threads, so "% of run" is a share of run_ns, the
 * profiled time of all threads: the sum of every function's self time, in
 * the same (compensated) terms as the figures, so self-time shares add up to
 * 100%.
 *
 * Lists are grouped by function in flat arrays with an offset and a count in
 * the function (compressed rows), each group sorted hottest first, so a page
 * for one function costs only what it shows.  Strings are borrowed from the
 * dumps, which must outlive the profile.
 *
 * The pages read a profile and nothing else: only profile_build reads the
 * dumps themselves (dump.h).
 */

/* The largest time a double may hold and still convert to uint64_t (just under 2^64). */
#define PROFILE_MAX_NS 1.8e19

/* A function's argument tuple or return value, over every dump that captured it. */
struct pvalue {
	char *text;            /* a call, "parse(depth=3, s=\"abc\")", or a return value, "-1" */
	uint64_t calls, error; /* counted calls, of which at most error were other values' */
	uint64_t timed_calls, incl_ns, min_ns, max_ns; /* a call's: those timed, and their time */
};

/* The arguments and return values CALLPROF_ARGS captured of one function (analyze_args.c). */
struct pargs {
	const char *refused; /* why nothing was captured, or NULL */
	const char *returns; /* its return type, NULL for void */
	uint64_t entries;    /* the bound each dump kept its entries to */
	uint64_t calls, returned_calls;
	size_t ntuples, nreturned;
	struct pvalue *tuples;   /* most calls first */
	uint32_t *by_time;       /* tuples' indices, most inclusive time first */
	struct pvalue *returned; /* most calls first */
};

struct pfunc {
	const char *name;             /* demangled name */
	const char *module;           /* base name of its module, or NULL */
	const struct run_module *mod; /* its module in the first dump that has it, or NULL */
	const char *file;             /* source file or NULL */
	uint64_t line;                /* 0 when unknown */
	const char *code;             /* its module's build-id or path (fnid_code), or NULL */
	uint64_t offset;              /* from its module's load address; valid when has_offset */
	int has_offset;
	int same_name;   /* how it must be told from others of its name (enum pfunc_same) */
	int library;     /* a library function: entered through a library probe (from
				   * instrumented code, through its GOT) in some dump */
	struct pstat st; /* merged over every thread of every dump */
	size_t callers, ncallers; /* profile.by_callee[callers ..]: edges into this function */
	size_t callees, ncallees; /* profile.by_caller[callees ..]: edges out of it */
	size_t nodes, nnodes;     /* profile.fn_nodes[nodes ..]: its merged-tree nodes */
	size_t threads, nthreads; /* profile.fn_threads[threads ..]: its figures per thread */
	const char *front_end;    /* the front-end that probed it: "mfentry", "finstrument", or NULL
				   * (no dump says) */
	struct pargs *args;       /* its captured arguments, or NULL */
};

/*
 * Why an edge's call site names no line of its caller (dump-format.md, "site"):
 * the callee was inlined into the caller, whose own return address its probe
 * got; or the call came from code outside the caller (a callback through
 * uninstrumented code, such as a comparator called by libc's qsort).
 */
enum psite { PSITE_LINE, PSITE_INLINED, PSITE_OUTSIDE };

/* One caller -> callee edge, merged. */
struct pedge {
	int32_t caller; /* function index, -1 for a root call */
	uint32_t callee;
	uint64_t calls, incl_ns, self_ns;
	uint64_t cpu_ns; /* of incl_ns, on a CPU (all of it where no dump measured CPU time) */
	const char *call_file; /* where the first call was made, or NULL */
	uint64_t call_line;
	enum psite site; /* why call_file is NULL, where the dump says */
};

/* An edge's figures on one thread (pthread.edges). */
struct pfedge {
	uint32_t edge; /* index into profile.edges */
	uint64_t calls, incl_ns, self_ns;
};

/* One calling-context tree node; parents come before children. */
struct pnode {
	int32_t parent; /* node index, -1 for a root */
	uint32_t fn;    /* function index */
	uint64_t calls, incl_ns, self_ns;
	uint64_t cpu_ns, cpu_self_ns; /* of those, on a CPU (pstat.h) */
	uint64_t timed_calls; /* sampled timing: own-timed calls (all of them: exact figures) */
	double incl_var;      /* ... and the variance of incl_ns, ns^2 (0: exact) */
};

/* A calling-context tree with its children lists sorted by weight. */
struct ptree {
	size_t n;
	struct pnode *nodes;
	size_t *kid_off; /* n + 1 offsets into kids */
	uint32_t *kids;  /* node i's children: kids[kid_off[i] .. kid_off[i + 1]), heaviest first */
	size_t nroots;
	uint32_t *roots;     /* root nodes, heaviest first */
	uint64_t total;      /* summed weight of the roots */
	int by_calls;        /* weights are calls, not time (a dump taken with the clock off) */
	uint64_t *sub_calls; /* the calls of each node's subtree, itself included */
};

/* pnode_se: the standard error of node n's inclusive time, ns, or -1 when it is exact (every
 * call timed). */
int64_t pnode_se(const struct pnode *n);

/*
 * ptree_weight: what sizes node i in trees and flame graphs: its inclusive
 * time, or without a clock the calls made on its subtree (so, like time, a
 * node weighs at least as much as its children together).
 */
static inline uint64_t ptree_weight(const struct ptree *t, size_t i)
{
	return t->by_calls ? t->sub_calls[i] : t->nodes[i].incl_ns;
}

/* The functions of one module (by base name), added up: where the run's self time went. */
struct pmodule {
	const char *name; /* base name of the module, or NULL when unknown */
	uint64_t self_ns; /* its functions' self time: they add up to profile.run_ns */
	uint64_t calls;
	size_t nfuncs;
	int library; /* every function of it is a library function: a library, not the program's */
};

/* A function's figures on one thread. */
struct pfstat {
	uint32_t
		fn; /* function index (in the flat lists of a thread) or thread index (in fn_threads) */
	struct pstat st;
};

/* One thread of one dump. */
struct pthread {
	size_t run;  /* index into profile.runs: the dump it comes from */
	int64_t pid; /* its process: its own in a merged dump, else its dump's */
	int64_t tid;
	const char *name; /* NULL when the dump has none */
	uint64_t counters
		[RUN_COUNTERS]; /* what the runtime dropped, folded, closed (enum run_counter) */
	int running;            /* still running when the dump was written */
	uint64_t wall_ns;
	uint64_t
		runq_wait_ns; /* of it, waiting for a CPU (a loaded machine); valid when has_wait */
	int has_wait;
	uint64_t run_ns;     /* what "% of run" means on this thread's pages: summed self time */
	uint64_t raw_run_ns; /* the same without compensation (at least wall_ns) */
	uint64_t calls;      /* all calls on the thread */
	uint64_t cpu_run_ns; /* of run_ns, on a CPU: its functions' CPU self time */
	int32_t folded_first_fn; /* the first function whose path was folded (node budget), or -1 */
	size_t nfuncs;
	struct pfstat *funcs; /* the functions that ran on it, by self time */
	size_t nedges;
	struct pfedge *edges; /* its edges, in the dump's order */
	struct ptree tree;
};

struct profile {
	const struct run **runs; /* what each dump says about its run, in command-line order */
	size_t nruns;
	size_t nfuncs;
	struct pfunc *funcs;
	uint32_t *by_self;         /* function indices by self time, then inclusive, then name */
	uint32_t *by_incl;         /* function indices by inclusive time */
	uint32_t *by_cpu_self;     /* with CPU time (has_cpu): by CPU self time, then as by_self */
	uint32_t *by_off_cpu_self; /* ... and by self time off the CPU; else NULL */
	size_t nedges;
	struct pedge *edges;
	uint32_t *by_caller; /* edge indices grouped by caller, heaviest first */
	uint32_t *by_callee; /* edge indices grouped by callee, heaviest first */
	uint32_t *fn_nodes;  /* merged-tree node indices grouped by function, heaviest first */
	struct pfstat *
		fn_threads; /* per-thread figures grouped by function (fn = thread index), by self time */
	size_t nthreads;
	struct pthread *threads;
	struct ptree tree;   /* merged over every thread of every dump */
	uint64_t run_ns;     /* summed run_ns of all threads */
	uint64_t raw_run_ns; /* summed raw_run_ns of all threads */
	uint64_t calls;      /* all calls */
	uint64_t wall_ns;    /* the longest wall time of the dumps */
	size_t nmodules;
	struct pmodule *modules; /* by self time, heaviest first */
	uint64_t library_calls;  /* calls a library probe followed, all dumps */
	int library_probes;      /* 1: some dump probed library calls; 0: the dumps say they did not
				 * (off, or unavailable); -1: the dumps do not say (older runtimes) */
	double overhead_ns;      /* estimated cost of the probes (calls x calibrated cost) */
	double probe_ns;        /* the probes' cost per call (o_in + o_out), averaged over the calls
				 * that read the clock plainly */
	double fenced_probe_ns; /* the same for calls read with fences (tsc-adaptive); 0 if none */
	double library_probe_ns; /* the same for calls a library probe followed; 0 if none */
	double fentry_probe_ns;  /* the same for calls of the -pg -mfentry front-end; 0 if none */
	double fentry_o_in_ns;   /* of which inside the callee's own interval */
	double o_in_ns;      /* of which inside the callee's own interval; 0 when no dump says */
	int has_overhead;    /* some dump had a calibration figure */
	int compensated;     /* the figures have the probes' cost subtracted (some dump says so) */
	int has_cpu;         /* some dump measured CPU time beside wall time (pstat.has_cpu) */
	uint64_t cpu_run_ns; /* of run_ns, on a CPU: summed cpu_run_ns of all threads */
	uint64_t clamped;    /* compensated figures the runtime clamped at 0, all dumps */
	int processes; /* threads of several processes: labels name the pid (several dumps, or a merged one) */
};

/* profile_args: gives each function of p the arguments the dumps captured of it (analyze_args.c). */
void profile_args(struct profile *p, const struct dump *dumps, uint32_t *const *map);

/* profile_args_release frees what profile_args made. */
void profile_args_release(struct profile *p);

/*
 * profile_cpu_tree: a copy of t weighed by CPU time (the flame graph of CPU
 * time): each node's self time is its CPU self time, its inclusive time that
 * and its children's (so a child never outweighs its parent, as the dump's
 * own CPU inclusive times may where a callee's CPU share was assumed: see
 * dump-format.md).  profile_tree_release frees it.
 */
void profile_cpu_tree(const struct ptree *t, struct ptree *out);
void profile_tree_release(struct ptree *t);

/* profile_build: 0, or -1 after printing one line (too large for 32-bit indices). */
int profile_build(struct profile *p, const struct dump *dumps, size_t ndumps);

/*
 * pfunc_tell appends, as plain text, what tells f from the other functions of
 * its name ("util.c", "dup.h:3", "dup.h:3 @0x1230"; fnid_tell), or nothing
 * when its name is its own (same_name 0).
 */
struct buf;
void pfunc_tell(struct buf *out, const struct pfunc *f);

/* pfunc_put_tell: the same as " (TELL)" after a name, through put (fnid_put_tell), or nothing. */
void pfunc_put_tell(struct buf *out, const struct pfunc *f,
		    void (*put)(struct buf *, const char *));

/* pfunc_file_base: the base name of f's source file, or NULL. */
const char *pfunc_file_base(const struct pfunc *f);

/* profile_release frees what p holds (not the dumps). */
void profile_release(struct profile *p);

#endif
