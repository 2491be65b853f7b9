/* export_speedscope.c: speedscope's file format (https://www.speedscope.app/file-format-schema.json):
 * a "sampled" profile per thread, each call path one sample weighted by its self time; where
 * the dump measured CPU time, then one more per thread weighted by its self time on a CPU. */
#include <stdlib.h>
#include <string.h>

#include "export.h"
#include "json_out.h"

/*
 * Why "sampled" and not "evented": an evented profile is a timeline of
 * open/close events, and a profile has no timeline, only totals per path; a
 * sampled profile whose samples are the paths, each weighted by the time
 * spent in it (its self time), holds exactly what we know.  speedscope then
 * shows the paths in its "left heavy" and "sandwich" views (the "time order"
 * view shows them in tree order, not in the order they ran).
 */

static void put_str(struct buf *out, const char *s)
{
	json_out_str(out, s, strlen(s));
}

/* put_frames: shared.frames, one per function, in function order (a frame's index is its function's). */
static void put_frames(const struct export_ctx *x, struct buf *out)
{
	buf_puts(out, "\"shared\":{\"frames\":[");
	for (size_t i = 0; i < x->prof->nfuncs; i++) {
		const struct pfunc *f = &x->prof->funcs[i];

		buf_puts(out, i ? ",\n{\"name\":" : "\n{\"name\":");
		put_str(out, x->labels[i]);
		if (f->file) {
			buf_puts(out, ",\"file\":");
			put_str(out, f->file);
			if (f->line)
				buf_printf(out, ",\"line\":%llu", (unsigned long long)f->line);
		}
		buf_putc(out, '}');
	}
	buf_puts(out, "]}");
}

/* put_stack: the frames from the root down to node n. */
static void put_stack(const struct ptree *t, uint32_t n, struct buf *out, uint32_t *scratch)
{
	size_t depth = 0;

	for (int64_t k = n; k >= 0; k = t->nodes[k].parent)
		scratch[depth++] = t->nodes[k].fn;
	buf_putc(out, '[');
	while (depth--)
		buf_printf(out, "%u%s", scratch[depth], depth ? "," : "");
	buf_putc(out, ']');
}

/* A path's weight in a thread's profile: its self time (on a CPU: `cpu`), or its calls
 * without a clock. */
static uint64_t path_weight(const struct ptree *t, size_t i, int cpu)
{
	if (t->by_calls)
		return t->nodes[i].calls;
	return cpu ? t->nodes[i].cpu_self_ns : t->nodes[i].self_ns;
}

static void put_thread(const struct pthread *th, size_t index, int cpu, struct buf *out)
{
	const struct ptree *t = &th->tree;
	uint32_t *scratch = xmalloc((t->n + 1) * sizeof(*scratch));
	struct buf name = BUF_INIT;
	uint64_t total = 0;

	for (size_t i = 0; i < t->n; i++)
		total += path_weight(t, i, cpu);
	buf_printf(&name, "thread %zu (tid %lld%s%s)%s", index + 1, (long long)th->tid,
		   th->name ? ", " : "", th->name ? th->name : "", cpu ? ", on a CPU" : "");
	buf_puts(out, index || cpu ? ",\n{\"type\":\"sampled\",\"name\":"
				   : "\n{\"type\":\"sampled\",\"name\":");
	put_str(out, name.data);
	buf_printf(out, ",\"unit\":\"%s\",\"startValue\":0,\"endValue\":%llu,\"samples\":[",
		   t->by_calls ? "none" : "nanoseconds", (unsigned long long)total);
	for (size_t i = 0; i < t->n; i++) {
		if (i)
			buf_putc(out, ',');
		put_stack(t, (uint32_t)i, out, scratch);
	}
	buf_puts(out, "],\"weights\":[");
	for (size_t i = 0; i < t->n; i++)
		buf_printf(out, "%s%llu", i ? "," : "", (unsigned long long)path_weight(t, i, cpu));
	buf_puts(out, "]}");
	buf_release(&name);
	free(scratch);
}

static int write_speedscope(const struct export_ctx *x, struct buf *out)
{
	const struct profile *p = x->prof;
	const char *program =
		p->nruns && p->runs[0]->program ? p->runs[0]->program : "callprof profile";
	struct buf creator = BUF_INIT;

	buf_puts(out,
		 "{\"$schema\":\"https://www.speedscope.app/file-format-schema.json\",\n\"name\":");
	put_str(out, program);
	buf_printf(&creator, "callprof %s", x->version);
	buf_puts(out, ",\"exporter\":");
	put_str(out, creator.data);
	buf_puts(out, ",\"activeProfileIndex\":0,\n");
	put_frames(x, out);
	buf_puts(out, ",\n\"profiles\":[");
	for (int cpu = 0; cpu <= (p->has_cpu != 0); cpu++)
		for (size_t i = 0; i < p->nthreads; i++)
			if (!cpu || !p->threads[i].tree.by_calls)
				put_thread(&p->threads[i], i, cpu, out);
	buf_puts(out, "]}\n");
	buf_release(&creator);
	return 0;
}

const struct export_format export_speedscope = { "speedscope", "speedscope JSON",
						 write_speedscope };
