/* render_index.c: index.html: what ran, the hottest functions, the flat profile, the threads. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cell.h"
#include "fmt.h"
#include "html.h"
#include "layout.h"
#include "link.h"
#include "markdown.h"
#include "note.h"
#include "pager.h"
#include "render.h"
#include "table.h"

#define INDEX_TOP 10 /* rows in each "hottest" card */
#define INDEX_NOTICE_THREADS \
	16                /* threads whose notices are listed; the threads table marks the rest */
#define INDEX_WARNINGS 10 /* distinct warnings of the dumps listed */

static void fact(struct buf *out, const char *label, const char *html)
{
	buf_printf(out, "<div><dt>%s</dt><dd>%s</dd></div>\n", label, html);
}

/* same_args: every dump ran with the same arguments. */
static int same_args(const struct profile *p)
{
	const struct run *a = p->runs[0];

	for (size_t i = 1; i < p->nruns; i++) {
		const struct run *b = p->runs[i];

		if (a->argc != b->argc)
			return 0;
		for (size_t k = 1; k < a->argc; k++)
			if (strcmp(a->argv[k], b->argv[k]))
				return 0;
	}
	return 1;
}

/* same_program: every dump ran a program of one base name. */
static int same_program(const struct profile *p)
{
	const char *a = run_program_base(p->runs[0]);

	for (size_t i = 1; i < p->nruns; i++) {
		const char *b = run_program_base(p->runs[i]);

		if (!a != !b || (a && strcmp(a, b)))
			return 0;
	}
	return 1;
}

/*
 * facts_program: the program (or the programs of many dumps, counted), its
 * arguments when every dump had the same, and the dumps, folded past a few so
 * that hundreds of them do not push the hot lists down the page.
 */
static void facts_program(struct buf *out, const struct render_ctx *ctx, const struct profile *p)
{
	const struct run *d = p->runs[0];
	struct buf v = BUF_INIT;

	if (same_program(p)) {
		buf_puts(&v, "<code>");
		html_escape(&v, d->program ? d->program : d->argc ? d->argv[0] : "unknown");
		buf_puts(&v, "</code>");
		fact(out, "Program", v.data);
	} else {
		note_programs(&v, p);
		fact(out, "Programs", v.data);
	}
	if (d->argc > 1 && same_args(p)) {
		buf_reset(&v);
		note_args(&v, d, ctx->no_argv);
		fact(out, "Arguments", v.data);
	}
	buf_reset(&v);
	note_dumps(&v, p);
	fact(out, p->nruns > 1 ? "Dumps (merged)" : "Dump", v.data);
	buf_release(&v);
}

/* calibration_fenced: what a fenced read costs, which tsc-adaptive dumps measure beside the plain one. */
static void calibration_fenced(struct buf *v, const struct run *d)
{
	char a[FMT_SIZE], b[FMT_SIZE], c[FMT_SIZE];

	if (!d->has_fenced_o_in || !d->has_fenced_o_out)
		return;
	buf_printf(v, "; fenced reads %s per call (%s inside the callee, %s outside)",
		   fmt_ns_f(a, d->fenced_o_in_ns + d->fenced_o_out_ns),
		   fmt_ns_f(b, d->fenced_o_in_ns), fmt_ns_f(c, d->fenced_o_out_ns));
}

/* calibration_library: what a call a library probe followed costs. */
static void calibration_library(struct buf *v, const struct run *d)
{
	char a[FMT_SIZE], b[FMT_SIZE], c[FMT_SIZE];

	if (!d->has_library_o_in || !d->has_library_o_out)
		return;
	buf_printf(v, "; library calls %s per call (%s inside the callee, %s outside)",
		   fmt_ns_f(a, d->library_o_in_ns + d->library_o_out_ns),
		   fmt_ns_f(b, d->library_o_in_ns), fmt_ns_f(c, d->library_o_out_ns));
}

/* calibration_metered: what each kind's probes cost in the program beyond calibration's
 * loop, which its costs already hold. */
static void calibration_metered(struct buf *v, const struct run *d)
{
	static const char *const what[RUN_METERED_KINDS] = {
		"of which measured in this run beyond the calibration loop",
		"-pg -mfentry calls measured in this run beyond their calibration loop",
		"library calls measured in this run beyond their calibration loop"
	};
	char a[FMT_SIZE], b[FMT_SIZE], n[FMT_SIZE];

	for (unsigned k = 0; k < RUN_METERED_KINDS; k++) {
		const struct run_metered *m = &d->metered[k];

		if (m->has)
			buf_printf(v, "; %s: %s inside, %s outside (%s calls metered)", what[k],
				   fmt_ns_f_delta(a, m->program.in_ns - m->loop.in_ns),
				   fmt_ns_f_delta(b, m->program.out_ns - m->loop.out_ns),
				   fmt_count(n, m->program.samples));
	}
}

