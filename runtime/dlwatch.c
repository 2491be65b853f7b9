/*
 * dlwatch.c: libraries loaded and unloaded while the program runs.  An
 * interposed dlopen decides the filters' verdicts on a new library's
 * functions and points its jump slots at the library probes (got.h), binding
 * it up front for them; an interposed dlclose names the profiled functions of
 * the libraries it unloads, retires their nodes, drops their verdicts, and
 * retires the keys of the library functions that went with them.
 */
#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "args.h"
#include "cct.h"
#include "compat.h"
#include "endsig.h"
#include "filter.h"
#include "got.h"
#include "hijack.h"
#include "libcall.h"
#include "libstub.h"
#include "modlist.h"
#include "process.h"
#include "symbols.h"
#include "tstate.h"
#include "verdict.h"

/* Bumped at each unload, so a library loaded again at the same place gets new keys. */
static uint64_t unload_generation;

/* True for a live key of a function of `m` probed as itself: the nodes of a
 * library function (keyed by its address, probed from a caller's jump slot)
 * are retired with its entry, by retire_library_functions. */
static bool own_function(const struct module *m, uintptr_t key)
{
	return !cct_key_is_retired(key) && module_holds(m, key) && !libstub_find(key);
}

static int cmp_addr(const void *a, const void *b)
{
	uintptr_t x = *(const uintptr_t *)a, y = *(const uintptr_t *)b;

	return (x > y) - (x < y);
}

/* The addresses of the functions of `m` that have nodes in the trees of the
 * list `threads`, sorted and distinct (malloc'ed, *n of them); NULL when
 * there are none or without memory. */
static uintptr_t *span_functions(const struct module *m, struct tstate *threads, size_t *n)
{
	size_t used = 0, cap = 0, k = 0;
	uintptr_t *addrs = NULL;

	for (struct tstate *t = threads; t; t = t->next)
		for (struct cct_node *c = cct_first(&t->tree); c; c = cct_next(&t->tree, c)) {
			if (!own_function(m, c->fn))
				continue;
			if (used == cap) {
				uintptr_t *more =
					realloc(addrs, (cap = cap ? cap * 2 : 64) * sizeof(*more));
				if (!more) {
					free(addrs);
					return NULL;
				}
				addrs = more;
			}
			addrs[used++] = c->fn;
		}
	if (used)
		qsort(addrs, used, sizeof(*addrs), cmp_addr);
	for (size_t i = 0; i < used; i++)
		if (!k || addrs[k - 1] != addrs[i])
			addrs[k++] = addrs[i];
	*n = k;
	return addrs;
}

/*
 * The library `m` is gone: every thread's nodes of its functions take retired
 * keys, so a library mapped later at the same address gets nodes of its own,
 * and the functions are named from its file (`fd`, open, or -1) under the
 * generation the keys carry.  The trees are rekeyed under the registry lock;
 * the naming is done after it, under the names' own lock, which a dump takes
 * to read them: no dump sees a retired key without its name.
 */
static void retire_library(const struct module *m, int fd)
{
	uint64_t generation = __atomic_add_fetch(&unload_generation, 1, __ATOMIC_RELAXED);
	struct tstate *threads = tstate_lock_all();
	size_t n = 0;
	uintptr_t *addrs = span_functions(m, threads, &n);

	if (!addrs) {
		tstate_unlock_all();
		if (fd >= 0)
			close(fd);
		return;
	}
	for (struct tstate *t = threads; t; t = t->next)
		for (struct cct_node *c = cct_first(&t->tree); c; c = cct_next(&t->tree, c))
			if (own_function(m, c->fn))
				cct_node_rekey(&t->tree, c, cct_retired_key(c->fn, generation));
	symbols_remember_lock();
	tstate_unlock_all();
	symbols_remember(m->name, m->base, cct_key_generation(cct_retired_key(0, generation)),
			 addrs, n, fd);
	symbols_remember_unlock();
	free(addrs);
}

/*
 * Retires the keys of library functions whose module was unloaded (they were
 * called through the slots of an instrumented module that went with it): on
 * every thread's tree and in their entries, which keep naming them.
 */
