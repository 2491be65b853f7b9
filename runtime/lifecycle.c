/*
 * lifecycle.c: the runtime's life in the process, on top of everything else:
 * start-up (the process's part, then the interposers, the filters' verdicts
 * and calibration), fork, the dumps (snapshot -> calibrate again -> write) and
 * the one at exit, after every destructor, and the public API of callprof.h.
 */
#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "args.h"
#include "calib.h"
#include "callprof.h"
#include "clock.h"
#include "cputime.h"
#include "compat.h"
#include "dump.h"
#include "dumpfile.h"
#include "endsig.h"
#include "filter.h"
#include "got.h"
#include "hardexit.h"
#include "hijack.h"
#include "kind.h"
#include "libcall.h"
#include "linkage.h"
#include "nonlocal.h"
#include "options.h"
#include "probe.h"
#include "process.h"
#include "schedstat.h"
#include "sandbox.h"
#include "sigframe.h"
#include "snapshot.h"
#include "stamp.h"
#include "symbols.h"
#include "tstate.h"

/* The C++ ABI's registration of an exit handler, here with no module to tie it to. */
extern int __cxa_atexit(void (*fn)(void *), void *arg, void *dso_handle);

/* Where the lifecycle's start-up is: not begun, under way on `starter`, done. */
enum { LIFE_NONE, LIFE_RUNNING, LIFE_DONE };
static int life_state = LIFE_NONE;
static int starter;
/* The last dump (at exit, or of a process a signal ends) is written once, even
 * if several paths reach it; final_dump_over says when it is. */
static int final_dump_done, final_dump_over;
/* Our exit handler and our destructor each count here when they run: see exit_step. */
static int exit_steps;
/* One dump at a time: the API's, the runtime thread's, the one at exit (which keeps it). */
static pthread_mutex_t dump_lock = PTHREAD_MUTEX_INITIALIZER;
/* Set on the thread that forks to write a dump from a child: the fork
 * handlers leave the lock it holds alone and keep the profile as it is. */
static __thread bool dump_forking __attribute__((tls_model("initial-exec")));
/* callprof_dump() calls refused because they came from a signal handler. */
static uint64_t refused_dumps;

/* Set on the thread that forks while it holds dump_lock for the fork. */
static __thread bool fork_holds_dumps __attribute__((tls_model("initial-exec")));

/* Around a fork, the locks of those who rewrite shared state are held, so the
 * child gets them free.  Order: the dumps, the registry, the unloaded
 * libraries' names (a dlclose names them after the registry), the patcher,
 * then the filters (a dump holds the first two while libdw may dlopen, which
 * takes the last; a library's destructor may dlopen inside the patcher's
 * dlclose).
 * Once the last dump began it keeps dump_lock: a fork after it (a library's
 * destructor's) leaves that lock alone, and its child writes no profile. */
static void fork_prepare(void)
{
	fork_holds_dumps = !dump_forking && !__atomic_load_n(&final_dump_done, __ATOMIC_ACQUIRE);
	if (fork_holds_dumps)
		pthread_mutex_lock(&dump_lock);
	tstate_lock_all();
	symbols_remember_lock();
	got_lock();
	filter_lock();
}

static void fork_parent(void)
{
	filter_unlock();
	got_unlock();
	symbols_remember_unlock();
	tstate_unlock_all();
	if (fork_holds_dumps)
		pthread_mutex_unlock(&dump_lock);
}

static void fork_child(void)
{
	filter_unlock();
	got_unlock();
	symbols_remember_unlock();
	if (dump_forking) { /* the dump's child: the profile as it was, to write */
		tstate_unlock_all();
		return;
	}
	process_forked();
	tstate_fork_child(tstate_self, stamp_new_node_state(), process.start_ticks);
	args_thread_clear(tstate_self);
	if (fork_holds_dumps) {
		pthread_mutex_unlock(&dump_lock);
		endsig_forked();
	}
}

static void exit_step(void);

static void on_exit_handler(void *arg)
{
	(void)arg;
	exit_step();
}

static void on_quick_exit(void);
static void dump_for_thread(int cut_short);

/* The patcher's set-up with this thread's probes silenced: a program's own
 * instrumented allocator, which it calls, must not count the runtime's
 * allocations (issue 16 item 27). */
static void silenced_got_setup(void)
{
	struct tstate *self = probe_silence();

	got_setup();
	probe_unsilence(self);
}

