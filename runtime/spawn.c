/* spawn.c: the interposed exec family and posix_spawn, which follow children (spawn.h). */
#include "spawn.h"

#include <dlfcn.h>
#include <errno.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "compat.h"
#include "options.h"

/* The most settings given back; an environment's arguments read on the stack up to this. */
#define SPAWN_MAX_SETTINGS 64
#define SPAWN_STACK_ARGS 64

typedef int (*execve_fn)(const char *, char *const[], char *const[]);
typedef int (*fexecve_fn)(int, char *const[], char *const[]);
typedef int (*spawn_fn)(pid_t *, const char *, const posix_spawn_file_actions_t *,
			const posix_spawnattr_t *, char *const[], char *const[]);

extern char **environ;

/* The real functions, found at start-up: a vfork child must not take the loader's lock. */
static execve_fn real_execve, real_execvpe;
static fexecve_fn real_fexecve;
static spawn_fn real_posix_spawn, real_posix_spawnp;
/* What a child gets back: "LD_PRELOAD=" with this runtime's path, and the
 * CALLPROF_* entries of the environment this process started with. */
static char *preload_entry;
static const char *settings[SPAWN_MAX_SETTINGS];
static size_t nsettings;

static void find_real(void)
{
	*(void **)&real_execve = dlsym(RTLD_NEXT, "execve");
	*(void **)&real_execvpe = dlsym(RTLD_NEXT, "execvpe");
	*(void **)&real_fexecve = dlsym(RTLD_NEXT, "fexecve");
	*(void **)&real_posix_spawn = dlsym(RTLD_NEXT, "posix_spawn");
	*(void **)&real_posix_spawnp = dlsym(RTLD_NEXT, "posix_spawnp");
}

/* Keeps what to give back: copies, since the program may change its environment. */
static void keep_settings(void)
{
	Dl_info self;
	size_t len;

	if (dladdr((void *)&spawn_setup, &self) && self.dli_fname && self.dli_fname[0] == '/') {
		len = strlen(self.dli_fname);
		if ((preload_entry = malloc(sizeof("LD_PRELOAD=") + len)))
			strcpy(stpcpy(preload_entry, "LD_PRELOAD="), self.dli_fname);
	}
	for (char **e = environ; e && *e && nsettings < SPAWN_MAX_SETTINGS; e++)
		if (!strncmp(*e, "CALLPROF_", 9) && strchr(*e, '=') &&
		    (settings[nsettings] = strdup(*e)))
			nsettings++;
}

void spawn_setup(void)
{
	find_real();
	if (options.follow)
		keep_settings();
}

/* The length of the name part of "NAME=value", '=' included. */
static size_t name_len(const char *entry)
{
	const char *eq = strchr(entry, '=');

	return eq ? (size_t)(eq - entry) + 1 : strlen(entry);
}

/* The entry of `env` named as `entry` is, or NULL. */
static char *const *find_entry(char *const env[], const char *entry)
{
	size_t n = name_len(entry);

	for (char *const *e = env; e && *e; e++)
		if (!strncmp(*e, entry, n))
			return e;
	return NULL;
}

/* True if the LD_PRELOAD entry `e` lists this runtime (separated by ':' or ' '). */
static bool preloads_us(const char *e)
{
	const char *path = preload_entry + sizeof("LD_PRELOAD=") - 1,
		   *v = e + sizeof("LD_PRELOAD=") - 1;
	size_t n = strlen(path);

	for (const char *p = strstr(v, path); p; p = strstr(p + 1, path))
		if ((p == v || p[-1] == ':' || p[-1] == ' ') &&
		    (!p[n] || p[n] == ':' || p[n] == ' '))
			return true;
	return false;
}

/* A mapping the new environment is built in (never malloc: a vfork child may call us). */
struct built {
	char **env;
	size_t bytes;
};

/*
 * `env` with what the profiler needs given back, in `b` (then returned), or
 * `env` itself when nothing is missing or no memory can be had.
 */
