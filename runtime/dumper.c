/* dumper.c: the runtime's dump thread: requests through a pipe, a period through poll's timeout. */
#include "dumper.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "probe.h"
#include "tstate.h"

/* How long a waiting handler lets the thread go without using CPU before it gives up. */
#define DUMPER_STALL_MS 10000
#define DUMPER_NAP_MS 10
#define DUMPER_STACK_BYTES (2u << 20)

/* The requests: the write end never blocks a handler, the read end is the thread's. */
static int req[2] = { -1, -1 };
static pthread_t thread;
static bool running;
static int thread_tid;
/* The thread's CPU clock, which a waiting handler watches for progress. */
static clockid_t cpu_clock;
static dumper_write_fn write_dump;
static uint32_t every_s;
/* A handler waits for the dump of a process ending (set while it does), which
 * the thread then wrote (cut_done) or failed to write (cut_failed). */
static int cut_waiting, cut_done, cut_failed;

static uint64_t mono_ms(void)
{
	return clock_gettime_ns(CLOCK_MONOTONIC) / 1000000u;
}

/* The request that ends the thread (dumper_stop). */
#define DUMPER_QUIT (-1)

/* Reads what the pipe holds: the signal of a process ending, 0 for a plain
 * request, or DUMPER_QUIT. */
static int take_requests(void)
{
	int r[16], ending = 0;
	ssize_t n;

	while ((n = read(req[0], r, sizeof(r))) > 0)
		for (ssize_t i = 0; i < n / (ssize_t)sizeof(int); i++)
			if (r[i] == DUMPER_QUIT)
				return DUMPER_QUIT;
			else if (r[i] > 0 && !ending)
				ending = r[i];
	return ending;
}

/* This thread is the runtime's: its probes silenced from now on, and a state
 * that probes made before it ran (a sanitizer's thread start) left out of the
 * profiles. */
static void mark_own(void)
{
	struct tstate *before = probe_silence();

	if (before && !before->off)
		before->runtime_own = true;
}

static void *thread_main(void *arg)
{
	sigset_t faults;
	uint64_t next = every_s ? mono_ms() + every_s * 1000ull : 0;

	(void)arg;
	mark_own();
	sigemptyset(&faults); /* a fault in a dump: endsig.c's handler */
	sigaddset(&faults, SIGSEGV);
	sigaddset(&faults, SIGBUS);
	sigaddset(&faults, SIGILL);
	sigaddset(&faults, SIGFPE);
	pthread_sigmask(SIG_UNBLOCK, &faults, NULL);
	__atomic_store_n(&thread_tid, (int)gettid(), __ATOMIC_RELEASE);
	for (;;) {
		struct pollfd p = { .fd = req[0], .events = POLLIN };
		uint64_t now = mono_ms();
		int timeout = next ? (next > now ? (int)(next - now) : 0) : -1;
		int ready = poll(&p, 1, timeout);

		if (ready < 0 && errno != EINTR)
			return NULL;
		if (ready > 0) {
			int sig = take_requests();
			if (sig == DUMPER_QUIT)
				return NULL;
			write_dump(sig);
			if (sig)
				__atomic_store_n(&cut_done, 1, __ATOMIC_RELEASE);
		} else if (ready == 0) {
			write_dump(0);
			next = mono_ms() + every_s * 1000ull;
		}
	}
}

static int start_thread(void)
{
	pthread_attr_t attr;
	sigset_t all, old;
	int rc;

	if (pipe2(req, O_CLOEXEC) < 0)
		return -1;
	fcntl(req[1], F_SETFL, O_NONBLOCK);
	fcntl(req[0], F_SETFL, O_NONBLOCK);
	/* Born with every signal blocked: none may run a handler on it, even before it starts. */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, DUMPER_STACK_BYTES);
	rc = pthread_create(&thread, &attr, thread_main, NULL);
	pthread_attr_destroy(&attr);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (rc != 0) {
		close(req[0]);
		close(req[1]);
		req[0] = req[1] = -1;
		return -1;
	}
	pthread_setname_np(thread, "callprof-dump");
	if (pthread_getcpuclockid(thread, &cpu_clock) != 0)
		cpu_clock = CLOCK_MONOTONIC;
	__atomic_store_n(&running, true, __ATOMIC_RELEASE);
	return 0;
}

int dumper_start(dumper_write_fn write, uint32_t every)
{
	if (running)
		return 0;
	write_dump = write;
	every_s = every;
	return start_thread();
}

void dumper_forked(void)
{
	if (!running)
		return;
	running = false;
	thread_tid = 0;
	cut_waiting = cut_done = cut_failed = 0;
	close(req[0]);
	close(req[1]);
	start_thread();
}

void dumper_stop(void)
{
	int quit = DUMPER_QUIT, saved_errno = errno;

	if (!running || dumper_is_self())
		return;
	__atomic_store_n(&running, false, __ATOMIC_RELEASE);
	if (write(req[1], &quit, sizeof(quit)) == (ssize_t)sizeof(quit))
		pthread_join(thread, NULL);
	close(req[0]);
	close(req[1]);
	req[0] = req[1] = -1;
	errno = saved_errno; /* the program's call, whose errno it is, comes next */
}

bool dumper_running(void)
{
	return __atomic_load_n(&running, __ATOMIC_ACQUIRE);
}

bool dumper_is_self(void)
{
	return running && __atomic_load_n(&thread_tid, __ATOMIC_ACQUIRE) == (int)gettid();
}

void dumper_ask(void)
{
	int zero = 0, saved_errno = errno;

	if (running && write(req[1], &zero, sizeof(zero)) < 0)
		errno = saved_errno; /* a full pipe holds requests enough */
	errno = saved_errno;
}

/* The thread's CPU time in milliseconds, or 0. */
static uint64_t cpu_ms(void)
{
	struct timespec ts;

	if (clock_gettime(cpu_clock, &ts) != 0)
		return 0;
	return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

bool dumper_ask_wait(int sig)
{
	const struct timespec nap = { 0, DUMPER_NAP_MS * 1000000L };
	int saved_errno = errno, stalled_ms = 0;
	uint64_t cpu = cpu_ms(), now;
	bool done = false;

	if (!running || sig <= 0)
		return false;
	__atomic_store_n(&cut_waiting, 1, __ATOMIC_RELEASE);
	if (write(req[1], &sig, sizeof(sig)) != (ssize_t)sizeof(sig))
		goto out;
	while (stalled_ms < DUMPER_STALL_MS) {
		nanosleep(&nap, NULL);
		if ((done = __atomic_load_n(&cut_done, __ATOMIC_ACQUIRE)) ||
		    __atomic_load_n(&cut_failed, __ATOMIC_ACQUIRE))
			break;
		now = cpu_ms();
		stalled_ms = now != cpu ? 0 : stalled_ms + DUMPER_NAP_MS;
		cpu = now;
	}
out:
	errno = saved_errno;
	return done;
}

bool dumper_failed(void)
{
	if (!__atomic_load_n(&cut_waiting, __ATOMIC_ACQUIRE))
		return false;
	__atomic_store_n(&cut_failed, 1, __ATOMIC_RELEASE);
	return true;
}
