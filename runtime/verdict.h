/*
 * verdict.h: the filters' verdict on each function (CALLPROF_INCLUDE,
 * CALLPROF_EXCLUDE), as the probes read it.  filter.c decides a module's
 * functions when the module is loaded (at start-up and on dlopen) and writes
 * the verdicts here; a probe only looks them up: no lock, no allocation, no
 * system call, so it may run anywhere, in a signal handler too.
 *
 * Two tables: every named function of a decided module -> its verdict (open
 * addressing on the address, grown by copying and publishing the copy: the
 * old one stays mapped for readers still in it); and the decided modules'
 * address ranges, each with the verdict of its functions that have no name.
 * A module that is unloaded is dropped: its verdicts no longer apply, and an
 * address no decided module holds has no verdict yet (VERDICT_UNDECIDED).
 */
#ifndef CALLPROF_VERDICT_H
#define CALLPROF_VERDICT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum verdict {
	VERDICT_ADMIT,    /* recorded */
	VERDICT_EXCLUDE,  /* not recorded: transparent (shadow.h) */
	VERDICT_UNDECIDED /* its module was not decided yet: not recorded, and counted */
};

/* True when calls are filtered at all; set once at start-up (process.c). */
extern bool verdict_on;

/* The verdict on the function at `fn`. */
enum verdict verdict_of(uintptr_t fn);

/*
 * The writers, called by one thread at a time (filter.c serialises them).
 * verdict_module_add: a module whose code spans [lo[i], hi[i]) for i < n,
 * whose functions without a verdict of their own get `admit` once it is
 * published; returns its id, or -1 when the table of modules is full.
 * verdict_set: the verdict on the function at `fn` of module `id`; 0, or -1
 * without memory (the function then gets its module's).
 * verdict_module_publish: every verdict of module `id` is written.
 * verdict_module_drop: module `id` was unloaded (or not published after all).
 */
int verdict_module_add(const uintptr_t *lo, const uintptr_t *hi, size_t n, bool admit);
int verdict_set(int id, uintptr_t fn, bool admit);
void verdict_module_publish(int id);
void verdict_module_drop(int id);

#endif
