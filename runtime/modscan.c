/* modscan.c: finding a loaded module that imports the probes, from its relocations. */
#include "modscan.h"

#include <elf.h>
#include <link.h>
#include <stdint.h>
#include <string.h>

/* The names a module built for profiling imports. */
static const char *const probe_names[] = { "__cyg_profile_func_enter", "__fentry__", "mcount" };

/* The dynamic section's tables of one module. */
struct dyn_tables {
	const ElfW(Sym) * symtab;
	const char *strtab;
	const ElfW(Rela) * rel[2]; /* the relocations, and those of the PLT */
	size_t rel_bytes[2];
};

/* An address from the dynamic section: the loader leaves some as offsets from the base. */
static uintptr_t dyn_ptr(const struct dl_phdr_info *info, ElfW(Addr) p)
{
	return p < info->dlpi_addr ? info->dlpi_addr + p : p;
}

static bool read_tables(const struct dl_phdr_info *info, struct dyn_tables *t)
{
	const ElfW(Dyn) *dyn = NULL;

	memset(t, 0, sizeof(*t));
	for (size_t i = 0; i < info->dlpi_phnum; i++)
		if (info->dlpi_phdr[i].p_type == PT_DYNAMIC)
			dyn = (const ElfW(Dyn) *)(info->dlpi_addr + info->dlpi_phdr[i].p_vaddr);
	for (; dyn && dyn->d_tag != DT_NULL; dyn++) {
		switch (dyn->d_tag) {
		case DT_SYMTAB:
			t->symtab = (const ElfW(Sym) *)dyn_ptr(info, dyn->d_un.d_ptr);
			break;
		case DT_STRTAB: t->strtab = (const char *)dyn_ptr(info, dyn->d_un.d_ptr); break;
		case DT_RELA: t->rel[0] = (const ElfW(Rela) *)dyn_ptr(info, dyn->d_un.d_ptr); break;
		case DT_RELASZ: t->rel_bytes[0] = dyn->d_un.d_val; break;
		case DT_JMPREL:
			t->rel[1] = (const ElfW(Rela) *)dyn_ptr(info, dyn->d_un.d_ptr);
			break;
		case DT_PLTRELSZ: t->rel_bytes[1] = dyn->d_un.d_val; break;
		default: break;
		}
	}
	return t->symtab && t->strtab;
}

static bool is_probe_name(const char *name)
{
	for (size_t i = 0; i < sizeof(probe_names) / sizeof(probe_names[0]); i++)
		if (!strcmp(name, probe_names[i]))
			return true;
	return false;
}

/* True if one of the module's relocations is against a probe. */
static bool imports_probes(const struct dl_phdr_info *info)
{
	struct dyn_tables t;

	if (!read_tables(info, &t))
		return false;
	for (int k = 0; k < 2; k++) {
		size_t n = t.rel[k] ? t.rel_bytes[k] / sizeof(ElfW(Rela)) : 0;
		for (size_t i = 0; i < n; i++) {
			size_t sym = ELF64_R_SYM(t.rel[k][i].r_info);
			if (sym && is_probe_name(t.strtab + t.symtab[sym].st_name))
				return true;
		}
	}
	return false;
}

/* True if `addr` lies in one of the module's loaded segments. */
static bool holds(const struct dl_phdr_info *info, uintptr_t addr)
{
	for (size_t i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		uintptr_t lo = info->dlpi_addr + ph->p_vaddr;
		if (ph->p_type == PT_LOAD && addr >= lo && addr < lo + ph->p_memsz)
			return true;
	}
	return false;
}

/* Where a scan is: modules come in load order, and those a scan before saw
 * are not read again, unless one was unloaded since. */
struct scan {
	size_t i;
};
/* Modules the scans so far have read, and the loader's unload count then. */
static size_t seen;
static unsigned long long seen_subs;

/* The runtime's own module is skipped, unless it is the program itself (the
 * static archive linked in, reported first): then the program is instrumented. */
static int visit(struct dl_phdr_info *info, size_t size, void *arg)
{
	struct scan *sc = arg;
	size_t i = sc->i++;

	(void)size;
	if (i == 0 && info->dlpi_subs != seen_subs) {
		seen = 0;
		seen_subs = info->dlpi_subs;
	}
	if (holds(info, (uintptr_t)&modscan_probed_loaded))
		return i == 0;
	if (i < seen)
		return 0;
	seen = i + 1;
	return imports_probes(info);
}

bool modscan_probed_loaded(void)
{
	struct scan sc = { 0 };

	return dl_iterate_phdr(visit, &sc) != 0;
}

/* dl_iterate_phdr callback: 0 to go on, 1 if the module holding *addr calls
 * the probes (the runtime's own module: the program it is linked into), 2 if
 * it does not. */
static int visit_holder(struct dl_phdr_info *info, size_t size, void *arg)
{
	(void)size;
	if (!holds(info, *(const uintptr_t *)arg))
		return 0;
	return holds(info, (uintptr_t)&modscan_probed_loaded) || imports_probes(info) ? 1 : 2;
}

bool modscan_module_probed(uintptr_t addr)
{
	return dl_iterate_phdr(visit_holder, &addr) != 2;
}
