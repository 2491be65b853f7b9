/*
 * endsig.h: the signals that end a program.  Where the program leaves one
 * of them to its default action, the runtime handles it: the handler hands
 * the dump to the runtime's thread (dumper.h), waits for it, then ends the
 * process as the signal would have (the default action, core dump included),
 * so the program's exit status is what it would be unprofiled.  A handler the
 * program installs replaces the runtime's: the program then decides how it
 * ends (if it exits, the dump at exit is written).  And CALLPROF_DUMP_SIGNAL,
 * whose handler only asks the thread for a dump.
 *
 * Set up when instrumented code is loaded (modscan.h), at start-up or when a
 * library is opened: a process that never runs any (a shell under `callprof
 * record`) gets no thread and keeps its signals as they were.
 */
#ifndef CALLPROF_ENDSIG_H
#define CALLPROF_ENDSIG_H

#include <stdbool.h>

#include "dumper.h"

/* Remembers how the lifecycle writes a dump; then arms as endsig_arm does. */
void endsig_setup(dumper_write_fn write);

/* Starts the thread and installs the handlers (CALLPROF_ON_SIGNAL,
 * CALLPROF_DUMP_SIGNAL, CALLPROF_DUMP_EVERY) once instrumented code is
 * loaded: call it again when a library is opened. */
void endsig_arm(void);

/* True once armed, or when nothing would arm it (no setting asks for it). */
bool endsig_armed(void);

/*
 * _exit and _Exit, interposed (the shared library's, spawn.c), call it first:
 * the runtime's thread writes the profile, whole, while the caller waits (as
 * for an ending signal: the caller may be a signal handler).  Nothing in a
 * vfork child (it shares its parent's memory), in the dump's own child, or
 * once the last dump began.
 */
void endsig_hard_exit(void);

/* In a fork child: the thread again, if the parent had one. */
void endsig_forked(void);

#endif
