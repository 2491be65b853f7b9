/* symbols.c: libdw symbolization of this process's own function addresses. */
#include "symbols.h"

#include "cct.h"

#include <dlfcn.h>
#include <dwarf.h>
#include <pthread.h>
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

/* The sorted CU ranges of one module, built on first need. */
struct cu_index {
	Dwfl_Module *mod;
	Dwarf_Addr bias;
	struct cu_range *ranges;
	size_t n;
};

struct symbols {
	Dwfl *dwfl;
	struct cu_index *cu_indexes;
	size_t n_cu_indexes;
	struct sym_module *mods;
	size_t nmods, cap;
};

/* Where libdw looks for the process's modules and their separate debug files. */
static char *debuginfo_path;
static const Dwfl_Callbacks proc_callbacks = {
	.find_elf = dwfl_linux_proc_find_elf,
	.find_debuginfo = dwfl_standard_find_debuginfo,
	.debuginfo_path = &debuginfo_path,
};

/* For one library file on its own, named before it is unloaded. */
static const Dwfl_Callbacks offline_callbacks = {
	.find_elf = dwfl_build_id_find_elf,
	.find_debuginfo = dwfl_standard_find_debuginfo,
	.section_address = dwfl_offline_section_address,
	.debuginfo_path = &debuginfo_path,
};

/* A name kept for a function of a library unloaded before the dump. */
struct remembered {
	uintptr_t addr;
	struct sym_function fn;  /* fn.module unused: the module is path + base */
	char *path;
	char *build_id;
	uintptr_t base;
};
/* Guards the remembered names: dlclose may run on any thread. */
static pthread_mutex_t remembered_lock = PTHREAD_MUTEX_INITIALIZER;
static struct remembered *remembered;
static size_t n_remembered, cap_remembered;

typedef char *(*cxa_demangle_fn)(const char *, char *, size_t *, int *);

/* __cxa_demangle from the C++ runtime if the program has one, else from libstdc++ if installed. */
static cxa_demangle_fn find_demangler(void)
{
	static cxa_demangle_fn fn;
	static int looked;
	void *lib;

	if (looked)
		return fn;
	looked = 1;
	*(void **)&fn = dlsym(RTLD_DEFAULT, "__cxa_demangle");
	if (!fn && (lib = dlopen("libstdc++.so.6", RTLD_LAZY | RTLD_LOCAL)))
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

static struct cu_index *cu_index_build(struct cu_index *ix, Dwfl_Module *mod)
{
	Dwarf_Die *cu = NULL;
	size_t cap = 0;

	ix->mod = mod;
	while ((cu = dwfl_module_nextcu(mod, cu, &ix->bias))) {
		Dwarf_Addr base, low, high;
		ptrdiff_t off = 0;
		while ((off = dwarf_ranges(cu, off, &base, &low, &high)) > 0) {
			if (ix->n == cap) {
				struct cu_range *more = realloc(ix->ranges, (cap = cap ? cap * 2 : 64) * sizeof(*more));
				if (!more)
					return ix;
				ix->ranges = more;
			}
			ix->ranges[ix->n++] = (struct cu_range){ low, high, *cu };
		}
	}
	if (ix->n)
		qsort(ix->ranges, ix->n, sizeof(*ix->ranges), cmp_cu_range);
	return ix;
}

/* The compile unit holding `addr` when the module has no .debug_aranges. */
static Dwarf_Die *cu_lookup(struct symbols *s, Dwfl_Module *mod, uintptr_t addr, Dwarf_Addr *bias)
{
	struct cu_index *ix = NULL;
	size_t lo = 0, hi;

	for (size_t i = 0; i < s->n_cu_indexes; i++)
		if (s->cu_indexes[i].mod == mod)
			ix = &s->cu_indexes[i];
	if (!ix) {
		struct cu_index *more = realloc(s->cu_indexes, (s->n_cu_indexes + 1) * sizeof(*more));
		if (!more)
			return NULL;
		s->cu_indexes = more;
		ix = &s->cu_indexes[s->n_cu_indexes++];
		memset(ix, 0, sizeof(*ix));
		cu_index_build(ix, mod);
	}
	*bias = ix->bias;
	hi = ix->n;
	while (lo < hi) { /* the last range starting at or below addr */
		size_t mid = (lo + hi) / 2;
		if (ix->ranges[mid].low <= addr - ix->bias)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (size_t i = lo; i-- > 0 && lo - i <= 64;) /* ranges may nest: look back a little */
		if (addr - ix->bias >= ix->ranges[i].low && addr - ix->bias < ix->ranges[i].high)
			return &ix->ranges[i].cu;
	return NULL;
}

/* The declaration file and line of the function whose code holds `addr`. */
static void find_source(struct symbols *s, Dwfl_Module *mod, uintptr_t addr, struct sym_function *out)
{
	Dwarf_Addr bias;
	Dwarf_Die *cu = dwfl_module_addrdie(mod, addr, &bias);
	Dwarf_Die *scopes = NULL;
	int n;

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
	GElf_Off off;
	const char *name = dwfl_module_addrinfo(mod, addr, &off, &sym, NULL, NULL, NULL);

	out->offset = addr - start;
	if (name)
		out->name = symbols_demangle(name);
	find_source(s, mod, addr, out);
}

static void name_unknown(uintptr_t addr, struct sym_function *out)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "0x%lx", (unsigned long)addr);
	out->name = strdup(buf);
}

