/*
 * vf.c: vfork's child runs probed code on its parent's stack and thread, then
 * execs (half the time a program that does not exist: then it _exits).  Its
 * calls must not land in the parent's profile nor disturb its hijacked
 * returns: the parent's counts stay exact, and the child's are nowhere.
 */
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "e2e.h"

#define ROUNDS 200

NOINLINE static long work(long x)
{
	return x + 1;
}

NOINLINE static void child_exec(const char *path)
{
	work(1);
	execl(path, path, (char *)NULL);
	_exit(127);
}

NOINLINE static int spawn(const char *path)
{
	pid_t pid = vfork();
	int status;

	if (pid == 0)
		child_exec(path);
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

int main(void)
{
	long sum = 0;
	int ok = 0;

	for (int i = 0; i < ROUNDS; i++) {
		int rc = spawn(i & 1 ? "/bin/true" : "/nonexistent");
		ok += rc == (i & 1 ? 0 : 127);
		sum += work(i);
	}
	printf("%d of %d children as expected, sum %ld\n", ok, ROUNDS, sum);
	return ok != ROUNDS;
}
