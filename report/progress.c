/* progress.c: the progress line (see progress.h): a terminal's stderr only, quiet in CI. */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "fmt.h"
#include "progress.h"

#define PROGRESS_EVERY_NS 100000000 /* counts redraw at most this often */

static int progress_on = -1;       /* -1 until decided on first use */
static int progress_shown;         /* a line is on the terminal */
static long long progress_last_ns; /* when a count was last drawn */

static int progress_enabled(void)
{
	const char *ci;

	if (progress_on < 0) {
		ci = getenv("CI");
		progress_on = isatty(STDERR_FILENO) && !(ci && !strcmp(ci, "true"));
	}
	return progress_on;
}

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* show: the line text, drawn over the last one, cut to a terminal's usual width. */
static void show(const char *text)
{
	char line[128];
	int n = snprintf(line, sizeof(line), "\r\033[Kcallprof: %.80s", text);

	for (size_t i = 14; line[i];
	     i++) /* past "\r\033[Kcallprof: ": a file name's control characters */
		if ((unsigned char)line[i] < 0x20 || line[i] == 0x7f)
			line[i] = '?';
	if (n > 0 &&
	    write(STDERR_FILENO, line, (size_t)n < sizeof(line) ? (size_t)n : sizeof(line) - 1) > 0)
		progress_shown = 1;
}

void progress_note(const char *fmt, ...)
{
	char text[128];
	va_list ap;

	if (!progress_enabled())
		return;
	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	show(text);
	progress_last_ns = now_ns();
}

void progress_count(const char *what, size_t done, size_t total)
{
	char text[128], a[FMT_SIZE], b[FMT_SIZE];
	long long t;

	if (!progress_enabled())
		return;
	t = now_ns();
	if (done < total && t - progress_last_ns < PROGRESS_EVERY_NS)
		return;
	progress_last_ns = t;
	snprintf(text, sizeof(text), "%s %s/%s", what, fmt_count(a, done), fmt_count(b, total));
	show(text);
}

void progress_end(void)
{
	if (progress_shown && write(STDERR_FILENO, "\r\033[K", 4) > 0)
		progress_shown = 0;
}
