/*
 * libstub.h: the library functions the library-call front-end (libcall.h)
 * probes, and the stubs their patched GOT slots point at.
 *
 * One entry per library function (its address, after ld.so bound it), shared
 * by every slot that reaches it, from any module.  Its stub is 16 bytes of
 * code in a page that is never writable and executable at once:
 *     movabs $entry, %r11        49 bb <8 bytes>
 *     jmp    *common(%rip)       ff 25 <rel32>   (common: libcall_entry, at the page's end)
 * %r11 is free at a call through the PLT (ld.so's lazy binding uses it), and
 * the stack is left as the caller made it: the library function sees exactly
 * the call the program made.  Entries and stubs are never freed or moved (a
 * thread may be inside one); an entry whose library is unloaded keeps a
 * retired key (cct.h) so the dump still names its nodes.
 *
 * Writers (libstub_setup, libstub_get, libstub_publish, libstub_retire) run
 * under the patcher's lock (got.c); the probes only read an entry through its
 * stub; the dump looks entries up by key, lock-free.
 */
#ifndef CALLPROF_LIBSTUB_H
#define CALLPROF_LIBSTUB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define LIBSTUB_BYTES 16
#define LIBSTUB_MAX 65536 /* entries, ever: a process's distinct library functions */

/* How calls of an entry are probed. */
#define LIBSTUB_COUNT_ONLY 1u /* it never returns, or returns twice: counted, never followed */

struct libstub_entry {
	/* What the probes read. */
	uintptr_t target; /* the function the calls go on to */
	uintptr_t key;    /* its tree key: target (a retired key once unloaded) */
	uint32_t flags;   /* LIBSTUB_* */
	/* Cold. */
	const char *name;      /* the relocation's symbol name, copied; never an IFUNC's choice */
	uintptr_t label;       /* where its module and offset are named from: the target, or
				    * for a function the runtime interposes, the definition it wraps */
	uintptr_t stub;        /* its stub's address */
	const char *module;    /* the path of the module holding `label`, copied, for naming
				    * it once unloaded */
	uintptr_t module_base; /* that module's load address */
};

/* Where every stub jumps: the front-end's common entry (libcall.h).  Once,
 * before the first libstub_get; 0, or -1 when the tables cannot be mapped. */
int libstub_setup(uintptr_t common);

/*
 * The entry for `target`, created with its stub on first sight (name copied,
 * `flags`, `label`, `module` copied, `module_base`) and published: a GOT slot may point at its stub once this
 * returns.  A later name for the same target keeps the first; flags are
 * or'ed.  NULL without memory or room (LIBSTUB_MAX entries).
 * Stubs for new entries are written into the pending page, which is made
 * executable by libstub_publish: call it before storing any new stub into a slot.
 */
struct libstub_entry *libstub_get(uintptr_t target, const char *name, uintptr_t label,
				  const char *module, uintptr_t module_base, uint32_t flags);
void libstub_publish(void);

/* The entry whose nodes have key `key` (an address or a retired key), or NULL. */
const struct libstub_entry *libstub_find(uintptr_t key);

/* Gives the live entry whose key is `key` the retired key `retired`: its
 * library was unloaded (dlwatch.c), and a future library at the same place
 * gets entries of its own.  No thread calls it any more. */
void libstub_retire(uintptr_t key, uintptr_t retired);

/* Calls `visit` for every entry (cold: the dump). */
void libstub_each(void (*visit)(const struct libstub_entry *e, void *arg), void *arg);

#endif
