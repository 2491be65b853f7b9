/* dump.h: writing the JSON profile (format "callprof", version 1; see docs/dump-format.md). */
#ifndef CALLPROF_DUMP_H
#define CALLPROF_DUMP_H

#include <stdbool.h>

/*
 * Writes the profile of every thread to `path` (NULL: the configured output;
 * %p becomes the pid, and a fork child without %p adds its pid to the name).
 * Open frames are counted up to now without being closed.  The file appears
 * whole or not at all (temporary name, then rename).  With `only_if_data`,
 * a process that never entered an instrumented function writes nothing (one
 * whose every call was filtered out writes a profile without calls).
 * Returns 0, or -1 after one line on stderr naming the path and the reason.
 */
int dump_write(const char *path, bool only_if_data);

#endif
