/* libstub.c: the library functions probed and their stubs, in pages never writable and executable at once (libstub.h). */
#include "libstub.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "cct.h"

#define TABLE_SLOTS (2 * LIBSTUB_MAX) /* the index by target: at most half full */
#define STUB_PAGE_BYTES 4096u
/* The stubs of one page; its last 8 bytes hold the common entry's address. */
#define STUBS_PER_PAGE ((STUB_PAGE_BYTES - 8) / LIBSTUB_BYTES)

/* Every entry, in order of creation; never moved. */
static struct libstub_entry *entries;
static uint32_t nentries;
/* The entries by target address: open addressing, a slot written once (release). */
static struct libstub_entry **table;
/* Where the stubs jump. */
static uintptr_t common_entry;
/* The page new stubs are written to, writable and not yet executable; NULL for none. */
static unsigned char *pending;
static uint32_t pending_used;

static void *map_zeroed(size_t bytes)
{
	void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	return p == MAP_FAILED ? NULL : p;
}

int libstub_setup(uintptr_t common)
{
	if (entries)
		return 0;
	common_entry = common;
	table = map_zeroed(TABLE_SLOTS * sizeof(*table));
	entries = table ? map_zeroed(LIBSTUB_MAX * sizeof(*entries)) : NULL;
	if (entries)
		return 0;
	if (table)
		munmap(table, TABLE_SLOTS * sizeof(*table));
	table = NULL;
	return -1;
}

static size_t slot_of(uintptr_t address)
{
	return (size_t)(((uint64_t)address * 0x9E3779B97F4A7C15ull) >> 32) & (TABLE_SLOTS - 1);
}

void libstub_publish(void)
{
	if (!pending)
		return;
	if (pending_used)
		mprotect(pending, STUB_PAGE_BYTES, PROT_READ | PROT_EXEC);
	else
		munmap(pending, STUB_PAGE_BYTES);
	pending = NULL;
}

/* The next stub's place in the pending page, mapping a page when needed; NULL without memory. */
static unsigned char *stub_place(void)
{
	if (pending && pending_used == STUBS_PER_PAGE)
		libstub_publish();
	if (!pending) {
		void *p = mmap(NULL, STUB_PAGE_BYTES, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED)
			return NULL;
		pending = p;
		pending_used = 0;
		memcpy(pending + STUB_PAGE_BYTES - 8, &common_entry, 8);
	}
	return pending + LIBSTUB_BYTES * pending_used++;
}

/* movabs $e, %r11; jmp *common(%rip); the common pointer is at its page's end. */
static void stub_write(unsigned char *s, const struct libstub_entry *e)
{
	uintptr_t entry = (uintptr_t)e;
	unsigned char *common =
		(unsigned char *)((uintptr_t)s & ~(uintptr_t)(STUB_PAGE_BYTES - 1)) +
		STUB_PAGE_BYTES - 8;
	int32_t rel = (int32_t)(common - (s + LIBSTUB_BYTES));

	s[0] = 0x49;
	s[1] = 0xbb;
	memcpy(s + 2, &entry, 8);
	s[10] = 0xff;
	s[11] = 0x25;
	memcpy(s + 12, &rel, 4);
}

/* The live entry for `target`, or NULL. */
static struct libstub_entry *live_entry(uintptr_t target)
{
	for (size_t i = slot_of(target);; i = (i + 1) & (TABLE_SLOTS - 1)) {
		struct libstub_entry *e = __atomic_load_n(&table[i], __ATOMIC_ACQUIRE);
		if (!e)
			return NULL;
		if (e->target == target && e->key == target)
			return e;
	}
}

struct libstub_entry *libstub_get(uintptr_t target, const char *name, uintptr_t label,
				  const char *module, uintptr_t module_base, uint32_t flags)
{
	struct libstub_entry *e = table ? live_entry(target) : NULL;
	unsigned char *stub;
	size_t i;

	if (e) {
		e->flags |= flags; /* counted only, if any of its names says so */
		return e;
	}
	if (!table || nentries == LIBSTUB_MAX || !(stub = stub_place()))
		return NULL;
	e = &entries[nentries];
	e->name = strdup(name);
	e->module = strdup(module);
	if (!e->name || !e->module) {
		free((void *)e->name);
		free((void *)e->module);
		pending_used--;
		return NULL;
	}
	e->target = target;
	e->key = target;
	e->flags = flags;
	e->label = label;
	e->module_base = module_base;
	e->stub = (uintptr_t)stub;
	stub_write(stub, e);
	nentries++;
	for (i = slot_of(target); table[i]; i = (i + 1) & (TABLE_SLOTS - 1))
		;
	__atomic_store_n(&table[i], e, __ATOMIC_RELEASE);
	return e;
}

const struct libstub_entry *libstub_find(uintptr_t key)
{
	struct libstub_entry **t = __atomic_load_n(&table, __ATOMIC_ACQUIRE);
	uintptr_t target = cct_key_address(key);

	for (size_t i = t ? slot_of(target) : 0; t; i = (i + 1) & (TABLE_SLOTS - 1)) {
		const struct libstub_entry *e = __atomic_load_n(&t[i], __ATOMIC_ACQUIRE);
		if (!e)
			return NULL;
		if (__atomic_load_n(&e->key, __ATOMIC_RELAXED) == key)
			return e;
	}
	return NULL;
}

void libstub_retire(uintptr_t key, uintptr_t retired)
{
	struct libstub_entry *e = table ? live_entry(key) : NULL;

	if (e) /* its stub stays: nothing reaches it once no slot points there */
		__atomic_store_n(&e->key, retired, __ATOMIC_RELAXED);
}

void libstub_each(void (*visit)(const struct libstub_entry *e, void *arg), void *arg)
{
	uint32_t n = __atomic_load_n(&nentries, __ATOMIC_ACQUIRE);

	for (uint32_t i = 0; i < n; i++)
		visit(&entries[i], arg);
}
