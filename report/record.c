/*
 * record.c: `callprof record`: run a program with the runtime preloaded, relay the signals
 * meant for it, say which profiles the run wrote, and end as the program ended.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cmd.h"
#include "opts.h"

/* How many profile names the closing line lists before "and N more". */
#define RECORD_NAMES_SHOWN 5

/* The command line, once parsed: -o, where the profile goes (NULL: the runtime's default). */
static const char *record_output;
/* --no-follow: children given an environment without the profiler stay unprofiled. */
static int record_no_follow;

static const struct opt record_options[] = {
	{ 'o', "output", OPT_STRING, &record_output, "FILE",
	  "where the profile goes (default: $CALLPROF_OUTPUT, else\n"
	  "callprof.json); %p in FILE becomes the pid; a relative\n"
	  "FILE is taken from where record runs" },
	{ 0, "no-follow", OPT_FLAG, &record_no_follow, NULL,
	  "leave unprofiled the programs the run starts with an\n"
	  "environment of their own that drops the profiler" },
};

static const char *const record_synopses[] = { "[--] PROGRAM [ARGS...]", NULL };

static const struct opts_cmd record_cmd = {
	.name = "record",
	.synopses = record_synopses,
	.about =
		"Runs PROGRAM (built with -finstrument-functions -g) with libcallprof preloaded\n"
		"and writes its profile.  PROGRAM's own process writes FILE; every other process\n"
		"of the run (forked or started by it) writes FILE with its pid before the\n"
		"extension (callprof.1234.json), so none overwrites another.  Programs started\n"
		"with an environment of their own are profiled too (see --no-follow).  The\n"
		"CALLPROF_* settings (filters, clock, limits) pass through from the environment,\n"
		"see callprof(1).  SIGINT, SIGTERM, SIGHUP and SIGQUIT sent to record go on to\n"
		"PROGRAM.  Unless CALLPROF_LIBCALLS=0 or LD_BIND_NOW is set, LD_BIND_NOW=1 binds\n"
		"every library call at start-up, so that library probes see them all.  Options\n"
		"end at PROGRAM.\n"
		"\n"
		"The exit status is PROGRAM's, and a PROGRAM killed by a signal kills record with\n"
		"the same signal.  When PROGRAM exits 0 but no profile was written (it ran no\n"
		"instrumented code, or the profile could not be written), record says so and\n"
		"exits 1.\n",
	.opts = record_options,
	.nopts = sizeof(record_options) / sizeof(record_options[0]),
	.in_order = 1,
};

/* The signals record passes on to the program: those a user or a supervisor sends to stop it. */
static const int relayed[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };

/* The program's pid once it runs, for the relay. */
static volatile sig_atomic_t program_pid;

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

/* The runtime beside the tool (build tree) or in ../lib (installed), else the configured
 * libdir; by its soname first, as a run-time package installs it, then by the link name. */
