/*
 * renames.c: a preloaded shim (not instrumented) that logs every rename() to
 * the file $HOSTILE_RENAME_LOG, one line each, so a test can count how many
 * times a dump was written: the runtime writes a temporary file and renames it.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int rename(const char *from, const char *to)
{
	static int (*real)(const char *, const char *);
	const char *log = getenv("HOSTILE_RENAME_LOG");
	char line[8192];
	int fd, n;

	if (!real)
		*(void **)&real = dlsym(RTLD_NEXT, "rename");
	if (log && (fd = open(log, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644)) >= 0) {
		n = snprintf(line, sizeof(line), "%d %s\n", (int)getpid(), to);
		if (n > 0 && write(fd, line, strlen(line)) < 0)
			n = -1;
		close(fd);
	}
	return real(from, to);
}
