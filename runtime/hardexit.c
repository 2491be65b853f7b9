/* hardexit.c: _exit and _Exit, interposed (hardexit.h). */
#include "hardexit.h"

#include <dlfcn.h>
#include <stddef.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "compat.h"
#include "endsig.h"

typedef void (*end_fn)(int);

/* The C library's, found at start-up; NULL where dlsym finds none (a static
 * program: its C library's _exit is this file's). */
static end_fn real__exit, real__Exit;

/* This file's _Exit, by a name that is not GCC's built-in one (whose address
 * cannot be taken). */
extern void own__Exit(int) __asm__("_Exit");

static end_fn find_real(const char *name, end_fn self)
{
	end_fn real;

	*(void **)&real = dlsym(RTLD_NEXT, name);
	return real == self ? NULL : real;
}

void hardexit_setup(void)
{
	real__exit = find_real("_exit", _exit);
	real__Exit = find_real("_Exit", own__Exit);
}

/* The end: the real one, else the system call, as the C library's own makes it. */
static _Noreturn void end_now(end_fn real, int status)
{
	if (real)
		real(status);
	for (;;)
		syscall(SYS_exit_group, status);
}

/* Weak, so that a program's own (linked with the archive) is the one it gets. */
CP_EXPORT __attribute__((weak)) void _exit(int status);
void _exit(int status)
{
	endsig_hard_exit();
	end_now(real__exit, status);
}

CP_EXPORT __attribute__((weak)) void _Exit(int status);
void _Exit(int status)
{
	endsig_hard_exit();
	end_now(real__Exit, status);
}