/* facts_timing: under sampled timing, how many calls were timed; 0 when every call was. */
static int facts_timing(struct buf *v, const struct profile *p)
{
	char a[FMT_SIZE], b[FMT_SIZE], c[FMT_SIZE];
	const struct run *d = p->runs[0];
	uint64_t timed = 0;

	if (!d->sample_rate)
		return 0;
	for (size_t i = 0; i < p->nfuncs; i++)
		timed = u64_add(timed, p->funcs[i].st.timed_calls);
	buf_printf(v,
		   "sampled: <span id=\"timed-calls\" data-v=\"%llu\">%s</span> of %s calls "
		   "timed (each calling context's first %llu, then one in %llu at random); times "
		   "are estimates, marked &asymp;, their standard errors on the function pages "
		   "(%s of the calls timed)",
		   (unsigned long long)timed, fmt_count(a, timed), fmt_count(b, p->calls),
		   (unsigned long long)d->timed_first, (unsigned long long)d->sample_rate,
		   fmt_pct(c, timed, p->calls));
	return 1;
}

static void facts_clock(struct buf *out, const struct profile *p)
{
	const struct run *d = p->runs[0];
	struct buf v = BUF_INIT;
	char a[FMT_SIZE], b[FMT_SIZE];

	html_escape(&v, d->clock_source ? d->clock_source : "unknown");
	if (d->ticks_per_second)
		buf_printf(&v, " at %.3f GHz", (double)d->ticks_per_second / 1e9);
	/* What the reads can and cannot see (docs/dump-format.md, README "What the numbers mean"). */
	if (d->clock_source && !strcmp(d->clock_source, "tsc"))
		buf_puts(&v,
			 " (plain reads: when a function ends waiting on a cache miss or a long "
			 "chain of dependent instructions, part of that wait can be counted in its "
			 "caller; CALLPROF_CLOCK=tsc-adaptive keeps it in the function)");
	else if (d->clock_source && !strcmp(d->clock_source, "tsc-ordered"))
		buf_puts(&v, " (fenced reads: each function's time is its own)");
	else if (d->clock_source && !strcmp(d->clock_source, "tsc-adaptive"))
		buf_puts(&v, " (fenced reads for leaves that do more work than the probes cost, so "
			     "their time is their own; plain reads elsewhere)");
	fact(out, "Clock", v.data);
	buf_reset(&v);
	if (facts_timing(&v, p))
		fact(out, "Timing", v.data);
	buf_reset(&v);
	if (d->has_per_call) {
		buf_printf(&v, "%s per call", fmt_ns_f(a, d->per_call_ns));
		if (d->has_o_in && d->has_o_out)
			buf_printf(&v, " (%s inside the callee, %s outside)",
				   fmt_ns_f(a, d->o_in_ns), fmt_ns_f(b, d->o_out_ns));
	} else {
		buf_puts(&v, "not in the dump");
	}
	calibration_metered(&v, d);
	calibration_fenced(&v, d);
	calibration_library(&v, d);
	fact(out, "Calibration", v.data);
	if (p->has_overhead) {
		buf_reset(&v);
		buf_printf(&v, "about %s, %s of the measured run", fmt_ns_f(a, p->overhead_ns),
			   fmt_pct(b, (uint64_t)p->overhead_ns, p->raw_run_ns));
		buf_puts(&v, p->compensated ? "; subtracted from the figures shown"
					    : "; still included in the figures shown");
		fact(out, "Instrumentation", v.data);
	}
	buf_release(&v);
}

/* facts_library: whether calls into libraries were probed (said by dumps that know). */
static void facts_library(struct buf *out, const struct profile *p)
{
	char a[FMT_SIZE], b[FMT_SIZE];
	struct buf v = BUF_INIT;
	size_t nlib = 0;

	if (p->library_probes < 0)
		return;
	for (size_t i = 0; i < p->nfuncs; i++)
		nlib += p->funcs[i].library != 0;
	if (p->library_probes)
		buf_printf(&v,
			   "probed: %s calls to %s library functions, each a row of its own "
			   "labelled with "
			   "its module (<a href=\"#modules\">time per module</a>)",
			   fmt_count(a, p->library_calls), fmt_count(b, nlib));
	else
		buf_puts(&v,
			 "not probed: time in library functions is in their callers' self time");
	fact(out, "Library calls", v.data);
	buf_release(&v);
}

