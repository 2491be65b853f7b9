/* top.c: `callprof top`: the flat profile of one or more dumps for a terminal (or as CSV or
 * JSON): sorted by a figure, filtered by name, for the whole run or per thread. */
#define _GNU_SOURCE
#include <fnmatch.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "cmd.h"
#include "dump.h"
#include "fmt.h"
#include "html.h"
#include "name.h"
#include "opts.h"
#include "profile.h"

#define TOP_VALUES 5 /* argument tuples and return values printed under a function, each ranking */

/* The command line, once parsed: the option table points into it. */
static struct top_opts {
	size_t limit;      /* -n: the most rows to print, 0 for all */
	const char *sort;  /* --sort: self, incl, calls, avg, cpu or offcpu */
	const char *match; /* --match: a glob the name must match, or NULL */
	const char
		*regex; /* --regex: an extended regular expression the name must match, or NULL */
	const char *format; /* --format: text, csv or json */
	int threads;        /* --threads: one table per thread */
	int full_names;     /* --full-names: C++ names as they are (text) */
	int args; /* --args: the values CALLPROF_ARGS captured, under their functions (text) */
} o;

static const struct opt top_options[] = {
	{ 'n', NULL, OPT_COUNT, &o.limit, "N",
	  "print the first N rows only (per thread with --threads)" },
	{ 0, "sort", OPT_STRING, &o.sort, "KEY",
	  "sort by self (default), incl, calls, avg (inclusive\n"
	  "time per call), cpu (self time on a CPU) or offcpu (self\n"
	  "time off it: dumps with CPU time), biggest first" },
	{ 0, "match", OPT_STRING, &o.match, "GLOB",
	  "only functions whose name matches GLOB (fnmatch: *, ?,\n"
	  "[...]), such as 'parse_*' or '*::push_back*'" },
	{ 0, "regex", OPT_STRING, &o.regex, "RE",
	  "only functions whose name matches the extended regular\n"
	  "expression RE anywhere, such as '^std::vector<'" },
	{ 0, "threads", OPT_FLAG, &o.threads, NULL,
	  "one table per thread instead of the whole run's" },
	{ 0, "format", OPT_STRING, &o.format, "F",
	  "text (default), csv or json; csv and json give full\n"
	  "names and exact figures (ns), warnings on stderr too" },
	{ 0, "full-names", OPT_FLAG, &o.full_names, NULL,
	  "text: C++ names in full, not shortened to std::vector<…>" },
	{ 0, "args", OPT_FLAG, &o.args, NULL,
	  "text: under each function whose arguments were captured\n"
	  "(CALLPROF_ARGS): its calls that took the most time,\n"
	  "its most frequent calls, and the values it returned" },
};

static const char *const top_synopses[] = { "DUMP...", NULL };

static const struct opts_cmd top_cmd = {
	.name = "top",
	.synopses = top_synopses,
	.about = "Prints the flat profile of one or more dumps (merged), sorted by self time:\n"
		 "calls, self time, inclusive time, average inclusive time per call, self time\n"
		 "as a share of the run (%), and the name.  The first lines say what the\n"
		 "runtime folded, dropped or could not close, as the report's index does.\n"
		 "With --args, the arguments and return values CALLPROF_ARGS captured under\n"
		 "the functions it selected.\n",
	.opts = top_options,
	.nopts = sizeof(top_options) / sizeof(top_options[0]),
};

/* What a row is sorted by. */
enum top_key { KEY_SELF, KEY_INCL, KEY_CALLS, KEY_AVG, KEY_CPU, KEY_OFFCPU, KEYS };

/* One function of the table: its index in the profile and its figures (the run's or a thread's). */
struct row {
	uint32_t fn;
	const struct pstat *st;
};

/* The table being printed: the rows, the key, and what "% of run" is a share of. */
struct table {
	struct row *rows;
	size_t n;
	enum top_key key;
	uint64_t run_ns;
	const char *thread; /* "thread 2 (tid 4243, worker)", or NULL for the whole run */
};

static uint64_t avg_ns(const struct pstat *st)
{
	return st->calls ? st->incl_ns / st->calls : 0;
}

static uint64_t key_of(const struct pstat *st, enum top_key k)
{
	switch (k) {
	case KEY_SELF: return st->self_ns;
	case KEY_INCL: return st->incl_ns;
	case KEY_CALLS: return st->calls;
	case KEY_CPU: return st->cpu_self_ns;
	case KEY_OFFCPU: return pstat_off_cpu_self(st);
	case KEY_AVG:
	case KEYS: break;
	}
	return avg_ns(st);
}

