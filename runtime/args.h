/*
 * args.h: the arguments and return values of selected functions
 * (CALLPROF_ARGS=GLOB[,GLOB]), for the -pg -mfentry front-end, whose probe runs
 * before a function's prologue with every argument still where its caller put it.
 *
 * Selection is cold: when a module is loaded (filter.c's pass, at start-up and
 * after each dlopen), each function of it whose demangled name matches a glob
 * gets a plan, from its DWARF (libdw): its parameters' and its return value's
 * types, and where the x86-64 System V convention puts each of their values
 * (integer and vector registers, the stack; rax, rdx, xmm0, xmm1 and st0 on
 * the way out).  Plans are never freed; the probes find them lock-free
 * (args_plan_of).  Integers of every width, bool, char, enums (by name),
 * pointers (hex), C strings (their first ARGS_STRING_BYTES bytes, copied so
 * that a bad pointer cannot crash the program: safecopy.h), float, double,
 * long double, and structs small enough for registers (their members) are
 * shown; anything else by its type's name.  A function the compiler cloned
 * (foo.constprop.0: another convention than its declaration's), one without
 * debug information, or one built with -finstrument-functions is not captured,
 * and its plan says why.
 *
 * A call of a selected function takes the front-end's cold path (the vector
 * registers saved): args_enter reads its arguments into a tuple and counts it
 * in the thread's value profile of the function, a space-saving sketch of at
 * most CALLPROF_ARGS_ENTRIES tuples (each with its calls, an upper bound of its
 * error, and the time of the calls it held its entry for); the tuple's hash
 * goes with the hijacked return, and the exit hook (args_exit) adds the call's
 * time to the tuple and its return value to a second sketch.  Every call is
 * counted whatever the bound.  The dump merges the threads' sketches
 * (args_dump_function).
 */
#ifndef CALLPROF_ARGS_H
#define CALLPROF_ARGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hijack_stack.h"
#include "jsonw.h"
#include "tstate.h"

#define ARGS_STRING_BYTES 32 /* bytes of a C string kept */
#define ARGS_TUPLE_BYTES 512 /* bytes of one call's encoded values, at most */
#define ARGS_MAX_SCALARS 64  /* values read per call, at most */

/* How a value is shown. */
enum args_show {
	ARGS_SIGNED,
	ARGS_UNSIGNED,
	ARGS_BOOL,
	ARGS_CHAR,
	ARGS_ENUM,
	ARGS_POINTER,
	ARGS_STRING,
	ARGS_FLOAT,
	ARGS_DOUBLE,
	ARGS_LDOUBLE
};

/* Where a value is: at the enter (ARGS_GPR: rdi rsi rdx rcx r8 r9 by index,
 * ARGS_XMM, ARGS_STACK: bytes into the arguments on the stack) or at the exit
 * (ARGS_GPR: rax, rdx; ARGS_XMM: xmm0, xmm1; ARGS_ST0). */
enum args_where { ARGS_GPR, ARGS_XMM, ARGS_STACK, ARGS_ST0 };

struct args_enumerator {
	int64_t value;
	const char *name;
};

/* One value read at a call: a scalar, or a scalar member of a struct. */
struct args_scalar {
	uint8_t show;       /* enum args_show */
	uint8_t size;       /* bytes: 1, 2, 4, 8, or 10 for long double */
	uint8_t where;      /* enum args_where */
	uint8_t reg;        /* the register's index */
	uint16_t offset;    /* bytes into the register's eightbyte, or into the stack arguments */
	const char *member; /* its name in a struct ("x", "origin.y"), or NULL */
	const struct args_enumerator *enums; /* an enum's names, sorted by value */
	uint32_t nenums;
};

/* A parameter, or the return value. */
struct args_value {
	const char *name;  /* the parameter's name ("this"); NULL for the return value */
	const char *type;  /* its type as C writes it; NULL for a void return */
	uint16_t first, n; /* its scalars: plan.scalars[first .. first + n); none: its type name */
	bool aggregate;    /* a struct: {member=value, ...} */
	bool unknown;      /* not where the convention says, nor where DWARF could say: "?" */
};

struct args_plan {
	uint32_t id;         /* its value profiles' index in each thread's */
	uintptr_t fn;        /* where it was loaded */
	uintptr_t key;       /* its calls' key in the probe core (fentry.h), fn for other code */
	char *name;          /* the function's demangled name */
	const char *refused; /* NULL when its calls are captured, else why not */
	bool variadic;       /* its fixed parameters only are captured */
	uint16_t nparams;
	struct args_value *params;
	struct args_value ret;
	uint16_t nscalars; /* the return value's scalars (ret.first is 0), then the parameters' */
	struct args_scalar *scalars;
	uint16_t tuple_bytes; /* the most an encoded call's arguments take */
	uint16_t ret_bytes;   /* the most its encoded return value takes */
	bool unloaded;        /* its module was unloaded */
};

/* True when CALLPROF_ARGS selects functions; set once by args_setup. */
extern bool args_on;

/* Reads the globs and the bound, registers the exit hook.  Once, at start-up. */
void args_setup(const char *globs, uint32_t entries);

/* True if the function of demangled name `name` is selected. */
bool args_selects(const char *name);

/* A selected function of a module being decided: its address and names. */
struct args_pick {
	uintptr_t fn;
	char *name;      /* its symbol (a clone is refused by its name), malloc'ed */
	char *demangled; /* malloc'ed */
};

/*
 * Makes the plans of the selected functions `picks` (n of them) of the module
 * `path` loaded at `base`, from its debug information, and publishes them.
 * Takes the strings of the picks.  Called by one thread at a time (filter.c).
 */
void args_module(const char *path, uintptr_t base, struct args_pick *picks, size_t n);

/* The module whose code spans [lo[i], hi[i]) was unloaded: its plans no longer apply. */
void args_module_unloaded(const uintptr_t *lo, const uintptr_t *hi, size_t n);

/* The plan of the function whose calls have the probe core's key `key`
 * (fentry.h), or NULL.  Lock-free: for the probes. */
const struct args_plan *args_plan_of(uintptr_t key);

/*
 * A call of the function of `plan`, its return at `slot`: reads its arguments
 * (`regs` as fentry_entry.S saved them, `state` hijack_call_saved's area) and
 * counts the tuple in thread `t`'s profile.  The probe held.  Returns the
 * tuple's hash for the hijack record (never 0), or 0 when nothing was captured.
 */
uintptr_t args_enter(struct tstate *t, const struct args_plan *plan, const uintptr_t *slot,
		     const uintptr_t *regs, const void *state);

/* The exit hook (hijack.h): the call's time and its return value. */
void args_exit(struct tstate *t, const struct hijack_rec *rec, const uintptr_t regs[2],
	       const void *state, uint64_t now);

/* Forgets thread `t`'s value profiles (a fork child, callprof_reset). */
void args_thread_clear(struct tstate *t);

/*
 * Writes the "args" member of the dump's entry for the function whose nodes
 * have key `address` (`retired`: of a library unloaded since), merged over the
 * `nthreads` states `threads`, if a plan selected it; `ns` turns ticks into
 * nanoseconds.
 */
void args_dump_function(struct jsonw *w, uintptr_t address, bool retired,
			const struct tstate *const *threads, size_t nthreads,
			uint64_t (*ns)(const void *ctx, double ticks), const void *ctx);

#endif