static void facts(struct buf *out, const struct render_ctx *ctx, const struct profile *p)
{
	char a[FMT_SIZE], b[FMT_SIZE], c[FMT_SIZE];
	struct buf v = BUF_INIT;

	facts_program(out, ctx, p);
	buf_printf(&v, "%s", fmt_ns(a, p->wall_ns));
	if (p->nruns > 1)
		buf_puts(&v, " (the longest dump)");
	fact(out, "Wall time", v.data);
	buf_reset(&v);
	buf_printf(&v, "<a href=\"#threads\">%zu</a>, %s profiled in all", p->nthreads,
		   fmt_ns(a, p->run_ns));
	fact(out, "Threads", v.data);
	buf_reset(&v);
	buf_printf(&v, "%s calls to %s functions", fmt_count(c, p->calls), fmt_count(b, p->nfuncs));
	fact(out, "Calls", v.data);
	if (p->has_cpu) {
		buf_reset(&v);
		buf_printf(&v, "<a href=\"#cpu\">%s</a> of it on a CPU (%s), %s off it",
			   fmt_ns(a, p->cpu_run_ns), fmt_pct(b, p->cpu_run_ns, p->run_ns),
			   fmt_ns(c, p->run_ns - p->cpu_run_ns));
		fact(out, "CPU time", v.data);
	}
	facts_library(out, p);
	facts_clock(out, p);
	buf_release(&v);
}

static void notice(struct buf *out, const char *cls, const struct profile *p, size_t t)
{
	buf_printf(out, "<li class=\"%s\">", cls);
	if (t < p->nthreads) {
		link_thread_page(out, p, t, "");
		buf_puts(out, ": ");
	}
}

/* thread_notices: what the runtime had to drop, resynchronise or fold on a thread. */
static void thread_notices(struct buf *out, const struct profile *p, size_t t)
{
	const struct pthread *th = &p->threads[t];
	const uint64_t *n = th->counters;
	char a[FMT_SIZE], b[FMT_SIZE], c[FMT_SIZE];

	if (n[RUN_DROPPED_CALLS]) {
		notice(out, "warn", p, t);
		buf_printf(out, "%s calls were not recorded", fmt_count(a, n[RUN_DROPPED_CALLS]));
		if (n[RUN_DROPPED_IN_SIGNAL] || n[RUN_DROPPED_NO_ROOM])
			buf_printf(out,
				   " (%s in a signal handler that interrupted a probe, %s for lack "
				   "of room: "
				   "the shadow-stack limit or memory)",
				   fmt_count(b, n[RUN_DROPPED_IN_SIGNAL]),
				   fmt_count(c, n[RUN_DROPPED_NO_ROOM]));
		if (n[RUN_DROPPED_AT_END])
			buf_printf(out,
				   "; %s of them took new call paths while the process ended, "
				   "after its "
				   "profile was read",
				   fmt_count(b, n[RUN_DROPPED_AT_END]));
		buf_puts(out, "; figures there are short.</li>\n");
	}
	if (n[RUN_UNDECIDED_CALLS]) {
		notice(out, "warn", p, t);
		buf_printf(out,
			   "%s calls were not recorded because their module's filter verdicts "
			   "(CALLPROF_INCLUDE, CALLPROF_EXCLUDE) were not made yet; figures there "
			   "are short.</li>\n",
			   fmt_count(a, n[RUN_UNDECIDED_CALLS]));
	}
	if (n[RUN_FOLDED_CALLS]) {
		notice(out, "warn", p, t);
		buf_printf(out,
			   "%s calls were folded to one level of context when the call tree "
			   "reached its "
			   "node budget",
			   fmt_count(a, n[RUN_FOLDED_CALLS]));
		if (n[RUN_MAX_NODES])
			buf_printf(out, " of %s nodes (CALLPROF_MAX_NODES)",
				   fmt_count(b, n[RUN_MAX_NODES]));
		if (th->folded_first_fn >= 0) {
			buf_puts(out, "; the first to be folded was a call to ");
			link_fn(out, p, (uint32_t)th->folded_first_fn, "");
		}
		buf_puts(out,
			 ". Counts stay exact; the tree and flame graph lack those paths.</li>\n");
	}
	if (n[RUN_RESYNCED_FRAMES]) {
		notice(out, "info", p, t);
		buf_printf(out,
			   "%s %s without %s exit probe (longjmp, or an exception unwinding "
			   "without exit "
			   "probes) and %s closed when that was seen.</li>\n",
			   fmt_count(a, n[RUN_RESYNCED_FRAMES]),
			   n[RUN_RESYNCED_FRAMES] == 1 ? "activation ended" : "activations ended",
			   n[RUN_RESYNCED_FRAMES] == 1 ? "its" : "their",
			   n[RUN_RESYNCED_FRAMES] == 1 ? "was" : "were");
	}
	if (n[RUN_UNMATCHED_EXITS]) {
		notice(out, "info", p, t);
		buf_printf(out,
			   "%s exit %s no open activation of %s function and %s ignored.</li>\n",
			   fmt_count(a, n[RUN_UNMATCHED_EXITS]),
			   n[RUN_UNMATCHED_EXITS] == 1 ? "probe had" : "probes had",
			   n[RUN_UNMATCHED_EXITS] == 1 ? "its" : "their",
			   n[RUN_UNMATCHED_EXITS] == 1 ? "was" : "were");
	}
	if (n[RUN_CLOSED_AT_EXIT]) {
		notice(out, "info", p, t);
		buf_printf(out,
			   "%s %s still open when the thread ended (pthread_exit from inside) and "
			   "%s closed "
			   "then.</li>\n",
			   fmt_count(a, n[RUN_CLOSED_AT_EXIT]),
			   n[RUN_CLOSED_AT_EXIT] == 1 ? "activation was" : "activations were",
			   n[RUN_CLOSED_AT_EXIT] == 1 ? "was" : "were");
	}
	if (n[RUN_OPEN_FRAMES]) {
		notice(out, "info", p, t);
		buf_printf(out,
			   "%s call%s still open when the dump was written count%s up to the "
			   "dump.</li>\n",
			   fmt_count(a, n[RUN_OPEN_FRAMES]), n[RUN_OPEN_FRAMES] == 1 ? "" : "s",
			   n[RUN_OPEN_FRAMES] == 1 ? "s" : "");
	}
}