static void start(void)
{
	nonlocal_setup(linkage_longjmp());
	linkage_setup();
	hardexit_setup();
	hijack_setup();
	args_setup(options.args, options.args_entries);
	if (options.filtered || args_on) {
		filter_setup(options.include, options.exclude);
		filter_load_modules();
	}
	silenced_got_setup();
	calib_run();
	process.start_wait_tid = (int)gettid();
	pthread_atfork(fork_prepare, fork_parent, fork_child);
	/* Registered now, before the C library registers the dynamic linker's
	 * destructor run (a preloaded or linked runtime starts before it): it runs
	 * after every destructor (exit_step).  Tied to no module, which is why the
	 * runtime is never unloaded (-z nodelete). */
	__cxa_atexit(on_exit_handler, NULL, NULL);
	at_quick_exit(on_quick_exit);
	endsig_setup(dump_for_thread);
}

/* Starts the runtime, once; false when profiling is off.  Another thread
 * waits for a start-up under way; code that start-up runs (an instrumented
 * allocator's callback calling the API) goes on without it. */
static bool lifecycle_start(void)
{
	int state = LIFE_NONE, me;

	if (process_start() <= 0)
		return false;
	if (__atomic_load_n(&life_state, __ATOMIC_ACQUIRE) == LIFE_DONE)
		return true;
	me = (int)gettid();
	if (__atomic_compare_exchange_n(&life_state, &state, LIFE_RUNNING, false, __ATOMIC_ACQ_REL,
					__ATOMIC_ACQUIRE)) {
		__atomic_store_n(&starter, me, __ATOMIC_RELAXED);
		start();
		__atomic_store_n(&life_state, LIFE_DONE, __ATOMIC_RELEASE);
		return true;
	}
	if (__atomic_load_n(&starter, __ATOMIC_RELAXED) == me)
		return true;
	while (__atomic_load_n(&life_state, __ATOMIC_ACQUIRE) != LIFE_DONE)
		sched_yield();
	return true;
}

/* The facts of the run the dump states, taken now, for process `pid`. */
static void dump_info_now(struct dump_info *info, int pid, int cut_short)
{
	info->pid = pid;
	info->start_ticks = process.start_ticks;
	info->start_realtime_ns = process.start_realtime_ns;
	info->clock_name = clock_source_name();
	info->sample_rate = frames_sampled ? options.sample_rate : 0;
	info->cpu_time = cputime_on;
	info->cpu_long_ticks = cputime_long_ticks;
	info->ticks_per_second = clock_ticks_per_second();
	info->kinds = stamp_kinds() | libcall_kinds() |
		      __atomic_load_n(&probe_kinds_seen, __ATOMIC_RELAXED);
	info->calib = &calib;
	info->compensate = options.compensate;
	info->threads_lost = __atomic_load_n(&process.threads_lost, __ATOMIC_RELAXED);
	info->lost_calls = __atomic_load_n(&process.lost_calls, __ATOMIC_RELAXED);
	info->clock_stopped_ticks = clock_stopped ? clock_stopped_ticks : 0;
	info->clock_note = clock_note();
	info->cut_short = cut_short;
	info->refused_dumps = __atomic_load_n(&refused_dumps, __ATOMIC_RELAXED);
}

/* Writes the snapshot `snap` to `f`; an errno value, 0 when done. */
static int write_json(FILE *f, struct snapshot *snap, int pid, int cut_short)
{
	struct dump_info info;

	dump_info_now(&info, pid, cut_short);
	return dump_json(f, snap, &info) < 0 ? ENOMEM : 0;
}

/*
 * Opens, writes and puts in place the dump file `df`.  A file size limit
 * (RLIMIT_FSIZE) fails the write with EFBIG: its SIGXFSZ, which would kill
 * the program, is blocked meanwhile and taken back.
 */
static int write_file(struct dumpfile *df, struct snapshot *snap, int pid, int cut_short)
{
	static const struct timespec now = { 0, 0 };
	sigset_t xfsz, old;
	FILE *f;
	int err = 0, rc;

	sigemptyset(&xfsz);
	sigaddset(&xfsz, SIGXFSZ);
	pthread_sigmask(SIG_BLOCK, &xfsz, &old);
	if ((f = dumpfile_open(df)))
		err = write_json(f, snap, pid, cut_short);
	rc = dumpfile_finish(df, err);
	if (!sigismember(&old, SIGXFSZ))
		while (sigtimedwait(&xfsz, NULL, &now) == SIGXFSZ)
			;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return rc;
}

