/* symbols.c: libdw symbolization of this process's own function addresses. */
#include "symbols.h"

#include "debuginfo.h"
#include "linkage.h"

#include <dlfcn.h>
#include <limits.h>
#include <link.h>
#include <dwarf.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <errno.h>
#include <elfutils/libdwfl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* One address range of a compile unit, for modules without .debug_aranges (Clang). */
struct cu_range {
	Dwarf_Addr low, high; /* module-relative, [low, high) */
	Dwarf_Die cu;
};

/* A function symbol with code. */
struct sym_entry {
	uintptr_t addr; /* process address */
	uintptr_t size;
	const char *name; /* in libdw's string table: lives as long as the Dwfl */
};

/* A subprogram's code range and declaration, from one pass over the DWARF. */
struct sub_entry {
	Dwarf_Addr low, high; /* module-relative, [low, high) */
	const char *file;     /* libdw's, or NULL */
	int line;
};

/* Per-module indexes, built on first need, so naming n functions costs
 * O(n log n) instead of a scan of the symbol table and of the compile
 * unit's DIEs per function. */
struct cu_index {
	Dwfl_Module *mod;
	Dwarf_Addr bias;
	struct cu_range *ranges; /* compile units (for modules without .debug_aranges) */
	size_t n;
	struct sym_entry *syms; /* sorted by address */
	size_t nsyms;
	struct sub_entry *subs; /* sorted by low */
	size_t nsubs;
};

struct symbols {
	Dwfl *dwfl;
	struct cu_index *cu_indexes;
	size_t n_cu_indexes;
	struct sym_module *mods;
	size_t nmods, cap;
	char **warnings; /* why names are missing, one line each (symbols_warnings) */
	size_t nwarnings;
};

/* Where libdw looks for the process's modules and their separate debug files
 * (on this machine only, unless CALLPROF_DEBUGINFOD=1: debuginfo.h). */
static char *debuginfo_path;
static const Dwfl_Callbacks proc_callbacks = {
	.find_elf = dwfl_linux_proc_find_elf,
	.find_debuginfo = debuginfo_find,
	.debuginfo_path = &debuginfo_path,
};

/* For one library file on its own, named before it is unloaded. */
static const Dwfl_Callbacks offline_callbacks = {
	.find_elf = debuginfo_find_elf,
	.find_debuginfo = debuginfo_find,
	.section_address = dwfl_offline_section_address,
	.debuginfo_path = &debuginfo_path,
};

/* A name kept for a function of a library unloaded before the dump. */
struct remembered_fn {
	uintptr_t addr;
	struct sym_function fn; /* fn.module unused: the module is its unload's */
};

/* The names kept at one unload (symbols_remember), sorted by address. */
struct remembered {
	uint64_t tag; /* the unload's tag, as symbols_remember got it */
	char *path;
	char *build_id;
	uintptr_t base;
	struct remembered_fn *fns;
	size_t n;
};

#define REMEMBERED_TAGS \
	65536 /* tags index by_tag modulo this (cct.h keeps 16 bits of a generation) */

/* Guards the remembered names: dlclose may run on any thread. */
static pthread_mutex_t remembered_lock = PTHREAD_MUTEX_INITIALIZER;
/* Every unload's names, and the latest unload of each tag (index + 1; 0: none). */
static struct remembered *remembered;
static size_t n_remembered, cap_remembered;
static uint32_t *remembered_by_tag;

typedef char *(*cxa_demangle_fn)(const char *, char *, size_t *, int *);

/* __cxa_demangle from the C++ runtime if the program has one, else from
 * libstdc++ if installed (opened with dlmopen: our own dlopen, interposed in
 * dlwatch.c, is the program's, not ours to call).  Not in a static program,
 * whose malloc is its own (dlsym finds none): the libstdc++ opened there
 * brings a libc of its own, and its names could not be freed here. */
static cxa_demangle_fn find_demangler(void)
{
	static cxa_demangle_fn fn;
	static int looked;
	void *lib;

	if (looked)
		return fn;
	looked = 1;
	*(void **)&fn = dlsym(RTLD_DEFAULT, "__cxa_demangle");
	if (!fn && dlsym(RTLD_DEFAULT, "malloc") == (void *)&malloc &&
	    (lib = dlmopen(LM_ID_BASE, "libstdc++.so.6", RTLD_LAZY | RTLD_LOCAL)))
		*(void **)&fn = dlsym(lib, "__cxa_demangle");
	return fn;
}

char *symbols_demangle(const char *name)
{
	cxa_demangle_fn demangle;
	int status = -1;
	char *out;

	if (strncmp(name, "_Z", 2) == 0 && (demangle = find_demangler())) {
		out = demangle(name, NULL, NULL, &status);
		if (status == 0 && out)
			return out;
		free(out);
	}
	return strdup(name);
}

