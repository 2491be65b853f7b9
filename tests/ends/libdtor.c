/*
 * libdtor.c: an instrumented library whose destructor calls lib_work() 3 times;
 * lib_entry() calls it once.  Linked or dlopen()ed and never closed, its
 * destructor runs at exit, before or after the runtime's dump.  With
 * LIBDTOR_FORK set, the destructor then forks a child that exits at once, and
 * waits for it (as a destructor that runs a command with system() does).
 */
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "e2e.h"

static volatile int sink;

NOINLINE void lib_work(void);
NOINLINE void lib_work(void)
{
	sink++;
}

void lib_entry(void);
void lib_entry(void)
{
	lib_work();
}

__attribute__((destructor)) static void lib_fini(void)
{
	for (int i = 0; i < 3; i++)
		lib_work();
	if (getenv("LIBDTOR_FORK")) {
		pid_t pid = fork();
		if (pid == 0)
			_exit(0);
		if (pid > 0)
			waitpid(pid, NULL, 0);
	}
}
