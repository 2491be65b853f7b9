/* render_function.c: fn/<i>.html, one page per function: its figures, who calls it,
 * what it calls, the hottest paths that reach it and its figures per thread. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cell.h"
#include "fmt.h"
#include "html.h"
#include "layout.h"
#include "link.h"
#include "note.h"
#include "progress.h"
#include "render.h"

#define FN_PATHS 5      /* hottest call paths shown */
#define FN_PATH_HEAD 4  /* a long path shows its first frames ... */
#define FN_PATH_TAIL 10 /* ... and its last ones */
#define FN_MAX_ROWS 50  /* callers or callees listed; the rest are summed in one line */
#define FN_PARTS 10     /* pieces of a function page */
#define FN_MAX_VALUES \
	20 /* argument tuples or return values listed; the rest are summed in one line */
#define FN_MAX_THREADS 16 /* threads listed; the rest are summed in one line */

static void tile(struct buf *out, const char *id, const char *label, uint64_t v, const char *text,
		 const char *note)
{
	buf_printf(out, "<div><dt>%s</dt><dd id=\"%s\" data-v=\"%llu\">%s</dd>", label, id,
		   (unsigned long long)v, text);
	if (note)
		buf_printf(out, "<dd class=\"note\">%s</dd>", note);
	buf_puts(out, "</div>\n");
}

static void figures(struct buf *out, const struct profile *p, const struct pfunc *f)
{
	const struct pstat *st = &f->st;
	char a[FMT_SIZE], b[FMT_SIZE], note[2 * FMT_SIZE], est[CELL_ESTIMATE_SIZE];

	tile(out, "fig-calls", "Calls", st->calls, fmt_count(a, st->calls), NULL);
	snprintf(note, sizeof(note), "%s of the run", fmt_pct(b, st->incl_ns, p->run_ns));
	tile(out, "fig-incl", "Inclusive", st->incl_ns,
	     cell_estimate(est, st->incl_ns, st->incl_se_ns, st->has_timed), note);
	snprintf(note, sizeof(note), "%s of the run", fmt_pct(b, st->self_ns, p->run_ns));
	tile(out, "fig-self", "Self", st->self_ns,
	     cell_estimate(est, st->self_ns, st->self_se_ns, st->has_timed), note);
	uint64_t avg = st->calls ? st->incl_ns / st->calls : 0;
	tile(out, "fig-avg", "Average per call", avg, fmt_ns(a, avg), "inclusive");
	if (st->has_minmax) {
		const char *raw = st->has_timed    ? "of the timed calls"
				  : p->compensated ? "uncompensated"
						   : NULL;

		tile(out, "fig-min", "Shortest call", st->min_ns, fmt_ns(a, st->min_ns), raw);
		tile(out, "fig-max", "Longest call", st->max_ns, fmt_ns(a, st->max_ns), raw);
	}
	if (p->compensated) {
		snprintf(note, sizeof(note), "self %s", fmt_ns(b, st->raw_self_ns));
		tile(out, "fig-raw", "Uncompensated", st->raw_incl_ns, fmt_ns(a, st->raw_incl_ns),
		     note);
	}
	if (st->has_cpu) {
		uint64_t off = st->incl_ns - st->cpu_ns, off_self = pstat_off_cpu_self(st);

		snprintf(note, sizeof(note), "self %s", fmt_ns(b, st->cpu_self_ns));
		tile(out, "fig-cpu", "On a CPU", st->cpu_ns, fmt_ns(a, st->cpu_ns), note);
		snprintf(note, sizeof(note), "self %s", fmt_ns(b, off_self));
		tile(out, "fig-offcpu", "Off the CPU", off, fmt_ns(a, off), note);
	}
}

/* probe_cost: what the probes of f's own calls cost, in ns (calls x per-call cost, at
 * the fenced reads' cost for its fenced calls, the -pg -mfentry probes' and the library
 * probes' for theirs, nothing for the calls counted without a time). */
static double probe_cost(const struct profile *p, const struct pfunc *f)
{
	uint64_t fenced = f->st.has_fenced ? f->st.fenced_calls : 0;
	uint64_t other = u64_add(u64_add(u64_add(fenced, f->st.fentry_calls), f->st.library_calls),
				 f->st.counted_calls);
	uint64_t plain = f->st.calls > other ? f->st.calls - other : 0;
	double ns = (double)plain * p->probe_ns + (double)fenced * p->fenced_probe_ns +
		    (double)f->st.fentry_calls *
			    (p->fentry_probe_ns ? p->fentry_probe_ns : p->probe_ns) +
		    (double)f->st.library_calls *
			    (p->library_probe_ns ? p->library_probe_ns : p->probe_ns);

	return ns < PROFILE_MAX_NS ? ns : PROFILE_MAX_NS;
}

