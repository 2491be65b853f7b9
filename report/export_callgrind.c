/* export_callgrind.c: the callgrind format (KCachegrind, QCachegrind, callgrind_annotate): per
 * function its self cost and calls, per call arc its count and inclusive cost, with files and lines. */
#include <stdlib.h>
#include <string.h>

#include "export.h"
#include "keymap.h"

/*
 * Two events: ns (time, in nanoseconds) and calls (function entries), and a
 * third, cpu (the part of ns on a CPU), when the profile measured CPU time.  A
 * function's own cost line carries its self time, its calls and its CPU self
 * time; a call arc's cost line carries the arc's inclusive time, the calls
 * made below it, the callee's own included, so "calls" sums like any other
 * event, and the arc's time on a CPU.  Names
 * use the format's compression ("fn=(3) main" once, "fn=(3)" after), which
 * also keeps a name that begins with "(" from being read as a number; the
 * format has no escapes, so control characters in names become '?'.
 */

/* The ids name compression gives files, functions and objects (0: not written yet). */
struct cg_names {
	struct keymap files, objs; /* 64-bit hash of the name -> id */
	uint32_t nfiles, nobjs;
	uint8_t *fn_seen; /* by function */
};

static void put_text(struct buf *out, const char *s)
{
	for (; *s; s++)
		buf_putc(out, (unsigned char)*s < 0x20 || *s == 0x7f ? '?' : *s);
}

static uint64_t hash_str(const char *s)
{
	uint64_t h = 1469598103934665603ull;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return h;
}

/*
 * put_compressed writes "KEY=(id) name" the first time name is seen in map,
 * then "KEY=(id)".  Names are matched by their 64-bit hash: two of a
 * program's few files or modules with one hash are not worth a string map.
 */
static void put_compressed(struct buf *out, const char *key, struct keymap *map, uint32_t *count,
			   const char *name)
{
	uint32_t id = keymap_find_or_add(map, hash_str(name), *count + 1);

	if (id == *count + 1) {
		(*count)++;
		buf_printf(out, "%s=(%u) ", key, id);
		put_text(out, name);
		buf_putc(out, '\n');
	} else {
		buf_printf(out, "%s=(%u)\n", key, id);
	}
}

static void put_fn(const struct export_ctx *x, struct cg_names *nm, struct buf *out,
		   const char *key, uint32_t f)
{
	buf_printf(out, "%s=(%u)", key, f + 1);
	if (!nm->fn_seen[f]) {
		nm->fn_seen[f] = 1;
		buf_putc(out, ' ');
		put_text(out, x->labels[f]);
	}
	buf_putc(out, '\n');
}

static const char *file_of(const struct pfunc *f)
{
	return f->file ? f->file : "???";
}

static const char *obj_of(const struct pfunc *f)
{
	return f->mod && f->mod->path ? f->mod->path : f->module ? f->module : "???";
}

/*
 * arc_calls: for every edge of p, the calls made below its callee while
 * called from its caller (outermost activations of the arc only, as its
 * inclusive time counts them), from the merged tree.
 */
static uint64_t *arc_calls(const struct profile *p)
{
	const struct ptree *t = &p->tree;
	const uint64_t *sub = t->sub_calls;
	uint64_t *calls = xcalloc(p->nedges + 1, sizeof(*calls));
	uint32_t *active = xcalloc(p->nedges + 1, sizeof(*active));
	int64_t *edge_of = xmalloc((t->n + 1) * sizeof(*edge_of));
	uint32_t *stack = xmalloc((2 * t->n + 1) * sizeof(*stack));
	struct keymap edges;
	size_t depth = 0;

	keymap_init(&edges, p->nedges);
	for (size_t e = 0; e < p->nedges; e++)
		keymap_put(&edges, ((uint64_t)(p->edges[e].caller + 1) << 32) | p->edges[e].callee,
			   (uint32_t)e);
	for (size_t r = t->nroots; r-- > 0;)
		stack[depth++] = t->roots[r] << 1;
	while (depth) {
		uint32_t s = stack[--depth], n = s >> 1;
		int64_t caller =
			t->nodes[n].parent >= 0 ? (int64_t)t->nodes[t->nodes[n].parent].fn : -1;

		if (s & 1) { /* leaving n */
			if (edge_of[n] >= 0)
				active[edge_of[n]]--;
			continue;
		}
		edge_of[n] = keymap_get(&edges, ((uint64_t)(caller + 1) << 32) | t->nodes[n].fn);
		if (edge_of[n] >= 0 && !active[edge_of[n]]++)
			calls[edge_of[n]] = u64_add(calls[edge_of[n]], sub[n]);
		stack[depth++] = s | 1;
		for (size_t k = t->kid_off[n + 1]; k-- > t->kid_off[n];)
			stack[depth++] = t->kids[k] << 1;
	}
	keymap_release(&edges);
	free(stack);
	free(edge_of);
	free(active);
	return calls;
}