/* thread_has_notices: the thread has something thread_notices would say. */
static int thread_has_notices(const struct pthread *th)
{
	const uint64_t *n = th->counters;

	return n[RUN_DROPPED_CALLS] || n[RUN_UNDECIDED_CALLS] || n[RUN_FOLDED_CALLS] ||
	       n[RUN_RESYNCED_FRAMES] || n[RUN_UNMATCHED_EXITS] || n[RUN_CLOSED_AT_EXIT] ||
	       n[RUN_OPEN_FRAMES];
}

/* name_list: up to 8 names of list, escaped, then how many more. */
static void name_list(struct buf *out, char *const *names, size_t n)
{
	for (size_t i = 0; i < n && i < 8; i++) {
		buf_puts(out, i ? ", <code>" : "<code>");
		html_escape(out, names[i]);
		buf_puts(out, "</code>");
	}
	if (n > 8)
		buf_printf(out, " and %zu more", n - 8);
}

/*
 * library_notices: why library calls were not probed where a dump says so:
 * the runtime linked into the program, slots still lazily bound, functions
 * called through a GOT entry that also holds their address.
 */
static void library_notices(struct buf *out, const struct profile *p)
{
	for (size_t d = 0; d < p->nruns; d++) {
		const struct run *r = p->runs[d];

		if (r->library_probes && !strcmp(r->library_probes, "unavailable")) {
			notice(out, "info", p, SIZE_MAX);
			buf_puts(out, "Library calls were not probed: the runtime was linked into "
				      "the program "
				      "(libcallprof.a), whose own calls to libraries share the "
				      "program's GOT. Link "
				      "libcallprof.so, or run under <code>callprof record</code>, "
				      "to see them.</li>\n");
		}
		for (size_t m = 0; m < r->nmodules; m++) {
			const struct run_module *mod = &r->modules[m];
			const char *base = mod->path ? strrchr(mod->path, '/') : NULL;

			base = base ? base + 1 : mod->path ? mod->path : "a module";
			if (mod->has_libcalls && mod->libcalls.nlazy) {
				notice(out, "warn", p, SIZE_MAX);
				buf_printf(out, "Calls from <code>");
				html_escape(out, base);
				buf_printf(out,
					   "</code> to %zu library function%s were not probed: "
					   "their GOT slots were "
					   "still lazily bound when the runtime started (link with "
					   "<code>-Wl,-z,now</code>, "
					   "as <code>pkg-config --libs callprof</code> does, or "
					   "run under <code>callprof "
					   "record</code>): ",
					   mod->libcalls.nlazy,
					   mod->libcalls.nlazy == 1 ? "" : "s");
				name_list(out, mod->libcalls.lazy, mod->libcalls.nlazy);
				buf_puts(out, ".</li>\n");
			}
			if (mod->has_libcalls && mod->libcalls.nthrough) {
				notice(out, "info", p, SIZE_MAX);
				buf_puts(out, "Calls from <code>");
				html_escape(out, base);
				buf_printf(out,
					   "</code> to %zu library function%s go through a GOT "
					   "entry that also holds "
					   "the function's address (its address is taken in a PIE, "
					   "or it was built with "
					   "<code>-fno-plt</code>), which library probes leave "
					   "alone so the address "
					   "compares equal: time in them stays in their callers' "
					   "self time: ",
					   mod->libcalls.nthrough,
					   mod->libcalls.nthrough == 1 ? "" : "s");
				name_list(out, mod->libcalls.through_got, mod->libcalls.nthrough);
				buf_puts(out, ".</li>\n");
			}
		}
	}
}