struct symbols *symbols_open(void)
{
	struct symbols *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	s->dwfl = dwfl_begin(&proc_callbacks);
	if (!s->dwfl)
		goto out_free;
	dwfl_report_begin(s->dwfl);
	if (dwfl_linux_proc_report(s->dwfl, getpid()) != 0)
		goto out_end;
	if (dwfl_report_end(s->dwfl, NULL, NULL) != 0)
		goto out_end;
	return s;
out_end:
	dwfl_end(s->dwfl);
out_free:
	free(s);
	return NULL;
}

/* Adds a line to the reasons why names are missing (symbols_warnings). */
__attribute__((format(printf, 2, 3))) static void warn(struct symbols *s, const char *fmt, ...)
{
	char line[PATH_MAX + 256], **more;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	more = realloc(s->warnings, (s->nwarnings + 1) * sizeof(*more));
	if (!more)
		return;
	s->warnings = more;
	if ((more[s->nwarnings] = strdup(line)))
		s->nwarnings++;
}

/* What report_module needs: the sorted addresses whose modules to report. */
struct report_ctx {
	struct symbols *s;
	const uintptr_t *addrs;
	size_t n;
};

static bool any_in(const uintptr_t *sorted, size_t n, uintptr_t lo, uintptr_t hi)
{
	size_t a = 0, b = n;

	while (a < b) { /* the first address at or above lo */
		size_t mid = (a + b) / 2;
		if (sorted[mid] < lo)
			a = mid + 1;
		else
			b = mid;
	}
	return a < n && sorted[a] < hi;
}

/* dl_iterate_phdr callback: reports the module if one of the addresses is in
 * it; says why when its file cannot be read (its functions are then named by
 * module and offset: symbols_resolve). */
static int report_module(struct dl_phdr_info *info, size_t size, void *arg)
{
	struct report_ctx *r = arg;
	char exe[PATH_MAX];
	const char *path = info->dlpi_name;
	bool used = false;
	int err;

	(void)size;
	for (size_t i = 0; i < info->dlpi_phnum && !used; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		uintptr_t lo = info->dlpi_addr + ph->p_vaddr;
		if (ph->p_type == PT_LOAD && any_in(r->addrs, r->n, lo, lo + ph->p_memsz))
			used = true;
	}
	if (!used)
		return 0;
	if (!path || !path[0]) { /* the main program */
		ssize_t len = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
		if (len <= 0) {
			warn(r->s,
			     "names are missing for the program: its file is unknown "
			     "(/proc/self/exe: %s), "
			     "so its functions are named by module and offset",
			     strerror(errno));
			return 0;
		}
		exe[len] = '\0';
		path = exe;
	}
	errno = 0;
	if (!dwfl_report_elf(r->s->dwfl, path, path, -1, info->dlpi_addr, false)) {
		err = errno;
		warn(r->s,
		     "names are missing for %s: its file could not be read (%s), so its functions "
		     "are named by module and offset",
		     path, err ? strerror(err) : dwfl_errmsg(-1));
	}
	return 0;
}

static int cmp_uintptr(const void *a, const void *b)
{
	uintptr_t x = *(const uintptr_t *)a, y = *(const uintptr_t *)b;
	return (x > y) - (x < y);
}

struct symbols *symbols_open_for(const uintptr_t *addrs, size_t n)
{
	struct symbols *s = calloc(1, sizeof(*s));
	uintptr_t *sorted = malloc((n ? n : 1) * sizeof(*sorted));
	struct report_ctx r;

	if (!s || !sorted)
		goto out_free;
	memcpy(sorted, addrs, n * sizeof(*sorted));
	qsort(sorted, n, sizeof(*sorted), cmp_uintptr);
	s->dwfl = dwfl_begin(&offline_callbacks);
	if (!s->dwfl) {
		warn(s,
		     "names are missing: libdw could not start (%s), so functions are named by "
		     "module and "
		     "offset",
		     dwfl_errmsg(-1));
		goto out_sorted;
	}
	r = (struct report_ctx){ s, sorted, n };
	dwfl_report_begin(s->dwfl);
	dl_iterate_phdr(report_module, &r);
	if (dwfl_report_end(s->dwfl, NULL, NULL) != 0) {
		warn(s,
		     "names are missing: libdw could not read the modules (%s), so functions are "
		     "named by "
		     "module and offset",
		     dwfl_errmsg(-1));
		dwfl_end(s->dwfl);
		s->dwfl = NULL;
	}
out_sorted:
	free(sorted);
	return s;
out_free:
	free(sorted);
	free(s);
	return NULL;
}

