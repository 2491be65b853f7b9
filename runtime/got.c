/* got.c: patching the jump slots of instrumented modules to the library probes' stubs, at start-up and after dlopen (got.h). */
#include "got.h"

#include <dlfcn.h>
#include <elf.h>
#include <limits.h>
#include <link.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <unistd.h>

#include "filter.h"
#include "libcall.h"
#include "libstub.h"
#include "options.h"
#include "symbols.h"
#include "verdict.h"

#define MAX_SEGMENTS 16

/* The dynamic section's tables of one module, as ld.so left them in memory. */
struct dyn_tables {
	const ElfW(Rela) * jmprel; /* DT_JMPREL: the jump slots' relocations */
	size_t njmprel;
	const ElfW(Rela) * rela; /* DT_RELA: the others, GLOB_DAT among them */
	size_t nrela;
	const ElfW(Sym) * symtab;
	const char *strtab;
};

/* A loaded module, read in the loader's callback (so none is unloaded meanwhile). */
struct loaded {
	char *name; /* dlpi_name, malloc'ed; "" for the program */
	uintptr_t base;
	size_t n;
	uintptr_t lo[MAX_SEGMENTS], hi[MAX_SEGMENTS];
	uintptr_t relro_lo, relro_hi; /* the pages ld.so made read-only, or 0, 0 */
	struct dyn_tables dyn;
	bool instrumented; /* it calls the probes */
	bool ours;         /* the runtime's own module */
	bool ldso;         /* the dynamic linker */
};

struct loaded_list {
	struct loaded *m;
	size_t n, cap;
};

/* A slot to point at a stub once the stubs are executable. */
struct patch {
	uintptr_t *slot;
	uintptr_t stub;
};

/* Names never patched: probes, start-up and ld.so's own business, and the C++
 * runtime's catch bookkeeping (the catch interposers close frames by their own
 * frame address or the unwinder's landing frame, with no probe open: nonlocal.c). */
static const char *const never_patched[] = {
	"__cyg_profile_func_enter",
	"__cyg_profile_func_exit",
	"__fentry__",
	"mcount",
	"_mcount",
	"__monstartup",
	"monstartup",
	"_mcleanup",
	"__gmon_start__",
	"__libc_start_main",
	"__cxa_finalize",
	"__tls_get_addr",
	"__cxa_begin_catch",
	"__cxa_end_catch",
	"_Unwind_SetIP",
};

/* Names counted and never followed: they never return, return twice, switch
 * stacks, or read their caller's return address (which the return hijack
 * would make the runtime's). */
static const char *const counted_only[] = {
	/* return twice, switch stacks */
	"setjmp",
	"_setjmp",
	"sigsetjmp",
	"__sigsetjmp",
	"vfork",
	"__vfork",
	"getcontext",
	"setcontext",
	"swapcontext",
	"makecontext",
	"clone",
	"__clone",
	"clone3",
	/* never return */
	"longjmp",
	"_longjmp",
	"siglongjmp",
	"__longjmp_chk",
	"exit",
	"_exit",
	"_Exit",
	"quick_exit",
	"abort",
	"pthread_exit",
	"thrd_exit",
	"__cxa_throw",
	"__cxa_rethrow",
	"_Unwind_Resume",
	"_Unwind_RaiseException",
	"_Unwind_Resume_or_Rethrow",
	"_Unwind_ForcedUnwind",
	"__cxa_bad_cast",
	"__cxa_bad_typeid",
	"__cxa_throw_bad_array_new_length",
	"__cxa_pure_virtual",
	"__cxa_deleted_virtual",
	"__cxa_call_unexpected",
	"_ZSt9terminatev",
	"__stack_chk_fail",
	"__assert_fail",
	"__assert_perror_fail",
	"__fortify_fail",
	"__chk_fail",
	"err",
	"errx",
	"verr",
	"verrx",
	"execve",
	"execv",
	"execvp",
	"execvpe",
	"execl",
	"execlp",
	"execle",
	"fexecve",
	"execveat",
	/* read their caller's return address */
	"dlsym",
	"dlvsym",
	"dlmopen",
	"dl_iterate_phdr",
};

/* Serialises the patchers (start-up, dlopen, dlclose on any thread). */
static pthread_mutex_t lock = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP;
/* Every instrumented module seen, loaded or not (the dump reports on them). */
static struct got_module *modules;
static size_t nmodules, cap_modules;
bool got_static_runtime;
/* The verdict table's module for the library functions patched under filters, or -1. */
static int library_verdicts = -1;

static bool listed(const char *name, const char *const *list, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(name, list[i]))
			return true;
	return false;
}

