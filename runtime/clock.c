/* clock.c: choosing the timer, and turning ticks into nanoseconds at dump time. */
#include "clock.h"

#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

/* The timer every probe reads; TSC until clock_init() says otherwise. */
enum clock_source clock_source = CLOCK_SRC_TSC;
/* Reference points taken by clock_init(), to measure the TSC rate against CLOCK_MONOTONIC. */
static uint64_t start_ticks, start_ns;
bool clock_stopped;
uint64_t clock_stopped_ticks;
/* Once stopped: the source it was, and its rate, measured while it could be read. */
static enum clock_source stopped_source;
static double stopped_rate;
/* Set when the clock is not what was asked for: why. */
static const char *note;
/* The process may not read the TSC: neither may the vDSO's clock_gettime (clock_gettime_ns). */
static bool tsc_off;
/* clock_init has run. */
static bool started;

/* True if this thread may not read the TSC (PR_GET_TSC).  The system call, not
 * prctl(): the runtime interposes prctl (sandbox.c). */
static bool tsc_forbidden(void)
{
	int state = 0;

	return syscall(SYS_prctl, PR_GET_TSC, &state, 0, 0, 0) == 0 && state == PR_TSC_SIGSEGV;
}

#if defined(__x86_64__) || defined(__i386__)
bool clock_tsc_invariant(void)
{
	unsigned a, b, c, d;

	if (!__get_cpuid(0x80000000, &a, &b, &c, &d) || a < 0x80000007)
		return false;
	__get_cpuid(0x80000007, &a, &b, &c, &d);
	return (d >> 8) & 1;
}
#else
bool clock_tsc_invariant(void)
{
	return false;
}
#endif

/*
 * One TSC reading and the CLOCK_MONOTONIC time it was taken at: the middle of
 * the tightest of a few monotonic brackets around it, so the pair's error is
 * tens of nanoseconds and a 2 ms window gives the rate to about 3e-5.
 */
static void clock_pair(uint64_t *ticks, uint64_t *ns)
{
	uint64_t best = UINT64_MAX;

	for (int i = 0; i < 5; i++) {
		uint64_t before = clock_mono_ns();
		uint64_t t = clock_tsc_read();
		uint64_t after = clock_mono_ns();
		if (after - before < best) {
			best = after - before;
			*ticks = t;
			*ns = before + (after - before) / 2;
		}
	}
}

enum clock_source clock_init(const char *requested, bool sampled)
{
	if (requested && !strcmp(requested, "none")) {
		clock_source = CLOCK_SRC_NONE;
	} else if ((tsc_off = tsc_off ||
			      tsc_forbidden())) { /* the vDSO's CLOCK_MONOTONIC may read it too */
		clock_source = CLOCK_SRC_NONE;
		note = "the TSC was forbidden when the program started (PR_SET_TSC): exact counts, "
		       "no times.";
	} else if (requested && !strcmp(requested, "monotonic"))
		clock_source = CLOCK_SRC_MONOTONIC;
	else if (!clock_tsc_invariant())
		clock_source = CLOCK_SRC_MONOTONIC;
	else if (requested && !strcmp(requested, "tsc-ordered"))
		clock_source = CLOCK_SRC_TSC_ORDERED;
	else if (requested && !strcmp(requested, "tsc-adaptive"))
		clock_source = CLOCK_SRC_TSC_ADAPTIVE;
	else /* "auto" and "tsc": plain reads, as DESIGN.md chose for their cost */
		clock_source = sampled ? CLOCK_SRC_TSC_SAMPLED : CLOCK_SRC_TSC;
	if (clock_source <= CLOCK_SRC_TSC_SAMPLED) { /* any TSC source */
		clock_pair(&start_ticks, &start_ns);
	} else {
		start_ns = clock_gettime_ns(CLOCK_MONOTONIC);
		start_ticks = clock_now();
	}
	started = true;
	return clock_source;
}

uint64_t clock_gettime_ns(clockid_t id)
{
	struct timespec ts;

	if (tsc_off || clock_stopped)
		syscall(SYS_clock_gettime, id, &ts);
	else
		clock_gettime(id, &ts);
	return timespec_ns(&ts);
}

void clock_stop(void)
{
	enum clock_source src = clock_source;

	if (!started) { /* before start-up: clock_init will find the TSC forbidden */
		tsc_off = true;
		return;
	}
	if (clock_stopped || src == CLOCK_SRC_NONE)
		return;
	stopped_rate = clock_ticks_per_second();
	stopped_source = src;
	clock_stopped_ticks = clock_now();
	note = "the program forbade the TSC (PR_SET_TSC or strict seccomp): calls after that are "
	       "counted, not timed.";
	__atomic_store_n(&clock_stopped, true, __ATOMIC_RELEASE);
	__atomic_store_n(&clock_source, CLOCK_SRC_MONOTONIC, __ATOMIC_RELEASE);
}

const char *clock_note(void)
{
	return note;
}

double clock_ticks_per_second(void)
{
	uint64_t now_ns = 0, now_ticks = 0;

	if (clock_stopped)
		return stopped_rate;
	if (clock_source == CLOCK_SRC_MONOTONIC)
		return 1e9;
	if (clock_source == CLOCK_SRC_NONE)
		return 0;
	/* A very short run waits until the window reaches 2 ms (see clock_pair). */
	do
		clock_pair(&now_ticks, &now_ns);
	while (now_ns - start_ns < 2000000u);
	return (double)(now_ticks - start_ticks) * 1e9 / (double)(now_ns - start_ns);
}

uint64_t clock_ticks_to_ns(uint64_t ticks, double ticks_per_second)
{
	if (ticks_per_second <= 0)
		return 0;
	return (uint64_t)((double)ticks * (1e9 / ticks_per_second) + 0.5);
}

const char *clock_source_name(void)
{
	switch (clock_stopped ? stopped_source : clock_source) {
	case CLOCK_SRC_TSC:
	case CLOCK_SRC_TSC_SAMPLED: return "tsc"; /* the sampling is the dump's "timing" */
	case CLOCK_SRC_TSC_ORDERED: return "tsc-ordered";
	case CLOCK_SRC_TSC_ADAPTIVE: return "tsc-adaptive";
	case CLOCK_SRC_MONOTONIC: return "monotonic";
	default: return "none";
	}
}
