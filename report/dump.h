/* dump.h: one profile dump (dump-format.md, "callprof" version 1) as plain C structs. */
#ifndef CALLPROF_DUMP_H
#define CALLPROF_DUMP_H

#include <stddef.h>
#include <stdint.h>

#include "buf.h"

/*
 * Loading turns the JSON into these structs and checks it on the way: the
 * rest of the tool never sees json-c.  Every id in the file is replaced by an
 * index into the arrays below, so a loaded dump is internally consistent:
 * fn, caller, callee, module and parent are always in range.  Optional keys
 * the dump does not have are flagged with has_* and read as 0 / NULL.
 * All strings are owned by the dump and freed by dump_release.
 */

/* A function a module has but no thread called (modules[].uncalled[]). */
struct dump_uncalled {
	char *name;
	char *file;     /* NULL without debug information */
	uint64_t line;  /* 0 when unknown */
};

struct dump_module {
	char *path;     /* module path; NULL when the dump has none */
	char *build_id; /* hex build-id or NULL */
	uint64_t symtab_functions;       /* functions in its symbol table, 0 when absent */
	size_t nuncalled;
	struct dump_uncalled *uncalled;
};

struct dump_function {
	char *name;      /* demangled name, never NULL */
	int32_t module;  /* index into dump.modules, -1 when unknown */
	char *file;      /* source file or NULL */
	uint64_t line;   /* source line, 0 when unknown */
	char *address;   /* "0x401136" as written, or NULL */
};

/* Per-function totals on one thread (threads[].functions[]). */
struct dump_fstat {
	uint32_t fn;                        /* index into dump.functions */
	uint64_t calls;
	uint64_t incl_ns, self_ns;          /* compensated */
	uint64_t raw_incl_ns, raw_self_ns;  /* equal to the above when the dump has no raw_* */
	uint64_t min_ns, max_ns;            /* shortest and longest call; 0 if absent */
	uint64_t fenced_calls;              /* of the calls, those that read the clock with fences (at most calls) */
	unsigned has_minmax : 1;
	unsigned has_fenced : 1;            /* the dump has fenced_calls (CALLPROF_CLOCK=tsc-adaptive) */
};

/* One caller -> callee edge on one thread. */
struct dump_edge {
	int32_t caller;       /* index into dump.functions, -1 for a root call */
	uint32_t callee;      /* index into dump.functions */
	uint64_t calls;
	uint64_t incl_ns;     /* non-nested activations of the edge */
	uint64_t self_ns;     /* the callee's self time while called from caller */
	char *call_file;      /* source file of the (first) call, or NULL */
	uint64_t call_line;   /* its line, 0 when unknown */
};

/* One calling-context tree node; parents come before their children. */
struct dump_node {
	int32_t parent;       /* index into dump_thread.nodes, -1 for a root */
	uint32_t fn;          /* index into dump.functions */
	uint64_t calls, incl_ns, self_ns;
};

/* Counters a thread may carry (dump-format.md, "Per thread"); 0 when absent. */
enum dump_counter {
	DC_DROPPED_CALLS,         /* calls not recorded (signal, no room) */
	DC_RESYNCED_FRAMES,       /* activations closed without their exit probe */
	DC_UNMATCHED_EXITS,       /* exit probes with no open activation */
	DC_CLOSED_AT_EXIT,        /* activations open when the thread ended */
	DC_OPEN_FRAMES,           /* activations open at the dump */
	DC_FOLDED_CALLS,          /* calls folded to one level of context (node budget) */
	DC_DROPPED_IN_SIGNAL,     /* of the dropped calls: a signal handler's probe interrupted another */
	DC_DROPPED_NO_ROOM,       /* of the dropped calls: shadow-stack limit or no memory */
	DC_TREE_NODES,            /* nodes of the thread's call tree, as the runtime counted them */
	DC_MAX_NODES,             /* the node budget, when calls were folded */
	DC_COUNT
};

/* The JSON key of each counter, in enum order. */
extern const char *const dump_counter_keys[DC_COUNT];

struct dump_thread {
	int64_t tid;              /* 0 when absent */
	char *name;               /* NULL when absent */
	uint64_t wall_ns;         /* 0 when absent */
	unsigned has_wall : 1;
	unsigned running : 1;     /* still running when the dump was written */
	uint64_t counters[DC_COUNT];
	int32_t folded_first_fn;  /* index into dump.functions: the first function whose path was folded, or -1 */
	size_t nfuncs, nedges, nnodes;
	struct dump_fstat *funcs;
	struct dump_edge *edges;
	struct dump_node *nodes;
};

struct dump {
	char *path;               /* the file as named on the command line */
	char *date;               /* "start_time" (or "date"), else the file's mtime, local time */
	char *program;            /* program.path or NULL */
	size_t argc;
	char **argv;              /* program.argv, argc strings */
	int64_t pid;
	char *clock_source;       /* "tsc", "monotonic", "none" ... or NULL */
	uint64_t ticks_per_second;
	double per_call_ns;       /* calibration: probe cost per call */
	double o_in_ns, o_out_ns; /* calibration: the part inside / outside the callee */
	double fenced_o_in_ns, fenced_o_out_ns; /* calibration under tsc-adaptive: the same for a fenced read */
	uint64_t wall_ns;
	unsigned has_pid : 1, has_per_call : 1, has_o_in : 1, has_o_out : 1, has_wall : 1;
	unsigned has_fenced_o_in : 1, has_fenced_o_out : 1;
	int compensated;          /* calibration.compensated: 1, 0, or -1 when absent */
	uint64_t clamped_figures; /* compensated figures clamped at 0 */
	size_t nwarnings;
	char **warnings;          /* free-text lines the runtime left in "warnings" */
	size_t nmodules, nfunctions, nthreads;
	struct dump_module *modules;
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
