/*
 * enospc.c: an LD_PRELOAD shim for a full disk.  A file fopen()ed under the path
 * prefix SHIM_ENOSPC_PATH takes SHIM_ENOSPC_AFTER bytes (default 0), then every
 * write fails with ENOSPC, as on a full file system.  Other files are untouched.
 * (The runtime writes its dump with stdio, whose writes do not go through an
 * interposable write(), so the shim hands out a FILE of its own.)
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct full {
	FILE *real;
	size_t left; /* bytes the disk still takes */
};

static ssize_t full_write(void *cookie, const char *buf, size_t n)
{
	struct full *f = cookie;
	size_t take = n < f->left ? n : f->left;

	if (take && fwrite(buf, 1, take, f->real) != take)
		return -1;
	f->left -= take;
	if (take < n) {
		errno = ENOSPC;
		return -1;
	}
	return (ssize_t)n;
}

static int full_close(void *cookie)
{
	struct full *f = cookie;
	int rc = fclose(f->real);

	free(f);
	return rc;
}

FILE *fopen(const char *path, const char *mode)
{
	static FILE *(*real_fopen)(const char *, const char *);
	const char *prefix = getenv("SHIM_ENOSPC_PATH");
	const char *after = getenv("SHIM_ENOSPC_AFTER");
	struct full *f;
	FILE *fp;

	if (!real_fopen)
		real_fopen = (FILE * (*)(const char *, const char *)) dlsym(RTLD_NEXT, "fopen");
	fp = real_fopen(path, mode);
	if (!fp || !prefix || strncmp(path, prefix, strlen(prefix)) || !strchr(mode, 'w'))
		return fp;
	f = malloc(sizeof(*f));
	if (!f)
		return fp;
	f->real = fp;
	f->left = after ? strtoul(after, NULL, 10) : 0;
	return fopencookie(f, mode, (cookie_io_functions_t){ .write = full_write, .close = full_close });
}
