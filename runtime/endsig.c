/* endsig.c: the runtime's handlers of the signals that end a program, and of CALLPROF_DUMP_SIGNAL. */
#include "endsig.h"

#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "altstack.h"
#include "compat.h"
#include "modscan.h"
#include "options.h"
#include "process.h"
#include "safecopy.h"

/* The signals whose default action ends the process, and which a program may
 * leave to it: the runtime writes the profile before they do (docs: "How a
 * program ends").  SIGKILL and SIGSTOP cannot be handled; the real-time ones
 * and SIGVTALRM, SIGPROF, SIGIO, SIGPWR, SIGSTKFLT are left alone. */
/* The C library's own name for sigaction, in libc.so and libc.a alike. */
extern int __sigaction(int sig, const struct sigaction *act, struct sigaction *old);

static const int ending[] = { SIGHUP,  SIGINT,  SIGQUIT, SIGILL,  SIGTRAP, SIGABRT,
			      SIGBUS,  SIGFPE,  SIGUSR1, SIGSEGV, SIGUSR2, SIGPIPE,
			      SIGALRM, SIGTERM, SIGXCPU, SIGXFSZ, SIGSYS };

/* How long a second ending signal waits for the first one's dump. */
#define SECOND_WAIT_MS 60000

static dumper_write_fn write_dump;
static bool armed;
/* The ending signals whose default action the runtime's handler stands in
 * for (bit n - 1 for signal n): the program sees SIG_DFL there (sigaction). */
static uint64_t standing_in;
/* The C library's sigaction (or an interposer's after ours). */
static int (*real_sigaction)(int, const struct sigaction *, struct sigaction *);

static uint64_t bit(int sig)
{
	return sig > 0 && sig <= 64 ? 1ull << (sig - 1) : 0;
}

/* The real sigaction: found when first needed, at start-up (a handler may call sigaction,
 * where dlsym may not run); __sigaction in a static program, where dlsym finds none. */
static int call_sigaction(int sig, const struct sigaction *act, struct sigaction *old)
{
	if (!real_sigaction)
		*(void **)&real_sigaction = dlsym(RTLD_NEXT, "sigaction");
	if (!real_sigaction)
		real_sigaction = __sigaction;
	return real_sigaction(sig, act, old);
}
/* The first ending signal taken (0: none yet), and whether its dump is over. */
static int first_sig, first_over;

/* Faults: the kernel signals them for the instruction at the interrupted
 * address, which runs again when the handler returns. */
static bool is_fault(int sig, const siginfo_t *info)
{
	return (sig == SIGSEGV || sig == SIGBUS || sig == SIGILL || sig == SIGFPE) &&
	       info->si_code > 0;
}

/* Ends the process by `sig`, as its default action does. */
static void die_by(int sig, const siginfo_t *info)
{
	struct sigaction dfl;
	sigset_t one;

	memset(&dfl, 0, sizeof(dfl));
	dfl.sa_handler = SIG_DFL;
	sigemptyset(&dfl.sa_mask);
	__atomic_and_fetch(&standing_in, ~bit(sig), __ATOMIC_RELAXED);
	call_sigaction(sig, &dfl, NULL);
	if (is_fault(sig, info))
		return; /* the instruction faults again, the default action takes it, core and all */
	sigemptyset(&one);
	sigaddset(&one, sig);
	pthread_sigmask(SIG_UNBLOCK, &one, NULL);
	raise(sig);
}

/* A second ending signal, on another thread, while the first one's dump is written: it waits. */
static void wait_first(void)
{
	const struct timespec nap = { 0, 10000000L };

	for (int ms = 0; ms < SECOND_WAIT_MS && !__atomic_load_n(&first_over, __ATOMIC_ACQUIRE);
	     ms += 10)
		nanosleep(&nap, NULL);
}

/* Writes `s` to stderr, async-signal-safely. */
static void say(const char *s)
{
	if (write(STDERR_FILENO, s, strlen(s)) < 0)
		return;
}