const char *const *symbols_warnings(const struct symbols *s, size_t *count)
{
	*count = s ? s->nwarnings : 0;
	return s ? (const char *const *)s->warnings : NULL;
}

static char *hex_build_id(Dwfl_Module *mod)
{
	const unsigned char *bits;
	GElf_Addr vaddr;
	int len = dwfl_module_build_id(mod, &bits, &vaddr);
	char *hex;

	if (len <= 0 || !(hex = malloc((size_t)len * 2 + 1)))
		return NULL;
	for (int i = 0; i < len; i++)
		sprintf(hex + 2 * i, "%02x", bits[i]);
	return hex;
}

/* The index of the module at `path` loaded at `base`, adding it on first
 * sight (taking `build_id`, else freeing it); -1 without memory. */
static long module_index(struct symbols *s, const char *path, uintptr_t base, char *build_id,
			 Dwfl_Module *mod)
{
	struct sym_module *m;

	for (size_t i = 0; i < s->nmods; i++)
		if (s->mods[i].base == base && !strcmp(s->mods[i].path, path)) {
			free(build_id);
			return (long)i;
		}
	if (s->nmods == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 8;
		struct sym_module *mods = realloc(s->mods, cap * sizeof(*mods));
		if (!mods) {
			free(build_id);
			return -1;
		}
		s->mods = mods;
		s->cap = cap;
	}
	m = &s->mods[s->nmods];
	m->path = strdup(path);
	m->build_id = build_id;
	m->base = base;
	m->dwfl_module = mod;
	return (long)s->nmods++;
}

static int cmp_cu_range(const void *a, const void *b)
{
	const struct cu_range *x = a, *y = b;
	return (x->low > y->low) - (x->low < y->low);
}

static int cmp_sym_entry(const void *a, const void *b)
{
	const struct sym_entry *x = a, *y = b;
	return (x->addr > y->addr) - (x->addr < y->addr);
}

static int cmp_sub_entry(const void *a, const void *b)
{
	const struct sub_entry *x = a, *y = b;
	return (x->low > y->low) - (x->low < y->low);
}

static void index_symbols(struct cu_index *ix, Dwfl_Module *mod)
{
	int n = dwfl_module_getsymtab(mod);
	GElf_Sym sym;
	GElf_Addr addr;
	GElf_Word shndx;

	if (n <= 0 || !(ix->syms = calloc((size_t)n, sizeof(*ix->syms))))
		return;
	for (int i = 1; i < n; i++) {
		const char *name = dwfl_module_getsym_info(mod, i, &sym, &addr, &shndx, NULL, NULL);
		if (name && GELF_ST_TYPE(sym.st_info) == STT_FUNC && shndx != SHN_UNDEF)
			ix->syms[ix->nsyms++] =
				(struct sym_entry){ (uintptr_t)addr, sym.st_size, name };
	}
	qsort(ix->syms, ix->nsyms, sizeof(*ix->syms), cmp_sym_entry);
}

/* Adds the code ranges of the subprogram `die` to the index. */
static void index_subprogram(struct cu_index *ix, Dwarf_Die *die, size_t *cap)
{
	Dwarf_Addr base, low, high;
	ptrdiff_t off = 0;
	const char *file = dwarf_decl_file(die);
	int line = 0;

	if (dwarf_decl_line(die, &line) != 0)
		line = 0;
	while ((off = dwarf_ranges(die, off, &base, &low, &high)) > 0) {
		if (ix->nsubs == *cap) {
			struct sub_entry *more =
				realloc(ix->subs, (*cap = *cap ? *cap * 2 : 256) * sizeof(*more));
			if (!more)
				return;
			ix->subs = more;
		}
		ix->subs[ix->nsubs++] = (struct sub_entry){ low, high, file, file ? line : 0 };
	}
}

/* Every subprogram with code under `die`, at any depth (namespaces, classes),
 * without recursion on the C stack: walks siblings and children. */
static void index_subprograms(struct cu_index *ix, Dwarf_Die *cu, size_t *cap)
{
	Dwarf_Die stack[64];
	int depth = 0;

	if (dwarf_child(cu, &stack[0]) != 0)
		return;
	for (;;) {
		Dwarf_Die *die = &stack[depth];
		Dwarf_Die child;
		if (dwarf_tag(die) == DW_TAG_subprogram)
			index_subprogram(ix, die, cap);
		if (depth + 1 < 64 && dwarf_child(die, &child) == 0) {
			stack[++depth] = child;
			continue;
		}
		while (dwarf_siblingof(&stack[depth], &stack[depth]) != 0)
			if (--depth < 0)
				return;
	}
}

/* True if the code of `cu` is the runtime's own, linked into the program from the
 * archive (linkage.h): none of it is ever named, and walking its debug information
 * took a profiled run of a small program about 10 ms. */
