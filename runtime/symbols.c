/* symbols.c: libdw symbolization of this process's own function addresses. */
#include "symbols.h"

#include <dlfcn.h>
#include <dwarf.h>
#include <elfutils/libdwfl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct symbols {
	Dwfl *dwfl;
	struct sym_module *mods;
	Dwfl_Module **mod_keys;     /* libdw module of each entry of mods */
	size_t nmods, cap;
};

/* Where libdw looks for the process's modules and their separate debug files. */
static char *debuginfo_path;
static const Dwfl_Callbacks proc_callbacks = {
	.find_elf = dwfl_linux_proc_find_elf,
	.find_debuginfo = dwfl_standard_find_debuginfo,
	.debuginfo_path = &debuginfo_path,
};

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

/* The index of `mod` in s->mods, adding it on first sight; -1 without memory. */
static long module_index(struct symbols *s, Dwfl_Module *mod)
{
	const char *path;
	Dwarf_Addr start;
	struct sym_module *m;

	for (size_t i = 0; i < s->nmods; i++)
		if (s->mod_keys[i] == mod)
			return (long)i;
	if (s->nmods == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 8;
		struct sym_module *mods = realloc(s->mods, cap * sizeof(*mods));
		Dwfl_Module **keys;
		if (!mods)
			return -1;
		s->mods = mods;
		keys = realloc(s->mod_keys, cap * sizeof(*keys));
		if (!keys)
			return -1;
		s->mod_keys = keys;
		s->cap = cap;
	}
	path = dwfl_module_info(mod, NULL, &start, NULL, NULL, NULL, NULL, NULL);
	m = &s->mods[s->nmods];
	m->path = strdup(path ? path : "?");
	m->build_id = hex_build_id(mod);
	m->base = (uintptr_t)start;
	s->mod_keys[s->nmods] = mod;
	return (long)s->nmods++;
}

/* The declaration file and line of the function whose code holds `addr`. */
static void find_source(Dwfl_Module *mod, uintptr_t addr, struct sym_function *out)
{
	Dwarf_Addr bias;
	Dwarf_Die *cu = dwfl_module_addrdie(mod, addr, &bias);
	Dwarf_Die *scopes = NULL;
	int n;

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
		Dwfl_Line *l = dwfl_module_getsrc(mod, addr);
		int line = 0;
		const char *file = l ? dwfl_lineinfo(l, NULL, &line, NULL, NULL, NULL) : NULL;
		if (file) {
			out->file = strdup(file);
			out->line = line;
		}
	}
}

void symbols_resolve(struct symbols *s, uintptr_t addr, struct sym_function *out)
{
	Dwfl_Module *mod = s ? dwfl_addrmodule(s->dwfl, addr) : NULL;
	GElf_Sym sym;
	GElf_Off off;
	const char *name = NULL;
	char buf[32];

	memset(out, 0, sizeof(*out));
	out->module = -1;
	if (mod) {
		Dwarf_Addr start;
		dwfl_module_info(mod, NULL, &start, NULL, NULL, NULL, NULL, NULL);
		out->module = module_index(s, mod);
		out->offset = addr - (uintptr_t)start;
		name = dwfl_module_addrinfo(mod, addr, &off, &sym, NULL, NULL, NULL);
		find_source(mod, addr, out);
	}
	if (!name) {
		snprintf(buf, sizeof(buf), "0x%lx", (unsigned long)addr);
		name = buf;
	}
	out->name = symbols_demangle(name);
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
	free(s->mod_keys);
	dwfl_end(s->dwfl);
	free(s);
}