static void put_header(const struct export_ctx *x, struct buf *out)
{
	const struct profile *p = x->prof;
	const struct run *r = p->nruns ? p->runs[0] : NULL;

	buf_printf(out, "# callgrind format\nversion: 1\ncreator: callprof %s\n", x->version);
	if (r && r->has_pid)
		buf_printf(out, "pid: %lld\n", (long long)r->pid);
	if (r && (r->argc || r->program)) {
		struct buf cmd = BUF_INIT;

		run_args(&cmd, r, 0,
			 RUN_ARGS_MAX); /* cut as the site cuts them: an argv may be megabytes */
		buf_puts(out, "cmd: ");
		put_text(out, r->argc ? cmd.data : r->program);
		buf_putc(out, '\n');
		buf_release(&cmd);
	}
	if (p->nruns > 1)
		buf_printf(out, "desc: Dumps: %zu merged\n", p->nruns);
	buf_puts(out, "desc: Trigger: callprof export\npositions: line\n"
		      "event: ns : Elapsed time (ns)\nevent: calls : Calls (function "
		      "entries)\n");
	buf_puts(out, p->has_cpu ? "event: cpu : Time on a CPU (ns)\nevents: ns calls cpu\n"
				 : "events: ns calls\n");
}

/* put_cpu: a cost line's cpu event, when the profile has one, and the line's end. */
static void put_cpu(struct buf *out, const struct profile *p, uint64_t cpu_ns)
{
	if (p->has_cpu)
		buf_printf(out, " %llu", (unsigned long long)cpu_ns);
	buf_putc(out, '\n');
}

static void put_function(const struct export_ctx *x, struct cg_names *nm, const uint64_t *arc,
			 uint32_t f, struct buf *out)
{
	const struct profile *p = x->prof;
	const struct pfunc *fn = &p->funcs[f];

	buf_putc(out, '\n');
	put_compressed(out, "ob", &nm->objs, &nm->nobjs, obj_of(fn));
	put_compressed(out, "fl", &nm->files, &nm->nfiles, file_of(fn));
	put_fn(x, nm, out, "fn", f);
	buf_printf(out, "%llu %llu %llu", (unsigned long long)fn->line,
		   (unsigned long long)fn->st.self_ns, (unsigned long long)fn->st.calls);
	put_cpu(out, p, fn->st.cpu_self_ns);
	for (size_t k = 0; k < fn->ncallees; k++) {
		uint32_t e = p->by_caller[fn->callees + k];
		const struct pedge *ed = &p->edges[e];
		const struct pfunc *callee = &p->funcs[ed->callee];

		put_compressed(out, "cob", &nm->objs, &nm->nobjs, obj_of(callee));
		put_compressed(out, "cfi", &nm->files, &nm->nfiles, file_of(callee));
		put_fn(x, nm, out, "cfn", ed->callee);
		buf_printf(out, "calls=%llu %llu\n%llu %llu %llu", (unsigned long long)ed->calls,
			   (unsigned long long)callee->line,
			   (unsigned long long)(ed->call_line ? ed->call_line : fn->line),
			   (unsigned long long)ed->incl_ns, (unsigned long long)arc[e]);
		put_cpu(out, p, ed->cpu_ns);
	}
}

static int write_callgrind(const struct export_ctx *x, struct buf *out)
{
	const struct profile *p = x->prof;
	struct cg_names nm = { .fn_seen = xcalloc(p->nfuncs + 1, 1) };
	uint64_t *arc = arc_calls(p);

	keymap_init(&nm.files, 64);
	keymap_init(&nm.objs, 8);
	put_header(x, out);
	for (size_t i = 0; i < p->nfuncs; i++)
		put_function(x, &nm, arc, p->by_self[i], out);
	buf_printf(out, "\ntotals: %llu %llu", (unsigned long long)p->run_ns,
		   (unsigned long long)p->calls);
	put_cpu(out, p, p->cpu_run_ns);
	keymap_release(&nm.files);
	keymap_release(&nm.objs);
	free(nm.fn_seen);
	free(arc);
	return 0;
}

const struct export_format export_callgrind = { "callgrind", "callgrind", write_callgrind };
