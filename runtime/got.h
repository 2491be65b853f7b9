/*
 * got.h: pointing the GOT jump slots of instrumented modules at the library
 * probes' stubs (libstub.h), when modules load: at start-up and after each
 * dlopen.
 *
 * Which modules: the instrumented ones, those with a relocation against
 * __cyg_profile_func_enter or __fentry__ (the runtime's own module aside).
 * Which slots: R_X86_64_JUMP_SLOT only, never GLOB_DAT, which also carries
 * every address the module takes: a function's address still compares equal
 * everywhere.  Each slot holds what ld.so bound it to (the definition its
 * lookup found, an IFUNC's choice, an interposer), so targets come from ld.so
 * and never from a lookup of ours: CALLPROF_LIBCALLS asks for binding up front
 * (callprof record sets LD_BIND_NOW, pkg-config's --libs adds -z now, the
 * dlopen interposer adds RTLD_NOW).  A slot still lazy (it points back into
 * its own PLT) is left alone and listed, as are functions called through a
 * GOT entry that also holds their address (address taken in a PIE, -fno-plt):
 * the dump says which calls went unprobed.  Slots whose function is in an
 * instrumented module (its own probes see the call), in ld.so or in the
 * runtime are left alone, and so are the functions the filters exclude.  A
 * read-only GOT (RELRO) is made writable for the patch and read-only again;
 * each slot is one aligned 8-byte store, so a thread calling through it sees
 * the old target or the stub.
 *
 * Cold: takes a lock, allocates, reads modules' dynamic sections.
 */
#ifndef CALLPROF_GOT_H
#define CALLPROF_GOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* What got.c did to one instrumented module, for the dump. */
struct got_module {
	char *path;       /* its file (the program's as /proc/self/exe names it) */
	uintptr_t base;   /* load address (bias) */
	uintptr_t lo, hi; /* what its segments span */
	uint32_t slots;   /* its jump slots */
	uint32_t probed;  /* slots pointed at a stub */
	char **lazy;      /* functions whose slot was still lazy: not probed */
	size_t nlazy;
	char **through_got; /* functions called through a GOT entry, not a jump slot: not probed */
	size_t nthrough;
	bool live; /* still loaded */
};

/* Sets library probes up and patches the modules loaded now, when
 * options.libcalls; once, from the lifecycle's start-up.  Sets libcall_on. */
void got_setup(void);

/* Patches the instrumented modules loaded since (after a dlopen). */
void got_patch_loaded(void);

/* Forgets the modules unloaded since (after a dlclose); returns, malloc'ed,
 * the keys of the library functions whose module went with them (n of them),
 * for dlwatch.c to retire; NULL when there are none. */
uintptr_t *got_unloaded(size_t *n);

/* The record of the instrumented module of file `path` (for the program, as
 * /proc/self/exe names it) whose segments span `addr`, or NULL (the dump). */
const struct got_module *got_report(const char *path, uintptr_t addr);

/* A stub for calibration's leaf at `leaf` (calib.c), or 0 when library
 * probes are off. */
uintptr_t got_calibration_stub(uintptr_t leaf);

/* True when the runtime is part of the program (the static archive): its own
 * calls to libc go through the program's slots, so none is patched. */
extern bool got_static_runtime;

/* Held around a fork and around the real dlclose, so no module is unloaded
 * while its slots are read.  Recursive: a library's destructor may dlopen. */
void got_lock(void);
void got_unlock(void);

#endif