/*
 * One line, async-signal-safe: the last dump of a process that `sig` (or
 * _exit: DUMPER_HARD_EXIT) ends was not written: the runtime's thread made no
 * progress (the interrupted code holds a lock the dump needs) or faulted, or
 * it is gone (the program shut itself in, or it could not be started).
 */
static void say_unwritten(int sig, bool ran)
{
	char num[] = "signal 00";

	say("callprof: no profile written before ");
	if (sig == DUMPER_HARD_EXIT) {
		say("_exit");
	} else {
		num[7] = sig >= 10 ? (char)('0' + sig / 10) : (char)('0' + sig % 10);
		num[8] = sig >= 10 ? (char)('0' + sig % 10) : '\0';
		say(num);
	}
	say(ran ? " ended the program: its dump stalled or failed\n"
		: " ended the program: the runtime's thread that writes it was gone\n");
}

static void on_ending(int sig, siginfo_t *info, void *uc)
{
	int saved_errno = errno, none = 0;

	(void)uc;
	if (dumper_is_self()) { /* the dump itself faulted: the heap may be broken */
		if (dumper_failed())
			for (;;)
				pause(); /* the handler waiting for it ends the process */
		die_by(sig, info);
		errno = saved_errno;
		return;
	}
	if (__atomic_compare_exchange_n(&first_sig, &none, sig, false, __ATOMIC_ACQ_REL,
					__ATOMIC_ACQUIRE)) {
		if (__atomic_load_n(&process.probed, __ATOMIC_RELAXED) && !dumper_ask_wait(sig))
			say_unwritten(sig, dumper_running());
		__atomic_store_n(&first_over, 1, __ATOMIC_RELEASE);
	} else {
		wait_first();
	}
	die_by(sig, info);
	errno = saved_errno;
}

static void on_dump_signal(int sig)
{
	(void)sig;
	dumper_ask();
}

/* The action the runtime stands in for the default one with. */
static void stand_in_action(struct sigaction *sa)
{
	memset(sa, 0, sizeof(*sa));
	sa->sa_sigaction = on_ending;
	sa->sa_flags = SA_SIGINFO | SA_ONSTACK;
	sigemptyset(&sa->sa_mask);
	for (size_t i = 0; i < sizeof(ending) / sizeof(ending[0]); i++)
		sigaddset(&sa->sa_mask, ending[i]);
}

/* True if `sig` is an ending signal the runtime may stand in for. */
static bool may_stand_in(int sig)
{
	if (!options.on_signal || sig == options.dump_signal)
		return false;
	for (size_t i = 0; i < sizeof(ending) / sizeof(ending[0]); i++)
		if (ending[i] == sig)
			return true;
	return false;
}

static bool is_default(const struct sigaction *sa)
{
	return !(sa->sa_flags & SA_SIGINFO) && sa->sa_handler == SIG_DFL;
}

/* The program's action for `sig`: the one safecopy's fault handler keeps for it
 * where that handler stands in front (safecopy.h), else the real one. */
static int program_sigaction(int sig, const struct sigaction *act, struct sigaction *old)
{
	int rc;

	if (safecopy_sigaction(sig, act, old, &rc))
		return rc;
	return call_sigaction(sig, act, old);
}

/* Installs the handler for every ending signal the program leaves to its default action. */
static void handle_ending(void)
{
	struct sigaction sa, old;

	stand_in_action(&sa);
	for (size_t i = 0; i < sizeof(ending) / sizeof(ending[0]); i++)
		if (may_stand_in(ending[i]) && program_sigaction(ending[i], NULL, &old) == 0 &&
		    is_default(&old) && program_sigaction(ending[i], &sa, NULL) == 0)
			__atomic_or_fetch(&standing_in, bit(ending[i]), __ATOMIC_RELAXED);
}