/*
 * fenced_reads: how many of f's calls read the clock with fences, said only
 * when a dump counted them (CALLPROF_CLOCK=tsc-adaptive): those calls' times
 * are exact even where a plain read would let a function's last cache miss
 * land in its caller, so the reader knows which figures to trust.
 */
/* calls_note: a notice "LEAD n of CALLS calls TAIL", n with its value for scripts. */
static void calls_note(struct buf *out, const char *id, const char *lead, uint64_t n,
		       uint64_t calls, const char *tail)
{
	char a[FMT_SIZE], b[FMT_SIZE];

	buf_printf(out,
		   "<li class=\"info\" id=\"%s\">%s<span data-v=\"%llu\">%s</span> of %s call%s "
		   "%s</li>\n",
		   id, lead, (unsigned long long)n, fmt_count(a, n), fmt_count(b, calls),
		   calls == 1 ? "" : "s", tail);
}

static void fenced_reads(struct buf *out, const struct pfunc *f)
{
	if (f->st.has_fenced)
		calls_note(out, "fenced", "Clock reads: fenced for ", f->st.fenced_calls,
			   f->st.calls,
			   "(times of those calls are exact; see CALLPROF_CLOCK in the README).");
}

/*
 * timed_calls: under sampled timing, how many of f's calls its times were
 * estimated from, and their standard errors: the figures are estimates.
 */
static void timed_calls(struct buf *out, const struct pfunc *f)
{
	char a[FMT_SIZE], b[FMT_SIZE], c[FMT_SIZE], d[FMT_SIZE];

	if (!f->st.has_timed)
		return;
	buf_printf(out,
		   "<li class=\"info\" id=\"sampled\">Times estimated from <span "
		   "data-v=\"%llu\">%s</span> timed of %s call%s (CALLPROF_TIMING=sampled): "
		   "standard error %s inclusive, %s self (&asymp; marks an estimate).</li>\n",
		   (unsigned long long)f->st.timed_calls, fmt_count(a, f->st.timed_calls),
		   fmt_count(b, f->st.calls), f->st.calls == 1 ? "" : "s",
		   fmt_ns(c, f->st.incl_se_ns), fmt_ns(d, f->st.self_se_ns));
}

/*
 * cpu_reads: with CPU time, what its figures rest on: how many of f's calls
 * read the thread's CPU clock, and what off-CPU time is.
 */
static void cpu_reads(struct buf *out, const struct pfunc *f)
{
	if (f->st.has_cpu)
		calls_note(
			out, "cpu", "CPU time read on ", f->st.cpu_calls, f->st.calls,
			"(a calling context's first call and those after a long one): off-CPU "
			"time is time spent blocked, asleep or waiting to run, in the share those "
			"calls had; calls that never read it count as on a CPU.");
}

/*
 * unrecorded_calls: the calls f made that a filter or the depth limit left
 * unrecorded.  Their callees attach to f, and their probes ran in f's self
 * time: the reader learns why f's self time holds work of functions the
 * profile does not show, and that those probes were taken out.
 */
static void unrecorded_calls(struct buf *out, const struct profile *p, const struct pfunc *f)
{
	uint64_t n = 0;
	char a[FMT_SIZE];

	for (unsigned k = 0; k < UNREC_KINDS; k++)
		n = u64_add(n, f->st.unrecorded_calls[k]);
	if (!n)
		return;
	buf_printf(out,
		   "<li class=\"info\" id=\"unrecorded\"><span data-v=\"%llu\">%s</span> call%s "
		   "it made %s not recorded (left out by CALLPROF_INCLUDE or CALLPROF_EXCLUDE, "
		   "or deeper than CALLPROF_MAX_DEPTH): their time is in its self time, their "
		   "callees are shown as its own, and their probes' cost %s.</li>\n",
		   (unsigned long long)n, fmt_count(a, n), n == 1 ? "" : "s",
		   n == 1 ? "was" : "were",
		   p->compensated ? "was taken out of its times" : "is still in its times");
}

/*
 * overhead: what compensation took from this function's figures, how its
 * clock was read, and a warning where they deserve little trust: its probes
 * cost more than its own measured time, or compensation took more than half
 * of a raw figure.
 */
