/*
 * spawn.c: a process that replaces itself, and one that starts others.
 *   spawn exec   prints its pid, then main > exec1 > exec2 > execv(itself,
 *                "after-exec"); the new image calls after_exec.  Only the new
 *                image's dump remains.
 *   spawn spawn  vfork + exec of /bin/true from inside an instrumented
 *                function, then posix_spawn of it, 5 times each; the
 *                parent's counts go on exact.
 */
#include <spawn.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "e2e.h"

#define ROUNDS 5

extern char **environ;

/* Every function writes here, so no call is elided as useless. */
static volatile int sink;

NOINLINE static void leaf(int i)
{
	sink += i;
}

NOINLINE static void after_exec(void)
{
	leaf(1);
}

NOINLINE static int exec2(const char *self)
{
	leaf(2);
	execl(self, self, "after-exec", (char *)NULL);
	return 3; /* exec failed */
}

NOINLINE static int exec1(const char *self)
{
	return exec2(self);
}

static int wait_ok(pid_t pid)
{
	int status;

	return pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
	       WEXITSTATUS(status) == 0;
}

NOINLINE static int via_vfork(void)
{
	pid_t pid = vfork();

	if (pid == 0) {
		execl("/bin/true", "true", (char *)NULL);
		_exit(127);
	}
	leaf(3);
	return wait_ok(pid);
}

NOINLINE static int via_posix_spawn(void)
{
	char *argv[] = { "true", NULL };
	pid_t pid;

	if (posix_spawn(&pid, "/bin/true", NULL, NULL, argv, environ) != 0)
		return 0;
	leaf(4);
	return wait_ok(pid);
}

NOINLINE static int spawner(void)
{
	for (int i = 0; i < ROUNDS; i++)
		if (!via_vfork() || !via_posix_spawn())
			return 4;
	return 0;
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "exec")) {
		printf("%d\n", (int)getpid());
		fflush(stdout);
		return exec1(argv[0]);
	}
	if (argc > 1 && !strcmp(argv[1], "after-exec")) {
		after_exec();
		return 0;
	}
	if (argc > 1 && !strcmp(argv[1], "spawn"))
		return spawner();
	return 1;
}