static int cmp_row(const void *a, const void *b, void *ctx)
{
	const struct row *x = a, *y = b;
	enum top_key k = *(const enum top_key *)ctx;
	uint64_t vx = key_of(x->st, k), vy = key_of(y->st, k);

	if (vx != vy)
		return vx > vy ? -1 : 1;
	if (x->st->self_ns != y->st->self_ns)
		return x->st->self_ns > y->st->self_ns ? -1 : 1;
	return x->fn < y->fn ? -1 : x->fn > y->fn;
}

/* ---- the filter ---- */

static regex_t name_re;

/* wanted: the function passes --match and --regex. */
static int wanted(const struct pfunc *f)
{
	if (o.match && fnmatch(o.match, f->name, 0) != 0)
		return 0;
	return !o.regex || regexec(&name_re, f->name, 0, NULL, 0) == 0;
}

/* ---- text ---- */

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

/* put_name: the function's name (shortened unless --full-names), and what tells it apart from its twins. */
static void put_name(struct buf *out, const struct pfunc *f)
{
	struct buf name = BUF_INIT;

	if (!f->name[0] || o.full_names)
		buf_puts(&name, f->name[0] ? f->name : "(anonymous)");
	else
		name_simplify(&name, f->name);
	buf_put_printable(out, name.data);
	buf_release(&name);
	if (f->library) { /* a library function: its module, strlen [libc.so.6] */
		buf_puts(out, " [");
		buf_put_printable(out, f->module ? f->module : "library");
		buf_putc(out, ']');
	}
	pfunc_put_tell(out, f, buf_put_printable);
	buf_putc(out, '\n');
}

/* put_tuples: a ranking of the calls as captured ("parse(depth=3, s="abc")  1,204 calls  3.1 ms"). */
static void put_tuples(struct buf *out, const struct pargs *a, const uint32_t *order,
		       const char *title)
{
	char x[FMT_SIZE], y[FMT_SIZE];

	buf_printf(out, "    called with, %s:\n", title);
	for (size_t i = 0; i < a->ntuples && i < TOP_VALUES; i++) {
		const struct pvalue *v = &a->tuples[order ? order[i] : i];

		buf_puts(out, "      ");
		buf_put_printable(out, v->text);
		buf_printf(out, "  %s call%s  %s\n", fmt_count(x, v->calls),
			   v->calls == 1 ? "" : "s", fmt_ns(y, v->incl_ns));
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
			   a->returned[i].calls == 1 ? "" : "s",
			   fmt_pct(y, a->returned[i].calls, a->returned_calls));
	}
}

static void text_table(struct buf *out, const struct profile *p, const struct table *t,
		       size_t shown)
{
	char a[FMT_SIZE], b[FMT_SIZE], c[FMT_SIZE];

	if (t->thread)
		buf_printf(out, "\n%s\n", t->thread);
	put_right(out, "calls", 12);
	put_right(out, "self", 9);
	if (p->runs[0]->sample_rate)
		put_right(out, "±self", 9);
	put_right(out, "inclusive", 9);
	if (p->has_cpu) {
		put_right(out, "cpu self", 9);
		put_right(out, "off-cpu", 9);
	}
	put_right(out, "avg", 9);
	put_right(out, "%", 6);
	buf_puts(out, "name\n");
	for (size_t i = 0; i < shown; i++) {
		const struct pstat *st = t->rows[i].st;

		put_right(out, fmt_count(a, st->calls), 12);
		put_right(out, fmt_ns(b, st->self_ns), 9);
		if (p->runs[0]->sample_rate)
			put_right(out, st->has_timed ? fmt_ns(c, st->self_se_ns) : "-", 9);
		put_right(out, fmt_ns(c, st->incl_ns), 9);
		if (p->has_cpu) {
			put_right(out, fmt_ns(a, st->cpu_self_ns), 9);
			put_right(out, fmt_ns(c, pstat_off_cpu_self(st)), 9);
		}
		put_right(out, fmt_ns(a, avg_ns(st)), 9);
		snprintf(b, sizeof(b), "%.1f", 100.0 * fmt_share(st->self_ns, t->run_ns));
		put_right(out, b, 6);
		put_name(out, &p->funcs[t->rows[i].fn]);
		if (o.args && p->funcs[t->rows[i].fn].args)
			put_args(out, p->funcs[t->rows[i].fn].args);
	}
	if (shown < t->n)
		buf_printf(out, "(%zu more functions)\n", t->n - shown);
}

