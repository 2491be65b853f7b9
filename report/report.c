/* report.c: `callprof report`: dumps in, a static HTML site out (load -> analyze -> render -> site). */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "assets.h"
#include "cmd.h"
#include "dump.h"
#include "opts.h"
#include "pages.h"
#include "profile.h"
#include "render.h"

/*
 * Where the site goes without -o: not "report", which in a project's root is
 * often a folder of its own (this repository's report/ holds the tool's sources).
 */
#define REPORT_DEFAULT_DIR "callprof-report"

/* The parsed command line. */
struct report_opts {
	const char *dir;
	const char *title;
	const char *notes;
	const char *templates;
	int no_argv; /* leave the programs' arguments out of the site */
	struct opts_list dumps;
};

/* The command line, once parsed: the option table points into it. */
static struct report_opts o;

static const struct opt report_options[] = {
	{ 'o', "output", OPT_STRING, &o.dir, "DIR",
	  "where the site goes; an existing DIR must be empty or an\n"
	  "earlier report, and is replaced only once the new one is done" },
	{ 0, "title", OPT_STRING, &o.title, "T",
	  "the title of every page (default: callprof: PROGRAM)" },
	{ 0, "notes", OPT_STRING, &o.notes, "FILE",
	  "Markdown shown on the index (raw HTML in it is dropped)" },
	{ 0, "templates", OPT_STRING, &o.templates, "DIR",
	  "read templates (page.html, index.html, ...) and static files\n"
	  "(style.css, sort.js) from DIR where it has them" },
	{ 0, "no-argv", OPT_FLAG, &o.no_argv, NULL,
	  "leave the programs' arguments out of the site (a CI site\n"
	  "published where the arguments should not be)" },
};

static const char *const report_synopses[] = { "DUMP...", NULL };

static const struct opts_cmd report_cmd = {
	.name = "report",
	.synopses = report_synopses,
	.about = "Writes a static HTML report of one or more dumps to DIR "
		 "(default:\n" REPORT_DEFAULT_DIR
		 "/) and prints the path of its index.html.  Several dumps\n"
		 "(forked children, several runs) merge into one profile; functions match by\n"
		 "module and name.\n",
	.opts = report_options,
	.nopts = sizeof(report_options) / sizeof(report_options[0]),
};

/* parse_args: 0, or the exit status after a message (OPTS_HELP for --help). */
static int parse_args(int argc, char **argv)
{
	int rc;

	memset(&o, 0, sizeof(o));
	o.dir = REPORT_DEFAULT_DIR;
	rc = opts_parse(&report_cmd, argc, argv, &o.dumps);
	if (rc)
		return rc;
	if (!o.dumps.n)
		rc = opts_error(&report_cmd, "no dump given");
	else if (!*o.dir)
		rc = opts_error(&report_cmd, "empty output directory");
	if (rc)
		opts_list_release(&o.dumps);
	return rc;
}

static int read_notes(const char *path, struct buf *out)
{
	FILE *f = fopen(path, "rb");
	char chunk[8192];
	size_t n;
	int err;

	if (!f) {
		fprintf(stderr, "callprof: cannot read notes '%s': %s\n", path, strerror(errno));
		return -1;
	}
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
		buf_add(out, chunk, n);
	err = ferror(f);
	fclose(f);
	if (err)
		fprintf(stderr, "callprof: cannot read notes '%s'\n", path);
	return err ? -1 : 0;
}

static int check_templates(const char *dir)
{
	struct stat st;

	if (stat(dir, &st) < 0 || !S_ISDIR(st.st_mode)) {
		fprintf(stderr, "callprof: cannot use templates '%s': %s\n", dir,
			errno ? strerror(errno) : "not a directory");
		return -1;
	}
	asset_override_dir(dir);
	return 0;
}

/* write_site: renders every page into a new site at o->dir; 0, or the exit status. */
static int write_site(const struct profile *prof, const struct buf *notes)
{
	struct render_ctx ctx = {
		.prof = prof,
		.title = o.title,
		.notes_md = o.notes ? notes->data : NULL,
		.notes_len = notes->len,
		.no_argv = o.no_argv,
	};

	return pages_write(&ctx, o.dir, &pages_report);
}

int cmd_report(int argc, char **argv)
{
	struct buf notes = BUF_INIT;
	struct dump *dumps;
	struct profile prof;
	int rc = parse_args(argc, argv);

	if (rc)
		return rc == OPTS_HELP ? 0 : rc;
	rc = 2;
	if (o.templates && check_templates(o.templates) < 0)
		goto out;
	if (o.notes && read_notes(o.notes, &notes) < 0)
		goto out;
	if (dumps_load(&dumps, o.dumps.v, o.dumps.n) < 0)
		goto out;
	rc = profile_build(&prof, dumps, o.dumps.n) < 0 ? 2 : 0;
	if (rc == 0) {
		rc = write_site(&prof, &notes);
		profile_release(&prof);
	}
	dumps_free(dumps, o.dumps.n);
out:
	buf_release(&notes);
	opts_list_release(&o.dumps);
	return rc;
}
