/* dump_write.c: a struct dump written back as JSON (dump-format.md, version 1), for `callprof merge`. */
#include <string.h>

#include "dump.h"
#include "json_out.h"

static void put_str(struct buf *out, const char *s)
{
	if (s)
		json_out_str(out, s, strlen(s));
	else
		buf_puts(out, "null");
}

/* put_escaped: a string that load_string escaped (a NUL as "\0", backslashes doubled), as it was. */
static void put_escaped(struct buf *out, const char *s, int escaped)
{
	struct buf raw = BUF_INIT;

	if (!s || !escaped) {
		put_str(out, s);
		return;
	}
	for (; *s; s++) {
		if (s[0] == '\\' && (s[1] == '0' || s[1] == '\\'))
			buf_putc(&raw, *++s == '0' ? '\0' : '\\');
		else
			buf_putc(&raw, *s);
	}
	json_out_str(out, raw.data, raw.len);
	buf_release(&raw);
}

static void put_u64(struct buf *out, const char *key, uint64_t v)
{
	buf_printf(out, ",\"%s\":%llu", key, (unsigned long long)v);
}

/* put_num: a calibration figure, to the millionth of a nanosecond (the runtime writes four decimals). */
static void put_num(struct buf *out, const char *key, double v)
{
	buf_printf(out, ",\"%s\":%.6f", key, v);
}

/* put_metered: calibration.KEY, a merged metering: each side's calls and mean costs, and
 * the program's less the loop's. */
static void put_metered(struct buf *out, const char *key, const struct run_metered *m)
{
	const struct run_metered_side *side[2] = { &m->program, &m->loop };
	static const char *const name[2] = { "program", "loop" };

	buf_printf(out, ",\"%s\":{", key);
	for (int s = 0; s < 2; s++) {
		buf_printf(out, "%s\"%s\":{\"samples\":%llu", s ? "," : "", name[s],
			   (unsigned long long)side[s]->samples);
		put_num(out, "o_in_ns", side[s]->in_ns);
		put_num(out, "o_out_ns", side[s]->out_ns);
		buf_putc(out, '}');
	}
	put_num(out, "extra_o_in_ns", m->program.in_ns - m->loop.in_ns);
	put_num(out, "extra_o_out_ns", m->program.out_ns - m->loop.out_ns);
	buf_putc(out, '}');
}

static void put_program(const struct run *r, struct buf *out)
{
	buf_puts(out, "\"program\":{\"path\":");
	put_str(out, r->program);
	buf_puts(out, ",\"argv\":[");
	for (size_t i = 0; i < r->argc; i++) {
		if (i)
			buf_putc(out, ',');
		put_str(out, r->argv[i]);
	}
	buf_putc(out, ']');
	if (r->has_pid)
		buf_printf(out, ",\"pid\":%lld", (long long)r->pid);
	buf_puts(out, "},\n");
}

static void put_run(const struct run *r, struct buf *out)
{
	buf_puts(out, "{\n\"format\":\"callprof\",\n\"version\":1,\n");
	put_program(r, out);
	/* a date the loader took from the file's mtime is no start_time */
	if (r->date && strlen(r->date) == 20 && r->date[10] == 'T') {
		buf_puts(out, "\"start_time\":");
		put_str(out, r->date);
		buf_puts(out, ",\n");
	}
	buf_puts(out, "\"clock\":{\"source\":");
	put_str(out, r->clock_source);
	put_u64(out, "ticks_per_second", r->ticks_per_second);
	if (r->sample_rate) {
		buf_puts(out, ",\"timing\":\"sampled\"");
		put_u64(out, "sample_rate", r->sample_rate);
		put_u64(out, "timed_first", r->timed_first);
	}
	buf_puts(out, "},\n\"calibration\":{\"method\":\"merged: each figure is the mean of the "
		      "dumps' own, "
		      "weighted by their calls (fenced, fentry and library figures by their "
		      "fenced, fentry "
		      "and library calls)\"");
	if (r->has_per_call)
		put_num(out, "per_call_ns", r->per_call_ns);
	if (r->has_o_in)
		put_num(out, "o_in_ns", r->o_in_ns);
	if (r->has_o_out)
		put_num(out, "o_out_ns", r->o_out_ns);
	if (r->has_fenced_o_in)
		put_num(out, "fenced_o_in_ns", r->fenced_o_in_ns);
	if (r->has_fenced_o_out)
		put_num(out, "fenced_o_out_ns", r->fenced_o_out_ns);
	if (r->has_fentry_o_in)
		put_num(out, "fentry_o_in_ns", r->fentry_o_in_ns);
	if (r->has_fentry_o_out)
		put_num(out, "fentry_o_out_ns", r->fentry_o_out_ns);
	if (r->has_library_o_in)
		put_num(out, "library_o_in_ns", r->library_o_in_ns);
	if (r->has_untimed)
		put_num(out, "untimed_ns", r->untimed_ns);
	if (r->has_library_o_out)
		put_num(out, "library_o_out_ns", r->library_o_out_ns);
	for (unsigned k = 0; k < UNREC_KINDS; k++) {
		char key[64];

		if ((r->has_unrecorded >> k) & 1)
			put_num(out, unrec_key(key, sizeof(key), k, "ns"), r->unrecorded_ns[k]);
	}
	for (unsigned k = 0; k < RUN_METERED_KINDS; k++)
		if (r->metered[k].has)
			put_metered(out, run_metered_keys[k], &r->metered[k]);
	if (r->compensated >= 0)
		buf_printf(out, ",\"compensated\":%s", r->compensated ? "true" : "false");
	buf_puts(out, "},\n");
	if (r->has_wall)
		buf_printf(out, "\"wall_ns\":%llu,\n", (unsigned long long)r->wall_ns);
	if (r->library_probes) {
		buf_puts(out, "\"library_probes\":");
		put_str(out, r->library_probes);
		buf_puts(out, ",\n");
	}
	buf_printf(out,
		   "\"clamped_figures\":%llu,\n\"threads_lost\":%llu,\n\"lost_calls\":%llu,"
		   "\n\"warnings\":[",
		   (unsigned long long)r->clamped_figures, (unsigned long long)r->threads_lost,
		   (unsigned long long)r->lost_calls);
	for (size_t i = 0; i < r->nwarnings; i++) {
		if (i)
			buf_putc(out, ',');
		put_str(out, r->warnings[i]);
	}
	buf_puts(out, "],\n");
}

