/*
 * ends.c: a program that ends in every way the runtime must survive: `ends MODE`.
 * Each mode calls work() 5 times (work calls leaf once) before its end, so every
 * profile of it has exact counts: main 1, work 5, leaf 5 (and what the mode adds).
 *   exit          prints a line (buffered: stdout is a file) and returns 0
 *   fsize         the same, under a file size limit the profile does not fit in
 *   seccomp       installs a seccomp filter that kills openat, prints, returns 0
 *   seccomp-raw   the same through the raw seccomp system call, as libseccomp does
 *   seccomp-mmap  installs a seccomp filter that kills mmap, prints, returns 0
 *   tsc-late      forbids the TSC (PR_SET_TSC), then calls work() 5 times more
 *   tsc-early     the TSC was forbidden before start-up (by `ends forbid-tsc MODE`)
 *   strict        enters strict seccomp, calls work() 5 times more, exits by SYS_exit
 *   kill SIG      sends itself SIG (a number) and waits for it
 *   wait          prints "ready" (flushed), then waits for a signal to end it
 *   handled SIG   its own handler of SIG exits 7; then sends itself SIG
 *   if-default    installs a handler of SIGINT that exits 9 only if SIGINT has its
 *                 default action (as Python does), then sends itself SIGINT
 *   reraise SIG   its own handler of SIG puts the default action back and raises SIG
 *                 again (the usual way to clean up, then die of the signal)
 *   abort         abort()
 *   segv          a write through a null pointer
 *   overflow      unbounded recursion (deep() calls deep())
 *   thread-segv   a second thread calls crasher(), which calls work5() then writes
 *                 through a null pointer; the first waits for it
 *   _exit         _exit(0) after printing
 *   _Exit         _Exit(0) after printing
 *   _exit-handler its handler of SIGTERM calls _exit(5); then sends itself SIGTERM
 *   fork-_exit    a fork child calls work5() then _exit(4); the parent waits for it,
 *                 prints the child's pid and status
 *   vfork         a vfork child calls _exit(3); the parent waits for it, calls work5()
 *                 again, prints the child's status
 *   quick_exit    quick_exit(0) after printing
 *   dlopen LIB    dlopen()s LIB, calls its lib_entry() 2 times, never closes it
 *   dlopen-term LIB  the same, then opens libm.so.6 too, then sends itself SIGTERM
 *                 (built without instrumentation: only LIB is instrumented)
 *   sigcgt        prints the SigIgn and SigCgt lines of /proc/self/status
 *   forbid-tsc MODE...  sets PR_TSC_SIGSEGV, then runs itself with MODE... (no profile of its own)
 */
#include <dlfcn.h>
#include <pthread.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "e2e.h"

static volatile int sink;

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

NOINLINE static int deep(int n)
{
	volatile char pad[256];

	pad[n & 255] = (char)n;
	return deep(n + 1) + pad[0];
}

NOINLINE static void *crasher(void *arg)
{
	work5();
	*(volatile int *)(uintptr_t)sink = 1;
	return arg;
}

/* A filter that kills the process on openat (and open), or on mmap, allowing the rest. */
static int kill_syscall(int raw, int mmap)
{
	struct sock_filter code[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, mmap ? SYS_mmap : SYS_openat, 2, 0),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, mmap ? SYS_mmap : SYS_open, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
	};
	struct sock_fprog prog = { sizeof(code) / sizeof(code[0]), code };

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
		return -1;
	if (raw)
		return (int)syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog);
	return prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog);
}

static void exit_7(int sig)
{
	(void)sig;
	exit(7);
}

static void exit_9(int sig)
{
	(void)sig;
	exit(9);
}

static void exit_5(int sig)
{
	(void)sig;
	_exit(5);
}

static void reraise(int sig)
{
	signal(sig, SIG_DFL);
	raise(sig);
}

