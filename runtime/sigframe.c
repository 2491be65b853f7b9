/* sigframe.c: finding a signal handler's frame on this thread's stack (Linux, x86-64). */
#include "sigframe.h"

#include <pthread.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <ucontext.h>
#include <unistd.h>

/* The kernel's struct ucontext on x86-64 (flags, link, stack, mcontext, the
 * 8-byte signal mask): the siginfo follows it in the frame. */
#define KERNEL_UCONTEXT_BYTES 304
#define KERNEL_UC_SIGMASK 296
/* The flags the kernel sets in it: UC_FP_XSTATE, UC_SIGCONTEXT_SS, UC_STRICT_RESTORE_SS. */
#define UC_FLAGS_KNOWN 0x7ul
/* No stack is searched further than this above the current frame. */
#define SEARCH_BYTES ((uintptr_t)64 << 20)
/* Where the kernel puts the FPU state: above the frame, within this. */
#define FPSTATE_REACH ((uintptr_t)64 << 10)

/* The main thread's stack, as the dynamic linker found it. */
extern void *__libc_stack_end;

/* The restorers of the handlers installed (glibc's __restore_rt), up to a few. */
static void *restorers[4];
static unsigned nrestorers;

static void find_restorers(void)
{
	nrestorers = 0;
	for (int sig = 1; sig < NSIG && nrestorers < 4; sig++) {
		struct sigaction sa;
		bool known = false;
		if (sigaction(sig, NULL, &sa) != 0 || !sa.sa_restorer)
			continue;
		for (unsigned i = 0; i < nrestorers; i++)
			known = known || restorers[i] == (void *)sa.sa_restorer;
		if (!known)
			restorers[nrestorers++] = (void *)sa.sa_restorer;
	}
}

static bool is_restorer(uintptr_t w)
{
	for (unsigned i = 0; i < nrestorers; i++)
		if (w == (uintptr_t)restorers[i])
			return true;
	return false;
}

/* The bits of a signal mask, as the kernel keeps them (signal n is bit n - 1). */
static uint64_t mask_bits(const sigset_t *set)
{
	uint64_t bits = 0;

	for (int sig = 1; sig <= 64 && sig < NSIG; sig++)
		if (sigismember(set, sig) == 1)
			bits |= 1ull << (sig - 1);
	return bits;
}

/*
 * True if the words at `p` are the frame of a signal being handled: the
 * restorer as return address, then a ucontext as the kernel writes it (its
 * flags, no link, its FPU state just above), whose signal mask, the one
 * restored when the handler returns, lacks a signal blocked now (the one
 * handled, blocked while its handler runs).  The last test tells a live frame
 * from the copy a finished handler left in the stack below its caller.  (The
 * siginfo after it is written only for SA_SIGINFO handlers.)
 */
static bool frame_at(const uintptr_t *p, uint64_t now)
{
	const ucontext_t *uc = (const ucontext_t *)(p + 1);
	uint64_t saved = *(const uint64_t *)((const char *)(p + 1) + KERNEL_UC_SIGMASK);
	uintptr_t fp = (uintptr_t)uc->uc_mcontext.fpregs;

	return is_restorer(*p) && uc->uc_link == NULL && !(uc->uc_flags & ~UC_FLAGS_KNOWN) &&
	       (!fp || (fp > (uintptr_t)p && fp - (uintptr_t)p < FPSTATE_REACH)) && (now & ~saved);
}

/* The top of this thread's stack, or 0 when unknown.  A thread's descriptor
 * sits above its stack; the main thread's stack ends at __libc_stack_end. */
static uintptr_t stack_top(uintptr_t sp)
{
	uintptr_t top =
		getpid() == gettid() ? (uintptr_t)__libc_stack_end : (uintptr_t)pthread_self();

	return top > sp && top - sp < SEARCH_BYTES ? top : 0;
}

bool sigframe_in_handler(void)
{
	stack_t ss;
	sigset_t now;
	uint64_t blocked;
	uintptr_t sp = (uintptr_t)__builtin_frame_address(0), top;

	if (sigaltstack(NULL, &ss) == 0 && (ss.ss_flags & SS_ONSTACK))
		return true;
	find_restorers();
	if (!nrestorers || !(top = stack_top(sp)) || pthread_sigmask(SIG_BLOCK, NULL, &now) != 0)
		return false;
	blocked = mask_bits(&now);
	for (const uintptr_t *p = (const uintptr_t *)(sp & ~(uintptr_t)7);
	     (uintptr_t)p + 8 + KERNEL_UCONTEXT_BYTES <= top; p++)
		if (frame_at(p, blocked))
			return true;
	return false;
}