static void overhead(struct buf *out, const struct profile *p, const struct pfunc *f)
{
	const struct pstat *st = &f->st;
	uint64_t cut_incl = st->raw_incl_ns > st->incl_ns ? st->raw_incl_ns - st->incl_ns : 0;
	uint64_t cut_self = st->raw_self_ns > st->self_ns ? st->raw_self_ns - st->self_ns : 0;
	double probes = probe_cost(p, f);
	/* What one of its calls costs: the -pg -mfentry probes' figures for a function they probed. */
	int fentry = f->front_end && !strcmp(f->front_end, "mfentry") && p->fentry_probe_ns > 0;
	double o_in = fentry ? p->fentry_o_in_ns : p->o_in_ns,
	       probe_ns = fentry ? p->fentry_probe_ns : p->probe_ns;
	char a[FMT_SIZE], b[FMT_SIZE], c[FMT_SIZE], d[FMT_SIZE];

	if (!p->has_overhead && !p->compensated && !st->has_fenced && !st->has_cpu)
		return;
	buf_puts(out, "<ul class=\"notices\" id=\"overhead\">\n");
	if (p->compensated) {
		buf_printf(out,
			   "<li class=\"info\" id=\"subtracted\">The probes' measured cost is "
			   "subtracted: "
			   "<span data-v=\"%llu\">%s</span> from the inclusive time",
			   (unsigned long long)cut_incl, fmt_ns(a, cut_incl));
		if (p->has_overhead)
			buf_printf(out, " (%s for each of its calls, %s for each call below it)",
				   fmt_ns_f(c, o_in), fmt_ns_f(d, p->probe_ns));
		buf_printf(out, " and <span data-v=\"%llu\">%s</span> from the self time",
			   (unsigned long long)cut_self, fmt_ns(b, cut_self));
		if (p->has_overhead)
			buf_printf(out, " (%s for each of its calls, %s for each call it makes)",
				   fmt_ns_f(c, o_in), fmt_ns_f(d, p->probe_ns - p->o_in_ns));
		buf_puts(out, ".</li>\n");
	} else if (p->has_overhead) {
		buf_printf(
			out,
			"<li class=\"info\" id=\"subtracted\">These figures still hold the probes' "
			"cost: "
			"about %s for its own calls (%s each), more for the calls below it.</li>\n",
			fmt_ns_f(a, probes), fmt_ns_f(b, probe_ns));
	}
	fenced_reads(out, f);
	timed_calls(out, f);
	cpu_reads(out, f);
	unrecorded_calls(out, p, f);
	if (p->has_overhead && st->calls && probes > (double)st->raw_self_ns)
		buf_printf(out,
			   "<li class=\"warn\" id=\"probe-exceeds\">Its probes cost more than its "
			   "own measured "
			   "time: about %s for its calls against %s of raw self time (%s against "
			   "%s a call). "
			   "Its figures are the least trustworthy of this profile.</li>\n",
			   fmt_ns_f(a, probes), fmt_ns(b, st->raw_self_ns), fmt_ns_f(c, probe_ns),
			   fmt_ns_f(d, (double)st->raw_self_ns / (double)st->calls));
	if (p->compensated && pstat_doubtful(st->raw_incl_ns, st->incl_ns))
		buf_printf(
			out,
			"<li class=\"warn\" id=\"doubtful-incl\">Compensation took more than half "
			"of its raw "
			"inclusive time (%s of %s): treat the inclusive figure with care.</li>\n",
			fmt_ns(a, cut_incl), fmt_ns(b, st->raw_incl_ns));
	if (p->compensated && pstat_doubtful(st->raw_self_ns, st->self_ns))
		buf_printf(out,
			   "<li class=\"warn\" id=\"doubtful-self\">Compensation took more than "
			   "half of its raw "
			   "self time (%s of %s): treat the self figure with care.</li>\n",
			   fmt_ns(a, cut_self), fmt_ns(b, st->raw_self_ns));
	buf_puts(out, "</ul>\n");
}

/* rest_line: what the rows past FN_MAX_ROWS add up to (edge indices in list, n of them). */
static void rest_line(struct buf *out, const struct profile *p, const uint32_t *list, size_t n,
		      const char *what, int cols)
{
	uint64_t calls = 0, incl = 0;
	char a[FMT_SIZE], b[FMT_SIZE];

	if (n <= FN_MAX_ROWS)
		return;
	for (size_t i = FN_MAX_ROWS; i < n; i++) {
		calls = u64_add(calls, p->edges[list[i]].calls);
		incl = u64_add(incl, p->edges[list[i]].incl_ns);
	}
	buf_printf(out,
		   "<tfoot><tr><td colspan=\"%d\" class=\"hidden-note\">%zu more %s, lighter: "
		   "%s calls, %s inclusive in all</td></tr></tfoot>\n",
		   cols, n - FN_MAX_ROWS, what, fmt_count(a, calls), fmt_ns(b, incl));
}

