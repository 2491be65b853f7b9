/* progress.h: one line of progress on a terminal for long work (reading big dumps, writing pages). */
#ifndef CALLPROF_PROGRESS_H
#define CALLPROF_PROGRESS_H

#include <stddef.h>

/*
 * Progress goes to stderr only when it is a terminal and CI is not "true",
 * as one line rewritten in place ("callprof: writing function pages
 * 4,000/10,000"); otherwise every call does nothing.  Whoever starts a phase
 * ends it with progress_end, which clears the line, so later output (a table
 * on stdout, an error message) starts on a clean line.
 */

/* progress_note shows what is being done now ("reading 'x.json' (55 MB)"), printf-style. */
void progress_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* progress_count shows "callprof: WHAT done/total", at most ten times a second. */
void progress_count(const char *what, size_t done, size_t total);

/* progress_end clears the line, if one is shown. */
void progress_end(void);

#endif