static bool is_never_patched(const char *name)
{
	return listed(name, never_patched, sizeof(never_patched) / sizeof(never_patched[0]));
}

/* std::__throw_length_error and its kin throw from inside the library. */
static bool is_counted_only(const char *name)
{
	return listed(name, counted_only, sizeof(counted_only) / sizeof(counted_only[0])) ||
	       (!strncmp(name, "_ZSt", 4) && strstr(name, "__throw_"));
}

/* A d_ptr of .dynamic: ld.so rewrote some to run-time addresses and not others. */
static uintptr_t dyn_ptr(const ElfW(Dyn) * d, uintptr_t base)
{
	return d->d_un.d_ptr < base ? base + d->d_un.d_ptr : d->d_un.d_ptr;
}

static void read_dynamic(struct loaded *m, const ElfW(Dyn) * d)
{
	size_t pltrelsz = 0, relasz = 0;
	bool rela_plt = true;

	for (; d->d_tag != DT_NULL; d++) {
		switch (d->d_tag) {
		case DT_JMPREL: m->dyn.jmprel = (const ElfW(Rela) *)dyn_ptr(d, m->base); break;
		case DT_PLTRELSZ: pltrelsz = d->d_un.d_val; break;
		case DT_PLTREL: rela_plt = d->d_un.d_val == DT_RELA; break;
		case DT_RELA: m->dyn.rela = (const ElfW(Rela) *)dyn_ptr(d, m->base); break;
		case DT_RELASZ: relasz = d->d_un.d_val; break;
		case DT_SYMTAB: m->dyn.symtab = (const ElfW(Sym) *)dyn_ptr(d, m->base); break;
		case DT_STRTAB: m->dyn.strtab = (const char *)dyn_ptr(d, m->base); break;
		default: break;
		}
	}
	if (!m->dyn.symtab || !m->dyn.strtab || !rela_plt) {
		memset(&m->dyn, 0, sizeof(m->dyn));
		return;
	}
	m->dyn.njmprel = m->dyn.jmprel ? pltrelsz / sizeof(ElfW(Rela)) : 0;
	m->dyn.nrela = m->dyn.rela ? relasz / sizeof(ElfW(Rela)) : 0;
}

static const char *sym_name(const struct dyn_tables *t, const ElfW(Rela) * r)
{
	return t->strtab + t->symtab[ELF64_R_SYM(r->r_info)].st_name;
}

/* True if some relocation of the module names a probe: it is instrumented. */
static bool calls_probes(const struct dyn_tables *t)
{
	const ElfW(Rela) * tables[2] = { t->jmprel, t->rela };
	size_t counts[2] = { t->njmprel, t->nrela };

	for (int k = 0; k < 2; k++)
		for (size_t i = 0; i < counts[k]; i++) {
			const char *name;
			if (!ELF64_R_SYM(tables[k][i].r_info))
				continue;
			name = sym_name(t, &tables[k][i]);
			if (!strcmp(name, "__cyg_profile_func_enter") ||
			    !strcmp(name, "__fentry__"))
				return true;
		}
	return false;
}

static bool holds(const struct loaded *m, uintptr_t addr)
{
	for (size_t i = 0; i < m->n; i++)
		if (addr >= m->lo[i] && addr < m->hi[i])
			return true;
	return false;
}

static void read_segments(struct loaded *m, const struct dl_phdr_info *info)
{
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);

	for (size_t i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		uintptr_t start = info->dlpi_addr + ph->p_vaddr;
		if (ph->p_type == PT_LOAD && m->n < MAX_SEGMENTS) {
			m->lo[m->n] = start;
			m->hi[m->n] = start + ph->p_memsz;
			m->n++;
		} else if (ph->p_type == PT_DYNAMIC) {
			read_dynamic(m, (const ElfW(Dyn) *)start);
		} else if (ph->p_type == PT_GNU_RELRO) {
			/* What ld.so protects: whole pages, the last partial one left writable. */
			m->relro_lo = start & ~(page - 1);
			m->relro_hi = (start + ph->p_memsz) & ~(page - 1);
		}
	}
}

static int collect(struct dl_phdr_info *info, size_t size, void *arg)
{
	struct loaded_list *all = arg;
	struct loaded *m;

	(void)size;
	if (all->n == all->cap) {
		size_t cap = all->cap ? all->cap * 2 : 32;
		struct loaded *more = realloc(all->m, cap * sizeof(*more));
		if (!more)
			return 1;
		all->m = more;
		all->cap = cap;
	}
	m = &all->m[all->n];
	memset(m, 0, sizeof(*m));
	if (!(m->name = strdup(info->dlpi_name ? info->dlpi_name : "")))
		return 1;
	m->base = info->dlpi_addr;
	read_segments(m, info);
	m->ours = holds(m, (uintptr_t)&collect);
	m->ldso = m->base && m->base == getauxval(AT_BASE);
	m->instrumented = !m->ours && calls_probes(&m->dyn);
	all->n++;
	return 0;
}

