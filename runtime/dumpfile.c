/* dumpfile.c: the dump's path, and its file written to a temporary name, then renamed into place. */
#include "dumpfile.h"

#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

/* A short temporary name beside `final` (the rename must stay in one file
 * system), whatever the length of the final name's last component. */
static void temporary_path(const char *final, char *tmp, size_t size)
{
	const char *slash = strrchr(final, '/');
	int dir_len = slash ? (int)(slash - final + 1) : 0;

	snprintf(tmp, size, "%.*s.callprof-%d.tmp", dir_len, final, (int)getpid());
}

/* The final path: %p is the pid, %% a percent sign; a fork child without %p adds its pid. */
static void output_path(const char *pattern, bool forked, char *out, size_t size)
{
	size_t o = 0;
	bool has_pid = false;

	for (const char *p = pattern; *p && o + 24 < size; p++) {
		if (p[0] == '%' && p[1] == 'p') {
			o += (size_t)snprintf(out + o, size - o, "%d", (int)getpid());
			has_pid = true;
			p++;
		} else if (p[0] == '%' && p[1] == '%') {
			out[o++] = '%';
			p++;
		} else {
			out[o++] = *p;
		}
	}
	out[o] = '\0';
	if (forked && !has_pid) {
		char *dot = strrchr(out, '.');
		char *slash = strrchr(out, '/');
		char tail[PATH_MAX];
		if (!dot || (slash && dot < slash))
			dot = out + o;
		snprintf(tail, sizeof(tail), "%s", dot);
		snprintf(dot, size - (size_t)(dot - out), ".%d%s", (int)getpid(), tail);
	}
}

void dumpfile_init(struct dumpfile *df, const char *pattern, bool forked)
{
	output_path(pattern, forked, df->final, sizeof(df->final));
	temporary_path(df->final, df->tmp, sizeof(df->tmp));
	df->f = NULL;
}

FILE *dumpfile_open(struct dumpfile *df)
{
	df->f = fopen(df->tmp, "we");
	if (df->f)
		setvbuf(df->f, NULL, _IOFBF, 1 << 20);
	return df->f;
}

int dumpfile_finish(struct dumpfile *df, int err)
{
	if (df->f) {
		if (ferror(df->f) && !err)
			err = errno ? errno : EIO;
		if (fclose(df->f) != 0 && !err)
			err = errno;
		df->f = NULL;
		if (!err && rename(df->tmp, df->final) != 0)
			err = errno;
		if (err)
			unlink(df->tmp);
	}
	if (!err)
		return 0;
	fprintf(stderr, "callprof: cannot write profile '%s': %s\n", df->final, strerror(err));
	return -1;
}
