/*
 * enospc.c: an LD_PRELOAD shim for a full disk.  Files opened for writing under
 * the path prefix SHIM_ENOSPC_PATH take SHIM_ENOSPC_AFTER bytes between them
 * (default 0), then every write fails with ENOSPC, as on a full file system.
 * Other files are untouched.  Both ways of writing are covered: stdio (whose
 * writes do not go through an interposable write(), so fopen and fdopen hand
 * out a FILE of their own) and open()/write().
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static unsigned char full_fds[1024]; /* fds open for writing under the prefix */
static long left = -1;               /* bytes the disk still takes; -1 until read */

/* under: path is under SHIM_ENOSPC_PATH. */
static int under(const char *path)
{
	const char *prefix = getenv("SHIM_ENOSPC_PATH");

	if (left < 0)
		left = getenv("SHIM_ENOSPC_AFTER") ? atol(getenv("SHIM_ENOSPC_AFTER")) : 0;
	return prefix && path && !strncmp(path, prefix, strlen(prefix));
}

/* take: how much of n bytes the disk takes now. */
static size_t take(size_t n)
{
	size_t t = (long)n < left ? n : (size_t)left;

	left -= (long)t;
	return t;
}

static int track(int fd, const char *path, int flags)
{
	if (fd >= 0 && fd < (int)sizeof(full_fds) && (flags & (O_WRONLY | O_RDWR)) && under(path))
		full_fds[fd] = 1;
	else if (fd >= 0 && fd < (int)sizeof(full_fds))
		full_fds[fd] = 0;
	return fd;
}

int open(const char *path, int flags, ...)
{
	static int (*real_open)(const char *, int, ...);
	va_list ap;
	mode_t mode;

	if (!real_open)
		real_open = (int (*)(const char *, int, ...))dlsym(RTLD_NEXT, "open");
	va_start(ap, flags);
	mode = va_arg(ap, mode_t);
	va_end(ap);
	return track(real_open(path, flags, mode), path, flags);
}

int open64(const char *path, int flags, ...)
{
	static int (*real_open64)(const char *, int, ...);
	va_list ap;
	mode_t mode;

	if (!real_open64)
		real_open64 = (int (*)(const char *, int, ...))dlsym(RTLD_NEXT, "open64");
	va_start(ap, flags);
	mode = va_arg(ap, mode_t);
	va_end(ap);
	return track(real_open64(path, flags, mode), path, flags);
}

int openat(int dir, const char *path, int flags, ...)
{
	static int (*real_openat)(int, const char *, int, ...);
	va_list ap;
	mode_t mode;

	if (!real_openat)
		real_openat = (int (*)(int, const char *, int, ...))dlsym(RTLD_NEXT, "openat");
	va_start(ap, flags);
	mode = va_arg(ap, mode_t);
	va_end(ap);
	return track(real_openat(dir, path, flags, mode), path, flags);
}

int openat64(int dir, const char *path, int flags, ...)
{
	static int (*real_openat64)(int, const char *, int, ...);
	va_list ap;
	mode_t mode;

	if (!real_openat64)
		real_openat64 = (int (*)(int, const char *, int, ...))dlsym(RTLD_NEXT, "openat64");
	va_start(ap, flags);
	mode = va_arg(ap, mode_t);
	va_end(ap);
	return track(real_openat64(dir, path, flags, mode), path, flags);
}

ssize_t write(int fd, const void *buf, size_t n)
{
	static ssize_t (*real_write)(int, const void *, size_t);
	size_t t;

	if (!real_write)
		real_write = (ssize_t (*)(int, const void *, size_t))dlsym(RTLD_NEXT, "write");
	if (fd < 0 || fd >= (int)sizeof(full_fds) || !full_fds[fd])
		return real_write(fd, buf, n);
	t = take(n);
	if (!t && n) {
		errno = ENOSPC;
		return -1;
	}
	return real_write(fd, buf, t);
}

struct full {
	FILE *real;
};

static ssize_t full_write(void *cookie, const char *buf, size_t n)
{
	struct full *f = cookie;
	size_t t = take(n);

	if (t && fwrite(buf, 1, t, f->real) != t)
		return -1;
	if (t < n) {
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
	struct full *f;
	FILE *fp;

	if (!real_fopen)
		real_fopen = (FILE * (*)(const char *, const char *)) dlsym(RTLD_NEXT, "fopen");
	fp = real_fopen(path, mode);
	if (!fp || !strchr(mode, 'w') || !under(path))
		return fp;
	/* The real FILE's own writes must not count twice: its fd is not tracked. */
	if (fileno(fp) >= 0 && fileno(fp) < (int)sizeof(full_fds))
		full_fds[fileno(fp)] = 0;
	f = malloc(sizeof(*f));
	if (!f)
		return fp;
	f->real = fp;
	return fopencookie(f, mode, (cookie_io_functions_t){ .write = full_write, .close = full_close });
}

/* A stream on an fd opened under the prefix: the same wrapper as fopen's. */
FILE *fdopen(int fd, const char *mode)
{
	static FILE *(*real_fdopen)(int, const char *);
	struct full *f;
	FILE *fp;

	if (!real_fdopen)
		real_fdopen = (FILE * (*)(int, const char *)) dlsym(RTLD_NEXT, "fdopen");
	fp = real_fdopen(fd, mode);
	if (!fp || fd < 0 || fd >= (int)sizeof(full_fds) || !full_fds[fd])
		return fp;
	full_fds[fd] = 0;
	f = malloc(sizeof(*f));
	if (!f)
		return fp;
	f->real = fp;
	return fopencookie(f, mode, (cookie_io_functions_t){ .write = full_write, .close = full_close });
}