/* run_notices: how one run ended, if not well, and what it says of its clock. */
static void run_notices(struct buf *out, const struct profile *p, const struct run *r)
{
	char a[FMT_SIZE];

	if (r->cut_short) {
		notice(out, "warn", p, SIZE_MAX);
		if (p->nruns > 1) {
			html_escape(out, r->path);
			buf_puts(out, ": ");
		}
		buf_puts(out, "The run was cut short by ");
		html_escape(out, r->cut_short);
		buf_puts(out, ": the profile holds what was gathered until then, and calls still "
			      "running count "
			      "up to it.</li>\n");
	}
	if (r->has_clock_stopped || r->clock_note) {
		notice(out, "info", p, SIZE_MAX);
		if (r->clock_note)
			html_escape(out, r->clock_note);
		if (r->has_clock_stopped)
			buf_printf(out, "%sThe clock stopped %s after the start.",
				   r->clock_note ? " " : "", fmt_ns(a, r->clock_stopped_ns));
		buf_puts(out, "</li>\n");
	}
	if (r->refused_dumps) {
		notice(out, "warn", p, SIZE_MAX);
		buf_printf(out,
			   "%s callprof_dump() call%s from a signal handler %s refused "
			   "(CALLPROF_DUMP_SIGNAL "
			   "writes a profile on a signal).</li>\n",
			   fmt_count(a, r->refused_dumps), r->refused_dumps == 1 ? "" : "s",
			   r->refused_dumps == 1 ? "was" : "were");
	}
}

/* One warning of the dumps, and which dumps left it. */
struct warning {
	const char *text;
	size_t run; /* the first dump that has it */
	size_t ndumps;
};

static int cmp_warning_text(const void *a, const void *b)
{
	const struct warning *x = a, *y = b;
	int c = strcmp(x->text, y->text);

	return c ? c : x->run < y->run ? -1 : x->run > y->run;
}

static int cmp_warning_run(const void *a, const void *b)
{
	const struct warning *x = a, *y = b;

	return x->run < y->run ? -1 : x->run > y->run;
}

/*
 * run_warnings: the dumps' own warnings, each text once with the dump that
 * has it (or how many do), at most INDEX_WARNINGS of them: hundreds of dumps
 * with one warning each must not push the hot lists down the page.
 */
static void run_warnings(struct buf *out, const struct profile *p)
{
	struct warning *w;
	size_t n = 0, k = 0;
	char a[FMT_SIZE];

	for (size_t d = 0; d < p->nruns; d++)
		n += p->runs[d]->nwarnings;
	w = xmalloc((n + 1) * sizeof(*w));
	for (size_t d = 0; d < p->nruns; d++)
		for (size_t i = 0; i < p->runs[d]->nwarnings; i++)
			w[k++] = (struct warning){ p->runs[d]->warnings[i], d, 1 };
	qsort(w, n, sizeof(*w), cmp_warning_text);
	k = 0;
	for (size_t i = 0, last_run = 0; i < n; i++) {
		if (k && !strcmp(w[k - 1].text, w[i].text)) {
			w[k - 1].ndumps += w[i].run != last_run;
		} else {
			w[k++] = w[i];
		}
		last_run = w[i].run;
	}
	n = k;
	qsort(w, n, sizeof(*w), cmp_warning_run);
	for (size_t i = 0; i < n && i < INDEX_WARNINGS; i++) {
		buf_puts(out, "<li class=\"warn\">");
		if (w[i].ndumps > 1) {
			buf_printf(out, "%s dumps: ", fmt_count(a, w[i].ndumps));
		} else if (p->nruns > 1) {
			html_escape(out, p->runs[w[i].run]->path);
			buf_puts(out, ": ");
		}
		html_escape(out, w[i].text);
		buf_puts(out, "</li>\n");
	}
	if (n > INDEX_WARNINGS)
		buf_printf(out, "<li class=\"warn\">%s more warnings of the dumps.</li>\n",
			   fmt_count(a, n - INDEX_WARNINGS));
	free(w);
}

