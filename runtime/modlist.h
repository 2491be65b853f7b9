/*
 * modlist.h: the modules loaded at one moment, as dl_iterate_phdr reports
 * them, copied out so that nothing slow runs while the loader's lock is held:
 * each one's name, load base and loaded segments.  For the filters' verdicts
 * and the watch on dlclose (start-up, dlopen, dlclose): it allocates with
 * malloc, so never from a probe.
 */
#ifndef CALLPROF_MODLIST_H
#define CALLPROF_MODLIST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define MODLIST_SEGMENTS 16 /* PT_LOAD segments kept per module; real ones have 2 to 5 */

struct module {
	char *name;     /* dlpi_name, malloc'ed; "" for the program */
	uintptr_t base; /* dlpi_addr */
	size_t n;       /* segments: [lo[i], hi[i]) */
	uintptr_t lo[MODLIST_SEGMENTS], hi[MODLIST_SEGMENTS];
};

struct modlist {
	struct module *m;
	size_t n, cap;
	bool failed; /* no memory: the list is incomplete, and says nothing of what is gone */
};

/* Lists the modules loaded now into *l (zeroed, or released), the program
 * first unless libraries_only.  False without memory (l->failed). */
bool modlist_take(struct modlist *l, bool libraries_only);

/* Frees what modlist_take listed; *l reads empty after. */
void modlist_release(struct modlist *l);

/* True if the list holds the module `name` loaded at `base` (the same file at the same place). */
bool modlist_has(const struct modlist *l, const char *name, uintptr_t base);

/* True if `addr` lies in a segment of `m`. */
bool module_holds(const struct module *m, uintptr_t addr);

#endif
