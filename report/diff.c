/* diff.c: `callprof diff`: two sets of dumps in (base, new), a static HTML site of what changed
 * out, and a gate for CI (load -> analyze both -> match -> render -> site). */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cmd.h"
#include "diff.h"
#include "dump.h"
#include "fmt.h"
#include "opts.h"
#include "pages.h"
#include "render.h"

#define DIFF_DEFAULT_MIN_NS 1000000 /* --min-time: 1 ms, below which a change is noise */

/* A growable list of file names (owned). */
struct paths {
	char **v;
	size_t n, cap;
};

/* The command line, once parsed: the option table points into it. */
static struct diff_opts {
	const char *dir;
	const char *title;
	struct opts_list side[2]; /* as given: dumps or directories (--base, --new) */
	double fail_above_pct;    /* the gate, percent; -1 when not given */
	uint64_t min_ns;
} o;

static const struct opt diff_options[] = {
	{ 'o', "output", OPT_STRING, &o.dir, "DIR", "where the site goes; an existing DIR must be empty or an\n"
						     "earlier site, and is replaced only once the new one is done" },
	{ 0, "base", OPT_LIST, &o.side[DIFF_BASE], "DUMP", "a dump (or directory of dumps) of the base side; repeatable" },
	{ 0, "new", OPT_LIST, &o.side[DIFF_NEW], "DUMP", "the same for the new side" },
	{ 0, "fail-above", OPT_PERCENT, &o.fail_above_pct, "PCT",
	  "exit 3 when any function's inclusive time grew by more than\n"
	  "PCT percent and by more than --min-time, naming each such\n"
	  "function on stderr, one line each" },
	{ 0, "min-time", OPT_TIME_NS, &o.min_ns, "T", "changes of T or less are noise: they never trip the gate\n"
						     "and summary.md leaves them out (default 1ms; a number with\n"
						     "ns, us, ms or s)" },
	{ 0, "title", OPT_STRING, &o.title, "T", "the title of every page (default: callprof diff: PROGRAM)" },
};

static const char *const diff_synopses[] = { "BASE NEW", "--base DUMP... --new DUMP...", NULL };

static const struct opts_cmd diff_cmd = {
	.name = "diff",
	.synopses = diff_synopses,
	.about = "Compares the profile BASE (before) with NEW (after).  Each is one dump or a\n"
		 "directory of dumps (every *.json in it); several dumps of a side merge as\n"
		 "callprof report merges them.  Writes a static HTML site of the changes to DIR\n"
		 "(default: diff/), with summary.md, and prints the path of its index.html.\n"
		 "Functions match across builds by module and name, never by address.\n",
	.footer = "Exit status: 0, 1 on a usage error, 2 on bad input, 3 when the gate tripped.\n",
	.opts = diff_options,
	.nopts = sizeof(diff_options) / sizeof(diff_options[0]),
};

static void paths_add(struct paths *p, const char *s)
{
	if (p->n == p->cap)
		p->v = xreallocarray(p->v, p->cap = p->cap ? 2 * p->cap : 8, sizeof(*p->v));
	p->v[p->n++] = xstrdup(s);
}