static void warnings(struct buf *out, const struct profile *p)
{
	char a[FMT_SIZE], b[FMT_SIZE];

	buf_puts(out, "<ul class=\"notices\">\n");
	for (size_t d = 0; d < p->nruns; d++)
		run_notices(out, p, p->runs[d]);
	run_warnings(out, p);
	for (size_t d = 0; d < p->nruns; d++) {
		const struct run *r = p->runs[d];
		if (!r->threads_lost)
			continue;
		buf_puts(out, "<li class=\"warn\" id=\"threads-lost\">");
		if (p->nruns > 1) {
			html_escape(out, r->path);
			buf_puts(out, ": ");
		}
		buf_printf(out,
			   "%s thread%s not profiled: the runtime had no memory for %s state; %s "
			   "call%s %s "
			   "missing from this profile.</li>\n",
			   fmt_count(a, r->threads_lost), r->threads_lost == 1 ? " was" : "s were",
			   r->threads_lost == 1 ? "its" : "their", fmt_count(b, r->lost_calls),
			   r->lost_calls == 1 ? "" : "s", r->lost_calls == 1 ? "is" : "are");
	}
	library_notices(out, p);
	if (p->clamped) {
		notice(out, "warn", p, SIZE_MAX);
		buf_printf(
			out,
			"%s compensated figures would have gone below zero and were clamped to 0: "
			"the calibrated probe cost is larger than what some short calls "
			"measured.</li>\n",
			fmt_count(a, p->clamped));
	}
	for (size_t t = 0, listed = 0; t < p->nthreads; t++) {
		if (!thread_has_notices(&p->threads[t]))
			continue;
		if (listed++ == INDEX_NOTICE_THREADS) {
			size_t more = 0;

			for (size_t k = t; k < p->nthreads; k++)
				more += thread_has_notices(&p->threads[k]) != 0;
			buf_printf(out,
				   "<li class=\"info\">%zu more threads have notices: the "
				   "<a href=\"#threads\">threads table</a> marks them.</li>\n",
				   more);
			break;
		}
		thread_notices(out, p, t);
	}
	if (!strcmp(out->data, "<ul class=\"notices\">\n"))
		buf_reset(out);
	else
		buf_puts(out, "</ul>\n");
}

/* top_list: the hottest functions by one figure, as a compact table with bars. */
/* What a "hottest" card ranks by. */
enum top_by { TOP_BY_SELF, TOP_BY_INCL, TOP_BY_CPU_SELF, TOP_BY_OFF_CPU_SELF };

static uint64_t top_value(const struct pfunc *f, enum top_by by)
{
	switch (by) {
	case TOP_BY_SELF: return f->st.self_ns;
	case TOP_BY_INCL: return f->st.incl_ns;
	case TOP_BY_CPU_SELF: return f->st.cpu_self_ns;
	case TOP_BY_OFF_CPU_SELF: break;
	}
	return pstat_off_cpu_self(&f->st);
}

static void top_list(struct buf *out, const struct profile *p, const uint32_t *order,
		     enum top_by by)
{
	static const char *const ids[] = { "self", "incl", "cpu-self", "off-cpu-self" };
	size_t n = p->nfuncs < INDEX_TOP ? p->nfuncs : INDEX_TOP;
	/* The CPU card's shares are of the time on a CPU, the others' of the run. */
	uint64_t whole = by == TOP_BY_CPU_SELF ? p->cpu_run_ns : p->run_ns;
	char a[FMT_SIZE], b[FMT_SIZE];

	buf_printf(out, "<table class=\"top\" id=\"top-%s\">\n<tbody>\n", ids[by]);
	for (size_t i = 0; i < n; i++) {
		const struct pfunc *f = &p->funcs[order[i]];
		uint64_t v = top_value(f, by);

		buf_puts(out, "<tr><td class=\"name\">");
		link_fn(out, p, order[i], "");
		buf_printf(out,
			   "</td><td class=\"num\" data-v=\"%llu\">%s</td><td class=\"num pct\">",
			   (unsigned long long)v, fmt_ns(a, v));
		cell_bar(out, v, whole);
		buf_printf(out, "%s</td></tr>\n", fmt_pct(b, v, whole));
	}
	buf_puts(out, "</tbody>\n</table>\n");
}

/* thread_health: the thread's notices in a few words, for the threads table. */
static void thread_health(struct buf *out, const struct pthread *th)
{
	static const struct {
		enum run_counter k;
		const char *words;
	} parts[] = {
		{ RUN_DROPPED_CALLS, "dropped" },
		{ RUN_FOLDED_CALLS, "folded" },
		{ RUN_RESYNCED_FRAMES, "closed without exit" },
		{ RUN_UNMATCHED_EXITS, "unmatched exits" },
		{ RUN_CLOSED_AT_EXIT, "open at thread exit" },
		{ RUN_OPEN_FRAMES, "open at the dump" },
	};
	char a[FMT_SIZE];
	int first = 1;

	for (size_t i = 0; i < sizeof(parts) / sizeof(parts[0]); i++) {
		uint64_t v = th->counters[parts[i].k];

		if (!v)
			continue;
		buf_printf(out, "%s%s %s", first ? "" : " \xc2\xb7 ", fmt_count(a, v),
			   parts[i].words);
		first = 0;
	}
}