static void retire_library_functions(void)
{
	size_t n;
	uintptr_t *keys = got_unloaded(&n);
	uint64_t generation;

	if (!n)
		goto out;
	generation = __atomic_add_fetch(&unload_generation, 1, __ATOMIC_RELAXED);
	for (struct tstate *t = tstate_lock_all(); t; t = t->next)
		for (struct cct_node *c = cct_first(&t->tree); c; c = cct_next(&t->tree, c))
			for (size_t i = 0; i < n; i++)
				if (c->fn == keys[i])
					cct_node_rekey(&t->tree, c,
						       cct_retired_key(c->fn, generation));
	for (size_t i = 0; i < n; i++)
		libstub_retire(keys[i], cct_retired_key(keys[i], generation));
	tstate_unlock_all();
out:
	free(keys);
}

/* The real dlclose. */
static int (*real_dlclose)(void *);
/* The real dlopen. */
static void *(*real_dlopen)(const char *, int);

/* A static program's dlopen (dlsym finds no other): the same as dlopen, the
 * one public name of it the runtime does not interpose. */
static void *open_base(const char *file, int mode)
{
	return dlmopen(LM_ID_BASE, file, mode);
}

/* A static program's dlclose: there is no other name for the C library's,
 * so the library stays loaded (static programs seldom load any). */
static int close_never(void *handle)
{
	(void)handle;
	return 0;
}

static void find_real(void)
{
	*(void **)&real_dlopen = dlsym(RTLD_NEXT, "dlopen");
	*(void **)&real_dlclose = dlsym(RTLD_NEXT, "dlclose");
	if (!real_dlopen)
		real_dlopen = open_base;
	if (!real_dlclose)
		real_dlclose = close_never;
}

/* A descriptor of the file of the library of `handle`, opened before it may be
 * unloaded (so it can be named even when the file was deleted since): -1 if
 * none.  Sets *base to its load address. */
static int open_library(void *handle, uintptr_t *base)
{
	struct link_map *lm = NULL;

	if (dlinfo(handle, RTLD_DI_LINKMAP, &lm) != 0 || !lm || !lm->l_name || !lm->l_name[0])
		return -1;
	*base = lm->l_addr;
	return open(lm->l_name, O_RDONLY | O_CLOEXEC);
}

/*
 * A dlclose unloads the library only when nothing else holds it (opened twice,
 * a dependency of another), and may unload its dependencies with it; the
 * destructors it runs may still call the library's functions.  So the
 * libraries are compared before and after the real dlclose: those gone are
 * retired then, and those still there are left alone.
 */
CP_EXPORT int dlclose(void *handle);
int dlclose(void *handle)
{
	int rc, saved_errno = errno, fd = -1;
	struct modlist before = { 0 }, after = { 0 };
	uintptr_t handle_base = 0;
	bool watch = process.ready;

	if (!real_dlclose)
		find_real();
	if (watch) {
		modlist_take(&before, true);
		fd = open_library(handle, &handle_base);
	}
	errno = saved_errno;
	got_lock(); /* no slot is read while its module goes */
	rc = real_dlclose(handle);
	got_unlock();
	saved_errno = errno;
	if (watch) {
		modlist_take(&after, true);
		for (size_t i = 0; !before.failed && !after.failed && i < before.n; i++) {
			const struct module *m = &before.m[i];
			bool own = fd >= 0 && m->base == handle_base;
			if (modlist_has(&after, m->name, m->base))
				continue;
			retire_library(m, own ? fd : -1);
			if (own)
				fd = -1;
		}
		if (fd >= 0)
			close(fd);
		modlist_release(&before);
		modlist_release(&after);
	}
	filter_unload_modules();
	retire_library_functions();
	errno = saved_errno;
	return rc;
}

/* True if `path` is an ELF file this process could load. */
static bool loadable(const char *path)
{
	ElfW(Ehdr) eh;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	bool ok;

	if (fd < 0)
		return false;
	ok = read(fd, &eh, sizeof(eh)) == (ssize_t)sizeof(eh) &&
	     !memcmp(eh.e_ident, ELFMAG, SELFMAG) && eh.e_ident[EI_CLASS] == ELFCLASS64 &&
	     eh.e_machine == EM_X86_64;
	close(fd);
	return ok;
}

/* The search path dlopen follows for a call from the object holding `addr`,
 * malloc'ed; NULL if unknown. */
