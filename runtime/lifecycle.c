/*
 * lifecycle.c: the runtime's life in the process, on top of everything else:
 * start-up (the process's part, then the interposers, the filters' verdicts
 * and calibration), fork, the dump (snapshot -> calibrate again -> write), and
 * the public API of callprof.h.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stdint.h>
#include <unistd.h>

#include "args.h"
#include "calib.h"
#include "callprof.h"
#include "clock.h"
#include "compat.h"
#include "dump.h"
#include "dumpfile.h"
#include "filter.h"
#include "got.h"
#include "hijack.h"
#include "kind.h"
#include "libcall.h"
#include "nonlocal.h"
#include "options.h"
#include "process.h"
#include "snapshot.h"
#include "stamp.h"
#include "symbols.h"
#include "tstate.h"

/* Where the lifecycle's start-up is: not begun, under way on `starter`, done. */
enum { LIFE_NONE, LIFE_RUNNING, LIFE_DONE };
static int life_state = LIFE_NONE;
static int starter;
/* The dump at exit is written once, even if several exit paths reach it. */
static int final_dump_done;

/* Around a fork, the locks of those who rewrite shared state are held, so the
 * child gets them free.  Order: the registry, the unloaded libraries' names
 * (a dlclose names them after the registry), the patcher, then the filters
 * (a dump holds the first while libdw may dlopen, which takes the others; a
 * library's destructor may dlopen inside the patcher's dlclose). */
static void fork_prepare(void)
{
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
}

static void fork_child(void)
{
	filter_unlock();
	got_unlock();
	symbols_remember_unlock();
	process_forked();
	tstate_fork_child(tstate_self, stamp_new_node_state(), process.start_ticks);
	args_thread_clear(tstate_self);
}

static void start(void)
{
	nonlocal_setup();
	hijack_setup();
	args_setup(options.args, options.args_entries);
	if (options.filtered || args_on) {
		filter_setup(options.include, options.exclude);
		filter_load_modules();
	}
	got_setup();
	calib_run();
	pthread_atfork(fork_prepare, fork_parent, fork_child);
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

/* The facts of the run the dump states, taken now. */
static void dump_info_now(struct dump_info *info)
{
	info->pid = getpid();
	info->start_ticks = process.start_ticks;
	info->start_realtime_ns = process.start_realtime_ns;
	info->clock_name = clock_source_name();
	info->ticks_per_second = clock_ticks_per_second();
	info->kinds = stamp_kinds() | libcall_kinds() | __atomic_load_n(&probe_kinds_seen, __ATOMIC_RELAXED);
	info->calib = &calib;
	info->compensate = options.compensate;
	info->threads_lost = __atomic_load_n(&process.threads_lost, __ATOMIC_RELAXED);
	info->lost_calls = __atomic_load_n(&process.lost_calls, __ATOMIC_RELAXED);
}

/* Writes the snapshot `snap` to `f`; an errno value, 0 when done. */
static int write_json(FILE *f, struct snapshot *snap)
{
	struct dump_info info;

	dump_info_now(&info);
	return dump_json(f, snap, &info) < 0 ? ENOMEM : 0;
}

/*
 * The dump: every thread's tree read first, the probes' cost measured again
 * (its probes must not show in the profile), then the file written whole.
 * NULL `path`: the configured output.  With `only_if_data`, a process that
 * never ran instrumented code writes nothing.  Returns 0, or -1 after one
 * line on stderr.
 */
static int dump_silenced(const char *path, bool only_if_data)
{
	struct dumpfile df;
	struct snapshot snap;
	const struct tstate *threads;
	FILE *f;
	int err = 0, rc;

	dumpfile_init(&df, path ? path : options.output, process.forked);
	threads = tstate_lock_all();
	/* A process where filters left nothing still writes its (empty) profile;
	 * one that never ran instrumented code (a shell under LD_PRELOAD) does not. */
	if (only_if_data && !process.probed) {
		tstate_unlock_all();
		return 0;
	}
	if (snapshot_take(&snap, threads) < 0) {
		rc = dumpfile_finish(&df, ENOMEM);
		tstate_unlock_all();
		return rc;
	}
	if (!calib.ran) /* start-up never ran it: a dump asked for from a constructor */
		calib_run();
	else
		calib_again();
	if ((f = dumpfile_open(&df)))
		err = write_json(f, &snap);
	rc = dumpfile_finish(&df, err);
	tstate_unlock_all();
	snapshot_release(&snap);
	return rc;
}

/* The dump with this thread's probes silenced: a program's own instrumented
 * allocator, which the dump calls, must not add calls to the tree it reads
 * (the dumping thread's rows are read as they are written, after `now`). */
static int lifecycle_dump(const char *path, bool only_if_data)
{
	struct tstate *self = probe_silence();
	int rc = dump_silenced(path, only_if_data);

	probe_unsilence(self);
	return rc;
}

__attribute__((constructor)) static void on_load(void)
{
	lifecycle_start();
}

__attribute__((destructor)) static void on_unload(void)
{
	if (!process.ready || __atomic_exchange_n(&final_dump_done, 1, __ATOMIC_ACQ_REL))
		return;
	lifecycle_dump(NULL, true);
}

CP_EXPORT int callprof_dump(const char *path)
{
	if (!lifecycle_start())
		return -1;
	return lifecycle_dump(path, false);
}

CP_EXPORT void callprof_reset(void)
{
	uint64_t now = clock_now();

	if (!lifecycle_start())
		return;
	for (struct tstate *t = tstate_lock_all(); t; t = t->next) {
		tstate_clear(t, now);
		args_thread_clear(t);
	}
	tstate_unlock_all();
	process_restart(now);
}

CP_EXPORT int callprof_enabled(void)
{
	return lifecycle_start();
}
