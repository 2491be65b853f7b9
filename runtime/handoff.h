/*
 * handoff.h: a finished thread hands its profile to the process.  Its state
 * (tstate.h) holds a shadow stack, tree chunks sized for growth and lookup
 * tables, some 200 KB for a thread that made a few calls; once the thread
 * has ended only the tree's nodes and the state's counters are read again
 * (by the dump, dlclose, callprof_reset).  So they are copied, packed, into
 * a process-wide arena, and the state is freed: 5,000 short threads keep a
 * few megabytes instead of a gigabyte of address space.
 *
 * A copy is a `struct tstate` like any other, finished, with no stack (its
 * depth is 1, its base NULL) and a tree whose nodes have no lookup tables
 * (their slots are empty: nobody calls into a finished thread's tree) and
 * live in the arena.  Cold; called with the thread registry locked.
 */
#ifndef CALLPROF_HANDOFF_H
#define CALLPROF_HANDOFF_H

#include "tstate.h"

/* A packed copy of the finished state `t` (its tree and counters), or NULL
 * without memory.  Overwrites the nodes' dump_id scratch. */
struct tstate *handoff_copy(const struct tstate *t);

/* Forgets every copy (a fork child, whose registry is reset: none is reachable). */
void handoff_forget_all(void);

#endif
