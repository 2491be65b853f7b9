/* export.h: the formats `callprof export` writes (export_*.c, one file each), from a struct profile. */
#ifndef CALLPROF_EXPORT_H
#define CALLPROF_EXPORT_H

#include "buf.h"
#include "profile.h"

/*
 * What an exporter reads: the profile (the dumps merged, profile.h) and a
 * label per function.  Every format names a function by its label, which no
 * other function of the profile shares: its name, and where another function
 * has the same name (two static functions), the base name of its source file
 * in parentheses ("helper (a.c)"), then " #2", " #3" if that is not enough.
 * An exporter escapes every string for its format itself.
 */
struct export_ctx {
	const struct profile *prof;
	char **labels;       /* prof->nfuncs labels */
	const char *version; /* callprof's version, for the creator fields */
};

/*
 * One format: write appends the whole file to out (text, or bytes for pprof)
 * and returns 0, or -1 after printing one line.
 */
struct export_format {
	const char *name;  /* "callgrind": what --format takes */
	const char *about; /* one line for --help */
	int (*write)(const struct export_ctx *x, struct buf *out);
};

extern const struct export_format export_callgrind;
extern const struct export_format export_pprof;
extern const struct export_format export_speedscope;
extern const struct export_format export_folded;

#endif