static int find_runtime(char *out, size_t size)
{
	char exe[PATH_MAX], found[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	const char *dirs[] = { "/", "/../lib/" }, *names[] = { CALLPROF_SONAME, "libcallprof.so" };

	if (n > 0) {
		exe[n] = '\0';
		*strrchr(exe, '/') = '\0';
		for (size_t d = 0; d < sizeof(dirs) / sizeof(dirs[0]); d++)
			for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
				if (snprintf(found, sizeof(found), "%s%s%s", exe, dirs[d],
					     names[i]) < (int)sizeof(found) &&
				    file_exists(found))
					return realpath(found, out) && strlen(out) < size ? 0 : -1;
	}
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (join_path(out, size, CALLPROF_LIBDIR "/", names[i]) && file_exists(out))
			return 0;
	return -1;
}

/* The output pattern, absolute from where record runs, so a program started in another
 * directory (`sh -c 'cd sub && ./prog'`) still writes it there; a '%' of that directory
 * stays itself when the runtime expands %p.  NULL without memory or working directory
 * (errno set). */
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

	return v &&
	       (!strcmp(v, "0") || !strcmp(v, "no") || !strcmp(v, "false") || !strcmp(v, "off"));
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

/* ---- the profiles a run writes ----------------------------------------------------------- */

/* One file that may be a profile of the run, as found in the output's directory. */
struct found {
	char *name;
	ino_t ino;
	struct timespec mtime;
};

/* The output's directory and file name pattern, and the files matching it. */
struct outputs {
	char *dir;        /* NULL: the directory holds %, so what was written is not known */
	const char *base; /* the file name pattern, inside `dir`'s allocation */
	struct found *f;
	size_t n, cap;
};

/* True if `s` is 1 or more digits then `rest` matches pattern `p` (see name_matches). */
static bool digits_then(const char *s, const char *p);

/*
 * True if `name` is what the runtime makes of pattern `p`: %p a pid, %% a percent sign,
 * anything else itself.  (A dump of a process other than the run's own has its pid added
 * before the extension; outputs_match tries that form too.)
 */
static bool name_matches(const char *name, const char *p)
{
	for (; *p; p++, name++) {
		if (p[0] == '%' && p[1] == 'p')
			return digits_then(name, p + 2);
		if (p[0] == '%' && p[1] == '%')
			p++;
		if (*name != *p)
			return false;
	}
	return *name == '\0';
}

static bool digits_then(const char *s, const char *p)
{
	if (*s < '0' || *s > '9')
		return false;
	while (*s >= '0' && *s <= '9')
		if (name_matches(++s, p))
			return true;
	return false;
}

/* True if `name` may be a profile of the run: the pattern itself, or with ".<pid>" before
 * the extension (a process other than the program's own, when the pattern has no %p). */
static bool outputs_match(const struct outputs *o, const char *name)
{
	const char *dot = strrchr(o->base, '.');
	size_t stem = dot ? (size_t)(dot - o->base) : strlen(o->base);
	const char *s = name;

	if (name_matches(name, o->base))
		return true;
	if (strstr(o->base, "%p") || strncmp(name, o->base, stem) || name[stem] != '.')
		return false;
	for (s = name + stem + 1; *s >= '0' && *s <= '9'; s++)
		;
	return s > name + stem + 1 && !strcmp(s, dot ? dot : "");
}

static void outputs_add(struct outputs *o, const char *name, const struct stat *st)
{
	if (o->n == o->cap) {
		struct found *more =
			realloc(o->f, (o->cap = o->cap ? 2 * o->cap : 8) * sizeof(*more));
		if (!more)
			return;
		o->f = more;
	}
	if (!(o->f[o->n].name = strdup(name)))
		return;
	o->f[o->n].ino = st->st_ino;
	o->f[o->n].mtime = st->st_mtim;
	o->n++;
}

/* Lists the files of `pattern`'s directory that match it.  Returns 0, or -1 when what a
 * run writes cannot be told (a % in the directory, no memory). */
static int outputs_scan(struct outputs *o, const char *pattern)
{
	char *slash;
	DIR *d;
	struct dirent *e;

	memset(o, 0, sizeof(*o));
	if (!(o->dir = strdup(pattern)) || !(slash = strrchr(o->dir, '/')) ||
	    memchr(o->dir, '%', (size_t)(slash - o->dir))) {
		free(o->dir);
		o->dir = NULL;
		return -1;
	}
	*slash = '\0';
	o->base = slash + 1;
	if (!(d = opendir(o->dir[0] ? o->dir : "/")))
		return 0;
	while ((e = readdir(d))) {
		struct stat st;
		if (outputs_match(o, e->d_name) &&
		    fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
		    S_ISREG(st.st_mode))
			outputs_add(o, e->d_name, &st);
	}
	closedir(d);
	return 0;
}

static void outputs_release(struct outputs *o)
{
	for (size_t i = 0; i < o->n; i++)
		free(o->f[i].name);
	free(o->f);
	free(o->dir);
	memset(o, 0, sizeof(*o));
}

/* True if `f` was there before, as it was (the same file, not modified). */
static bool unchanged(const struct outputs *before, const struct found *f)
{
	for (size_t i = 0; i < before->n; i++)
		if (!strcmp(before->f[i].name, f->name))
			return before->f[i].ino == f->ino &&
			       before->f[i].mtime.tv_sec == f->mtime.tv_sec &&
			       before->f[i].mtime.tv_nsec == f->mtime.tv_nsec;
	return false;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * After the run: the profiles written meanwhile, in `written` (names, sorted; borrowed from
 * `after`).  Returns how many, or -1 when that cannot be told.
 */
static long run_wrote(const struct outputs *before, const struct outputs *after,
		      const char **written)
{
	long n = 0;

	if (!before->dir || !after->dir)
		return -1;
	for (size_t i = 0; i < after->n; i++)
		if (!unchanged(before, &after->f[i]))
			written[n++] = after->f[i].name;
	qsort(written, (size_t)n, sizeof(*written), by_name);
	return n;
}

/* True if `written` (sorted) holds the output as asked for (no %p in it): the run's own profile. */
static bool wrote_own(const struct outputs *o, const char **written, long n)
{
	for (long i = 0; i < n; i++)
		if (!strcmp(written[i], o->base))
			return true;
	return strstr(o->base, "%p") != NULL;
}

/*
 * After a run whose program exited 0: says so when no profile was written (the program ran
 * no instrumented code, or the runtime could not write it and said why), and names the
 * profiles other processes wrote when the program itself wrote none (`record -- sh -c ...`).
 * Returns 1 when no profile was written, else 0.
 */
static int report_profiles(struct outputs *before, const char *pattern, const char *program)
{
	struct outputs after;
	const char **written = NULL;
	long n = -1;

	if (outputs_scan(&after, pattern) == 0 && (written = calloc(after.n + 1, sizeof(*written))))
		n = run_wrote(before, &after, written);
	if (n == 0) {
		fprintf(stderr,
			"callprof record: no profile written: '%s' ran no instrumented code (built "
			"with -finstrument-functions?), or its profile could not be written\n",
			program);
	} else if (n > 0 && !wrote_own(&after, written, n)) {
		fprintf(stderr,
			"callprof record: '%s' wrote no profile of its own; other processes of the "
			"run "
			"wrote %ld in '%s':",
			program, n, after.dir);
		for (long i = 0; i < n && i < RECORD_NAMES_SHOWN; i++)
			fprintf(stderr, " %s", written[i]);
		if (n > RECORD_NAMES_SHOWN)
			fprintf(stderr, " and %ld more", n - RECORD_NAMES_SHOWN);
		fputc('\n', stderr);
	}
	free(written);
	outputs_release(&after);
	return n == 0;
}

/* True if CALLPROF_DISABLE turns the runtime off: then no profile is no surprise. */
static bool runtime_disabled(void)
{
	const char *s = getenv("CALLPROF_DISABLE");

	return s &&
	       (!strcmp(s, "1") || !strcmp(s, "yes") || !strcmp(s, "true") || !strcmp(s, "on"));
}

/* ---- running the program ------------------------------------------------------------------ */

/*
 * Passes a relayed signal on to the program, unless the kernel sent it for the terminal
 * (^C, a hang-up): the program, in the same foreground process group, had it too.
 */
static void relay(int sig, siginfo_t *info, void *uc)
{
	int saved_errno = errno;

	(void)uc;
	if (program_pid > 0 && info->si_code != SI_KERNEL)
		kill((pid_t)program_pid, sig);
	errno = saved_errno;
}

/* The relayed signals record was started with ignored (nohup, a shell's background job):
 * neither relayed nor handled, so the program inherits them ignored. */
static bool relay_ignored[sizeof(relayed) / sizeof(relayed[0])];

/* Sets up the relay of every relayed signal; `mask` gets them, to block around the fork. */
static void relay_setup(sigset_t *mask)
{
	struct sigaction sa, old;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = relay;
	sa.sa_flags = SA_SIGINFO | SA_RESTART;
	sigemptyset(mask);
	for (size_t i = 0; i < sizeof(relayed) / sizeof(relayed[0]); i++) {
		relay_ignored[i] = sigaction(relayed[i], NULL, &old) == 0 &&
				   !(old.sa_flags & SA_SIGINFO) && old.sa_handler == SIG_IGN;
		if (relay_ignored[i])
			continue;
		sigaction(relayed[i], &sa, NULL);
		sigaddset(mask, relayed[i]);
	}
}

/* In the child, before exec: the signals as record found them. */
static void relay_undo(const sigset_t *old_mask)
{
	for (size_t i = 0; i < sizeof(relayed) / sizeof(relayed[0]); i++)
		if (!relay_ignored[i])
			signal(relayed[i], SIG_DFL);
	sigprocmask(SIG_SETMASK, old_mask, NULL);
}

/* Ends record as the program ended when a signal killed it: by the same signal (with no
 * core file of record's own).  Returns only if the signal did not end it. */
static int die_like(int sig)
{
	struct rlimit no_core = { 0, 0 };
	sigset_t one;

	setrlimit(RLIMIT_CORE, &no_core);
	signal(sig, SIG_DFL);
	sigemptyset(&one);
	sigaddset(&one, sig);
	sigprocmask(SIG_UNBLOCK, &one, NULL);
	raise(sig);
	return 128 + sig;
}

/* The environment the program starts with: the runtime preloaded, the output absolute,
 * children followed unless asked not to.  Returns 0, or -1 with errno set. */
static int set_environment(const char *lib, const char *output)
{
	if (set_preload(lib) < 0 || setenv("CALLPROF_OUTPUT", output, 1) < 0)
		return -1;
	if (record_no_follow)
		return setenv("CALLPROF_FOLLOW", "0", 1);
	return setenv("CALLPROF_FOLLOW", "1", 0);
}

/* The child: names itself the run's own process, then becomes the program.  If it cannot,
 * it says so, and tells the parent through `failed` (closed by a successful exec). */
static void exec_program(const struct opts_list *args, const sigset_t *old_mask, int failed)
{
	char pid[24];
	int status;

	snprintf(pid, sizeof(pid), "%d", (int)getpid());
	setenv("CALLPROF_ROOT_PID", pid, 1);
	relay_undo(old_mask);
	execvp(args->v[0], args->v);
	status = errno == ENOENT || errno == ENOTDIR
			 ? 127
			 : 126; /* not found, or found but not runnable: as a shell */
	fprintf(stderr, "callprof record: cannot run '%s': %s\n", args->v[0], strerror(errno));
	if (write(failed, "x", 1) < 0)
		_exit(status);
	_exit(status);
}

/* True if the child wrote to `failed` before closing it: the program never ran. */
static bool exec_failed(int failed)
{
	char c;
	ssize_t n;

	while ((n = read(failed, &c, 1)) < 0 && errno == EINTR)
		;
	close(failed);
	return n > 0;
}

/* Waits for the program; its wait status, or -1. */
static int wait_program(pid_t pid)
{
	int status;

	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	return status;
}

/* run: runs the program args.v[0] with the runtime preloaded; record's exit status. */
static int run(const struct opts_list *args)
{
	char lib[PATH_MAX], *output;
	const char *asked = record_output ? record_output : getenv("CALLPROF_OUTPUT");
	struct outputs before;
	sigset_t relay_mask, old_mask;
	int status, no_profile, failed[2];
	bool ran;
	pid_t pid;

	if (find_runtime(lib, sizeof(lib)) < 0) {
		fprintf(stderr,
			"callprof record: cannot find libcallprof.so beside the tool or in '%s'\n",
			CALLPROF_LIBDIR);
		return 1;
	}
	if (!(output = absolute_output(asked && *asked ? asked : "callprof.json")) ||
	    set_environment(lib, output) < 0 || set_bind_now() < 0) {
		fprintf(stderr, "callprof record: cannot set the environment: %s\n",
			strerror(errno));
		free(output);
		return 1;
	}
	if (pipe2(failed, O_CLOEXEC) < 0) {
		fprintf(stderr, "callprof record: cannot make a pipe: %s\n", strerror(errno));
		free(output);
		return 1;
	}
	outputs_scan(&before, output);
	relay_setup(&relay_mask);
	sigprocmask(SIG_BLOCK, &relay_mask, &old_mask); /* no relay before the pid is known */
	pid = fork();
	if (pid == 0) {
		close(failed[0]);
		exec_program(args, &old_mask, failed[1]);
	}
	program_pid = pid;
	sigprocmask(SIG_SETMASK, &old_mask, NULL);
	close(failed[1]);
	if (pid < 0) {
		fprintf(stderr, "callprof record: cannot fork: %s\n", strerror(errno));
		close(failed[0]);
		outputs_release(&before);
		free(output);
		return 1;
	}
	ran = !exec_failed(failed[0]);
	status = wait_program(pid);
	no_profile = ran && status >= 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0 &&
		     !runtime_disabled() && report_profiles(&before, output, args->v[0]);
	outputs_release(&before);
	free(output);
	if (status < 0)
		return 127;
	if (WIFSIGNALED(status))
		return die_like(WTERMSIG(status));
	if (!WIFEXITED(status))
		return 127;
	return no_profile ? 1 : WEXITSTATUS(status);
}

int cmd_record(int argc, char **argv)
{
	struct opts_list args;
	int rc;

	record_output = NULL;
	record_no_follow = 0;
	rc = opts_parse(&record_cmd, argc, argv, &args);
	if (rc)
		return rc == OPTS_HELP ? 0 : rc;
	rc = args.n ? run(&args) : opts_error(&record_cmd, "no program given");
	opts_list_release(&args);
	return rc;
}
