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
#include "modlist.h"
#include "symbols.h"
#include "verdict.h"

/* A module whose symbol table names one of these calls the probes: it is decided. */
static const char *const probed_markers[] = { "__cyg_profile_func_enter", "__fentry__", NULL };

/* The globs, split from the settings once. */
struct globs {
	char *text;
	const char **glob;
	unsigned n;
};
static struct globs includes, excludes;

/* A module looked at: decided (id >= 0), or not probed, or not readable (-1). */
struct seen {
	char *name;
	uintptr_t base;
	int id;   /* verdict.h's module id, or -1 */
	size_t n; /* its segments, for the plans of args.h when it is unloaded */
	uintptr_t lo[MODLIST_SEGMENTS], hi[MODLIST_SEGMENTS];
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

static struct seen *seen_find(const char *name, uintptr_t base)
{
	for (size_t i = 0; i < nseen; i++)
		if (seen[i].base == base && !strcmp(seen[i].name, name))
			return &seen[i];
	return NULL;
}

static void seen_add(const struct module *m, int id)
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
static bool module_file(const struct module *m, char path[PATH_MAX])
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
static int decide_module(const struct module *m)
{
	char path[PATH_MAX];
	struct deciding_module d = { NULL, -1, NULL, 0, 0 };
	const char *slash;
	int rc;

	if ((m->name[0] && module_holds(m, (uintptr_t)&decide_module)) || !module_file(m, path))
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
	struct modlist now;

	if ((!verdict_on && !args_on) || deciding)
		return;
	pthread_mutex_lock(&lock);
	if (!ready) /* before start-up read the globs: it decides every module then */
		goto out_unlock;
	deciding = true;
	modlist_take(&now, false); /* without memory, those listed are decided */
	for (size_t i = 0; i < now.n; i++)
		if (!seen_find(now.m[i].name, now.m[i].base))
			seen_add(&now.m[i], decide_module(&now.m[i]));
	modlist_release(&now);
	deciding = false;
out_unlock:
	pthread_mutex_unlock(&lock);
}

void filter_unload_modules(void)
{
	struct modlist now;
	size_t kept = 0;

	if ((!verdict_on && !args_on) || deciding)
		return;
	pthread_mutex_lock(&lock);
	if (!modlist_take(&now, false)) /* an incomplete list says nothing of what is gone */
		goto out;
	for (size_t i = 0; i < nseen; i++) {
		if (modlist_has(&now, seen[i].name, seen[i].base)) {
			seen[kept++] = seen[i];
			continue;
		}
		verdict_module_drop(seen[i].id);
		if (args_on)
			args_module_unloaded(seen[i].lo, seen[i].hi, seen[i].n);
		free(seen[i].name);
	}
	nseen = kept;
out:
	modlist_release(&now);
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