static void callers(struct buf *out, const struct profile *p, const struct pfunc *f)
{
	unsigned sites = 0;

	if (!f->ncallers) {
		buf_puts(out, "<p class=\"muted\">No recorded callers.</p>\n");
		return;
	}
	buf_puts(out, "<table class=\"profile sortable\" id=\"callers\">\n<thead><tr>"
		      "<th data-sort=\"text\">Caller</th><th data-sort=\"num\">Calls</th>"
		      "<th data-sort=\"num\" class=\"sorted\" aria-sort=\"descending\">Inclusive "
		      "from there</th>");
	if (p->has_cpu)
		buf_puts(out, "<th data-sort=\"num\" title=\"Of the inclusive time from there, the "
			      "time on a CPU\">On a CPU</th>");
	buf_puts(out, "<th data-sort=\"num\">Self from there</th><th data-sort=\"num\">Share of "
		      "calls</th>"
		      "<th data-sort=\"text\">Call site</th></tr></thead>\n<tbody>\n");
	for (size_t i = 0; i < f->ncallers && i < FN_MAX_ROWS; i++) {
		const struct pedge *e = &p->edges[p->by_callee[f->callers + i]];

		buf_puts(out, "<tr><td class=\"name\">");
		if (e->caller >= 0)
			link_fn(out, p, (uint32_t)e->caller, LINK_FN_ROOT);
		else
			buf_puts(out, "<span class=\"muted\">(thread root: called from "
				      "uninstrumented code)</span>");
		buf_puts(out, "</td>");
		cell_count(out, e->calls);
		cell_time(out, e->incl_ns);
		if (p->has_cpu)
			cell_time(out, e->cpu_ns);
		cell_time(out, e->self_ns);
		cell_pct(out, e->calls, f->st.calls);
		sites |= cell_site(out, e->call_file, e->call_line, e->site, e->caller < 0);
		buf_puts(out, "</tr>\n");
	}
	buf_puts(out, "</tbody>\n");
	rest_line(out, p, p->by_callee + f->callers, f->ncallers, "callers", 6 + p->has_cpu);
	buf_puts(out, "</table>\n");
	cell_site_legend(out, sites);
}

/* library_callees: how many of f's callees are library functions. */
static size_t library_callees(const struct profile *p, const struct pfunc *f)
{
	size_t n = 0;

	for (size_t i = 0; i < f->ncallees; i++)
		n += p->funcs[p->edges[p->by_caller[f->callees + i]].callee].library != 0;
	return n;
}

/*
 * self_split: what f's self time would be without library probes, split into
 * its own code and each library function it called (their self time while
 * called from f; callbacks they made are instrumented code of their own).
 */
static void self_split(struct buf *out, const struct profile *p, const struct pfunc *f)
{
	uint64_t total = f->st.self_ns;
	size_t shown = 0;

	for (size_t i = 0; i < f->ncallees; i++) {
		const struct pedge *e = &p->edges[p->by_caller[f->callees + i]];
		if (p->funcs[e->callee].library)
			total = u64_add(total, e->self_ns);
	}
	buf_puts(out, "<table class=\"profile\" id=\"self-split\">\n<thead><tr><th>Where its own "
		      "time went</th>"
		      "<th>Time</th><th>Share</th><th>Calls</th></tr></thead>\n<tbody>\n"
		      "<tr><td class=\"name\">its own code</td>");
	cell_time(out, f->st.self_ns);
	cell_pct(out, f->st.self_ns, total);
	cell_count(out, f->st.calls);
	buf_puts(out, "</tr>\n");
	for (size_t i = 0; i < f->ncallees && shown < FN_MAX_ROWS; i++) {
		const struct pedge *e = &p->edges[p->by_caller[f->callees + i]];
		if (!p->funcs[e->callee].library)
			continue;
		buf_puts(out, "<tr><td class=\"name\">");
		link_fn(out, p, e->callee, LINK_FN_ROOT);
		buf_puts(out, "</td>");
		cell_time(out, e->self_ns);
		cell_pct(out, e->self_ns, total);
		cell_count(out, e->calls);
		buf_puts(out, "</tr>\n");
		shown++;
	}
	buf_puts(out, "</tbody>\n</table>\n");
}

