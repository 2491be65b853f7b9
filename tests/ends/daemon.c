/*
 * daemon.c: a program that runs on while its profile is written (issue 16
 * item 12): `daemon MODE OUT MID`, where OUT is its CALLPROF_OUTPUT.
 *   signal   calls work() 5 times, sends itself CALLPROF_DUMP_SIGNAL (SIGUSR2),
 *            waits for OUT to appear and renames it MID, then calls work()
 *            5 times more and exits: MID counts work 5, the profile at exit 10
 *   every    the same, but waits for CALLPROF_DUMP_EVERY's dump instead
 *   handler  its own SIGUSR1 handler calls callprof_dump(MID), which must
 *            refuse; prints "refused" when it returned -1 and no MID exists,
 *            then calls callprof_dump(MID) outside the handler, which must work
 * It waits at most 30 s for a file; exits 3 if none came.
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "e2e.h"

extern int callprof_dump(const char *path) __attribute__((weak));

static volatile int sink;
static const char *mid;
static volatile int handler_rc = 1;

NOINLINE static void leaf(int i)
{
	sink += i;
}

NOINLINE static void work(int i)
{
	leaf(i);
}

NOINLINE static void work5(void)
{
	for (int i = 0; i < 5; i++)
		work(i);
}

/* Waits for `path` to appear, then renames it `to`; false after 30 s. */
static int take(const char *path, const char *to)
{
	const struct timespec nap = { 0, 10000000L };

	for (int i = 0; i < 3000; i++) {
		if (rename(path, to) == 0)
			return 1;
		nanosleep(&nap, NULL);
	}
	return 0;
}

static void on_usr1(int sig)
{
	(void)sig;
	handler_rc = callprof_dump ? callprof_dump(mid) : 2;
}

int main(int argc, char **argv)
{
	if (argc < 4)
		return 2;
	mid = argv[3];
	work5();
	if (!strcmp(argv[1], "signal") || !strcmp(argv[1], "every")) {
		if (!strcmp(argv[1], "signal"))
			kill(getpid(), SIGUSR2);
		if (!take(argv[2], mid))
			return 3;
	} else if (!strcmp(argv[1], "handler")) {
		signal(SIGUSR1, on_usr1);
		kill(getpid(), SIGUSR1);
		if (handler_rc == -1 && access(mid, F_OK) != 0)
			printf("refused\n");
		if (!callprof_dump || callprof_dump(mid) != 0)
			return 3;
	} else {
		return 2;
	}
	work5();
	return 0;
}
