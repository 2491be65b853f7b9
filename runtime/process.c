/* process.c: start-up, the dump at exit, fork, and the public API of callprof.h. */
#include "process.h"

#include <pthread.h>
#include <time.h>
#include <unistd.h>

#include "calib.h"
#include "callprof.h"
#include "clock.h"
#include "compat.h"
#include "dump.h"
#include "filter.h"
#include "nonlocal.h"
#include "options.h"
#include "tstate.h"

struct process_info process;
/* Start-up runs once, whichever comes first: our constructor or a probe. */
static pthread_once_t init_once = PTHREAD_ONCE_INIT;
/* The dump at exit is written once, even if several exit paths reach it. */
static int final_dump_done;

static uint64_t realtime_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void start_profile(void)
{
	process.pid = getpid();
	process.start_ticks = clock_now();
	process.start_realtime_ns = realtime_ns();
}

static void init_runtime(void)
{
	options_read();
	if (options.disabled)
		return;
	clock_init(options.clock);
	tstate_setup();
	nonlocal_setup();
	filter_setup(options.include, options.exclude);
	calib_run();
	start_profile();
	process.ready = true;
}

void process_init(void)
{
	pthread_once(&init_once, init_runtime);
}

void process_forked(void)
{
	process.forked = true;
	start_profile();
}

__attribute__((constructor)) static void on_load(void)
{
	process_init();
}

__attribute__((destructor)) static void on_unload(void)
{
	if (!process.ready || __atomic_exchange_n(&final_dump_done, 1, __ATOMIC_ACQ_REL))
		return;
	dump_write(NULL, true);
}

CP_EXPORT int callprof_dump(const char *path)
{
	process_init();
	if (!process.ready)
		return -1;
	return dump_write(path, false);
}

CP_EXPORT void callprof_reset(void)
{
	uint64_t now = clock_now();

	process_init();
	if (!process.ready)
		return;
	for (struct tstate *t = tstate_lock_all(); t; t = t->next) {
		cct_clear_counts(&t->tree);
		for (uint32_t i = 1; i < t->stack.depth; i++)
			t->stack.base[i].t_enter_ticks = now;
		t->dropped_calls = t->dropped_no_room = t->resyncs = 0;
		t->unmatched_exits = t->closed_at_exit = 0;
		t->t_start_ticks = now;
	}
	tstate_unlock_all();
	process.start_ticks = now;
}

CP_EXPORT int callprof_enabled(void)
{
	process_init();
	return process.ready;
}