/* ---- CSV and JSON ---- */

/* csv_field: s quoted as RFC 4180 wants it when it holds a comma, a quote or a line break. */
static void csv_field(struct buf *out, const char *s)
{
	if (!strpbrk(s, ",\"\r\n")) {
		buf_puts(out, s);
		return;
	}
	buf_putc(out, '"');
	for (; *s; s++) {
		if (*s == '"')
			buf_putc(out, '"');
		buf_putc(out, *s);
	}
	buf_putc(out, '"');
}

static void csv_table(struct buf *out, const struct profile *p, const struct table *t, size_t shown)
{
	for (size_t i = 0; i < shown; i++) {
		const struct pfunc *f = &p->funcs[t->rows[i].fn];
		const struct pstat *st = t->rows[i].st;

		csv_field(out, t->thread ? t->thread : "all");
		buf_printf(out, ",%llu,%llu,%llu,%llu,%.6f,", (unsigned long long)st->calls,
			   (unsigned long long)st->self_ns, (unsigned long long)st->incl_ns,
			   (unsigned long long)avg_ns(st), fmt_share(st->self_ns, t->run_ns));
		csv_field(out, f->name);
		buf_putc(out, ',');
		csv_field(out, f->file ? f->file : "");
		buf_printf(out, ",%llu,", (unsigned long long)f->line);
		csv_field(out, f->module ? f->module : "");
		buf_putc(out, '\n');
	}
}

/* json_string: s as a JSON string: control characters as \u escapes, bytes that are not UTF-8 as U+FFFD. */
static void json_string(struct buf *out, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n = strlen(s), k;

	buf_putc(out, '"');
	for (size_t i = 0; i < n; i += k ? k : 1) {
		k = utf8_valid_len(p + i, n - i);
		if (!k)
			buf_puts(out, "\\ufffd");
		else if (p[i] == '"' || p[i] == '\\')
			buf_printf(out, "\\%c", p[i]);
		else if (p[i] < 0x20 || p[i] == 0x7f)
			buf_printf(out, "\\u%04x", p[i]);
		else
			buf_add(out, p + i, k);
	}
	buf_putc(out, '"');
}

static void json_table(struct buf *out, const struct profile *p, const struct table *t,
		       size_t shown, int first)
{
	buf_printf(out, "%s\n{\"thread\":", first ? "" : ",");
	if (t->thread)
		json_string(out, t->thread);
	else
		buf_puts(out, "null");
	buf_printf(out, ",\"run_ns\":%llu,\"functions\":[", (unsigned long long)t->run_ns);
	for (size_t i = 0; i < shown; i++) {
		const struct pfunc *f = &p->funcs[t->rows[i].fn];
		const struct pstat *st = t->rows[i].st;

		buf_printf(out, "%s\n{\"name\":", i ? "," : "");
		json_string(out, f->name);
		buf_printf(out,
			   ",\"calls\":%llu,\"self_ns\":%llu,\"inclusive_ns\":%llu,\"avg_ns\":%llu,"
			   "\"file\":",
			   (unsigned long long)st->calls, (unsigned long long)st->self_ns,
			   (unsigned long long)st->incl_ns, (unsigned long long)avg_ns(st));
		if (f->file)
			json_string(out, f->file);
		else
			buf_puts(out, "null");
		buf_printf(out, ",\"line\":%llu,\"module\":", (unsigned long long)f->line);
		if (f->module)
			json_string(out, f->module);
		else
			buf_puts(out, "null");
		if (st->has_cpu)
			buf_printf(out, ",\"cpu_ns\":%llu,\"cpu_self_ns\":%llu",
				   (unsigned long long)st->cpu_ns,
				   (unsigned long long)st->cpu_self_ns);
		if (st->has_timed)
			buf_printf(out,
				   ",\"timed_calls\":%llu,\"self_se_ns\":%llu,\"inclusive_se_ns\":%"
				   "llu",
				   (unsigned long long)st->timed_calls,
				   (unsigned long long)st->self_se_ns,
				   (unsigned long long)st->incl_se_ns);
		buf_puts(out, "}");
	}
	buf_printf(out, "],\"more\":%zu}", t->n - shown);
}

