/* verdict.c: the filters' verdicts per function and per module, read lock-free (see verdict.h). */
#include "verdict.h"

#include <string.h>
#include <sys/mman.h>

#define MAX_MODULES 1024 /* decided modules loaded at once */
#define MAX_RANGES 16    /* loaded segments of one module */
#define MIN_SLOTS ((size_t)4096)

/* A decided module. */
struct vmodule {
	uintptr_t lo[MAX_RANGES], hi[MAX_RANGES]; /* its segments, [lo, hi) */
	uint32_t n;
	bool admit; /* the verdict on its functions without one of their own */
	bool live;  /* published (release): its verdicts are all written */
};

/* A function's verdict: (module id + 1) << 1 | admitted; 0 for none (its
 * module was dropped).  The key is written last (release). */
struct ventry {
	uintptr_t fn; /* 0: empty */
	uint32_t val;
};

struct vtable {
	size_t mask; /* slots - 1 */
	size_t used; /* keys set, dropped ones included */
	struct ventry e[];
};

bool verdict_on;
/* The modules, mapped on first use; ids below `nmodules` have been used. */
static struct vmodule *modules;
static uint32_t nmodules;
/* The function table the probes read. */
static struct vtable *table;

static uint64_t fn_hash(uintptr_t fn)
{
	return (uint64_t)fn * 0x9E3779B97F4A7C15ull;
}

static enum verdict module_verdict(uintptr_t fn)
{
	uint32_t n = __atomic_load_n(&nmodules, __ATOMIC_ACQUIRE);
	const struct vmodule *m = __atomic_load_n(&modules, __ATOMIC_ACQUIRE);

	for (uint32_t i = 0; i < n; i++) {
		if (!__atomic_load_n(&m[i].live, __ATOMIC_ACQUIRE))
			continue;
		for (uint32_t r = 0; r < m[i].n; r++)
			if (fn >= m[i].lo[r] && fn < m[i].hi[r])
				return m[i].admit ? VERDICT_ADMIT : VERDICT_EXCLUDE;
	}
	return VERDICT_UNDECIDED;
}

enum verdict verdict_of(uintptr_t fn)
{
	const struct vtable *t = __atomic_load_n(&table, __ATOMIC_ACQUIRE);

	for (size_t i = t ? (size_t)(fn_hash(fn) >> 32) & t->mask : 0; t; i = (i + 1) & t->mask) {
		uintptr_t key = __atomic_load_n(&t->e[i].fn, __ATOMIC_ACQUIRE);
		if (key == fn) {
			uint32_t v = __atomic_load_n(&t->e[i].val, __ATOMIC_RELAXED);
			if (v)
				return v & 1 ? VERDICT_ADMIT : VERDICT_EXCLUDE;
			break;
		}
		if (!key)
			break;
	}
	return module_verdict(fn);
}

static void *map_zeroed(size_t bytes)
{
	void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	return p == MAP_FAILED ? NULL : p;
}

int verdict_module_add(const uintptr_t *lo, const uintptr_t *hi, size_t n, bool admit)
{
	uint32_t id;
	struct vmodule *m;

	if (!modules) {
		struct vmodule *all = map_zeroed(MAX_MODULES * sizeof(*modules));
		if (!all)
			return -1;
		__atomic_store_n(&modules, all, __ATOMIC_RELEASE);
	}
	for (id = 0; id < nmodules && modules[id].live; id++)
		; /* a dropped module's id is free again (one id at a time is being written) */
	if (id == MAX_MODULES)
		return -1;
	m = &modules[id];
	m->n = 0;
	for (size_t i = 0; i < n && m->n < MAX_RANGES; i++, m->n++) {
		m->lo[m->n] = lo[i];
		m->hi[m->n] = hi[i];
	}
	m->admit = admit;
	if (id == nmodules)
		__atomic_store_n(&nmodules, id + 1, __ATOMIC_RELEASE);
	return (int)id;
}

void verdict_module_publish(int id)
{
	__atomic_store_n(&modules[id].live, true, __ATOMIC_RELEASE);
}

/* The slot holding `fn`, or the empty one where it belongs. */
static struct ventry *slot_of(struct vtable *t, uintptr_t fn)
{
	size_t i = (size_t)(fn_hash(fn) >> 32) & t->mask;

	while (t->e[i].fn && t->e[i].fn != fn)
		i = (i + 1) & t->mask;
	return &t->e[i];
}

/* Publishes a table twice the size (or the first), without dropped entries.
 * The old one stays mapped: a probe may be reading it. */
static int grow(void)
{
	size_t slots = table ? (table->mask + 1) * 2 : MIN_SLOTS;
	struct vtable *t = map_zeroed(sizeof(*t) + slots * sizeof(t->e[0]));

	if (!t)
		return -1;
	t->mask = slots - 1;
	for (size_t i = 0; table && i <= table->mask; i++) {
		if (!table->e[i].fn || !table->e[i].val)
			continue;
		*slot_of(t, table->e[i].fn) = table->e[i];
		t->used++;
	}
	__atomic_store_n(&table, t, __ATOMIC_RELEASE);
	return 0;
}

int verdict_set(int id, uintptr_t fn, bool admit)
{
	uint32_t val = (uint32_t)(id + 1) << 1 | admit;
	struct ventry *e;

	if (!fn)
		return 0;
	if ((!table || 2 * (table->used + 1) > table->mask + 1) && grow() < 0)
		return -1;
	e = slot_of(table, fn);
	if (e->fn) { /* a dropped module's function, or a second name at one address */
		__atomic_store_n(&e->val, val, __ATOMIC_RELAXED);
		return 0;
	}
	e->val = val;
	__atomic_store_n(&e->fn, fn, __ATOMIC_RELEASE);
	table->used++;
	return 0;
}

void verdict_module_drop(int id)
{
	uint32_t mine = (uint32_t)(id + 1);

	if (id < 0 || (uint32_t)id >= nmodules)
		return;
	__atomic_store_n(&modules[id].live, false, __ATOMIC_RELEASE);
	for (size_t i = 0; table && i <= table->mask; i++)
		if (table->e[i].val >> 1 == mine)
			__atomic_store_n(&table->e[i].val, 0u, __ATOMIC_RELAXED);
}
