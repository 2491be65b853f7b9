/*
 * main.c: the unit test runner: runs each test of UNIT_TESTS (or those whose
 * name contains an argument) in a process of its own, prints ok / not ok.
 */
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "unit.h"

#define TEST_TIMEOUT_S 30

struct unit_test {
	const char *name;
	void (*fn)(void);
};

#define UNIT_ENTRY(name) { #name, test_##name },
static const struct unit_test tests[] = { UNIT_TESTS(UNIT_ENTRY) };

void unit_fail(const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "FAIL %s:%d: ", file, line);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	fflush(stderr);
	_exit(1);
}

/* All a child wrote, NUL-terminated (malloc'ed). */
static char *read_all(int fd)
{
	size_t len = 0, cap = 4096;
	char *buf = malloc(cap);
	ssize_t n;

	while (buf) {
		if (len + 1 == cap) {
			char *more = realloc(buf, cap *= 2);
			if (!more)
				break;
			buf = more;
		}
		n = read(fd, buf + len, cap - len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		len += (size_t)n;
	}
	if (buf)
		buf[len] = '\0';
	return buf;
}

/* The line of `out` that says best why a test failed, copied into `why`. */
static void failure_reason(const char *out, int status, char *why, size_t size)
{
	static const char *const marks[] = { "FAIL ", "ERROR: AddressSanitizer", "runtime error",
					     "ERROR: LeakSanitizer" };

	for (size_t m = 0; out && m < sizeof(marks) / sizeof(marks[0]); m++) {
		const char *p = strstr(out, marks[m]);
		if (p) {
			if (m == 0)
				p += strlen(marks[0]);
			snprintf(why, size, "%.*s", (int)strcspn(p, "\n"), p);
			return;
		}
	}
	if (WIFSIGNALED(status))
		snprintf(why, size, "killed by signal %d (%s)", WTERMSIG(status),
			 strsignal(WTERMSIG(status)));
	else
		snprintf(why, size, "exit status %d", WEXITSTATUS(status));
}

static void run_child(const struct unit_test *t, int fd)
{
	dup2(fd, STDOUT_FILENO);
	dup2(fd, STDERR_FILENO);
	close(fd);
	alarm(TEST_TIMEOUT_S);
	t->fn();
	fflush(NULL);
	exit(0);
}

/* Runs one test in a child process; returns 0 if it passed. */
static int run_one(const struct unit_test *t)
{
	int fds[2], status = 0;
	pid_t pid;
	char *out;
	char why[512];

	fflush(NULL);
	if (pipe(fds) < 0 || (pid = fork()) < 0) {
		printf("not ok - %s: cannot start: %s\n", t->name, strerror(errno));
		return -1;
	}
	if (pid == 0) {
		close(fds[0]);
		run_child(t, fds[1]);
	}
	close(fds[1]);
	out = read_all(fds[0]);
	close(fds[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
		printf("ok - %s\n", t->name);
		free(out);
		return 0;
	}
	failure_reason(out, status, why, sizeof(why));
	printf("not ok - %s: %s\n", t->name, why);
	for (char *line = out ? strtok(out, "\n") : NULL; line; line = strtok(NULL, "\n"))
		printf("# %s\n", line);
	free(out);
	return -1;
}

static int selected(const char *name, int argc, char **argv)
{
	if (argc < 2)
		return 1;
	for (int i = 1; i < argc; i++)
		if (strstr(name, argv[i]))
			return 1;
	return 0;
}

int main(int argc, char **argv)
{
	int failed = 0;

	for (size_t i = 0; i < sizeof(tests) / sizeof(tests[0]); i++)
		if (selected(tests[i].name, argc, argv))
			failed |= run_one(&tests[i]) != 0;
	return failed;
}