static void put_names(struct buf *out, const char *key, char *const *v, size_t n)
{
	buf_printf(out, ",\"%s\":[", key);
	for (size_t i = 0; i < n; i++) {
		if (i)
			buf_putc(out, ',');
		put_str(out, v[i]);
	}
	buf_putc(out, ']');
}

/* put_libcalls: modules[].library_calls, what the library probes did to its slots. */
static void put_libcalls(const struct run_module *mod, struct buf *out)
{
	if (!mod->has_libcalls)
		return;
	buf_puts(out, ",\"library_calls\":{\"slots\":");
	buf_printf(out, "%llu", (unsigned long long)mod->libcalls.slots);
	put_u64(out, "probed", mod->libcalls.probed);
	put_names(out, "lazy", mod->libcalls.lazy, mod->libcalls.nlazy);
	put_names(out, "through_got", mod->libcalls.through_got, mod->libcalls.nthrough);
	buf_putc(out, '}');
}

static void put_modules(const struct run *r, struct buf *out)
{
	buf_puts(out, "\"modules\":[");
	for (size_t m = 0; m < r->nmodules; m++) {
		const struct run_module *mod = &r->modules[m];

		buf_printf(out, "%s{\"id\":%zu,\"path\":", m ? ",\n" : "\n", m);
		put_str(out, mod->path);
		buf_puts(out, ",\"build_id\":");
		put_str(out, mod->build_id);
		put_libcalls(mod, out);
		/* a library's functions are no one's to cover: it has neither (dump-format.md) */
		if (!mod->symtab_functions && !mod->nuncalled) {
			buf_putc(out, '}');
			continue;
		}
		put_u64(out, "symtab_functions", mod->symtab_functions);
		buf_puts(out, ",\"uncalled\":[");
		for (size_t u = 0; u < mod->nuncalled; u++) {
			const struct run_uncalled *x = &mod->uncalled[u];

			buf_puts(out, u ? ",{\"name\":" : "{\"name\":");
			put_escaped(out, x->name, x->name_nul);
			if (x->offset) {
				buf_puts(out, ",\"offset\":");
				put_str(out, x->offset);
			}
			buf_puts(out, ",\"file\":");
			put_escaped(out, x->file, x->file_nul);
			if (x->line)
				put_u64(out, "line", x->line);
			buf_putc(out, '}');
		}
		buf_puts(out, "]}");
	}
	buf_puts(out, "],\n");
}

/* put_values: a value profile's tuples (nvalues texts each) or return values (one text). */
static void put_values(const struct dump_value *v, size_t n, size_t nvalues, int tuple,
		       struct buf *out)
{
	buf_putc(out, '[');
	for (size_t i = 0; i < n; i++) {
		buf_puts(out, i ? ",{" : "{");
		if (tuple) {
			buf_puts(out, "\"values\":[");
			for (size_t k = 0; k < nvalues; k++) {
				if (k)
					buf_putc(out, ',');
				put_str(out, v[i].values[k]);
			}
			buf_putc(out, ']');
		} else {
			buf_puts(out, "\"value\":");
			put_str(out, v[i].values[0]);
		}
		put_u64(out, "calls", v[i].calls);
		put_u64(out, "error", v[i].error);
		if (tuple) {
			put_u64(out, "timed_calls", v[i].timed_calls);
			put_u64(out, "inclusive_ns", v[i].incl_ns);
			put_u64(out, "min_ns", v[i].min_ns);
			put_u64(out, "max_ns", v[i].max_ns);
		}
		buf_putc(out, '}');
	}
	buf_putc(out, ']');
}

