/* top.c: `callprof top`: the flat profile of one or more dumps as text for a terminal. */
#include <stdio.h>
#include <string.h>

#include "buf.h"
#include "cmd.h"
#include "dump.h"
#include "fmt.h"
#include "opts.h"
#include "profile.h"

#define TOP_VALUES 5 /* argument tuples and return values printed under a function, each ranking */

/* The command line, once parsed: -n, the most rows to print (0 for all); --args. */
static size_t top_limit;
static int top_args;

static const struct opt top_options[] = {
	{ 'n', NULL, OPT_COUNT, &top_limit, "N", "print the first N rows only" },
	{ 0, "args", OPT_FLAG, &top_args, NULL,
	  "under each function whose arguments were captured\n"
	  "(CALLPROF_ARGS): its calls that took the most time,\n"
	  "its most frequent calls, and the values it returned" },
};

static const char *const top_synopses[] = { "DUMP...", NULL };

static const struct opts_cmd top_cmd = {
	.name = "top",
	.synopses = top_synopses,
	.about = "Prints the flat profile of one or more dumps (merged), sorted by self time:\n"
		 "calls, self time, inclusive time, average inclusive time per call, self time\n"
		 "as a share of the run (%), and the name.  With --args, the arguments and\n"
		 "return values CALLPROF_ARGS captured under the functions it selected.\n",
	.opts = top_options,
	.nopts = sizeof(top_options) / sizeof(top_options[0]),
};

/* put_right: s right-aligned in width columns (UTF-8 aware: "µs" is one column wide). */
static void put_right(struct buf *out, const char *s, size_t width)
{
	size_t cols = 0;

	for (const char *p = s; *p; p++)
		cols += ((unsigned char)*p & 0xc0) != 0x80;
	for (; cols < width; cols++)
		buf_putc(out, ' ');
	buf_puts(out, s);
	buf_puts(out, "  ");
}

/* put_name: the function's name, and its file when another function has the same name. */
static void put_name(struct buf *out, const struct pfunc *f)
{
	buf_put_printable(out, f->name[0] ? f->name : "(anonymous)");
	if (f->same_name && f->file) {
		buf_puts(out, " (");
		buf_put_printable(out, pfunc_file_base(f));
		buf_putc(out, ')');
	}
	buf_putc(out, '\n');
}

/* put_tuples: a ranking of the calls as captured ("parse(depth=3, s="abc")  1,204 calls  3.1 ms"). */
static void put_tuples(struct buf *out, const struct pargs *a, const uint32_t *order, const char *title)
{
	char x[FMT_SIZE], y[FMT_SIZE];

	buf_printf(out, "    called with, %s:\n", title);
	for (size_t i = 0; i < a->ntuples && i < TOP_VALUES; i++) {
		const struct pvalue *v = &a->tuples[order ? order[i] : i];

		buf_puts(out, "      ");
		buf_put_printable(out, v->text);
		buf_printf(out, "  %s call%s  %s\n", fmt_count(x, v->calls), v->calls == 1 ? "" : "s",
			   fmt_ns(y, v->incl_ns));
	}
}

/* put_args: what put_tuples ranks, then the return values ("-1: 12 calls (0.3%)"). */
static void put_args(struct buf *out, const struct pargs *a)
{
	char x[FMT_SIZE], y[FMT_SIZE];

	if (a->refused) {
		buf_puts(out, "    arguments not captured: ");
		buf_put_printable(out, a->refused);
		buf_putc(out, '\n');
		return;
	}
	put_tuples(out, a, a->by_time, "by time");
	put_tuples(out, a, NULL, "by calls");
	if (!a->returns)
		return;
	buf_puts(out, "    returned:\n");
	for (size_t i = 0; i < a->nreturned && i < TOP_VALUES; i++) {
		buf_puts(out, "      ");
		buf_put_printable(out, a->returned[i].text);
		buf_printf(out, ": %s call%s (%s)\n", fmt_count(x, a->returned[i].calls),
			   a->returned[i].calls == 1 ? "" : "s", fmt_pct(y, a->returned[i].calls, a->returned_calls));
	}
}

static void print_profile(const struct profile *p, size_t limit)
{
	struct buf out = BUF_INIT;
	char a[FMT_SIZE], b[FMT_SIZE], c[FMT_SIZE];
	size_t n = limit && limit < p->nfuncs ? limit : p->nfuncs;

	buf_printf(&out, "%zu dump%s, %zu thread%s, %s calls, %s profiled\n\n", p->nruns,
		   p->nruns == 1 ? "" : "s", p->nthreads, p->nthreads == 1 ? "" : "s",
		   fmt_count(a, p->calls), fmt_ns(b, p->run_ns));
	put_right(&out, "calls", 12);
	put_right(&out, "self", 9);
	put_right(&out, "inclusive", 9);
	put_right(&out, "avg", 9);
	put_right(&out, "%", 6);
	buf_puts(&out, "name\n");
	for (size_t i = 0; i < n; i++) {
		const struct pfunc *f = &p->funcs[p->by_self[i]];

		put_right(&out, fmt_count(a, f->st.calls), 12);
		put_right(&out, fmt_ns(b, f->st.self_ns), 9);
		put_right(&out, fmt_ns(c, f->st.incl_ns), 9);
		put_right(&out, fmt_ns(a, f->st.calls ? f->st.incl_ns / f->st.calls : 0), 9);
		snprintf(b, sizeof(b), "%.1f", 100.0 * fmt_share(f->st.self_ns, p->run_ns));
		put_right(&out, b, 6);
		put_name(&out, f);
		if (top_args && f->args)
			put_args(&out, f->args);
	}
	if (n < p->nfuncs)
		buf_printf(&out, "(%zu more functions)\n", p->nfuncs - n);
	fwrite(out.data, 1, out.len, stdout);
	buf_release(&out);
}

int cmd_top(int argc, char **argv)
{
	struct opts_list args;
	struct dump *dumps;
	struct profile prof;
	int rc;

	top_limit = 0;
	top_args = 0;
	rc = opts_parse(&top_cmd, argc, argv, &args);
	if (rc)
		return rc == OPTS_HELP ? 0 : rc;
	if (!args.n) {
		opts_list_release(&args);
		return opts_error(&top_cmd, "no dump given");
	}
	rc = 2;
	if (dumps_load(&dumps, args.v, args.n) == 0) {
		rc = profile_build(&prof, dumps, args.n) < 0 ? 2 : 0;
		if (rc == 0) {
			print_profile(&prof, top_limit);
			profile_release(&prof);
		}
		dumps_free(dumps, args.n);
	}
	opts_list_release(&args);
	return rc;
}
