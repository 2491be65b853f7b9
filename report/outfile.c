/* outfile.c: a command's output file, written under a temporary name and renamed into place. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "buf.h"
#include "load.h"
#include "outfile.h"
#include "safefile.h"

static int fail(const char *cmd, const char *path, const char *why)
{
	struct buf msg = BUF_INIT;

	buf_printf(&msg, "callprof %s: cannot write ", cmd);
	load_quote_path(&msg, path);
	buf_printf(&msg, ": %s\n", why);
	fputs(msg.data, stderr);
	buf_release(&msg);
	return -1;
}

int outfile_write(const char *cmd, const char *path, const void *data, size_t len)
{
	struct safefile sf;
	FILE *f;

	if (!strcmp(path, "-")) {
		if (fwrite(data, 1, len, stdout) != len || fflush(stdout) != 0)
			return fail(cmd, "(standard output)", strerror(errno));
		return 0;
	}
	f = safefile_open(&sf, path);
	if (!f)
		return fail(cmd, path, sf.why);
	if (safefile_close(&sf, fwrite(data, 1, len, f) == len ? 0 : errno ? errno : EIO) < 0)
		return fail(cmd, path, sf.why);
	return 0;
}
