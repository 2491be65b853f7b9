/*
 * sandbox.h: what a program does to itself that the runtime must know of: it
 * forbids the TSC (prctl PR_SET_TSC), or shuts itself in with seccomp (prctl
 * PR_SET_SECCOMP, or PR_SET_NO_NEW_PRIVS, which a seccomp filter needs unless
 * the program is privileged, and which libseccomp sets before it loads one
 * through the raw system call), or must be alone in its process (unshare or
 * setns into a user namespace).  The runtime interposes prctl, unshare and
 * setns and sees these before the kernel does; a filter loaded through
 * syscall(SYS_seccomp) by a privileged program without PR_SET_NO_NEW_PRIVS
 * goes unseen.  The runtime's own thread (dumper.h) goes before a program
 * shuts itself in or must be alone.
 */
#ifndef CALLPROF_SANDBOX_H
#define CALLPROF_SANDBOX_H

#include <stdbool.h>

/* The program may have a seccomp filter of its own making: whatever system call
 * the dump at exit makes may kill it (the lifecycle writes it from a child). */
extern bool sandbox_filtered;

/* True on a thread in strict seccomp mode: it may make no system call but
 * read, write, _exit and sigreturn; its probes are silenced for good. */
bool sandbox_strict_thread(void);

#endif
