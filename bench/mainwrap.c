/*
 * mainwrap.c: times main() itself, free of each tool's start-up and of what it
 * writes at exit.  Linked into every probe-cost build with -Wl,--wrap=main (the
 * C start-up code then calls __wrap_main, which calls the program's main); never
 * instrumented.  If TIMEIT_MAIN_NS_FILE is set (bench/timeit.c sets it), the
 * nanoseconds main took are written there after main returns.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

int __real_main(int argc, char **argv, char **envp);
int __wrap_main(int argc, char **argv, char **envp);

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ll + ts.tv_nsec;
}

int __wrap_main(int argc, char **argv, char **envp)
{
	long long t0 = now_ns();
	int status = __real_main(argc, argv, envp);
	long long t1 = now_ns();
	const char *path = getenv("TIMEIT_MAIN_NS_FILE");
	FILE *f;

	if (path && (f = fopen(path, "w"))) {
		fprintf(f, "%lld\n", t1 - t0);
		fclose(f);
	}
	return status;
}
