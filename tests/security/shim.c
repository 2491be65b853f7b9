/*
 * shim.c: an LD_PRELOAD shim that stages races for the security tests, each
 * part on only when its variable is set:
 *   SHIM_PID=N          getpid() returns N (two processes with one pid, as in two
 *                       PID namespaces)
 *   SHIM_RANDOM=1       getrandom() fills its buffer from a counter that starts at 0
 *                       in every process: two processes draw the same "random"
 *                       temporary names, in the same order
 *   SHIM_RENAME_LOG=F   each rename of a `.callprof-*` file appends "rename SRC" to F
 *   SHIM_HOLD=DIR       before that rename, writes "rename SRC" into the FIFO DIR/ready
 *                       (so the test knows the file is complete and waiting), then
 *                       waits until the test opens the FIFO DIR/hold and closes it
 * Every wait is on a FIFO, none on a timer.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>

pid_t getpid(void)
{
	static pid_t (*real_getpid)(void);
	const char *pid = getenv("SHIM_PID");

	if (pid)
		return (pid_t)atoi(pid);
	if (!real_getpid)
		*(void **)&real_getpid = dlsym(RTLD_NEXT, "getpid");
	return real_getpid();
}

ssize_t getrandom(void *buf, size_t n, unsigned flags)
{
	static ssize_t (*real_getrandom)(void *, size_t, unsigned);
	static uint64_t counter;

	if (getenv("SHIM_RANDOM")) {
		for (size_t i = 0; i < n; i++)
			((unsigned char *)buf)[i] = (unsigned char)(counter >> (8 * (i % 8)));
		counter++;
		return (ssize_t)n;
	}
	if (!real_getrandom)
		*(void **)&real_getrandom = dlsym(RTLD_NEXT, "getrandom");
	return real_getrandom(buf, n, flags);
}

static void log_rename(const char *src)
{
	const char *log = getenv("SHIM_RENAME_LOG");
	FILE *f;

	if (log && (f = fopen(log, "a"))) {
		fprintf(f, "rename %s\n", src);
		fclose(f);
	}
}

static void hold(const char *src)
{
	const char *dir = getenv("SHIM_HOLD");
	char path[4096], buf[64];
	int fd;

	if (!dir)
		return;
	snprintf(path, sizeof(path), "%s/ready", dir);
	if ((fd = open(path, O_WRONLY)) >= 0) {
		dprintf(fd, "rename %s\n", src);
		close(fd);
	}
	snprintf(path, sizeof(path), "%s/hold", dir);
	if ((fd = open(path, O_RDONLY)) >= 0) {
		while (read(fd, buf, sizeof(buf)) > 0)
			;
		close(fd);
	}
}

static void before_rename(const char *src)
{
	const char *base = strrchr(src, '/');

	base = base ? base + 1 : src;
	if (strncmp(base, ".callprof-", 10) != 0)
		return;
	log_rename(src);
	hold(src);
}

int rename(const char *src, const char *dst)
{
	static int (*real_rename)(const char *, const char *);

	if (!real_rename)
		*(void **)&real_rename = dlsym(RTLD_NEXT, "rename");
	before_rename(src);
	return real_rename(src, dst);
}

int renameat(int srcdir, const char *src, int dstdir, const char *dst)
{
	static int (*real_renameat)(int, const char *, int, const char *);

	if (!real_renameat)
		*(void **)&real_renameat = dlsym(RTLD_NEXT, "renameat");
	before_rename(src);
	return real_renameat(srcdir, src, dstdir, dst);
}

int renameat2(int srcdir, const char *src, int dstdir, const char *dst, unsigned flags)
{
	static int (*real_renameat2)(int, const char *, int, const char *, unsigned);

	if (!real_renameat2)
		*(void **)&real_renameat2 = dlsym(RTLD_NEXT, "renameat2");
	before_rename(src);
	return real_renameat2(srcdir, src, dstdir, dst, flags);
}
