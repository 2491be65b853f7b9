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
#include "profile.h"
#include "render.h"

static const char report_usage[] =
	"usage: callprof report [-o DIR] [--title T] [--notes NOTES.md] [--templates DIR] DUMP...\n"
	"\n"
	"Writes a static HTML report of one or more dumps to DIR (default: report/)\n"
	"and prints the path of its index.html.  Several dumps (forked children, several\n"
	"runs) merge into one profile; functions match by module and name.\n"
	"\n"
	"  -o, --output DIR   where the site goes; an existing DIR must be empty or an\n"
	"                     earlier report, and is replaced only once the new one is done\n"
	"  --title T          the title of every page (default: callprof: PROGRAM)\n"
	"  --notes FILE       Markdown shown on the index (raw HTML in it is dropped)\n"
	"  --templates DIR    read templates (page.html, index.html, ...) and static files\n"
	"                     (style.css, sort.js) from DIR where it has them\n";

/* The parsed command line. */
struct report_opts {
	const char *dir;
	const char *title;
	const char *notes;
	const char *templates;
	char **dumps;
	size_t ndumps;
};

const char *cmd_opt_value(int argc, char **argv, int *i, const char *name)
{
	size_t len = strlen(name);

	if (strncmp(argv[*i], name, len))
		return NULL;
	if (argv[*i][len] == '=')
		return argv[*i] + len + 1;
	if (argv[*i][len] == '\0' && *i + 1 < argc)
		return argv[++*i];
	return NULL;
}

/* parse_args: 0, or the exit status after a usage message (-1 for --help). */
static int parse_args(int argc, char **argv, struct report_opts *o)
{
	int i;
	const char *v;

	memset(o, 0, sizeof(*o));
	o->dir = "report";
	for (i = 1; i < argc && argv[i][0] == '-' && argv[i][1]; i++) {
		if (!strcmp(argv[i], "--")) {
			i++;
			break;
		} else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			fputs(report_usage, stdout);
			return -1;
		} else if ((v = cmd_opt_value(argc, argv, &i, "-o")) || (v = cmd_opt_value(argc, argv, &i, "--output"))) {
			o->dir = v;
		} else if ((v = cmd_opt_value(argc, argv, &i, "--title"))) {
			o->title = v;
		} else if ((v = cmd_opt_value(argc, argv, &i, "--notes"))) {
			o->notes = v;
		} else if ((v = cmd_opt_value(argc, argv, &i, "--templates"))) {
			o->templates = v;
		} else {
			fprintf(stderr, "callprof report: unknown option or missing value '%s'\n%s", argv[i],
				report_usage);
			return 1;
		}
	}
	if (i >= argc) {
		fprintf(stderr, "callprof report: no dump given\n%s", report_usage);
		return 1;
	}
	if (!*o->dir) {
		fprintf(stderr, "callprof report: empty output directory\n");
		return 1;
	}
	o->dumps = argv + i;
	o->ndumps = (size_t)(argc - i);
	return 0;
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

void cmd_print_index(const char *dir)
{
	char abs[PATH_MAX];

	if (realpath(dir, abs))
		printf("%s/index.html\n", abs);
	else
		printf("%s/index.html\n", dir);
}

/* write_site: renders every page into a new site at o->dir; 0, or the exit status. */
static int write_site(const struct report_opts *o, const struct profile *prof, const struct buf *notes)
{
	struct render_ctx ctx = {
		.prof = prof,
		.title = o->title,
		.notes_md = o->notes ? notes->data : NULL,
		.notes_len = notes->len,
	};

	return render_write(&ctx, o->dir, render_site);
}

int cmd_report(int argc, char **argv)
{
	struct report_opts o;
	struct buf notes = BUF_INIT;
	struct dump *dumps;
	struct profile prof;
	int rc = parse_args(argc, argv, &o);

	if (rc)
		return rc < 0 ? 0 : rc;
	if (o.templates && check_templates(o.templates) < 0)
		return 2;
	if (o.notes && read_notes(o.notes, &notes) < 0) {
		buf_release(&notes);
		return 2;
	}
	if (dumps_load(&dumps, o.dumps, o.ndumps) < 0) {
		buf_release(&notes);
		return 2;
	}
	rc = profile_build(&prof, dumps, o.ndumps) < 0 ? 2 : 0;
	if (rc == 0) {
		rc = write_site(&o, &prof, &notes);
		profile_release(&prof);
	}
	if (rc == 0)
		cmd_print_index(o.dir);
	dumps_free(dumps, o.ndumps);
	buf_release(&notes);
	return rc;
}
