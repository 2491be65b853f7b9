/*
 * spawner.c: a program that starts others with an environment of its own,
 * which drops LD_PRELOAD and every CALLPROF_* setting (issue 16 item 33).
 *   spawner spawn   calls work() 5 times, then starts itself as `spawner child`
 *                   twice with posix_spawn and waits for both
 *   spawner exec    calls work() 5 times, then becomes `spawner child` by execve
 *   spawner execl   the same through execle
 *   spawner inherit like spawn, but the children inherit this environment
 *   spawner child   calls child_work() 3 times
 * The environment given: PATH only.  Prints each child's pid, one a line.
 */
#include <spawn.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "e2e.h"

extern char **environ;

static volatile int sink;
static char *const clean_env[] = { "PATH=/usr/bin:/bin", NULL };

NOINLINE static void work(int i)
{
	sink += i;
}

NOINLINE static void child_work(int i)
{
	sink -= i;
}

NOINLINE static int spawn_two(char *self, char *const env[])
{
	char *argv[] = { self, "child", NULL };
	int status, bad = 0;
	pid_t pid[2];

	for (int i = 0; i < 2; i++) {
		if (posix_spawn(&pid[i], self, NULL, NULL, argv, env) != 0)
			return 3;
		printf("%d\n", (int)pid[i]);
	}
	for (int i = 0; i < 2; i++)
		bad |= waitpid(pid[i], &status, 0) != pid[i] || !WIFEXITED(status) || WEXITSTATUS(status);
	return bad ? 4 : 0;
}

int main(int argc, char **argv)
{
	char *child_argv[] = { argv[0], "child", NULL };

	if (argc < 2)
		return 2;
	if (!strcmp(argv[1], "child")) {
		for (int i = 0; i < 3; i++)
			child_work(i);
		return 0;
	}
	for (int i = 0; i < 5; i++)
		work(i);
	if (!strcmp(argv[1], "spawn"))
		return spawn_two(argv[0], clean_env);
	if (!strcmp(argv[1], "inherit"))
		return spawn_two(argv[0], environ);
	printf("%d\n", (int)getpid());
	fflush(stdout);
	if (!strcmp(argv[1], "exec"))
		execve(argv[0], child_argv, clean_env);
	else if (!strcmp(argv[1], "execl"))
		execle(argv[0], argv[0], "child", (char *)NULL, clean_env);
	return 3;
}
