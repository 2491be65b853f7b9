/* options.c: reading CALLPROF_* settings from the environment, once, at start-up (no malloc). */
#include "options.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <unistd.h>

struct options options;
/* The process's environment, for the CALLPROF_* names a secure program ignores. */
extern char **environ;

/* Writes `s` to stderr, control characters as '?' when `printable`, so a
 * message stays one line.  write(2), not stdio: start-up may run inside a
 * probe, which takes no lock (stdio locks its streams). */
static void put(const char *s, bool printable)
{
	char buf[256];
	size_t n = 0;

	for (const unsigned char *c = (const unsigned char *)s;; c++) {
		if (!*c || n == sizeof(buf)) {
			if (n && write(STDERR_FILENO, buf, n) < 0)
				return;
			n = 0;
		}
		if (!*c)
			return;
		buf[n++] = (char)(printable && (*c < 0x20 || *c == 0x7f) ? '?' : *c);
	}
}

/* One line on stderr: "callprof: ignoring NAME='VALUE': WHY". */
static void ignoring(const char *name, const char *value, const char *why)
{
	put("callprof: ignoring ", false);
	put(name, false);
	put("='", false);
	put(value, true);
	put("': ", false);
	put(why, false);
	put("\n", false);
}

/* Sets *out from the variable `name` if it holds a whole number in [lo, hi];
 * anything else gives one line on stderr and leaves *out as it was. */
static void read_number(const char *name, uint64_t lo, uint64_t hi, uint64_t *out)
{
	const char *s = getenv(name);
	char *end;
	unsigned long long v;

	if (!s || !*s)
		return;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || *end || s[0] == '-' || v < lo || v > hi) {
		char why[96];
		snprintf(why, sizeof(why), "expected a number from %llu to %llu",
			 (unsigned long long)lo, (unsigned long long)hi);
		ignoring(name, s, why);
		return;
	}
	*out = v;
}

/* A copy of the variable's value, or NULL when unset or empty.  Mapped, not
 * malloc'ed: start-up runs inside the program's first probe, which may be
 * inside its own malloc. */
static char *read_string(const char *name)
{
	const char *s = getenv(name);
	size_t len = s ? strlen(s) : 0;
	char *copy;

	if (!len)
		return NULL;
	copy = mmap(NULL, len + 1, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (copy == MAP_FAILED)
		return NULL;
	memcpy(copy, s, len + 1);
	return copy;
}

/* True if the comma-separated list holds a glob (",," holds none). */
static bool has_glob(const char *list)
{
	return list && list[strspn(list, ",")];
}

static bool read_flag(const char *name, bool dflt)
{
	const char *s = getenv(name);

	if (!s || !*s)
		return dflt;
	if (!strcmp(s, "1") || !strcmp(s, "yes") || !strcmp(s, "true") || !strcmp(s, "on"))
		return true;
	if (!strcmp(s, "0") || !strcmp(s, "no") || !strcmp(s, "false") || !strcmp(s, "off"))
		return false;
	ignoring(name, s, "expected 1 or 0");
	return dflt;
}

/* The signal `s` names: a number, or a name with or without "SIG" (USR2, SIGRTMIN+3); 0 if none. */
static int signal_number(const char *s)
{
	char *end;
	long n;

	if (!strncmp(s, "SIG", 3))
		s += 3;
	if (!strncmp(s, "RTMIN", 5)) {
		n = s[5] == '+' ? strtol(s + 6, &end, 10) : (end = (char *)s + 5, 0);
		return *end || n < 0 || SIGRTMIN + n > SIGRTMAX ? 0 : SIGRTMIN + (int)n;
	}
	if (*s >= '0' && *s <= '9') {
		n = strtol(s, &end, 10);
		return *end || n <= 0 || n > SIGRTMAX ? 0 : (int)n;
	}
	for (int sig = 1; sig < SIGRTMIN; sig++)
		if (sigabbrev_np(sig) && !strcmp(s, sigabbrev_np(sig)))
			return sig;
	return 0;
}

/* CALLPROF_DUMP_SIGNAL: a signal a handler may take (not KILL or STOP, not one the C library keeps). */
static void read_dump_signal(void)
{
	const char *s = getenv("CALLPROF_DUMP_SIGNAL");
	int sig;

	if (!s || !*s)
		return;
	sig = signal_number(s);
	if (!sig || sig == SIGKILL || sig == SIGSTOP || (sig > SIGSYS && sig < SIGRTMIN)) {
		ignoring("CALLPROF_DUMP_SIGNAL", s,
			 "expected a signal a handler can take, such as USR2");
		return;
	}
	options.dump_signal = sig;
}

static void read_clock(void)
{
	const char *s = getenv("CALLPROF_CLOCK");
	const char *known[] = { "auto", "tsc", "tsc-ordered", "tsc-adaptive", "monotonic", "none" };

	strcpy(options.clock, "auto");
	if (!s || !*s)
		return;
	for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++) {
		if (!strcmp(s, known[i])) {
			strcpy(options.clock, s);
			return;
		}
	}
	ignoring("CALLPROF_CLOCK", s,
		 "expected auto, tsc, tsc-ordered, tsc-adaptive, monotonic or none");
}

