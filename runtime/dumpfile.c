/* dumpfile.c: the dump's path from its pattern, and its file, written through safefile. */
#include "dumpfile.h"

#include <string.h>
#include <unistd.h>

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
	df->sf.why = NULL;
	df->opened = false;
}

FILE *dumpfile_open(struct dumpfile *df)
{
	FILE *f = safefile_open(&df->sf, df->final);

	df->opened = f != NULL;
	if (f)
		setvbuf(f, NULL, _IOFBF, 1 << 20);
	return f;
}

int dumpfile_finish(struct dumpfile *df, int err)
{
	const char *why;

	if (df->opened) {
		df->opened = false;
		if (safefile_close(&df->sf, err) == 0)
			return 0;
		why = df->sf.why;
	} else {
		why = err ? strerror(err) : df->sf.why;
	}
	fprintf(stderr, "callprof: cannot write profile '%s': %s\n", df->final,
		why ? why : "unknown error");
	return -1;
}