static bool runtime_cu(Dwarf_Die *cu, Dwarf_Addr bias)
{
	Dwarf_Addr base, low, high;

	return dwarf_ranges(cu, 0, &base, &low, &high) > 0 &&
	       linkage_own_code((uintptr_t)(low + bias));
}

static struct cu_index *cu_index_build(struct cu_index *ix, Dwfl_Module *mod)
{
	Dwarf_Die *cu = NULL;
	size_t cap = 0, sub_cap = 0;

	ix->mod = mod;
	index_symbols(ix, mod);
	while ((cu = dwfl_module_nextcu(mod, cu, &ix->bias))) {
		if (runtime_cu(cu, ix->bias))
			continue;
		index_subprograms(ix, cu, &sub_cap);
		Dwarf_Addr base, low, high;
		ptrdiff_t off = 0;
		while ((off = dwarf_ranges(cu, off, &base, &low, &high)) > 0) {
			if (ix->n == cap) {
				struct cu_range *more = realloc(
					ix->ranges, (cap = cap ? cap * 2 : 64) * sizeof(*more));
				if (!more)
					return ix;
				ix->ranges = more;
			}
			ix->ranges[ix->n++] = (struct cu_range){ low, high, *cu };
		}
	}
	if (ix->n)
		qsort(ix->ranges, ix->n, sizeof(*ix->ranges), cmp_cu_range);
	if (ix->nsubs)
		qsort(ix->subs, ix->nsubs, sizeof(*ix->subs), cmp_sub_entry);
	return ix;
}

/* The index of `mod`, built on first need; NULL without memory. */
static struct cu_index *module_index_of(struct symbols *s, Dwfl_Module *mod)
{
	struct cu_index *ix;

	for (size_t i = 0; i < s->n_cu_indexes; i++)
		if (s->cu_indexes[i].mod == mod)
			return &s->cu_indexes[i];
	ix = realloc(s->cu_indexes, (s->n_cu_indexes + 1) * sizeof(*ix));
	if (!ix)
		return NULL;
	s->cu_indexes = ix;
	ix = &s->cu_indexes[s->n_cu_indexes++];
	memset(ix, 0, sizeof(*ix));
	return cu_index_build(ix, mod);
}

/* The last entry of a sorted array whose key is at or below `key`: binary search. */
#define LAST_AT_OR_BELOW(array, n, field, key)            \
	({                                                \
		size_t lo_ = 0, hi_ = (n);                \
		while (lo_ < hi_) {                       \
			size_t mid_ = (lo_ + hi_) / 2;    \
			if ((array)[mid_].field <= (key)) \
				lo_ = mid_ + 1;           \
			else                              \
				hi_ = mid_;               \
		}                                         \
		lo_;                                      \
	})

/* The function symbol covering `addr`, or NULL. */
static const struct sym_entry *indexed_sym(struct symbols *s, Dwfl_Module *mod, uintptr_t addr)
{
	struct cu_index *ix = s ? module_index_of(s, mod) : NULL;
	size_t i;

	if (!ix || !ix->nsyms)
		return NULL;
	i = LAST_AT_OR_BELOW(ix->syms, ix->nsyms, addr, addr);
	if (i &&
	    (addr < ix->syms[i - 1].addr + ix->syms[i - 1].size || addr == ix->syms[i - 1].addr))
		return &ix->syms[i - 1];
	return NULL;
}

/* The name of the function symbol covering `addr`, or NULL. */
static const char *indexed_name(struct symbols *s, Dwfl_Module *mod, uintptr_t addr)
{
	const struct sym_entry *e = indexed_sym(s, mod, addr);

	return e ? e->name : NULL;
}

/* The declaration of the subprogram whose code holds `addr`; false if none is indexed. */
static bool indexed_source(struct symbols *s, Dwfl_Module *mod, uintptr_t addr,
			   struct sym_function *out)
{
	struct cu_index *ix = s ? module_index_of(s, mod) : NULL;
	Dwarf_Addr rel;
	size_t i;

	if (!ix || !ix->nsubs)
		return false;
	rel = addr - ix->bias;
	i = LAST_AT_OR_BELOW(ix->subs, ix->nsubs, low, rel);
	/* Ranges may nest (a subprogram inside another's range): look back a little. */
	for (size_t k = i; k-- > 0 && i - k <= 16;)
		if (rel >= ix->subs[k].low && rel < ix->subs[k].high) {
			if (!ix->subs[k].file)
				return false;
			out->file = strdup(ix->subs[k].file);
			out->line = ix->subs[k].line;
			return true;
		}
	return false;
}

