/* site.c: the site writer: temporary directory beside DIR, files, then a rename into place. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "buf.h"
#include "progress.h"
#include "site.h"

static int remove_entry(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	(void)st;
	(void)type;
	(void)ftw;
	return remove(path) < 0 ? -1 : 0;
}

/* remove_tree deletes path and everything below it (symbolic links are not followed). */
static void remove_tree(const char *path)
{
	nftw(path, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

/* dir_replaceable: 1 if dir is absent, empty or a site we wrote; 0 if not; -1 on error. */
static int dir_replaceable(const char *dir)
{
	struct stat st;
	struct dirent *e;
	struct buf marker = BUF_INIT;
	DIR *d;
	int empty = 1, rc;

	if (lstat(dir, &st) < 0)
		return errno == ENOENT ? 1 : -1;
	if (!S_ISDIR(st.st_mode))
		return 0;
	buf_printf(&marker, "%s/%s", dir, SITE_MARKER);
	rc = access(marker.data, F_OK) == 0;
	buf_release(&marker);
	if (rc)
		return 1;
	d = opendir(dir);
	if (!d)
		return -1;
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			empty = 0;
	closedir(d);
	return empty;
}

/*
 * Where a site's thousands of files land matters on ext4 without a journal:
 * creating a file in a block group where many inodes were deleted in the last
 * minutes (the site this run replaces, or the previous run's) first scans past
 * every one of them, which made writing 10,000 pages take 3-4 s of system time
 * instead of 0.3 s.  So the site's folders go where ext4 puts new directory
 * trees: spread_subdirs marks the site's temporary root as the top of a
 * hierarchy (FS_TOPDIR_FL), and make_dir creates each folder under a name of
 * its own before renaming it, because ext4 places such a folder by a hash of
 * its name (a fixed "fn" would land in the same group every run).  The flag
 * comes off again before the site is put in place.  Elsewhere it does nothing
 * and the rename costs one call per folder.
 */
static void spread_subdirs(const char *dir, int on)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	int flags;

	if (fd < 0)
		return;
	if (ioctl(fd, FS_IOC_GETFLAGS, &flags) == 0 && !(flags & FS_TOPDIR_FL) != !on) {
		flags = on ? flags | FS_TOPDIR_FL : flags & ~FS_TOPDIR_FL;
		ioctl(fd, FS_IOC_SETFLAGS, &flags);
	}
	close(fd);
}

/* make_dir creates the folder path, first under a name that differs from run to run. */
static int make_dir(const char *path)
{
	static unsigned serial;
	struct buf tmp = BUF_INIT;
	struct timespec ts;
	int rc;

	if (access(path, F_OK) == 0) {
		errno = EEXIST;
		return -1;
	}
	clock_gettime(CLOCK_REALTIME, &ts);
	buf_printf(&tmp, "%s.new-%u-%lx", path, serial++, (unsigned long)ts.tv_nsec);
	rc = mkdir(tmp.data, 0777);
	if (rc == 0 && (rc = rename(tmp.data, path)) < 0)
		rmdir(tmp.data);
	buf_release(&tmp);
	return rc;
}

/* tmp_name: "PARENT/.BASE.tmp-XXXXXX" for dir "PARENT/BASE" (or ".BASE.tmp-XXXXXX"). */
static char *tmp_name(const char *dir)
{
	const char *slash = strrchr(dir, '/');
	struct buf b = BUF_INIT;

	if (slash)
		buf_printf(&b, "%.*s/.%s.tmp-XXXXXX", (int)(slash - dir), dir, slash + 1);
	else
		buf_printf(&b, ".%s.tmp-XXXXXX", dir);
	return buf_detach(&b, NULL);
}

int site_begin(struct site *s, const char *dir)
{
	size_t len = strlen(dir);
	mode_t mask;
	int rc;

	memset(s, 0, sizeof(*s));
	while (len > 1 && dir[len - 1] == '/')
		len--;
	s->dir = strndup(dir, len);
	if (!s->dir)
		return -1;
	rc = dir_replaceable(s->dir);
	if (rc <= 0) {
		if (rc < 0)
			fprintf(stderr, "callprof: cannot use '%s': %s\n", s->dir, strerror(errno));
		else
			fprintf(stderr,
				"callprof: '%s' exists and is not a callprof report "
				"(remove it or choose another -o)\n",
				s->dir);
		goto out_free;
	}
	s->tmp = tmp_name(s->dir);
	if (!mkdtemp(s->tmp)) {
		fprintf(stderr, "callprof: cannot create a directory beside '%s': %s\n", s->dir,
			strerror(errno));
		goto out_free;
	}
	/* mkdtemp makes it private; a report is meant to be shared like any new folder. */
	mask = umask(0);
	umask(mask);
	chmod(s->tmp, 0777 & ~mask);
	spread_subdirs(s->tmp, 1);
	if (site_write(s, SITE_MARKER, "callprof report\n", 16) < 0) {
		site_abort(s);
		return -1;
	}
	return 0;
out_free:
	free(s->tmp);
	free(s->dir);
	memset(s, 0, sizeof(*s));
	return -1;
}

/* make_parents creates the folders of path below the site root. */
static int make_parents(const char *path, size_t root_len)
{
	char *p = xstrdup(path);
	int rc = 0;

	for (char *q = p + root_len + 1; (q = strchr(q, '/')); q++) {
		*q = '\0';
		if (make_dir(p) < 0 && errno != EEXIST) {
			rc = -1;
			break;
		}
		*q = '/';
	}
	free(p);
	return rc;
}

static int write_all(int fd, const char *data, size_t len)
{
	while (len) {
		ssize_t n = write(fd, data, len);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		data += n;
		len -= (size_t)n;
	}
	return 0;
}

int site_write(struct site *s, const char *relpath, const void *data, size_t len)
{
	struct buf path = BUF_INIT;
	int fd, rc = -1;

	buf_printf(&path, "%s/%s", s->tmp, relpath);
	fd = open(path.data, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
	if (fd < 0 && errno == ENOENT && make_parents(path.data, strlen(s->tmp)) == 0)
		fd = open(path.data, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
	if (fd < 0)
		goto out_report;
	rc = write_all(fd, data, len);
	if (close(fd) < 0)
		rc = -1;
out_report:
	if (rc < 0) {
		int e = errno;

		progress_end();
		fprintf(stderr, "callprof: cannot write '%s/%s': %s\n", s->dir, relpath,
			strerror(e));
	} else
		s->files++, s->bytes += len;
	buf_release(&path);
	return rc;
}

static void site_free(struct site *s)
{
	free(s->tmp);
	free(s->dir);
	memset(s, 0, sizeof(*s));
}

/* not_ours: says that dir, which appeared or changed while the site was written, is left alone; errno EEXIST. */
static int not_ours(const struct site *s)
{
	fprintf(stderr,
		"callprof: '%s' appeared while the report was written and is not a callprof "
		"report: "
		"it is left as it is (remove it or choose another -o)\n",
		s->dir);
	errno = EEXIST;
	return -2;
}

/*
 * swap_into_place: exchange tmp and the existing dir, then make sure what was
 * at dir is an earlier site or empty (someone may have put a folder of their
 * own there since the check): if not, exchange back.  Afterwards tmp names
 * the old site.  0, -1 on error, -2 when dir is not ours (message printed).
 */
static int swap_into_place(struct site *s)
{
	struct buf old = BUF_INIT;
	int rc;

	if (renameat2(AT_FDCWD, s->tmp, AT_FDCWD, s->dir, RENAME_EXCHANGE) == 0) {
		if (dir_replaceable(s->tmp) == 1)
			return 0;
		renameat2(AT_FDCWD, s->tmp, AT_FDCWD, s->dir, RENAME_EXCHANGE);
		return not_ours(s);
	}
	if (errno != EINVAL && errno != ENOSYS)
		return -1;
	/* No exchange on this file system: two renames, with a short window without dir. */
	buf_printf(&old, "%s.old", s->tmp);
	rc = rename(s->dir, old.data);
	if (rc == 0 && dir_replaceable(old.data) != 1) {
		rename(old.data, s->dir);
		rc = not_ours(s);
	} else if (rc == 0 && (rc = rename(s->tmp, s->dir)) < 0) {
		rename(old.data, s->dir);
	}
	if (rc == 0)
		rename(old.data, s->tmp);
	buf_release(&old);
	return rc;
}

/*
 * put_in_place: the site takes dir's name.  dir was checked at site_begin, but
 * the report takes a while: check again now.  Absent, it is taken without
 * replacing anything that appeared in between; present, it must still be
 * empty or an earlier site.  0, -1 on error, -2 when dir is not ours.
 */
static int put_in_place(struct site *s)
{
	struct stat st;

	if (renameat2(AT_FDCWD, s->tmp, AT_FDCWD, s->dir, RENAME_NOREPLACE) == 0)
		return 1;
	if (errno == EINVAL || errno == ENOSYS) {
		if (lstat(s->dir, &st) < 0 && errno == ENOENT)
			return rename(s->tmp, s->dir) < 0 ? -1 : 1;
	} else if (errno != EEXIST) {
		return -1;
	}
	switch (dir_replaceable(s->dir)) {
	case 1: return swap_into_place(s);
	case 0: return not_ours(s);
	default: return -1;
	}
}

int site_commit(struct site *s)
{
	int rc;

	progress_end();
	spread_subdirs(s->tmp, 0);
	rc = put_in_place(s);
	if (rc < 0) {
		if (rc == -1)
			fprintf(stderr, "callprof: cannot put the report in place at '%s': %s\n",
				s->dir, strerror(errno));
		site_abort(s);
		return -1;
	}
	if (rc == 0)
		remove_tree(s->tmp); /* the old site, now at tmp */
	site_free(s);
	return 0;
}

void site_abort(struct site *s)
{
	progress_end();
	if (s->tmp)
		remove_tree(s->tmp);
	site_free(s);
}