/* self_note: what f's self time holds, which depends on library probes. */
static void self_note(struct buf *out, const struct profile *p, const struct pfunc *f)
{
	char a[FMT_SIZE], b[FMT_SIZE];

	buf_printf(out, "<p class=\"note\">Self time: %s, %s of this function's inclusive time. ",
		   fmt_ns(a, f->st.self_ns), fmt_pct(b, f->st.self_ns, f->st.incl_ns));
	if (f->library)
		buf_puts(out, "Its callees are the callbacks it made into instrumented code; the "
			      "rest of its "
			      "time was its own.</p>\n");
	else if (p->library_probes == 1)
		buf_puts(out, "Library functions it called are rows of their own (library probes); "
			      "time in "
			      "uninstrumented code of its own module is part of it.</p>\n");
	else
		buf_puts(out, "Time in callees that were not instrumented (the C library, other "
			      "libraries) "
			      "is part of it.</p>\n");
	if (!f->library && library_callees(p, f))
		self_split(out, p, f);
}

static void callees(struct buf *out, const struct profile *p, const struct pfunc *f)
{
	unsigned sites = 0;

	if (f->ncallees) {
		buf_puts(out, "<table class=\"profile sortable\" id=\"callees\">\n<thead><tr>"
			      "<th data-sort=\"text\">Callee</th><th data-sort=\"num\">Calls</th>"
			      "<th data-sort=\"num\" class=\"sorted\" "
			      "aria-sort=\"descending\">Inclusive</th>");
		if (p->has_cpu)
			buf_puts(out,
				 "<th data-sort=\"num\" title=\"Of the inclusive time, the time "
				 "on a CPU\">On a CPU</th>");
		buf_puts(out, "<th data-sort=\"num\">Share of this function</th>"
			      "<th data-sort=\"num\">Avg / call</th><th data-sort=\"text\">Call "
			      "site</th>"
			      "</tr></thead>\n<tbody>\n");
		for (size_t i = 0; i < f->ncallees && i < FN_MAX_ROWS; i++) {
			const struct pedge *e = &p->edges[p->by_caller[f->callees + i]];

			buf_puts(out, "<tr><td class=\"name\">");
			link_fn(out, p, e->callee, LINK_FN_ROOT);
			buf_puts(out, "</td>");
			cell_count(out, e->calls);
			cell_time(out, e->incl_ns);
			if (p->has_cpu)
				cell_time(out, e->cpu_ns);
			cell_pct(out, e->incl_ns, f->st.incl_ns);
			cell_time(out, e->calls ? e->incl_ns / e->calls : 0);
			sites |= cell_site(out, e->call_file, e->call_line, e->site, 0);
			buf_puts(out, "</tr>\n");
		}
		buf_puts(out, "</tbody>\n");
		rest_line(out, p, p->by_caller + f->callees, f->ncallees, "callees",
			  6 + p->has_cpu);
		buf_puts(out, "</table>\n");
		cell_site_legend(out, sites);
	} else {
		buf_puts(out,
			 f->library
				 ? "<p class=\"muted\">It called no instrumented function "
				   "back.</p>\n"
				 : "<p class=\"muted\">It calls no instrumented function.</p>\n");
	}
	self_note(out, p, f);
}

/* library_note: for a library function, what it is and how it was probed. */
static void library_note(struct buf *out, const struct pfunc *f)
{
	char a[FMT_SIZE], b[FMT_SIZE];

	if (!f->library)
		return;
	buf_puts(out, "<ul class=\"notices\" id=\"library\"><li class=\"info\">A library function");
	if (f->module) {
		buf_puts(out, " of <code>");
		html_escape(out, f->module);
		buf_puts(out, "</code>");
	}
	buf_printf(out,
		   ", probed where instrumented code called it through its GOT: %s of its %s calls "
		   "were followed to their return",
		   fmt_count(a, f->st.library_calls), fmt_count(b, f->st.calls));
	if (f->st.counted_calls)
		buf_printf(out,
			   ", %s counted without a frame (it never returns, returns twice, or "
			   "reads its "
			   "caller's return address)",
			   fmt_count(a, f->st.counted_calls));
	buf_puts(out, ". The callers below are instrumented code; its calls are the callbacks it "
		      "made into "
		      "it.</li></ul>\n");
}

/* front_end: which probes counted the function, when a dump says. */
static void front_end(struct buf *out, const struct pfunc *f)
{
	if (!f->front_end)
		return;
	buf_puts(out, " <span class=\"front-end\" id=\"front-end\">\xc2\xb7 probed by ");
	if (!strcmp(f->front_end, "mfentry"))
		buf_puts(out, "<code>-pg -mfentry</code> (its first instruction calls __fentry__)");
	else if (!strcmp(f->front_end, "finstrument"))
		buf_puts(out, "<code>-finstrument-functions</code>");
	else if (!strcmp(f->front_end, "library"))
		buf_puts(out,
			 "a library probe (where instrumented code called it through its GOT)");
	else
		html_escape(out, f->front_end);
	buf_puts(out, "</span>");
}