/* put_args: functions[].args, the arguments and return values CALLPROF_ARGS captured. */
static void put_args(const struct dump_args *a, struct buf *out)
{
	buf_puts(out, ",\"args\":{");
	if (a->refused) {
		buf_puts(out, "\"refused\":");
		put_str(out, a->refused);
		buf_putc(out, '}');
		return;
	}
	buf_puts(out, "\"params\":[");
	for (size_t k = 0; k < a->nparams; k++) {
		buf_puts(out, k ? ",{\"name\":" : "{\"name\":");
		put_str(out, a->param_names[k]);
		buf_puts(out, ",\"type\":");
		put_str(out, a->param_types[k]);
		buf_putc(out, '}');
	}
	buf_putc(out, ']');
	buf_printf(out, ",\"variadic\":%s", a->variadic ? "true" : "false");
	if (a->returns) {
		buf_puts(out, ",\"returns\":");
		put_str(out, a->returns);
	}
	put_u64(out, "entries", a->entries);
	put_u64(out, "calls", a->calls);
	buf_puts(out, ",\"tuples\":");
	put_values(a->tuples, a->ntuples, a->nparams, 1, out);
	if (a->returns) {
		put_u64(out, "returned_calls", a->returned_calls);
		buf_puts(out, ",\"returned\":");
		put_values(a->returned, a->nreturned, 1, 0, out);
	}
	buf_putc(out, '}');
}

static void put_functions(const struct dump *d, struct buf *out)
{
	buf_puts(out, "\"functions\":[");
	for (size_t i = 0; i < d->nfunctions; i++) {
		const struct dump_function *f = &d->functions[i];

		buf_printf(out, "%s{\"id\":%zu,\"name\":", i ? ",\n" : "\n", i);
		put_escaped(out, f->name, f->name_nul);
		if (f->module >= 0)
			buf_printf(out, ",\"module\":%d", f->module);
		else
			buf_puts(out, ",\"module\":null");
		buf_puts(out, ",\"address\":");
		put_str(out, f->address ? f->address : "0x0");
		buf_printf(out, ",\"offset\":\"0x%llx\"",
			   (unsigned long long)(f->has_offset ? f->offset : 0));
		buf_puts(out, ",\"file\":");
		put_escaped(out, f->file, f->file_nul);
		if (f->line)
			put_u64(out, "line", f->line);
		else
			buf_puts(out, ",\"line\":null");
		if (f->library)
			buf_puts(out, ",\"library\":true");
		if (f->front_end) {
			buf_puts(out, ",\"front_end\":");
			put_str(out, f->front_end);
		}
		if (f->args)
			put_args(f->args, out);
		buf_putc(out, '}');
	}
	buf_puts(out, "],\n");
}

static void put_fstat(const struct dump_fstat *f, struct buf *out)
{
	const struct pstat *st = &f->st;

	buf_printf(out, "{\"fn\":%u", f->fn);
	put_u64(out, "calls", st->calls);
	put_u64(out, "inclusive_ns", st->incl_ns);
	put_u64(out, "self_ns", st->self_ns);
	put_u64(out, "raw_inclusive_ns", st->raw_incl_ns);
	put_u64(out, "raw_self_ns", st->raw_self_ns);
	if (st->has_minmax) {
		put_u64(out, "min_ns", st->min_ns);
		put_u64(out, "max_ns", st->max_ns);
	}
	if (st->has_fenced)
		put_u64(out, "fenced_calls", st->fenced_calls);
	if (st->has_timed) {
		put_u64(out, "timed_calls", st->timed_calls);
		put_u64(out, "inclusive_se_ns", st->incl_se_ns);
		put_u64(out, "self_se_ns", st->self_se_ns);
	}
	if (st->has_cpu) {
		put_u64(out, "cpu_calls", st->cpu_calls);
		put_u64(out, "cpu_ns", st->cpu_ns);
		put_u64(out, "cpu_self_ns", st->cpu_self_ns);
	}
	if (st->library_calls)
		put_u64(out, "library_calls", st->library_calls);
	if (st->fentry_calls)
		put_u64(out, "fentry_calls", st->fentry_calls);
	if (st->counted_calls)
		put_u64(out, "counted_calls", st->counted_calls);
	if (st->capture_ns)
		put_u64(out, "capture_ns", st->capture_ns);
	for (unsigned k = 0; k < UNREC_KINDS; k++) {
		char key[64];

		if (st->unrecorded_calls[k])
			put_u64(out, unrec_key(key, sizeof(key), k, "calls"),
				st->unrecorded_calls[k]);
	}
	buf_putc(out, '}');
}