/* A remembered name for `addr` (a function of an unloaded library), or NULL. */
static const struct remembered *remembered_find(uintptr_t addr)
{
	for (size_t i = 0; i < n_remembered; i++)
		if (remembered[i].addr == addr)
			return &remembered[i];
	return NULL;
}

void symbols_resolve(struct symbols *s, uintptr_t addr, struct sym_function *out)
{
	const struct remembered *r;
	Dwfl_Module *mod;

	memset(out, 0, sizeof(*out));
	out->module = -1;
	pthread_mutex_lock(&remembered_lock);
	r = remembered_find(addr);
	if (r) {
		out->name = strdup(r->fn.name);
		out->file = r->fn.file ? strdup(r->fn.file) : NULL;
		out->line = r->fn.line;
		out->offset = r->fn.offset;
		if (s)
			out->module = module_index(s, r->path, r->base,
						   r->build_id ? strdup(r->build_id) : NULL, NULL);
	}
	pthread_mutex_unlock(&remembered_lock);
	if (r)
		return;
	mod = s ? dwfl_addrmodule(s->dwfl, addr) : NULL;
	if (mod) {
		const char *path;
		Dwarf_Addr start;
		path = dwfl_module_info(mod, NULL, &start, NULL, NULL, NULL, NULL, NULL);
		out->module = module_index(s, path ? path : "?", (uintptr_t)start, hex_build_id(mod), mod);
		resolve_in_module(s, mod, addr, (uintptr_t)start, out);
	}
	if (!out->name)
		name_unknown(cct_key_address(addr), out);
}

void symbols_remember(const char *path, uintptr_t base, const uintptr_t *addrs,
		      const uintptr_t *keys, size_t n)
{
	Dwfl *dwfl = dwfl_begin(&offline_callbacks);
	Dwfl_Module *mod;
	char *build_id;

	if (!dwfl)
		return;
	dwfl_report_begin(dwfl);
	mod = dwfl_report_elf(dwfl, path, path, -1, base, false);
	dwfl_report_end(dwfl, NULL, NULL);
	build_id = mod ? hex_build_id(mod) : NULL;
	pthread_mutex_lock(&remembered_lock);
	for (size_t i = 0; mod && i < n; i++) {
		struct remembered *r;
		if (remembered_find(keys[i]))
			continue;
		if (n_remembered == cap_remembered) {
			size_t cap = cap_remembered ? cap_remembered * 2 : 64;
			struct remembered *more = realloc(remembered, cap * sizeof(*more));
			if (!more)
				break;
			remembered = more;
			cap_remembered = cap;
		}
		r = &remembered[n_remembered++];
		memset(r, 0, sizeof(*r));
		r->addr = keys[i];
		r->fn.module = -1;
		resolve_in_module(NULL, mod, addrs[i], base, &r->fn);
		if (!r->fn.name)
			name_unknown(addrs[i], &r->fn);
		r->path = strdup(path);
		r->build_id = build_id ? strdup(build_id) : NULL;
		r->base = base;
	}
	pthread_mutex_unlock(&remembered_lock);
	free(build_id);
	dwfl_end(dwfl);
}

void symbols_call_line(struct symbols *s, uintptr_t ret_addr, char **file, int *line)
{
	/* The call instruction ends just before the return address. */
	Dwfl_Module *mod = s && ret_addr ? dwfl_addrmodule(s->dwfl, ret_addr - 1) : NULL;
	Dwfl_Line *l = mod ? dwfl_module_getsrc(mod, ret_addr - 1) : NULL;
	const char *name = l ? dwfl_lineinfo(l, NULL, line, NULL, NULL, NULL) : NULL;
	Dwarf_Addr bias;
	Dwarf_Die *cu;

	if (!name && mod && (cu = cu_lookup(s, mod, ret_addr - 1, &bias))) {
		Dwarf_Line *dl = dwarf_getsrc_die(cu, ret_addr - 1 - bias);
		name = dl && dwarf_lineno(dl, line) == 0 ? dwarf_linesrc(dl, NULL, NULL) : NULL;
	}
	*file = name ? strdup(name) : NULL;
	if (!*file)
		*line = 0;
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
	Dwfl_Module *mod = s && module >= 0 && (size_t)module < s->nmods ?
				   s->mods[module].dwfl_module : NULL;
	int n = mod ? dwfl_module_getsymtab(mod) : -1;
	struct fn_sym *fns = n > 0 ? calloc((size_t)n, sizeof(*fns)) : NULL;
	size_t count = 0;
	GElf_Sym sym;
	GElf_Addr addr;
	GElf_Word shndx;

	for (int i = 1; fns && i < n; i++) {
		const char *name = dwfl_module_getsym_info(mod, i, &sym, &addr, &shndx, NULL, NULL);
		if (name && GELF_ST_TYPE(sym.st_info) == STT_FUNC && sym.st_size && shndx != SHN_UNDEF)
			fns[count++] = (struct fn_sym){ (uintptr_t)addr, i };
	}
	if (count)
		qsort(fns, count, sizeof(*fns), cmp_fn_sym);
	for (size_t i = 0; i < count; i++) {
		if (i && fns[i].addr == fns[i - 1].addr)
			continue; /* an alias: the first name only */
		visit(fns[i].addr, dwfl_module_getsym_info(mod, fns[i].index, &sym, &addr, &shndx, NULL, NULL),
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
	for (size_t i = 0; i < s->n_cu_indexes; i++)
		free(s->cu_indexes[i].ranges);
	free(s->cu_indexes);
	dwfl_end(s->dwfl);
	free(s);
}
