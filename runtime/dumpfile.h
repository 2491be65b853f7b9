/*
 * dumpfile.h: where the dump goes (its path from CALLPROF_OUTPUT's pattern),
 * written whole or not at all, and safely (safefile.h).
 */
#ifndef CALLPROF_DUMPFILE_H
#define CALLPROF_DUMPFILE_H

#include <limits.h>
#include <stdbool.h>
#include <stdio.h>

#include "safefile.h"

struct dumpfile {
	char final[PATH_MAX]; /* where the dump appears */
	struct safefile sf;   /* the file while it is written */
	bool opened;
};

/* Sets the final path from `pattern` (%p is the pid, %% a percent sign; in a
 * fork child, `forked`, a pattern without %p gets the pid added before the
 * extension). */
void dumpfile_init(struct dumpfile *df, const char *pattern, bool forked);

/* Opens the file to write, fully buffered.  The stream, or NULL (then
 * dumpfile_finish says why). */
FILE *dumpfile_open(struct dumpfile *df);

/* Closes the stream and puts the file in place unless `err` (an errno value
 * met before or while writing) or a write error says it failed; then nothing
 * is left of it.  Returns 0, or -1 after one line on stderr naming the final
 * path and the reason. */
int dumpfile_finish(struct dumpfile *df, int err);

#endif
