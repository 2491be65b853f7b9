/* filter.c: the include/exclude decision per function, made once and cached lock-free. */
#include "filter.h"

#include <fnmatch.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "symbols.h"

#define CACHE_SLOTS 65536 /* a power of two; when full, functions are decided again each time */

bool filter_on;

/* The globs, split from the settings once. */
struct globs {
	char *text;
	const char **glob;
	unsigned n;
};
static struct globs includes, excludes;

/* fn -> decision: key fn (0 = empty), value 1 admitted, 2 excluded; inserted with CAS. */
static uintptr_t cache_key[CACHE_SLOTS];
static unsigned char cache_val[CACHE_SLOTS];
/* Serialises naming functions: libdw is not thread-safe. */
static pthread_mutex_t naming_lock = PTHREAD_MUTEX_INITIALIZER;
static struct symbols *syms;

static void globs_split(struct globs *g, const char *list)
{
	char *save = NULL;
	size_t max = 1;

	if (!list || !*list)
		return;
	for (const char *c = list; *c; c++)
		max += *c == ',';
	g->text = strdup(list);
	g->glob = malloc(max * sizeof(*g->glob));
	if (!g->text || !g->glob) {
		fprintf(stderr, "callprof: ignoring a filter list: out of memory\n");
		return;
	}
	for (char *tok = strtok_r(g->text, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
		if (*tok)
			g->glob[g->n++] = tok;
}

void filter_setup(const char *include, const char *exclude)
{
	globs_split(&includes, include);
	globs_split(&excludes, exclude);
	filter_on = includes.n || excludes.n;
}

static bool globs_match(const struct globs *g, const char *name, const char *module)
{
	const char *base = module ? strrchr(module, '/') : NULL;

	base = base ? base + 1 : module;
	for (unsigned i = 0; i < g->n; i++)
		if (fnmatch(g->glob[i], name, 0) == 0 || (base && fnmatch(g->glob[i], base, 0) == 0))
			return true;
	return false;
}

static bool decide(uintptr_t fn)
{
	struct sym_function f;
	const char *module = NULL;
	bool admit;

	pthread_mutex_lock(&naming_lock);
	if (!syms)
		syms = symbols_open();
	symbols_resolve(syms, fn, &f);
	if (f.module < 0 && syms) { /* loaded since we looked: look again */
		symbols_free(syms);
		syms = symbols_open();
		sym_function_release(&f);
		symbols_resolve(syms, fn, &f);
	}
	if (f.module >= 0) {
		size_t n;
		module = symbols_modules(syms, &n)[f.module].path;
	}
	admit = (!includes.n || globs_match(&includes, f.name, module)) &&
		!globs_match(&excludes, f.name, module);
	sym_function_release(&f);
	pthread_mutex_unlock(&naming_lock);
	return admit;
}

bool filter_admits(uintptr_t fn)
{
	size_t i = (size_t)(((uint64_t)fn * 0x9E3779B97F4A7C15ull) >> 48) & (CACHE_SLOTS - 1);
	bool admit;

	for (size_t probes = 0; probes < 64; probes++, i = (i + 1) & (CACHE_SLOTS - 1)) {
		uintptr_t key = __atomic_load_n(&cache_key[i], __ATOMIC_ACQUIRE);
		unsigned char v;
		if (key == fn) {
			while (!(v = __atomic_load_n(&cache_val[i], __ATOMIC_ACQUIRE)))
				; /* another thread is deciding this one */
			return v == 1;
		}
		if (key)
			continue;
		if (!__atomic_compare_exchange_n(&cache_key[i], &key, fn, false, __ATOMIC_ACQ_REL,
						 __ATOMIC_ACQUIRE)) {
			if (key != fn)
				continue; /* another function took the slot */
			while (!(v = __atomic_load_n(&cache_val[i], __ATOMIC_ACQUIRE)))
				;
			return v == 1;
		}
		admit = decide(fn);
		__atomic_store_n(&cache_val[i], (unsigned char)(admit ? 1 : 2), __ATOMIC_RELEASE);
		return admit;
	}
	return decide(fn);
}
