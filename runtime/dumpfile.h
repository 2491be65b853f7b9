/*
 * dumpfile.h: where the dump goes, written whole or not at all: a temporary
 * file beside the final path, renamed into place once complete.
 */
#ifndef CALLPROF_DUMPFILE_H
#define CALLPROF_DUMPFILE_H

#include <limits.h>
#include <stdbool.h>
#include <stdio.h>

struct dumpfile {
	char final[PATH_MAX];       /* where the dump appears */
	char tmp[PATH_MAX + 32];    /* where it is written first */
	FILE *f;                    /* open on tmp, or NULL */
};

/* Sets the final path from `pattern` (%p is the pid, %% a percent sign; in a
 * fork child, `forked`, a pattern without %p gets the pid added before the
 * extension) and the temporary path beside it. */
void dumpfile_init(struct dumpfile *df, const char *pattern, bool forked);

/* Opens the temporary file, fully buffered.  The stream, or NULL with errno set. */
FILE *dumpfile_open(struct dumpfile *df);

/* Closes the stream, and renames the file into place unless `err` (an errno
 * value) or a write error says it failed; then removes it.  Returns 0, or
 * -1 after one line on stderr naming the final path and the reason. */
int dumpfile_finish(struct dumpfile *df, int err);

#endif
