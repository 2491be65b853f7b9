/*
 * waitstatus.c: `waitstatus PROGRAM [ARGS...]` runs PROGRAM and prints how it
 * ended, "exit N" or "signal N", which a shell's $? cannot tell apart
 * (128 + N).  Its own status is 0, or 127 if PROGRAM could not be run.
 */
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	int status;
	pid_t pid;

	if (argc < 2)
		return 127;
	pid = fork();
	if (pid == 0) {
		execvp(argv[1], argv + 1);
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return 127;
	if (WIFSIGNALED(status))
		printf("signal %d\n", WTERMSIG(status));
	else
		printf("exit %d\n", WEXITSTATUS(status));
	return 0;
}