static void loaded_free(struct loaded *m, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(m[i].name);
	free(m);
}

static const struct loaded *holder(const struct loaded *all, size_t n, uintptr_t addr)
{
	for (size_t i = 0; i < n; i++)
		if (holds(&all[i], addr))
			return &all[i];
	return NULL;
}

/* The file of module `m` (the program's from /proc/self/exe), into `path`. */
static const char *module_path(const struct loaded *m, char path[PATH_MAX])
{
	ssize_t len;

	if (m->name[0])
		return m->name;
	len = readlink("/proc/self/exe", path, PATH_MAX - 1);
	path[len > 0 ? len : 0] = '\0';
	return path;
}

static const char *last_component(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

static bool add_name(char ***names, size_t *n, const char *name)
{
	char **more;

	for (size_t i = 0; i < *n; i++)
		if (!strcmp((*names)[i], name))
			return true;
	if (!(more = realloc(*names, (*n + 1) * sizeof(*more))))
		return false;
	*names = more;
	return ((*names)[*n] = strdup(name)) && ++*n;
}

/* True when the slot's value is a lazy PLT entry's second half:
 * push $index; jmp .plt (with or without the bnd prefix or an endbr64 first). */
static bool looks_lazy(uintptr_t value)
{
	const unsigned char *p = (const unsigned char *)value;

	if (p[0] == 0xf3 && p[1] == 0x0f && p[2] == 0x1e && p[3] == 0xfa)
		p += 4;
	return p[0] == 0x68 && (p[5] == 0xe9 || (p[5] == 0xf2 && p[6] == 0xe9));
}

/* The module, among `all`, that a library function is labelled with, and the
 * address to name it by: its definition, or for a function the runtime
 * interposes, the definition it wraps.  NULL for a function not probed. */
static const struct loaded *label_of(const struct loaded *all, size_t n, const struct loaded *t,
				     const char *name, uintptr_t *label)
{
	if (!t || t->instrumented || t->ldso)
		return NULL; /* its own probes see it, or ld.so's business, or unknown */
	if (!t->ours)
		return t;
	*label = (uintptr_t)dlsym(RTLD_NEXT, name);
	t = *label ? holder(all, n, *label) : NULL;
	return t && !t->ours && !t->instrumented && !t->ldso ? t : NULL;
}

/* True when the filters let calls of `name` in the module `t` be recorded. */
static bool admitted(const char *name, const struct loaded *t)
{
	char path[PATH_MAX];
	char *demangled;
	bool yes;

	if (!options.filtered)
		return true;
	demangled = symbols_demangle(name);
	yes = filter_admits(demangled ? demangled : name, last_component(module_path(t, path)));
	free(demangled);
	return yes;
}

/* Makes the probes record calls of the library function at `target`: the
 * filters admitted it (verdict.h; written under the filters' lock, as every
 * verdict).  False when there is no room for its verdict. */
static bool admit_in_verdicts(uintptr_t target)
{
	bool done;

	filter_lock();
	if (library_verdicts < 0 &&
	    (library_verdicts = verdict_module_add(NULL, NULL, 0, false)) >= 0)
		verdict_module_publish(library_verdicts);
	done = library_verdicts >= 0 && verdict_set(library_verdicts, target, true) == 0;
	filter_unlock();
	return done;
}

/* What a jump slot gets: a stub, 0 for none.  Notes lazy slots in `rec`. */
static uintptr_t stub_for(const struct loaded *all, size_t n, const struct loaded *m,
			  const ElfW(Rela) * r, struct got_module *rec)
{
	char path[PATH_MAX];
	const char *name = sym_name(&m->dyn, r);
	uintptr_t target = *(uintptr_t *)(m->base + r->r_offset), label = target;
	const struct loaded *t;
	struct libstub_entry *e;

	if (holds(m, target)) { /* still lazy, or the module's own function */
		if (looks_lazy(target))
			add_name(&rec->lazy, &rec->nlazy, name);
		return 0;
	}
	t = label_of(all, n, holder(all, n, target), name, &label);
	if (!t || !admitted(name, t))
		return 0;
	e = libstub_get(target, name, label, module_path(t, path), t->base,
			is_counted_only(name) ? LIBSTUB_COUNT_ONLY : 0);
	if (e && options.filtered && !admit_in_verdicts(target))
		return 0;
	return e ? e->stub : 0;
}

/* Functions the module calls through a GOT entry that is no jump slot: its
 * address is taken too (a PIE's .plt.got), or it was built with -fno-plt. */
static void note_through_got(const struct loaded *m, struct got_module *rec)
{
	const struct dyn_tables *d = &m->dyn;

	for (size_t i = 0; i < d->nrela; i++) {
		const ElfW(Sym) *s = &d->symtab[ELF64_R_SYM(d->rela[i].r_info)];
		const char *name = sym_name(d, &d->rela[i]);
		bool slot = false;
		if (ELF64_R_TYPE(d->rela[i].r_info) != R_X86_64_GLOB_DAT ||
		    ELF64_ST_TYPE(s->st_info) != STT_FUNC || s->st_shndx != SHN_UNDEF ||
		    is_never_patched(name))
			continue;
		for (size_t k = 0; k < d->njmprel && !slot; k++)
			slot = ELF64_R_SYM(d->jmprel[k].r_info) &&
			       !strcmp(sym_name(d, &d->jmprel[k]), name);
		if (!slot)
			add_name(&rec->through_got, &rec->nthrough, name);
	}
}

/* Stores the stubs in their slots, the read-only GOT opened around it. */
static void store(const struct loaded *m, const struct patch *p, size_t n, struct got_module *rec)
{
	bool relro = false, open = true;

	for (size_t i = 0; i < n && !relro; i++)
		relro = (uintptr_t)p[i].slot >= m->relro_lo && (uintptr_t)p[i].slot < m->relro_hi;
	if (relro)
		open = mprotect((void *)m->relro_lo, m->relro_hi - m->relro_lo,
				PROT_READ | PROT_WRITE) == 0;
	for (size_t i = 0; i < n; i++) {
		if (!open && (uintptr_t)p[i].slot >= m->relro_lo &&
		    (uintptr_t)p[i].slot < m->relro_hi)
			continue;
		__atomic_store_n(p[i].slot, p[i].stub, __ATOMIC_RELEASE);
		rec->probed++;
	}
	if (relro && open)
		mprotect((void *)m->relro_lo, m->relro_hi - m->relro_lo, PROT_READ);
}

static struct got_module *record_add(const struct loaded *m)
{
	char path[PATH_MAX];
	struct got_module *rec;

	if (nmodules == cap_modules) {
		size_t cap = cap_modules ? cap_modules * 2 : 16;
		struct got_module *more = realloc(modules, cap * sizeof(*more));
		if (!more)
			return NULL;
		modules = more;
		cap_modules = cap;
	}
	rec = &modules[nmodules];
	memset(rec, 0, sizeof(*rec));
	if (!(rec->path = strdup(module_path(m, path))))
		return NULL;
	rec->base = m->base;
	rec->lo = UINTPTR_MAX;
	for (size_t i = 0; i < m->n; i++) {
		rec->lo = m->lo[i] < rec->lo ? m->lo[i] : rec->lo;
		rec->hi = m->hi[i] > rec->hi ? m->hi[i] : rec->hi;
	}
	rec->live = true;
	nmodules++;
	return rec;
}

static void patch_module(const struct loaded *all, size_t n, const struct loaded *m)
{
	struct got_module *rec = record_add(m);
	struct patch *p = calloc(m->dyn.njmprel ? m->dyn.njmprel : 1, sizeof(*p));
	size_t np = 0;

	if (!rec || !p)
		goto out;
	for (size_t i = 0; i < m->dyn.njmprel; i++) {
		const ElfW(Rela) *r = &m->dyn.jmprel[i];
		uintptr_t stub;
		if (ELF64_R_TYPE(r->r_info) != R_X86_64_JUMP_SLOT ||
		    is_never_patched(sym_name(&m->dyn, r)))
			continue;
		rec->slots++;
		if ((stub = stub_for(all, n, m, r, rec)))
			p[np++] = (struct patch){ (uintptr_t *)(m->base + r->r_offset), stub };
	}
	note_through_got(m, rec);
	libstub_publish(); /* the stubs executable before any slot points there */
	store(m, p, np, rec);
out:
	free(p);
}

static bool known(const struct loaded *m)
{
	char path[PATH_MAX];
	const char *name = module_path(m, path);

	for (size_t i = 0; i < nmodules; i++)
		if (modules[i].live && modules[i].base == m->base && !strcmp(modules[i].path, name))
			return true;
	return false;
}

void got_patch_loaded(void)
{
	struct loaded_list all = { NULL, 0, 0 };

	if (!libcall_on)
		return;
	pthread_mutex_lock(&lock);
	dl_iterate_phdr(collect, &all);
	for (size_t i = 0; i < all.n; i++)
		if (all.m[i].instrumented && !known(&all.m[i]))
			patch_module(all.m, all.n, &all.m[i]);
	loaded_free(all.m, all.n);
	pthread_mutex_unlock(&lock);
}

/* True when the runtime is inside the program (static archive). */
static int find_runtime(struct dl_phdr_info *info, size_t size, void *arg)
{
	struct loaded m = { .base = info->dlpi_addr };

	(void)size;
	(void)arg;
	for (size_t i = 0; i < info->dlpi_phnum && m.n < MAX_SEGMENTS; i++)
		if (info->dlpi_phdr[i].p_type == PT_LOAD) {
			m.lo[m.n] = info->dlpi_addr + info->dlpi_phdr[i].p_vaddr;
			m.hi[m.n] = m.lo[m.n] + info->dlpi_phdr[i].p_memsz;
			m.n++;
		}
	return holds(&m, (uintptr_t)&find_runtime) ? (info->dlpi_name && info->dlpi_name[0] ? 1 : 2)
						   : 0;
}

void got_setup(void)
{
	if (!options.libcalls)
		return;
	got_static_runtime = dl_iterate_phdr(find_runtime, NULL) == 2;
	if (got_static_runtime)
		return;
	if (libstub_setup((uintptr_t)libcall_entry) < 0)
		return;
	libcall_on = true;
	got_patch_loaded();
}

/* True when some loaded module holds `addr`. */
static int holder_found(struct dl_phdr_info *info, size_t size, void *arg)
{
	uintptr_t addr = *(uintptr_t *)arg;

	(void)size;
	for (size_t i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		uintptr_t lo = info->dlpi_addr + ph->p_vaddr;
		if (ph->p_type == PT_LOAD && addr >= lo && addr < lo + ph->p_memsz)
			return 1;
	}
	return 0;
}

static bool is_mapped(uintptr_t addr)
{
	return dl_iterate_phdr(holder_found, &addr) == 1;
}

/* What got_unloaded gathers: the keys of live entries whose function is gone. */
struct gone {
	uintptr_t *keys;
	size_t n, cap;
};

static void gather_gone(const struct libstub_entry *e, void *arg)
{
	struct gone *g = arg;

	if (e->key != e->target || is_mapped(e->target))
		return;
	if (g->n == g->cap) {
		size_t cap = g->cap ? g->cap * 2 : 16;
		uintptr_t *more = realloc(g->keys, cap * sizeof(*more));
		if (!more)
			return;
		g->keys = more;
		g->cap = cap;
	}
	g->keys[g->n++] = e->key;
}

static bool still_loaded(const struct got_module *rec, const struct loaded *all, size_t n)
{
	char path[PATH_MAX];

	for (size_t i = 0; i < n; i++)
		if (all[i].base == rec->base && !strcmp(module_path(&all[i], path), rec->path))
			return true;
	return false;
}

uintptr_t *got_unloaded(size_t *n)
{
	struct loaded_list all = { NULL, 0, 0 };
	struct gone g = { NULL, 0, 0 };

	*n = 0;
	if (!libcall_on)
		return NULL;
	pthread_mutex_lock(&lock);
	if (dl_iterate_phdr(collect, &all) == 0)
		for (size_t i = 0; i < nmodules; i++)
			if (modules[i].live && !still_loaded(&modules[i], all.m, all.n))
				modules[i].live = false;
	loaded_free(all.m, all.n);
	libstub_each(gather_gone, &g);
	pthread_mutex_unlock(&lock);
	*n = g.n;
	return g.keys;
}

const struct got_module *got_report(const char *path, uintptr_t addr)
{
	for (size_t i = 0; i < nmodules; i++)
		if (addr >= modules[i].lo && addr < modules[i].hi && !strcmp(modules[i].path, path))
			return &modules[i];
	return NULL;
}

uintptr_t got_calibration_stub(uintptr_t leaf)
{
	struct libstub_entry *e;

	if (!libcall_on)
		return 0;
	pthread_mutex_lock(&lock);
	e = libstub_get(leaf, "callprof calibration", leaf, "", 0, 0);
	libstub_publish();
	pthread_mutex_unlock(&lock);
	return e ? e->stub : 0;
}

void got_lock(void)
{
	pthread_mutex_lock(&lock);
}

void got_unlock(void)
{
	pthread_mutex_unlock(&lock);
}