/* The compile unit of index `ix` holding `addr`, or NULL. */
static Dwarf_Die *cu_in_index(struct cu_index *ix, uintptr_t addr)
{
	size_t lo = LAST_AT_OR_BELOW(ix->ranges, ix->n, low, addr - ix->bias);

	for (size_t i = lo; i-- > 0 && lo - i <= 64;) /* ranges may nest: look back a little */
		if (addr - ix->bias >= ix->ranges[i].low && addr - ix->bias < ix->ranges[i].high)
			return &ix->ranges[i].cu;
	return NULL;
}

/* The compile unit holding `addr` when the module has no .debug_aranges. */
static Dwarf_Die *cu_lookup(struct symbols *s, Dwfl_Module *mod, uintptr_t addr, Dwarf_Addr *bias)
{
	struct cu_index *ix = module_index_of(s, mod);

	if (!ix)
		return NULL;
	*bias = ix->bias;
	return cu_in_index(ix, addr);
}

/* The declaration file and line of the function whose code holds `addr`. */
static void find_source(struct symbols *s, Dwfl_Module *mod, uintptr_t addr,
			struct sym_function *out)
{
	Dwarf_Addr bias;
	Dwarf_Die *cu = dwfl_module_addrdie(mod, addr, &bias);
	Dwarf_Die *scopes = NULL;
	int n;

	if (indexed_source(s, mod, addr, out))
		return;
	if (!cu && s)
		cu = cu_lookup(s, mod, addr, &bias);
	if (!cu)
		return;
	n = dwarf_getscopes(cu, addr - bias, &scopes);
	for (int i = 0; i < n; i++) {
		const char *file;
		int line;
		if (dwarf_tag(&scopes[i]) != DW_TAG_subprogram)
			continue;
		file = dwarf_decl_file(&scopes[i]);
		if (file && dwarf_decl_line(&scopes[i], &line) == 0) {
			out->file = strdup(file);
			out->line = line;
		}
		break;
	}
	free(scopes);
	if (!out->file) { /* no subprogram DIE: fall back to the line table */
		Dwarf_Line *l = dwarf_getsrc_die(cu, addr - bias);
		int line = 0;
		const char *file = l ? dwarf_linesrc(l, NULL, NULL) : NULL;
		if (file && dwarf_lineno(l, &line) == 0) {
			out->file = strdup(file);
			out->line = line;
		}
	}
}

/* Symbol, source and offset of `addr` in `mod`, whose load address is `start`. */
static void resolve_in_module(struct symbols *s, Dwfl_Module *mod, uintptr_t addr, uintptr_t start,
			      struct sym_function *out)
{
	GElf_Sym sym;
	GElf_Off off = 0;
	const struct sym_entry *e = indexed_sym(s, mod, addr);
	/* libdw's look-up scans every symbol: only where the index has none. */
	const char *name =
		e ? e->name : dwfl_module_addrinfo(mod, addr, &off, &sym, NULL, NULL, NULL);

	if (e)
		out->start = e->addr;
	else
		out->start = name ? addr - off : addr; /* a -pg -mfentry key lies a few bytes in */
	out->offset = out->start - start;
	if (name)
		out->name = symbols_demangle(name);
	find_source(s, mod, out->start, out);
}

static void name_unknown(uintptr_t addr, struct sym_function *out)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "0x%lx", (unsigned long)addr);
	out->name = strdup(buf);
}

/* A function without a symbol: `module+0xoffset`, after the module file's
 * name, so that two runs of one program name it alike whatever ASLR did. */
static void name_by_offset(const char *path, uintptr_t offset, struct sym_function *out)
{
	const char *slash = path ? strrchr(path, '/') : NULL;
	const char *base = slash ? slash + 1 : path;
	char buf[PATH_MAX + 32];

	if (!base || !base[0])
		base = "?";
	snprintf(buf, sizeof(buf), "%s+0x%lx", base, (unsigned long)offset);
	out->name = strdup(buf);
}

/* Names `addr` from the dynamic linker's own tables (no file read): the module
 * that maps it, and the dynamic symbol that starts there, if any.  For the
 * modules libdw could not read (names limited by RLIMIT_NOFILE, a chroot). */
static void resolve_loaded(struct symbols *s, uintptr_t addr, struct sym_function *out)
{
	Dl_info info;

	if (!dladdr((void *)addr, &info) || !info.dli_fname)
		return;
	out->offset = addr - (uintptr_t)info.dli_fbase;
	if (s)
		out->module =
			module_index(s, info.dli_fname, (uintptr_t)info.dli_fbase, NULL, NULL);
	if (info.dli_sname && (uintptr_t)info.dli_saddr == addr)
		out->name = symbols_demangle(info.dli_sname);
	else
		name_by_offset(info.dli_fname, out->offset, out);
}

