/* fnkey.h: the one rule for when functions of different dumps are the same function (every
 * command that merges dumps matches functions by it: report, top, diff, export, merge). */
#ifndef CALLPROF_FNKEY_H
#define CALLPROF_FNKEY_H

#include <stddef.h>

struct dump;

/*
 * fnkey_all returns the key of every function of d, d->nfunctions strings in
 * one array (fnkey_free frees it).  Two functions of different dumps are the
 * same function when their keys are equal; within one dump every key differs.
 *
 * A key is the base name of the function's module, its name and its source
 * file, so a rebuild, ASLR or another checkout path changes nothing.  Where
 * that is not enough -- the module has several functions of that name and
 * file (a static inline helper of a header, one copy per translation unit),
 * counting the functions the dump lists and those its module lists as
 * uncalled -- the key adds the module's build-id and the function's offset
 * in it, so each copy matches only itself in the same build.  Without an
 * offset, or if two functions still share a key, the n-th of them in the dump
 * gets the n-th key (order of first call).
 *
 * Example: main.c's main and two copies of statics.h's helper at 0x1150 and
 * 0x1290 in build ab12 of prog give "prog\x1fmain\x1fmain.c\x1f0" and
 * "prog\x1fhelper\x1fstatics.h\x1fab12\x1f0x1150\x1f0" (and ...0x1290...).
 */
char **fnkey_all(const struct dump *d);
void fnkey_free(char **keys, size_t n);

#endif