static void thread_table(struct buf *out, const struct profile *p)
{
	char a[FMT_SIZE], b[FMT_SIZE];
	int health = 0;

	for (size_t t = 0; t < p->nthreads; t++)
		health |= thread_has_notices(&p->threads[t]);
	buf_printf(out,
		   "<table class=\"profile sortable\" id=\"threads-table\">\n<thead><tr>"
		   "<th data-sort=\"num\">#</th><th data-sort=\"text\">Thread</th>"
		   "<th data-sort=\"num\">Wall</th>%s<th data-sort=\"num\">Calls</th>"
		   "<th data-sort=\"num\">Functions</th>%s<th>Views</th></tr></thead>\n<tbody>\n",
		   p->has_cpu ? "<th data-sort=\"num\">On a CPU</th>" : "",
		   health ? "<th data-sort=\"text\">Notices</th>" : "");
	for (size_t t = 0; t < p->nthreads && render_thread_has_pages(t); t++) {
		const struct pthread *th = &p->threads[t];

		buf_printf(out, "<tr><td class=\"num\" data-v=\"%zu\">%zu</td><td class=\"name\">",
			   t + 1, t + 1);
		link_thread_page(out, p, t, "");
		buf_printf(out, "</td><td class=\"num\" data-v=\"%llu\">%s</td>",
			   (unsigned long long)th->wall_ns, fmt_ns(a, th->wall_ns));
		if (p->has_cpu) /* of its profiled time: a waiting thread shows little */
			buf_printf(out, "<td class=\"num\" data-v=\"%llu\">%s (%s)</td>",
				   (unsigned long long)th->cpu_run_ns, fmt_ns(a, th->cpu_run_ns),
				   fmt_pct(b, th->cpu_run_ns, th->run_ns));
		buf_printf(out,
			   "<td class=\"num\" data-v=\"%llu\">%s</td><td class=\"num\" "
			   "data-v=\"%zu\">%zu</td>",
			   (unsigned long long)th->calls, fmt_count(b, th->calls), th->nfuncs,
			   th->nfuncs);
		if (health) {
			buf_puts(out, "<td class=\"health\">");
			thread_health(out, th);
			buf_puts(out, "</td>");
		}
		buf_printf(out,
			   "<td class=\"views\"><a href=\"thread/t%zu.html\">profile</a> \xc2\xb7 "
			   "<a href=\"tree/t%zu.html\">tree</a> \xc2\xb7 <a "
			   "href=\"flame/t%zu.html\">flame</a></td></tr>\n",
			   t, t, t);
	}
	buf_puts(out, "</tbody>\n</table>\n");
	if (p->nthreads > RENDER_MAX_THREADS) {
		uint64_t calls = 0;

		for (size_t t = RENDER_MAX_THREADS; t < p->nthreads; t++)
			calls = u64_add(calls, p->threads[t].calls);
		buf_printf(out,
			   "<p class=\"hidden-note\" id=\"threads-hidden\">%zu more threads made "
			   "%s calls: "
			   "they count in the whole run's figures, trees and flame graphs, but "
			   "have no table row and "
			   "no pages of their own.</p>\n",
			   p->nthreads - RENDER_MAX_THREADS, fmt_count(a, calls));
	}
}

/* modules: time per module, the program's own and each library's (dumps with library probes). */
static void modules(struct buf *out, const struct profile *p)
{
	char a[FMT_SIZE], b[FMT_SIZE];

	if (p->library_probes != 1)
		return;
	buf_puts(out,
		 "<section id=\"modules\">\n<h2>Time per module</h2>\n<p class=\"hint\">Self time "
		 "of the "
		 "functions of each module: the program's own code, and each library its "
		 "instrumented code "
		 "called.</p>\n<table class=\"profile sortable\" id=\"modules-table\">\n<thead><tr>"
		 "<th data-sort=\"text\">Module</th><th data-sort=\"text\">Kind</th>"
		 "<th data-sort=\"num\" class=\"sorted\" aria-sort=\"descending\">Self</th>"
		 "<th data-sort=\"num\">Share of the run</th><th data-sort=\"num\">Calls</th>"
		 "<th data-sort=\"num\">Functions</th></tr></thead>\n<tbody>\n");
	for (size_t i = 0; i < p->nmodules; i++) {
		const struct pmodule *m = &p->modules[i];

		buf_puts(out, "<tr><td class=\"name\"><code>");
		html_escape(out, m->name ? m->name : "(unknown)");
		buf_printf(out, "</code></td><td>%s</td>", m->library ? "library" : "instrumented");
		cell_time(out, m->self_ns);
		buf_printf(out, "<td class=\"num pct\" data-v=\"%llu\">",
			   (unsigned long long)m->self_ns);
		cell_bar(out, m->self_ns, p->run_ns);
		buf_printf(out, "%s</td>", fmt_pct(a, m->self_ns, p->run_ns));
		cell_count(out, m->calls);
		buf_printf(out, "<td class=\"num\" data-v=\"%zu\">%s</td></tr>\n", m->nfuncs,
			   fmt_count(b, m->nfuncs));
	}
	buf_puts(out, "</tbody>\n</table>\n</section>\n");
}

