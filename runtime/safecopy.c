/*
 * safecopy.c: reading through bad pointers without crashing (safecopy.h): the
 * copy loop, the fault handler that resumes it, and what the interposed
 * sigaction (endsig.c) asks to keep the handler first.
 */
#include "safecopy.h"

#include <dlfcn.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <ucontext.h>

#include "compat.h"

/*
 * rdi: dst, rsi: src, rdx: max.  Returns rax: bytes copied, rdx: 0, or 1 when
 * the load at safecopy_load faulted (the handler resumes at safecopy_fault).
 */
__asm__(".text\n"
	".globl safecopy_string\n"
	".hidden safecopy_string\n"
	".type safecopy_string, @function\n"
	".globl safecopy_load\n"
	".hidden safecopy_load\n"
	".globl safecopy_fault\n"
	".hidden safecopy_fault\n"
	"safecopy_string:\n"
	"	xorl %eax, %eax\n"
	"	testq %rdx, %rdx\n"
	"	jz 2f\n"
	"1:\n"
	"safecopy_load:\n"
	"	movzbl (%rsi,%rax), %ecx\n"
	"	movb %cl, (%rdi,%rax)\n"
	"	incq %rax\n"
	"	testb %cl, %cl\n"
	"	jz 2f\n"
	"	cmpq %rdx, %rax\n"
	"	jb 1b\n"
	"2:	xorl %edx, %edx\n"
	"	ret\n"
	"safecopy_fault:\n"
	"	movl $1, %edx\n"
	"	ret\n"
	".size safecopy_string, .-safecopy_string\n");

extern const char safecopy_load[], safecopy_fault[];

typedef int (*sigaction_fn)(int, const struct sigaction *, struct sigaction *);

/* The real sigaction, and the actions the program asked for SIGSEGV and SIGBUS. */
static sigaction_fn real_sigaction;
static struct sigaction program_segv, program_bus;
/* Set once the handler is installed. */
static bool installed;

bool safecopy_ready(void)
{
	return __atomic_load_n(&installed, __ATOMIC_ACQUIRE);
}

static struct sigaction *program_action(int sig)
{
	return sig == SIGSEGV ? &program_segv : sig == SIGBUS ? &program_bus : NULL;
}

/* Gives the signal what the program wanted: its handler (with its mask), or
 * the default action, which for a fault happens when the instruction runs again. */
static void chain(int sig, siginfo_t *info, void *uc)
{
	struct sigaction *prog = program_action(sig);
	struct sigaction dfl;
	sigset_t old;

	if (prog->sa_handler == SIG_IGN && info->si_code <= 0)
		return; /* sent by kill(), and ignored */
	if (prog->sa_handler == SIG_DFL || prog->sa_handler == SIG_IGN) {
		memset(&dfl, 0, sizeof(dfl));
		dfl.sa_handler = SIG_DFL;
		real_sigaction(sig, &dfl, NULL);
		if (info->si_code <= 0)
			raise(sig);
		return;
	}
	pthread_sigmask(SIG_BLOCK, &prog->sa_mask, &old);
	if (prog->sa_flags & SA_SIGINFO)
		prog->sa_sigaction(sig, info, uc);
	else
		prog->sa_handler(sig);
	if ((unsigned)prog->sa_flags & (unsigned)SA_RESETHAND)
		prog->sa_handler = SIG_DFL;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
}

static void on_fault(int sig, siginfo_t *info, void *ucv)
{
	ucontext_t *uc = ucv;

	if ((uintptr_t)uc->uc_mcontext.gregs[REG_RIP] == (uintptr_t)safecopy_load) {
		uc->uc_mcontext.gregs[REG_RIP] = (greg_t)(uintptr_t)safecopy_fault;
		return;
	}
	chain(sig, info, ucv);
}

static bool find_real(void)
{
	if (!real_sigaction)
		*(void **)&real_sigaction = dlsym(RTLD_NEXT, "sigaction");
	return real_sigaction != NULL;
}

bool safecopy_setup(void)
{
	struct sigaction sa;

	if (installed)
		return true;
	if (!find_real())
		return false;
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_fault;
	sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER | SA_RESTART;
	sigemptyset(&sa.sa_mask);
	if (real_sigaction(SIGSEGV, &sa, &program_segv) != 0 ||
	    real_sigaction(SIGBUS, &sa, &program_bus) != 0)
		return false;
	__atomic_store_n(&installed, true, __ATOMIC_RELEASE);
	return true;
}

bool safecopy_sigaction(int sig, const struct sigaction *act, struct sigaction *old, int *rc)
{
	struct sigaction *prog = program_action(sig);

	if (!prog || !safecopy_ready())
		return false;
	if (old)
		*old = *prog;
	if (act)
		*prog = *act;
	*rc = 0;
	return true;
}
