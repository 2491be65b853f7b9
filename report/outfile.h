/* outfile.h: one output file written whole or not at all (runtime/safefile.c does the writing). */
#ifndef CALLPROF_OUTFILE_H
#define CALLPROF_OUTFILE_H

#include <stddef.h>

/*
 * outfile_write writes the len bytes of data to path through a temporary
 * file beside it, renamed into place once complete (safefile.h: a symbolic
 * link, a device or a directory at path is left alone), so a failure leaves
 * what was at path as it was.  path "-" writes to the standard output.
 * Returns 0, or -1 after printing "callprof CMD: cannot write 'PATH': WHY".
 */
int outfile_write(const char *cmd, const char *path, const void *data, size_t len);

#endif