static void put_edge(const struct dump_edge *e, struct buf *out)
{
	if (e->caller >= 0)
		buf_printf(out, "{\"caller\":%d", e->caller);
	else
		buf_puts(out, "{\"caller\":null");
	buf_printf(out, ",\"callee\":%u", e->callee);
	put_u64(out, "calls", e->calls);
	put_u64(out, "inclusive_ns", e->incl_ns);
	put_u64(out, "self_ns", e->self_ns);
	if (e->call_file) {
		buf_puts(out, ",\"call_file\":");
		put_str(out, e->call_file);
	}
	if (e->call_line)
		put_u64(out, "call_line", e->call_line);
	if (e->site) {
		buf_puts(out, ",\"site\":");
		put_str(out, e->site);
	}
	if (e->has_cpu) {
		put_u64(out, "cpu_calls", e->cpu_calls);
		put_u64(out, "cpu_ns", e->cpu_ns);
		put_u64(out, "cpu_self_ns", e->cpu_self_ns);
	}
	buf_putc(out, '}');
}

static void put_tree(const struct dump_thread *t, struct buf *out)
{
	buf_puts(out, ",\n\"tree\":{\"columns\":[\"id\",\"parent\",\"fn\",\"calls\",\"inclusive_"
		      "ns\",\"self_ns\"");
	if (t->has_cpu)
		buf_puts(out, ",\"cpu_ns\",\"cpu_self_ns\"");
	if (t->has_timed)
		buf_puts(out, ",\"timed_calls\",\"inclusive_se_ns\",\"self_se_ns\"");
	buf_puts(out, "],\n\"rows\":[");
	for (size_t i = 0; i < t->nnodes; i++) {
		const struct dump_node *n = &t->nodes[i];

		buf_printf(out, "%s[%zu,", i ? ",\n" : "\n", i);
		if (n->parent >= 0)
			buf_printf(out, "%d", n->parent);
		else
			buf_puts(out, "null");
		buf_printf(out, ",%u,%llu,%llu,%llu", n->fn, (unsigned long long)n->calls,
			   (unsigned long long)n->incl_ns, (unsigned long long)n->self_ns);
		if (t->has_cpu)
			buf_printf(out, ",%llu,%llu", (unsigned long long)n->cpu_ns,
				   (unsigned long long)n->cpu_self_ns);
		if (t->has_timed)
			buf_printf(out, ",%llu,%llu,%llu", (unsigned long long)n->timed_calls,
				   (unsigned long long)n->incl_se_ns,
				   (unsigned long long)n->self_se_ns);
		buf_putc(out, ']');
	}
	buf_puts(out, "]}");
}

static void put_thread(const struct dump_thread *t, struct buf *out)
{
	buf_printf(out, "{\"tid\":%lld", (long long)t->tid);
	if (t->has_pid)
		buf_printf(out, ",\"pid\":%lld", (long long)t->pid);
	buf_puts(out, ",\"name\":");
	put_str(out, t->name);
	if (t->has_wall)
		put_u64(out, "wall_ns", t->wall_ns);
	if (t->has_wait)
		put_u64(out, "runq_wait_ns", t->runq_wait_ns);
	buf_printf(out, ",\"running\":%s", t->running ? "true" : "false");
	for (int k = 0; k < RUN_COUNTERS; k++)
		put_u64(out, run_counter_keys[k], t->counters[k]);
	if (t->folded_first_fn >= 0)
		buf_printf(out, ",\"folded_first_fn\":%d", t->folded_first_fn);
	buf_puts(out, ",\n\"functions\":[");
	for (size_t i = 0; i < t->nfuncs; i++) {
		buf_puts(out, i ? ",\n" : "\n");
		put_fstat(&t->funcs[i], out);
	}
	buf_puts(out, "],\n\"edges\":[");
	for (size_t i = 0; i < t->nedges; i++) {
		buf_puts(out, i ? ",\n" : "\n");
		put_edge(&t->edges[i], out);
	}
	buf_putc(out, ']');
	put_tree(t, out);
	buf_putc(out, '}');
}

void dump_write(const struct dump *d, struct buf *out)
{
	put_run(&d->run, out);
	put_modules(&d->run, out);
	put_functions(d, out);
	buf_puts(out, "\"threads\":[");
	for (size_t i = 0; i < d->nthreads; i++) {
		buf_puts(out, i ? ",\n" : "\n");
		put_thread(&d->threads[i], out);
	}
	buf_puts(out, "]\n}\n");
}
