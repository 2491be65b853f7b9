/*
 * dumper.h: the runtime's own thread, which writes the dumps asked for where
 * writing one is not safe (a signal handler: a dump needs malloc and libdw),
 * and one every CALLPROF_DUMP_EVERY seconds.  It blocks every signal but the
 * faults, sleeps in poll(2) on a pipe, and wakes when a handler writes a
 * request into it (write(2) is async-signal-safe).
 */
#ifndef CALLPROF_DUMPER_H
#define CALLPROF_DUMPER_H

#include <stdbool.h>
#include <stdint.h>

/* Writes a dump on the thread: `cut_short` 0 for one the program runs on
 * after, else the signal ending the process (the lifecycle's). */
typedef void (*dumper_write_fn)(int cut_short);

/* What a dump is asked for as, beside 0 (one the program runs on after) and
 * a signal ending the process: the last dump of a process that _exit ends,
 * whole (not cut short). */
#define DUMPER_HARD_EXIT 65

/* Starts the thread, once, with `write` and a dump every `every_s` seconds
 * (0: none).  Returns 0, or -1 when the thread cannot be created. */
int dumper_start(dumper_write_fn write, uint32_t every_s);

/* In a fork child: the thread stayed in the parent; starts one of its own. */
void dumper_forked(void);

/* Ends the thread and waits for it, for a program that must be alone
 * (unshare(CLONE_NEWUSER)) or shuts itself in (seccomp: the thread's system
 * calls may not be allowed).  No dump is written on a signal after it. */
void dumper_stop(void);

/* True while the thread runs (started, not stopped). */
bool dumper_running(void);

/* True on the dumper thread. */
bool dumper_is_self(void);

/* Async-signal-safe: asks for a dump the program runs on after; no waiting. */
void dumper_ask(void);

/*
 * Async-signal-safe: asks for the dump of a process `sig` is ending, and
 * waits until it is written, or has failed, or the thread has used no CPU
 * for DUMPER_STALL_MS (it waits for a lock the interrupted code holds, or
 * for a disk that does not answer).  True if it was written.
 */
bool dumper_ask_wait(int sig);

/* On the dumper thread, from a fault while it writes a dump a handler waits
 * for: that dump failed.  Returns false when no handler waits (then the fault
 * takes its course). */
bool dumper_failed(void);

#endif