/* values_rest: what the rows past FN_MAX_VALUES add up to. */
static void values_rest(struct buf *out, const struct pvalue *v, size_t n, const uint32_t *order,
			int cols)
{
	uint64_t calls = 0;
	char a[FMT_SIZE];

	if (n <= FN_MAX_VALUES)
		return;
	for (size_t i = FN_MAX_VALUES; i < n; i++)
		calls = u64_add(calls, v[order ? order[i] : i].calls);
	buf_printf(out,
		   "<tfoot><tr><td colspan=\"%d\" class=\"hidden-note\">%zu more, %s calls in "
		   "all</td></tr></tfoot>\n",
		   cols, n - FN_MAX_VALUES, fmt_count(a, calls));
}

/* tuples: the calls as captured, ranked by `order` (NULL: by calls), in a table of id `id`. */
static void tuples(struct buf *out, const struct pargs *a, const uint32_t *order, const char *id,
		   const char *sorted)
{
	buf_printf(out,
		   "<table class=\"profile values\" id=\"%s\">\n<thead><tr><th>Call</th>"
		   "<th%s>Calls</th><th>Share of calls</th><th%s>Inclusive</th><th>Avg / call</th>"
		   "<th>Shortest</th><th>Longest</th></tr></thead>\n<tbody>\n",
		   id, !strcmp(sorted, "calls") ? " class=\"sorted\"" : "",
		   !strcmp(sorted, "time") ? " class=\"sorted\"" : "");
	for (size_t i = 0; i < a->ntuples && i < FN_MAX_VALUES; i++) {
		const struct pvalue *v = &a->tuples[order ? order[i] : i];

		buf_puts(out, "<tr><td class=\"name\"><code>");
		html_escape(out, v->text);
		buf_puts(out, "</code></td>");
		cell_count(out, v->calls);
		cell_pct(out, v->calls, a->calls);
		cell_time(out, v->incl_ns);
		cell_time(out, v->timed_calls ? v->incl_ns / v->timed_calls : 0);
		cell_time(out, v->min_ns);
		cell_time(out, v->max_ns);
		buf_puts(out, "</tr>\n");
	}
	buf_puts(out, "</tbody>\n");
	values_rest(out, a->tuples, a->ntuples, order, 7);
	buf_puts(out, "</table>\n");
}

static void returned(struct buf *out, const struct pargs *a)
{
	buf_puts(out, "<h3>Returned</h3>\n");
	if (!a->nreturned) {
		buf_puts(out, "<p class=\"muted\">No return value was captured.</p>\n");
		return;
	}
	buf_puts(
		out,
		"<table class=\"profile values\" id=\"returned\">\n<thead><tr><th>Value</th>"
		"<th class=\"sorted\">Calls</th><th>Share of returns</th></tr></thead>\n<tbody>\n");
	for (size_t i = 0; i < a->nreturned && i < FN_MAX_VALUES; i++) {
		buf_puts(out, "<tr><td class=\"name\"><code>");
		html_escape(out, a->returned[i].text);
		buf_puts(out, "</code></td>");
		cell_count(out, a->returned[i].calls);
		cell_pct(out, a->returned[i].calls, a->returned_calls);
		buf_puts(out, "</tr>\n");
	}
	buf_puts(out, "</tbody>\n");
	values_rest(out, a->returned, a->nreturned, NULL, 3);
	buf_puts(out, "</table>\n");
}

/* The most any count of a list may exceed its value's own calls (space-saving's error). */
static uint64_t max_error(const struct pvalue *v, size_t n)
{
	uint64_t e = 0;

	for (size_t i = 0; i < n; i++)
		if (v[i].error > e)
			e = v[i].error;
	return e;
}

