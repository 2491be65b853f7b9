/* dump.h: one profile dump (dump-format.md, "callprof" version 1) as plain C structs. */
#ifndef CALLPROF_DUMP_H
#define CALLPROF_DUMP_H

#include <stddef.h>
#include <stdint.h>

#include "buf.h"
#include "pstat.h"
#include "run.h"

/*
 * Loading turns the JSON into these structs and checks it on the way: the
 * rest of the tool never sees json-c.  Only the analysis (profile.h) reads
 * these structs; the pages read the profile.  Every id in the file is
 * replaced by an index into the arrays below, so a loaded dump is internally
 * consistent: fn, caller, callee, module and parent are always in range.
 * What a dump says about the run as a whole is a struct run (run.h).
 * Optional keys the dump does not have are flagged with has_* and read as
 * 0 / NULL.  All strings are owned by the dump and freed by dump_release.
 */

/* One entry of a value profile (functions[].args): an argument tuple or a return value. */
struct dump_value {
	char **values;         /* a tuple: one text per parameter; a return value: one text */
	uint64_t calls, error; /* counted calls, of which at most error were other values' */
	uint64_t timed_calls, incl_ns, min_ns, max_ns; /* a tuple's: the calls timed, their time */
};

/* functions[].args: the arguments and return values CALLPROF_ARGS captured. */
struct dump_args {
	char *refused; /* why nothing was captured; NULL when captured */
	size_t nparams;
	char **param_names, **param_types;
	int variadic;
	char *returns;    /* the return type, NULL for void */
	uint64_t entries; /* the profile's bound */
	uint64_t calls;   /* calls captured */
	uint64_t returned_calls;
	size_t ntuples, nreturned;
	struct dump_value *tuples, *returned;
};

struct dump_function {
	char *name;      /* demangled name, never NULL */
	int32_t module;  /* index into dump.run.modules, -1 when unknown */
	char *file;      /* source file or NULL */
	uint64_t line;   /* source line, 0 when unknown */
	char *address;   /* "0x401136" as written, or NULL */
	uint64_t offset; /* from its module's load address; valid when has_offset */
	unsigned has_offset : 1;
	int library; /* entered through a library probe: a function of an uninstrumented
			  * module called through an instrumented one's GOT ("library": true) */
	unsigned
		name_nul : 1; /* its name held a NUL: shown as "\0", every backslash doubled (load_string) */
	unsigned file_nul : 1;  /* the same for its file */
	char *front_end;        /* "mfentry", "finstrument", or NULL when the dump does not say */
	struct dump_args *args; /* NULL when CALLPROF_ARGS did not select it */
};

/* Per-function totals on one thread (threads[].functions[]). */
struct dump_fstat {
	uint32_t fn;     /* index into dump.functions */
	struct pstat st; /* calls, times, ...: the fields load_check.c reads */
};

/* One caller -> callee edge on one thread. */
struct dump_edge {
	int32_t caller;  /* index into dump.functions, -1 for a root call */
	uint32_t callee; /* index into dump.functions */
	uint64_t calls;
	uint64_t incl_ns;   /* non-nested activations of the edge */
	uint64_t self_ns;   /* the callee's self time while called from caller */
	char *call_file;    /* source file of the (first) call, or NULL */
	uint64_t call_line; /* its line, 0 when unknown */
	char *site; /* why no line is named: "inlined", "outside" (dump-format.md), or NULL */
	uint64_t cpu_calls, cpu_ns, cpu_self_ns; /* as pstat's: of incl_ns and self_ns, on a CPU
						 * (all of them when the dump has none) */
	unsigned has_cpu : 1;                    /* the dump measured CPU time (pstat.has_cpu) */
};

/* One calling-context tree node; parents come before their children. */
struct dump_node {
	int32_t parent; /* index into dump_thread.nodes, -1 for a root */
	uint32_t fn;    /* index into dump.functions */
	uint64_t calls, incl_ns, self_ns;
	uint64_t cpu_ns, cpu_self_ns; /* of those, on a CPU: equal to them without has_cpu */
	uint64_t timed_calls; /* sampled timing: own-timed calls; `calls` without has_timed */
	uint64_t incl_se_ns,
		self_se_ns; /* ... and the standard errors of the estimates (0: exact) */
};

struct dump_thread {
	int64_t tid;           /* 0 when absent */
	char *name;            /* NULL when absent */
	uint64_t wall_ns;      /* 0 when absent */
	uint64_t runq_wait_ns; /* time it waited for a CPU; valid when has_wait */
	int64_t pid;           /* its process (a merged dump says it per thread), when has_pid */
	unsigned has_wall : 1;
	unsigned has_wait : 1;
	unsigned has_pid : 1;
	unsigned running : 1;   /* still running when the dump was written */
	unsigned has_cpu : 1;   /* its tree has the cpu_ns and cpu_self_ns columns */
	unsigned has_timed : 1; /* its tree has timed_calls, inclusive_se_ns and self_se_ns */
	uint64_t counters[RUN_COUNTERS]; /* see enum run_counter */
	int32_t folded_first_fn; /* index into dump.functions: the first function whose path was folded, or -1 */
	size_t nfuncs, nedges, nnodes;
	struct dump_fstat *funcs;
	struct dump_edge *edges;
	struct dump_node *nodes;
};

struct dump {
	struct run run; /* what the dump says about the run as a whole */
	size_t nfunctions, nthreads;
	struct dump_function *functions;
	struct dump_thread *threads;
};

/*
 * dump_load reads the dump at path into d.  Returns 0, or -1 with d empty
 * and err holding one line "<what is wrong> in '<path>'" (or "cannot open
 * '<path>': <reason>"), without a "callprof:" prefix or newline.
 */
int dump_load(struct dump *d, const char *path, struct buf *err);

/*
 * dump_parse does the same for a dump already in memory: len bytes of text
 * (NUL-terminated; the text is modified), named path in messages.
 */
int dump_parse(struct dump *d, const char *path, char *text, size_t len, struct buf *err);

/* dump_args_free frees a value profile and what it holds (NULL: nothing). */
void dump_args_free(struct dump_args *a);

/*
 * dump_merge makes out one dump of the n dumps in (`callprof merge`), named
 * path in messages; out owns copies of everything.  Every thread of every
 * input is kept as it is, with its process's pid; functions are matched by
 * fnid.h, modules by path and build-id, each in order of first appearance;
 * the program is the first input's; wall_ns is the longest; the probes'
 * costs are the inputs' means weighted by their calls; clamped_figures,
 * threads_lost and lost_calls add up; warnings are every input's, each
 * once.  Returns 0.
 */
int dump_merge(struct dump *out, const struct dump *in, size_t n, const char *path);

/*
 * dump_write appends d to out as a dump of dump-format.md, version 1, that
 * dump_load reads back into the same structs.
 */
void dump_write(const struct dump *d, struct buf *out);

/* The calls d's functions made that were not recorded, of front-end k (pstat.h). */
uint64_t dump_unrecorded_calls(const struct dump *d, unsigned k);

/* dump_untimed_calls: the calls of d that sampled timing left untimed (pstat.timed_calls). */
uint64_t dump_untimed_calls(const struct dump *d);

/* dump_release frees what d holds. */
void dump_release(struct dump *d);

/*
 * dumps_load loads the n dumps named in paths into a new array *out.  On the
 * first that fails it prints "callprof: <message>" to stderr and returns -1
 * with nothing allocated; else 0.  dumps_free releases and frees such an array.
 */
int dumps_load(struct dump **out, char *const *paths, size_t n);
void dumps_free(struct dump *d, size_t n);

#endif
