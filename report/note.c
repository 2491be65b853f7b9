/* note.c: the phrases and paragraphs several pages share: where a function is declared, and
 * what the runtime folded or dropped on a tree or flame graph. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fmt.h"
#include "html.h"
#include "link.h"
#include "note.h"

void note_location(struct buf *out, const char *file, uint64_t line, const char *module)
{
	if (file) {
		buf_puts(out, "<code class=\"src\">");
		html_escape(out, file);
		if (line)
			buf_printf(out, ":%llu", (unsigned long long)line);
		buf_puts(out, "</code>");
	} else {
		buf_puts(out,
			 "<span class=\"muted\">no source location (no debug information)</span>");
	}
	if (module) {
		buf_puts(out, " in <code>");
		html_escape(out, module);
		buf_puts(out, "</code>");
	}
}

void note_fold(struct buf *out, const struct profile *p, int64_t thread)
{
	uint64_t folded = 0, dropped = 0;
	size_t nfolded = 0, first = thread < 0 ? 0 : (size_t)thread;
	size_t end = thread < 0 ? p->nthreads : first + 1;
	char a[FMT_SIZE], b[FMT_SIZE];

	for (size_t t = first; t < end; t++) {
		const uint64_t *n = p->threads[t].counters;

		folded = u64_add(folded, n[RUN_FOLDED_CALLS]);
		dropped = u64_add(dropped, n[RUN_DROPPED_CALLS]);
		nfolded += n[RUN_FOLDED_CALLS] != 0;
	}
	if (!folded && !dropped)
		return;
	buf_puts(out, "<p class=\"pruned\" id=\"folded\">");
	if (folded && thread >= 0) {
		const struct pthread *th = &p->threads[thread];

		buf_printf(
			out,
			"This thread's call tree reached its node budget (%s nodes): %s calls were "
			"folded to one level of context, so their paths are missing here (their "
			"counts are "
			"exact on the function pages)",
			fmt_count(a, th->counters[RUN_MAX_NODES]), fmt_count(b, folded));
		if (th->folded_first_fn >= 0) {
			buf_puts(out, "; the first to be folded was a call to ");
			link_fn(out, p, (uint32_t)th->folded_first_fn, "../");
		}
		buf_puts(out, ". ");
	} else if (folded) {
		buf_printf(
			out,
			"The call %s of %zu thread%s reached %s node budget: %s calls were folded "
			"to one level of context, so their paths are missing here (their counts "
			"are exact on the "
			"function pages; <a href=\"../index.html#threads\">the threads</a> say "
			"where). ",
			nfolded == 1 ? "tree" : "trees", nfolded, nfolded == 1 ? "" : "s",
			nfolded == 1 ? "its" : "their", fmt_count(a, folded));
	}
	if (dropped)
		buf_printf(out,
			   "%s calls were not recorded at all (dropped in signal handlers or for "
			   "lack of "
			   "room). ",
			   fmt_count(a, dropped));
	buf_puts(out, "</p>\n");
}

/* dump_line: "pid 42 — <code>file</code>, <span class="date">date</span>". */
static void dump_line(struct buf *out, const struct run *d)
{
	if (d->has_pid)
		buf_printf(out, "pid %lld \xe2\x80\x94 ", (long long)d->pid);
	buf_puts(out, "<code class=\"dumpfile\">");
	html_escape(out, d->path);
	buf_puts(out, "</code>, <span class=\"date\">");
	html_escape(out, d->date ? d->date : "date unknown");
	buf_puts(out, "</span>");
}

void note_dumps(struct buf *out, const struct profile *p)
{
	char a[FMT_SIZE];

	if (p->nruns <= NOTE_DUMPS_SHOWN) {
		for (size_t i = 0; i < p->nruns; i++) {
			buf_puts(out, i ? "<br>" : "");
			dump_line(out, p->runs[i]);
		}
		return;
	}
	buf_printf(out, "<details class=\"dumps\"><summary>%s dumps, from ",
		   fmt_count(a, p->nruns));
	dump_line(out, p->runs[0]);
	buf_puts(out, "</summary>\n<ol class=\"dumps\">\n");
	for (size_t i = 0; i < p->nruns; i++) {
		buf_puts(out, "<li>");
		dump_line(out, p->runs[i]);
		buf_puts(out, "</li>\n");
	}
	buf_puts(out, "</ol></details>");
}

/* One program and how many dumps ran it. */
struct prog_count {
	const char *name;
	size_t n;
};

static int cmp_prog_name(const void *a, const void *b)
{
	return strcmp(((const struct prog_count *)a)->name, ((const struct prog_count *)b)->name);
}

static int cmp_prog_count(const void *a, const void *b)
{
	const struct prog_count *x = a, *y = b;

	if (x->n != y->n)
		return x->n > y->n ? -1 : 1;
	return strcmp(x->name, y->name);
}

void note_programs(struct buf *out, const struct profile *p)
{
	struct prog_count *v = xmalloc((p->nruns + 1) * sizeof(*v));
	size_t n = 0, k = 0;
	char a[FMT_SIZE];

	for (size_t i = 0; i < p->nruns; i++) {
		const char *base = run_program_base(p->runs[i]);

		v[i] = (struct prog_count){ base ? base : "unknown", 1 };
	}
	qsort(v, p->nruns, sizeof(*v), cmp_prog_name);
	for (size_t i = 0; i < p->nruns; i++) {
		if (n && !strcmp(v[n - 1].name, v[i].name))
			v[n - 1].n++;
		else
			v[n++] = v[i];
	}
	qsort(v, n, sizeof(*v), cmp_prog_count);
	for (k = 0; k < n && k < NOTE_PROGRAMS; k++) {
		buf_puts(out, k ? ", <code>" : "<code>");
		html_escape(out, v[k].name);
		buf_printf(out, "</code> (%s dump%s)", fmt_count(a, v[k].n),
			   v[k].n == 1 ? "" : "s");
	}
	if (k < n)
		buf_printf(out, " and %s more", fmt_count(a, n - k));
	free(v);
}

void note_args(struct buf *out, const struct run *r, int no_argv)
{
	struct buf text = BUF_INIT;

	if (no_argv) {
		buf_puts(out, "<span class=\"muted\">left out (--no-argv)</span>");
		return;
	}
	run_args(&text, r, 1, RUN_ARGS_MAX);
	buf_puts(out, "<code class=\"args\">");
	html_escape(out, text.data);
	buf_puts(out, "</code>");
	buf_release(&text);
}
