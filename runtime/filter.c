/* filter.c: deciding CALLPROF_INCLUDE / CALLPROF_EXCLUDE per function when its module is loaded
 * (verdict.h keeps the answers), and picking the functions CALLPROF_ARGS selects (args.h plans them). */
#include "filter.h"

#include <fnmatch.h>
#include <limits.h>
#include <link.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "args.h"
#include "fentry.h"
#include "symbols.h"
#include "verdict.h"

#define MAX_SEGMENTS 16
/* A module whose symbol table names one of these calls the probes: it is decided. */
static const char *const probed_markers[] = { "__cyg_profile_func_enter", "__fentry__", NULL };

/* The globs, split from the settings once. */
struct globs {
	char *text;
	const char **glob;
	unsigned n;
};
static struct globs includes, excludes;

/* A loaded module, as dl_iterate_phdr reports it. */
struct loaded {
	char *name; /* dlpi_name, malloc'ed; "" for the main program */
	uintptr_t base;
	size_t n;
	uintptr_t lo[MAX_SEGMENTS], hi[MAX_SEGMENTS];
};

/* The modules loaded at one moment. */
struct loaded_list {
	struct loaded *m;
	size_t n, cap;
};

/* A module looked at: decided (id >= 0), or not probed, or not readable (-1). */
struct seen {
	char *name;
	uintptr_t base;
	int id;   /* verdict.h's module id, or -1 */
	size_t n; /* its segments, for the plans of args.h when it is unloaded */
	uintptr_t lo[MAX_SEGMENTS], hi[MAX_SEGMENTS];
};

/* Serialises the deciders: start-up, dlopen and dlclose on any thread. */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
/* Set while this thread decides: a dlopen made meanwhile (the demangler's) waits for none. */
static __thread bool deciding __attribute__((tls_model("initial-exec")));
static struct seen *seen;
static size_t nseen, cap_seen;
/* The globs are read: modules can be decided. */
static bool ready;

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
	pthread_mutex_lock(&lock);
	ready = true;
	pthread_mutex_unlock(&lock);
}

static bool globs_match(const struct globs *g, const char *name, const char *module_base)
{
	for (unsigned i = 0; i < g->n; i++)
		if (fnmatch(g->glob[i], name, 0) == 0 || fnmatch(g->glob[i], module_base, 0) == 0)
			return true;
	return false;
}

/* The verdict on a function called `name` (demangled) of a module whose file is `module_base`. */
static bool admits(const char *name, const char *module_base)
{
	return (!includes.n || globs_match(&includes, name, module_base)) &&
	       !globs_match(&excludes, name, module_base);
}

bool filter_admits(const char *name, const char *module_base)
{
	return admits(name, module_base);
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
	for (size_t i = 0; i < info->dlpi_phnum && m->n < MAX_SEGMENTS; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		if (ph->p_type != PT_LOAD)
			continue;
		m->lo[m->n] = info->dlpi_addr + ph->p_vaddr;
		m->hi[m->n] = m->lo[m->n] + ph->p_memsz;
		m->n++;
	}
	all->n++;
	return 0;
}

/* Every loaded module (n of them), malloc'ed; NULL without memory.  Copied
 * out first: nothing slow runs while the loader's lock is held. */
static struct loaded *loaded_modules(size_t *n)
{
	struct loaded_list all = { NULL, 0, 0 };

	dl_iterate_phdr(collect, &all);
	*n = all.n;
	return all.m;
}

static void loaded_free(struct loaded *m, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(m[i].name);
	free(m);
}

static struct seen *seen_find(const char *name, uintptr_t base)
{
	for (size_t i = 0; i < nseen; i++)
		if (seen[i].base == base && !strcmp(seen[i].name, name))
			return &seen[i];
	return NULL;
}

static void seen_add(const struct loaded *m, int id)
{
	if (nseen == cap_seen) {
		size_t cap = cap_seen ? cap_seen * 2 : 32;
		struct seen *more = realloc(seen, cap * sizeof(*more));
		if (!more)
			return;
		seen = more;
		cap_seen = cap;
	}
	if (!(seen[nseen].name = strdup(m->name)))
		return;
	seen[nseen].base = m->base;
	seen[nseen].id = id;
	seen[nseen].n = m->n;
	memcpy(seen[nseen].lo, m->lo, sizeof(m->lo));
	memcpy(seen[nseen].hi, m->hi, sizeof(m->hi));
	nseen++;
}

/* The file module `m` was mapped from, as /proc/self/maps names it (its
 * last component is what a module glob matches).  False for none (the vDSO). */
static bool module_file(const struct loaded *m, char path[PATH_MAX])
{
	ssize_t len;

	if (m->name[0])
		return realpath(m->name, path) != NULL;
	len = readlink("/proc/self/exe", path, PATH_MAX - 1);
	if (len <= 0)
		return false;
	path[len] = '\0';
	return true;
}

