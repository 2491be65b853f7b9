/*
 * symbols.h: naming function addresses of this process with libdw: demangled
 * symbol, source file and line, and the module (path, build-id) holding it.
 * Cold: used while writing a dump, when a library is unloaded, and when the
 * filters decide a module's functions; never by a probe.
 */
#ifndef CALLPROF_SYMBOLS_H
#define CALLPROF_SYMBOLS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct symbols;

struct sym_module {
	void *dwfl_module; /* libdw's module while mapped; NULL for an unloaded library */
	char *path;        /* as mapped, absolute */
	char *build_id;    /* lowercase hex, or NULL when the module has none */
	uintptr_t base;    /* load address (bias) */
};

struct sym_function {
	char *name;       /* demangled; `module+0xoffset` when no symbol covers the address,
			  * "0x..." when no module maps it */
	char *file;       /* source file of the function's declaration, or NULL */
	int line;         /* its line, or 0 */
	long module;      /* index into symbols_modules(), or -1 if no module maps it */
	uintptr_t offset; /* the function's start relative to the module's load address */
	uintptr_t start;  /* the first byte of the function holding the address (the
			  * address itself when no symbol covers it) */
};

/* Reports the modules mapped in this process now.  NULL if libdw fails. */
struct symbols *symbols_open(void);

/* Reports only the modules holding one of `addrs` (n of them): naming the
 * profiled functions then opens no other library.  A module whose file cannot
 * be read (and libdw failing altogether) leaves a warning (symbols_warnings),
 * and its functions are named from the dynamic linker's tables.  NULL only
 * without memory. */
struct symbols *symbols_open_for(const uintptr_t *addrs, size_t n);

/* Fills `out` for `addr`; strings are malloc'ed and owned by the caller
 * (sym_function_release).  Never fails: unknown parts are left empty. */
void symbols_resolve(struct symbols *s, uintptr_t addr, struct sym_function *out);

/* The same for the function that was at `addr` in a library unloaded since,
 * from the names kept by symbols_remember under `tag`. */
void symbols_resolve_unloaded(struct symbols *s, uint64_t tag, uintptr_t addr,
			      struct sym_function *out);

void sym_function_release(struct sym_function *f);

/* The source file and line of the call whose return address is `ret_addr`,
 * made from the function at `caller`: file is malloc'ed, NULL when unknown.
 * Returns false when the return address is not in the caller's own code
 * (another module, or another function): then no line of the caller can be
 * named (file NULL).  That is what a function inlined into its caller passes
 * the probe (the caller's own return address, in the caller's caller), and
 * what a call from uninstrumented code does (a comparator called back by
 * libc's qsort).  The function's parts split off by the compiler (fn.cold,
 * fn.constprop.0) are its own code. */
bool symbols_call_line(struct symbols *s, uintptr_t ret_addr, uintptr_t caller, char **file,
		       int *line);

/* Calls `visit` for each function symbol with code (defined, non-zero size)
 * of module `module` (an index from symbols_modules), once per address; where
 * the module has debug information, only those it covers: what a static link
 * brings from libraries built without it (libc.a's, libgcc.a's) is left out. */
void symbols_each_function(struct symbols *s, long module,
			   void (*visit)(uintptr_t addr, const char *name, void *arg), void *arg);

/* The index of the module mapping `addr` (-1 if none) and the offset of `addr`
 * in it: what naming a function costs without its symbol or source (a library
 * function named by the runtime's own table, whose library's debug
 * information need not be read). */
long symbols_locate(struct symbols *s, uintptr_t addr, uintptr_t *offset);

/* The index of the module of file `path` loaded at `base`, added when it is
 * not known yet (a library unloaded since, named by its path only); -1
 * without memory. */
long symbols_module_of(struct symbols *s, const char *path, uintptr_t base);

/* The modules seen by symbols_resolve so far, in first-seen order. */
const struct sym_module *symbols_modules(const struct symbols *s, size_t *count);

void symbols_free(struct symbols *s);

/* Names now the functions at `addrs` (n of them, sorted, distinct) of the
 * module `path` that was loaded at `base`, read from `fd` (an open descriptor
 * of its file, which this takes, or -1 to open `path`), and keeps the names
 * for symbols_resolve_unloaded under `tag` (the caller's name for this
 * unload, a generation whose low 16 bits tell it apart), with the names' lock
 * held (symbols_remember_lock): for a library just
 * unloaded, whose addresses will mean nothing, or something else, at dump
 * time.  Linear in the module's symbols and debug information, and n log n in
 * the functions.  A function without a symbol is named `module+0xoffset`. */
void symbols_remember(const char *path, uintptr_t base, uint64_t tag, const uintptr_t *addrs,
		      size_t n, int fd);

/* The names' lock: symbols_remember runs with it held, and
 * symbols_resolve_unloaded takes it, so a dump waits for names being made.
 * Taken after the thread registry's (tstate.h), before the filters'. */
void symbols_remember_lock(void);
void symbols_remember_unlock(void);

/* Why some names are missing from `s` (a module's file could not be read:
 * RLIMIT_NOFILE, a chroot; libdw failed): `count` lines, for the dump's
 * warnings.  Owned by `s`. */
const char *const *symbols_warnings(const struct symbols *s, size_t *count);

/* Calls `visit` for each function symbol of the module `path` loaded at
 * `base`, once per address, with its address in this process and the
 * (mangled) name symbols_resolve names it by.  With `markers` (a NULL-terminated
 * list) set, visits nothing unless the module's symbol table has a symbol of
 * one of those names, defined or not.  Returns 1 when it visited, 0 when the
 * markers are missing, -1 when the module cannot be read. */
int symbols_module_functions(const char *path, uintptr_t base, const char *const *markers,
			     void (*visit)(uintptr_t addr, const char *name, void *arg), void *arg);

/* The demangled form of `name`, malloc'ed; a copy of it when it is not mangled. */
char *symbols_demangle(const char *name);

#endif
