/* render_thread.c: thread/t<k>.html: one thread's figures and flat profile. */
#include <stdio.h>

#include "fmt.h"
#include "html.h"
#include "layout.h"
#include "link.h"
#include "pager.h"
#include "render.h"
#include "table.h"

/* The counters a thread page lists when they are not 0, with their labels. */
static const char *const counter_labels[RUN_COUNTERS] = {
	[RUN_DROPPED_CALLS] = "Dropped calls",
	[RUN_RESYNCED_FRAMES] = "Closed without exit",
	[RUN_UNMATCHED_EXITS] = "Unmatched exits",
	[RUN_CLOSED_AT_EXIT] = "Open at thread exit",
	[RUN_OPEN_FRAMES] = "Open at the dump",
	[RUN_FOLDED_CALLS] = "Folded calls",
	[RUN_DROPPED_IN_SIGNAL] = "Dropped in a signal handler",
	[RUN_DROPPED_NO_ROOM] = "Dropped for lack of room",
	[RUN_TREE_NODES] = "Call paths (tree nodes)",
	[RUN_MAX_NODES] = "Node budget",
	[RUN_DROPPED_AT_END] = "Dropped as the process ended",
	[RUN_UNDECIDED_CALLS] = "Not recorded before their filter verdicts",
};

static void thread_counters(struct buf *out, const struct profile *p, const struct pthread *th)
{
	char a[FMT_SIZE];

	if (th->running)
		buf_puts(out, "<div><dt>State</dt><dd>still running when the dump was "
			      "written</dd></div>\n");
	for (int k = 0; k < RUN_COUNTERS; k++) {
		if (!th->counters[k])
			continue;
		buf_printf(out, "<div><dt>%s</dt><dd id=\"counter-%s\" data-v=\"%llu\">%s",
			   counter_labels[k], run_counter_keys[k],
			   (unsigned long long)th->counters[k], fmt_count(a, th->counters[k]));
		if (k == RUN_FOLDED_CALLS && th->folded_first_fn >= 0) {
			buf_puts(out, " (the first: a call to ");
			link_fn(out, p, (uint32_t)th->folded_first_fn, "../");
			buf_puts(out, ")");
		}
		buf_puts(out, "</dd></div>\n");
	}
}

static int thread_page(struct render_ctx *ctx, size_t t)
{
	const struct profile *p = ctx->prof;
	const struct pthread *th = &p->threads[t];
	struct buf heading = BUF_INIT, facts = BUF_INIT, flat = BUF_INIT, title = BUF_INIT;
	char path[48], a[FMT_SIZE], b[FMT_SIZE], c[FMT_SIZE];
	int rc;

	link_thread_label(&heading, p, t);
	buf_printf(&facts, "<div><dt>Wall time</dt><dd>%s</dd></div>\n", fmt_ns(a, th->wall_ns));
	buf_printf(&facts, "<div><dt>Profiled time</dt><dd>%s (summed self time)</dd></div>\n",
		   fmt_ns(a, th->run_ns));
	buf_printf(&facts, "<div><dt>Calls</dt><dd>%s calls to %s functions</dd></div>\n",
		   fmt_count(b, th->calls), fmt_count(c, th->nfuncs));
	thread_counters(&facts, p, th);
	buf_puts(&facts, "<div><dt>Dump</dt><dd><code>");
	html_escape(&facts, p->runs[th->run]->path);
	buf_puts(&facts, "</code></dd></div>\n");
	buf_printf(&facts,
		   "<div><dt>Views</dt><dd><a href=\"../tree/t%zu.html\">call tree</a> \xc2\xb7 "
		   "<a href=\"../flame/t%zu.html\">flame graph</a></dd></div>\n",
		   t, t);
	/* The hottest PAGER_ROWS functions; the whole run's flat profile is paged in full. */
	table_flat(&flat, p, th->funcs, th->nfuncs, th->run_ns, "../", "flat-table", PAGER_ROWS);
	if (th->nfuncs > PAGER_ROWS)
		buf_puts(&flat, "<p class=\"hidden-note\">The <a href=\"../index.html#flat\">flat "
				"profile of the whole "
				"run</a> lists every function, and each function's page has its "
				"figures per thread.</p>\n");

	struct tmpl_var vars[] = {
		{ "heading", heading.data },
		{ "facts", facts.data },
		{ "flat", flat.data },
	};
	buf_printf(&title, "Thread %zu", t + 1);
	snprintf(path, sizeof(path), "thread/t%zu.html", t);
	rc = layout_page(ctx, path, "../", "threads", title.data, "thread.html", vars,
			 sizeof(vars) / sizeof(vars[0]));
	buf_release(&heading);
	buf_release(&facts);
	buf_release(&flat);
	buf_release(&title);
	return rc;
}

int render_thread(struct render_ctx *ctx)
{
	int rc = 0;

	for (size_t t = 0; t < ctx->prof->nthreads && render_thread_has_pages(t) && rc == 0; t++)
		rc = thread_page(ctx, t);
	return rc;
}