/*
 * cpu_cards: with CPU time, where the time on a CPU went and where the time
 * off it (blocked, asleep, waiting to run) was spent, so an idle wait that
 * tops the cards of wall time finds its place.
 */
static void cpu_cards(struct buf *out, const struct profile *p)
{
	char a[FMT_SIZE], b[FMT_SIZE];

	if (!p->has_cpu)
		return;
	buf_printf(
		out,
		"<section id=\"cpu\">\n<h2>On a CPU and off it</h2>\n<p class=\"hint\">"
		"Of the %s profiled, <span id=\"cpu-run\" data-v=\"%llu\">%s</span> ran on a "
		"CPU; the rest was spent blocked, asleep or waiting to run. See also the "
		"<a href=\"flame/all-cpu.html\">flame graph of CPU time</a>.</p>\n"
		"<div class=\"cards\">\n<section class=\"card\">\n<h2>Hottest by CPU self "
		"time</h2>\n<p class=\"hint\">Time its own code ran on a CPU, and its share of all "
		"the time on a CPU.</p>\n",
		fmt_ns(a, p->run_ns), (unsigned long long)p->cpu_run_ns, fmt_ns(b, p->cpu_run_ns));
	top_list(out, p, p->by_cpu_self, TOP_BY_CPU_SELF);
	buf_puts(out, "</section>\n<section class=\"card\">\n<h2>Most self time off the "
		      "CPU</h2>\n<p class=\"hint\">Time in its own code (and the uninstrumented "
		      "calls it made) blocked, asleep or waiting to run.</p>\n");
	top_list(out, p, p->by_off_cpu_self, TOP_BY_OFF_CPU_SELF);
	buf_puts(out, "</section>\n</div>\n</section>\n");
}

static void flat(struct buf *out, const struct profile *p)
{
	struct pfstat *rows = table_flat_rows(p);
	struct pager pg = { rows, p->nfuncs, p->run_ns, "all", "index.html" };

	pager_flat(out, p, &pg, 0, "");
	free(rows);
}

int render_index(struct render_ctx *ctx)
{
	const struct profile *p = ctx->prof;
	struct buf parts[10];
	enum { HEADING, FACTS, WARN, NOTES, TOP_SELF, TOP_INCL, THREADS, FLAT, MODULES, CPU };
	const char *self_hint =
		p->library_probes == 1
			? "Self time excludes library functions, which are rows of their own "
			  "labelled with their module; "
			  "it includes uninstrumented code of the program's own modules."
			: "Self time includes time in callees that were not instrumented (the C "
			  "library, other libraries).";
	struct buf summary = BUF_INIT;
	int rc;

	for (size_t i = 0; i < 10; i++)
		buf_init(&parts[i]);
	html_escape(&parts[HEADING], layout_title(ctx));
	facts(&parts[FACTS], ctx, p);
	warnings(&parts[WARN], p);
	if (ctx->notes_md) {
		buf_puts(&parts[NOTES], "<section class=\"notes\">\n<h2>Notes</h2>\n");
		md_render_html(&parts[NOTES], ctx->notes_md, ctx->notes_len);
		buf_puts(&parts[NOTES], "</section>\n");
	}
	top_list(&parts[TOP_SELF], p, p->by_self, TOP_BY_SELF);
	top_list(&parts[TOP_INCL], p, p->by_incl, TOP_BY_INCL);
	cpu_cards(&parts[CPU], p);
	thread_table(&parts[THREADS], p);
	flat(&parts[FLAT], p);
	modules(&parts[MODULES], p);
	md_render_html(&summary, ctx->summary_md.data, ctx->summary_md.len);
	{
		char nfuncs[FMT_SIZE];
		struct tmpl_var vars[] = {
			{ "heading", parts[HEADING].data },
			{ "facts", parts[FACTS].data },
			{ "warnings", parts[WARN].data },
			{ "notes", parts[NOTES].data },
			{ "top_self", parts[TOP_SELF].data },
			{ "top_incl", parts[TOP_INCL].data },
			{ "threads", parts[THREADS].data },
			{ "flat", parts[FLAT].data },
			{ "modules", parts[MODULES].data },
			{ "cpu", parts[CPU].data },
			{ "cpu_view",
			  p->has_cpu ? "<li><a href=\"flame/all-cpu.html\">Flame graph of CPU "
				       "time</a>: the time on a CPU only, without the time "
				       "blocked or waiting.</li>\n"
				     : "" },
			{ "self_hint", self_hint },
			{ "nfuncs", fmt_count(nfuncs, p->nfuncs) },
			{ "summary", summary.data },
		};
		rc = layout_page(ctx, "index.html", "", "index", "Overview", "index.html", vars,
				 sizeof(vars) / sizeof(vars[0]));
	}
	for (size_t i = 0; i < 10; i++)
		buf_release(&parts[i]);
	buf_release(&summary);
	return rc;
}