/* ---- warnings: what the runtime folded or dropped, as the report's index says it ---- */

/* warnings_of: one line per kind of trouble, summed over the threads of p. */
static void warnings_of(const struct profile *p, struct buf *lines)
{
	static const struct {
		enum run_counter k;
		const char *what;
	} kinds[] = {
		{ RUN_DROPPED_CALLS,
		  "calls were not recorded (a signal handler interrupted a probe, or no room); "
		  "figures are short" },
		{ RUN_FOLDED_CALLS,
		  "calls were folded to one level of context when a call tree reached its node "
		  "budget (CALLPROF_MAX_NODES); counts stay exact, paths are missing" },
		{ RUN_RESYNCED_FRAMES,
		  "activations ended without their exit probe (longjmp, or exceptions)" },
		{ RUN_UNMATCHED_EXITS, "exit probes had no open activation and were ignored" },
		{ RUN_CLOSED_AT_EXIT, "activations were still open when their thread ended" },
		{ RUN_OPEN_FRAMES,
		  "calls were still open when the dump was written and count up to it" },
	};
	char a[FMT_SIZE];

	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		uint64_t n = 0;
		size_t nthreads = 0;

		for (size_t t = 0; t < p->nthreads; t++) {
			n = u64_add(n, p->threads[t].counters[kinds[i].k]);
			nthreads += p->threads[t].counters[kinds[i].k] != 0;
		}
		if (n)
			buf_printf(lines, "warning: %s %s (%zu thread%s)\n", fmt_count(a, n),
				   kinds[i].what, nthreads, nthreads == 1 ? "" : "s");
	}
	if (p->clamped)
		buf_printf(lines,
			   "warning: %s compensated figures were clamped to 0 (the probe cost "
			   "exceeds what "
			   "some short calls measured)\n",
			   fmt_count(a, p->clamped));
	for (size_t d = 0; d < p->nruns; d++) {
		for (size_t i = 0; i < p->runs[d]->nwarnings; i++) {
			buf_puts(lines, "warning: ");
			buf_put_printable(lines, p->runs[d]->warnings[i]);
			buf_putc(lines, '\n');
		}
	}
}

/* ---- tables ---- */

/* table_fill: the wanted rows of the whole run (thread < 0) or of one thread, sorted. */
static void table_fill(struct table *t, const struct profile *p, int64_t thread, enum top_key key,
		       struct buf *label)
{
	const struct pthread *th = thread >= 0 ? &p->threads[thread] : NULL;
	size_t n = th ? th->nfuncs : p->nfuncs;

	t->rows = xmalloc((n + 1) * sizeof(*t->rows));
	t->n = 0;
	t->key = key;
	t->run_ns = th ? th->run_ns : p->run_ns;
	t->thread = NULL;
	for (size_t i = 0; i < n; i++) {
		uint32_t fn = th ? th->funcs[i].fn : (uint32_t)i;
		const struct pstat *st = th ? &th->funcs[i].st : &p->funcs[i].st;

		if (wanted(&p->funcs[fn]))
			t->rows[t->n++] = (struct row){ fn, st };
	}
	qsort_r(t->rows, t->n, sizeof(*t->rows), cmp_row, &t->key);
	if (th) {
		buf_reset(label);
		buf_printf(label, "thread %lld (tid %lld", (long long)thread + 1,
			   (long long)th->tid);
		if (p->nruns > 1)
			buf_printf(label, ", pid %lld", (long long)p->runs[th->run]->pid);
		if (th->name) {
			buf_puts(label, ", ");
			buf_put_printable(label, th->name);
		}
		buf_puts(label, ")");
		t->thread = label->data;
	}
}

enum top_format { FMT_TEXT, FMT_CSV, FMT_JSON };

