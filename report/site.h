/* site.h: writes a report site all at once: into a temporary directory, then renamed into place. */
#ifndef CALLPROF_SITE_H
#define CALLPROF_SITE_H

#include <stddef.h>
#include <stdint.h>

/* Name of the marker file every site holds, so an existing DIR can be replaced safely. */
#define SITE_MARKER ".callprof-report"

/* A site being written.  Set up by site_begin, finished by site_commit or site_abort. */
struct site {
	char *dir;      /* where the site goes, as given (trailing slashes removed) */
	char *tmp;      /* the temporary directory beside dir that receives the files */
	size_t files;   /* files written so far */
	uint64_t bytes; /* bytes written so far */
};

/*
 * site_begin checks that dir may be (re)placed -- it must not exist, or be an
 * empty directory, or a site an earlier run wrote (it holds SITE_MARKER) --
 * and creates the temporary directory beside it.  Returns 0, or -1 after
 * printing one line (nothing is left behind).
 */
int site_begin(struct site *s, const char *dir);

/*
 * site_write writes len bytes of data to the file relpath ("fn/12.html")
 * inside the site, creating its folders as needed.  Returns 0, or -1 after
 * printing one line.
 */
int site_write(struct site *s, const char *relpath, const void *data, size_t len);

/*
 * site_commit puts the finished site in place of dir (atomically where the
 * file system can exchange two names), removes the old site and frees s.
 * dir is checked again first: a folder someone else made there while the
 * site was written (neither empty nor an earlier site) is left as it is and
 * the new site dropped.  Returns 0, or -1 after printing one line; on
 * failure dir is as it was.
 */
int site_commit(struct site *s);

/* site_abort removes the temporary directory and frees s; dir is untouched. */
void site_abort(struct site *s);

#endif
