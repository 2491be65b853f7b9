/*
 * hazards.c: library functions that never return, return twice or read
 * their caller's return address, each called from a chain of instrumented
 * frames (a > b > c, or its own), one hazard per run (argv[1]):
 *   exit         c calls exit(0): counted without a frame; a, b, c stay open
 *   _exit        c calls _exit(0) (the runtime interposes it and writes the profile first)
 *   abort        c calls abort(), whose SIGABRT handler jumps back to main
 *   quick_exit   c calls quick_exit(0); its handler dumps the profile
 *   pthread_exit b calls pthread_exit on a thread
 *   exec         c calls execl, execvp, execve and execv on a missing file: each returns -1
 *   context      getcontext returns twice (setcontext), swapcontext and makecontext
 *   jump         a qsort comparator longjmps out of qsort, 10 times, then qsort runs once more
 *   vfork        vfork and execl of /bin/true in the child, which is not profiled
 *   fork         b forks; the child returns through the hijacked fork and exits
 *   signal       100 raise(SIGUSR1) whose handler calls strlen 3 times; then a
 *                profiling timer whose handler calls strlen while spin calls it 1000000 times
 *   dlsym        dlsym(RTLD_NEXT) finds the definition after the program's (counted
 *                only: it reads its caller's return address)
 * Prints a line the suite reads where a count depends on the machine.
 */
#include <dlfcn.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <ucontext.h>
#include <unistd.h>

#include "e2e.h"

static volatile int sink;
static const char *how = "";
static jmp_buf env;
static sigjmp_buf senv;
static volatile sig_atomic_t prof_runs;
/* Strings whose length the compiler cannot know: strlen stays a call. */
static const char *volatile word = "word";

/* callprof_dump, if the runtime is there: the profile of a process that ends without exit. */
static void dump_now(void)
{
	int (*dump)(const char *);

	*(void **)&dump = dlsym(RTLD_DEFAULT, "callprof_dump");
	if (dump)
		dump(NULL);
}

NOINLINE static void on_abort(int sig)
{
	sink += sig;
	siglongjmp(senv, 1);
}

NOINLINE static void at_quick(void)
{
	dump_now();
}

NOINLINE static void c(void)
{
	if (!strcmp(how, "exit"))
		exit(0);
	if (!strcmp(how, "_exit"))
		_exit(0);
	if (!strcmp(how, "abort"))
		abort();
	if (!strcmp(how, "quick_exit"))
		quick_exit(0);
	if (!strcmp(how, "exec")) {
		char *argv[] = { "lc-missing", NULL };
		execl("/nonexistent/lc-missing", "lc-missing", (char *)NULL);
		execvp("/nonexistent/lc-missing", argv);
		execve("/nonexistent/lc-missing", argv, environ);
		execv("/nonexistent/lc-missing", argv);
	}
	sink++;
}

NOINLINE static void b(void)
{
	if (!strcmp(how, "pthread_exit"))
		pthread_exit(NULL);
	if (!strcmp(how, "fork")) {
		pid_t pid = fork();
		if (pid == 0) {
			printf("%d\n", (int)getpid());
			fflush(stdout);
			exit(0);
		}
		waitpid(pid, NULL, 0);
	}
	c();
}

NOINLINE static void a(void)
{
	b();
}

NOINLINE static void *thread_a(void *arg)
{
	a();
	return arg;
}

NOINLINE static int cmp_jump(const void *x, const void *y)
{
	(void)x;
	(void)y;
	longjmp(env, 1);
}

NOINLINE static int cmp_int(const void *x, const void *y)
{
	return *(const int *)x - *(const int *)y;
}

NOINLINE static void jumps(void)
{
	int v[8] = { 5, 3, 7, 1, 8, 2, 6, 4 };

	for (int i = 0; i < 10; i++)
		if (setjmp(env) == 0)
			qsort(v, 8, sizeof(v[0]), cmp_jump);
	qsort(v, 8, sizeof(v[0]), cmp_int);
}

static ucontext_t main_ctx, co_ctx;

NOINLINE static void coroutine(void)
{
	sink++;
	swapcontext(&co_ctx, &main_ctx);
}

NOINLINE static void contexts(void)
{
	static char stack[64 * 1024];
	volatile int again = 0;

	getcontext(&main_ctx);
	if (!again) {
		again = 1;
		setcontext(&main_ctx);
	}
	getcontext(&co_ctx);
	co_ctx.uc_stack.ss_sp = stack;
	co_ctx.uc_stack.ss_size = sizeof(stack);
	co_ctx.uc_link = &main_ctx;
	makecontext(&co_ctx, coroutine, 0);
	swapcontext(&main_ctx, &co_ctx);
}

NOINLINE static void vforked(void)
{
	pid_t pid = vfork();

	if (pid == 0) {
		execl("/bin/true", "true", (char *)NULL);
		_exit(127);
	}
	waitpid(pid, NULL, 0);
}

NOINLINE static void on_usr1(int sig)
{
	sink += (int)strlen(word) + (int)strlen(word) + (int)strlen(word) + sig;
}

NOINLINE static void on_prof(int sig)
{
	prof_runs++;
	sink += (int)strlen(word) + sig;
}

NOINLINE static void raiser(void)
{
	for (int i = 0; i < 100; i++)
		raise(SIGUSR1);
}

NOINLINE static void spin(void)
{
	for (int i = 0; i < 1000000; i++)
		sink += (int)strlen(word);
}

NOINLINE static void timed(void)
{
	struct itimerval it = { { 0, 50 }, { 0, 50 } };

	signal(SIGPROF, on_prof);
	setitimer(ITIMER_PROF, &it, NULL);
	spin();
	memset(&it, 0, sizeof(it));
	setitimer(ITIMER_PROF, &it, NULL);
}

/* The definition after the program's of a function the runtime defines: the
 * first there is, unless dlsym took the runtime for its caller. */
NOINLINE static void finder(void)
{
	puts(dlsym(RTLD_NEXT, "dlopen") == dlsym(RTLD_DEFAULT, "dlopen") ? "next is the first" : "next is another");
}

int main(int argc, char **argv)
{
	pthread_t th;

	how = argc > 1 ? argv[1] : "";
	if (!strcmp(how, "abort")) {
		signal(SIGABRT, on_abort);
		if (sigsetjmp(senv, 1) == 0)
			a();
	} else if (!strcmp(how, "quick_exit")) {
		at_quick_exit(at_quick);
		a();
	} else if (!strcmp(how, "pthread_exit")) {
		pthread_create(&th, NULL, thread_a, NULL);
		pthread_join(th, NULL);
	} else if (!strcmp(how, "context")) {
		contexts();
	} else if (!strcmp(how, "jump")) {
		jumps();
	} else if (!strcmp(how, "vfork")) {
		vforked();
	} else if (!strcmp(how, "signal")) {
		signal(SIGUSR1, on_usr1);
		raiser();
		timed();
		printf("%d\n", (int)prof_runs);
	} else if (!strcmp(how, "dlsym")) {
		finder();
	} else {
		a();
	}
	return 0;
}
