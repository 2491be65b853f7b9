/*
 * errno.c: a probe never changes the program's errno.  errno is set to MARK
 * before instrumented code runs and checked where probes have just run: at a
 * function's start (its enter probe) and after it returns (its exit probe).
 * The cases: the main thread's first probe, a new thread's first probe, a
 * function filtered out (run with CALLPROF_EXCLUDE=excluded), call paths
 * folded past the node budget (CALLPROF_MAX_NODES), a library's dlopen, first
 * calls and dlclose, and a longjmp out of instrumented frames.  Prints
 * "errno changed N" (the places it was found changed, each named on stderr).
 *   errno DIR: DIR holds libplugin_a.so (tests/hostile/plugin_a.c)
 * Calls: main 1, leaf 3, excluded 1, fold 31, jumper 6, worker 1,
 * plugin_a_entry 1, plugin_a_helper 2.
 */
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdio.h>

#include "e2e.h"

#define MARK 4242
#define NOPROBE __attribute__((no_instrument_function))

/* Places errno was found changed. */
static int changed;
/* Every function writes here, so no call is elided as useless. */
static volatile int sink;
static jmp_buf env;

/* Counts a change of errno at `where`, then sets it to MARK again. */
NOPROBE static void expect(const char *where)
{
	if (errno != MARK) {
		changed++;
		fprintf(stderr, "errno is %d %s\n", errno, where);
	}
	errno = MARK;
}

/* Runs after the runtime's constructor and before main's first probe. */
NOPROBE __attribute__((constructor)) static void before_main(void)
{
	errno = MARK;
}

NOINLINE static void leaf(void)
{
	expect("at leaf's start");
	sink++;
}

/* Filtered out with CALLPROF_EXCLUDE=excluded: its probes take the slow path. */
NOINLINE void excluded(void);
NOINLINE void excluded(void)
{
	expect("at excluded's start");
	leaf();
	expect("after leaf, in excluded");
}

/* A new call path at each depth: past a small node budget, folded ones. */
NOINLINE static void fold(int n)
{
	expect("at fold's start");
	if (n)
		fold(n - 1);
	expect("after fold's recursion");
}

NOINLINE static void jumper(int n)
{
	expect("at jumper's start");
	if (n)
		jumper(n - 1);
	longjmp(env, 1);
}

NOINLINE static void worker(void)
{
	expect("at worker's start: the thread's first probe");
	leaf();
	expect("after leaf, in worker");
}

NOPROBE static void *thread_start(void *arg)
{
	(void)arg;
	errno = MARK;
	worker();
	expect("after worker");
	return NULL;
}

NOINLINE static void plugin(const char *dir)
{
	char path[4096];
	int (*entry)(int);
	void *h;

	expect("at plugin's start: the frames longjmp left closed");
	snprintf(path, sizeof(path), "%s/libplugin_a.so", dir);
	errno = MARK;
	h = dlopen(path, RTLD_NOW);
	expect("after dlopen");
	if (!h)
		return;
	*(void **)&entry = dlsym(h, "plugin_a_entry");
	errno = MARK;
	sink += entry ? entry(2) : 0;
	expect("after the plugin's first calls");
	dlclose(h);
	expect("after dlclose");
}

int main(int argc, char **argv)
{
	pthread_t th;

	expect("at main's start: the main thread's first probe");
	leaf();
	expect("after leaf");
	excluded();
	expect("after excluded");
	fold(30);
	expect("after fold");
	if (!setjmp(env))
		jumper(5);
	expect("after longjmp");
	pthread_create(&th, NULL, thread_start, NULL);
	pthread_join(th, NULL);
	errno = MARK;
	if (argc > 1)
		plugin(argv[1]);
	expect("after plugin");
	printf("errno changed %d\n", changed);
	return 0;
}
