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

/* A growable list of dump files (owned), each with the run directory it came from. */
struct paths {
	char **v;
	int64_t *
		dir_run; /* dir_run[i]: its run directory (numbered from 0), or -1: a run of its own */
	size_t n, cap;
	int64_t ndirs; /* run directories so far */
};

/* The command line, once parsed: the option table points into it. */
static struct diff_opts {
	const char *dir;
	const char *title;
	struct opts_list side[2]; /* as given: dumps or directories (--base, --new) */
	double fail_above_pct;    /* the gate, percent; -1 when not given */
	double calls_above_pct;   /* the calls gate, percent; -1 when not given */
	double noise;             /* standard errors a change must exceed */
	uint64_t min_ns;
	int wall_clock; /* keep the waits for a CPU in the times */
	int no_argv;    /* leave the programs' arguments out of the site */
} o;

static const struct opt diff_options[] = {
	{ 'o', "output", OPT_STRING, &o.dir, "DIR",
	  "where the site goes; an existing DIR must be empty or an\n"
	  "earlier site, and is replaced only once the new one is done" },
	{ 0, "base", OPT_LIST, &o.side[DIFF_BASE], "DUMP",
	  "a dump (or directory of dumps) of the base side; repeatable" },
	{ 0, "new", OPT_LIST, &o.side[DIFF_NEW], "DUMP", "the same for the new side" },
	{ 0, "fail-above", OPT_PERCENT, &o.fail_above_pct, "PCT",
	  "exit 3 when any function's inclusive time grew by more than\n"
	  "PCT percent and by more than --min-time, naming each such\n"
	  "function on stderr, one line each" },
	{ 0, "min-time", OPT_TIME_NS, &o.min_ns, "T",
	  "changes of T or less are noise: they never trip the gate\n"
	  "and summary.md leaves them out (default 1ms; a number with\n"
	  "ns, us, ms or s)" },
	{ 0, "fail-on-calls", OPT_PERCENT, &o.calls_above_pct, "PCT",
	  "exit 3 when any function is called more than PCT percent\n"
	  "more often in a typical run (0: any more call), naming each" },
	{ 0, "noise", OPT_PERCENT, &o.noise, "K",
	  "with several runs per side, a change must also exceed K\n"
	  "standard errors of the medians compared to trip a gate\n"
	  "(default 3)" },
	{ 0, "wall-clock", OPT_FLAG, &o.wall_clock, NULL,
	  "compare times as measured: keep the time the threads\n"
	  "waited for a CPU (taken out by default)" },
	{ 0, "no-argv", OPT_FLAG, &o.no_argv, NULL,
	  "leave the programs' arguments out of the site" },
	{ 0, "title", OPT_STRING, &o.title, "T",
	  "the title of every page (default: callprof diff: PROGRAM)" },
};

static const char *const diff_synopses[] = { "BASE NEW", "--base DUMP... --new DUMP...", NULL };

static const struct opts_cmd diff_cmd = {
	.name = "diff",
	.synopses = diff_synopses,
	.about = "Compares the profile BASE (before) with NEW (after).  Each is one dump or a\n"
		 "directory of dumps (every *.json in it), and each dump is a run, unless it\n"
		 "lies in a subdirectory of such a directory: a subdirectory's dumps are one\n"
		 "run together (one pass of a test suite).  Runs of one command line (or all\n"
		 "the subdirectories) repeat one workload: the figures compared are a typical\n"
		 "run's, the median over the repeats, added up over workloads, and a gate\n"
		 "trips only on a change beyond their noise.  Writes a static HTML site of the\n"
		 "changes to DIR (default: diff/), with summary.md, and prints the path of its\n"
		 "index.html.  Functions match across builds by module and name, never by\n"
		 "address.\n",
	.footer = "Exit status: 0, 1 on a usage error, 2 on bad input, 3 when the gate tripped.\n",
	.opts = diff_options,
	.nopts = sizeof(diff_options) / sizeof(diff_options[0]),
};