/* values: the arguments it was called with and the values it returned (CALLPROF_ARGS). */
static void values(struct buf *out, const struct profile *p, const struct pfunc *f)
{
	const struct pargs *a = f->args;
	char x[FMT_SIZE], y[FMT_SIZE];
	uint64_t err;

	if (!a)
		return;
	buf_puts(out, "<section id=\"values\">\n<h2>Arguments and return values</h2>\n");
	if (a->refused) {
		buf_puts(out, "<p class=\"muted\" id=\"args-refused\">CALLPROF_ARGS selected this "
			      "function, "
			      "but its arguments were not captured: ");
		html_escape(out, a->refused);
		buf_puts(out, ".</p>\n</section>\n");
		return;
	}
	buf_printf(out,
		   "<p class=\"hint\">%s call%s captured; each dump kept its %s most frequent "
		   "argument "
		   "tuples and return values, and counted every call.",
		   fmt_count(x, a->calls), a->calls == 1 ? "" : "s", fmt_count(y, a->entries));
	if ((err = max_error(a->tuples, a->ntuples)) > 0)
		buf_printf(out,
			   " Counts are at most %s above the true ones (a value that took "
			   "another's entry "
			   "inherits its count).",
			   fmt_count(x, err));
	buf_puts(out, "</p>\n");
	if (f->st.capture_ns)
		buf_printf(out,
			   "<p class=\"hint\" id=\"capture-cost\">Capturing them cost <span "
			   "data-v=\"%llu\">%s</span> in all, measured on every call: outside this "
			   "function's times, inside its callers', %s.</p>\n",
			   (unsigned long long)f->st.capture_ns, fmt_ns(x, f->st.capture_ns),
			   p->compensated ? "and taken out of theirs with the probes' cost"
					  : "and still in theirs");
	buf_puts(out, "<h3>Called with, by time</h3>\n");
	tuples(out, a, a->by_time, "called-with-time", "time");
	buf_puts(out, "<h3>Called with, by calls</h3>\n");
	tuples(out, a, NULL, "called-with-calls", "calls");
	if (a->returns)
		returned(out, a);
	buf_puts(out, "</section>\n");
}

/* path_frames: the functions from a root down to node, root first, in *frames (grown as needed). */
static size_t path_frames(const struct ptree *t, uint32_t node, uint32_t **frames, size_t *cap)
{
	size_t n = 0;

	for (int64_t i = node; i >= 0; i = t->nodes[i].parent) {
		if (n == *cap)
			*frames = xreallocarray(*frames, *cap = *cap ? 2 * *cap : 64,
						sizeof(**frames));
		(*frames)[n++] = t->nodes[i].fn;
	}
	for (size_t i = 0; i < n / 2; i++) {
		uint32_t x = (*frames)[i];
		(*frames)[i] = (*frames)[n - 1 - i];
		(*frames)[n - 1 - i] = x;
	}
	return n;
}

static void paths(struct buf *out, const struct profile *p, const struct pfunc *f)
{
	const struct ptree *t = &p->tree;
	size_t n = f->nnodes < FN_PATHS ? f->nnodes : FN_PATHS, cap = 0;
	uint32_t *frames = NULL;
	char a[FMT_SIZE], b[FMT_SIZE], c[FMT_SIZE];

	if (!n) {
		buf_puts(out, "<p class=\"muted\">Not in the call tree.</p>\n");
		return;
	}
	buf_printf(out,
		   "<p class=\"note\">%s distinct call path%s reach%s this function; the "
		   "hottest:</p>\n"
		   "<ol class=\"paths\" id=\"paths\">\n",
		   fmt_count(a, f->nnodes), f->nnodes == 1 ? "" : "s", f->nnodes == 1 ? "es" : "");
	for (size_t k = 0; k < n; k++) {
		uint32_t node = p->fn_nodes[f->nodes + k];
		size_t len = path_frames(t, node, &frames, &cap);

		buf_puts(out, "<li><span class=\"path\">");
		for (size_t i = 0; i < len; i++) {
			if (len > FN_PATH_HEAD + FN_PATH_TAIL + 1 && i == FN_PATH_HEAD) {
				buf_printf(out,
					   "<span class=\"elided\">\xe2\x80\xa6 %zu frames "
					   "\xe2\x80\xa6</span>"
					   "<span class=\"sep\"> \xe2\x80\xba </span>",
					   len - FN_PATH_HEAD - FN_PATH_TAIL);
				i = len - FN_PATH_TAIL;
			}
			if (i)
				buf_puts(out, "<span class=\"sep\"> \xe2\x80\xba </span>");
			link_fn(out, p, frames[i], LINK_FN_ROOT);
		}
		buf_printf(out,
			   "</span> <span class=\"figs\">%s call%s, %s inclusive (%s of this "
			   "function)</span></li>\n",
			   fmt_count(a, t->nodes[node].calls), t->nodes[node].calls == 1 ? "" : "s",
			   fmt_ns(b, t->nodes[node].incl_ns),
			   fmt_pct(c, t->nodes[node].incl_ns, f->st.incl_ns));
	}
	buf_puts(out, "</ol>\n");
	free(frames);
}