static bool holds(const struct loaded *m, uintptr_t addr)
{
	for (size_t i = 0; i < m->n; i++)
		if (addr >= m->lo[i] && addr < m->hi[i])
			return true;
	return false;
}

/* What decide_function needs, and what it picks for args.h. */
struct deciding_module {
	const char *file_base; /* the module's file name, last component */
	int id;                /* its verdicts' module id; -1 without filters */
	struct args_pick *picks;
	size_t npicks, cap;
};

/* Keeps the function at `addr` for a plan; takes `demangled`. */
static void pick(struct deciding_module *d, uintptr_t addr, const char *name, char *demangled)
{
	if (d->npicks == d->cap) {
		size_t cap = d->cap ? d->cap * 2 : 16;
		struct args_pick *more = realloc(d->picks, cap * sizeof(*more));
		if (!more) {
			free(demangled);
			return;
		}
		d->picks = more;
		d->cap = cap;
	}
	d->picks[d->npicks++] = (struct args_pick){ addr, strdup(name), demangled };
}

static void decide_function(uintptr_t addr, const char *name, void *arg)
{
	struct deciding_module *d = arg;
	char *demangled = symbols_demangle(name);
	const char *shown = demangled ? demangled : name;

	uintptr_t key = fentry_call_end(addr); /* a -pg -mfentry function's probes give this */

	if (d->id >= 0) {
		verdict_set(d->id, addr, admits(shown, d->file_base));
		if (key)
			verdict_set(d->id, key, admits(shown, d->file_base));
	}
	if (args_on && args_selects(shown) && (demangled || (demangled = strdup(name)))) {
		pick(d, addr, name, demangled);
		return;
	}
	free(demangled);
}

/* Decides every function of `m`; returns its verdict id, or -1 for a module
 * that is not decided (libcallprof.so, the vDSO, one that calls no probe), or
 * when calls are not filtered (its functions may still get plans: args.h).
 * Linked statically, the runtime is part of the program, which is decided. */
static int decide_module(const struct loaded *m)
{
	char path[PATH_MAX];
	struct deciding_module d = { NULL, -1, NULL, 0, 0 };
	const char *slash;
	int rc;

	if ((m->name[0] && holds(m, (uintptr_t)&decide_module)) || !module_file(m, path))
		return -1;
	slash = strrchr(path, '/');
	d.file_base = slash ? slash + 1 : path;
	/* Its functions without a symbol are judged by the module alone. */
	if (verdict_on &&
	    (d.id = verdict_module_add(m->lo, m->hi, m->n, admits("", d.file_base))) < 0)
		return -1;
	rc = symbols_module_functions(path, m->base, probed_markers, decide_function, &d);
	if (d.id >= 0 && rc <= 0)
		verdict_module_drop(d.id);
	else if (d.id >= 0)
		verdict_module_publish(d.id);
	args_module(path, m->base, d.picks, d.npicks);
	free(d.picks);
	return rc <= 0 ? -1 : d.id;
}

void filter_load_modules(void)
{
	struct loaded *m;
	size_t n;

	if ((!verdict_on && !args_on) || deciding)
		return;
	pthread_mutex_lock(&lock);
	if (!ready) /* before start-up read the globs: it decides every module then */
		goto out_unlock;
	deciding = true;
	m = loaded_modules(&n);
	for (size_t i = 0; m && i < n; i++)
		if (!seen_find(m[i].name, m[i].base))
			seen_add(&m[i], decide_module(&m[i]));
	loaded_free(m, n);
	deciding = false;
out_unlock:
	pthread_mutex_unlock(&lock);
}

static bool is_loaded(const struct seen *s, const struct loaded *m, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (m[i].base == s->base && !strcmp(m[i].name, s->name))
			return true;
	return false;
}

void filter_unload_modules(void)
{
	struct loaded *m;
	size_t n, kept = 0;

	if ((!verdict_on && !args_on) || deciding)
		return;
	pthread_mutex_lock(&lock);
	m = loaded_modules(&n);
	for (size_t i = 0; m && i < nseen; i++) {
		if (is_loaded(&seen[i], m, n)) {
			seen[kept++] = seen[i];
			continue;
		}
		verdict_module_drop(seen[i].id);
		if (args_on)
			args_module_unloaded(seen[i].lo, seen[i].hi, seen[i].n);
		free(seen[i].name);
	}
	if (m)
		nseen = kept;
	loaded_free(m, n);
	pthread_mutex_unlock(&lock);
}

void filter_lock(void)
{
	pthread_mutex_lock(&lock);
}

void filter_unlock(void)
{
	pthread_mutex_unlock(&lock);
}