static void paths_add(struct paths *p, const char *s, int64_t dir_run)
{
	if (p->n == p->cap) {
		p->cap = p->cap ? 2 * p->cap : 8;
		p->v = xreallocarray(p->v, p->cap, sizeof(*p->v));
		p->dir_run = xreallocarray(p->dir_run, p->cap, sizeof(*p->dir_run));
	}
	p->dir_run[p->n] = dir_run;
	p->v[p->n++] = xstrdup(s);
}

static void paths_release(struct paths *p)
{
	for (size_t i = 0; i < p->n; i++)
		free(p->v[i]);
	free(p->v);
	free(p->dir_run);
	memset(p, 0, sizeof(*p));
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* is_dump_name: "<name>.json", not hidden. */
static int is_dump_name(const char *name)
{
	size_t len = strlen(name);

	return len > 5 && !strcmp(name + len - 5, ".json") && name[0] != '.';
}

/* list_dir: the dumps (*.json) and the subdirectories of dir, each in name order. */
static int list_dir(const char *dir, struct paths *dumps, struct paths *subdirs)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	struct stat st;
	struct buf path = BUF_INIT;

	if (!d)
		return -1;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		buf_reset(&path);
		buf_printf(&path, "%s/%s", dir, e->d_name);
		if (is_dump_name(e->d_name))
			paths_add(dumps, path.data, -1);
		else if (subdirs && stat(path.data, &st) == 0 && S_ISDIR(st.st_mode))
			paths_add(subdirs, path.data, -1);
	}
	closedir(d);
	buf_release(&path);
	if (dumps->n)
		qsort(dumps->v, dumps->n, sizeof(*dumps->v), cmp_str);
	if (subdirs && subdirs->n)
		qsort(subdirs->v, subdirs->n, sizeof(*subdirs->v), cmp_str);
	return 0;
}

/*
 * add_dir: every DIR/<name>.json, a run each, then every DIR/<sub>/<name>.json,
 * one run per subdirectory that has dumps, in name order.  0, or -1 after
 * printing one line.
 */