static void per_thread(struct buf *out, const struct profile *p, const struct pfunc *f)
{
	const struct pfstat *rest = NULL;
	char a[FMT_SIZE], b[FMT_SIZE];

	if (p->nthreads < 2) {
		buf_puts(out, "<p class=\"muted\">The run had one thread.</p>\n");
		return;
	}
	buf_puts(
		out,
		"<table class=\"profile sortable\" id=\"per-thread\">\n<thead><tr>"
		"<th data-sort=\"text\">Thread</th><th data-sort=\"num\">Calls</th>"
		"<th data-sort=\"num\" class=\"sorted\" aria-sort=\"descending\">Self</th>"
		"<th data-sort=\"num\">Inclusive</th><th data-sort=\"num\">Share of the thread</th>"
		"</tr></thead>\n<tbody>\n");
	for (size_t i = 0; i < f->nthreads; i++) {
		const struct pfstat *s = &p->fn_threads[f->threads + i];

		if (i == FN_MAX_THREADS) {
			rest = &p->fn_threads[f->threads + i];
			break;
		}
		buf_puts(out, "<tr><td class=\"name\">");
		link_thread_page(out, p, s->fn, LINK_FN_ROOT);
		buf_puts(out, "</td>");
		cell_count(out, s->st.calls);
		cell_time(out, s->st.self_ns);
		cell_time(out, s->st.incl_ns);
		cell_pct(out, s->st.incl_ns, p->threads[s->fn].run_ns);
		buf_puts(out, "</tr>\n");
	}
	buf_puts(out, "</tbody>\n");
	if (rest) {
		size_t n = f->nthreads - FN_MAX_THREADS;
		uint64_t calls = 0, self = 0;

		for (size_t i = 0; i < n; i++) {
			calls = u64_add(calls, rest[i].st.calls);
			self = u64_add(self, rest[i].st.self_ns);
		}
		buf_printf(out,
			   "<tfoot><tr><td colspan=\"5\" class=\"hidden-note\">%zu more threads, "
			   "each with "
			   "less self time: %s calls, %s self in all</td></tr></tfoot>\n",
			   n, fmt_count(a, calls), fmt_ns(b, self));
	}
	buf_puts(out, "</table>\n");
}

static int render_one(struct render_ctx *ctx, uint32_t fn, struct buf parts[FN_PARTS])
{
	const struct profile *p = ctx->prof;
	const struct pfunc *f = &p->funcs[fn];
	char path[48];
	enum { NAME, LOCATION, FIGURES, CALLERS, CALLEES, PATHS, THREADS, OVERHEAD, PROBE, VALUES };
	const char *calls_heading = f->library ? "Callbacks into the program" : "Calls";
	const char *calls_hint =
		f->library ? "The instrumented functions this library function called back, "
			     "costliest first: time in each and its share of this function's "
			     "inclusive time."
			   : "What this function calls, costliest first: time in each callee "
			     "and its share of this function's inclusive time.";

	for (int i = 0; i < FN_PARTS; i++)
		buf_reset(&parts[i]);
	html_escape(&parts[NAME], f->name[0] ? f->name : "(anonymous)");
	note_location(&parts[LOCATION], f->file, f->line, f->module);
	figures(&parts[FIGURES], p, f);
	callers(&parts[CALLERS], p, f);
	callees(&parts[CALLEES], p, f);
	paths(&parts[PATHS], p, f);
	per_thread(&parts[THREADS], p, f);
	overhead(&parts[OVERHEAD], p, f);
	library_note(&parts[OVERHEAD], f);
	front_end(&parts[PROBE], f);
	values(&parts[VALUES], p, f);

	struct tmpl_var vars[] = {
		{ "root", LINK_FN_ROOT },
		{ "name", parts[NAME].data },
		{ "location", parts[LOCATION].data },
		{ "figures", parts[FIGURES].data },
		{ "callers", parts[CALLERS].data },
		{ "callees", parts[CALLEES].data },
		{ "paths", parts[PATHS].data },
		{ "threads", parts[THREADS].data },
		{ "overhead", parts[OVERHEAD].data },
		{ "calls_heading", calls_heading },
		{ "calls_hint", calls_hint },
		{ "probe", parts[PROBE].data },
		{ "values", parts[VALUES].data },
	};
	link_fn_path(path, sizeof(path), fn);
	return layout_page(ctx, path, LINK_FN_ROOT, "functions", f->name, "function.html", vars,
			   sizeof(vars) / sizeof(vars[0]));
}

int render_function(struct render_ctx *ctx)
{
	struct buf parts[FN_PARTS];
	int rc = 0;

	for (int i = 0; i < FN_PARTS; i++)
		buf_init(&parts[i]);
	for (size_t fn = 0; fn < ctx->prof->nfuncs && rc == 0; fn++) {
		rc = render_one(ctx, (uint32_t)fn, parts);
		progress_count("writing function pages", fn + 1, ctx->prof->nfuncs);
	}
	for (int i = 0; i < FN_PARTS; i++)
		buf_release(&parts[i]);
	return rc;
}
