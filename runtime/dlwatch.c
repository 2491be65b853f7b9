/*
 * dlwatch.c: libraries loaded and unloaded while the program runs.  An
 * interposed dlopen decides the filters' verdicts on a new library's
 * functions; an interposed dlclose names a library's profiled functions
 * before it is unloaded, and drops its verdicts.
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
#include "process.h"
#include "symbols.h"
#include "tstate.h"
#include "verdict.h"

#define MAX_SEGMENTS 16

/* The loaded segments of one library. */
struct module_span {
	const char *name;
	uintptr_t base;
	size_t n;
	uintptr_t start[MAX_SEGMENTS], end[MAX_SEGMENTS];
};

static int find_segments(struct dl_phdr_info *info, size_t size, void *arg)
{
	struct module_span *m = arg;

	(void)size;
	if (info->dlpi_addr != m->base || !info->dlpi_name || strcmp(info->dlpi_name, m->name))
		return 0;
	for (size_t i = 0; i < info->dlpi_phnum && m->n < MAX_SEGMENTS; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		if (ph->p_type != PT_LOAD)
			continue;
		m->start[m->n] = info->dlpi_addr + ph->p_vaddr;
		m->end[m->n] = m->start[m->n] + ph->p_memsz;
		m->n++;
	}
	return 1;
}

static bool in_span(const struct module_span *m, uintptr_t addr)
{
	for (size_t i = 0; i < m->n; i++)
		if (addr >= m->start[i] && addr < m->end[i])
			return true;
	return false;
}

/* Bumped at each unload, so a library loaded again at the same place gets new keys. */
static uint64_t unload_generation;

/*
 * Names the profiled functions of the library `m` on every thread, then
 * retires their keys: a library loaded later at the same address must not
 * merge into these nodes.  Runs under the registry lock, so no dump reads the
 * trees meanwhile; no thread calls into a library being unloaded.
 */
static void retire_functions(const struct module_span *m)
{
	size_t n = 0, cap = 0;
	uintptr_t *addrs = NULL, *keys = NULL;
	uint64_t generation = __atomic_add_fetch(&unload_generation, 1, __ATOMIC_RELAXED);
	struct tstate *threads = tstate_lock_all();

	for (struct tstate *t = threads; t; t = t->next)
		for (struct cct_node *c = cct_next_preorder(&t->tree.root, &t->tree.root); c;
		     c = cct_next_preorder(c, &t->tree.root)) {
			if (!in_span(m, c->fn))
				continue;
			if (n == cap) {
				cap = cap ? cap * 2 : 64;
				uintptr_t *a = realloc(addrs, cap * sizeof(*a));
				uintptr_t *k = a ? realloc(keys, cap * sizeof(*k)) : NULL;
				if (a)
					addrs = a;
				if (!k)
					goto out;
				keys = k;
			}
			addrs[n] = c->fn;
			keys[n] = cct_retired_key(c->fn, generation);
			n++;
		}
	if (n) /* named under the generation the keys carry */
		symbols_remember(m->name, m->base, cct_key_generation(keys[0]), addrs, n);
	for (struct tstate *t = threads; t; t = t->next)
		for (struct cct_node *c = cct_next_preorder(&t->tree.root, &t->tree.root); c;
		     c = cct_next_preorder(c, &t->tree.root))
			if (in_span(m, c->fn))
				cct_node_rekey(&t->tree, c, cct_retired_key(c->fn, generation));
out:
	tstate_unlock_all();
	free(addrs);
	free(keys);
}

static void remember_library(void *handle)
{
	struct link_map *lm = NULL;
	struct module_span m = { 0 };

	if (dlinfo(handle, RTLD_DI_LINKMAP, &lm) != 0 || !lm || !lm->l_name || !lm->l_name[0])
		return;
	m.name = lm->l_name;
	m.base = lm->l_addr;
	dl_iterate_phdr(find_segments, &m);
	if (m.n)
		retire_functions(&m);
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

CP_EXPORT int dlclose(void *handle);
int dlclose(void *handle)
{
	int rc, saved_errno = errno;

	if (!real_dlclose)
		find_real();
	if (process.ready)
		remember_library(handle);
	errno = saved_errno;
	rc = real_dlclose(handle);
	saved_errno = errno;
	filter_unload_modules();
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
	ok = read(fd, &eh, sizeof(eh)) == (ssize_t)sizeof(eh) && !memcmp(eh.e_ident, ELFMAG, SELFMAG) &&
	     eh.e_ident[EI_CLASS] == ELFCLASS64 && eh.e_machine == EM_X86_64;
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
	Dl_serinfo *theirs = search_path_of(caller), *ours = search_path_of((const void *)&caller_search);
	unsigned own = theirs ? theirs->dls_cnt : 0;
	bool found = false;

	for (unsigned k = ours ? ours->dls_cnt : 0; own && k; own--, k--)
		if (strcmp(theirs->dls_serpath[own - 1].dls_name, ours->dls_serpath[k - 1].dls_name))
			break;
	for (unsigned i = 0; i < own && !found; i++)
		found = snprintf(out, PATH_MAX, "%s/%s", theirs->dls_serpath[i].dls_name, file) < PATH_MAX &&
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

static __attribute__((noinline)) void *open_deciding(const char *file, int mode, const void *caller)
{
	void *h = open_as(file, mode, caller);
	int saved_errno = errno;

	if (h) {
		filter_load_modules();
		dlerror(); /* the program's dlopen succeeded: no error of our lookups' is left to it */
	}
	errno = saved_errno;
	return h;
}

/* Without filters, a tail call: the real dlopen sees our caller as its own.
 * First, the runtime's signal handling, which waits for instrumented code,
 * looks at the libraries opened before (endsig_arm): a process that opens
 * an instrumented one is armed by its next dlopen. */
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
	if (!verdict_on && !args_on)
		return real_dlopen(file, mode);
	return open_deciding(file, mode, __builtin_return_address(0));
}
