/* dlwatch.c: an interposed dlclose that names a library's profiled functions before it is unloaded. */
#include <dlfcn.h>
#include <link.h>
#include <stdlib.h>
#include <string.h>

#include "cct.h"
#include "compat.h"
#include "process.h"
#include "symbols.h"
#include "tstate.h"

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

	for (struct tstate *t = tstate_lock_all(); t; t = t->next)
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
	if (n)
		symbols_remember(m->name, m->base, addrs, keys, n);
	for (struct tstate *t = tstate_lock_all_held(); t; t = t->next)
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

CP_EXPORT int dlclose(void *handle);
int dlclose(void *handle)
{
	static int (*real_dlclose)(void *);

	if (!real_dlclose)
		*(void **)&real_dlclose = dlsym(RTLD_NEXT, "dlclose");
	if (process.ready)
		remember_library(handle);
	return real_dlclose(handle);
}