void symbols_resolve(struct symbols *s, uintptr_t addr, struct sym_function *out)
{
	Dwfl_Module *mod = s && s->dwfl ? dwfl_addrmodule(s->dwfl, addr) : NULL;

	memset(out, 0, sizeof(*out));
	out->module = -1;
	out->start = addr;
	if (mod) {
		const char *path;
		Dwarf_Addr start;
		path = dwfl_module_info(mod, NULL, &start, NULL, NULL, NULL, NULL, NULL);
		out->module = module_index(s, path ? path : "?", (uintptr_t)start,
					   hex_build_id(mod), mod);
		resolve_in_module(s, mod, addr, (uintptr_t)start, out);
		if (!out->name)
			name_by_offset(path, out->offset, out);
	} else {
		resolve_loaded(s, addr, out);
	}
	if (!out->name)
		name_unknown(addr, out);
}

/* The name kept for `addr` among the unload `r`'s (sorted), or NULL. */
static const struct remembered_fn *remembered_find(const struct remembered *r, uintptr_t addr)
{
	size_t lo = 0, hi = r->n;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (r->fns[mid].addr < addr)
			lo = mid + 1;
		else if (r->fns[mid].addr > addr)
			hi = mid;
		else
			return &r->fns[mid];
	}
	return NULL;
}

void symbols_resolve_unloaded(struct symbols *s, uint64_t tag, uintptr_t addr,
			      struct sym_function *out)
{
	const struct remembered *r = NULL;
	const struct remembered_fn *f = NULL;
	uint32_t index;

	memset(out, 0, sizeof(*out));
	out->module = -1;
	out->start = addr;
	pthread_mutex_lock(&remembered_lock);
	index = remembered_by_tag ? remembered_by_tag[tag % REMEMBERED_TAGS] : 0;
	if (index && remembered[index - 1].tag == tag)
		r = &remembered[index - 1];
	if (r && (f = remembered_find(r, addr))) {
		out->name = strdup(f->fn.name);
		out->file = f->fn.file ? strdup(f->fn.file) : NULL;
		out->line = f->fn.line;
		out->offset = f->fn.offset;
		out->start = f->fn.start; /* where it was */
	} else if (r) {
		out->offset = addr - r->base;
		name_by_offset(r->path, out->offset, out);
	}
	if (r && s)
		out->module = module_index(s, r->path, r->base,
					   r->build_id ? strdup(r->build_id) : NULL, NULL);
	pthread_mutex_unlock(&remembered_lock);
	if (!out->name)
		name_unknown(addr, out);
}

static void cu_indexes_release(struct cu_index *ix, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(ix[i].ranges);
		free(ix[i].syms);
		free(ix[i].subs);
	}
	free(ix);
}

void symbols_remember_lock(void)
{
	pthread_mutex_lock(&remembered_lock);
}

void symbols_remember_unlock(void)
{
	pthread_mutex_unlock(&remembered_lock);
}

/* Keeps `r` (taking what it holds) as the latest unload of its tag, with the
 * names' lock held.  False without memory. */
static bool remembered_add(struct remembered *r)
{
	bool ok = true;

	if (!remembered_by_tag &&
	    !(remembered_by_tag = calloc(REMEMBERED_TAGS, sizeof(*remembered_by_tag))))
		ok = false;
	if (ok && n_remembered == cap_remembered) {
		size_t cap = cap_remembered ? cap_remembered * 2 : 16;
		struct remembered *more = realloc(remembered, cap * sizeof(*more));
		if (more) {
			remembered = more;
			cap_remembered = cap;
		} else {
			ok = false;
		}
	}
	if (ok) {
		remembered[n_remembered++] = *r;
		remembered_by_tag[r->tag % REMEMBERED_TAGS] = (uint32_t)n_remembered;
	}
	return ok;
}

/* Past this many functions, naming builds the module's indexes once (linear
 * in its symbols and DWARF) instead of searching it per function. */
#define REMEMBER_INDEXED 32

