/*
 * prog.c: a small instrumented program for the security tests.
 *   prog [MARK] [chdir DIR [rmdir]]
 * calls leaf() 3 times through work(), prints "pid N", and, when asked, changes
 * to DIR (and removes it) before it returns.  MARK only lands in the dump's argv,
 * to tell two runs' dumps apart.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static volatile int sink;

static void leaf(int i)
{
	sink += i;
}

static void work(void)
{
	for (int i = 0; i < 3; i++)
		leaf(i);
}

int main(int argc, char **argv)
{
	work();
	printf("pid %d\n", (int)getpid());
	for (int i = 1; i + 1 < argc; i++) {
		if (strcmp(argv[i], "chdir") != 0)
			continue;
		if (chdir(argv[i + 1]) != 0) {
			perror("chdir");
			return 1;
		}
		if (i + 2 < argc && !strcmp(argv[i + 2], "rmdir") && rmdir(argv[i + 1]) != 0) {
			perror("rmdir");
			return 1;
		}
	}
	return 0;
}