/*
 * sigaction, interposed: the runtime's stand-in is the default action as the
 * program sees it.  Asked, it answers SIG_DFL (a program that installs its own
 * handler only over the default one, as Python does for SIGINT, still does);
 * set to SIG_DFL, it stays (so the idiom of a handler that resets the default
 * and raises the signal again still writes the profile); set to anything else,
 * it goes.  Where safecopy's fault handler stands in front of the signal
 * (safecopy.h), the action it keeps for the program is the one set and read.
 * Async-signal-safe, as sigaction is.
 */
CP_EXPORT int sigaction(int sig, const struct sigaction *act, struct sigaction *old);
int sigaction(int sig, const struct sigaction *act, struct sigaction *old)
{
	uint64_t b = bit(sig);
	bool was_ours = __atomic_load_n(&standing_in, __ATOMIC_RELAXED) & b;
	const struct sigaction *want = act;
	struct sigaction mine;
	int rc;

	if (act && is_default(act) && armed && may_stand_in(sig)) {
		stand_in_action(&mine);
		want = &mine;
	}
	rc = program_sigaction(sig, want, old);
	if (rc == 0 && want == &mine)
		__atomic_or_fetch(&standing_in, b, __ATOMIC_RELAXED);
	else if (rc == 0 && act)
		__atomic_and_fetch(&standing_in, ~b, __ATOMIC_RELAXED);
	if (rc == 0 && old && (was_ours || (old->sa_flags & SA_SIGINFO)) &&
	    old->sa_sigaction == on_ending) {
		memset(old, 0, sizeof(*old));
		old->sa_handler = SIG_DFL;
		sigemptyset(&old->sa_mask);
	}
	return rc;
}

/* signal, interposed: glibc's (BSD semantics), through the sigaction above. */
CP_EXPORT sighandler_t signal(int sig, sighandler_t handler);
sighandler_t signal(int sig, sighandler_t handler)
{
	struct sigaction act, old;

	memset(&act, 0, sizeof(act));
	act.sa_handler = handler;
	sigemptyset(&act.sa_mask);
	if (sigaddset(&act.sa_mask, sig) < 0)
		return SIG_ERR;
	act.sa_flags = SA_RESTART;
	return sigaction(sig, &act, &old) < 0 ? SIG_ERR : old.sa_handler;
}

static void handle_dump_signal(int sig)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_dump_signal;
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	call_sigaction(sig, &sa, NULL);
}

void endsig_arm(void)
{
	bool on = options.on_signal;

	if (armed || !write_dump || (!on && !options.dump_signal && !options.dump_every_s))
		return;
	if (!modscan_probed_loaded())
		return;
	armed = true;
	if (dumper_start(write_dump, options.dump_every_s) < 0)
		return;
	if (on) {
		altstack_wanted = true;
		altstack_ensure();
		handle_ending();
	}
	if (options.dump_signal)
		handle_dump_signal(options.dump_signal);
}

bool endsig_armed(void)
{
	return armed || (!options.on_signal && !options.dump_signal && !options.dump_every_s);
}

void endsig_setup(dumper_write_fn write)
{
	write_dump = write;
	endsig_arm();
}

void endsig_hard_exit(void)
{
	int saved_errno = errno, none = 0;

	if (!armed || dumper_is_self() || __atomic_load_n(&process.ending, __ATOMIC_RELAXED) ||
	    !__atomic_load_n(&process.probed, __ATOMIC_RELAXED) || getpid() != process.pid)
		return;
	if (__atomic_compare_exchange_n(&first_sig, &none, DUMPER_HARD_EXIT, false,
					__ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
		if (!dumper_ask_wait(DUMPER_HARD_EXIT))
			say_unwritten(DUMPER_HARD_EXIT, dumper_running());
		__atomic_store_n(&first_over, 1, __ATOMIC_RELEASE);
	} else {
		wait_first();
	}
	errno = saved_errno;
}

void endsig_forked(void)
{
	first_sig = first_over = 0;
	dumper_forked();
}