static Dl_serinfo *search_path_of(const void *addr)
{
	struct link_map *lm = NULL;
	Dl_info info;
	Dl_serinfo size, *si;

	if (!dladdr1(addr, &info, (void **)&lm, RTLD_DL_LINKMAP) || !lm ||
	    dlinfo(lm, RTLD_DI_SERINFOSIZE, &size) != 0 || !(si = malloc(size.dls_size)))
		return NULL;
	si->dls_size = size.dls_size;
	si->dls_cnt = size.dls_cnt;
	if (dlinfo(lm, RTLD_DI_SERINFO, si) == 0)
		return si;
	free(si);
	return NULL;
}

/*
 * The first directory of `caller`'s own search path holding `file`, written
 * to `out`; false when none does.  Its own: the directories before those it
 * shares, at the end, with ours (the system's, searched after ld.so.cache,
 * which real_dlopen consults the same for anyone).
 */
static bool caller_search(const char *file, const void *caller, char out[PATH_MAX])
{
	Dl_serinfo *theirs = search_path_of(caller),
		   *ours = search_path_of((const void *)&caller_search);
	unsigned own = theirs ? theirs->dls_cnt : 0;
	bool found = false;

	for (unsigned k = ours ? ours->dls_cnt : 0; own && k; own--, k--)
		if (strcmp(theirs->dls_serpath[own - 1].dls_name,
			   ours->dls_serpath[k - 1].dls_name))
			break;
	for (unsigned i = 0; i < own && !found; i++)
		found = snprintf(out, PATH_MAX, "%s/%s", theirs->dls_serpath[i].dls_name, file) <
				PATH_MAX &&
			loadable(out);
	free(theirs);
	free(ours);
	return found;
}

/*
 * dlopen searches a bare name along the search path of the object that
 * called it (its DT_RPATH, DT_RUNPATH), which is found from the return
 * address: called from here, that would be ours.  So a name that is not
 * loaded yet is looked up as the caller would (glibc-hwcaps subdirectories
 * aside) and opened by its path.
 */
static void *open_as(const char *file, int mode, const void *caller)
{
	char path[PATH_MAX];
	void *h;

	if (!file || strchr(file, '/'))
		return real_dlopen(file, mode);
	if ((h = real_dlopen(file, RTLD_LAZY | RTLD_NOLOAD))) {
		real_dlclose(h);
		return real_dlopen(file, mode);
	}
	return real_dlopen(caller_search(file, caller, path) ? path : file, mode);
}

/* `mode` binding every symbol now, so that ld.so binds the jump slots the
 * library probes take over (got.h). */
static int binding_now(int mode)
{
	return libcall_on ? (mode & ~RTLD_BINDING_MASK) | RTLD_NOW : mode;
}

static __attribute__((noinline)) void *open_deciding(const char *file, int mode, const void *caller)
{
	void *h = open_as(file, binding_now(mode), caller);
	int saved_errno;

	if (!h && binding_now(mode) !=
			  mode) /* a symbol it never calls is missing: bind lazily after all */
		h = open_as(file, mode, caller);
	saved_errno = errno;
	if (h) {
		filter_load_modules();
		got_patch_loaded();
		dlerror(); /* the program's dlopen succeeded: no error of our lookups' is left to it */
	}
	errno = saved_errno;
	return h;
}

/* Without filters or library probes, a tail call: the real dlopen sees our
 * caller as its own.  First, the runtime's signal handling, which waits for
 * instrumented code, looks at the libraries opened before (endsig_arm): a
 * process that opens an instrumented one is armed by its next dlopen. */
CP_EXPORT void *dlopen(const char *file, int mode);
void *dlopen(const char *file, int mode)
{
	if (!real_dlopen)
		find_real();
	if (!endsig_armed()) {
		int saved_errno = errno;
		endsig_arm();
		errno = saved_errno;
	}
	if (!verdict_on && !args_on && !libcall_on)
		return real_dlopen(file, mode);
	/* Reached through a library probe, our return is hijacked: the caller is in its record. */
	return open_deciding(file, mode,
			     (const void *)hijack_return_address(
				     (const uintptr_t *)__builtin_frame_address(0) + 1));
}