static int run(int argc, char **argv)
{
	const char *mode = argv[1];

	work5();
	if (!strcmp(mode, "exit") || !strcmp(mode, "fsize")) {
		printf("ends: %s\n", mode);
	} else if (!strcmp(mode, "seccomp") || !strcmp(mode, "seccomp-raw") || !strcmp(mode, "seccomp-mmap")) {
		if (kill_syscall(!strcmp(mode, "seccomp-raw"), !strcmp(mode, "seccomp-mmap")))
			return 2;
		printf("ends: %s\n", mode);
	} else if (!strcmp(mode, "tsc-late")) {
		if (prctl(PR_SET_TSC, PR_TSC_SIGSEGV, 0, 0, 0))
			return 2;
		work5();
		printf("ends: %s\n", mode);
	} else if (!strcmp(mode, "tsc-early")) {
		printf("ends: %s\n", mode);
	} else if (!strcmp(mode, "strict")) {
		static const char line[] = "ends: strict\n";
		fflush(stdout);
		if (prctl(PR_SET_SECCOMP, SECCOMP_MODE_STRICT))
			return 2;
		work5();
		if (write(1, line, sizeof(line) - 1) < 0)
			syscall(SYS_exit, 3);
		syscall(SYS_exit, 0);
	} else if (!strcmp(mode, "kill") && argc > 2) {
		kill(getpid(), atoi(argv[2]));
		for (;;)
			pause();
	} else if (!strcmp(mode, "handled") && argc > 2) {
		signal(atoi(argv[2]), exit_7);
		kill(getpid(), atoi(argv[2]));
		for (;;)
			pause();
	} else if (!strcmp(mode, "if-default")) {
		struct sigaction old;
		if (sigaction(SIGINT, NULL, &old) == 0 && !(old.sa_flags & SA_SIGINFO) && old.sa_handler == SIG_DFL)
			signal(SIGINT, exit_9);
		kill(getpid(), SIGINT);
		for (;;)
			pause();
	} else if (!strcmp(mode, "reraise") && argc > 2) {
		signal(atoi(argv[2]), reraise);
		kill(getpid(), atoi(argv[2]));
		for (;;)
			pause();
	} else if (!strcmp(mode, "sigcgt")) {
		char line[256];
		FILE *f = fopen("/proc/self/status", "r");
		if (!f)
			return 2;
		while (fgets(line, sizeof(line), f))
			if (!strncmp(line, "SigIgn:", 7) || !strncmp(line, "SigCgt:", 7))
				fputs(line, stdout);
		fclose(f);
	} else if (!strcmp(mode, "wait")) {
		printf("ready\n");
		fflush(stdout);
		for (;;)
			pause();
	} else if (!strcmp(mode, "abort")) {
		abort();
	} else if (!strcmp(mode, "segv")) {
		*(volatile int *)(uintptr_t)sink = 1;
	} else if (!strcmp(mode, "thread-segv")) {
		pthread_t th;
		if (pthread_create(&th, NULL, crasher, NULL))
			return 2;
		pthread_join(th, NULL);
	} else if (!strcmp(mode, "overflow")) {
		return deep(0);
	} else if (!strcmp(mode, "_exit")) {
		printf("ends: %s\n", mode);
		fflush(stdout);
		_exit(0);
	} else if (!strcmp(mode, "_Exit")) {
		printf("ends: %s\n", mode);
		fflush(stdout);
		_Exit(0);
	} else if (!strcmp(mode, "_exit-handler")) {
		signal(SIGTERM, exit_5);
		kill(getpid(), SIGTERM);
		for (;;)
			pause();
	} else if (!strcmp(mode, "fork-_exit")) {
		int status;
		pid_t pid = fork();
		if (pid == 0) {
			work5();
			_exit(4);
		}
		if (pid < 0 || waitpid(pid, &status, 0) != pid)
			return 2;
		printf("%d %d\n", (int)pid, WIFEXITED(status) ? WEXITSTATUS(status) : -1);
	} else if (!strcmp(mode, "vfork")) {
		int status;
		pid_t pid = vfork();
		if (pid == 0)
			_exit(3);
		if (pid < 0 || waitpid(pid, &status, 0) != pid)
			return 2;
		work5();
		printf("ends: vfork %d\n", WIFEXITED(status) ? WEXITSTATUS(status) : -1);
	} else if (!strcmp(mode, "quick_exit")) {
		printf("ends: %s\n", mode);
		fflush(stdout);
		quick_exit(0);
	} else if ((!strcmp(mode, "dlopen") || !strcmp(mode, "dlopen-term")) && argc > 2) {
		void *h = dlopen(argv[2], RTLD_NOW);
		void (*entry)(void) = h ? (void (*)(void))dlsym(h, "lib_entry") : NULL;
		if (!entry)
			return 2;
		entry();
		entry();
		if (!strcmp(mode, "dlopen-term")) {
			if (!dlopen("libm.so.6", RTLD_NOW))
				return 2;
			kill(getpid(), SIGTERM);
			for (;;)
				pause();
		}
	} else {
		return 2;
	}
	return 0;
}

int main(int argc, char **argv)
{
	if (argc > 2 && !strcmp(argv[1], "forbid-tsc")) {
		if (prctl(PR_SET_TSC, PR_TSC_SIGSEGV, 0, 0, 0))
			return 2;
		argv[1] = argv[0];
		execv(argv[0], argv + 1);
		return 2;
	}
	return argc > 1 ? run(argc, argv) : 2;
}
