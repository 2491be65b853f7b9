/* record.c: `callprof record`: run a program with the runtime preloaded, pass its exit status through. */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cmd.h"
#include "opts.h"

/* The command line, once parsed: -o, where the profile goes (NULL: the runtime's default). */
static const char *record_output;

static const struct opt record_options[] = {
	{ 'o', "output", OPT_STRING, &record_output, "FILE", "where the profile goes (default: $CALLPROF_OUTPUT, else\n"
							       "callprof.json); %p in FILE becomes the pid; a relative\n"
							       "FILE is taken from where record runs" },
};

static const char *const record_synopses[] = { "[--] PROGRAM [ARGS...]", NULL };

static const struct opts_cmd record_cmd = {
	.name = "record",
	.synopses = record_synopses,
	.about = "Runs PROGRAM (built with -finstrument-functions -g) with libcallprof preloaded\n"
		 "and writes its profile.  The exit status is PROGRAM's.  Forked children\n"
		 "write profiles of their own; the CALLPROF_* settings (filters, clock, limits)\n"
		 "pass through from the environment, see callprof(1).  Unless\n"
		 "CALLPROF_LIBCALLS=0 or LD_BIND_NOW is set, LD_BIND_NOW=1 binds every library\n"
		 "call at start-up, so that library probes see them all.  Options end at PROGRAM.\n",
	.opts = record_options,
	.nopts = sizeof(record_options) / sizeof(record_options[0]),
	.in_order = 1,
};

static int file_exists(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0;
}

/* Copies `dir` + `name` into out; false when it does not fit. */
static bool join_path(char *out, size_t size, const char *dir, const char *name)
{
	size_t d = strlen(dir), n = strlen(name);

	if (d + n + 1 > size)
		return false;
	memcpy(out, dir, d);
	memcpy(out + d, name, n + 1);
	return true;
}

/* The runtime beside the tool (build tree) or in ../lib (installed), else the configured libdir. */
static int find_runtime(char *out, size_t size)
{
	char exe[PATH_MAX], found[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	const char *candidates[] = { "/libcallprof.so", "/../lib/libcallprof.so" };

	if (n > 0) {
		exe[n] = '\0';
		*strrchr(exe, '/') = '\0';
		for (size_t i = 0; i < sizeof(candidates) / sizeof(candidates[0]); i++)
			if (join_path(found, sizeof(found), exe, candidates[i]) && file_exists(found))
				return realpath(found, out) && strlen(out) < size ? 0 : -1;
	}
	if (!join_path(out, size, CALLPROF_LIBDIR, "/libcallprof.so"))
		return -1;
	return file_exists(out) ? 0 : -1;
}

/* FILE from -o, absolute from where record runs, so a program started in
 * another directory (`sh -c 'cd sub && ./prog'`) still writes it there; a '%'
 * of that directory stays itself when the runtime expands %p.  NULL without
 * memory or working directory (errno set). */
static char *absolute_output(const char *output)
{
	char cwd[PATH_MAX], *out;
	size_t o = 0, n = strlen(output) + 2;

	if (output[0] == '/')
		return strdup(output);
	if (!getcwd(cwd, sizeof(cwd)))
		return NULL;
	for (const char *c = cwd; *c; c++)
		n += *c == '%' ? 2 : 1;
	if (!(out = malloc(n)))
		return NULL;
	for (const char *c = cwd; *c; c++) {
		if (*c == '%')
			out[o++] = '%';
		out[o++] = *c;
	}
	if (o > 1)
		out[o++] = '/';
	strcpy(out + o, output);
	return out;
}

static int set_output(const char *output)
{
	char *value = absolute_output(output);
	int rc;

	if (!value)
		return -1;
	rc = setenv("CALLPROF_OUTPUT", value, 1);
	free(value);
	return rc;
}

static int set_preload(const char *lib)
{
	const char *old = getenv("LD_PRELOAD");
	char *value;
	int rc;

	if (old && *old) {
		if (asprintf(&value, "%s:%s", lib, old) < 0)
			return -1;
	} else if (!(value = strdup(lib))) {
		return -1;
	}
	rc = setenv("LD_PRELOAD", value, 1);
	free(value);
	return rc;
}

/* True when the variable holds one of the runtime's words for "off" (options.c). */
static bool env_off(const char *name)
{
	const char *v = getenv(name);

	return v && (!strcmp(v, "0") || !strcmp(v, "no") || !strcmp(v, "false") || !strcmp(v, "off"));
}

/*
 * Library probes take over the jump slots ld.so has bound (the runtime never
 * looks symbols up itself), so with them on, every slot is bound at start-up.
 * LD_BIND_NOW set already, even empty (a program that needs lazy binding), is
 * left as it is.
 */
static int set_bind_now(void)
{
	if (env_off("CALLPROF_LIBCALLS") || getenv("LD_BIND_NOW"))
		return 0;
	return setenv("LD_BIND_NOW", "1", 1);
}

static int wait_status(pid_t pid)
{
	int status;

	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return 127;
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return 127;
}

/* run: runs the program args.v[0] with the runtime preloaded; its exit status. */
static int run(const struct opts_list *args)
{
	char lib[PATH_MAX];
	pid_t pid;

	if (find_runtime(lib, sizeof(lib)) < 0) {
		fprintf(stderr, "callprof record: cannot find libcallprof.so beside the tool or in '%s'\n",
			CALLPROF_LIBDIR);
		return 1;
	}
	if (set_preload(lib) < 0 || set_bind_now() < 0 || (record_output && set_output(record_output) < 0)) {
		fprintf(stderr, "callprof record: cannot set the environment: %s\n", strerror(errno));
		return 1;
	}
	pid = fork();
	if (pid < 0) {
		fprintf(stderr, "callprof record: cannot fork: %s\n", strerror(errno));
		return 1;
	}
	if (pid == 0) {
		execvp(args->v[0], args->v);
		fprintf(stderr, "callprof record: cannot run '%s': %s\n", args->v[0], strerror(errno));
		_exit(127);
	}
	/* The child's ^C is ours too: let the program see it and write its dump. */
	signal(SIGINT, SIG_IGN);
	signal(SIGQUIT, SIG_IGN);
	return wait_status(pid);
}

int cmd_record(int argc, char **argv)
{
	struct opts_list args;
	int rc;

	record_output = NULL;
	rc = opts_parse(&record_cmd, argc, argv, &args);
	if (rc)
		return rc == OPTS_HELP ? 0 : rc;
	rc = args.n ? run(&args) : opts_error(&record_cmd, "no program given");
	opts_list_release(&args);
	return rc;
}
