/* sandbox.c: the interposed prctl (the TSC forbidden, seccomp entered), unshare and setns (sandbox.h). */
#include "sandbox.h"

#include <linux/seccomp.h>
#include <sched.h>
#include <stdarg.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "clock.h"
#include "compat.h"
#include "dumper.h"
#include "probe.h"

bool sandbox_filtered;
/* Set on a thread that entered strict seccomp mode. */
static __thread bool strict __attribute__((tls_model("initial-exec")));

bool sandbox_strict_thread(void)
{
	return strict;
}

/* The program shuts itself in: the runtime's thread, whose system calls the
 * filter may not allow, goes (and a strict-mode thread's exit could not end
 * the process while it lives). */
static void shut_in(void)
{
	sandbox_filtered = true;
	dumper_stop();
}

/* Before the kernel hears of it: what the request means for the runtime. */
static void before(int option, unsigned long mode)
{
	if (option == PR_SET_TSC && mode == PR_TSC_SIGSEGV) {
		clock_stop();
	} else if (option == PR_SET_SECCOMP && mode == SECCOMP_MODE_STRICT) {
		clock_stop();    /* strict mode forbids the TSC too */
		probe_silence(); /* no probe may map memory there again */
		strict = true;
		shut_in();
	} else if (option == PR_SET_SECCOMP || (option == PR_SET_NO_NEW_PRIVS && mode)) {
		shut_in();
	}
}

/* prctl itself, made through syscall(2): also where dlsym finds no other (a static program). */
CP_EXPORT int prctl(int option, ...);
int prctl(int option, ...)
{
	va_list ap;
	unsigned long arg[4];

	va_start(ap, option);
	for (int i = 0; i < 4; i++)
		arg[i] = va_arg(ap, unsigned long);
	va_end(ap);
	before(option, arg[0]);
	return (int)syscall(SYS_prctl, option, arg[0], arg[1], arg[2], arg[3]);
}

/* unshare and setns into a user namespace need a process of one thread: the
 * runtime's own goes first. */
CP_EXPORT int unshare(int flags);
int unshare(int flags)
{
	if (flags & CLONE_NEWUSER)
		dumper_stop();
	return (int)syscall(SYS_unshare, flags);
}

CP_EXPORT int setns(int fd, int nstype);
int setns(int fd, int nstype)
{
	if (!nstype || (nstype & CLONE_NEWUSER))
		dumper_stop();
	return (int)syscall(SYS_setns, fd, nstype);
}
