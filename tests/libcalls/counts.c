/*
 * counts.c: library calls with exact counts: 1000 memcpy (an IFUNC, named
 * memcpy all the same) from copy, qsort with an instrumented comparator
 * nesting below it, stdio (fopen, 10 fwrite, fclose, printf), and 4 threads
 * taking a mutex 1000 times each.  Prints the comparator's calls, the
 * mutex's count, then "relro IN ALL MODE": how many of the program's jump
 * slots lie in its RELRO region, of how many, and whether every page of that
 * region is read-only again ("ro", after the runtime patched them) or not ("rw").
 * Calls: main 1, copy 1000, memcpy 1000, sort_them 1, qsort 1, cmp (printed),
 * write_file 1, fopen 1, fwrite 10, fclose 1, worker 4, pthread_mutex_lock 4000,
 * pthread_mutex_unlock 4000.
 */
#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "e2e.h"

#define COPIES 1000
#define THREADS 4
#define LOCKS 1000

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static volatile size_t copy_len = 48; /* not a constant: the compiler calls memcpy */
static unsigned long compares, counter;

NOINLINE static void copy(char *dst, const char *src)
{
	memcpy(dst, src, copy_len);
}

NOINLINE static int cmp(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	compares++;
	return (x > y) - (x < y);
}

NOINLINE static void sort_them(int *v, size_t n)
{
	qsort(v, n, sizeof(*v), cmp);
}

NOINLINE static int write_file(const char *path)
{
	FILE *f = fopen(path, "w");
	static const char line[] = "a line of text\n";

	if (!f)
		return 1;
	for (int i = 0; i < 10; i++)
		fwrite(line, 1, sizeof(line) - 1, f);
	return fclose(f) != 0;
}

NOINLINE static void *worker(void *arg)
{
	for (int i = 0; i < LOCKS; i++) {
		pthread_mutex_lock(&lock);
		counter++;
		pthread_mutex_unlock(&lock);
	}
	return arg;
}

struct relro {
	uintptr_t lo, hi;   /* the program's RELRO region */
	size_t in, all;     /* its jump slots in that region, all its jump slots */
};

/* The program's RELRO region and its jump slots (the first object dl_iterate_phdr gives). */
static int find_relro(struct dl_phdr_info *info, size_t size, void *arg)
{
	struct relro *r = arg;
	const ElfW(Dyn) *dyn = NULL;
	uintptr_t base = info->dlpi_addr, rel = 0, relsz = 0;

	(void)size;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		if (ph->p_type == PT_GNU_RELRO) {
			r->lo = base + ph->p_vaddr;
			r->hi = base + ph->p_vaddr + ph->p_memsz;
		} else if (ph->p_type == PT_DYNAMIC) {
			dyn = (const ElfW(Dyn) *)(base + ph->p_vaddr);
		}
	}
	for (; dyn && dyn->d_tag != DT_NULL; dyn++) {
		if (dyn->d_tag == DT_JMPREL) /* ld.so rewrote it to an address */
			rel = dyn->d_un.d_ptr < base ? base + dyn->d_un.d_ptr : dyn->d_un.d_ptr;
		else if (dyn->d_tag == DT_PLTRELSZ)
			relsz = dyn->d_un.d_val;
	}
	for (size_t i = 0; rel && i < relsz / sizeof(ElfW(Rela)); i++) {
		const ElfW(Rela) *ra = (const ElfW(Rela) *)rel + i;
		uintptr_t slot = base + ra->r_offset;
		if (ELF64_R_TYPE(ra->r_info) != R_X86_64_JUMP_SLOT)
			continue;
		r->all++;
		r->in += slot >= r->lo && slot < r->hi;
	}
	return 1;
}

/* "ro" if every mapping of /proc/self/maps that overlaps [lo, hi) is read-only, else "rw". */
static const char *relro_mode(uintptr_t lo, uintptr_t hi)
{
	static char maps[1 << 16];
	ssize_t n, len = 0;
	int fd = open("/proc/self/maps", O_RDONLY);
	char *line, *save;

	if (fd < 0)
		return "?";
	while (len < (ssize_t)sizeof(maps) - 1 && (n = read(fd, maps + len, sizeof(maps) - 1 - len)) > 0)
		len += n;
	close(fd);
	maps[len] = 0;
	for (line = strtok_r(maps, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		unsigned long from, to;
		char perms[5];
		if (sscanf(line, "%lx-%lx %4s", &from, &to, perms) == 3 && from < hi && to > lo &&
		    perms[1] != '-')
			return "rw";
	}
	return "ro";
}

int main(int argc, char **argv)
{
	static char b[64] = "hello, library calls"; /* static: no memcpy to set it up */
	char a[64];
	int v[300];
	unsigned seed = 7;
	pthread_t th[THREADS];
	struct relro r = { 0, 0, 0, 0 };

	for (int i = 0; i < COPIES; i++)
		copy(a, b);
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		seed = seed * 1103515245u + 12345u;
		v[i] = (int)(seed >> 16 & 0x7fff);
	}
	sort_them(v, sizeof(v) / sizeof(v[0]));
	if (write_file(argc > 1 ? argv[1] : "/dev/null"))
		return 1;
	for (int i = 0; i < THREADS; i++)
		pthread_create(&th[i], NULL, worker, NULL);
	for (int i = 0; i < THREADS; i++)
		pthread_join(th[i], NULL);
	dl_iterate_phdr(find_relro, &r);
	printf("%lu %lu relro %zu %zu %s\n", compares, counter, r.in, r.all,
	       r.lo < r.hi ? relro_mode(r.lo, r.hi) : "none");
	return counter != THREADS * LOCKS;
}