static void read_timing(void)
{
	const char *s = getenv("CALLPROF_TIMING");
	uint64_t v = 64;

	options.sampled = false;
	if (s && *s) {
		if (!strcmp(s, "sampled") && strcmp(options.clock, "auto") &&
		    strcmp(options.clock, "tsc"))
			ignoring("CALLPROF_TIMING", s,
				 "sampled timing takes the tsc clock; every call is timed under "
				 "CALLPROF_CLOCK's choice");
		else if (!strcmp(s, "sampled"))
			options.sampled = true;
		else if (strcmp(s, "all"))
			ignoring("CALLPROF_TIMING", s, "expected all or sampled");
	}
	read_number("CALLPROF_SAMPLE", 1, 1u << 20, &v);
	options.sample_rate = (uint32_t)v;
	v = 2048; /* one call in 2048 metered: four more clock reads each (meter.h) */
	read_number("CALLPROF_METER", 0, 1u << 30, &v);
	options.meter_period = (uint32_t)v;
}

/* One line on stderr: "callprof: output 'PATH' stays relative to the directory at exit: WHY". */
static void stays_relative(const char *path, const char *why, const char *detail)
{
	put("callprof: output '", false);
	put(path, true);
	put("' stays relative to the directory at exit: ", false);
	put(why, false);
	put(detail, false);
	put("\n", false);
}

/* A relative path from the working directory at start-up, so a program that
 * changes directory still writes where it was asked; a '%' of that directory
 * stays itself when %p is expanded at the dump. */
static void make_absolute(char *path, size_t size)
{
	char cwd[PATH_MAX], out[sizeof(options.output)], why[96];
	size_t o = 0, n = 0;

	if (path[0] == '/')
		return;
	if (!getcwd(cwd, sizeof(cwd))) {
		stays_relative(path, "cannot read the working directory: ", strerror(errno));
		return;
	}
	for (const char *c = cwd; *c; c++)
		n += *c == '%' ? 2 : 1;
	if (n + 1 + strlen(path) + 1 > size || size > sizeof(out)) {
		snprintf(why, sizeof(why), "%zu bytes", size - 1);
		stays_relative(path, "the absolute path is longer than ", why);
		return;
	}
	for (const char *c = cwd; *c; c++) {
		if (*c == '%')
			out[o++] = '%';
		out[o++] = *c;
	}
	if (o > 1)
		out[o++] = '/';
	strcpy(out + o, path);
	strcpy(path, out);
}

static void read_output(void)
{
	const char *out = getenv("CALLPROF_OUTPUT");

	if (out && *out && strlen(out) < sizeof(options.output))
		strcpy(options.output, out);
	else
		strcpy(options.output, "callprof.json");
	if (out && strlen(out) >= sizeof(options.output)) {
		char line[96];
		snprintf(line, sizeof(line),
			 "callprof: ignoring CALLPROF_OUTPUT: longer than %zu bytes\n",
			 sizeof(options.output) - 1);
		put(line, false);
	}
	make_absolute(options.output, sizeof(options.output));
}

/*
 * Setuid, setgid and file-capability programs (AT_SECURE): the environment
 * belongs to a less privileged user, who must not choose where the program
 * writes (nor which debuginfod server libdw asks).  Profiling stays off; one
 * line says so if a CALLPROF_* variable was set.
 */
static bool read_secure(void)
{
	if (!getauxval(AT_SECURE))
		return false;
	options.disabled = true;
	options.secure = true;
	for (char **e = environ; e && *e; e++) {
		if (!strncmp(*e, "CALLPROF_", 9)) {
			put("callprof: not profiling a setuid, setgid or file-capability program; "
			    "CALLPROF_* settings ignored\n",
			    false);
			break;
		}
	}
	return true;
}

void options_read(void)
{
	uint64_t v;

	if (read_secure())
		return;
	options.disabled = read_flag("CALLPROF_DISABLE", false);
	options.compensate = read_flag("CALLPROF_COMPENSATE", true);
	options.debuginfod = read_flag("CALLPROF_DEBUGINFOD", false);
	options.libcalls = read_flag("CALLPROF_LIBCALLS", true);
	options.cpu = read_flag("CALLPROF_CPU", true);
	read_output();
	read_clock();
	read_timing();
	v = 2000000;
	read_number("CALLPROF_MAX_NODES", 1, UINT64_MAX / 2, &v);
	options.max_nodes = v;
	v = 1u << 22;
	read_number("CALLPROF_MAX_STACK", 64, 1u << 28, &v);
	options.max_stack = (uint32_t)v;
	v = 0;
	read_number("CALLPROF_MAX_DEPTH", 1, 1u << 28, &v);
	options.max_depth = (uint32_t)v;
	v = 0;
	read_number("CALLPROF_ROOT_PID", 1, INT32_MAX, &v);
	options.root_pid = (int)v;
	options.follow = read_flag("CALLPROF_FOLLOW", false);
	options.on_signal = read_flag("CALLPROF_ON_SIGNAL", true);
	read_dump_signal();
	v = 0;
	read_number("CALLPROF_DUMP_EVERY", 1, 1u << 30, &v);
	options.dump_every_s = (uint32_t)v;
	options.include = read_string("CALLPROF_INCLUDE");
	options.exclude = read_string("CALLPROF_EXCLUDE");
	options.filtered = has_glob(options.include) || has_glob(options.exclude);
	options.args = read_string("CALLPROF_ARGS");
	if (!has_glob(options.args))
		options.args = NULL;
	v = 64;
	read_number("CALLPROF_ARGS_ENTRIES", 1, 4096, &v);
	options.args_entries = (uint32_t)v;
}