static char *const *follow(char *const env[], struct built *b)
{
	char *const *old_preload = preload_entry ? find_entry(env, preload_entry) : NULL;
	bool add_preload = preload_entry && !(old_preload && preloads_us(*old_preload));
	size_t n = 0, add = 0, strings = 0, k = 0;
	char *s;

	b->env = NULL;
	if (!options.follow)
		return env;
	for (char *const *e = env; e && *e; e++)
		n++;
	for (size_t i = 0; i < nsettings; i++)
		if (!find_entry(env, settings[i]))
			add++;
	if (!add && !add_preload)
		return env;
	if (add_preload)
		strings = strlen(preload_entry) + 1 + (old_preload ? strlen(*old_preload) : 0) + 1;
	b->bytes = (n + add + 2) * sizeof(char *) + strings;
	b->env = mmap(NULL, b->bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (b->env == MAP_FAILED) {
		b->env = NULL;
		return env;
	}
	s = (char *)(b->env + n + add + 2);
	if (add_preload) { /* ours first, then what the program preloads */
		b->env[k++] = s;
		s = stpcpy(s, preload_entry);
		if (old_preload && (*old_preload)[sizeof("LD_PRELOAD=") - 1]) {
			*s++ = ':';
			stpcpy(s, *old_preload + sizeof("LD_PRELOAD=") - 1);
		}
	}
	for (char *const *e = env; e && *e; e++)
		if (!(add_preload && e == old_preload))
			b->env[k++] = *e;
	for (size_t i = 0; i < nsettings; i++)
		if (!find_entry(env, settings[i]))
			b->env[k++] = (char *)settings[i];
	b->env[k] = NULL;
	return b->env;
}

/* Unmaps what follow built, keeping errno (the exec's or spawn's). */
static void done(struct built *b)
{
	int saved_errno = errno;

	if (b->env)
		munmap(b->env, b->bytes);
	errno = saved_errno;
}

CP_EXPORT int execve(const char *path, char *const argv[], char *const envp[]);
int execve(const char *path, char *const argv[], char *const envp[])
{
	struct built b;
	int rc;

	if (!real_execve)
		find_real();
	rc = real_execve(path, argv, follow(envp, &b));
	done(&b);
	return rc;
}

CP_EXPORT int execvpe(const char *file, char *const argv[], char *const envp[]);
int execvpe(const char *file, char *const argv[], char *const envp[])
{
	struct built b;
	int rc;

	if (!real_execvpe)
		find_real();
	rc = real_execvpe(file, argv, follow(envp, &b));
	done(&b);
	return rc;
}

CP_EXPORT int fexecve(int fd, char *const argv[], char *const envp[]);
int fexecve(int fd, char *const argv[], char *const envp[])
{
	struct built b;
	int rc;

	if (!real_fexecve)
		find_real();
	rc = real_fexecve(fd, argv, follow(envp, &b));
	done(&b);
	return rc;
}

/* execv, execvp and the execl family use the environment (which the program may have
 * cleaned: clearenv, unsetenv); the C library calls its own execve inside, not ours. */
CP_EXPORT int execv(const char *path, char *const argv[]);
int execv(const char *path, char *const argv[])
{
	return execve(path, argv, environ);
}

CP_EXPORT int execvp(const char *file, char *const argv[]);
int execvp(const char *file, char *const argv[])
{
	return execvpe(file, argv, environ);
}

/* The arguments of an execl call, from `first` up to the NULL, in `stack` when
 * they fit, else mapped (*mapped then says how many bytes); then the
 * environment, for execle (`envp`).  NULL without memory. */
static char **collect(const char *first, va_list ap, char *stack[SPAWN_STACK_ARGS], size_t *mapped,
		      char *const **envp)
{
	va_list count;
	size_t n = 1;
	char **argv = stack;

	va_copy(count, ap);
	while (va_arg(count, char *))
		n++;
	va_end(count);
	*mapped = 0;
	if (n + 1 > SPAWN_STACK_ARGS) {
		*mapped = (n + 1) * sizeof(char *);
		argv = mmap(NULL, *mapped, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1,
			    0);
		if (argv == MAP_FAILED)
			return NULL;
	}
	argv[0] = (char *)first;
	for (size_t i = 1; i <= n; i++)
		argv[i] = i < n ? va_arg(ap, char *) : NULL;
	if (envp)
		*envp = va_arg(ap, char *const *);
	return argv;
}

/* How an execl call finds its program: by its path, or along PATH. */
enum exec_find { EXEC_PATH, EXEC_SEARCH };

/* The exec of collected arguments; gives back their mapping when it fails. */
static int exec_list(enum exec_find find, const char *name, char **argv, size_t mapped,
		     char *const envp[])
{
	int rc, saved_errno;

	if (!argv) {
		errno = ENOMEM;
		return -1;
	}
	rc = find == EXEC_PATH ? execve(name, argv, envp) : execvpe(name, argv, envp);
	saved_errno = errno;
	if (mapped)
		munmap(argv, mapped);
	errno = saved_errno;
	return rc;
}

CP_EXPORT int execl(const char *path, const char *arg, ...);
int execl(const char *path, const char *arg, ...)
{
	char *stack[SPAWN_STACK_ARGS], **argv;
	size_t mapped;
	va_list ap;

	va_start(ap, arg);
	argv = collect(arg, ap, stack, &mapped, NULL);
	va_end(ap);
	return exec_list(EXEC_PATH, path, argv, mapped, environ);
}

CP_EXPORT int execlp(const char *file, const char *arg, ...);
int execlp(const char *file, const char *arg, ...)
{
	char *stack[SPAWN_STACK_ARGS], **argv;
	size_t mapped;
	va_list ap;

	va_start(ap, arg);
	argv = collect(arg, ap, stack, &mapped, NULL);
	va_end(ap);
	return exec_list(EXEC_SEARCH, file, argv, mapped, environ);
}

CP_EXPORT int execle(const char *path, const char *arg, ...);
int execle(const char *path, const char *arg, ...)
{
	char *stack[SPAWN_STACK_ARGS], **argv;
	char *const *envp = NULL;
	size_t mapped;
	va_list ap;

	va_start(ap, arg);
	argv = collect(arg, ap, stack, &mapped, &envp);
	va_end(ap);
	return exec_list(EXEC_PATH, path, argv, mapped, envp);
}

CP_EXPORT int posix_spawn(pid_t *pid, const char *path, const posix_spawn_file_actions_t *actions,
			  const posix_spawnattr_t *attr, char *const argv[], char *const envp[]);
int posix_spawn(pid_t *pid, const char *path, const posix_spawn_file_actions_t *actions,
		const posix_spawnattr_t *attr, char *const argv[], char *const envp[])
{
	struct built b;
	int rc;

	if (!real_posix_spawn)
		find_real();
	rc = real_posix_spawn(pid, path, actions, attr, argv, follow(envp, &b));
	done(&b);
	return rc;
}

CP_EXPORT int posix_spawnp(pid_t *pid, const char *file, const posix_spawn_file_actions_t *actions,
			   const posix_spawnattr_t *attr, char *const argv[], char *const envp[]);
int posix_spawnp(pid_t *pid, const char *file, const posix_spawn_file_actions_t *actions,
		 const posix_spawnattr_t *attr, char *const argv[], char *const envp[])
{
	struct built b;
	int rc;

	if (!real_posix_spawnp)
		find_real();
	rc = real_posix_spawnp(pid, file, actions, attr, argv, follow(envp, &b));
	done(&b);
	return rc;
}
