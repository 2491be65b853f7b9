/* safefile.c: writing a file under an unpredictable temporary name, then renaming it into place. */
#include "safefile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* Temporary names tried before giving up: each holds 64 random bits, so only
 * someone filling the directory on purpose makes a second one necessary. */
#define SAFEFILE_TRIES 64

/* The permission bits a replaced file hands on (no set-id or sticky bits). */
#define SAFEFILE_PERM_MASK 0777

/* Calls of weak_random() so far: two calls in one nanosecond still differ. */
static uint64_t weak_calls;

static uint64_t mix64(uint64_t k)
{
	k ^= k >> 30;
	k *= 0xbf58476d1ce4e5b9ull;
	k ^= k >> 27;
	k *= 0x94d049bb133111ebull;
	k ^= k >> 31;
	return k;
}

/* When getrandom cannot answer (a kernel before 3.17, a seccomp filter): not
 * secret, but O_EXCL keeps the file safe and a guessed name only costs a retry. */
static uint64_t weak_random(void)
{
	struct timespec ts;
	uint64_t n = __atomic_add_fetch(&weak_calls, 1, __ATOMIC_RELAXED);

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return mix64((uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec) ^
	       mix64((uint64_t)getpid() << 32 ^ n) ^ mix64((uint64_t)(uintptr_t)&ts);
}

static uint64_t random64(void)
{
	uint64_t r;

	if (getrandom(&r, sizeof(r), GRND_NONBLOCK) == (ssize_t)sizeof(r))
		return r;
	return weak_random();
}

/* sf->tmp: a fresh random name in the final path's directory. */
static void temporary_name(struct safefile *sf)
{
	const char *slash = strrchr(sf->final, '/');
	int dir_len = slash ? (int)(slash - sf->final + 1) : 0;

	snprintf(sf->tmp, sizeof(sf->tmp), "%.*s.callprof-%016llx.tmp", dir_len, sf->final,
		 (unsigned long long)random64());
}

static const char *not_regular(mode_t mode)
{
	if (S_ISLNK(mode))
		return "a symbolic link, neither followed nor replaced";
	if (S_ISDIR(mode))
		return "a directory, not a regular file: left as it is";
	if (S_ISCHR(mode))
		return "a character device, not a regular file: left as it is";
	if (S_ISBLK(mode))
		return "a block device, not a regular file: left as it is";
	if (S_ISFIFO(mode))
		return "a FIFO, not a regular file: left as it is";
	if (S_ISSOCK(mode))
		return "a socket, not a regular file: left as it is";
	return "not a regular file: left as it is";
}

/* 0 if the final path is absent or a regular file (whose mode and owner are
 * then kept in sf when `remember`), else -1 with sf->why set. */
static int check_final(struct safefile *sf, bool remember)
{
	struct stat st;

	if (lstat(sf->final, &st) != 0) {
		if (errno == ENOENT)
			return 0;
		sf->why = strerror(errno);
		return -1;
	}
	if (!S_ISREG(st.st_mode)) {
		sf->why = not_regular(st.st_mode);
		return -1;
	}
	if (remember) {
		sf->replacing = true;
		sf->mode = st.st_mode & SAFEFILE_PERM_MASK;
		sf->uid = st.st_uid;
		sf->gid = st.st_gid;
	}
	return 0;
}

/* The replaced file's owner and group where we may, then its mode.  0 or an errno. */
static int keep_mode(const struct safefile *sf, int fd)
{
	mode_t mode = sf->mode;

	if (fchown(fd, sf->uid, sf->gid) != 0 && fchown(fd, (uid_t)-1, sf->gid) != 0) {
		struct stat st;
		/* Another group now: it gets no more than everybody. */
		if (fstat(fd, &st) != 0 || st.st_gid != sf->gid)
			mode = (mode & 0707) | ((mode & 07) << 3);
	}
	return fchmod(fd, mode) == 0 ? 0 : errno;
}

FILE *safefile_open(struct safefile *sf, const char *final)
{
	int fd = -1;

	memset(sf, 0, sizeof(*sf));
	if (strlen(final) >= sizeof(sf->final)) {
		sf->why = strerror(ENAMETOOLONG);
		return NULL;
	}
	strcpy(sf->final, final);
	if (check_final(sf, true) < 0)
		return NULL;
	/* A new file may show its final mode at once: there is nothing it hides
	 * that the rename will not show.  A replaced one may be private. */
	for (int i = 0; i < SAFEFILE_TRIES && fd < 0; i++) {
		temporary_name(sf);
		fd = open(sf->tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
			  sf->replacing ? 0600 : 0666);
		if (fd < 0 && errno != EEXIST)
			break;
	}
	if (fd < 0) {
		sf->why = strerror(errno);
		return NULL;
	}
	sf->fd = fd;
	if (!(sf->f = fdopen(fd, "w"))) {
		sf->why = strerror(errno);
		close(fd);
		unlink(sf->tmp);
	}
	return sf->f;
}

int safefile_close(struct safefile *sf, int err)
{
	if (!sf->f)
		return -1;
	if ((fflush(sf->f) != 0 || ferror(sf->f)) && !err)
		err = errno ? errno : EIO;
	if (!err && sf->replacing)
		err = keep_mode(sf, sf->fd);
	if (fclose(sf->f) != 0 && !err)
		err = errno;
	sf->f = NULL;
	if (err)
		sf->why = strerror(err);
	else if (check_final(sf, false) < 0)
		err = -1;
	else if (rename(sf->tmp, sf->final) != 0)
		sf->why = strerror(err = errno);
	if (err)
		unlink(sf->tmp);
	return err ? -1 : 0;
}
