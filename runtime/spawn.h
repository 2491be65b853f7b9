/*
 * spawn.h: programs a profiled one starts (exec, posix_spawn) with an
 * environment that drops the profiler: with CALLPROF_FOLLOW=1 (callprof
 * record sets it) the interposed exec and spawn functions give it back, the
 * runtime preloaded (LD_PRELOAD) and the CALLPROF_* settings this process
 * started with, where the new environment lacks them (those it sets itself
 * stay as they are).  In the shared library only (runtime/linkage.h): the
 * archive is not preloaded.
 */
#ifndef CALLPROF_SPAWN_H
#define CALLPROF_SPAWN_H

/* At start-up: finds the real functions, and keeps what to give back. */
void spawn_setup(void);

#endif
