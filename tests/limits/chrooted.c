/*
 * chrooted.c: `chrooted DIR` calls functions, goes into DIR with chroot (an
 * empty directory, where its dump is written: no file of the program or of
 * its libraries is there, nor /proc), and calls more before it ends.
 */
#include <stdio.h>
#include <unistd.h>

#include "e2e.h"

/* Every function writes here, so no call is elided as useless. */
static volatile int sink;

NOINLINE static void before(int i)
{
	sink += i;
}

NOINLINE static void after(int i)
{
	sink += i;
}

int main(int argc, char **argv)
{
	if (argc < 2)
		return 1;
	for (int i = 0; i < 3; i++)
		before(i);
	if (chroot(argv[1]) != 0 || chdir("/") != 0) {
		perror("chroot");
		return 2;
	}
	for (int i = 0; i < 2; i++)
		after(i);
	return 0;
}