/*
 * The dump, under dump_lock: every thread's tree read first, the probes' cost
 * measured again (unless the clock stopped, or `again` is false), then the
 * file written whole.  With `only_if_data`, a process that never ran
 * instrumented code writes nothing.  Returns 0, or -1 after one line on stderr.
 */
static int dump_locked(struct dumpfile *df, bool only_if_data, bool again, int pid, int cut_short)
{
	struct snapshot snap;
	const struct tstate *threads;
	int rc;

	threads = tstate_lock_all();
	/* A process where filters left nothing still writes its (empty) profile;
	 * one that never ran instrumented code (a shell under LD_PRELOAD) does not. */
	if (only_if_data && !process.probed) {
		tstate_unlock_all();
		return 0;
	}
	if (snapshot_take(&snap, threads) < 0) {
		rc = dumpfile_finish(df, ENOMEM);
		tstate_unlock_all();
		return rc;
	}
	if (!calib.ran &&
	    !clock_stopped) /* start-up never ran it: a dump asked for from a constructor */
		calib_run();
	else if (again && !clock_stopped)
		calib_again();
	rc = write_file(df, &snap, pid, cut_short);
	tstate_unlock_all();
	snapshot_release(&snap);
	return rc;
}

/* True if this process is not the run's own but another of it (record names the
 * run's own: CALLPROF_ROOT_PID), so its dump takes its pid like a fork child's. */
static bool not_the_runs_own(void)
{
	return process.forked || (options.root_pid && options.root_pid != getpid());
}

/*
 * The dump, written by this thread with its probes silenced: the dump's own
 * calls (an instrumented allocator's) are no part of the program's profile.
 * NULL `path`: the configured output.  Takes dump_lock unless `locked`.
 */
static int lifecycle_dump(const char *path, bool only_if_data, bool locked, int cut_short)
{
	struct tstate *self = probe_silence();
	struct dumpfile df;
	int rc;

	if (!locked)
		pthread_mutex_lock(&dump_lock);
	dumpfile_init(&df, path ? path : options.output, not_the_runs_own());
	rc = dump_locked(&df, only_if_data, true, getpid(), cut_short);
	if (!locked)
		pthread_mutex_unlock(&dump_lock);
	probe_unsilence(self);
	return rc;
}

/*
 * The dump at exit of a program that may have shut itself in with seccomp: a
 * filter may kill any system call the dump makes, so a child writes it (a fork
 * copies the profile as it is), and the program's own exit never depends on
 * what the filter allows, but for the fork.  One line says when the child was
 * killed.  Under dump_lock.
 */
static void dump_from_child(int cut_short)
{
	struct dumpfile df;
	int pid = getpid(), status;
	pid_t child;

	dumpfile_init(&df, options.output, not_the_runs_own());
	dump_forking = true;
	child = fork();
	dump_forking = false;
	if (child == 0) /* no calibration here: it would map memory and read the clock */
		_exit(dump_locked(&df, true, false, pid, cut_short) == 0 ? 0 : 1);
	if (child < 0) {
		fprintf(stderr, "callprof: no profile written: cannot fork to write it (%s)\n",
			strerror(errno));
		return;
	}
	while (waitpid(child, &status, 0) < 0)
		if (errno != EINTR)
			return;
	if (WIFSIGNALED(status))
		fprintf(stderr,
			"callprof: no profile written: writing '%s' was killed by SIG%s (a seccomp "
			"filter "
			"of the program's?)\n",
			df.final, sigabbrev_np(WTERMSIG(status)) ?: "?");
}

/*
 * The last dump is about to read the threads still running, which the end of
 * the process stops anyway: they make no new call paths from now on
 * (process.ending), and they only run when this thread leaves a core idle
 * (SCHED_IDLE), so a dump that does not compete with them for the machine
 * (16 threads on 2 cores left it an eighth of one) ends the process soon.
 */
static void others_stand_aside(void)
{
	struct sched_param idle = { 0 };
	int me = (int)gettid();
	DIR *d = opendir("/proc/self/task");
	struct dirent *e;

	while (d && (e = readdir(d))) {
		int tid = atoi(e->d_name);
		if (tid > 0 && tid != me)
			sched_setscheduler(tid, SCHED_IDLE, &idle);
	}
	if (d)
		closedir(d);
}

/* The last dump, under dump_lock, which it keeps: nothing is written after it.
 * This thread's probes are silenced from here on (an instrumented allocator's
 * calls are the dump's, not the program's). */