static int add_dir(struct paths *out, const char *dir)
{
	struct paths dumps = { 0 }, subdirs = { 0 };
	size_t before = out->n;
	int rc = -1;

	if (list_dir(dir, &dumps, &subdirs) < 0) {
		fprintf(stderr, "callprof: cannot read the directory '%s': %s\n", dir,
			strerror(errno));
		goto out;
	}
	for (size_t i = 0; i < dumps.n; i++)
		paths_add(out, dumps.v[i], -1);
	for (size_t i = 0; i < subdirs.n; i++) {
		struct paths run = { 0 };

		if (list_dir(subdirs.v[i], &run, NULL) < 0) {
			fprintf(stderr, "callprof: cannot read the directory '%s': %s\n",
				subdirs.v[i], strerror(errno));
			paths_release(&run);
			goto out;
		}
		for (size_t k = 0; k < run.n; k++)
			paths_add(out, run.v[k], out->ndirs);
		out->ndirs += run.n > 0;
		paths_release(&run);
	}
	if (out->n == before)
		fprintf(stderr, "callprof: no dumps (*.json) in '%s' or its subdirectories\n", dir);
	else
		rc = 0;
out:
	paths_release(&dumps);
	paths_release(&subdirs);
	return rc;
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
			paths_add(out, given->v[i], -1); /* dump_load says what is wrong with it */
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
	o.calls_above_pct = -1;
	o.noise = DIFF_NOISE_K;
	rc = opts_parse(&diff_cmd, argc, argv, &pos);
	if (rc)
		return rc;
	if (pos.n && (o.side[0].n || o.side[1].n))
		rc = opts_error(&diff_cmd,
				"give the dumps either as BASE NEW or with --base and --new, not "
				"both: '%s'",
				pos.v[0]);
	else if (pos.n && pos.n != 2)
		rc = opts_error(&diff_cmd, "want two profiles, BASE and NEW, not '%s'",
				pos.n > 2 ? pos.v[2] : pos.v[0]);
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

/* put_name: "callprof diff: NAME (what tells it apart): " for a line on stderr. */
static void put_name(struct buf *line, const struct diff *d, const struct diff_func *f)
{
	buf_puts(line, "callprof diff: ");
	buf_put_printable(line, f->name[0] ? f->name : "(anonymous)");
	if (diff_func_library(d, f)) { /* a library function: its module, strlen [libc.so.6] */
		buf_puts(line, " [");
		buf_put_printable(line, f->module ? f->module : "library");
		buf_puts(line, "]");
	}
	diff_func_put_tell(line, f, buf_put_printable);
	buf_puts(line, ": ");
}

/* put_noise: ", beyond 3 x its noise of 212 us" when the runs gave a noise to weigh the change against. */
static void put_noise(struct buf *line, const struct diff *d, struct estimate before,
		      struct estimate after, int ns)
{
	char a[FMT_SIZE];
	double noise = estimate_noise(before, after);

	if (noise <= 0 || d->noise_k <= 0)
		return;
	if (ns)
		fmt_ns_f(a, noise);
	else
		snprintf(a, sizeof(a), "%.1f calls", noise);
	buf_printf(line, ", beyond %g x its noise of %s", d->noise_k, a);
}

/* print_tripped: one line on stderr per function and gate it tripped. */
static void print_tripped(const struct diff *d)
{
	struct buf line = BUF_INIT;
	char a[FMT_SIZE], b[FMT_SIZE], c[FMT_SIZE], e[FMT_SIZE], m[FMT_SIZE];

	for (size_t i = 0; i < d->ntripped; i++) {
		const struct diff_func *f = &d->funcs[d->tripped[i]];
		const struct pstat *st = f->st;

		if (f->tripped) {
			buf_reset(&line);
			put_name(&line, d, f);
			buf_printf(&line, "inclusive %s -> %s (%s, %s), above %g%% and %s",
				   fmt_ns(a, st[0].incl_ns), fmt_ns(b, st[1].incl_ns),
				   fmt_change(c, st[0].incl_ns, st[1].incl_ns),
				   fmt_ns_delta(e, st[0].incl_ns, st[1].incl_ns), d->fail_above_pct,
				   fmt_ns(m, d->min_ns));
			put_noise(&line, d, f->est[0].incl_ns, f->est[1].incl_ns, 1);
			buf_puts(&line, "\n");
			fputs(line.data, stderr);
		}
		if (f->tripped_calls) {
			buf_reset(&line);
			put_name(&line, d, f);
			buf_printf(&line, "calls %s -> %s (%s), above %g%%",
				   fmt_count(a, st[0].calls), fmt_count(b, st[1].calls),
				   fmt_change(c, st[0].calls, st[1].calls), d->calls_above_pct);
			put_noise(&line, d, f->est[0].calls, f->est[1].calls, 0);
			buf_puts(&line, "\n");
			fputs(line.data, stderr);
		}
	}
	buf_release(&line);
}

/* run: loads both sides, compares them and writes the site; the exit status. */
static int run(const struct paths side[2])
{
	struct dump *dumps[2] = { NULL, NULL };
	struct diff d;
	struct buf title = BUF_INIT;
	struct render_ctx ctx = {
		.prof = &d.side[DIFF_NEW], .diff = &d, .title = o.title, .no_argv = o.no_argv
	};
	struct diff_input in[2];
	int rc = 2;

	if (dumps_load(&dumps[0], side[0].v, side[0].n) < 0)
		return 2;
	if (dumps_load(&dumps[1], side[1].v, side[1].n) < 0)
		goto out_base;
	for (int s = 0; s < 2; s++)
		in[s] = (struct diff_input){ dumps[s], side[s].n, side[s].dir_run };
	if (diff_build(&d, in, o.min_ns, o.wall_clock) < 0)
		goto out_new;
	if (o.fail_above_pct >= 0)
		diff_gate(&d, o.fail_above_pct, o.noise);
	if (o.calls_above_pct >= 0)
		diff_gate_calls(&d, o.calls_above_pct, o.noise);
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
