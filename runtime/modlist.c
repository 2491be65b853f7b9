/* modlist.c: the modules loaded at one moment (see modlist.h). */
#include "modlist.h"

#include <link.h>
#include <stdlib.h>
#include <string.h>

struct take {
	struct modlist *l;
	bool libraries_only;
};

/* dl_iterate_phdr callback: copies one module out; stops (1) without memory. */
static int add_module(struct dl_phdr_info *info, size_t size, void *arg)
{
	struct take *tk = arg;
	struct modlist *l = tk->l;
	struct module *m;

	(void)size;
	if (tk->libraries_only && (!info->dlpi_name || !info->dlpi_name[0]))
		return 0;
	if (l->n == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 32;
		struct module *more = realloc(l->m, cap * sizeof(*more));
		if (!more)
			goto failed;
		l->m = more;
		l->cap = cap;
	}
	m = &l->m[l->n];
	memset(m, 0, sizeof(*m));
	if (!(m->name = strdup(info->dlpi_name ? info->dlpi_name : "")))
		goto failed;
	m->base = info->dlpi_addr;
	for (size_t i = 0; i < info->dlpi_phnum && m->n < MODLIST_SEGMENTS; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		if (ph->p_type != PT_LOAD)
			continue;
		m->lo[m->n] = info->dlpi_addr + ph->p_vaddr;
		m->hi[m->n] = m->lo[m->n] + ph->p_memsz;
		m->n++;
	}
	l->n++;
	return 0;
failed:
	l->failed = true;
	return 1;
}

bool modlist_take(struct modlist *l, bool libraries_only)
{
	struct take tk = { l, libraries_only };

	memset(l, 0, sizeof(*l));
	dl_iterate_phdr(add_module, &tk);
	return !l->failed;
}

void modlist_release(struct modlist *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->m[i].name);
	free(l->m);
	memset(l, 0, sizeof(*l));
}

bool modlist_has(const struct modlist *l, const char *name, uintptr_t base)
{
	for (size_t i = 0; i < l->n; i++)
		if (l->m[i].base == base && !strcmp(l->m[i].name, name))
			return true;
	return false;
}

bool module_holds(const struct module *m, uintptr_t addr)
{
	for (size_t i = 0; i < m->n; i++)
		if (addr >= m->lo[i] && addr < m->hi[i])
			return true;
	return false;
}