static void last_dump(int cut_short)
{
	probe_silence();
	pthread_mutex_lock(&dump_lock);
	__atomic_store_n(&process.ending, true, __ATOMIC_RELAXED);
	if (sandbox_filtered) {
		dump_from_child(cut_short);
	} else {
		others_stand_aside();
		lifecycle_dump(NULL, true, true, cut_short);
	}
	__atomic_store_n(&final_dump_over, 1, __ATOMIC_RELEASE);
}

/*
 * The dump at exit, once: after the program's own output, which is flushed
 * first when `flush` (quick_exit flushes nothing: neither do we).  The signals
 * that would interrupt it go to other threads (or wait: the process is
 * ending).  A thread in strict seccomp mode can write nothing; the kernel
 * ends the process as soon as it tries.
 */
static void final_dump(bool flush)
{
	sigset_t async;

	if (!process.ready || sandbox_strict_thread() ||
	    __atomic_exchange_n(&final_dump_done, 1, __ATOMIC_ACQ_REL))
		return;
	sigfillset(&async);
	sigdelset(&async, SIGSEGV);
	sigdelset(&async, SIGBUS);
	sigdelset(&async, SIGILL);
	sigdelset(&async, SIGFPE);
	pthread_sigmask(SIG_BLOCK, &async, NULL);
	if (flush) {
		probe_silence(); /* the program's allocator, if a stream needs a buffer, is ours here */
		fflush(NULL);
	}
	last_dump(0);
}

/*
 * The runtime thread's dumps (endsig.h): one the program runs on after, or
 * the last one, of a process the signal `cut_short` is ending, marked so.  A
 * signal that comes while the dump at exit is written waits for it (the
 * thread spins, so the handler waiting for the thread sees it working).
 */
static void dump_for_thread(int cut_short)
{
	if (!cut_short) {
		if (!__atomic_load_n(&final_dump_done, __ATOMIC_ACQUIRE))
			lifecycle_dump(NULL, true, false, 0);
		return;
	}
	if (!process.ready)
		return;
	if (__atomic_exchange_n(&final_dump_done, 1, __ATOMIC_ACQ_REL)) {
		while (!__atomic_load_n(&final_dump_over, __ATOMIC_ACQUIRE))
			sched_yield();
		return;
	}
	last_dump(cut_short == DUMPER_HARD_EXIT ? 0 : cut_short);
}

/*
 * The dump at exit comes after every call the program makes, those of its
 * libraries' destructors included: our exit handler and our destructor both
 * count here, and the second writes it.  A runtime loaded at start-up (linked
 * or preloaded) registered its exit handler before the C library registered
 * the destructors' run, so the handler runs after all of them; a runtime
 * linked into the program (the static archive) or loaded late registered it
 * after, so its destructor runs second: last of the program's destructors (its
 * priority), before those of libraries loaded with it.
 */
static void exit_step(void)
{
	if (__atomic_add_fetch(&exit_steps, 1, __ATOMIC_ACQ_REL) == 2)
		final_dump(true);
}

static void on_quick_exit(void)
{
	final_dump(false);
}

__attribute__((constructor)) static void on_load(void)
{
	lifecycle_start();
}

__attribute__((destructor(101))) static void on_unload(void)
{
	exit_step();
}

CP_EXPORT int callprof_dump(const char *path)
{
	if (!lifecycle_start())
		return -1;
	if (sigframe_in_handler()) { /* the interrupted code may hold malloc's locks, or ours */
		static const char line[] = "callprof: callprof_dump() refused in a signal handler "
					   "(see CALLPROF_DUMP_SIGNAL)\n";
		__atomic_add_fetch(&refused_dumps, 1, __ATOMIC_RELAXED);
		if (write(STDERR_FILENO, line, sizeof(line) - 1) < 0)
			return -1;
		return -1;
	}
	if (__atomic_load_n(&final_dump_done, __ATOMIC_ACQUIRE)) {
		fputs("callprof: callprof_dump() after the last profile was written: nothing "
		      "written\n",
		      stderr);
		return -1;
	}
	return lifecycle_dump(path, false, false, 0);
}

CP_EXPORT void callprof_reset(void)
{
	uint64_t now = clock_now();

	if (!lifecycle_start())
		return;
	for (struct tstate *t = tstate_lock_all(); t; t = t->next) {
		tstate_clear(t, now);
		if (schedstat_wait_ns(t->tid, &t->wait_base_ns) < 0)
			t->wait_base_ns = 0;
		args_thread_clear(t);
	}
	tstate_unlock_all();
	process_restart(now);
}

CP_EXPORT int callprof_enabled(void)
{
	return lifecycle_start();
}
