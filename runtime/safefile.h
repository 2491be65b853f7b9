/* safefile.h: a file that appears whole or not at all, created so that nobody else can redirect it. */
#ifndef CALLPROF_SAFEFILE_H
#define CALLPROF_SAFEFILE_H

#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>

/*
 * A file written under a temporary name in the final file's directory, then
 * renamed over it:
 * - the temporary name is `.callprof-<16 random hex digits>.tmp`, created
 *   with O_CREAT|O_EXCL|O_NOFOLLOW (a new name on EEXIST), so a file or a
 *   symbolic link planted in the directory is never opened, and two writers
 *   (even two PID namespaces sharing a volume) never share a name;
 * - the final path must be absent or a regular file: a symbolic link is
 *   neither followed (someone else may have planted it to redirect the
 *   write) nor replaced (someone chose to put it there); a device, FIFO,
 *   socket or directory is never replaced (root writing to /dev/null must
 *   not turn it into a regular file);
 * - a new file gets 0666 minus the umask, as fopen would give it; a file
 *   replaced keeps its permission bits and, where the process may, its owner
 *   and group (a group we cannot keep loses the group's rights, which become
 *   the others' ones, as vim does).  The temporary file is 0600 until then.
 */
struct safefile {
	char final[PATH_MAX];
	char tmp[PATH_MAX + 32]; /* the temporary name, beside the final one */
	FILE *f;                 /* open on tmp while writing, else NULL */
	int fd;                  /* f's file descriptor (fileno() may not know it) */
	bool replacing;          /* the final path held a regular file at open */
	mode_t mode;             /* that file's permission bits */
	uid_t uid;               /* and its owner */
	gid_t gid;
	const char *why; /* after a failure: what went wrong, one short phrase */
};

/*
 * Checks `final` and creates the temporary file.  Returns the stream to write
 * to, or NULL with sf->why set (nothing was created then).  `final` must fit
 * in PATH_MAX bytes.
 */
FILE *safefile_open(struct safefile *sf, const char *final);

/*
 * Flushes and closes the stream, gives the file its mode and owner, and
 * renames it over the final path (checked again just before).  Returns 0, or
 * -1 with sf->why set after removing the temporary file; the final path is
 * then as it was.  `err` nonzero (an errno the caller met while writing)
 * discards the file and reports that error.
 */
int safefile_close(struct safefile *sf, int err);

#endif
