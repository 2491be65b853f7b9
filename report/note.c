/* note.c: the phrases and paragraphs several pages share: where a function is declared, and
 * what the runtime folded or dropped on a tree or flame graph. */
#include <stdio.h>

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
		buf_puts(out, "<span class=\"muted\">no source location (no debug information)</span>");
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

		buf_printf(out, "This thread's call tree reached its node budget (%s nodes): %s calls were "
			   "folded to one level of context, so their paths are missing here (their counts are "
			   "exact on the function pages)", fmt_count(a, th->counters[RUN_MAX_NODES]),
			   fmt_count(b, folded));
		if (th->folded_first_fn >= 0) {
			buf_puts(out, "; the first to be folded was a call to ");
			link_fn(out, p, (uint32_t)th->folded_first_fn, "../");
		}
		buf_puts(out, ". ");
	} else if (folded) {
		buf_printf(out, "The call %s of %zu thread%s reached %s node budget: %s calls were folded "
			   "to one level of context, so their paths are missing here (their counts are exact on the "
			   "function pages; <a href=\"../index.html#threads\">the threads</a> say where). ",
			   nfolded == 1 ? "tree" : "trees", nfolded, nfolded == 1 ? "" : "s",
			   nfolded == 1 ? "its" : "their", fmt_count(a, folded));
	}
	if (dropped)
		buf_printf(out, "%s calls were not recorded at all (dropped in signal handlers or for lack of "
			   "room). ", fmt_count(a, dropped));
	buf_puts(out, "</p>\n");
}
