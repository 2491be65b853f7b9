/*
 * check.h: the report tool's unit tests: the runner's assertions (../unit.h) and one for
 * strings.  list.h lists the tests; ../main.c runs each in its own process.
 */
#ifndef CALLPROF_REPORT_CHECK_H
#define CALLPROF_REPORT_CHECK_H

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "unit.h"

/*
 * redirect(fd, path) sends fd (stdout or stderr) to the file path, created or
 * emptied, and returns the old fd for restore, so a test can read what a
 * function printed while a failed check still reaches the runner.
 */
static inline int redirect(int fd, const char *path)
{
	int saved = dup(fd), to = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);

	fflush(NULL);
	if (saved < 0 || to < 0 || dup2(to, fd) < 0)
		unit_fail(__FILE__, __LINE__, "cannot redirect fd %d to %s", fd, path);
	close(to);
	return saved;
}

static inline void restore(int fd, int saved)
{
	fflush(NULL);
	dup2(saved, fd);
	close(saved);
}

/* scratch_path: a file name of this test's own in /tmp, ending in what ("err"). */
static inline const char *scratch_path(char *out, size_t size, const char *what)
{
	snprintf(out, size, "/tmp/callprof-unit-%d.%s", (int)getpid(), what);
	return out;
}

/* slurp: the contents of the file at path (at most size - 1 bytes) into out, NUL-terminated. */
static inline const char *slurp(const char *path, char *out, size_t size)
{
	FILE *f = fopen(path, "r");
	size_t n = f ? fread(out, 1, size - 1, f) : 0;

	if (f)
		fclose(f);
	out[n] = '\0';
	return out;
}

/* Two strings equal (NULL counts as "(null)" in the message, and differs from any string). */
#define CHECK_STR(a, b)                                                                        \
	do {                                                                                   \
		const char *unit_a_ = (a), *unit_b_ = (b);                                     \
		if (!unit_a_ || !unit_b_ ? unit_a_ != unit_b_ : strcmp(unit_a_, unit_b_) != 0) \
			unit_fail(__FILE__, __LINE__, "%s == %s: \"%s\" vs \"%s\"", #a, #b,    \
				  unit_a_ ? unit_a_ : "(null)", unit_b_ ? unit_b_ : "(null)"); \
	} while (0)

#endif