static void paths_release(struct paths *p)
{
	for (size_t i = 0; i < p->n; i++)
		free(p->v[i]);
	free(p->v);
	memset(p, 0, sizeof(*p));
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* add_dir: every DIR/<name>.json, in name order.  0, or -1 after printing one line. */
static int add_dir(struct paths *out, const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	struct paths names = { NULL, 0, 0 };
	struct buf path = BUF_INIT;

	if (!d) {
		fprintf(stderr, "callprof: cannot read the directory '%s': %s\n", dir, strerror(errno));
		return -1;
	}
	while ((e = readdir(d))) {
		size_t len = strlen(e->d_name);

		if (len > 5 && !strcmp(e->d_name + len - 5, ".json") && e->d_name[0] != '.')
			paths_add(&names, e->d_name);
	}
	closedir(d);
	if (!names.n) {
		fprintf(stderr, "callprof: no dumps (*.json) in '%s'\n", dir);
		return -1;
	}
	qsort(names.v, names.n, sizeof(*names.v), cmp_str);
	for (size_t i = 0; i < names.n; i++) {
		buf_reset(&path);
		buf_printf(&path, "%s/%s", dir, names.v[i]);
		paths_add(out, path.data);
	}
	buf_release(&path);
	paths_release(&names);
	return 0;
}

/* expand: the dumps a side names, directories replaced by their dumps.  0, or -1 (message printed). */
static int expand(struct paths *out, const struct opts_list *given)
{
	struct stat st;

	for (size_t i = 0; i < given->n; i++) {
		if (stat(given->v[i], &st) == 0 && S_ISDIR(st.st_mode)) {
			if (add_dir(out, given->v[i]) < 0)
				return -1;
		} else {
			paths_add(out, given->v[i]); /* dump_load says what is wrong with it */
		}
	}
	return 0;
}

/* parse_args: 0, or the exit status after a message (OPTS_HELP for --help). */
static int parse_args(int argc, char **argv)
{
	struct opts_list pos;
	int rc;

	memset(&o, 0, sizeof(o));
	o.dir = "diff";
	o.min_ns = DIFF_DEFAULT_MIN_NS;
	o.fail_above_pct = -1;
	rc = opts_parse(&diff_cmd, argc, argv, &pos);
	if (rc)
		return rc;
	if (pos.n && (o.side[0].n || o.side[1].n))
		rc = opts_error(&diff_cmd, "give the dumps either as BASE NEW or with --base and --new, not both: '%s'",
				pos.v[0]);
	else if (pos.n && pos.n != 2)
		rc = opts_error(&diff_cmd, "want two profiles, BASE and NEW, not '%s'", pos.n > 2 ? pos.v[2] : pos.v[0]);
	else if (pos.n == 2) {
		opts_list_add(&o.side[DIFF_BASE], pos.v[0]);
		opts_list_add(&o.side[DIFF_NEW], pos.v[1]);
	} else if (!o.side[0].n || !o.side[1].n) {
		rc = opts_error(&diff_cmd, "want a base and a new profile");
	}
	if (rc == 0 && !*o.dir)
		rc = opts_error(&diff_cmd, "empty output directory");
	opts_list_release(&pos);
	return rc;
}

/* default_title: "callprof diff: PROGRAM" from the new side's first dump. */
static void default_title(struct buf *out, const struct run *d)
{
	const char *prog = d->program ? d->program : d->argc ? d->argv[0] : NULL;
	const char *slash = prog ? strrchr(prog, '/') : NULL;

	buf_printf(out, "callprof diff: %s", slash ? slash + 1 : prog ? prog : "profiles");
}

/* print_tripped: one line on stderr per function that tripped the gate. */
static void print_tripped(const struct diff *d)
{
	struct buf line = BUF_INIT;
	char a[FMT_SIZE], b[FMT_SIZE], c[FMT_SIZE], e[FMT_SIZE], m[FMT_SIZE];

	for (size_t i = 0; i < d->ntripped; i++) {
		const struct diff_func *f = &d->funcs[d->tripped[i]];

		buf_reset(&line);
		buf_puts(&line, "callprof diff: ");
		buf_put_printable(&line, f->name[0] ? f->name : "(anonymous)");
		if (diff_func_library(d, f)) {
			buf_puts(&line, " [");
			buf_put_printable(&line, f->module ? f->module : "library");
			buf_puts(&line, "]");
		}
		if (f->same_name && f->file) {
			buf_puts(&line, " (");
			buf_put_printable(&line, f->file);
			buf_puts(&line, ")");
		}
		buf_printf(&line, ": inclusive %s -> %s (%s, %s), above %g%% and %s\n", fmt_ns(a, f->st[0].incl_ns),
			   fmt_ns(b, f->st[1].incl_ns), fmt_change(c, f->st[0].incl_ns, f->st[1].incl_ns),
			   fmt_ns_delta(e, f->st[0].incl_ns, f->st[1].incl_ns), d->fail_above_pct,
			   fmt_ns(m, d->min_ns));
		fputs(line.data, stderr);
	}
	buf_release(&line);
}

/* run: loads both sides, compares them and writes the site; the exit status. */
static int run(const struct paths side[2])
{
	struct dump *dumps[2] = { NULL, NULL };
	struct diff d;
	struct buf title = BUF_INIT;
	struct render_ctx ctx = { .prof = &d.side[DIFF_NEW], .diff = &d, .title = o.title };
	int rc = 2;

	if (dumps_load(&dumps[0], side[0].v, side[0].n) < 0)
		return 2;
	if (dumps_load(&dumps[1], side[1].v, side[1].n) < 0)
		goto out_base;
	if (diff_build(&d, dumps[0], side[0].n, dumps[1], side[1].n, o.min_ns) < 0)
		goto out_new;
	if (o.fail_above_pct >= 0)
		diff_gate(&d, o.fail_above_pct);
	if (!o.title) {
		default_title(&title, &dumps[1][0].run);
		ctx.title = title.data;
	}
	rc = pages_write(&ctx, o.dir, &pages_diff);
	if (rc == 0) {
		print_tripped(&d);
		rc = d.ntripped ? 3 : 0;
	}
	diff_release(&d);
	buf_release(&title);
out_new:
	dumps_free(dumps[1], side[1].n);
out_base:
	dumps_free(dumps[0], side[0].n);
	return rc;
}

int cmd_diff(int argc, char **argv)
{
	struct paths side[2];
	int rc;

	memset(side, 0, sizeof(side));
	rc = parse_args(argc, argv);
	if (rc == 0)
		rc = expand(&side[0], &o.side[0]) < 0 || expand(&side[1], &o.side[1]) < 0 ? 2 : 0;
	if (rc == 0)
		rc = run(side);
	for (int s = 0; s < 2; s++) {
		opts_list_release(&o.side[s]);
		paths_release(&side[s]);
	}
	return rc == OPTS_HELP ? 0 : rc;
}