void symbols_remember(const char *path, uintptr_t base, uint64_t tag, const uintptr_t *addrs,
		      size_t n, int fd)
{
	struct symbols scratch = { 0 };
	struct remembered r = { .tag = tag, .base = base, .n = n };
	Dwfl_Module *mod = NULL;

	r.path = strdup(path);
	r.fns = calloc(n ? n : 1, sizeof(*r.fns));
	if (!r.path || !r.fns)
		goto out_free;
	scratch.dwfl = dwfl_begin(&offline_callbacks);
	if (scratch.dwfl) {
		dwfl_report_begin(scratch.dwfl);
		mod = dwfl_report_elf(scratch.dwfl, path, path, fd, base, false);
		dwfl_report_end(scratch.dwfl, NULL, NULL);
	}
	if (!mod && fd >= 0)
		close(fd); /* libdw owns it once the module is reported */
	r.build_id = mod ? hex_build_id(mod) : NULL;
	for (size_t i = 0; i < n; i++) {
		struct remembered_fn *f = &r.fns[i];
		f->addr = addrs[i];
		f->fn.module = -1;
		if (mod)
			resolve_in_module(n > REMEMBER_INDEXED ? &scratch : NULL, mod, addrs[i],
					  base, &f->fn);
		f->fn.offset = addrs[i] - base;
		if (!f->fn.name)
			name_by_offset(path, f->fn.offset, &f->fn);
	}
	cu_indexes_release(scratch.cu_indexes, scratch.n_cu_indexes);
	dwfl_end(scratch.dwfl);
	if (remembered_add(&r))
		return;
out_free:
	for (size_t i = 0; r.fns && i < n; i++)
		sym_function_release(&r.fns[i].fn);
	free(r.fns);
	free(r.path);
	free(r.build_id);
}

/* True if `s` is `name`, of any version (a linker may write "name@VERSION" into .symtab). */
static bool is_symbol(const char *s, const char *name, size_t len)
{
	return !strncmp(s, name, len) && (s[len] == '\0' || s[len] == '@');
}

/* True if the symbol tables of the file of `mod` have a symbol of one of
 * `names` (NULL-terminated), defined or not.  The file's own tables only: no
 * search for separate debug information, so it costs little for the many
 * modules that say no. */
static bool file_has_symbol(Dwfl_Module *mod, const char *const *names)
{
	GElf_Addr bias;
	Elf *elf = dwfl_module_getelf(mod, &bias);
	Elf_Scn *scn = NULL;

	while (elf && (scn = elf_nextscn(elf, scn))) {
		GElf_Shdr shdr;
		Elf_Data *data;
		if (!gelf_getshdr(scn, &shdr) ||
		    (shdr.sh_type != SHT_SYMTAB && shdr.sh_type != SHT_DYNSYM) ||
		    !shdr.sh_entsize || !(data = elf_getdata(scn, NULL)))
			continue;
		for (size_t i = 1; i < shdr.sh_size / shdr.sh_entsize; i++) {
			GElf_Sym sym;
			const char *s;
			if (!gelf_getsym(data, (int)i, &sym) ||
			    !(s = elf_strptr(elf, shdr.sh_link, sym.st_name)))
				continue;
			for (const char *const *n = names; *n; n++)
				if (is_symbol(s, *n, strlen(*n)))
					return true;
		}
	}
	return false;
}

int symbols_module_functions(const char *path, uintptr_t base, const char *const *markers,
			     void (*visit)(uintptr_t addr, const char *name, void *arg), void *arg)
{
	Dwfl *dwfl = dwfl_begin(&offline_callbacks);
	struct cu_index ix = { 0 };
	Dwfl_Module *mod;
	int rc = -1;

	if (!dwfl)
		return -1;
	dwfl_report_begin(dwfl);
	mod = dwfl_report_elf(dwfl, path, path, -1, base, false);
	dwfl_report_end(dwfl, NULL, NULL);
	if (!mod)
		goto out_end;
	rc = 0;
	if (markers && !file_has_symbol(mod, markers))
		goto out_end;
	index_symbols(&ix, mod);
	/* Of the names at one address, the last in the sorted index: the one
	 * indexed_name gives, so a function is filtered by the name it is shown by. */
	for (size_t i = 0; i < ix.nsyms; i++)
		if (i + 1 == ix.nsyms || ix.syms[i + 1].addr != ix.syms[i].addr)
			visit(ix.syms[i].addr, ix.syms[i].name, arg);
	free(ix.syms);
	rc = 1;
out_end:
	dwfl_end(dwfl);
	return rc;
}

/* code_name: the (mangled) name of the function symbol whose code holds `addr`, or NULL. */
static const char *code_name(struct symbols *s, Dwfl_Module *mod, uintptr_t addr)
{
	GElf_Sym sym;
	GElf_Off off;
	const char *name = indexed_name(s, mod, addr);

	return name ? name : dwfl_module_addrinfo(mod, addr, &off, &sym, NULL, NULL, NULL);
}

/* Code named `at` is the function `fn`'s own: fn itself, or a part split off (fn.cold, fn.constprop.0). */
static bool own_code(const char *at, const char *fn)
{
	size_t n = strlen(fn);

	return !strncmp(at, fn, n) && (at[n] == '\0' || at[n] == '.');
}