static void print_profile(const struct profile *p, enum top_key key, enum top_format format)
{
	struct buf out = BUF_INIT, warn = BUF_INIT, label = BUF_INIT;
	char a[FMT_SIZE], b[FMT_SIZE];
	size_t ntables = o.threads ? p->nthreads : 1;

	buf_init(&warn);
	warnings_of(p, &warn);
	if (format == FMT_TEXT) {
		buf_printf(&out, "%zu dump%s, %zu thread%s, %s call%s, %s profiled\n", p->nruns,
			   p->nruns == 1 ? "" : "s", p->nthreads, p->nthreads == 1 ? "" : "s",
			   fmt_count(a, p->calls), p->calls == 1 ? "" : "s", fmt_ns(b, p->run_ns));
		if (p->runs[0]->sample_rate)
			buf_puts(&out, "sampled timing: times are estimates, ±self one standard "
				       "error of the self time\n");
		buf_add(&out, warn.data, warn.len);
		buf_putc(&out, '\n');
	} else {
		fputs(warn.data, stderr);
	}
	if (format == FMT_CSV)
		buf_puts(&out, "thread,calls,self_ns,inclusive_ns,avg_ns,self_share,name,file,line,"
			       "module\n");
	if (format == FMT_JSON) {
		buf_printf(&out,
			   "{\"dumps\":%zu,\"threads\":%zu,\"calls\":%llu,\"run_ns\":%llu,\"sort\":"
			   "\"%s\","
			   "\"warnings\":[",
			   p->nruns, p->nthreads, (unsigned long long)p->calls,
			   (unsigned long long)p->run_ns, o.sort);
		for (char *line = warn.data, *nl; *line; line = nl + 1) {
			nl = strchr(line, '\n');
			*nl = '\0';
			buf_puts(&out, line == warn.data ? "" : ",");
			json_string(&out, line + strlen("warning: "));
		}
		buf_puts(&out, "],\"tables\":[");
	}
	for (size_t k = 0; k < ntables; k++) {
		struct table t;
		size_t shown;

		table_fill(&t, p, o.threads ? (int64_t)k : -1, key, &label);
		shown = o.limit && o.limit < t.n ? o.limit : t.n;
		if (format == FMT_TEXT)
			text_table(&out, p, &t, shown);
		else if (format == FMT_CSV)
			csv_table(&out, p, &t, shown);
		else
			json_table(&out, p, &t, shown, k == 0);
		free(t.rows);
	}
	if (format == FMT_JSON)
		buf_puts(&out, "]}\n");
	fwrite(out.data, 1, out.len, stdout);
	buf_release(&out);
	buf_release(&warn);
	buf_release(&label);
}

/* parse_choices: --sort and --format as enums, and the regex compiled; 0, or the exit status. */
static int parse_choices(enum top_key *key, enum top_format *format)
{
	static const char *const keys[KEYS] = { "self", "incl", "calls", "avg", "cpu", "offcpu" };
	static const char *const formats[] = { "text", "csv", "json" };
	size_t i;
	int rc;

	for (i = 0; i < KEYS && strcmp(o.sort, keys[i]); i++)
		;
	if (i == KEYS)
		return opts_error(&top_cmd,
				  "--sort wants self, incl, calls, avg, cpu or offcpu, not '%s'",
				  o.sort);
	*key = (enum top_key)i;
	for (i = 0; i < 3 && strcmp(o.format, formats[i]); i++)
		;
	if (i == 3)
		return opts_error(&top_cmd, "--format wants text, csv or json, not '%s'", o.format);
	*format = (enum top_format)i;
	if (o.regex && (rc = regcomp(&name_re, o.regex, REG_EXTENDED | REG_NOSUB)) != 0) {
		char why[128];

		regerror(rc, &name_re, why, sizeof(why));
		return opts_error(&top_cmd, "--regex '%s': %s", o.regex, why);
	}
	return 0;
}

int cmd_top(int argc, char **argv)
{
	struct opts_list args;
	struct dump *dumps;
	struct profile prof;
	enum top_key key = KEY_SELF;
	enum top_format format = FMT_TEXT;
	int rc;

	memset(&o, 0, sizeof(o));
	o.sort = "self";
	o.format = "text";
	rc = opts_parse(&top_cmd, argc, argv, &args);
	if (rc)
		return rc == OPTS_HELP ? 0 : rc;
	if (!args.n)
		rc = opts_error(&top_cmd, "no dump given");
	else
		rc = parse_choices(&key, &format);
	if (rc) {
		opts_list_release(&args);
		return rc;
	}
	rc = 2;
	if (dumps_load(&dumps, args.v, args.n) == 0) {
		rc = profile_build(&prof, dumps, args.n) < 0 ? 2 : 0;
		if (rc == 0) {
			print_profile(&prof, key, format);
			profile_release(&prof);
		}
		dumps_free(dumps, args.n);
	}
	if (o.regex)
		regfree(&name_re);
	opts_list_release(&args);
	return rc;
}