bool symbols_call_line(struct symbols *s, uintptr_t ret_addr, uintptr_t caller, char **file,
		       int *line)
{
	/* The call instruction ends just before the return address. */
	Dwfl_Module *mod = s && s->dwfl && ret_addr ? dwfl_addrmodule(s->dwfl, ret_addr - 1) : NULL;
	Dwfl_Module *caller_mod = s && s->dwfl ? dwfl_addrmodule(s->dwfl, caller) : NULL;
	const char *at, *fn;
	Dwfl_Line *l;

	*file = NULL;
	*line = 0;
	if (!s || !ret_addr || !caller_mod)
		return true;
	if (mod != caller_mod)
		return false;
	at = code_name(s, mod, ret_addr - 1);
	fn = code_name(s, mod, caller);
	if (at && fn && !own_code(at, fn))
		return false;
	l = dwfl_module_getsrc(mod, ret_addr - 1);
	const char *name = l ? dwfl_lineinfo(l, NULL, line, NULL, NULL, NULL) : NULL;
	Dwarf_Addr bias;
	Dwarf_Die *cu;

	if (!name && (cu = cu_lookup(s, mod, ret_addr - 1, &bias))) {
		Dwarf_Line *dl = dwarf_getsrc_die(cu, ret_addr - 1 - bias);
		name = dl && dwarf_lineno(dl, line) == 0 ? dwarf_linesrc(dl, NULL, NULL) : NULL;
	}
	*file = name ? strdup(name) : NULL;
	if (!*file)
		*line = 0;
	return true;
}

/* A function symbol: its address and its index in the module's symbol table. */
struct fn_sym {
	uintptr_t addr;
	int index;
};

static int cmp_fn_sym(const void *a, const void *b)
{
	const struct fn_sym *x = a, *y = b;

	if (x->addr != y->addr)
		return (x->addr > y->addr) - (x->addr < y->addr);
	return (x->index > y->index) - (x->index < y->index);
}

void symbols_each_function(struct symbols *s, long module,
			   void (*visit)(uintptr_t addr, const char *name, void *arg), void *arg)
{
	Dwfl_Module *mod =
		s && module >= 0 && (size_t)module < s->nmods ? s->mods[module].dwfl_module : NULL;
	int n = mod ? dwfl_module_getsymtab(mod) : -1;
	struct fn_sym *fns = n > 0 ? calloc((size_t)n, sizeof(*fns)) : NULL;
	struct cu_index *ix;
	size_t count = 0;
	GElf_Sym sym;
	GElf_Addr addr;
	GElf_Word shndx;

	for (int i = 1; fns && i < n; i++) {
		const char *name = dwfl_module_getsym_info(mod, i, &sym, &addr, &shndx, NULL, NULL);
		if (name && GELF_ST_TYPE(sym.st_info) == STT_FUNC && sym.st_size &&
		    shndx != SHN_UNDEF)
			fns[count++] = (struct fn_sym){ (uintptr_t)addr, i };
	}
	if (count)
		qsort(fns, count, sizeof(*fns), cmp_fn_sym);
	ix = count ? module_index_of(s, mod) : NULL;
	for (size_t i = 0; i < count; i++) {
		if (i && fns[i].addr == fns[i - 1].addr)
			continue; /* an alias: the first name only */
		if (ix && ix->n && !cu_in_index(ix, fns[i].addr))
			continue; /* no debug information: library code a static link brought */
		visit(fns[i].addr,
		      dwfl_module_getsym_info(mod, fns[i].index, &sym, &addr, &shndx, NULL, NULL),
		      arg);
	}
	free(fns);
}

void sym_function_release(struct sym_function *f)
{
	free(f->name);
	free(f->file);
	f->name = f->file = NULL;
}

long symbols_locate(struct symbols *s, uintptr_t addr, uintptr_t *offset)
{
	Dwfl_Module *mod = s ? dwfl_addrmodule(s->dwfl, addr) : NULL;
	const char *path;
	Dwarf_Addr start;

	*offset = 0;
	if (!mod)
		return -1;
	path = dwfl_module_info(mod, NULL, &start, NULL, NULL, NULL, NULL, NULL);
	*offset = addr - (uintptr_t)start;
	return module_index(s, path ? path : "?", (uintptr_t)start, hex_build_id(mod), mod);
}

long symbols_module_of(struct symbols *s, const char *path, uintptr_t base)
{
	return s ? module_index(s, path, base, NULL, NULL) : -1;
}

const struct sym_module *symbols_modules(const struct symbols *s, size_t *count)
{
	*count = s ? s->nmods : 0;
	return s ? s->mods : NULL;
}

void symbols_free(struct symbols *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->nmods; i++) {
		free(s->mods[i].path);
		free(s->mods[i].build_id);
	}
	free(s->mods);
	cu_indexes_release(s->cu_indexes, s->n_cu_indexes);
	for (size_t i = 0; i < s->nwarnings; i++)
		free(s->warnings[i]);
	free(s->warnings);
	dwfl_end(s->dwfl);
	free(s);
}
